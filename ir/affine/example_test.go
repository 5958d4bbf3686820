package affine_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/ir/affine"
)

func ExampleParseMap() {
	m, err := affine.ParseMap("(i, j)[N] -> (N - i * 2, j floordiv 4 * 4 + j mod 4)")
	if err != nil {
		panic(err)
	}
	fmt.Println(m)
	// Output: (d0, d1)[s0] -> (d0 * -2 + s0, (d1 floordiv 4) * 4 + d1 mod 4)
}

func ExampleParseSet() {
	s, err := affine.ParseSet("(i)[N] : (i >= 0, i <= N - 1, i == N floordiv 2)")
	if err != nil {
		panic(err)
	}
	fmt.Println(s)
	// Output: (d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d0 - s0 floordiv 2 == 0)
}

func ExampleError() {
	_, err := affine.ParseMap("(d0) -> (d0 * d0)")
	fmt.Println(err)
	// Output: offset 12: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic
}

func ExampleSub() {
	d0, d1 := affine.Dim(0), affine.Dim(1)
	e := affine.Sub(d0, affine.Mul(affine.FloorDiv(d0, affine.Constant(4)), affine.Constant(4)))
	fmt.Println(e)
	fmt.Println(affine.Add(affine.Sub(d1, d0), d0))
	// Output:
	// d0 mod 4
	// d1 - d0 + d0
}
