// Command filecheck is rlx's work-alike of LLVM's FileCheck 19. Install or
// link it under the name FileCheck to use it from lit tests.
//
// Usage:
//
//	filecheck [options] <check-file> [--input-file <input>]
//
// See docs/filecheck.md for the options and the extensions to LLVM's tool.
package main

import (
	"os"

	"github.com/rlx-compiler/rlx/filecheck"
)

func main() {
	isTerminal := false
	if fi, err := os.Stderr.Stat(); err == nil {
		isTerminal = fi.Mode()&os.ModeCharDevice != 0
	}
	os.Exit(filecheck.Main(filecheck.Env{
		Args:             os.Args,
		Stdin:            os.Stdin,
		Stdout:           os.Stdout,
		Stderr:           os.Stderr,
		Getenv:           os.Getenv,
		StderrIsTerminal: isTerminal,
	}))
}
