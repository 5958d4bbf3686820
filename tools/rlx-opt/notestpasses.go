//go:build !rlxtest

package main

import "github.com/rlx-compiler/rlx/pipeline"

// testPasses is empty: the installed rlx-opt has no test passes. Build
// with -tags rlxtest for them.
func testPasses() []*pipeline.PassInfo { return nil }
