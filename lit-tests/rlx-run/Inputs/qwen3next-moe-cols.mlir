// A one-layer Qwen3-Next decode step (full attention, 4 experts, top 2,
// hidden 256) whose projections and expert stacks are read as q6_k_c16:
// rlx-import --q6k-columns --max-tokens 8 of internal/ggufgen's
// Qwen3Next(6), the GGUF of models/importer TestQ6KColumnsExperts. Weights are generated
// (rlx-run --seed): every stack valid q6_k_c16 blocks, expert by expert.
module {
  func.func @decode(%arg0: tensor<1x1xi32> {rlx.name = "token"}, %arg1: tensor<1xi32> {rlx.name = "pos"}, %arg2: tensor<1x8x1x128xf32> {rlx.name = "l0.k_cache"}, %arg3: tensor<1x8x1x128xf32> {rlx.name = "l0.v_cache"}) -> (tensor<1x16xf32> {rlx.name = "logits"}, tensor<1x8x1x128xf32> {rlx.name = "l0.k_cache"}, tensor<1x8x1x128xf32> {rlx.name = "l0.v_cache"}) attributes {rlx.max_tokens = 8 : i64} {
    %0 = graph.cast %arg1 : (tensor<1xi32>) -> tensor<1xf32>
    %1 = graph.reshape %0 : (tensor<1xf32>) -> tensor<1x1xf32>
    %cst = graph.constant dense<[[1.000000e+00, 0.749894201, 0.562341332, 0.421696514, 0.316227764, 0.237137377, 0.177827939, 0.133352146, 1.000000e-01, 0.0749894232, 0.0562341325, 0.0421696492, 0.0316227749, 0.0237137377, 0.0177827943, 0.013335214, 0.00999999977, 0.00749894232, 0.00562341325, 0.00421696482, 0.00316227763, 0.00237137382, 0.00177827943, 0.00133352145, 1.000000e-03, 7.49894185E-4, 5.62341302E-4, 4.21696517E-4, 3.16227757E-4, 2.3713737E-4, 1.7782794E-4, 1.3335215E-4]]> : tensor<1x32xf32>
    %2 = graph.mul %1, %cst : (tensor<1x1xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %3 = graph.cos %2 : (tensor<1x32xf32>) -> tensor<1x32xf32>
    %4 = graph.sin %2 : (tensor<1x32xf32>) -> tensor<1x32xf32>
    %cst_0 = graph.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi32>
    %5 = graph.reshape %arg1 : (tensor<1xi32>) -> tensor<1x1xi32>
    %6 = graph.cmp %cst_0, %5 {predicate = "le"} : (tensor<1x8xi32>, tensor<1x1xi32>) -> tensor<1x8xi1>
    %7 = graph.cmp %cst_0, %5 {predicate = "eq"} : (tensor<1x8xi32>, tensor<1x1xi32>) -> tensor<1x8xi1>
    %8 = graph.reshape %7 : (tensor<1x8xi1>) -> tensor<1x8x1x1xi1>
    %9 = graph.param "token_embd.weight" : tensor<16x256xf32>
    %10 = graph.gather %9, %arg0 {axis = 0 : i64} : (tensor<16x256xf32>, tensor<1x1xi32>) -> tensor<1x1x256xf32>
    %11 = graph.reshape %10 : (tensor<1x1x256xf32>) -> tensor<1x256xf32>
    %12 = graph.param "blk.0.attn_norm.weight" : tensor<256xf32>
    %13 = graph.rms_norm %11, %12 {epsilon = 9.99999997E-7 : f32} : (tensor<1x256xf32>, tensor<256xf32>) -> tensor<1x256xf32>
    %14 = graph.param "blk.0.attn_q.weight" : tensor<107520xui8>
    %15 = graph.dequant_matmul %13, %14 {format = "q6_k_c16", k = 256 : i64, n = 512 : i64} : (tensor<1x256xf32>, tensor<107520xui8>) -> tensor<1x512xf32>
    %16 = graph.reshape %15 : (tensor<1x512xf32>) -> tensor<1x1x2x256xf32>
    %17 = graph.slice %16 {axis = 3 : i64, length = 128 : i64, start = 0 : i64} : (tensor<1x1x2x256xf32>) -> tensor<1x1x2x128xf32>
    %18 = graph.slice %16 {axis = 3 : i64, length = 128 : i64, start = 128 : i64} : (tensor<1x1x2x256xf32>) -> tensor<1x1x2x128xf32>
    %19 = graph.reshape %18 : (tensor<1x1x2x128xf32>) -> tensor<1x256xf32>
    %20 = graph.param "blk.0.attn_k.weight" : tensor<26880xui8>
    %21 = graph.dequant_matmul %13, %20 {format = "q6_k_c16", k = 256 : i64, n = 128 : i64} : (tensor<1x256xf32>, tensor<26880xui8>) -> tensor<1x128xf32>
    %22 = graph.reshape %21 : (tensor<1x128xf32>) -> tensor<1x1x1x128xf32>
    %23 = graph.param "blk.0.attn_v.weight" : tensor<26880xui8>
    %24 = graph.dequant_matmul %13, %23 {format = "q6_k_c16", k = 256 : i64, n = 128 : i64} : (tensor<1x256xf32>, tensor<26880xui8>) -> tensor<1x128xf32>
    %25 = graph.reshape %24 : (tensor<1x128xf32>) -> tensor<1x1x1x128xf32>
    %26 = graph.param "blk.0.attn_q_norm.weight" : tensor<128xf32>
    %27 = graph.rms_norm %17, %26 {epsilon = 9.99999997E-7 : f32} : (tensor<1x1x2x128xf32>, tensor<128xf32>) -> tensor<1x1x2x128xf32>
    %28 = graph.param "blk.0.attn_k_norm.weight" : tensor<128xf32>
    %29 = graph.rms_norm %22, %28 {epsilon = 9.99999997E-7 : f32} : (tensor<1x1x1x128xf32>, tensor<128xf32>) -> tensor<1x1x1x128xf32>
    %30 = graph.rope %27, %3, %4 {head_dim = 128 : i64, rotary_dim = 64 : i64, style = "neox"} : (tensor<1x1x2x128xf32>, tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x1x2x128xf32>
    %31 = graph.rope %29, %3, %4 {head_dim = 128 : i64, rotary_dim = 64 : i64, style = "neox"} : (tensor<1x1x1x128xf32>, tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x1x1x128xf32>
    %32 = graph.select %8, %31, %arg2 : (tensor<1x8x1x1xi1>, tensor<1x1x1x128xf32>, tensor<1x8x1x128xf32>) -> tensor<1x8x1x128xf32>
    %33 = graph.select %8, %25, %arg3 : (tensor<1x8x1x1xi1>, tensor<1x1x1x128xf32>, tensor<1x8x1x128xf32>) -> tensor<1x8x1x128xf32>
    %34 = graph.attention %30, %32, %33, %6 {mask = "custom"} : (tensor<1x1x2x128xf32>, tensor<1x8x1x128xf32>, tensor<1x8x1x128xf32>, tensor<1x8xi1>) -> tensor<1x1x2x128xf32>
    %35 = graph.reshape %34 : (tensor<1x1x2x128xf32>) -> tensor<1x256xf32>
    %36 = graph.sigmoid %19 : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %37 = graph.mul %35, %36 : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
    %38 = graph.param "blk.0.attn_output.weight" : tensor<53760xui8>
    %39 = graph.dequant_matmul %37, %38 {format = "q6_k_c16", k = 256 : i64, n = 256 : i64} : (tensor<1x256xf32>, tensor<53760xui8>) -> tensor<1x256xf32>
    %40 = graph.add %11, %39 : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
    %41 = graph.param "blk.0.post_attention_norm.weight" : tensor<256xf32>
    %42 = graph.rms_norm %40, %41 {epsilon = 9.99999997E-7 : f32} : (tensor<1x256xf32>, tensor<256xf32>) -> tensor<1x256xf32>
    %43 = graph.param "blk.0.ffn_gate_inp.weight" : tensor<4x256xf32>
    %44 = graph.reshape %42 : (tensor<1x256xf32>) -> tensor<256x1xf32>
    %45 = graph.matmul %43, %44 : (tensor<4x256xf32>, tensor<256x1xf32>) -> tensor<4x1xf32>
    %46 = graph.reshape %45 : (tensor<4x1xf32>) -> tensor<1x4xf32>
    %47 = graph.softmax %46 {axis = -1 : i64} : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %48:2 = graph.topk %47 {k = 2 : i64} : (tensor<1x4xf32>) -> (tensor<1x2xf32>, tensor<1x2xi32>)
    %49 = graph.reshape %48#1 : (tensor<1x2xi32>) -> tensor<2xi32>
    %50 = graph.reduce %48#0 {axes = array<i64: -1>, keep_dims = true, kind = "sum"} : (tensor<1x2xf32>) -> tensor<1x1xf32>
    %51 = graph.div %48#0, %50 : (tensor<1x2xf32>, tensor<1x1xf32>) -> tensor<1x2xf32>
    %52 = graph.param "blk.0.ffn_gate_exps.weight" : tensor<215040xui8>
    %53 = graph.reshape %52 : (tensor<215040xui8>) -> tensor<4x53760xui8>
    %54 = graph.gather %53, %49 {axis = 0 : i64} : (tensor<4x53760xui8>, tensor<2xi32>) -> tensor<2x53760xui8>
    %55 = graph.slice %54 {axis = 0 : i64, length = 1 : i64, start = 0 : i64} : (tensor<2x53760xui8>) -> tensor<1x53760xui8>
    %56 = graph.reshape %55 : (tensor<1x53760xui8>) -> tensor<53760xui8>
    %57 = graph.dequant_matmul %42, %56 {format = "q6_k_c16", k = 256 : i64, n = 256 : i64} : (tensor<1x256xf32>, tensor<53760xui8>) -> tensor<1x256xf32>
    %58 = graph.slice %54 {axis = 0 : i64, length = 1 : i64, start = 1 : i64} : (tensor<2x53760xui8>) -> tensor<1x53760xui8>
    %59 = graph.reshape %58 : (tensor<1x53760xui8>) -> tensor<53760xui8>
    %60 = graph.dequant_matmul %42, %59 {format = "q6_k_c16", k = 256 : i64, n = 256 : i64} : (tensor<1x256xf32>, tensor<53760xui8>) -> tensor<1x256xf32>
    %61 = graph.concat %57, %60 {axis = 0 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<2x256xf32>
    %62 = graph.param "blk.0.ffn_up_exps.weight" : tensor<215040xui8>
    %63 = graph.reshape %62 : (tensor<215040xui8>) -> tensor<4x53760xui8>
    %64 = graph.gather %63, %49 {axis = 0 : i64} : (tensor<4x53760xui8>, tensor<2xi32>) -> tensor<2x53760xui8>
    %65 = graph.slice %64 {axis = 0 : i64, length = 1 : i64, start = 0 : i64} : (tensor<2x53760xui8>) -> tensor<1x53760xui8>
    %66 = graph.reshape %65 : (tensor<1x53760xui8>) -> tensor<53760xui8>
    %67 = graph.dequant_matmul %42, %66 {format = "q6_k_c16", k = 256 : i64, n = 256 : i64} : (tensor<1x256xf32>, tensor<53760xui8>) -> tensor<1x256xf32>
    %68 = graph.slice %64 {axis = 0 : i64, length = 1 : i64, start = 1 : i64} : (tensor<2x53760xui8>) -> tensor<1x53760xui8>
    %69 = graph.reshape %68 : (tensor<1x53760xui8>) -> tensor<53760xui8>
    %70 = graph.dequant_matmul %42, %69 {format = "q6_k_c16", k = 256 : i64, n = 256 : i64} : (tensor<1x256xf32>, tensor<53760xui8>) -> tensor<1x256xf32>
    %71 = graph.concat %67, %70 {axis = 0 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<2x256xf32>
    %72 = graph.silu %61 : (tensor<2x256xf32>) -> tensor<2x256xf32>
    %73 = graph.mul %72, %71 : (tensor<2x256xf32>, tensor<2x256xf32>) -> tensor<2x256xf32>
    %74 = graph.param "blk.0.ffn_down_exps.weight" : tensor<215040xui8>
    %75 = graph.reshape %74 : (tensor<215040xui8>) -> tensor<4x53760xui8>
    %76 = graph.gather %75, %49 {axis = 0 : i64} : (tensor<4x53760xui8>, tensor<2xi32>) -> tensor<2x53760xui8>
    %77 = graph.slice %73 {axis = 0 : i64, length = 1 : i64, start = 0 : i64} : (tensor<2x256xf32>) -> tensor<1x256xf32>
    %78 = graph.slice %76 {axis = 0 : i64, length = 1 : i64, start = 0 : i64} : (tensor<2x53760xui8>) -> tensor<1x53760xui8>
    %79 = graph.reshape %78 : (tensor<1x53760xui8>) -> tensor<53760xui8>
    %80 = graph.dequant_matmul %77, %79 {format = "q6_k_c16", k = 256 : i64, n = 256 : i64} : (tensor<1x256xf32>, tensor<53760xui8>) -> tensor<1x256xf32>
    %81 = graph.slice %73 {axis = 0 : i64, length = 1 : i64, start = 1 : i64} : (tensor<2x256xf32>) -> tensor<1x256xf32>
    %82 = graph.slice %76 {axis = 0 : i64, length = 1 : i64, start = 1 : i64} : (tensor<2x53760xui8>) -> tensor<1x53760xui8>
    %83 = graph.reshape %82 : (tensor<1x53760xui8>) -> tensor<53760xui8>
    %84 = graph.dequant_matmul %81, %83 {format = "q6_k_c16", k = 256 : i64, n = 256 : i64} : (tensor<1x256xf32>, tensor<53760xui8>) -> tensor<1x256xf32>
    %85 = graph.concat %80, %84 {axis = 0 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<2x256xf32>
    %86 = graph.reshape %51 : (tensor<1x2xf32>) -> tensor<2x1xf32>
    %87 = graph.mul %85, %86 : (tensor<2x256xf32>, tensor<2x1xf32>) -> tensor<2x256xf32>
    %88 = graph.reduce %87 {axes = array<i64: 0>, kind = "sum"} : (tensor<2x256xf32>) -> tensor<256xf32>
    %89 = graph.reshape %88 : (tensor<256xf32>) -> tensor<1x256xf32>
    %90 = graph.param "blk.0.ffn_gate_shexp.weight" : tensor<53760xui8>
    %91 = graph.dequant_matmul %42, %90 {format = "q6_k_c16", k = 256 : i64, n = 256 : i64} : (tensor<1x256xf32>, tensor<53760xui8>) -> tensor<1x256xf32>
    %92 = graph.silu %91 : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %93 = graph.param "blk.0.ffn_up_shexp.weight" : tensor<53760xui8>
    %94 = graph.dequant_matmul %42, %93 {format = "q6_k_c16", k = 256 : i64, n = 256 : i64} : (tensor<1x256xf32>, tensor<53760xui8>) -> tensor<1x256xf32>
    %95 = graph.mul %92, %94 : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
    %96 = graph.param "blk.0.ffn_down_shexp.weight" : tensor<53760xui8>
    %97 = graph.dequant_matmul %95, %96 {format = "q6_k_c16", k = 256 : i64, n = 256 : i64} : (tensor<1x256xf32>, tensor<53760xui8>) -> tensor<1x256xf32>
    %98 = graph.param "blk.0.ffn_gate_inp_shexp.weight" : tensor<256xf32>
    %99 = graph.reshape %98 : (tensor<256xf32>) -> tensor<1x256xf32>
    %100 = graph.matmul %99, %44 : (tensor<1x256xf32>, tensor<256x1xf32>) -> tensor<1x1xf32>
    %101 = graph.reshape %100 : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %102 = graph.sigmoid %101 : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %103 = graph.mul %97, %102 : (tensor<1x256xf32>, tensor<1x1xf32>) -> tensor<1x256xf32>
    %104 = graph.add %89, %103 : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
    %105 = graph.add %40, %104 : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
    %106 = graph.param "output_norm.weight" : tensor<256xf32>
    %107 = graph.rms_norm %105, %106 {epsilon = 9.99999997E-7 : f32} : (tensor<1x256xf32>, tensor<256xf32>) -> tensor<1x256xf32>
    %108 = graph.param "output.weight" : tensor<3360xui8>
    %109 = graph.dequant_matmul %107, %108 {format = "q6_k_c16", k = 256 : i64, n = 16 : i64} : (tensor<1x256xf32>, tensor<3360xui8>) -> tensor<1x16xf32>
    return %109, %32, %33 : tensor<1x16xf32>, tensor<1x8x1x128xf32>, tensor<1x8x1x128xf32>
  }
}

