// Package stripdebuginfo is the strip-debuginfo pass: it sets the location
// of every op and every block argument to loc(unknown), as MLIR's
// StripDebugInfo does. Locations held inside attributes are kept.
package stripdebuginfo
