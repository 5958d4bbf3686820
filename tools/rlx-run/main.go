// Command rlx-run runs a function of an MLIR file through rlx's reference
// interpreter. See docs/rlx-run.md.
package main

import (
	"os"

	"github.com/rlx-compiler/rlx/runtime/ref/run"
)

func main() {
	os.Exit(run.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
