// ARGS: --allow-unregistered-dialect --pass-pipeline=builtin.module(func.func(cse))
func.func @f(%x: f32) {
  "foo.region"() ({
    %u = builtin.unrealized_conversion_cast %b : i32 to i64
    %a = builtin.unrealized_conversion_cast %x : f32 to i32
    %b = builtin.unrealized_conversion_cast %x : f32 to i32
    "foo.sink"(%u, %a) : (i64, i32) -> ()
  }) : () -> ()
  return
}
