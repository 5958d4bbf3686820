// Command split-file splits a file into parts marked by "#--- name" or
// "//--- name" lines, as LLVM's split-file.
package main

import (
	"os"

	"github.com/rlx-compiler/rlx/lit"
)

func main() {
	cwd, err := os.Getwd()
	if err != nil {
		os.Stderr.WriteString("split-file: error: " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Exit(lit.SplitFile(os.Args, cwd, os.Stdin, os.Stderr))
}
