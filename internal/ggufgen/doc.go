// Package ggufgen builds small GGUF checkpoints of random weights for
// tests: a one-layer Llama and a one-layer Qwen3-Next (its layer full
// attention, with routed experts), every matrix in q6_k (rows of 256
// weights, whole q6_k blocks; or another block format, or F32 of the
// values its blocks decode to: Stored) and the rest in F32, so that the
// importer's q6_k paths (rlx-import --q6k-columns) and the K-quants'
// have a checkpoint to read; and
// lays a byte-level tokenizer.json out as GGUF tokenizer metadata, as
// llama.cpp's converter writes it (Tokenizer).
package ggufgen
