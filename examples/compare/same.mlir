func.func @main(%input: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %weight = graph.param "w" : tensor<16x16xf32>
  %h = graph.matmul %input, %weight : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %h2 = graph.reshape %h : (tensor<1x16xf32>) -> tensor<16xf32>
  %h3 = graph.reshape %h2 : (tensor<16xf32>) -> tensor<1x16xf32>
  %out = graph.tanh %h3 : (tensor<1x16xf32>) -> tensor<1x16xf32>
  return %out : tensor<1x16xf32>
}
