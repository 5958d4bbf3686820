package filecheck_test

import (
	"fmt"
	"os"

	"github.com/rlx-compiler/rlx/filecheck"
)

func ExampleCheck() {
	checks := []byte(`
CHECK-LABEL: func @add
CHECK:       [[SUM:%[0-9]+]] = arith.addi
CHECK-NEXT:  return [[SUM]]
`)
	output := []byte(`func @add(%a: i32, %b: i32) {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}
`)
	status := filecheck.Check(filecheck.DefaultOptions(),
		filecheck.File{Name: "add.mlir", Text: checks},
		filecheck.File{Name: "<stdin>", Text: output},
		os.Stdout)
	fmt.Println("status:", status)
	// Output: status: 0
}

func ExampleCheck_failure() {
	opts := filecheck.DefaultOptions()
	opts.DumpInput = filecheck.DumpNever
	status := filecheck.Check(opts,
		filecheck.File{Name: "t.mlir", Text: []byte("CHECK: arith.muli\n")},
		filecheck.File{Name: "<stdin>", Text: []byte("arith.addi\n")},
		os.Stdout)
	fmt.Println("status:", status)
	// Output:
	// t.mlir:1:8: error: CHECK: expected string not found in input
	// CHECK: arith.muli
	//        ^
	// <stdin>:1:1: note: scanning from here
	// arith.addi
	// ^
	// status: 1
}
