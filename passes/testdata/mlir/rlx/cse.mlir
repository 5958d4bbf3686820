// Input for the cse cases, written for rlx. Pure ops are
// builtin.unrealized_conversion_cast and func.constant; ops with unknown
// effects are func.call, func.call_indirect and unregistered foo.* ops.
// Branches and region ops are unregistered, so every multi-block region is
// walked through its dominator tree.

// Two casts of the same value to the same type: the second is replaced.
func.func @attention_scores(%q: tensor<8x64xf32>) -> (tensor<8x64xf16>, tensor<8x64xf16>) {
  %lo = builtin.unrealized_conversion_cast %q : tensor<8x64xf32> to tensor<8x64xf16>
  %lo_again = builtin.unrealized_conversion_cast %q : tensor<8x64xf32> to tensor<8x64xf16>
  return %lo, %lo_again : tensor<8x64xf16>, tensor<8x64xf16>
}

// -----

// Same operand, different result types: both stay.
func.func @mixed_precision(%x: tensor<16xf32>) -> (tensor<16xf16>, tensor<16xbf16>) {
  %h = builtin.unrealized_conversion_cast %x : tensor<16xf32> to tensor<16xf16>
  %b = builtin.unrealized_conversion_cast %x : tensor<16xf32> to tensor<16xbf16>
  return %h, %b : tensor<16xf16>, tensor<16xbf16>
}

// -----

// Attributes take part in equivalence; their written order does not.
func.func @tagged_projections(%x: tensor<4x32xf32>) -> (i64, i64, i64, i64) {
  %wq = builtin.unrealized_conversion_cast %x : tensor<4x32xf32> to i64 {head = 0 : i32, proj = "q"}
  %wk = builtin.unrealized_conversion_cast %x : tensor<4x32xf32> to i64 {head = 0 : i32, proj = "k"}
  %wq2 = builtin.unrealized_conversion_cast %x : tensor<4x32xf32> to i64 {proj = "q", head = 0 : i32}
  %wq3 = builtin.unrealized_conversion_cast %x : tensor<4x32xf32> to i64 {proj = "q", head = 0 : i64}
  return %wq, %wk, %wq2, %wq3 : i64, i64, i64, i64
}

// -----

// An attribute-free op is not equivalent to the same op with an attribute.
func.func @bare_and_annotated(%x: i32) -> (i64, i64, i64) {
  %0 = builtin.unrealized_conversion_cast %x : i32 to i64
  %1 = builtin.unrealized_conversion_cast %x : i32 to i64 {note}
  %2 = builtin.unrealized_conversion_cast %x : i32 to i64
  return %0, %1, %2 : i64, i64, i64
}

// -----

// Operands must match in number and order.
func.func @pack_heads(%h0: f32, %h1: f32) -> (i64, i64, i64, i64) {
  %a = builtin.unrealized_conversion_cast %h0, %h1 : f32, f32 to i64
  %b = builtin.unrealized_conversion_cast %h1, %h0 : f32, f32 to i64
  %c = builtin.unrealized_conversion_cast %h0, %h1 : f32, f32 to i64
  %d = builtin.unrealized_conversion_cast %h0 : f32 to i64
  return %a, %b, %c, %d : i64, i64, i64, i64
}

// -----

// Multi-result and zero-operand ops are eliminated as a whole.
func.func @split_kv(%kv: tensor<2x8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, index, index) {
  %k:2 = builtin.unrealized_conversion_cast %kv : tensor<2x8xf32> to tensor<8xf32>, tensor<8xf32>
  %v:2 = builtin.unrealized_conversion_cast %kv : tensor<2x8xf32> to tensor<8xf32>, tensor<8xf32>
  %n = builtin.unrealized_conversion_cast to index
  %m = builtin.unrealized_conversion_cast to index
  return %k#0, %v#1, %v#0, %k#1, %n, %m : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, index, index
}

// -----

// Constants are pure: equal ones merge, different callees do not.
func.func private @gelu(f32) -> f32
func.func private @silu(f32) -> f32
func.func @pick_activation() -> ((f32) -> f32, (f32) -> f32, (f32) -> f32) {
  %g = func.constant @gelu : (f32) -> f32
  %s = func.constant @silu : (f32) -> f32
  %g2 = func.constant @gelu : (f32) -> f32
  return %g, %s, %g2 : (f32) -> f32, (f32) -> f32, (f32) -> f32
}

// -----

// Eliminating the head of a chain makes the next link equivalent too.
func.func @residual_chain(%x: f32) -> (i32, i32) {
  %a0 = builtin.unrealized_conversion_cast %x : f32 to i64
  %a1 = builtin.unrealized_conversion_cast %a0 : i64 to i32
  %b0 = builtin.unrealized_conversion_cast %x : f32 to i64
  %b1 = builtin.unrealized_conversion_cast %b0 : i64 to i32
  return %a1, %b1 : i32, i32
}

