// Command not runs a command and inverts its status, as LLVM's not: it
// succeeds when the command fails, and with --crash only when the command
// dies of a signal.
package main

import (
	"os"

	"github.com/rlx-compiler/rlx/lit"
)

func main() {
	os.Exit(lit.Not(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
