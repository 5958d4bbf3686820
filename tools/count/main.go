// Command count succeeds when its standard input has exactly the given
// number of lines, as LLVM's count.
package main

import (
	"os"

	"github.com/rlx-compiler/rlx/lit"
)

func main() {
	os.Exit(lit.Count(os.Args, os.Stdin, os.Stderr))
}
