func.func @main(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %w = graph.param "w" : tensor<16x16xf32>
  %0 = graph.matmul %x, %w : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %1 = graph.tanh %0 : (tensor<1x16xf32>) -> tensor<1x16xf32>
  return %1 : tensor<1x16xf32>
}
