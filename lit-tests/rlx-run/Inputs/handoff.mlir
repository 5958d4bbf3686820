// An MPS region hands two results to one Metal kernel (backend-sim.test).
func.func @step(%x: tensor<1x64xf32> {rlx.name = "x"}, %s: tensor<1x64xf32> {rlx.name = "state"}) -> (tensor<1x64xf32> {rlx.name = "y"}, tensor<1x64xf32> {rlx.name = "state"}) {
  %wq = graph.param "wq" : tensor<64x64xf32>
  %wk = graph.param "wk" : tensor<64x64xf32>
  %q = graph.matmul %x, %wq : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %k = graph.matmul %x, %wk : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %sq = graph.softplus %q : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %m = graph.max %sq, %k : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %n = graph.add %m, %s : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %y = graph.tanh %n : (tensor<1x64xf32>) -> tensor<1x64xf32>
  return %y, %n : tensor<1x64xf32>, tensor<1x64xf32>
}
