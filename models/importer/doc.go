// Package importer turns real checkpoints into graph-dialect modules: a
// Hugging Face checkpoint directory (config.json and safetensors files) or
// a llama.cpp GGUF file, for the architectures Gemma2ForCausalLM,
// Gemma3ForCausalLM, LlamaForCausalLM, MistralForCausalLM,
// MixtralForCausalLM, Phi3ForCausalLM, Qwen2ForCausalLM,
// Qwen2MoeForCausalLM, Qwen3ForCausalLM, Qwen3MoeForCausalLM,
// Qwen3_5ForCausalLM, Qwen3NextForCausalLM, SmolLM3ForCausalLM,
// GraniteForCausalLM, Olmo2ForCausalLM, Olmo3ForCausalLM,
// Glm4ForCausalLM, Exaone4ForCausalLM, Ernie4_5ForCausalLM,
// CohereForCausalLM, Cohere2ForCausalLM, Lfm2ForCausalLM,
// OlmoeForCausalLM, SeedOssForCausalLM, ArceeForCausalLM,
// Starcoder2ForCausalLM, PhiForCausalLM, StableLmForCausalLM,
// GPTNeoXForCausalLM, NemotronForCausalLM, GraniteMoeForCausalLM,
// GraniteMoeSharedForCausalLM, GemmaForCausalLM, Glm4MoeForCausalLM,
// GptOssForCausalLM, Llama4ForCausalLM, DeepseekV2ForCausalLM,
// DeepseekV3ForCausalLM, the state-space models MambaForCausalLM,
// FalconMambaForCausalLM, Mamba2ForCausalLM, GraniteMoeHybridForCausalLM,
// BambaForCausalLM, NemotronHForCausalLM (with Nemotron 3's experts),
// JambaForCausalLM and FalconH1ForCausalLM, Lfm2MoeForCausalLM,
// Ernie4_5_MoeForCausalLM, MiniMaxM2ForCausalLM, ApertusForCausalLM,
// KimiLinearForCausalLM (Kimi delta attention beside latent attention
// without rope), Zamba2ForCausalLM (shared transformer blocks feeding
// Mamba-2 mixers), Ministral3ForCausalLM (Mistral with q scaled by
// position) and the text model of the
// vision-language checkpoints Qwen3_5ForConditionalGeneration,
// Qwen3_5MoeForConditionalGeneration, Gemma3ForConditionalGeneration,
// Mistral3ForConditionalGeneration, Qwen2VLForConditionalGeneration,
// Qwen2_5_VLForConditionalGeneration, Qwen3VLForConditionalGeneration,
// Qwen3VLMoeForConditionalGeneration and Llama4ForConditionalGeneration
// (GGUF: gemma2, gemma3, llama, phi3,
// qwen2, qwen2moe, qwen3, qwen3moe, qwen35, qwen35moe, qwen3next, smollm3,
// granite, olmo2, glm4, exaone4, ernie4_5, command-r, cohere2, qwen2vl,
// qwen3vl, lfm2, olmoe, seed_oss, arcee, starcoder2, phi2, stablelm,
// gptneox, nemotron, granitemoe, gemma, glm4moe, qwen3vlmoe, gpt-oss,
// deepseek2, llama4, mamba, mamba2, granitehybrid, nemotron_h,
// nemotron_h_moe, jamba, falcon-h1, lfm2moe, ernie4_5-moe, minimax-m2,
// apertus, kimi-linear, mistral3).
// docs/import.md is the user's guide.
//
// The module holds one function, @decode: one token through the whole
// model with fixed-capacity state. Arguments are "token" (tensor<1x1xi32>),
// "pos" (its position, tensor<1xi32>), then each layer's state: the KV
// cache of an attention layer ([1, capacity, kv heads, head dim] f32, row
// pos written by select, rows > pos masked out of the attention), the conv
// window and the recurrent state of a gated-DeltaNet or Mamba layer
// (l<i>.conv_state, l<i>.ssm_state). Results are
// "logits" ([1, vocab] f32) and every state's next value, named as its
// argument (rlx.name attributes), which is the convention package
// runtime/decode runs. The function attribute rlx.max_tokens is the cache
// capacity.
//
// Weights are graph.param ops named as the checkpoint names its tensors,
// of the element type the file stores: nothing is copied or converted at
// import, and rlx-run --weights binds the checkpoint itself (package
// runtime/weights). What transformers computes from the stored tensors
// is computed in the graph: `1 + w` norms, −exp(A_log), the conv taps'
// layout, the split of fused projections, casts of bf16 weights. A
// mixture-of-experts layer names its expert stacks with a `*`
// (`model.layers.0.mlp.experts.*.gate_proj.weight`), which the weight
// source stacks from the per-expert tensors, and routes with graph.topk:
// only the chosen experts' weights are gathered and multiplied.
//
// Every config field and GGUF key the importer reads is checked; a field
// that would change the model in a way rlx does not implement (an unknown
// architecture, a rope scaling type other than linear, llama3, yarn and
// longrope, MLP biases, quantisation configs, unknown config fields) is an error
// naming it. Every tensor the module binds is checked against the
// checkpoint (present, of the expected shape and a supported type) before
// the module is returned, so errors name the file and the tensor.
package importer
