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

func.func @dynamic(%x: tensor<4xf32>) {
  // expected-note@+1 {{in the mps.subgraph @s}}
  mps.subgraph @s(%x) : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    // expected-error@+1 {{'graph.reshape' op cannot be in an mps.subgraph: result #0 has a dynamic dim ([?])}}
    %0 = graph.reshape %a : (tensor<4xf32>) -> tensor<?xf32>
    mps.yield
  }
  return
}

// -----

// Leaves are held to the rule on types every op in an mps.subgraph meets.
func.func @dynamic_param() {
  // expected-note@+1 {{in the mps.subgraph @s}}
  %0 = mps.subgraph @s() : () -> tensor<4xf32> {
    // expected-error@+1 {{'graph.param' op cannot be in an mps.subgraph: result #0 has a dynamic dim ([?])}}
    %p = graph.param "p" : tensor<?xf32>
    %q = graph.param "q" : tensor<4xf32>
    mps.yield %q : tensor<4xf32>
  }
  return
}

// -----

// The error is at the leaf, before the op that reads it.
func.func @dynamic_param_read() {
  // expected-note@+1 {{in the mps.subgraph @s}}
  mps.subgraph @s() : () -> () {
    // expected-error@+1 {{'graph.param' op cannot be in an mps.subgraph: result #0 has a dynamic dim ([?])}}
    %p = graph.param "p" : tensor<?xf32>
    %e = graph.exp %p : (tensor<?xf32>) -> tensor<?xf32>
    mps.yield
  }
  return
}

// -----

// A packed GGUF weight: only graph.dequant_matmul reads it, natively.
func.func @packed_param() {
  // expected-note@+1 {{in the mps.subgraph @s}}
  mps.subgraph @s() : () -> () {
    // expected-error@+1 {{'graph.param' op cannot be in an mps.subgraph: result #0 has element type ui8 (MPS takes f32, f16, bf16, i32)}}
    %w = graph.param "w" : tensor<1088xui8>
    mps.yield
  }
  return
}

// -----

func.func @i64_constant() {
  // expected-note@+1 {{in the mps.subgraph @s}}
  mps.subgraph @s() : () -> () {
    // expected-error@+1 {{'graph.constant' op cannot be in an mps.subgraph: result #0 has element type i64 (MPS takes f32, f16, bf16, i32)}}
    %c = graph.constant dense<[0, 1]> : tensor<2xi64>
    mps.yield
  }
  return
}

// -----

// Leaves of the types MPSGraph takes are fine.
func.func @mps_leaves() {
  mps.subgraph @s() : () -> () {
    %h = graph.param "h" : tensor<2x3xf16>
    %b = graph.param "b" : tensor<2x3xbf16>
    %i = graph.constant dense<[0, 1]> : tensor<2xi32>
    %f = graph.constant dense<1.0> : tensor<f32>
    mps.yield
  }
  return
}

// -----

// The leaves MPSGraph cannot take are fine in a thunk.call.
func.func @thunk_leaves() {
  thunk.call @t() {target = "metal"} : () -> () {
    %p = graph.param "p" : tensor<?xf32>
    %w = graph.param "w" : tensor<1088xui8>
    %c = graph.constant dense<[0, 1]> : tensor<2xi64>
    thunk.yield
  }
  return
}

// -----

// Operands and results: statically shaped tensors for mps.subgraph (MPSGraph
// takes static shapes only), ranked tensors for thunk.call.
func.func @operand_dynamic(%x: tensor<?xf32>) {
  // expected-error@+1 {{'mps.subgraph' op operand #0 must be variadic of statically shaped tensor of any type values, but got 'tensor<?xf32>'}}
  mps.subgraph @s(%x) : (tensor<?xf32>) -> () {
  ^bb0(%a: tensor<?xf32>):
    mps.yield
  }
  return
}

// -----

func.func @operand_scalar(%x: tensor<4xf32>, %i: i32) {
  // expected-error@+1 {{'mps.subgraph' op operand #1 must be variadic of statically shaped tensor of any type values, but got 'i32'}}
  mps.subgraph @s(%x, %i) : (tensor<4xf32>, i32) -> () {
  ^bb0(%a: tensor<4xf32>, %b: i32):
    mps.yield
  }
  return
}

