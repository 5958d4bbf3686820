// RUN: rlx-opt %s --dump-pass-pipeline --test-func-work --test-options='count=5 label="a b"' --test-func-work -o /dev/null 2>&1 | FileCheck %s
// RUN: rlx-opt %s --dump-pass-pipeline -p 'builtin.module( func.func( test-func-work ) )' -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLICIT

// Pass flags nest implicitly; every option is printed with its value.
// CHECK: Pass Manager with 3 passes:
// CHECK-NEXT: builtin.module(func.func(test-func-work{iterations=1}),test-options{big=-1 count=5 flag=false label="a b" limit=4294967295 mode=normal names=a,b pair=1:2 ratio=0.5 },func.func(test-func-work{iterations=1}))

// EXPLICIT: Pass Manager with 1 passes:
// EXPLICIT-NEXT: builtin.module(func.func(test-func-work{iterations=1}))

func.func @f() { return }
