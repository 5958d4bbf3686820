// A Qwen3.5-like decode step (runtime/ref/decode_test.go): hidden 64, 3 layers,
// 4 heads of 16 (2 kv heads), FFN 176, 5 cached positions; every third layer
// is full attention, the others gated delta nets.
func.func @decode(%x: tensor<1x64xf32>, %cos: tensor<1x2xf32>, %sin: tensor<1x2xf32>, %state0: tensor<1x4x16x16xf32>, %state1: tensor<1x4x16x16xf32>, %kcache2: tensor<1x5x2x16xf32>, %vcache2: tensor<1x5x2x16xf32>) -> (tensor<1x64xf32>, tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>, tensor<1x6x2x16xf32>, tensor<1x6x2x16xf32>) {
  %v0 = graph.param "l0.norm" : tensor<64xf32>
  %v1 = graph.rms_norm %x, %v0 {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %v2 = graph.param "l0.wq" : tensor<64x64xf32>
  %v3 = graph.matmul %v1, %v2 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v4 = graph.reshape %v3 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
  %v5 = graph.param "l0.wk" : tensor<64x64xf32>
  %v6 = graph.matmul %v1, %v5 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v7 = graph.reshape %v6 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
  %v8 = graph.param "l0.wv" : tensor<64x64xf32>
  %v9 = graph.matmul %v1, %v8 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v10 = graph.reshape %v9 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
  %v11 = graph.param "l0.q_norm" : tensor<16xf32>
  %v12 = graph.rms_norm %v4, %v11 {epsilon = 1.0e-06 : f32} : (tensor<1x1x4x16xf32>, tensor<16xf32>) -> tensor<1x1x4x16xf32>
  %v13 = graph.param "l0.k_norm" : tensor<16xf32>
  %v14 = graph.rms_norm %v7, %v13 {epsilon = 1.0e-06 : f32} : (tensor<1x1x4x16xf32>, tensor<16xf32>) -> tensor<1x1x4x16xf32>
  %v15 = graph.param "l0.wg" : tensor<64x4xf32>
  %v16 = graph.matmul %v1, %v15 : (tensor<1x64xf32>, tensor<64x4xf32>) -> tensor<1x4xf32>
  %v17 = graph.reshape %v16 : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
  %v18 = graph.softplus %v17 : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
  %v19 = graph.neg %v18 : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
  %v20 = graph.param "l0.wbeta" : tensor<64x4xf32>
  %v21 = graph.matmul %v1, %v20 : (tensor<1x64xf32>, tensor<64x4xf32>) -> tensor<1x4xf32>
  %v22 = graph.sigmoid %v21 : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %v23 = graph.reshape %v22 : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
  %v24:2 = graph.gated_delta_net %v12, %v14, %v10, %v19, %v23, %state0 : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x4x16x16xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)
  %v25 = graph.param "l0.o_norm" : tensor<16xf32>
  %v26 = graph.rms_norm %v24#0, %v25 {epsilon = 1.0e-06 : f32} : (tensor<1x1x4x16xf32>, tensor<16xf32>) -> tensor<1x1x4x16xf32>
  %v27 = graph.param "l0.wz" : tensor<64x64xf32>
  %v28 = graph.matmul %v1, %v27 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v29 = graph.silu %v28 : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %v30 = graph.reshape %v29 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
  %v31 = graph.mul %v26, %v30 : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
  %v32 = graph.reshape %v31 : (tensor<1x1x4x16xf32>) -> tensor<1x64xf32>
  %v33 = graph.param "l0.wo" : tensor<64x64xf32>
  %v34 = graph.matmul %v32, %v33 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v35 = graph.add %x, %v34 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %v36 = graph.param "l0.ffn_norm" : tensor<64xf32>
  %v37 = graph.rms_norm %v35, %v36 {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %v38 = graph.param "l0.w_gate" : tensor<64x176xf32>
  %v39 = graph.matmul %v37, %v38 : (tensor<1x64xf32>, tensor<64x176xf32>) -> tensor<1x176xf32>
  %v40 = graph.silu %v39 : (tensor<1x176xf32>) -> tensor<1x176xf32>
  %v41 = graph.param "l0.w_up" : tensor<64x176xf32>
  %v42 = graph.matmul %v37, %v41 : (tensor<1x64xf32>, tensor<64x176xf32>) -> tensor<1x176xf32>
  %v43 = graph.mul %v40, %v42 : (tensor<1x176xf32>, tensor<1x176xf32>) -> tensor<1x176xf32>
  %v44 = graph.param "l0.w_down" : tensor<176x64xf32>
  %v45 = graph.matmul %v43, %v44 : (tensor<1x176xf32>, tensor<176x64xf32>) -> tensor<1x64xf32>
  %v46 = graph.add %v35, %v45 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %v47 = graph.param "l1.norm" : tensor<64xf32>
  %v48 = graph.rms_norm %v46, %v47 {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %v49 = graph.param "l1.wq" : tensor<64x64xf32>
  %v50 = graph.matmul %v48, %v49 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v51 = graph.reshape %v50 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
  %v52 = graph.param "l1.wk" : tensor<64x64xf32>
  %v53 = graph.matmul %v48, %v52 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v54 = graph.reshape %v53 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
  %v55 = graph.param "l1.wv" : tensor<64x64xf32>
  %v56 = graph.matmul %v48, %v55 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v57 = graph.reshape %v56 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
  %v58 = graph.param "l1.q_norm" : tensor<16xf32>
  %v59 = graph.rms_norm %v51, %v58 {epsilon = 1.0e-06 : f32} : (tensor<1x1x4x16xf32>, tensor<16xf32>) -> tensor<1x1x4x16xf32>
  %v60 = graph.param "l1.k_norm" : tensor<16xf32>
  %v61 = graph.rms_norm %v54, %v60 {epsilon = 1.0e-06 : f32} : (tensor<1x1x4x16xf32>, tensor<16xf32>) -> tensor<1x1x4x16xf32>
  %v62 = graph.param "l1.wg" : tensor<64x4xf32>
  %v63 = graph.matmul %v48, %v62 : (tensor<1x64xf32>, tensor<64x4xf32>) -> tensor<1x4xf32>
  %v64 = graph.reshape %v63 : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
  %v65 = graph.softplus %v64 : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
  %v66 = graph.neg %v65 : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
  %v67 = graph.param "l1.wbeta" : tensor<64x4xf32>
  %v68 = graph.matmul %v48, %v67 : (tensor<1x64xf32>, tensor<64x4xf32>) -> tensor<1x4xf32>
  %v69 = graph.sigmoid %v68 : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %v70 = graph.reshape %v69 : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
  %v71:2 = graph.gated_delta_net %v59, %v61, %v57, %v66, %v70, %state1 : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x4x16x16xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)
  %v72 = graph.param "l1.o_norm" : tensor<16xf32>
  %v73 = graph.rms_norm %v71#0, %v72 {epsilon = 1.0e-06 : f32} : (tensor<1x1x4x16xf32>, tensor<16xf32>) -> tensor<1x1x4x16xf32>
  %v74 = graph.param "l1.wz" : tensor<64x64xf32>
  %v75 = graph.matmul %v48, %v74 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v76 = graph.silu %v75 : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %v77 = graph.reshape %v76 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
  %v78 = graph.mul %v73, %v77 : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
  %v79 = graph.reshape %v78 : (tensor<1x1x4x16xf32>) -> tensor<1x64xf32>
  %v80 = graph.param "l1.wo" : tensor<64x64xf32>
  %v81 = graph.matmul %v79, %v80 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v82 = graph.add %v46, %v81 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %v83 = graph.param "l1.ffn_norm" : tensor<64xf32>
  %v84 = graph.rms_norm %v82, %v83 {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %v85 = graph.param "l1.w_gate" : tensor<64x176xf32>
  %v86 = graph.matmul %v84, %v85 : (tensor<1x64xf32>, tensor<64x176xf32>) -> tensor<1x176xf32>
  %v87 = graph.silu %v86 : (tensor<1x176xf32>) -> tensor<1x176xf32>
  %v88 = graph.param "l1.w_up" : tensor<64x176xf32>
  %v89 = graph.matmul %v84, %v88 : (tensor<1x64xf32>, tensor<64x176xf32>) -> tensor<1x176xf32>
  %v90 = graph.mul %v87, %v89 : (tensor<1x176xf32>, tensor<1x176xf32>) -> tensor<1x176xf32>
  %v91 = graph.param "l1.w_down" : tensor<176x64xf32>
  %v92 = graph.matmul %v90, %v91 : (tensor<1x176xf32>, tensor<176x64xf32>) -> tensor<1x64xf32>
  %v93 = graph.add %v82, %v92 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %v94 = graph.param "l2.norm" : tensor<64xf32>
  %v95 = graph.rms_norm %v93, %v94 {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %v96 = graph.param "l2.wq" : tensor<64x64xf32>
  %v97 = graph.matmul %v95, %v96 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v98 = graph.reshape %v97 : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
  %v99 = graph.param "l2.wk" : tensor<64x32xf32>
  %v100 = graph.matmul %v95, %v99 : (tensor<1x64xf32>, tensor<64x32xf32>) -> tensor<1x32xf32>
  %v101 = graph.reshape %v100 : (tensor<1x32xf32>) -> tensor<1x1x2x16xf32>
  %v102 = graph.param "l2.wv" : tensor<64x32xf32>
  %v103 = graph.matmul %v95, %v102 : (tensor<1x64xf32>, tensor<64x32xf32>) -> tensor<1x32xf32>
  %v104 = graph.reshape %v103 : (tensor<1x32xf32>) -> tensor<1x1x2x16xf32>
  %v105 = graph.param "l2.q_norm" : tensor<16xf32>
  %v106 = graph.rms_norm %v98, %v105 {epsilon = 1.0e-06 : f32} : (tensor<1x1x4x16xf32>, tensor<16xf32>) -> tensor<1x1x4x16xf32>
  %v107 = graph.param "l2.k_norm" : tensor<16xf32>
  %v108 = graph.rms_norm %v101, %v107 {epsilon = 1.0e-06 : f32} : (tensor<1x1x2x16xf32>, tensor<16xf32>) -> tensor<1x1x2x16xf32>
  %v109 = graph.rope %v106, %cos, %sin {head_dim = 16, rotary_dim = 4, style = "neox"} : (tensor<1x1x4x16xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x1x4x16xf32>
  %v110 = graph.rope %v108, %cos, %sin {head_dim = 16, rotary_dim = 4, style = "neox"} : (tensor<1x1x2x16xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x1x2x16xf32>
  %v111 = graph.concat %kcache2, %v110 {axis = 1} : (tensor<1x5x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x6x2x16xf32>
  %v112 = graph.concat %vcache2, %v104 {axis = 1} : (tensor<1x5x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x6x2x16xf32>
  %v113 = graph.attention %v109, %v111, %v112 {mask = "causal"} : (tensor<1x1x4x16xf32>, tensor<1x6x2x16xf32>, tensor<1x6x2x16xf32>) -> tensor<1x1x4x16xf32>
  %v114 = graph.reshape %v113 : (tensor<1x1x4x16xf32>) -> tensor<1x64xf32>
  %v115 = graph.param "l2.wgate" : tensor<64x64xf32>
  %v116 = graph.matmul %v95, %v115 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v117 = graph.sigmoid %v116 : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %v118 = graph.mul %v114, %v117 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %v119 = graph.param "l2.wo" : tensor<64x64xf32>
  %v120 = graph.matmul %v118, %v119 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %v121 = graph.add %v93, %v120 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %v122 = graph.param "l2.ffn_norm" : tensor<64xf32>
  %v123 = graph.rms_norm %v121, %v122 {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %v124 = graph.param "l2.w_gate" : tensor<64x176xf32>
  %v125 = graph.matmul %v123, %v124 : (tensor<1x64xf32>, tensor<64x176xf32>) -> tensor<1x176xf32>
  %v126 = graph.silu %v125 : (tensor<1x176xf32>) -> tensor<1x176xf32>
  %v127 = graph.param "l2.w_up" : tensor<64x176xf32>
  %v128 = graph.matmul %v123, %v127 : (tensor<1x64xf32>, tensor<64x176xf32>) -> tensor<1x176xf32>
  %v129 = graph.mul %v126, %v128 : (tensor<1x176xf32>, tensor<1x176xf32>) -> tensor<1x176xf32>
  %v130 = graph.param "l2.w_down" : tensor<176x64xf32>
  %v131 = graph.matmul %v129, %v130 : (tensor<1x176xf32>, tensor<176x64xf32>) -> tensor<1x64xf32>
  %v132 = graph.add %v121, %v131 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %v133 = graph.param "final_norm" : tensor<64xf32>
  %v134 = graph.rms_norm %v132, %v133 {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  return %v134, %v24#1, %v71#1, %v111, %v112 : tensor<1x64xf32>, tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>, tensor<1x6x2x16xf32>, tensor<1x6x2x16xf32>
}
