// Command rlx-compile writes the bundle an app needs to run a split
// function without Go. See docs/apps.md.
package main

import (
	"os"

	"github.com/rlx-compiler/rlx/codegen/bundle"
)

func main() {
	os.Exit(bundle.Main(os.Args[1:], os.Stdout, os.Stderr))
}
