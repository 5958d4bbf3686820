func.func @main(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %w = graph.param "w" : tensor<16x16xf32>
  %0 = graph.matmul %x, %w : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %h = graph.cast %0 : (tensor<1x16xf32>) -> tensor<1x16xf16>
  %f = graph.cast %h : (tensor<1x16xf16>) -> tensor<1x16xf32>
  %1 = graph.tanh %f : (tensor<1x16xf32>) -> tensor<1x16xf32>
  return %1 : tensor<1x16xf32>
}
