// Command lit runs lit tests with a Go work-alike of LLVM's lit; see
// docs/lit.md and package lit.
package main

import (
	"os"

	"github.com/rlx-compiler/rlx/lit"
)

func main() {
	os.Exit(lit.Main(os.Args[1:], os.Stdout, os.Stderr))
}
