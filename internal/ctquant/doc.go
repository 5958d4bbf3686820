// Package ctquant writes matrices as compressed-tensors stores a
// quantised module (llm-compressor's checkpoints: quant_method
// "compressed-tensors"), for tests: Quantise draws a module's scales (and
// zero points) from a matrix by a Scheme, and returns the tensors a
// checkpoint holds for it — NAME.weight (F8_E4M3 or I8) or
// NAME.weight_packed (I32), NAME.weight_scale, NAME.weight_zero_point,
// NAME.weight_shape, NAME.weight_shape_original — with the values they
// stand for, (q − zero)·scale, and Config the quantization_config that
// names the scheme.
package ctquant
