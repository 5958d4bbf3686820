// RUN: rlx-opt %s --verify-diagnostics --split-input-file

// Verifier errors of the graph dialect: one or more per rule. The Go test
// dialect/graph/lit_test.go checks this file with the same semantics until
// rlx-opt runs it.

func.func @operand_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.add' op expected 2 operands, but found 1}}
  %0 = graph.add %a : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @element_type(%a: tensor<4xf64>) {
  // expected-error @+1 {{'graph.exp' op operand #0 must be a ranked tensor of f32, f16, bf16, i32, i64, i1, i8 or ui8 values, but got 'tensor<4xf64>'}}
  %0 = graph.exp %a : (tensor<4xf64>) -> tensor<4xf64>
  return
}

// -----

func.func @missing_attribute(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{'graph.softmax' op requires attribute 'axis'}}
  %0 = graph.softmax %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @f32_attribute(%a: tensor<1x64xf32>, %w: tensor<64xf32>) {
  // expected-error @+1 {{attribute 'epsilon' failed to satisfy constraint: 32-bit float attribute}}
  %0 = graph.rms_norm %a, %w {epsilon = 1.0e-06} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  return
}

// -----

func.func @enum_attribute(%a: tensor<4xf32>) {
  // expected-error @+1 {{attribute 'predicate' must be one of "eq", "ne", "lt", "le", "gt", "ge", got "lte"}}
  %0 = graph.cmp %a, %a {predicate = "lte"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @matmul_result(%a: tensor<1x64xf32>, %b: tensor<64x64xf32>) {
  // expected-error @+1 {{'graph.matmul' op result shape [1, 32] does not match inferred [1, 64]}}
  %0 = graph.matmul %a, %b : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x32xf32>
  return
}

// -----

func.func @matmul_contraction(%a: tensor<1x64xf32>, %b: tensor<32x64xf32>) {
  // expected-error @+1 {{'graph.matmul' op operand #1 has shape [32, 64], expected [64, 64]}}
  %0 = graph.matmul %a, %b : (tensor<1x64xf32>, tensor<32x64xf32>) -> tensor<1x64xf32>
  return
}

// -----

func.func @broadcast_mismatch(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'graph.add' op operand #1 has shape [4, 3], expected a shape that broadcasts with [2, 3]}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @cmp_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.cmp' op result element type f32 does not match inferred i1}}
  %0 = graph.cmp %a, %a {predicate = "eq"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @select_condition(%c: tensor<4xf32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.select' op operand #0 must have element type i1, got f32}}
  %0 = graph.select %c, %a, %a : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @rms_norm_gamma(%a: tensor<1x64xf32>, %w: tensor<32xf32>) {
  // expected-error @+1 {{'graph.rms_norm' op operand #1 has shape [32], expected [64] (the last dim of operand #0)}}
  %0 = graph.rms_norm %a, %w {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<32xf32>) -> tensor<1x64xf32>
  return
}

// -----

func.func @layer_norm_beta(%a: tensor<1x64xf32>, %g: tensor<64xf32>, %b: tensor<1x64xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op operand #2 has shape [1, 64], expected [64]}}
  %0 = graph.layer_norm %a, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<1x64xf32>, tensor<64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  return
}

// -----

func.func @softmax_axis(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{'graph.softmax' op attribute 'axis' (2) is out of range for operand #0 of rank 2}}
  %0 = graph.softmax %a {axis = 2} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @reduce_duplicate_axis(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{'graph.reduce' op attribute 'axes' names axis 1 more than once}}
  %0 = graph.reduce %a {axes = array<i64: 1, -1>, kind = "sum"} : (tensor<2x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_keep_dims(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{'graph.reduce' op result shape [2, 1] does not match inferred [2]}}
  %0 = graph.reduce %a {axes = array<i64: 1>, kind = "sum"} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @reshape_count(%a: tensor<1x64xf32>) {
  // expected-error @+1 {{'graph.reshape' op result shape [3, 4] has 12 elements, but operand #0 (shape [1, 64]) has 64}}
  %0 = graph.reshape %a : (tensor<1x64xf32>) -> tensor<3x4xf32>
  return
}

// -----

// Element counts are multiplied with overflow checks: 4611686018427387905 x 4
// is 2^64 + 4, which wraps around to 4 in 64 bits.
func.func @reshape_overflow(%a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.reshape' op result #0 type 'tensor<4611686018427387905x4xf32>' has more elements than fit in 64 bits}}
  %0 = graph.reshape %a : (tensor<4xf32>) -> tensor<4611686018427387905x4xf32>
  return
}

// -----

// 2^32 x 2^32 wraps around to 0.
func.func @reshape_overflow_to_zero(%a: tensor<4294967296x4294967296xf32>) {
  // expected-error @+1 {{'graph.reshape' op operand #0 type 'tensor<4294967296x4294967296xf32>' has more elements than fit in 64 bits}}
  %0 = graph.reshape %a : (tensor<4294967296x4294967296xf32>) -> tensor<0xf32>
  return
}

// -----

// A dynamic dim does not hide an overflow of the known ones.
func.func @exp_overflow(%a: tensor<?x4294967296x4294967296xf32>) {
  // expected-error @+1 {{'graph.exp' op operand #0 type 'tensor<?x4294967296x4294967296xf32>' has more elements than fit in 64 bits}}
  %0 = graph.exp %a : (tensor<?x4294967296x4294967296xf32>) -> tensor<?x4294967296x4294967296xf32>
  return
}

// -----

func.func @broadcast_target(%a: tensor<3xf32>) {
  // expected-error @+1 {{'graph.broadcast' op operand #0 has shape [3], which does not broadcast to the result shape [4, 2]}}
  %0 = graph.broadcast %a : (tensor<3xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @transpose_permutation(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{'graph.transpose' op attribute 'permutation' [0, 0] is not a permutation of the 2 dims of operand #0}}
  %0 = graph.transpose %a {permutation = array<i64: 0, 0>} : (tensor<2x8xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @slice_step(%a: tensor<10xf32>) {
  // expected-error @+1 {{'graph.slice' op attribute 'step' must be at least 1, got 0}}
  %0 = graph.slice %a {axis = 0, length = 2, start = 0, step = 0} : (tensor<10xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @slice_bounds(%a: tensor<1x192xf32>) {
  // expected-error @+1 {{'graph.slice' op operand #0 has shape [1, 192], too small for 64 elements from 150 with step 1 along axis 1}}
  %0 = graph.slice %a {axis = -1, length = 64, start = 150} : (tensor<1x192xf32>) -> tensor<1x64xf32>
  return
}

// -----

func.func @concat_dims(%a: tensor<1x7x2x16xf32>, %b: tensor<1x1x4x16xf32>) {
  // expected-error @+1 {{'graph.concat' op operand #1 has shape [1, 1, 4, 16], expected [1, 1, 2, 16]}}
  %0 = graph.concat %a, %b {axis = 1} : (tensor<1x7x2x16xf32>, tensor<1x1x4x16xf32>) -> tensor<1x8x2x16xf32>
  return
}

// -----

func.func @gather_indices(%t: tensor<10x4xf32>, %i: tensor<3xf32>) {
  // expected-error @+1 {{'graph.gather' op operand #1 must have element type i32 or i64, got f32}}
  %0 = graph.gather %t, %i {axis = 0} : (tensor<10x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_result(%t: tensor<10x4xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{'graph.gather' op result shape [3, 4] does not match inferred [10, 3]}}
  %0 = graph.gather %t, %i {axis = -1} : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @rope_rotary_dim(%x: tensor<1x1x64xf32>, %c: tensor<1x4xf32>) {
  // expected-error @+1 {{'graph.rope' op attribute 'rotary_dim' (7) must be even and in [2, head_dim = 16]}}
  %0 = graph.rope %x, %c, %c {head_dim = 16, rotary_dim = 7, style = "neox"} : (tensor<1x1x64xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x1x64xf32>
  return
}

// -----

func.func @rope_tables(%x: tensor<1x1x64xf32>, %c: tensor<1x8xf32>, %s: tensor<1x4xf32>) {
  // expected-error @+1 {{'graph.rope' op operand #1 has shape [1, 8], expected [1, 4] ([S, rotary_dim/2])}}
  %0 = graph.rope %x, %c, %s {head_dim = 16, rotary_dim = 8, style = "neox"} : (tensor<1x1x64xf32>, tensor<1x8xf32>, tensor<1x4xf32>) -> tensor<1x1x64xf32>
  return
}

// -----

func.func @attention_gqa(%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x3x16xf32>) {
  // expected-error @+1 {{'graph.attention' op operand #1 has 3 kv heads, expected a divisor of the 8 query heads of operand #0}}
  %0 = graph.attention %q, %k, %k : (tensor<1x1x8x16xf32>, tensor<1x9x3x16xf32>, tensor<1x9x3x16xf32>) -> tensor<1x1x8x16xf32>
  return
}

// -----

func.func @attention_key_dim(%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x32xf32>, %v: tensor<1x9x2x16xf32>) {
  // expected-error @+1 {{'graph.attention' op operand #1 has shape [1, 9, 2, 32], expected [1, 9, 2, 16]}}
  %0 = graph.attention %q, %k, %v : (tensor<1x1x8x16xf32>, tensor<1x9x2x32xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>
  return
}

// -----

func.func @attention_value_dim(%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x32xf32>) {
  // expected-error @+1 {{'graph.attention' op result shape [1, 1, 8, 16] does not match inferred [1, 1, 8, 32]}}
  %0 = graph.attention %q, %k, %v : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x32xf32>) -> tensor<1x1x8x16xf32>
  return
}

// -----

func.func @attention_custom_mask(%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %m: tensor<1x8xf32>) {
  // expected-error @+1 {{'graph.attention' op operand #3 has shape [1, 8], expected [1, 9] ([B, Sk])}}
  %0 = graph.attention %q, %k, %k, %m {mask = "custom"} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>, tensor<1x8xf32>) -> tensor<1x1x8x16xf32>
  return
}

// -----

func.func @attention_mask_operand(%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>) {
  // expected-error @+1 {{'graph.attention' op mask "bias" requires a mask operand (operand #3)}}
  %0 = graph.attention %q, %k, %k {mask = "bias"} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>
  return
}

// -----

func.func @attention_window(%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>) {
  // expected-error @+1 {{'graph.attention' op mask "sliding_window" requires attribute 'window'}}
  %0 = graph.attention %q, %k, %k {mask = "sliding_window"} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>
  return
}

// -----

func.func @gdn_gate_per_channel(%q: tensor<1x1x4x16xf32>, %g: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'graph.gated_delta_net' op operand #3 has shape [1, 1, 4], expected [1, 1, 4, 16] ([B, S, H, N] with gate_per_channel)}}
  %o:2 = graph.gated_delta_net %q, %q, %q, %g, %g {gate_per_channel = true} : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)
  return
}

// -----

func.func @gdn_state(%q: tensor<1x1x4x16xf32>, %g: tensor<1x1x4xf32>, %s: tensor<1x4x16x8xf32>) {
  // expected-error @+1 {{'graph.gated_delta_net' op operand #5 has shape [1, 4, 16, 8], expected [1, 4, 16, 16] ([B, H, N, N])}}
  %o:2 = graph.gated_delta_net %q, %q, %q, %g, %g, %s : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x4x16x8xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)
  return
}

// -----

func.func @gdn_state_result(%q: tensor<1x1x4x16xf32>, %g: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'graph.gated_delta_net' op result #1 shape [1, 16, 4, 16] does not match inferred [1, 4, 16, 16]}}
  %o:2 = graph.gated_delta_net %q, %q, %q, %g, %g : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x16x4x16xf32>)
  return
}

// -----

func.func @lstm_h0_without_c0(%x: tensor<1x5x8xf32>, %wih: tensor<64x8xf32>, %whh: tensor<64x16xf32>, %b: tensor<64xf32>, %h: tensor<1x16xf32>) {
  // expected-error @+1 {{'graph.lstm' op expected 4 operands, or 6 with h0 and c0, but found 5}}
  %y:3 = graph.lstm %x, %wih, %whh, %b, %h : (tensor<1x5x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<1x16xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)
  return
}

// -----

func.func @lstm_w_hh(%x: tensor<1x5x8xf32>, %wih: tensor<64x8xf32>, %whh: tensor<60x16xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'graph.lstm' op operand #2 has shape [60, 16], expected [64, 16] ([4H, H])}}
  %y:3 = graph.lstm %x, %wih, %whh, %b : (tensor<1x5x8xf32>, tensor<64x8xf32>, tensor<60x16xf32>, tensor<64xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)
  return
}

// -----

func.func @dequant_bytes(%x: tensor<1x64xf32>, %w: tensor<1000xui8>) {
  // expected-error @+1 {{'graph.dequant_matmul' op operand #1 has shape [1000], expected [1152] (n·k/32 blocks of 18 bytes for q4_0)}}
  %0 = graph.dequant_matmul %x, %w {format = "q4_0", k = 64, n = 32} : (tensor<1x64xf32>, tensor<1000xui8>) -> tensor<1x32xf32>
  return
}

// -----

func.func @dequant_block(%x: tensor<1x64xf32>, %w: tensor<144xui8>) {
  // expected-error @+1 {{'graph.dequant_matmul' op attribute 'k' (64) is not a multiple of the q4_k block size 256}}
  %0 = graph.dequant_matmul %x, %w {format = "q4_k", k = 64, n = 1} : (tensor<1x64xf32>, tensor<144xui8>) -> tensor<1x1xf32>
  return
}

// -----

func.func @param_name() {
  // expected-error @+1 {{'graph.param' op attribute 'name' must not be empty}}
  %0 = graph.param "" : tensor<4xf32>
  return
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{'graph.constant' op result shape [2] does not match inferred [4]}}
  %0 = "graph.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<2xf32>
  return
}
