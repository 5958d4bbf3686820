// Command rlx-opt parses, verifies, transforms and prints MLIR, like
// mlir-opt. See docs/rlx-opt.md.
package main

import (
	"os"

	"github.com/rlx-compiler/rlx/optdriver"
)

func main() {
	cfg := optdriver.DefaultConfig()
	cfg.Passes = append(cfg.Passes, testPasses()...)
	os.Exit(optdriver.MainWith(cfg, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
