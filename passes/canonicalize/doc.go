// Package canonicalize is the canonicalize pass: it applies every
// canonicalization pattern and folder greedily until nothing changes, with
// MLIR's options and MLIR's algorithm (rewrite.ApplyPatterns).
//
// Folders come with the op definitions (ir.OpDef.Fold). Patterns come from
// pattern sources: functions, one per dialect, that return the dialect's
// canonicalization patterns for a context. passes.All() lists the sources
// of rlx's dialects; a program embedding rlx adds its own by building the
// pass with Info(sources...).
package canonicalize
