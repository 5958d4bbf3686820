// RUN: rlx-opt %s --hybrid-split | FileCheck %s
// RUN: rlx-opt %s --hybrid-split=mode=seed | FileCheck %s --check-prefix=SEED
// RUN: rlx-opt %s --hybrid-split='mode=seed explain' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHY

// Where ops go, rule by rule (HYBRID_SPLIT.md, docs/hybrid-split.md).

// @sink: the transpose reads a leaf only, so it is ready at the start and
// the first wave puts it in @sink_mps0; it then moves down to the region
// of its consumer, the matmul, so that its result crosses no boundary.
// CHECK-LABEL: func.func @sink(
// CHECK-NEXT:    mps.subgraph @sink_mps0(%arg0)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.exp
// CHECK-NEXT:      mps.yield
// CHECK:         thunk.call @sink_thunk1(
// CHECK:         mps.subgraph @sink_mps2(
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.param "w"
// CHECK-NEXT:      graph.transpose
// CHECK-NEXT:      graph.matmul
// CHECK-NEXT:      mps.yield

// @native_first: waves starting with an MPS region need three regions
// (neg, max, exp); starting with a native one needs two, and that run is
// kept.
// CHECK-LABEL: func.func @native_first(
// CHECK-NEXT:    thunk.call @native_first_thunk0(%arg0)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.max
// CHECK-NEXT:      thunk.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    mps.subgraph @native_first_mps1(%0, %arg0)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.exp
// CHECK-NEXT:      graph.neg
// CHECK-NEXT:      mps.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// @order: a region's results come in order of definition (exp, then neg)
// and the next region's operands in order of first use (neg, then exp).
// CHECK-LABEL: func.func @order(
// CHECK-NEXT:    %[[R:.*]]:2 = mps.subgraph @order_mps0(%arg0)
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      %[[E:.*]] = graph.exp
// CHECK-NEXT:      %[[N:.*]] = graph.neg
// CHECK-NEXT:      mps.yield %[[E]], %[[N]] :
// CHECK-NEXT:    }
// CHECK-NEXT:    thunk.call @order_thunk1(%[[R]]#1, %[[R]]#0)

// @lstm_split: the results of one multi-result op go different ways: #0
// stays inside the thunk (softplus reads it), #1 and #2 go to the next MPS
// region, which takes them in order of first use (#2 for neg, #1 for
// tanh).
// CHECK-LABEL: func.func @lstm_split(
// CHECK:         %[[T:.*]]:3 = thunk.call @lstm_split_thunk1(
// CHECK:           %[[L:.*]]:3 = graph.lstm
// CHECK-NEXT:      %[[S:.*]] = graph.softplus %[[L]]#0
// CHECK-NEXT:      thunk.yield %[[L]]#1, %[[L]]#2, %[[S]] :
// CHECK:         %[[M:.*]]:2 = mps.subgraph @lstm_split_mps2(%[[T]]#1, %[[T]]#0)
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<1x32xf32>, %[[B:.*]]: tensor<1x32xf32>):
// CHECK-NEXT:      graph.neg %[[A]]
// CHECK-NEXT:      graph.tanh %[[B]]
// CHECK:         thunk.call @lstm_split_thunk3(%[[M]]#1, %[[M]]#0)
// CHECK:         return %[[M]]#0, %{{.*}}, %[[T]]#2 :

// Seed mode makes no hybrid plan for a function holding lstm or
// gated_delta_net (nor attention, see modes.mlir): one thunk holds every
// compute op. It does the same when no MPS region would form: @no_mps
// would be two one-op thunk steps (dequant_matmul is a split point), and
// is one thunk instead.
// SEED-LABEL: func.func @lstm_split(
// SEED-NEXT:    thunk.call @lstm_split_thunk0(
// SEED-NOT:     mps.subgraph
// SEED-LABEL: func.func @gdn(
// SEED-NEXT:    thunk.call @gdn_thunk0(
// SEED-NEXT:    ^bb0(
// SEED-NEXT:      graph.exp
// SEED-NEXT:      graph.gated_delta_net
// SEED-NEXT:      graph.neg
// SEED-NEXT:      thunk.yield
// SEED-NEXT:    }
// SEED-NEXT:    return
// SEED-LABEL: func.func @no_mps(
// SEED-NEXT:    thunk.call @no_mps_thunk0(
// SEED-NEXT:    ^bb0(
// SEED-NEXT:      graph.param
// SEED-NEXT:      graph.dequant_matmul
// SEED-NEXT:      graph.max
// SEED-NEXT:      thunk.yield
// SEED-NEXT:    }
// SEED-NEXT:    return

// Dependency mode splits the same two functions.
// CHECK-LABEL: func.func @gdn(
// CHECK-NEXT:    mps.subgraph @gdn_mps0(
// CHECK:         thunk.call @gdn_thunk1(
// CHECK:         mps.subgraph @gdn_mps2(

