package metal_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

func emitText(t *testing.T, src string, opts metal.Options) (*metal.Output, error) {
	t.Helper()
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.ParseString(ctx, "in.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	return metal.Emit(m, opts)
}

// TestLimits checks the Metal limits at emission: each error is located
// at the op and names it.
func TestLimits(t *testing.T) {
	many := make([]string, 40)
	types := make([]string, 40)
	for i := range many {
		many[i] = fmt.Sprintf("%%a%d", i)
		types[i] = "tensor<1x4xf32>"
	}
	for _, tc := range []struct {
		name, src, want string
		opts            metal.Options
	}{
		{
			// An LSTM keeps h twice and c in threadgroup memory: 3·4096
			// floats are 48 KB.
			name: "threadgroup memory",
			src: opCase{Name: "big_lstm", Args: []string{"tensor<1x1x8xf32>", "tensor<16384x8xf32>", "tensor<16384x4096xf32>", "tensor<16384xf32>"},
				Body:  `%0:3 = graph.lstm %a0, %a1, %a2, %a3 : (tensor<1x1x8xf32>, tensor<16384x8xf32>, tensor<16384x4096xf32>, tensor<16384xf32>) -> (tensor<1x1x4096xf32>, tensor<1x4096xf32>, tensor<1x4096xf32>)`,
				Yield: []string{"%0#0"}, Results: []string{"tensor<1x1x4096xf32>"}}.MLIR(),
			want: "in.mlir:4:12: error: 'graph.lstm' op needs 49152 bytes of threadgroup memory in kernel lstm_steps_0; a Metal threadgroup has at most 32768",
		},
		{
			name: "buffers",
			src: opCase{Name: "wide_concat", Args: types,
				Body:  fmt.Sprintf(`%%0 = graph.concat %s {axis = 0 : i64} : (%s) -> tensor<40x4xf32>`, strings.Join(many, ", "), strings.Join(types, ", ")),
				Yield: []string{"%0"}, Results: []string{"tensor<40x4xf32>"}}.MLIR(),
			want: "in.mlir:4:10: error: 'graph.concat' op needs 41 buffers in kernel concat_0; a Metal kernel can bind at most 31",
		},
		{
			name: "bf16 before MSL 3.1",
			src: opCase{Name: "bf", Args: []string{"tensor<4xbf16>"},
				Body:  `%0 = graph.neg %a0 : (tensor<4xbf16>) -> tensor<4xbf16>`,
				Yield: []string{"%0"}, Results: []string{"tensor<4xbf16>"}}.MLIR(),
			want: "in.mlir:4:10: error: 'graph.neg' op operand #0 has type tensor<4xbf16>: bf16 needs msl-version 3.1 or later (MSL's bfloat), but msl-version is 3.0",
		},
		{
			name: "dynamic shape",
			src: `func.func @dyn(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = thunk.call @dyn_thunk(%x) {target = "metal"} : (tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%a: tensor<?x4xf32>):
    %0 = graph.neg %a : (tensor<?x4xf32>) -> tensor<?x4xf32>
    thunk.yield %0 : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}`,
			want: "in.mlir:2:8: error: 'thunk.call' op operand #0: type tensor<?x4xf32> has a dynamic dim (Metal kernels are specialised to static shapes)",
		},
		{
			// 16384 × 262144 halves are 2³² elements: indices of 32 bits
			// would wrap.
			name: "elements",
			src: opCase{Name: "huge_gemv", Args: []string{"tensor<1x16384xf32>", "tensor<16384x262144xf16>"},
				Body:  `%0 = graph.matmul %a0, %a1 : (tensor<1x16384xf32>, tensor<16384x262144xf16>) -> tensor<1x262144xf32>`,
				Yield: []string{"%0"}, Results: []string{"tensor<1x262144xf32>"}}.MLIR(),
			want: "in.mlir:4:10: error: 'graph.matmul' op operand #1: type tensor<16384x262144xf16> has 4294967296 elements, more than 2147483648 (the Metal kernels index buffers with 32-bit integers)",
		},
		{
			// A product past int64 must not wrap to a small count.
			name: "elements past int64",
			src: opCase{Name: "vast", Args: []string{"tensor<4294967296x4294967296x16xf32>"},
				Body:  `%0 = graph.neg %a0 : (tensor<4294967296x4294967296x16xf32>) -> tensor<4294967296x4294967296x16xf32>`,
				Yield: []string{"%0"}, Results: []string{"tensor<4294967296x4294967296x16xf32>"}}.MLIR(),
			want: "in.mlir:2:8: error: 'thunk.call' op operand #0: type tensor<4294967296x4294967296x16xf32> has more elements than an int64 counts",
		},
		{
			name: "max threads option", src: "", opts: metal.Options{MaxThreadsPerThreadgroup: 100},
			want: "max-threads-per-threadgroup: '100' is not a multiple of 32 from 32 to 1024",
		},
		{
			name: "decode threadgroups option", src: "", opts: metal.Options{DecodeThreadgroups: -4},
			want: "decode-threadgroups: '-4' is not from 1 to 65536",
		},
		{
			name: "msl version option", src: "", opts: metal.Options{MSLVersion: "2.0"},
			want: "msl-version: '2.0' is not one of 2.4, 3.0, 3.1, 3.2",
		},
		{
			name: "attention layout option", src: "", opts: metal.Options{AttentionLayout: "rows"},
			want: "attention-layout: 'rows' is not one of auto, tiled, per-key",
		},
		{
			name: "gemv layout option", src: "", opts: metal.Options{GEMVLayout: "rows"},
			want: "gemv-layout: 'rows' is not one of auto, wide, narrow, deep",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := emitText(t, tc.src, tc.opts)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}

// TestMaxThreads emits the op suite for a device whose pipelines take at
// most 64 threads: no kernel asks for more. With the default maximum, no
// kernel that a runtime cannot shrink (resize "fixed") asks for more than
// 256 threads, which every Apple pipeline allows.
func TestMaxThreads(t *testing.T) {
	m, err := parseCases(opCases())
	if err != nil {
		t.Fatal(err)
	}
	def, err := metal.Emit(m, suiteOptions)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range def.Kernels {
		if n := k.Threadgroup[0] * k.Threadgroup[1] * k.Threadgroup[2]; k.Resize == metal.ResizeFixed && n > 256 {
			t.Errorf("%s: a fixed threadgroup of %d threads", k.Name, n)
		}
	}
	opts := suiteOptions
	opts.MaxThreadsPerThreadgroup = 64
	out, err := metal.Emit(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range out.Kernels {
		if n := k.Threadgroup[0] * k.Threadgroup[1] * k.Threadgroup[2]; n > 64 {
			t.Errorf("%s: %d threads", k.Name, n)
		}
	}
}
