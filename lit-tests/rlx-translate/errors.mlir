// RUN: not rlx-translate %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not rlx-translate --mlir-to-dot --mlir-to-dot %s 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not rlx-translate --mlir-to-dot --dot-color-by=size %s 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not rlx-translate --mlir-to-dto %s 2>&1 | FileCheck %s --check-prefix=TYPO
// RUN: not rlx-translate --mlir-to-dot %s.missing 2>&1 | FileCheck %s --check-prefix=MISSING -DFILE=%s
// RUN: not rlx-translate --mlir-to-dot --split-input-file %s -o %t.dot 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: rlx-translate --mlir-to-dot --split-input-file --verify-diagnostics %s -o /dev/null
// RUN: rlx-translate --help | FileCheck %s --check-prefix=HELP

// Errors are worded as rlx-opt's (LLVM's command line, mlir-opt's
// diagnostics) and exit 1; a chunk that does not parse is reported with
// its location and the others still translate.

// NONE: rlx-translate: Translations to perform option: must be specified at least once!
// TWICE: rlx-translate: Translations to perform option: may only occur zero or one times! (--mlir-to-dot and --mlir-to-dot given)
// BADOPT: rlx-translate: for the --dot-color-by option: 'size' is not a valid value (expected one of: op, region)
// TYPO: rlx-translate: Unknown command line argument '--mlir-to-dto'.  Try: 'rlx-translate --help'
// TYPO-NEXT: rlx-translate: Did you mean '--mlir-to-dot'?
// MISSING: cannot open input file '[[FILE]].missing': No such file or directory
// PARSE: within split at {{.*}}errors.mlir:{{[0-9]+}} offset :5:3: error: custom op 'graph.bogus' is unknown
// HELP: Translations to perform
// HELP-NEXT: --mlir-to-dot

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

func.func @g() {
  // expected-error@+1 {{custom op 'graph.bogus' is unknown}}
  graph.bogus
  return
}