// WHY: {{.*}}placement.mlir:[[# @LINE + 26]]:8: remark: kept native: seed mode: the function holds graph.lstm, so every compute op goes to one thunk region (seed mode splits no function with attention, gated_delta_net or lstm, as RLX's hybrid plan did not)
// WHY: {{.*}}placement.mlir:[[# @LINE + 34]]:8: remark: kept native: seed mode: the function holds graph.gated_delta_net, so every compute op goes to one thunk region (seed mode splits no function with attention, gated_delta_net or lstm, as RLX's hybrid plan did not)
func.func @sink(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %w = graph.param "w" : tensor<8x8xf32>
  %wt = graph.transpose %w {permutation = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %a = graph.exp %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %b = graph.max %a, %x : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %c = graph.matmul %b, %wt : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
  return %c : tensor<1x8xf32>
}
func.func @native_first(%x: tensor<1x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>) {
  %a = graph.max %x, %x : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %b = graph.exp %a : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %c = graph.neg %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return %b, %c : tensor<1x8xf32>, tensor<1x8xf32>
}
func.func @order(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %a = graph.exp %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %b = graph.neg %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %c = graph.max %b, %a : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  return %c : tensor<1x8xf32>
}
func.func @lstm_split(%lx: tensor<1x5x8xf32>, %h: tensor<1x32xf32>) -> (tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x5x32xf32>) {
  %wih = graph.param "wih" : tensor<128x8xf32>
  %whh = graph.param "whh" : tensor<128x32xf32>
  %lb = graph.param "lb" : tensor<128xf32>
  %e = graph.exp %lx : (tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  %l:3 = graph.lstm %e, %wih, %whh, %lb, %h, %h : (tensor<1x5x8xf32>, tensor<128x8xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<1x32xf32>, tensor<1x32xf32>) -> (tensor<1x5x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>)
  %n = graph.neg %l#2 : (tensor<1x32xf32>) -> tensor<1x32xf32>
  %s = graph.softplus %l#0 : (tensor<1x5x32xf32>) -> tensor<1x5x32xf32>
  %t = graph.tanh %l#1 : (tensor<1x32xf32>) -> tensor<1x32xf32>
  %m = graph.max %t, %n : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  return %n, %m, %s : tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x5x32xf32>
}
func.func @gdn(%q: tensor<1x1x4x16xf32>, %g: tensor<1x1x4xf32>, %st: tensor<1x4x16x16xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>) {
  %e = graph.exp %q : (tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
  %o:2 = graph.gated_delta_net %e, %e, %e, %g, %g, %st : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x4x16x16xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)
  %n = graph.neg %o#0 : (tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
  return %n, %o#1 : tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>
}
func.func @no_mps(%x: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %q = graph.param "q" : tensor<1088xui8>
  %c = graph.dequant_matmul %x, %q {format = "q8_0", n = 32, k = 32} : (tensor<1x32xf32>, tensor<1088xui8>) -> tensor<1x32xf32>
  %d = graph.max %c, %x : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  return %d : tensor<1x32xf32>
}

// @sink_pick: an MoE block's second projection. Its expert's gather picks
// from a weight by an index that is ready with the first projection's, so
// the waves put it in @sink_pick_thunk0, and its 840-byte matrix would
// cross two boundaries; a gather counts as computed from leaves whatever
// its indices, so it moves down with its reshape to its dequant_matmul,
// and the 4-byte index crosses instead.
// CHECK-LABEL: func.func @sink_pick(
// CHECK-NEXT:    thunk.call @sink_pick_thunk0(%arg1, %arg0) {target = "metal"} : (tensor<1xi32>, tensor<1x256xf32>) -> tensor<1x4xf32> {
// CHECK:           graph.param "gate_exps"
// CHECK-NOT:       graph.param "down_exps"
// CHECK:           thunk.yield
// CHECK:         mps.subgraph @sink_pick_mps1(
// CHECK:         thunk.call @sink_pick_thunk2(%arg1, %{{.*}}) {target = "metal"} : (tensor<1xi32>, tensor<1x256xf32>) -> tensor<1x4xf32> {
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      graph.param "down_exps"
// CHECK-NEXT:      graph.reshape
// CHECK-NEXT:      graph.gather
// CHECK-NEXT:      graph.reshape
// CHECK-NEXT:      graph.dequant_matmul
func.func @sink_pick(%h: tensor<1x256xf32>, %i: tensor<1xi32>) -> tensor<1x4xf32> {
  %a = graph.param "gate_exps" : tensor<6720xui8>
  %b = graph.param "down_exps" : tensor<6720xui8>
  %ra = graph.reshape %a : (tensor<6720xui8>) -> tensor<8x840xui8>
  %ga = graph.gather %ra, %i {axis = 0 : i64} : (tensor<8x840xui8>, tensor<1xi32>) -> tensor<1x840xui8>
  %ma = graph.reshape %ga : (tensor<1x840xui8>) -> tensor<840xui8>
  %u = graph.dequant_matmul %h, %ma {format = "q6_k", k = 256 : i64, n = 4 : i64} : (tensor<1x256xf32>, tensor<840xui8>) -> tensor<1x4xf32>
  %s = graph.silu %u : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %z = graph.constant dense<0.0> : tensor<1x252xf32>
  %c = graph.concat %s, %z {axis = 1 : i64} : (tensor<1x4xf32>, tensor<1x252xf32>) -> tensor<1x256xf32>
  %rb = graph.reshape %b : (tensor<6720xui8>) -> tensor<8x840xui8>
  %gb = graph.gather %rb, %i {axis = 0 : i64} : (tensor<8x840xui8>, tensor<1xi32>) -> tensor<1x840xui8>
  %mb = graph.reshape %gb : (tensor<1x840xui8>) -> tensor<840xui8>
  %o = graph.dequant_matmul %c, %mb {format = "q6_k", k = 256 : i64, n = 4 : i64} : (tensor<1x256xf32>, tensor<840xui8>) -> tensor<1x4xf32>
  return %o : tensor<1x4xf32>
}

// @pick_rows and @pick_small: a gather by an argument's indices is ready
// at the start, so the first wave puts it in the first MPS region. 100
// f32 rows (400 bytes, as many as the indices) move down to the concat
// that reads them; 100 f16 rows (200 bytes, fewer than the indices' 400)
// stay, since moving them would carry more bytes across.
// CHECK-LABEL: func.func @pick_rows(
// CHECK-NEXT:    mps.subgraph @pick_rows_mps0(%arg0)
// CHECK-NOT:       graph.gather
// CHECK:         thunk.call @pick_rows_thunk1(
// CHECK:         mps.subgraph @pick_rows_mps2(%arg1, %{{.*}})
// CHECK:           graph.gather
// CHECK:           graph.concat
// CHECK-LABEL: func.func @pick_small(
// CHECK-NEXT:    mps.subgraph @pick_small_mps0(%arg1, %arg0)
// CHECK:           graph.gather
// CHECK:         thunk.call @pick_small_thunk1(
// CHECK:         mps.subgraph @pick_small_mps2(
// CHECK-NOT:       graph.gather
// CHECK:           graph.concat
func.func @pick_rows(%h: tensor<1x256xf32>, %i: tensor<100xi32>) -> tensor<100x2xf32> {
  %tab = graph.param "tab" : tensor<8x1xf32>
  %w = graph.param "w" : tensor<840xui8>
  %g = graph.gather %tab, %i {axis = 0 : i64} : (tensor<8x1xf32>, tensor<100xi32>) -> tensor<100x1xf32>
  %e = graph.exp %h : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %u = graph.dequant_matmul %e, %w {format = "q6_k", k = 256 : i64, n = 4 : i64} : (tensor<1x256xf32>, tensor<840xui8>) -> tensor<1x4xf32>
  %s = graph.slice %u {axis = 1 : i64, length = 1 : i64, start = 0 : i64} : (tensor<1x4xf32>) -> tensor<1x1xf32>
  %b = graph.broadcast %s : (tensor<1x1xf32>) -> tensor<100x1xf32>
  %c = graph.concat %g, %b {axis = 1 : i64} : (tensor<100x1xf32>, tensor<100x1xf32>) -> tensor<100x2xf32>
  return %c : tensor<100x2xf32>
}
func.func @pick_small(%h: tensor<1x256xf32>, %i: tensor<100xi32>) -> tensor<100x2xf16> {
  %tab = graph.param "tab" : tensor<8x1xf16>
  %w = graph.param "w" : tensor<840xui8>
  %g = graph.gather %tab, %i {axis = 0 : i64} : (tensor<8x1xf16>, tensor<100xi32>) -> tensor<100x1xf16>
  %e = graph.exp %h : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %u = graph.dequant_matmul %e, %w {format = "q6_k", k = 256 : i64, n = 4 : i64} : (tensor<1x256xf32>, tensor<840xui8>) -> tensor<1x4xf32>
  %s = graph.slice %u {axis = 1 : i64, length = 1 : i64, start = 0 : i64} : (tensor<1x4xf32>) -> tensor<1x1xf32>
  %v = graph.cast %s : (tensor<1x1xf32>) -> tensor<1x1xf16>
  %b = graph.broadcast %v : (tensor<1x1xf16>) -> tensor<100x1xf16>
  %c = graph.concat %g, %b {axis = 1 : i64} : (tensor<100x1xf16>, tensor<100x1xf16>) -> tensor<100x2xf16>
  return %c : tensor<100x2xf16>
}
