// Command rlx-import imports a Hugging Face checkpoint or a GGUF file as a
// graph-dialect decode step. See docs/import.md.
package main

import (
	"os"

	"github.com/rlx-compiler/rlx/models/rlximport"
)

func main() {
	os.Exit(rlximport.Main(os.Args[1:], os.Stdout, os.Stderr))
}
