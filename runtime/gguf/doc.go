// Package gguf decodes and encodes the GGUF block-quantised weight formats
// that graph.dequant_matmul consumes: q4_0, q8_0, q4_k and q6_k.
//
// A quantised weight W of logical shape [n, k] is stored row-major as blocks:
// each row is k/BlockSize consecutive blocks of BlockBytes bytes, so the whole
// weight is n·(k/BlockSize)·BlockBytes bytes, and k must be a multiple of the
// block size. Block layouts are ggml's (little-endian, IEEE f16 scales, q6_k
// with its f16 scale last, K-quant 6-bit scale/min packing); they are spelled
// out next to each decoder.
//
// Decoding is exact and defined in float32: every weight is the float32 value
// given by the formula documented for its format, evaluated in the order
// written with each product rounded to float32 (never fused into a
// multiply-add), so every backend can reproduce it bit for bit. The encoders
// are simple reference quantisers in the spirit of ggml's *_ref functions:
// they produce valid blocks whose decoded values approximate their input, not
// ggml's exact bytes.
package gguf
