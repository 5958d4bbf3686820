// PIPELINE: builtin.module(canonicalize{test-convergence max-iterations=3 max-num-rewrites=2})
// tst.Flip always applies: every round stops after two rewrites, three
// rounds do not converge, and test-convergence makes that an error.
func.func @flip() -> i1 {
  %0 = "tst.flip"() <{state = false}> : () -> i1
  return %0 : i1
}
