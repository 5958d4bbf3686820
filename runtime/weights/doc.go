// Package weights binds graph.param ops to the tensors of checkpoint files:
// a safetensors file, a Hugging Face checkpoint directory (model.safetensors,
// or shards listed by model.safetensors.index.json), or a GGUF file (or the
// first part of one llama-gguf-split split, PREFIX-00001-of-0000N.gguf,
// whose other parts it opens by their names). A
// Source implements ref.Weights, so the interpreter, rlx-run and the
// decode loop read weights from any of them by name.
//
// Tensors are loaded when first asked for and kept; the files' headers are
// read and checked when the source is opened, so a truncated file is an
// error naming the file and the first tensor it cuts off, before anything
// runs. A weight is bound as the file stores it, with two conversions a
// param's type asks for explicitly:
//
//   - A quantised GGUF tensor (q4_0, q8_0, q4_k, q6_k) bound to a ui8 param
//     is its raw blocks (what graph.dequant_matmul reads); bound to an f32
//     param of its shape it is dequantised (an embedding table read by
//     graph.gather).
//   - A param whose name holds one `*` stacks the tensors whose names put
//     0, 1, 2, … in its place, along a new leading axis: the experts of a
//     mixture-of-experts layer, which Hugging Face checkpoints store one by
//     one (`mlp.experts.3.gate_proj.weight`) and which a routed layer
//     gathers from one [experts, …] tensor. Transformers itself stacks them
//     the same way when it loads such a checkpoint.
//
// Some of a checkpoint's tensors are read as one when the source is
// opened: gpt-oss's MXFP4 blocks and scales (as gguf.MXFP4 blocks); a
// compressed-tensors module's weight, scales, zero points and shapes (as
// q8_0, q4_0 or q5_0 blocks where its values fit them exactly, else BF16;
// the scheme from the directory's config.json: ParseCompressed); a GPTQ
// or AWQ module's qweight, qzeros, scales and g_idx (the same way:
// ParseGPTQ); and an
// F8_E4M3 matrix with its weight_scale_inv block scales (as BF16, the
// block size from the directory's config.json: transformers'
// fine-grained FP8; DecodeE4M3, EncodeE4M3).
//
// Any other difference of element type or shape is an error naming the
// weight, the file and both types.
package weights
