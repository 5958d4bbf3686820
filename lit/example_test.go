package lit_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rlx-compiler/rlx/lit"
)

// Example runs a one-test suite: a lit.cfg.py in the declarative subset and
// a test whose RUN lines use only lit's builtins.
func Example() {
	dir, err := os.MkdirTemp("", "lit-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	cfg := `config.name = "example"
config.suffixes = [".test"]
config.available_features.add("demo")
`
	test := `REQUIRES: demo
RUN: echo hello > %t
RUN: echo hello | count 1
RUN: not diff %t %s
`
	os.WriteFile(filepath.Join(dir, "lit.cfg.py"), []byte(cfg), 0o666)
	os.WriteFile(filepath.Join(dir, "hello.test"), []byte(test), 0o666)

	suite, err := lit.OpenSuite(dir, lit.Options{ExecRoot: filepath.Join(dir, "exec")})
	if err != nil {
		panic(err)
	}
	tests, err := suite.Discover()
	if err != nil {
		panic(err)
	}
	for _, r := range suite.RunAll(context.Background(), tests, 2, nil) {
		fmt.Printf("%s: %s\n", r.Code, r.Test.FullName())
	}
	// Output:
	// PASS: example :: hello.test
}
