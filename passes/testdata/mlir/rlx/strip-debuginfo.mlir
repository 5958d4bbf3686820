// Input for the strip-debuginfo cases, written for rlx; printed with
// --mlir-print-debuginfo. Every op and block argument location becomes
// unknown (under builtin.module(func.func(strip-debuginfo)) only those of
// the functions and what they hold).

#src = loc("model.py":1:1)
#layer = loc("transformer.layers.0")
module {
  func.func @attention_scores(%q: tensor<4x8xf32> loc("q"), %k: tensor<4x8xf32> loc("model.py":12:22)) -> tensor<4x4xf32> {
    %0 = "foo.matmul"(%q, %k) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32> loc("model.py":13:9)
    %1 = "foo.scale"(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32> loc("scale")
    %2 = "foo.mask"(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32> loc("mask"("model.py":14:3))
    %3 = "foo.softmax"(%2) : (tensor<4x4xf32>) -> tensor<4x4xf32> loc(callsite("softmax" at "model.py":15:10))
    %4 = "foo.dropout"(%3) : (tensor<4x4xf32>) -> tensor<4x4xf32> loc(fused["model.py":16:1, "dropout"])
    %5 = "foo.identity"(%4) : (tensor<4x4xf32>) -> tensor<4x4xf32> loc(fused<"fusion.pass">["a.py":1:1, "b.py":2:2])
    %6 = "foo.identity"(%5) : (tensor<4x4xf32>) -> tensor<4x4xf32> loc(#layer)
    %7 = "foo.identity"(%6) : (tensor<4x4xf32>) -> tensor<4x4xf32> loc(unknown)
    return %7 : tensor<4x4xf32> loc(#src)
  } loc("model.py":11:1)
} loc("model.py":0:0)

// -----

// Block arguments, regions of unregistered ops, nested modules, metadata
// that is an attribute dictionary, nested call sites and fusions.
module @model {
  "foo.config"() : () -> () loc(fused<{pass = "cse", round = 2 : i32}>["cfg.yaml":3:1])
  module @layer_norm_stats {
    func.func @layer_norm_stats(%x: f32 loc("x"), %flag: i1 loc("flag")) -> f32 {
      "foo.cond_br"(%flag, %x)[^mean, ^var] : (i1, f32) -> () loc("norm.py":2:5)
    ^mean(%m: f32 loc("norm.py":3:7)):
      %r = "foo.loop"(%m) ({
      ^bb0(%i: index loc("loop.iv"), %acc: f32 loc(callsite("acc" at callsite("reduce" at "norm.py":4:1)))):
        "foo.yield"(%acc) : (f32) -> () loc(fused[fused["n.py":1:1, "inner"], "outer"])
      }) : (f32) -> f32 loc("loop"(callsite("norm.py":5:1 at "main.py":9:9)))
      return %r : f32 loc(unknown)
    ^var(%v: f32 loc(fused<"var">["norm.py":6:6]), %unused: i8 loc("pad")):
      return %v : f32 loc("norm.py":7:3)
    } loc("norm.py":1:1)
  } loc("norm.py":0:0)
  "foo.trailer"() : () -> () loc(callsite("trailer" at "main.py":20:1))
} loc("main.py":1:1)

// -----

// Locations of ops in the module body, around a function declaration.
module {
    func.func private @rms_norm(f32) -> f32 loc("kernels.h":40:1)
    %w = "foo.param"() {name = "w"} : () -> f32 loc("weights.bin":0:0)
    %n = func.call @rms_norm(%w) : (f32) -> f32 loc("main.py":3:3)
  } loc(unknown)
