package gguf

import "fmt"

// TensorType is a ggml tensor type, as a GGUF file's tensor info stores it.
type TensorType uint32

// The tensor types rlx reads. A GGUF file may hold others (their names are
// known, for messages); reading one is an error naming it.
const (
	TypeF32  TensorType = 0
	TypeF16  TensorType = 1
	TypeQ4_0 TensorType = 2
	TypeQ8_0 TensorType = 8
	TypeQ4_K TensorType = 12
	TypeQ6_K TensorType = 14
	TypeBF16 TensorType = 30

	// Block types that no graph.dequant_matmul format reads: rlx
	// decodes their values at load (Decode), each as ggml's
	// dequantize_row_* computes it (ggml-quants.c), in float32.
	TypeQ4_1   TensorType = 3
	TypeQ5_0   TensorType = 6
	TypeQ5_1   TensorType = 7
	TypeQ2_K   TensorType = 10
	TypeQ3_K   TensorType = 11
	TypeQ5_K   TensorType = 13
	TypeIQ4_NL TensorType = 20
	TypeIQ4_XS TensorType = 23
	TypeMXFP4  TensorType = 39
)

// typeInfo is what the container needs of a type: its name and its block
// (elements and bytes), for the size of a tensor's data. A zero block
// means the size is not known to rlx.
type typeInfo struct {
	name          string
	block, nbytes int
}

// tensorTypes lists ggml's type ids (ggml.h); ids not listed are unknown.
var tensorTypes = map[TensorType]typeInfo{
	0: {"F32", 1, 4}, 1: {"F16", 1, 2}, 2: {"Q4_0", 32, 18}, 3: {"Q4_1", 32, 20},
	6: {"Q5_0", 32, 22}, 7: {"Q5_1", 32, 24}, 8: {"Q8_0", 32, 34}, 9: {"Q8_1", 32, 36},
	10: {"Q2_K", 256, 84}, 11: {"Q3_K", 256, 110}, 12: {"Q4_K", 256, 144}, 13: {"Q5_K", 256, 176},
	14: {"Q6_K", 256, 210}, 15: {"Q8_K", 256, 292},
	16: {"IQ2_XXS", 0, 0}, 17: {"IQ2_XS", 0, 0}, 18: {"IQ3_XXS", 0, 0}, 19: {"IQ1_S", 0, 0},
	20: {"IQ4_NL", 32, 18}, 21: {"IQ3_S", 0, 0}, 22: {"IQ2_S", 0, 0}, 23: {"IQ4_XS", 256, 136},
	24: {"I8", 1, 1}, 25: {"I16", 1, 2}, 26: {"I32", 1, 4}, 27: {"I64", 1, 8}, 28: {"F64", 1, 8},
	29: {"IQ1_M", 0, 0}, 30: {"BF16", 1, 2}, 34: {"TQ1_0", 0, 0}, 35: {"TQ2_0", 0, 0}, 39: {"MXFP4", 32, 17},
}

// String returns ggml's name of the type ("Q8_0"), or "type(N)".
func (t TensorType) String() string {
	if info, ok := tensorTypes[t]; ok {
		return info.name
	}
	return fmt.Sprintf("type(%d)", uint32(t))
}

// Format returns the block format of a quantised type that
// graph.dequant_matmul reads (q4_0, q8_0, q4_k, q5_k, q6_k, q2_k, q3_k,
// q4_1, q5_0, q5_1, iq4_nl, iq4_xs, mxfp4).
func (t TensorType) Format() (Format, bool) {
	switch t {
	case TypeQ4_0:
		return Q4_0, true
	case TypeQ8_0:
		return Q8_0, true
	case TypeQ4_K:
		return Q4_K, true
	case TypeQ5_K:
		return Q5_K, true
	case TypeQ2_K:
		return Q2_K, true
	case TypeQ3_K:
		return Q3_K, true
	case TypeQ4_1:
		return Q4_1, true
	case TypeQ5_0:
		return Q5_0, true
	case TypeQ5_1:
		return Q5_1, true
	case TypeIQ4_NL:
		return IQ4_NL, true
	case TypeIQ4_XS:
		return IQ4_XS, true
	case TypeMXFP4:
		return MXFP4, true
	case TypeQ6_K:
		return Q6_K, true
	}
	return 0, false
}

// TypeOf returns the tensor type that stores format f.
func TypeOf(f Format) TensorType {
	switch f {
	case Q4_0:
		return TypeQ4_0
	case Q8_0:
		return TypeQ8_0
	case Q4_K:
		return TypeQ4_K
	case Q5_K:
		return TypeQ5_K
	case Q2_K:
		return TypeQ2_K
	case Q3_K:
		return TypeQ3_K
	case Q4_1:
		return TypeQ4_1
	case Q5_0:
		return TypeQ5_0
	case Q5_1:
		return TypeQ5_1
	case IQ4_NL:
		return TypeIQ4_NL
	case IQ4_XS:
		return TypeIQ4_XS
	case MXFP4:
		return TypeMXFP4
	case Q6_K:
		return TypeQ6_K
	}
	panic(fmt.Sprintf("gguf.TypeOf: invalid format %v", f))
}

// dataSize returns the bytes of a tensor of type t with n elements whose
// innermost dim is ne0, or an error when rlx does not know the type's
// block or the dims do not fill whole blocks.
func dataSize(t TensorType, ne0, n uint64) (uint64, error) {
	info, ok := tensorTypes[t]
	if !ok || info.block == 0 {
		return 0, fmt.Errorf("tensor type %v has a block layout rlx does not know", t)
	}
	if ne0%uint64(info.block) != 0 {
		return 0, fmt.Errorf("innermost dim %d is not a multiple of the %v block size %d", ne0, t, info.block)
	}
	return n / uint64(info.block) * uint64(info.nbytes), nil
}
