// RUN: not rlx-opt %s --mlir-print-op-genric 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not rlx-opt %s %s 2>&1 | FileCheck %s --check-prefix=POSITIONAL
// RUN: rlx-opt --list-passes | FileCheck %s --check-prefix=LIST
// RUN: rlx-opt --help | FileCheck %s --check-prefix=HELP
// RUN: rlx-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: rlx-opt %s -o %t.out && FileCheck %s --check-prefix=OUT --input-file=%t.out
// RUN: rlx-opt < %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: rlx-opt %s --no-implicit-module | FileCheck %s --check-prefix=NOMOD

// UNKNOWN: Unknown command line argument '--mlir-print-op-genric'.  Try: 'rlx-opt --help'
// UNKNOWN-NEXT: Did you mean '--mlir-print-op-generic'?
// POSITIONAL: Too many positional arguments specified!
// LIST: test-func-work {{ *}}on 'func.func'
// LIST-NEXT: iterations=<int>  How many times to hash each function (default: 1)
// HELP: --pass-pipeline=<string>
// HELP: --test-func-work {{.*}}(on 'func.func')
// HELP-NEXT: --iterations=<int> {{.*}}(default: 1)
// VERSION: rlx-opt version
// OUT: func.func @f()
// GENERIC: "func.func"() <{function_type = () -> (), sym_name = "f"}>
// NOMOD: {{^}}func.func @f() {

func.func @f() {
  return
}
