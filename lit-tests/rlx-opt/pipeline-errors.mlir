// RUN: not rlx-opt %s -p 'builtin.module(func.func(tst-func-work))' 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not rlx-opt %s -p 'builtin.module(test-options{cont=3})' 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not rlx-opt %s -p 'builtin.module(test-func-work)' 2>&1 | FileCheck %s --check-prefix=NEST
// RUN: not rlx-opt %s -p 'func.func(test-options)' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not rlx-opt %s --test-options=mode=fast 2>&1 | FileCheck %s --check-prefix=FLAG

// PASS: <pass-pipeline>:1:26: error: 'tst-func-work' does not refer to a registered pass or pass pipeline; did you mean 'test-func-work'?
// PASS-NEXT: builtin.module(func.func(tst-func-work))
// PASS-NEXT: {{^}}                         ^{{$}}

// OPT: <pass-pipeline>:1:29: error: no such option 'cont' for pass 'test-options'; did you mean 'count'?

// NEST: error: pass 'test-func-work' runs on 'func.func' ops and cannot be added to a 'builtin.module' pipeline; did you mean 'func.func(test-func-work)'?

// ANCHOR: error: can't run 'func.func' pass manager on 'builtin.module' op

// FLAG: <command-line>:1:21: error: invalid value for option 'mode' of pass 'test-options': 'fast' is not a valid value (expected one of: disabled, normal, aggressive)
// FLAG-NEXT: --test-options=mode=fast

module {}
