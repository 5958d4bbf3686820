// A Qwen3.5-like decode step at toy size (4 layers: three gated-delta-net,
// one full attention; hidden 64; q8_0 projections), generated with
//   go run ./tools/rlx-gen qwen35 > examples/qwen35-toy.mlir
// Split it:  go run ./tools/rlx-opt --hybrid-split examples/qwen35-toy.mlir
// Check it:  go run ./tools/rlx-opt --hybrid-split examples/qwen35-toy.mlir -o /tmp/split.mlir &&
//            go run ./tools/rlx-run examples/qwen35-toy.mlir --compare-with /tmp/split.mlir

module {
  func.func @decode(%arg0: tensor<1x1xi32> {rlx.name = "token"}, %arg1: tensor<1xi32> {rlx.name = "pos"}, %arg2: tensor<1x2xf32> {rlx.name = "cos"}, %arg3: tensor<1x2xf32> {rlx.name = "sin"}, %arg4: tensor<1x3x128xf32> {rlx.name = "l0.conv_state"}, %arg5: tensor<1x4x16x16xf32> {rlx.name = "l0.ssm_state"}, %arg6: tensor<1x3x128xf32> {rlx.name = "l1.conv_state"}, %arg7: tensor<1x4x16x16xf32> {rlx.name = "l1.ssm_state"}, %arg8: tensor<1x7x2x16xf32> {rlx.name = "l2.k_cache"}, %arg9: tensor<1x7x2x16xf32> {rlx.name = "l2.v_cache"}, %arg10: tensor<1x3x128xf32> {rlx.name = "l3.conv_state"}, %arg11: tensor<1x4x16x16xf32> {rlx.name = "l3.ssm_state"}) -> (tensor<1x256xf32> {rlx.name = "logits"}, tensor<1x3x128xf32> {rlx.name = "l0.conv_state"}, tensor<1x4x16x16xf32> {rlx.name = "l0.ssm_state"}, tensor<1x3x128xf32> {rlx.name = "l1.conv_state"}, tensor<1x4x16x16xf32> {rlx.name = "l1.ssm_state"}, tensor<1x8x2x16xf32> {rlx.name = "l2.k_cache"}, tensor<1x8x2x16xf32> {rlx.name = "l2.v_cache"}, tensor<1x3x128xf32> {rlx.name = "l3.conv_state"}, tensor<1x4x16x16xf32> {rlx.name = "l3.ssm_state"}) {
    %cst = graph.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi32>
    %0 = graph.reshape %arg1 : (tensor<1xi32>) -> tensor<1x1xi32>
    %1 = graph.cmp %cst, %0 {predicate = "lt"} : (tensor<1x8xi32>, tensor<1x1xi32>) -> tensor<1x8xi1>
    %cst_0 = graph.constant dense<1.000000e+00> : tensor<1xf32>
    %cst_1 = graph.constant dense<[[0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00]]> : tensor<1x8xf32>
    %2 = graph.select %1, %cst_0, %cst_1 : (tensor<1x8xi1>, tensor<1xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
    %3 = graph.param "embed" : tensor<256x64xf32>
    %4 = graph.gather %3, %arg0 {axis = 0 : i64} : (tensor<256x64xf32>, tensor<1x1xi32>) -> tensor<1x1x64xf32>
    %5 = graph.reshape %4 : (tensor<1x1x64xf32>) -> tensor<1x64xf32>
    %6 = graph.param "l0.attn_norm" : tensor<64xf32>
    %7 = graph.rms_norm %5, %6 {epsilon = 9.99999997E-7 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    %8 = graph.param "l0.w_qkv" : tensor<8704xui8>
    %9 = graph.dequant_matmul %7, %8 {format = "q8_0", k = 64 : i64, n = 128 : i64} : (tensor<1x64xf32>, tensor<8704xui8>) -> tensor<1x128xf32>
    %10 = graph.param "l0.w_z" : tensor<4352xui8>
    %11 = graph.dequant_matmul %7, %10 {format = "q8_0", k = 64 : i64, n = 64 : i64} : (tensor<1x64xf32>, tensor<4352xui8>) -> tensor<1x64xf32>
    %12 = graph.param "l0.w_beta" : tensor<64x4xf32>
    %13 = graph.matmul %7, %12 : (tensor<1x64xf32>, tensor<64x4xf32>) -> tensor<1x4xf32>
    %14 = graph.sigmoid %13 : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %15 = graph.reshape %14 : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
    %16 = graph.param "l0.A_log" : tensor<4xf32>
    %17 = graph.param "l0.dt_bias" : tensor<4xf32>
    %18 = graph.param "l0.w_alpha" : tensor<64x4xf32>
    %19 = graph.matmul %7, %18 : (tensor<1x64xf32>, tensor<64x4xf32>) -> tensor<1x4xf32>
    %20 = graph.add %19, %17 : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
    %21 = graph.exp %16 : (tensor<4xf32>) -> tensor<4xf32>
    %22 = graph.neg %21 : (tensor<4xf32>) -> tensor<4xf32>
    %23 = graph.softplus %20 : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %24 = graph.mul %22, %23 : (tensor<4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %25 = graph.reshape %24 : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
    %26 = graph.reshape %9 : (tensor<1x128xf32>) -> tensor<1x1x128xf32>
    %27 = graph.concat %arg4, %26 {axis = 1 : i64} : (tensor<1x3x128xf32>, tensor<1x1x128xf32>) -> tensor<1x4x128xf32>
    %28 = graph.slice %27 {axis = 1 : i64, length = 3 : i64, start = 1 : i64} : (tensor<1x4x128xf32>) -> tensor<1x3x128xf32>
    %29 = graph.param "l0.conv_w" : tensor<4x128xf32>
    %30 = graph.mul %27, %29 : (tensor<1x4x128xf32>, tensor<4x128xf32>) -> tensor<1x4x128xf32>
    %31 = graph.reduce %30 {axes = array<i64: 1>, kind = "sum"} : (tensor<1x4x128xf32>) -> tensor<1x128xf32>
    %32 = graph.silu %31 : (tensor<1x128xf32>) -> tensor<1x128xf32>
    %33 = graph.slice %32 {axis = 1 : i64, length = 32 : i64, start = 0 : i64} : (tensor<1x128xf32>) -> tensor<1x32xf32>
    %34 = graph.reshape %33 : (tensor<1x32xf32>) -> tensor<1x1x2x16xf32>
    %35 = graph.mul %34, %34 : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %36 = graph.reduce %35 {axes = array<i64: -1>, keep_dims = true, kind = "sum"} : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x1xf32>
    %cst_2 = graph.constant dense<9.99999997E-7> : tensor<1xf32>
    %37 = graph.add %36, %cst_2 : (tensor<1x1x2x1xf32>, tensor<1xf32>) -> tensor<1x1x2x1xf32>
    %38 = graph.rsqrt %37 : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1xf32>
    %39 = graph.mul %34, %38 : (tensor<1x1x2x16xf32>, tensor<1x1x2x1xf32>) -> tensor<1x1x2x16xf32>
    %40 = graph.slice %32 {axis = 1 : i64, length = 32 : i64, start = 32 : i64} : (tensor<1x128xf32>) -> tensor<1x32xf32>
    %41 = graph.reshape %40 : (tensor<1x32xf32>) -> tensor<1x1x2x16xf32>
    %42 = graph.mul %41, %41 : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %43 = graph.reduce %42 {axes = array<i64: -1>, keep_dims = true, kind = "sum"} : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x1xf32>
    %cst_3 = graph.constant dense<9.99999997E-7> : tensor<1xf32>
    %44 = graph.add %43, %cst_3 : (tensor<1x1x2x1xf32>, tensor<1xf32>) -> tensor<1x1x2x1xf32>
    %45 = graph.rsqrt %44 : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1xf32>
    %46 = graph.mul %41, %45 : (tensor<1x1x2x16xf32>, tensor<1x1x2x1xf32>) -> tensor<1x1x2x16xf32>
    %47 = graph.slice %32 {axis = 1 : i64, length = 64 : i64, start = 64 : i64} : (tensor<1x128xf32>) -> tensor<1x64xf32>
    %48 = graph.reshape %47 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
    %49 = graph.reshape %39 : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %50 = graph.broadcast %49 : (tensor<1x1x2x1x16xf32>) -> tensor<1x1x2x2x16xf32>
    %51 = graph.reshape %50 : (tensor<1x1x2x2x16xf32>) -> tensor<1x1x4x16xf32>
    %52 = graph.reshape %46 : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %53 = graph.broadcast %52 : (tensor<1x1x2x1x16xf32>) -> tensor<1x1x2x2x16xf32>
    %54 = graph.reshape %53 : (tensor<1x1x2x2x16xf32>) -> tensor<1x1x4x16xf32>
    %55:2 = graph.gated_delta_net %51, %54, %48, %25, %15, %arg5 : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x4x16x16xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)
    %56 = graph.param "l0.ssm_norm" : tensor<16xf32>
    %57 = graph.rms_norm %55#0, %56 {epsilon = 9.99999997E-7 : f32} : (tensor<1x1x4x16xf32>, tensor<16xf32>) -> tensor<1x1x4x16xf32>
    %58 = graph.reshape %11 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
    %59 = graph.silu %58 : (tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
    %60 = graph.mul %57, %59 : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
    %61 = graph.reshape %60 : (tensor<1x1x4x16xf32>) -> tensor<1x64xf32>
    %62 = graph.param "l0.w_o" : tensor<4352xui8>
    %63 = graph.dequant_matmul %61, %62 {format = "q8_0", k = 64 : i64, n = 64 : i64} : (tensor<1x64xf32>, tensor<4352xui8>) -> tensor<1x64xf32>
    %64 = graph.add %5, %63 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %65 = graph.param "l0.ffn_norm" : tensor<64xf32>
    %66 = graph.rms_norm %64, %65 {epsilon = 9.99999997E-7 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    %67 = graph.param "l0.ffn_gate" : tensor<13056xui8>
    %68 = graph.dequant_matmul %66, %67 {format = "q8_0", k = 64 : i64, n = 192 : i64} : (tensor<1x64xf32>, tensor<13056xui8>) -> tensor<1x192xf32>
    %69 = graph.param "l0.ffn_up" : tensor<13056xui8>
    %70 = graph.dequant_matmul %66, %69 {format = "q8_0", k = 64 : i64, n = 192 : i64} : (tensor<1x64xf32>, tensor<13056xui8>) -> tensor<1x192xf32>
    %71 = graph.silu %68 : (tensor<1x192xf32>) -> tensor<1x192xf32>
    %72 = graph.mul %71, %70 : (tensor<1x192xf32>, tensor<1x192xf32>) -> tensor<1x192xf32>
    %73 = graph.param "l0.ffn_down" : tensor<13056xui8>
    %74 = graph.dequant_matmul %72, %73 {format = "q8_0", k = 192 : i64, n = 64 : i64} : (tensor<1x192xf32>, tensor<13056xui8>) -> tensor<1x64xf32>
    %75 = graph.add %64, %74 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %76 = graph.param "l1.attn_norm" : tensor<64xf32>
    %77 = graph.rms_norm %75, %76 {epsilon = 9.99999997E-7 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    %78 = graph.param "l1.w_qkv" : tensor<8704xui8>
    %79 = graph.dequant_matmul %77, %78 {format = "q8_0", k = 64 : i64, n = 128 : i64} : (tensor<1x64xf32>, tensor<8704xui8>) -> tensor<1x128xf32>
    %80 = graph.param "l1.w_z" : tensor<4352xui8>
    %81 = graph.dequant_matmul %77, %80 {format = "q8_0", k = 64 : i64, n = 64 : i64} : (tensor<1x64xf32>, tensor<4352xui8>) -> tensor<1x64xf32>
    %82 = graph.param "l1.w_beta" : tensor<64x4xf32>
    %83 = graph.matmul %77, %82 : (tensor<1x64xf32>, tensor<64x4xf32>) -> tensor<1x4xf32>
    %84 = graph.sigmoid %83 : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %85 = graph.reshape %84 : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
    %86 = graph.param "l1.A_log" : tensor<4xf32>
    %87 = graph.param "l1.dt_bias" : tensor<4xf32>
    %88 = graph.param "l1.w_alpha" : tensor<64x4xf32>
    %89 = graph.matmul %77, %88 : (tensor<1x64xf32>, tensor<64x4xf32>) -> tensor<1x4xf32>
    %90 = graph.add %89, %87 : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
    %91 = graph.exp %86 : (tensor<4xf32>) -> tensor<4xf32>
    %92 = graph.neg %91 : (tensor<4xf32>) -> tensor<4xf32>
    %93 = graph.softplus %90 : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %94 = graph.mul %92, %93 : (tensor<4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %95 = graph.reshape %94 : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
    %96 = graph.reshape %79 : (tensor<1x128xf32>) -> tensor<1x1x128xf32>
    %97 = graph.concat %arg6, %96 {axis = 1 : i64} : (tensor<1x3x128xf32>, tensor<1x1x128xf32>) -> tensor<1x4x128xf32>
    %98 = graph.slice %97 {axis = 1 : i64, length = 3 : i64, start = 1 : i64} : (tensor<1x4x128xf32>) -> tensor<1x3x128xf32>
    %99 = graph.param "l1.conv_w" : tensor<4x128xf32>
    %100 = graph.mul %97, %99 : (tensor<1x4x128xf32>, tensor<4x128xf32>) -> tensor<1x4x128xf32>
    %101 = graph.reduce %100 {axes = array<i64: 1>, kind = "sum"} : (tensor<1x4x128xf32>) -> tensor<1x128xf32>
    %102 = graph.silu %101 : (tensor<1x128xf32>) -> tensor<1x128xf32>
    %103 = graph.slice %102 {axis = 1 : i64, length = 32 : i64, start = 0 : i64} : (tensor<1x128xf32>) -> tensor<1x32xf32>
    %104 = graph.reshape %103 : (tensor<1x32xf32>) -> tensor<1x1x2x16xf32>
    %105 = graph.mul %104, %104 : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %106 = graph.reduce %105 {axes = array<i64: -1>, keep_dims = true, kind = "sum"} : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x1xf32>
    %cst_4 = graph.constant dense<9.99999997E-7> : tensor<1xf32>
    %107 = graph.add %106, %cst_4 : (tensor<1x1x2x1xf32>, tensor<1xf32>) -> tensor<1x1x2x1xf32>
    %108 = graph.rsqrt %107 : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1xf32>
    %109 = graph.mul %104, %108 : (tensor<1x1x2x16xf32>, tensor<1x1x2x1xf32>) -> tensor<1x1x2x16xf32>
    %110 = graph.slice %102 {axis = 1 : i64, length = 32 : i64, start = 32 : i64} : (tensor<1x128xf32>) -> tensor<1x32xf32>
    %111 = graph.reshape %110 : (tensor<1x32xf32>) -> tensor<1x1x2x16xf32>
    %112 = graph.mul %111, %111 : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %113 = graph.reduce %112 {axes = array<i64: -1>, keep_dims = true, kind = "sum"} : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x1xf32>
    %cst_5 = graph.constant dense<9.99999997E-7> : tensor<1xf32>
    %114 = graph.add %113, %cst_5 : (tensor<1x1x2x1xf32>, tensor<1xf32>) -> tensor<1x1x2x1xf32>
    %115 = graph.rsqrt %114 : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1xf32>
    %116 = graph.mul %111, %115 : (tensor<1x1x2x16xf32>, tensor<1x1x2x1xf32>) -> tensor<1x1x2x16xf32>
    %117 = graph.slice %102 {axis = 1 : i64, length = 64 : i64, start = 64 : i64} : (tensor<1x128xf32>) -> tensor<1x64xf32>
    %118 = graph.reshape %117 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
    %119 = graph.reshape %109 : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %120 = graph.broadcast %119 : (tensor<1x1x2x1x16xf32>) -> tensor<1x1x2x2x16xf32>
    %121 = graph.reshape %120 : (tensor<1x1x2x2x16xf32>) -> tensor<1x1x4x16xf32>
    %122 = graph.reshape %116 : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %123 = graph.broadcast %122 : (tensor<1x1x2x1x16xf32>) -> tensor<1x1x2x2x16xf32>
    %124 = graph.reshape %123 : (tensor<1x1x2x2x16xf32>) -> tensor<1x1x4x16xf32>
    %125:2 = graph.gated_delta_net %121, %124, %118, %95, %85, %arg7 : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x4x16x16xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)
    %126 = graph.param "l1.ssm_norm" : tensor<16xf32>
    %127 = graph.rms_norm %125#0, %126 {epsilon = 9.99999997E-7 : f32} : (tensor<1x1x4x16xf32>, tensor<16xf32>) -> tensor<1x1x4x16xf32>
    %128 = graph.reshape %81 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
    %129 = graph.silu %128 : (tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
    %130 = graph.mul %127, %129 : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
    %131 = graph.reshape %130 : (tensor<1x1x4x16xf32>) -> tensor<1x64xf32>
    %132 = graph.param "l1.w_o" : tensor<4352xui8>
    %133 = graph.dequant_matmul %131, %132 {format = "q8_0", k = 64 : i64, n = 64 : i64} : (tensor<1x64xf32>, tensor<4352xui8>) -> tensor<1x64xf32>
    %134 = graph.add %75, %133 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %135 = graph.param "l1.ffn_norm" : tensor<64xf32>
    %136 = graph.rms_norm %134, %135 {epsilon = 9.99999997E-7 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    %137 = graph.param "l1.ffn_gate" : tensor<13056xui8>
    %138 = graph.dequant_matmul %136, %137 {format = "q8_0", k = 64 : i64, n = 192 : i64} : (tensor<1x64xf32>, tensor<13056xui8>) -> tensor<1x192xf32>
    %139 = graph.param "l1.ffn_up" : tensor<13056xui8>
    %140 = graph.dequant_matmul %136, %139 {format = "q8_0", k = 64 : i64, n = 192 : i64} : (tensor<1x64xf32>, tensor<13056xui8>) -> tensor<1x192xf32>
    %141 = graph.silu %138 : (tensor<1x192xf32>) -> tensor<1x192xf32>
    %142 = graph.mul %141, %140 : (tensor<1x192xf32>, tensor<1x192xf32>) -> tensor<1x192xf32>
    %143 = graph.param "l1.ffn_down" : tensor<13056xui8>
    %144 = graph.dequant_matmul %142, %143 {format = "q8_0", k = 192 : i64, n = 64 : i64} : (tensor<1x192xf32>, tensor<13056xui8>) -> tensor<1x64xf32>
    %145 = graph.add %134, %144 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %146 = graph.param "l2.attn_norm" : tensor<64xf32>
    %147 = graph.rms_norm %145, %146 {epsilon = 9.99999997E-7 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    %148 = graph.param "l2.w_qg" : tensor<8704xui8>
    %149 = graph.dequant_matmul %147, %148 {format = "q8_0", k = 64 : i64, n = 128 : i64} : (tensor<1x64xf32>, tensor<8704xui8>) -> tensor<1x128xf32>
    %150 = graph.reshape %149 : (tensor<1x128xf32>) -> tensor<1x1x4x32xf32>
    %151 = graph.slice %150 {axis = -1 : i64, length = 16 : i64, start = 0 : i64} : (tensor<1x1x4x32xf32>) -> tensor<1x1x4x16xf32>
    %152 = graph.slice %150 {axis = -1 : i64, length = 16 : i64, start = 16 : i64} : (tensor<1x1x4x32xf32>) -> tensor<1x1x4x16xf32>
    %153 = graph.param "l2.w_k" : tensor<2176xui8>
    %154 = graph.dequant_matmul %147, %153 {format = "q8_0", k = 64 : i64, n = 32 : i64} : (tensor<1x64xf32>, tensor<2176xui8>) -> tensor<1x32xf32>
    %155 = graph.reshape %154 : (tensor<1x32xf32>) -> tensor<1x1x2x16xf32>
    %156 = graph.param "l2.w_v" : tensor<2176xui8>
    %157 = graph.dequant_matmul %147, %156 {format = "q8_0", k = 64 : i64, n = 32 : i64} : (tensor<1x64xf32>, tensor<2176xui8>) -> tensor<1x32xf32>
    %158 = graph.reshape %157 : (tensor<1x32xf32>) -> tensor<1x1x2x16xf32>
    %159 = graph.param "l2.q_norm" : tensor<16xf32>
    %160 = graph.rms_norm %151, %159 {epsilon = 9.99999997E-7 : f32} : (tensor<1x1x4x16xf32>, tensor<16xf32>) -> tensor<1x1x4x16xf32>
    %161 = graph.param "l2.k_norm" : tensor<16xf32>
    %162 = graph.rms_norm %155, %161 {epsilon = 9.99999997E-7 : f32} : (tensor<1x1x2x16xf32>, tensor<16xf32>) -> tensor<1x1x2x16xf32>
    %163 = graph.rope %160, %arg2, %arg3 {head_dim = 16 : i64, rotary_dim = 4 : i64, style = "neox"} : (tensor<1x1x4x16xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x1x4x16xf32>
    %164 = graph.rope %162, %arg2, %arg3 {head_dim = 16 : i64, rotary_dim = 4 : i64, style = "neox"} : (tensor<1x1x2x16xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x1x2x16xf32>
    %165 = graph.concat %arg8, %164 {axis = 1 : i64} : (tensor<1x7x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x8x2x16xf32>
    %166 = graph.concat %arg9, %158 {axis = 1 : i64} : (tensor<1x7x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x8x2x16xf32>
    %167 = graph.attention %163, %165, %166, %2 {mask = "custom"} : (tensor<1x1x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8xf32>) -> tensor<1x1x4x16xf32>
    %168 = graph.sigmoid %152 : (tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
    %169 = graph.mul %167, %168 : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
    %170 = graph.reshape %169 : (tensor<1x1x4x16xf32>) -> tensor<1x64xf32>
    %171 = graph.param "l2.w_o" : tensor<4352xui8>
    %172 = graph.dequant_matmul %170, %171 {format = "q8_0", k = 64 : i64, n = 64 : i64} : (tensor<1x64xf32>, tensor<4352xui8>) -> tensor<1x64xf32>
    %173 = graph.add %145, %172 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %174 = graph.param "l2.ffn_norm" : tensor<64xf32>
    %175 = graph.rms_norm %173, %174 {epsilon = 9.99999997E-7 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    %176 = graph.param "l2.ffn_gate" : tensor<13056xui8>
    %177 = graph.dequant_matmul %175, %176 {format = "q8_0", k = 64 : i64, n = 192 : i64} : (tensor<1x64xf32>, tensor<13056xui8>) -> tensor<1x192xf32>
    %178 = graph.param "l2.ffn_up" : tensor<13056xui8>
    %179 = graph.dequant_matmul %175, %178 {format = "q8_0", k = 64 : i64, n = 192 : i64} : (tensor<1x64xf32>, tensor<13056xui8>) -> tensor<1x192xf32>
    %180 = graph.silu %177 : (tensor<1x192xf32>) -> tensor<1x192xf32>
    %181 = graph.mul %180, %179 : (tensor<1x192xf32>, tensor<1x192xf32>) -> tensor<1x192xf32>
    %182 = graph.param "l2.ffn_down" : tensor<13056xui8>
    %183 = graph.dequant_matmul %181, %182 {format = "q8_0", k = 192 : i64, n = 64 : i64} : (tensor<1x192xf32>, tensor<13056xui8>) -> tensor<1x64xf32>
    %184 = graph.add %173, %183 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %185 = graph.param "l3.attn_norm" : tensor<64xf32>
    %186 = graph.rms_norm %184, %185 {epsilon = 9.99999997E-7 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    %187 = graph.param "l3.w_qkv" : tensor<8704xui8>
    %188 = graph.dequant_matmul %186, %187 {format = "q8_0", k = 64 : i64, n = 128 : i64} : (tensor<1x64xf32>, tensor<8704xui8>) -> tensor<1x128xf32>
    %189 = graph.param "l3.w_z" : tensor<4352xui8>
    %190 = graph.dequant_matmul %186, %189 {format = "q8_0", k = 64 : i64, n = 64 : i64} : (tensor<1x64xf32>, tensor<4352xui8>) -> tensor<1x64xf32>
    %191 = graph.param "l3.w_beta" : tensor<64x4xf32>
    %192 = graph.matmul %186, %191 : (tensor<1x64xf32>, tensor<64x4xf32>) -> tensor<1x4xf32>
    %193 = graph.sigmoid %192 : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %194 = graph.reshape %193 : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
    %195 = graph.param "l3.A_log" : tensor<4xf32>
    %196 = graph.param "l3.dt_bias" : tensor<4xf32>
    %197 = graph.param "l3.w_alpha" : tensor<64x4xf32>
    %198 = graph.matmul %186, %197 : (tensor<1x64xf32>, tensor<64x4xf32>) -> tensor<1x4xf32>
    %199 = graph.add %198, %196 : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
    %200 = graph.exp %195 : (tensor<4xf32>) -> tensor<4xf32>
    %201 = graph.neg %200 : (tensor<4xf32>) -> tensor<4xf32>
    %202 = graph.softplus %199 : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %203 = graph.mul %201, %202 : (tensor<4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %204 = graph.reshape %203 : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
    %205 = graph.reshape %188 : (tensor<1x128xf32>) -> tensor<1x1x128xf32>
    %206 = graph.concat %arg10, %205 {axis = 1 : i64} : (tensor<1x3x128xf32>, tensor<1x1x128xf32>) -> tensor<1x4x128xf32>
    %207 = graph.slice %206 {axis = 1 : i64, length = 3 : i64, start = 1 : i64} : (tensor<1x4x128xf32>) -> tensor<1x3x128xf32>
    %208 = graph.param "l3.conv_w" : tensor<4x128xf32>
    %209 = graph.mul %206, %208 : (tensor<1x4x128xf32>, tensor<4x128xf32>) -> tensor<1x4x128xf32>
    %210 = graph.reduce %209 {axes = array<i64: 1>, kind = "sum"} : (tensor<1x4x128xf32>) -> tensor<1x128xf32>
    %211 = graph.silu %210 : (tensor<1x128xf32>) -> tensor<1x128xf32>
    %212 = graph.slice %211 {axis = 1 : i64, length = 32 : i64, start = 0 : i64} : (tensor<1x128xf32>) -> tensor<1x32xf32>
    %213 = graph.reshape %212 : (tensor<1x32xf32>) -> tensor<1x1x2x16xf32>
    %214 = graph.mul %213, %213 : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %215 = graph.reduce %214 {axes = array<i64: -1>, keep_dims = true, kind = "sum"} : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x1xf32>
    %cst_6 = graph.constant dense<9.99999997E-7> : tensor<1xf32>
    %216 = graph.add %215, %cst_6 : (tensor<1x1x2x1xf32>, tensor<1xf32>) -> tensor<1x1x2x1xf32>
    %217 = graph.rsqrt %216 : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1xf32>
    %218 = graph.mul %213, %217 : (tensor<1x1x2x16xf32>, tensor<1x1x2x1xf32>) -> tensor<1x1x2x16xf32>
    %219 = graph.slice %211 {axis = 1 : i64, length = 32 : i64, start = 32 : i64} : (tensor<1x128xf32>) -> tensor<1x32xf32>
    %220 = graph.reshape %219 : (tensor<1x32xf32>) -> tensor<1x1x2x16xf32>
    %221 = graph.mul %220, %220 : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %222 = graph.reduce %221 {axes = array<i64: -1>, keep_dims = true, kind = "sum"} : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x1xf32>
    %cst_7 = graph.constant dense<9.99999997E-7> : tensor<1xf32>
    %223 = graph.add %222, %cst_7 : (tensor<1x1x2x1xf32>, tensor<1xf32>) -> tensor<1x1x2x1xf32>
    %224 = graph.rsqrt %223 : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1xf32>
    %225 = graph.mul %220, %224 : (tensor<1x1x2x16xf32>, tensor<1x1x2x1xf32>) -> tensor<1x1x2x16xf32>
    %226 = graph.slice %211 {axis = 1 : i64, length = 64 : i64, start = 64 : i64} : (tensor<1x128xf32>) -> tensor<1x64xf32>
    %227 = graph.reshape %226 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
    %228 = graph.reshape %218 : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %229 = graph.broadcast %228 : (tensor<1x1x2x1x16xf32>) -> tensor<1x1x2x2x16xf32>
    %230 = graph.reshape %229 : (tensor<1x1x2x2x16xf32>) -> tensor<1x1x4x16xf32>
    %231 = graph.reshape %225 : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %232 = graph.broadcast %231 : (tensor<1x1x2x1x16xf32>) -> tensor<1x1x2x2x16xf32>
    %233 = graph.reshape %232 : (tensor<1x1x2x2x16xf32>) -> tensor<1x1x4x16xf32>
    %234:2 = graph.gated_delta_net %230, %233, %227, %204, %194, %arg11 : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x4x16x16xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)
    %235 = graph.param "l3.ssm_norm" : tensor<16xf32>
    %236 = graph.rms_norm %234#0, %235 {epsilon = 9.99999997E-7 : f32} : (tensor<1x1x4x16xf32>, tensor<16xf32>) -> tensor<1x1x4x16xf32>
    %237 = graph.reshape %190 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
    %238 = graph.silu %237 : (tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
    %239 = graph.mul %236, %238 : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
    %240 = graph.reshape %239 : (tensor<1x1x4x16xf32>) -> tensor<1x64xf32>
    %241 = graph.param "l3.w_o" : tensor<4352xui8>
    %242 = graph.dequant_matmul %240, %241 {format = "q8_0", k = 64 : i64, n = 64 : i64} : (tensor<1x64xf32>, tensor<4352xui8>) -> tensor<1x64xf32>
    %243 = graph.add %184, %242 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %244 = graph.param "l3.ffn_norm" : tensor<64xf32>
    %245 = graph.rms_norm %243, %244 {epsilon = 9.99999997E-7 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    %246 = graph.param "l3.ffn_gate" : tensor<13056xui8>
    %247 = graph.dequant_matmul %245, %246 {format = "q8_0", k = 64 : i64, n = 192 : i64} : (tensor<1x64xf32>, tensor<13056xui8>) -> tensor<1x192xf32>
    %248 = graph.param "l3.ffn_up" : tensor<13056xui8>
    %249 = graph.dequant_matmul %245, %248 {format = "q8_0", k = 64 : i64, n = 192 : i64} : (tensor<1x64xf32>, tensor<13056xui8>) -> tensor<1x192xf32>
    %250 = graph.silu %247 : (tensor<1x192xf32>) -> tensor<1x192xf32>
    %251 = graph.mul %250, %249 : (tensor<1x192xf32>, tensor<1x192xf32>) -> tensor<1x192xf32>
    %252 = graph.param "l3.ffn_down" : tensor<13056xui8>
    %253 = graph.dequant_matmul %251, %252 {format = "q8_0", k = 192 : i64, n = 64 : i64} : (tensor<1x192xf32>, tensor<13056xui8>) -> tensor<1x64xf32>
    %254 = graph.add %243, %253 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %255 = graph.param "final_norm" : tensor<64xf32>
    %256 = graph.rms_norm %254, %255 {epsilon = 9.99999997E-7 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    %257 = graph.transpose %3 {permutation = array<i64: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
    %258 = graph.matmul %256, %257 : (tensor<1x64xf32>, tensor<64x256xf32>) -> tensor<1x256xf32>
    return %258, %28, %55#1, %98, %125#1, %165, %166, %207, %234#1 : tensor<1x256xf32>, tensor<1x3x128xf32>, tensor<1x4x16x16xf32>, tensor<1x3x128xf32>, tensor<1x4x16x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x3x128xf32>, tensor<1x4x16x16xf32>
  }
}

