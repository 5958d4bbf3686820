package weights_test

import (
	"fmt"
	"strings"

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

// A compressed-tensors quantization_config: what rlx reads of it, and
// what it refuses.
func ExampleParseCompressed() {
	w4a16 := `{"quant_method": "compressed-tensors", "format": "pack-quantized",
		"quantization_status": "compressed", "ignore": ["lm_head"],
		"config_groups": {"group_0": {"targets": ["Linear"], "input_activations": null,
			"weights": {"num_bits": 4, "type": "int", "symmetric": true,
				"strategy": "group", "group_size": 128, "dynamic": false}}}}`
	_, err := weights.ParseCompressed([]byte(w4a16))
	fmt.Println("w4a16:", err)
	nvfp4 := strings.Replace(w4a16, "pack-quantized", "nvfp4-pack-quantized", 1)
	_, err = weights.ParseCompressed([]byte(nvfp4))
	fmt.Println("nvfp4:", err)
	// Output:
	// w4a16: <nil>
	// nvfp4: field "format" = "nvfp4-pack-quantized" is not supported (rlx reads float-quantized (float8), int-quantized (int8), naive-quantized (float8 or int8), pack-quantized (int4 or int8), and mixed-precision of those)
}

// A GPTQ and an AWQ quantization_config: read, and what is refused.
func ExampleParseGPTQ() {
	for _, q := range []string{
		`{"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": false, "sym": true, "checkpoint_format": "gptq"}`,
		`{"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": true, "version": "gemm"}`,
		`{"quant_method": "gptq", "bits": 4, "group_size": 128, "checkpoint_format": "marlin"}`,
	} {
		_, err := weights.ParseGPTQ([]byte(q))
		fmt.Println(err)
	}
	// Output:
	// <nil>
	// <nil>
	// field "checkpoint_format" = "marlin": rlx reads GPTQ's own layouts, "gptq" and "gptq_v2"
}
