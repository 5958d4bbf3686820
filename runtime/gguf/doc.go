// Package gguf reads and writes GGUF files and decodes and encodes the
// block-quantised weight formats that graph.dequant_matmul consumes: q4_0,
// q8_0, q4_k and q6_k.
//
// The container (file.go, write.go): Read and Open parse a GGUF header
// (versions 2 and 3, little-endian) into its metadata and tensor infos,
// checking every count and length against the bytes left, so a truncated
// or hostile file is an error naming the file and the field or tensor,
// never a huge allocation; TensorData reads one tensor's bytes. Writer
// writes version-3 files (tests and converters use it). Tensor infos keep
// ggml's dim order (innermost first); TensorInfo.Shape gives the
// row-major shape the graph dialect uses. rlx reads the container itself
// rather than through github.com/gpustack/gguf-parser-go: docs/import.md
// says why.
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
