// PIPELINE: builtin.module(symbol-dce)
module {
  func.func private @dead()
  func.func private @live()
  func.func @main() {
    "tst.effect"() {callee = @live} : () -> ()
    return
  }
}
// -----
module {
  func.func private @dead()
  "foo.unknown_table"() ({
  }) : () -> ()
}
