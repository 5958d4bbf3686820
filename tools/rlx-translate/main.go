// Command rlx-translate translates MLIR to other formats, as
// mlir-translate does: rlx-translate --mlir-to-dot in.mlir -o out.dot.
// --help lists the translations; docs/rlx-translate.md describes them.
package main

import (
	"os"

	"github.com/rlx-compiler/rlx/optdriver"
)

func main() {
	os.Exit(optdriver.TranslateMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
