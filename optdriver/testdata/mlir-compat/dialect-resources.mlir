// ARGS: --allow-unregistered-dialect --split-input-file --verify-diagnostics
"test.op"() {a = #test.e1di64_elements<blob1> : tensor<*xi1>} : () -> ()
{-#
  dialect_resources: {
    test: {
      blob1: "0x08000000010000000000000002000000000000000300000000000000",
      blob2: "0x0800000001000000"
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    // expected-error@+1 {{dialect 'foo' is unknown}}
    foo: {
      blob1: "0x0800000001000000"
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    arith: {
      // expected-error@+1 {{unexpected 'resource' section for dialect 'arith'}}
      blob1: "0x0800000001000000"
    }
  }
#-}
