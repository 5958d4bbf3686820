package weights_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/runtime/weights"
)

// An FP8 checkpoint's codes: OCP E4M3, the largest 448, ties to even.
func ExampleDecodeE4M3() {
	for _, b := range []byte{0x38, 0x39, 0x7E, 0x01, 0xB8} {
		fmt.Printf("%#02x = %g\n", b, weights.DecodeE4M3(b))
	}
	fmt.Printf("1.0625 → %#02x, 1000 → %#02x\n", weights.EncodeE4M3(1.0625), weights.EncodeE4M3(1000))
	// Output:
	// 0x38 = 1
	// 0x39 = 1.125
	// 0x7e = 448
	// 0x01 = 0.001953125
	// 0xb8 = -1
	// 1.0625 → 0x38, 1000 → 0x7e
}
