// RUN: rlx-opt %s --split-input-file --hybrid-split --verify-diagnostics --allow-unregistered-dialect

// Bad input is a located error and leaves the function as it was.

func.func @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @not_graph(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error@+1 {{hybrid-split partitions functions of graph ops only, found 'func.call'}}
  %c = func.call @callee(%e) : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

func.func @unregistered(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{hybrid-split cannot partition the unregistered op 'foo.bar'}}
  %0 = "foo.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %e = graph.exp %0 : (tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

func.func @partly_split(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note@+1 {{region op here}}
  %0 = mps.subgraph @partly_split_mps0(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = graph.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    mps.yield %e : tensor<4xf32>
  }
  // expected-error@+1 {{'graph.max' is outside the regions of an already split function; run hybrid-inline first}}
  %m = graph.max %0, %0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}