// -----

func.func @result_scalar() {
  // expected-error@+1 {{'mps.subgraph' op result #0 must be variadic of statically shaped tensor of any type values, but got 'f32'}}
  %0 = "mps.subgraph"() <{sym_name = "s"}> ({
    %c = "test.scalar"() : () -> f32
    "mps.yield"(%c) : (f32) -> ()
  }) : () -> f32
  return
}

// -----

func.func @thunk_operand_scalar(%x: tensor<?xf32>, %i: i32) {
  // expected-error@+1 {{'thunk.call' op operand #1 must be variadic of ranked tensor of any type values, but got 'i32'}}
  thunk.call @t(%x, %i) {target = "metal"} : (tensor<?xf32>, i32) -> () {
  ^bb0(%a: tensor<?xf32>, %b: i32):
    thunk.yield
  }
  return
}

// -----

func.func @thunk_result_unranked() {
  // expected-error@+1 {{'thunk.call' op result #0 must be variadic of ranked tensor of any type values, but got 'tensor<*xf32>'}}
  %0 = thunk.call @t() {target = "metal"} : () -> tensor<*xf32> {
    %u = "test.unranked"() : () -> tensor<*xf32>
    thunk.yield %u : tensor<*xf32>
  }
  return
}

// -----

// The region ops make up a function body (HasParent<"func::FuncOp">).
// expected-error@+1 {{'mps.subgraph' op expects parent op 'func.func'}}
mps.subgraph @top() : () -> () {
  mps.yield
}

// -----

// expected-error@+1 {{'thunk.call' op expects parent op 'func.func'}}
thunk.call @top() {target = "host"} : () -> () {
  thunk.yield
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

// The regions are isolated from above: as in MLIR, the parser resolves
// the outer value and the verifier rejects its use.
func.func @isolated(%x: tensor<4xf32>) {
  // expected-note@+1 {{required by region isolation constraints}}
  mps.subgraph @s() : () -> () {
    // expected-error@+1 {{using value defined outside the region}}
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

// Region ops do not nest: the nested one has the wrong parent.
func.func @nested(%x: tensor<4xf32>) {
  thunk.call @t(%x) {target = "metal"} : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    // expected-error@+1 {{'mps.subgraph' op expects parent op 'func.func'}}
    mps.subgraph @s() : () -> () {
      mps.yield
    }
    thunk.yield
  }
  return
}

// -----

func.func @nested_in_mps(%x: tensor<4xf32>) {
  mps.subgraph @s(%x) : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    // expected-error@+1 {{'thunk.call' op expects parent op 'func.func'}}
    thunk.call @t() {target = "metal"} : () -> () {
      thunk.yield
    }
    mps.yield
  }
  return
}

// -----

// Nor does any other op with regions go in a thunk.call.
func.func @nested_other(%x: tensor<4xf32>) {
  // expected-note@+1 {{in the thunk.call @t}}
  thunk.call @t(%x) {target = "metal"} : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    // expected-error@+1 {{'foo.region' op cannot be in a thunk.call: region ops do not nest}}
    "foo.region"() ({
      "foo.end"() : () -> ()
    }) : () -> ()
    thunk.yield
  }
  return
}

// -----

func.func @no_symbol(%x: tensor<4xf32>) {
  // expected-error@+1 {{requires attribute 'sym_name'}}
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

// -----

// The custom form spells the symbol out; the attribute dictionary may not
// give another one.
func.func @sym_in_dict(%x: tensor<4xf32>) {
  // expected-error@+1 {{custom op 'mps.subgraph' 'sym_name' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
  mps.subgraph @s(%x) {sym_name = "t"} : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    mps.yield
  }
  return
}

// -----

func.func @sym_in_dict_thunk(%x: tensor<4xf32>) {
  // expected-error@+1 {{custom op 'thunk.call' 'sym_name' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
  thunk.call @s(%x) {target = "metal", sym_name = "t"} : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    thunk.yield
  }
  return
}
