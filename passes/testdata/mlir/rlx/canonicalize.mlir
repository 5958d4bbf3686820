// Input for the canonicalize cases (default, func-anchored, aggressive
// region simplification, bottom-up) and for cse+canonicalize+symbol-dce,
// written for rlx. The folders and patterns involved are those of
// builtin.unrealized_conversion_cast and func; branches are unregistered
// foo.* ops, which implement no branch interface, so blocks only merge
// when no operand has to be added.

// Pure ops without uses are erased, whole chains of them included; ops
// with unknown effects stay.
func.func private @log_metric(f32)
func.func @prune_activations(%x: f32) {
  %a = builtin.unrealized_conversion_cast %x : f32 to i32
  %b = builtin.unrealized_conversion_cast %a : i32 to i16
  %c = builtin.unrealized_conversion_cast %b : i16 to i8
  %fn = func.constant @log_metric : (f32) -> ()
  %r = "foo.reduce_mean"(%x) : (f32) -> f32
  func.call @log_metric(%x) : (f32) -> ()
  return
}

// -----

// A cast to the type it already has folds away.
func.func @identity_cast(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = builtin.unrealized_conversion_cast %x : tensor<2x2xf32> to tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// A round trip through another type folds to the original value and the
// intermediate cast dies.
func.func @quantize_dequantize(%x: tensor<4xf32>) -> tensor<4xf32> {
  %q = builtin.unrealized_conversion_cast %x : tensor<4xf32> to tensor<4xi8>
  %dq = builtin.unrealized_conversion_cast %q : tensor<4xi8> to tensor<4xf32>
  return %dq : tensor<4xf32>
}

// -----

// A round trip whose intermediate value has another user: the outer cast
// folds, the inner one stays.
func.func @shared_quantized(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi8>) {
  %q = builtin.unrealized_conversion_cast %x : tensor<4xf32> to tensor<4xi8>
  %dq = builtin.unrealized_conversion_cast %q : tensor<4xi8> to tensor<4xf32>
  return %dq, %q : tensor<4xf32>, tensor<4xi8>
}

// -----

// Casts through three different types do not fold.
func.func @widen_twice(%x: i8) -> i32 {
  %0 = builtin.unrealized_conversion_cast %x : i8 to i16
  %1 = builtin.unrealized_conversion_cast %0 : i16 to i32
  return %1 : i32
}

// -----

// N values packed into one and unpacked again fold to the N values.
func.func @pack_unpack_heads(%h0: tensor<8xf32>, %h1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %packed = builtin.unrealized_conversion_cast %h0, %h1 : tensor<8xf32>, tensor<8xf32> to tensor<2x8xf32>
  %u:2 = builtin.unrealized_conversion_cast %packed : tensor<2x8xf32> to tensor<8xf32>, tensor<8xf32>
  return %u#0, %u#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Using only some results of the inner cast, or using them out of order,
// does not fold.
func.func @partial_unpack(%h0: f32, %h1: f32) -> (f32, f32, i64) {
  %split:2 = builtin.unrealized_conversion_cast %h0 : f32 to i32, i32
  %one = builtin.unrealized_conversion_cast %split#0 : i32 to f32
  %both:2 = builtin.unrealized_conversion_cast %h0, %h1 : f32, f32 to i32, i32
  %swapped:2 = builtin.unrealized_conversion_cast %both#1, %both#0 : i32, i32 to f32, f32
  %back = builtin.unrealized_conversion_cast %split#1, %both#0 : i32, i32 to i64
  return %one, %swapped#0, %back : f32, f32, i64
}

// -----

// Casts with no operands never fold, and erase when unused.
func.func @fresh_values() -> index {
  %n = builtin.unrealized_conversion_cast to index
  %unused = builtin.unrealized_conversion_cast to i1
  return %n : index
}

// -----

// Folding does not look at attributes: which cast of a round-trip chain
// survives depends on the order the ops are visited (top-down keeps the
// last cast, bottom-up the first).
func.func @visit_order(%x: f32) -> i32 {
  %c1 = builtin.unrealized_conversion_cast %x : f32 to i32 {step = 1 : i32}
  %c2 = builtin.unrealized_conversion_cast %c1 : i32 to f32 {step = 2 : i32}
  %c3 = builtin.unrealized_conversion_cast %c2 : f32 to i32 {step = 3 : i32}
  return %c3 : i32
}

// -----

// An indirect call of a func.constant becomes a direct call; the constant
// dies.
func.func private @softmax(tensor<16xf32>) -> tensor<16xf32>
func.func @call_known_kernel(%x: tensor<16xf32>) -> tensor<16xf32> {
  %k = func.constant @softmax : (tensor<16xf32>) -> tensor<16xf32>
  %y = func.call_indirect %k(%x) : (tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

// An indirect call of an argument stays; a constant used by several
// indirect calls serves them all, in any block.
func.func private @relu(f32) -> f32
func.func @dispatch(%f: (f32) -> f32, %x: f32, %c: i1) -> f32 {
  %k = func.constant @relu : (f32) -> f32
  %a = func.call_indirect %f(%x) : (f32) -> f32
  %b = func.call_indirect %k(%a) : (f32) -> f32
  "foo.cond_br"(%c)[^more, ^done] : (i1) -> ()
^more:
  %d = func.call_indirect %k(%b) : (f32) -> f32
  return %d : f32
^done:
  return %b : f32
}

// -----

// Folding an identity cast exposes the constant to the call pattern.
func.func private @rope(f32) -> f32
func.func @through_identity(%x: f32) -> f32 {
  %k = func.constant @rope : (f32) -> f32
  %same = builtin.unrealized_conversion_cast %k : (f32) -> f32 to (f32) -> f32
  %y = func.call_indirect %same(%x) : (f32) -> f32
  return %y : f32
}

// -----

// A call of a kernel with no results, whose result-less call then stays.
func.func private @zero_grad()
func.func @step() {
  %k = func.constant @zero_grad : () -> ()
  func.call_indirect %k() : () -> ()
  return
}

// -----

// Equal constants are uniqued and constants are hoisted to the start of
// the entry block, the later ones ahead of the earlier ones when other
// ops stand between them.
func.func private @q_proj()
func.func private @k_proj()
func.func @collect_kernels(%c: i1) -> (() -> (), () -> (), () -> (), () -> ()) {
  %q = func.constant @q_proj : () -> ()
  "foo.trace"() : () -> ()
  %k = func.constant @k_proj : () -> ()
  %q2 = func.constant @q_proj : () -> ()
  "foo.br"()[^next] : () -> ()
^next:
  %k2 = func.constant @k_proj : () -> ()
  return %q, %k, %q2, %k2 : () -> (), () -> (), () -> (), () -> ()
}

// -----

// An unregistered op might be isolated from above: constants in its
// region are uniqued and hoisted within that region only.
func.func private @ffn()
func.func @constants_in_region() -> (() -> ()) {
  %outer = func.constant @ffn : () -> ()
  "foo.loop"() ({
    "foo.trace"() : () -> ()
    %a = func.constant @ffn : () -> ()
    %b = func.constant @ffn : () -> ()
    "foo.yield"(%a, %b) : (() -> (), () -> ()) -> ()
  }) : () -> ()
  return %outer : () -> ()
}

// -----

// Dead ops inside an unregistered op's region are erased; the region op
// itself stays.
func.func @dead_in_region(%x: f32) {
  "foo.layer"() ({
  ^bb0(%h: f32):
    %unused = builtin.unrealized_conversion_cast %h : f32 to i32
    %rt = builtin.unrealized_conversion_cast %h : f32 to i64
    %back = builtin.unrealized_conversion_cast %rt : i64 to f32
    "foo.yield"(%back) : (f32) -> ()
  }) : () -> ()
  return
}

// -----

// Blocks that cannot be reached from the entry block are erased, including
// a cycle of them.
func.func @early_exit(%x: f32) -> f32 {
  return %x : f32
^dead_loop:
  %y = "foo.step"(%x) : (f32) -> f32
  "foo.br"()[^dead_latch] : () -> ()
^dead_latch:
  "foo.br"()[^dead_loop] : () -> ()
^dead_tail(%z: f32):
  return %z : f32
}

// -----

// Region simplification drops the unused arguments of reachable blocks
// other than the entry block, though the unregistered branches keep their
// operands (mlir-opt 19 does so too); dead pure ops in every block go.
func.func @kept_block_args(%x: f32, %c: i1) -> f32 {
  %dead = builtin.unrealized_conversion_cast %x : f32 to i32
  "foo.cond_br"(%c, %x)[^body, ^exit] : (i1, f32) -> ()
^body(%unused: f32):
  %dead2 = builtin.unrealized_conversion_cast %unused : f32 to i32
  "foo.br"(%x)[^exit] : (f32) -> ()
^exit(%r: f32):
  return %x : f32
}

// -----

// Identical blocks that branch to the same place merge under
// region-simplify=aggressive, not under normal.
func.func @merge_identical(%x: f32, %c: i1) {
  "foo.cond_br"(%c)[^fast, ^slow] : (i1) -> ()
^fast:
  "foo.emit"(%x) : (f32) -> ()
  "foo.br"()[^done] : () -> ()
^slow:
  "foo.emit"(%x) : (f32) -> ()
  "foo.br"()[^done] : () -> ()
^done:
  return
}

// -----

// Blocks that use their own arguments the same way also merge.
func.func @merge_with_args(%x: f32, %y: f32, %c: i1) {
  "foo.cond_br"(%c, %x, %y)[^a, ^b] : (i1, f32, f32) -> ()
^a(%va: f32):
  %ia = builtin.unrealized_conversion_cast %va : f32 to i32
  "foo.emit"(%ia) : (i32) -> ()
  return
^b(%vb: f32):
  %ib = builtin.unrealized_conversion_cast %vb : f32 to i32
  "foo.emit"(%ib) : (i32) -> ()
  return
}

// -----

// Blocks that differ in a value from outside would need a new argument,
// which unregistered branches cannot pass: no merge. Neither do blocks
// with different argument types, different successors, different
// attributes, or ops with regions.
func.func @no_merge(%x: f32, %y: f32, %i: i32) {
  "foo.switch"(%i)[^ox, ^oy, ^ta, ^tb, ^sa, ^sb, ^aa, ^ab, ^ra, ^rb] : (i32) -> ()
^ox:
  "foo.emit"(%x) : (f32) -> ()
  return
^oy:
  "foo.emit"(%y) : (f32) -> ()
  return
^ta(%t0: f32):
  "foo.emit"(%t0) : (f32) -> ()
  return
^tb(%t1: f16):
  "foo.emit"(%t1) : (f16) -> ()
  return
^sa:
  "foo.br"()[^ox] : () -> ()
^sb:
  "foo.br"()[^oy] : () -> ()
^aa:
  "foo.emit"(%x) {channel = 0 : i32} : (f32) -> ()
  return
^ab:
  "foo.emit"(%x) {channel = 1 : i32} : (f32) -> ()
  return
^ra:
  "foo.region"() ({
    "foo.yield"() : () -> ()
  }) : () -> ()
  return
^rb:
  "foo.region"() ({
    "foo.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// The entry block never merges; three equal blocks merge into the first.
func.func @three_way(%x: f32, %i: i32) {
  "foo.switch"(%i)[^a, ^b, ^c] : (i32) -> ()
^a:
  "foo.emit"(%x) : (f32) -> ()
  return
^b:
  "foo.emit"(%x) : (f32) -> ()
  return
^c:
  "foo.emit"(%x) : (f32) -> ()
  return
}

// -----

// Blocks that become equal once dead ops are gone merge too.
func.func @merge_after_dce(%x: f32, %c: i1) {
  "foo.cond_br"(%c)[^a, ^b] : (i1) -> ()
^a:
  %dead = builtin.unrealized_conversion_cast %x : f32 to i8
  "foo.emit"(%x) : (f32) -> ()
  return
^b:
  "foo.emit"(%x) : (f32) -> ()
  return
}

// -----

// Empty blocks that only branch on merge; blocks that loop to themselves
// have different successors and do not.
func.func @forwarders(%c: i1, %x: f32) {
  "foo.cond_br"(%c)[^a, ^b] : (i1) -> ()
^a:
  "foo.br"()[^join] : () -> ()
^b:
  "foo.br"()[^join] : () -> ()
^join:
  "foo.cond_br"(%c, %x)[^spin_a, ^spin_b] : (i1, f32) -> ()
^spin_a(%p: f32):
  "foo.emit"(%p) : (f32) -> ()
  "foo.br"()[^spin_a] : () -> ()
^spin_b(%q: f32):
  "foo.emit"(%q) : (f32) -> ()
  "foo.br"()[^spin_b] : () -> ()
}

// -----

// Region simplification reaches multi-block regions nested in ops.
func.func @nested_regions(%x: f32, %c: i1) {
  "foo.loop"() ({
    "foo.cond_br"(%c)[^a, ^b] : (i1) -> ()
  ^a:
    "foo.emit"(%x) : (f32) -> ()
    "foo.yield"() : () -> ()
  ^b:
    "foo.emit"(%x) : (f32) -> ()
    "foo.yield"() : () -> ()
  ^unreachable:
    "foo.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// In a graph region (the module body) pure ops that only feed each other
// in a cycle are dead and erased by region simplification; the
// func-anchored pipeline leaves the module body alone.
%a = builtin.unrealized_conversion_cast %c : f16 to i32
%b = builtin.unrealized_conversion_cast %a : i32 to i64
%c = builtin.unrealized_conversion_cast %b : i64 to f16
%src = "foo.source"() : () -> f32
%rt = builtin.unrealized_conversion_cast %back : f32 to i8
%back = builtin.unrealized_conversion_cast %fwd : i8 to f32
%fwd = builtin.unrealized_conversion_cast %src : f32 to i8
"foo.sink"(%rt) : (i8) -> ()
func.func @unaffected(%x: f32) -> f32 {
  %id = builtin.unrealized_conversion_cast %x : f32 to f32
  return %id : f32
}

// -----

// Folding in a graph region, where the folded cast is defined after its
// user.
%u = builtin.unrealized_conversion_cast %late : i32 to i64
%first = "foo.src"() : () -> i32
%late = builtin.unrealized_conversion_cast %first : i32 to i32
"foo.sink"(%u) : (i64) -> ()

// -----

// Constants in the module body are uniqued and hoisted there.
func.func private @embed()
"foo.config"() : () -> ()
%e0 = func.constant @embed : () -> ()
%e1 = func.constant @embed : () -> ()
"foo.use"(%e0, %e1) : (() -> (), () -> ()) -> ()

// -----

// Canonicalize erases no symbols: unused private functions stay until
// symbol-dce (in the combined pipeline, after cse and canonicalize have
// removed the round trips).
func.func private @helper(%x: f32) -> f32 {
  return %x : f32
}
func.func private @only_caller(%x: f32) -> f32 {
  %k = func.constant @helper : (f32) -> f32
  %y = func.call_indirect %k(%x) : (f32) -> f32
  return %y : f32
}
func.func @entry(%x: f32) -> f32 {
  %a = builtin.unrealized_conversion_cast %x : f32 to i32
  %b = builtin.unrealized_conversion_cast %a : i32 to f32
  %c = builtin.unrealized_conversion_cast %x : f32 to i32
  %d = builtin.unrealized_conversion_cast %c : i32 to f32
  "foo.use"(%b, %d) : (f32, f32) -> ()
  return %b : f32
}
