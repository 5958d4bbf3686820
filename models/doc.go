// Package models builds realistic decode-step graphs in the graph dialect:
// one token through a whole model, as a func.func @decode inside a
// builtin.module, at any size. They are the workloads that the passes
// (hybrid-split above all), the reference interpreter and rlx-run are
// tested and measured on. tools/rlx-gen prints them.
//
// Three models follow the layer recipes of RLX's model crates
// (reference/rlx.md §5); docs/models.md draws each layer kind:
//
//   - Qwen35: gated-delta-net layers (causal conv over the conv state and
//     the new token, L2-normed q/k, gated output norm) with every third
//     layer full attention (partial neox RoPE, per-head q/k norm, sigmoid
//     output gate, KV-cache concat, a keep-mask built from the position);
//     SwiGLU FFNs; projections as dequant_matmul (q4_0/q8_0/q4_k/q6_k) or
//     matmul; tied embedding.
//   - Zonos: a GQA decoder with a prefix conditioner (Fourier features and
//     a learned-query resampler over a conditioning memory), fused QKV
//     sliced into q/k/v, gptj RoPE on the packed layout, KV caches in HF
//     layout behind transposes, a custom-mask input, layer norm, a GELU
//     MLP in f16 between casts, and per-codebook logits with classifier-free
//     guidance.
//   - Kimi: Kimi delta attention (gated delta net with per-channel gates)
//     layers and MLA layers whose value heads differ from their query/key
//     heads, with a latent KV cache.
//
// Conventions shared by all three. Runtime inputs — token ids, positions,
// rotary tables, masks, and every recurrent state and cache — are function
// arguments; each layer's new state is a function result, so one decode
// step is a pure function and steps chain by feeding results back. Weights
// are graph.param ops named "<scope>.<weight>" with scope "l{i}" for layer
// i ("l3.w_qkv", "l3.ffn_down", "embed", "final_norm"). Arguments and
// results carry their names as the rlx.name attribute. Dense projection
// weights are [in, out] (x·W); packed ones are GGUF [out, in] (x·Wᵀ), as
// graph.dequant_matmul defines.
//
// A configuration's zero sizes are derived from the others (head size from
// hidden and heads, FFN from hidden, …), so changing Hidden alone scales a
// model; Resolved fills them in and reports every bad size at once. The
// builders return a Model: the module, which always verifies, plus the
// names, types and valid value ranges of its inputs and the initialisation
// of its weights, from which RandomInputs and RandomWeights draw
// deterministic, valid tensors (token ids inside the vocabulary, masks that
// keep the new token, GGUF blocks made by gguf.Quantize).
package models
