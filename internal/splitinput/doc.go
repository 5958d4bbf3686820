// Package splitinput cuts an input file into chunks at a split marker
// (`// -----`) the way mlir-opt 19's --split-input-file does, naming each
// chunk as mlir-opt names it in locations and reporting the near misses
// it warns about. rlx-opt and rlx-translate share it.
package splitinput
