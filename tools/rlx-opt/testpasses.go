//go:build rlxtest

package main

import (
	"github.com/rlx-compiler/rlx/pipeline"
	"github.com/rlx-compiler/rlx/pipeline/testpass"
)

// testPasses are the test passes, registered when rlx-opt is built with
// the rlxtest tag, as the lit suite builds it (lit.BuildTools).
func testPasses() []*pipeline.PassInfo { return testpass.All() }
