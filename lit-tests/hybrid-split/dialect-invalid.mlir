// RUN: rlx-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// Verifier errors of mps.subgraph, thunk.call and their terminators.

func.func @arg_count(%x: tensor<4xf32>) {
  // expected-error@+1 {{'mps.subgraph' op has 1 operands, but its region takes 2 arguments}}
  mps.subgraph @s(%x) : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    mps.yield
  }
  return
}

// -----

func.func @arg_type(%x: tensor<4xf32>) {
  // expected-error@+1 {{'thunk.call' op region argument #0 has type 'tensor<4xf16>', but operand #0 has type 'tensor<4xf32>'}}
  thunk.call @t(%x) {target = "metal"} : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf16>):
    thunk.yield
  }
  return
}

// -----

func.func @yield_count(%x: tensor<4xf32>) {
  %0 = mps.subgraph @s(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    // expected-error@+1 {{'mps.yield' op yields 0 values, but the enclosing 'mps.subgraph' has 1 results}}
    mps.yield
  }
  return
}

// -----

func.func @yield_type(%x: tensor<4xf32>) {
  %0 = thunk.call @t(%x) {target = "metal"} : (tensor<4xf32>) -> tensor<4xf16> {
  ^bb0(%a: tensor<4xf32>):
    // expected-error@+1 {{'thunk.yield' op operand #0 has type 'tensor<4xf32>', but result #0 of the enclosing 'thunk.call' has type 'tensor<4xf16>'}}
    thunk.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @wrong_yield(%x: tensor<4xf32>) {
  mps.subgraph @s(%x) : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    // expected-error@+1 {{'thunk.yield' op expects parent op 'thunk.call'}}
    thunk.yield
  }
  return
}

// -----

func.func @yield_outside() {
  // expected-error@+1 {{'mps.yield' op expects parent op 'mps.subgraph'}}
  mps.yield
}

// -----

func.func @not_mps(%x: tensor<4xf32>) {
  // expected-note@+1 {{in the mps.subgraph @s}}
  mps.subgraph @s(%x) : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    // expected-error@+1 {{'graph.softplus' op cannot be in an mps.subgraph: no MPSGraph lowering}}
    %0 = graph.softplus %a : (tensor<4xf32>) -> tensor<4xf32>
    mps.yield
  }
  return
}

// -----

func.func @not_graph(%x: tensor<4xf32>) {
  // expected-note@+1 {{in the mps.subgraph @s}}
  mps.subgraph @s(%x) : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    // expected-error@+1 {{'foo.op' op cannot be in an mps.subgraph: 'foo.op' is not a graph op}}
    %0 = "foo.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    mps.yield
  }
  return
}

// -----

func.func @dynamic(%x: tensor<?xf32>) {
  // expected-note@+1 {{in the mps.subgraph @s}}
  mps.subgraph @s(%x) : (tensor<?xf32>) -> () {
  ^bb0(%a: tensor<?xf32>):
    // expected-error@+1 {{'graph.exp' op cannot be in an mps.subgraph: operand #0 has a dynamic dim ([?])}}
    %0 = graph.exp %a : (tensor<?xf32>) -> tensor<?xf32>
    mps.yield
  }
  return
}

// -----

// q is computed by a matmul in an earlier region: the verifier follows it
// back across the boundary.
func.func @attention_computed(%x: tensor<1x4x4x16xf32>, %w: tensor<16x16xf32>) {
  %0 = mps.subgraph @s0(%x, %w) : (tensor<1x4x4x16xf32>, tensor<16x16xf32>) -> tensor<1x4x4x16xf32> {
  ^bb0(%a: tensor<1x4x4x16xf32>, %b: tensor<16x16xf32>):
    %q = graph.matmul %a, %b : (tensor<1x4x4x16xf32>, tensor<16x16xf32>) -> tensor<1x4x4x16xf32>
    mps.yield %q : tensor<1x4x4x16xf32>
  }
  // expected-note@+1 {{in the mps.subgraph @s1}}
  mps.subgraph @s1(%0, %x) : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> () {
  ^bb0(%q: tensor<1x4x4x16xf32>, %k: tensor<1x4x4x16xf32>):
    // expected-error@+1 {{'graph.attention' op cannot be in an mps.subgraph: operand #0 (q) is computed by graph.matmul}}
    %o = graph.attention %q, %k, %k : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    mps.yield
  }
  return
}

// -----

// Leaf-materialised, but Dv != D.
func.func @attention_dv(%q: tensor<1x4x4x16xf32>, %v: tensor<1x4x4x8xf32>) {
  // expected-note@+1 {{in the mps.subgraph @s}}
  mps.subgraph @s(%q, %v) : (tensor<1x4x4x16xf32>, tensor<1x4x4x8xf32>) -> () {
  ^bb0(%a: tensor<1x4x4x16xf32>, %b: tensor<1x4x4x8xf32>):
    // expected-error@+1 {{'graph.attention' op cannot be in an mps.subgraph: Dv = 8 differs from D = 16 (MPS takes Dv = D only)}}
    %o = graph.attention %a, %a, %b : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
    mps.yield
  }
  return
}

// -----

// The regions are isolated from above: the parser does not see outer values.
func.func @isolated(%x: tensor<4xf32>) {
  mps.subgraph @s() : () -> () {
    // expected-error@+1 {{use of undeclared SSA value name}}
    %0 = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
    mps.yield
  }
  return
}

// -----

func.func @target(%x: tensor<4xf32>) {
  // expected-error@+1 {{'thunk.call' op attribute 'target' must be "metal" or "host", got "cuda"}}
  thunk.call @t(%x) {target = "cuda"} : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    thunk.yield
  }
  return
}

// -----

func.func @no_target(%x: tensor<4xf32>) {
  // expected-error@+1 {{'thunk.call' op requires attribute 'target'}}
  thunk.call @t(%x) : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    thunk.yield
  }
  return
}

// -----

func.func @nested(%x: tensor<4xf32>) {
  // expected-note@+1 {{in the thunk.call @t}}
  thunk.call @t(%x) {target = "metal"} : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    // expected-error@+1 {{'mps.subgraph' op cannot be in a thunk.call: region ops do not nest}}
    mps.subgraph @s() : () -> () {
      mps.yield
    }
    thunk.yield
  }
  return
}

// -----

func.func @no_symbol(%x: tensor<4xf32>) {
  // expected-error@+1 {{requires string attribute 'sym_name'}}
  "mps.subgraph"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "mps.yield"() : () -> ()
  }) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @not_function_type(%x: tensor<4xf32>) {
  // expected-error@+1 {{custom op 'mps.subgraph' invalid kind of type specified}}
  mps.subgraph @s(%x) : tensor<4xf32> {
    mps.yield
  }
  return
}