// -----

// Dead pure ops are erased when they are reached; cse makes one sweep, so
// an op whose only user is erased later in the sweep survives.
func.func @unused_features(%x: f32) {
  %dead = builtin.unrealized_conversion_cast %x : f32 to i32
  %feeds_dead = builtin.unrealized_conversion_cast %x : f32 to i64
  %dead_user = builtin.unrealized_conversion_cast %feeds_dead : i64 to i16
  %c = func.constant @unused_features : (f32) -> ()
  return
}

// -----

// Ops with unknown effects are never merged or erased.
func.func private @rng_uniform() -> f32
func.func @dropout_masks(%p: f32) -> (f32, f32, i1, i1) {
  %r0 = func.call @rng_uniform() : () -> f32
  %r1 = func.call @rng_uniform() : () -> f32
  %m0 = "foo.bernoulli"(%p) : (f32) -> i1
  %m1 = "foo.bernoulli"(%p) : (f32) -> i1
  %unused = "foo.bernoulli"(%p) : (f32) -> i1
  "foo.barrier"() : () -> ()
  "foo.barrier"() : () -> ()
  return %r0, %r1, %m0, %m1 : f32, f32, i1, i1
}

// -----

// An indirect call is not pure either, even of the same callee value.
func.func @apply_twice(%f: (i32) -> i32, %x: i32) -> (i32, i32) {
  %0 = func.call_indirect %f(%x) : (i32) -> i32
  %1 = func.call_indirect %f(%x) : (i32) -> i32
  return %0, %1 : i32, i32
}

// -----

// A value of a dominating block is reused in the blocks it dominates, but
// not across sibling blocks or into a join point.
func.func @branchy_norm(%x: f32, %flag: i1) -> i64 {
  %scale = builtin.unrealized_conversion_cast %x : f32 to i64
  "foo.use"(%scale) : (i64) -> ()
  "foo.cond_br"(%flag)[^left, ^right] : (i1) -> ()
^left:
  %scale_l = builtin.unrealized_conversion_cast %x : f32 to i64
  %shift_l = builtin.unrealized_conversion_cast %x : f32 to i32
  "foo.use"(%scale_l, %shift_l) : (i64, i32) -> ()
  "foo.br"()[^join] : () -> ()
^right:
  %shift_r = builtin.unrealized_conversion_cast %x : f32 to i32
  "foo.use"(%shift_r) : (i32) -> ()
  "foo.br"()[^join] : () -> ()
^join:
  %shift_j = builtin.unrealized_conversion_cast %x : f32 to i32
  %scale_j = builtin.unrealized_conversion_cast %x : f32 to i64
  "foo.use"(%shift_j) : (i32) -> ()
  return %scale_j : i64
}

// -----

// Dominance is not layout order: ^exit is laid out after ^body, but is
// dominated by ^header only, so it does not see what ^body computes.
func.func @decode_loop(%tok: i32) -> i64 {
  "foo.br"()[^header] : () -> ()
^header:
  %emb = builtin.unrealized_conversion_cast %tok : i32 to i64
  "foo.cond_br"(%emb)[^body, ^exit] : (i64) -> ()
^body:
  %emb2 = builtin.unrealized_conversion_cast %tok : i32 to i64
  %logit = builtin.unrealized_conversion_cast %tok : i32 to f32
  "foo.use"(%emb2, %logit) : (i64, f32) -> ()
  "foo.br"()[^header] : () -> ()
^exit:
  %logit2 = builtin.unrealized_conversion_cast %tok : i32 to f32
  %emb3 = builtin.unrealized_conversion_cast %tok : i32 to i64
  "foo.use"(%logit2) : (f32) -> ()
  return %emb3 : i64
}

// -----

// A block reached only through a chain of single-successor blocks is
// dominated by all of them.
func.func @pipeline_stages(%x: f32) -> (i32, i32) {
  %s0 = builtin.unrealized_conversion_cast %x : f32 to i32
  "foo.br"()[^stage1] : () -> ()
^stage1:
  "foo.br"()[^stage2] : () -> ()
^stage2:
  "foo.br"()[^stage3] : () -> ()
^stage3:
  %s3 = builtin.unrealized_conversion_cast %x : f32 to i32
  return %s0, %s3 : i32, i32
}

// -----

// Blocks unreachable from the entry block are not in the dominator tree
// and are left alone, dead ops and duplicates included.
func.func @orphan_block(%x: f32) -> i32 {
  %0 = builtin.unrealized_conversion_cast %x : f32 to i32
  return %0 : i32
^orphan:
  %1 = builtin.unrealized_conversion_cast %x : f32 to i32
  %2 = builtin.unrealized_conversion_cast %x : f32 to i32
  %3 = builtin.unrealized_conversion_cast %x : f32 to i16
  "foo.use"(%1, %2) : (i32, i32) -> ()
  return %1 : i32
}

