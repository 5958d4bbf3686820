package metal_test

import "github.com/rlx-compiler/rlx/codegen/metal/opsuite"

// opCases is the op suite.
func opCases() []opCase { return opsuite.Cases() }
