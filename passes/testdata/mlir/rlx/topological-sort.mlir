// Input for the topological-sort case, written for rlx. The pass sorts the
// graph regions of registered ops (here module bodies): an op moves ahead
// once every value it uses, directly or from its regions, is defined
// before it; a cycle is broken at its first op in block order. Regions
// with dominance (function bodies) and regions of unregistered ops stay
// as written.

// A chain written backwards.
"foo.sink"(%logits) : (tensor<4xf32>) -> ()
%logits = "foo.head"(%hidden) : (tensor<4xf32>) -> tensor<4xf32>
%hidden = "foo.block"(%embed) : (tensor<4xf32>) -> tensor<4xf32>
%embed = "foo.embed"() : () -> tensor<4xf32>

// -----

// A diamond with independent ops interleaved; ops that are ready keep
// their relative order.
%out = "foo.add"(%left, %right) : (i32, i32) -> i32
%left = "foo.proj"(%x) {name = "left"} : (i32) -> i32
"foo.log"() {msg = "independent"} : () -> ()
%right = "foo.proj"(%x) {name = "right"} : (i32) -> i32
%x = "foo.input"() : () -> i32
"foo.log"() {msg = "also independent"} : () -> ()
"foo.use"(%out) : (i32) -> ()

// -----

// A cycle, and ops that depend on it.
%a = "foo.recur"(%b) {step = "a"} : (f32) -> f32
%b = "foo.recur"(%a) {step = "b"} : (f32) -> f32
"foo.use"(%b) : (f32) -> ()
%seed = "foo.seed"() : () -> f32
%c = "foo.recur"(%a, %seed) {step = "c"} : (f32, f32) -> f32

// -----

// An op that uses its own result, and multi-result ops.
%self = "foo.state"(%self, %kv#1) : (i64, i64) -> i64
%kv:2 = "foo.split"(%packed) : (i64) -> (i64, i64)
%packed = "foo.pack"() : () -> i64

// -----

// Uses inside regions count: the region op waits for what its body uses.
"foo.scope"() ({
  "foo.use"(%late) : (i16) -> ()
  "foo.yield"() : () -> ()
}) : () -> ()
"foo.first"() : () -> ()
%late = "foo.def"() : () -> i16

// -----

// Functions have no operands and move ahead of ops that wait; function
// bodies and regions of unregistered ops are not sorted.
"foo.use"(%v) : (i8) -> ()
func.func @decoder_step(%x: i8) -> i8 {
  return %x : i8
}
%v = "foo.def"() : () -> i8
"foo.graph"() ({
  "foo.use"(%g) : (i8) -> ()
  %g = "foo.def"() : () -> i8
}) : () -> ()
func.func @encoder_step() {
  return
}

// -----

// Nested modules are sorted too, each on its own.
module @encoder {
  "foo.use"(%e) : (i1) -> ()
  %e = "foo.def"() : () -> i1
}
"foo.use"(%t) : (i1) -> ()
%t = "foo.def"() : () -> i1

// -----

// Already sorted: nothing moves.
%p = "foo.param"() : () -> f16
%q = "foo.scale"(%p) : (f16) -> f16
"foo.store"(%q) : (f16) -> ()