// -----

// An unregistered op may be isolated from above, so its regions get a
// fresh scope: an outer value is not reused inside, but equivalent ops
// inside are merged with each other.
func.func @scan_over_layers(%h: f32) -> (i64, i64) {
  %outer = builtin.unrealized_conversion_cast %h : f32 to i64
  "foo.scan"() ({
  ^bb0(%layer: i32):
    %inner = builtin.unrealized_conversion_cast %h : f32 to i64
    %inner2 = builtin.unrealized_conversion_cast %h : f32 to i64
    %l0 = builtin.unrealized_conversion_cast %layer : i32 to i64
    %l1 = builtin.unrealized_conversion_cast %layer : i32 to i64
    "foo.yield"(%inner, %inner2, %l0, %l1) : (i64, i64, i64, i64) -> ()
  }) : () -> ()
  %after = builtin.unrealized_conversion_cast %h : f32 to i64
  return %outer, %after : i64, i64
}

// -----

// Two identical region ops are kept (their effects are unknown); each
// region is simplified on its own, and dead ops inside are erased.
func.func @twin_experts(%x: f32) {
  "foo.expert"() ({
    %a = builtin.unrealized_conversion_cast %x : f32 to i32
    %b = builtin.unrealized_conversion_cast %x : f32 to i32
    %dead = builtin.unrealized_conversion_cast %x : f32 to i8
    "foo.yield"(%a, %b) : (i32, i32) -> ()
  }) : () -> ()
  "foo.expert"() ({
    %a = builtin.unrealized_conversion_cast %x : f32 to i32
    %b = builtin.unrealized_conversion_cast %x : f32 to i32
    %dead = builtin.unrealized_conversion_cast %x : f32 to i8
    "foo.yield"(%a, %b) : (i32, i32) -> ()
  }) : () -> ()
  return
}

// -----

// A multi-block region nested in an unregistered op is walked through its
// own dominator tree; a region nested deeper starts yet another scope.
func.func @nested_control(%x: f32) {
  "foo.while"() ({
    %c = builtin.unrealized_conversion_cast %x : f32 to i1
    "foo.cond_br"(%c)[^then, ^else] : (i1) -> ()
  ^then:
    %c2 = builtin.unrealized_conversion_cast %x : f32 to i1
    "foo.inner"() ({
      %c3 = builtin.unrealized_conversion_cast %x : f32 to i1
      %c4 = builtin.unrealized_conversion_cast %x : f32 to i1
      "foo.yield"(%c3, %c4) : (i1, i1) -> ()
    }) : () -> ()
    "foo.yield"(%c2) : (i1) -> ()
  ^else:
    %c5 = builtin.unrealized_conversion_cast %x : f32 to i1
    "foo.yield"(%c5) : (i1) -> ()
  }) : () -> ()
  return
}

// -----

// A value used by an op with a region is replaced inside that region too.
func.func @capture_in_body(%x: f32) {
  %a = builtin.unrealized_conversion_cast %x : f32 to i32
  %b = builtin.unrealized_conversion_cast %x : f32 to i32
  "foo.map"(%b) ({
  ^bb0(%e: i32):
    "foo.yield"(%e) : (i32) -> ()
  }) : (i32) -> ()
  "foo.use"(%a) : (i32) -> ()
  return
}

// -----

