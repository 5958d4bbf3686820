// ARGS: --allow-unregistered-dialect
func.func @f(%c: i1) {
  "foo.region"() ({
    "foo.cond_br"(%c)[^a, ^b] : (i1) -> ()
  ^a:
    "foo.use"(%y) : (f32) -> ()
    "foo.yield"() : () -> ()
  ^b:
    %y = "foo.def"() : () -> f32
    "foo.yield"() : () -> ()
  }) : () -> ()
  return
}
