// Package qckpt writes matrices as the quantised checkpoint formats
// store them, for tests:
//
//   - compressed-tensors (llm-compressor's checkpoints: quant_method
//     "compressed-tensors"): Quantise draws a module's scales (and zero
//     points) from a matrix by a Scheme and returns the tensors a
//     checkpoint holds for it — NAME.weight (F8_E4M3 or I8) or
//     NAME.weight_packed (I32), NAME.weight_scale, NAME.weight_zero_point,
//     NAME.weight_shape, NAME.weight_shape_original — and Scheme.Config
//     the quantization_config that names it;
//   - GPTQ (AutoGPTQ's and GPTQModel's "gptq" and "gptq_v2" layouts) and
//     AWQ (AutoAWQ's GEMM layout): GPTQ.Quantise returns NAME.qweight,
//     NAME.qzeros, NAME.scales and NAME.g_idx, GPTQ.Config the
//     quantization_config.
//
// Each returns the values its tensors stand for, (q − zero)·scale.
package qckpt