// Attributes are compared as uniqued values: different spellings of one
// value are equivalent (a splat and the same elements listed, hex and
// decimal floats, escaped strings, 1 : i1 and true, renamed affine
// dimensions); values that print alike are not (0.0 and -0.0, a splat of
// no elements and no elements, dense and array attributes).
func.func @quant_params(%x: f32) {
  %0 = builtin.unrealized_conversion_cast %x : f32 to i8 {scale = dense<0.5> : tensor<2xf32>}
  %1 = builtin.unrealized_conversion_cast %x : f32 to i8 {scale = dense<[0.5, 0.5]> : tensor<2xf32>}
  %2 = builtin.unrealized_conversion_cast %x : f32 to i8 {zero = 0.0 : f32}
  %3 = builtin.unrealized_conversion_cast %x : f32 to i8 {zero = -0.0 : f32}
  %4 = builtin.unrealized_conversion_cast %x : f32 to i8 {one = 1.0 : f32}
  %5 = builtin.unrealized_conversion_cast %x : f32 to i8 {one = 0x3F800000 : f32}
  %6 = builtin.unrealized_conversion_cast %x : f32 to i8 {one = 1.0 : bf16}
  %7 = builtin.unrealized_conversion_cast %x : f32 to i8 {one = 0x3F80 : bf16}
  %8 = builtin.unrealized_conversion_cast %x : f32 to i8 {name = "w\71"}
  %9 = builtin.unrealized_conversion_cast %x : f32 to i8 {name = "wq"}
  %10 = builtin.unrealized_conversion_cast %x : f32 to i8 {flag = true}
  %11 = builtin.unrealized_conversion_cast %x : f32 to i8 {flag = 1 : i1}
  %12 = builtin.unrealized_conversion_cast %x : f32 to i8 {neg = -1 : i8}
  %13 = builtin.unrealized_conversion_cast %x : f32 to i8 {neg = 255 : i8}
  %14 = builtin.unrealized_conversion_cast %x : f32 to i8 {shape = array<i32: 1, 2>}
  %15 = builtin.unrealized_conversion_cast %x : f32 to i8 {shape = dense<[1, 2]> : tensor<2xi32>}
  %16 = builtin.unrealized_conversion_cast %x : f32 to i8 {shape = dense<"0x0100000002000000"> : tensor<2xi32>}
  %17 = builtin.unrealized_conversion_cast %x : f32 to i8 {empty = dense<0> : tensor<0xi32>}
  %18 = builtin.unrealized_conversion_cast %x : f32 to i8 {empty = dense<> : tensor<0xi32>}
  %19 = builtin.unrealized_conversion_cast %x : f32 to i8 {map = affine_map<(d0, d1) -> (d1)>}
  %20 = builtin.unrealized_conversion_cast %x : f32 to i8 {map = affine_map<(row, col) -> (col)>}
  "foo.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20) : (i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8) -> ()
  return
}

// -----

// A single-block region of an unregistered op might be a graph region:
// an op already visited keeps its operand, so the later duplicate it uses
// stays. (A multi-block region always has dominance.)
func.func @unknown_region_kind(%src: f32) {
  "foo.graph"() ({
    %user = builtin.unrealized_conversion_cast %late : i32 to i64
    %first = builtin.unrealized_conversion_cast %src : f32 to i32
    %late = builtin.unrealized_conversion_cast %src : f32 to i32
    "foo.sink"(%user, %first) : (i64, i32) -> ()
  }) : () -> ()
  return
}

// -----

// Locations play no part in equivalence.
func.func @same_op_elsewhere(%x: f32) -> (i32, i32) {
  %0 = builtin.unrealized_conversion_cast %x : f32 to i32 loc("model.py":10:4)
  %1 = builtin.unrealized_conversion_cast %x : f32 to i32 loc("model.py":20:4)
  return %0, %1 : i32, i32
}

// -----

// The module body is a graph region: uses may come before definitions.
// A user that was already visited and recorded keeps its operand; other
// uses move to the first equivalent op. Functions are isolated and each
// gets its own scope. (The func.func(cse) pipeline does not touch the
// module body.)
%src = "foo.source"() : () -> f32
"foo.sink"(%late) : (i32) -> ()
%user = builtin.unrealized_conversion_cast %late : i32 to i64
%first = builtin.unrealized_conversion_cast %src : f32 to i32
%late = builtin.unrealized_conversion_cast %src : f32 to i32
%user2 = builtin.unrealized_conversion_cast %first : i32 to i64
"foo.sink"(%user, %user2) : (i64, i64) -> ()
func.func @layer_norm_stats(%x: f32) -> (i32, i32) {
  %m = builtin.unrealized_conversion_cast %x : f32 to i32
  %v = builtin.unrealized_conversion_cast %x : f32 to i32
  return %m, %v : i32, i32
}
func.func @rms_norm_stats(%x: f32) -> i32 {
  %m = builtin.unrealized_conversion_cast %x : f32 to i32
  return %m : i32
}

// -----

// A graph region with only pure ops: the duplicate with no visited users
// is erased; dead ops are erased too.
%w = "foo.weights"() : () -> tensor<4xf32>
%q = builtin.unrealized_conversion_cast %w : tensor<4xf32> to tensor<4xf16>
%q2 = builtin.unrealized_conversion_cast %w : tensor<4xf32> to tensor<4xf16>
%unused = builtin.unrealized_conversion_cast %w : tensor<4xf32> to tensor<4xbf16>
"foo.consume"(%q, %q2) : (tensor<4xf16>, tensor<4xf16>) -> ()

// -----

// Nested modules are isolated: each body is its own scope.
module @encoder {
  %e = "foo.source"() : () -> i8
  %a = builtin.unrealized_conversion_cast %e : i8 to i16
  %b = builtin.unrealized_conversion_cast %e : i8 to i16
  "foo.sink"(%a, %b) : (i16, i16) -> ()
}
module @decoder {
  %d = "foo.source"() : () -> i8
  %a = builtin.unrealized_conversion_cast %d : i8 to i16
  "foo.sink"(%a) : (i16) -> ()
}
