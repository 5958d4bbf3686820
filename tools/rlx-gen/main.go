// Command rlx-gen prints a model's decode step in the graph dialect and can
// write matching random weights. See docs/models.md.
package main

import (
	"os"

	"github.com/rlx-compiler/rlx/models/rlxgen"
)

func main() {
	os.Exit(rlxgen.Main(os.Args[1:], os.Stdout, os.Stderr))
}
