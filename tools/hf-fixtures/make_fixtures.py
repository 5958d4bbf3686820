#!/usr/bin/env python3
"""Makes the Hugging Face fixtures that rlx's importer is tested against.

For each architecture (LlamaForCausalLM, Qwen3ForCausalLM, Qwen3_5ForCausalLM,
Qwen3NextForCausalLM, Qwen2ForCausalLM, MistralForCausalLM,
MixtralForCausalLM, Phi3ForCausalLM, Qwen2MoeForCausalLM, Qwen3MoeForCausalLM,
Gemma2ForCausalLM, Gemma3ForCausalLM, Llama with attention biases, and
variants with YaRN, LongRoPE and a sliding window) this script builds a tiny model from a config with
transformers itself (hidden 64, 4 layers, vocab 256; two linear-attention
layers where the architecture has them), draws its weights with a fixed
seed, saves it with save_pretrained, reloads it in float64 and computes the
logits of a fixed token sequence with one full forward pass. It also decodes
the same tokens one at a time with transformers' cache and records how far
that is from the full pass, and runs the full pass on the CPU as well and
records that difference.

Each architecture goes into OUT/<name>/: the checkpoint (config.json,
*.safetensors), reference.npy ([T, vocab] float32: the full pass's
logits), hidden.npy ([layers+1, T, hidden] float32: every layer's output,
for locating a disagreement) and fixture.json (tokens, dtype, device,
versions, the differences, the tensor names). A failure in one architecture
is written to OUT/<name>/error.txt and does not stop the others.

Usage: python3 make_fixtures.py --out DIR [--only NAME ...]
It needs torch and transformers (5.x); nothing else, no network.
"""

import argparse
import copy
import inspect
import json
import os
import platform
import sys
import traceback

import numpy as np
import torch
import transformers

from share_weights import share

TOKENS = [1, 17, 42, 200, 5, 99, 255, 128]
SEED = 20
STD = 0.08

COMMON = dict(
    vocab_size=256,
    hidden_size=64,
    num_hidden_layers=4,
    num_attention_heads=4,
    num_key_value_heads=2,
    head_dim=16,
    intermediate_size=96,
    hidden_act="silu",
    max_position_embeddings=512,
    rms_norm_eps=1e-6,
    attention_bias=False,
)

# COMMON's sizes alone, for the configs whose other fields differ
# (LayerNorm epsilons, activations).
SIZES = dict(vocab_size=256, hidden_size=64, intermediate_size=96, num_hidden_layers=4,
             num_attention_heads=4, max_position_embeddings=512)

# The hybrid models alternate linear (gated DeltaNet) and full attention,
# as full_attention_interval = 2 would: a GGUF file can only say "every
# n-th layer is full attention".
HYBRID_LAYERS = ["linear_attention", "full_attention", "linear_attention", "full_attention"]

GDN = dict(
    linear_conv_kernel_dim=4,
    linear_key_head_dim=16,
    linear_value_head_dim=16,
    linear_num_key_heads=2,
    linear_num_value_heads=4,
)


# Phi3Config's token ids (32000 and up) lie outside the fixtures' 256-token
# vocabulary, and its pad id becomes the embedding's padding_idx.
PHI3_TOKENS = dict(bos_token_id=1, eos_token_id=2, pad_token_id=None)


# The routed MoE fixtures' experts: 8 of 32 rows, top 2, every layer
# sparse (Qwen2-MoE, Qwen3-MoE, Qwen3-Next).
MOE = dict(num_experts=8, num_experts_per_tok=2, moe_intermediate_size=32, decoder_sparse_step=1)


# Qwen3-VL's one-block vision tower (text never reaches it) and its
# interleaved M-RoPE (plain rope on text).
QWEN3_VL_VISION = dict(depth=1, hidden_size=16, intermediate_size=32, num_heads=2, out_hidden_size=64,
                       num_position_embeddings=16, deepstack_visual_indexes=[0])
QWEN3_VL_ROPE = dict(rope_type="default", rope_theta=1000000.0, mrope_section=[3, 3, 2], mrope_interleaved=True)


def phi3_longrope(original):
    """Phi-3 with LongRoPE over an original context of `original` tokens."""
    return dict(
        COMMON, **PHI3_TOKENS,
        tie_word_embeddings=False,
        sliding_window=None,
        original_max_position_embeddings=original,
        rope_parameters=dict(rope_type="longrope", rope_theta=10000.0,
                             short_factor=[1.0, 1.1, 1.3, 1.6, 2.0, 2.5, 3.1, 3.8],
                             long_factor=[1.0, 1.5, 2.2, 3.4, 5.0, 7.5, 11.0, 16.0]),
    )


def qwen3_vl(**moe):
    """Qwen3-VL (with moe's fields, Qwen3-VL-MoE): the text model under
    text_config, the one-block vision tower text never reaches."""
    return dict(
        text_config=dict(COMMON, **PHI3_TOKENS, tie_word_embeddings=False, rope_parameters=QWEN3_VL_ROPE, **moe),
        vision_config=QWEN3_VL_VISION,
        tie_word_embeddings=False,
    )


def granite_moe(**shared):
    """Granite 3 MoE: Granite's four multipliers, 8 experts of 32 rows, top
    2; shared_intermediate_size given for Granite MoE Shared."""
    return dict(
        {k: v for k, v in COMMON.items() if k != "intermediate_size"}, **PHI3_TOKENS,
        intermediate_size=32, num_local_experts=8, num_experts_per_tok=2, **shared,
        embedding_multiplier=2.0, logits_scaling=4.0, residual_multiplier=0.5, attention_multiplier=0.2,
        tie_word_embeddings=True,
        rope_parameters=dict(rope_type="default", rope_theta=10000.0),
    )


def granite_hybrid(**kw):
    """Granite 4.0 H (GraniteMoeHybrid): Mamba-2 in layers 0 and 2
    (8 heads of 16, one group, state 16, a window of 4), attention in 1
    and 3; kw says the experts and the rope."""
    return dict(
        {k: v for k, v in COMMON.items() if k not in ("intermediate_size", "head_dim")}, **PHI3_TOKENS,
        intermediate_size=32, num_experts_per_tok=2, shared_intermediate_size=48,
        embedding_multiplier=2.0, logits_scaling=4.0, residual_multiplier=0.5, attention_multiplier=0.2,
        layer_types=["mamba", "attention", "mamba", "attention"],
        mamba_n_heads=8, mamba_d_head=16, mamba_n_groups=1, mamba_d_state=16, mamba_d_conv=4,
        mamba_expand=2, mamba_chunk_size=256, mamba_conv_bias=True, mamba_proj_bias=False,
        tie_word_embeddings=True, **kw,
    )


def cohere(qk):
    """Cohere (Command R): LayerNorms without a bias, the logits scaled;
    with qk, Command R+'s per-head q/k LayerNorms."""
    return dict(
        {k: v for k, v in COMMON.items() if k != "rms_norm_eps"}, **PHI3_TOKENS,
        tie_word_embeddings=True,
        layer_norm_eps=1e-5,
        logit_scale=0.5,
        use_qk_norm=qk,
        rope_parameters=dict(rope_type="default", rope_theta=10000.0),
    )


def stablelm(qk):
    """StableLM 2: q/k/v biases (qk false), or per-head q/k LayerNorms
    and a parallel residual (qk true, StableLM 2 12B's form)."""
    return dict(
        **SIZES, num_key_value_heads=2,
        layer_norm_eps=1e-5, hidden_act="silu", use_qkv_bias=not qk, qk_layernorm=qk,
        use_parallel_residual=qk, tie_word_embeddings=False, **PHI3_TOKENS,
        rope_parameters=dict(rope_type="default", rope_theta=10000.0, partial_rotary_factor=0.25),
    )


def llama4(**kw):
    """Llama 4's text model: layers 1 and 3 routing over 8 experts of 32
    rows (interleave_moe_layer_step 2; top 1, the chosen expert's input ×
    σ(its logit)) beside a shared expert, layers 0 and 2 dense (96 rows);
    layer 3 NoPE, its q scaled by the temperature tuning (floor_scale 2
    so that 8 tokens reach it), the rope layers' q and k L2-normalised and
    attending within chunks of 3 tokens; Scout's llama3 rope scaling."""
    return dict(
        {k: v for k, v in COMMON.items() if k not in ("intermediate_size", "attention_bias")}, **PHI3_TOKENS,
        intermediate_size=32, intermediate_size_mlp=96, num_local_experts=8, num_experts_per_tok=1,
        interleave_moe_layer_step=2, use_qk_norm=True, no_rope_layer_interval=4,
        attention_chunk_size=3, attn_temperature_tuning=True, floor_scale=2, attn_scale=0.1,
        tie_word_embeddings=False,
        rope_parameters=dict(rope_type="llama3", rope_theta=500000.0, factor=16.0, low_freq_factor=1.0,
                             high_freq_factor=1.0, original_max_position_embeddings=64),
        **kw,
    )


def deepseek_v3(**kw):
    """DeepSeek-V3's layout: multi-head latent attention (q through a
    rank-24 LoRA with its norm, k and v from a rank-16 latent with its
    norm, 8 nope and 8 rope dims a head, values of 12), layer 0 dense,
    the others routing over 8 experts of 32 rows in 4 groups (top 2 groups,
    then the top 2 experts of σ(logit) + the selection bias, renormalised,
    × 2.5) with one shared expert; YaRN with mscale_all_dim (the score
    scale × mscale²)."""
    return dict(
        {k: v for k, v in COMMON.items() if k not in ("head_dim", "num_key_value_heads")}, **PHI3_TOKENS,
        num_key_value_heads=4, q_lora_rank=24, kv_lora_rank=16, qk_nope_head_dim=8, qk_rope_head_dim=8, v_head_dim=12,
        moe_intermediate_size=32, n_routed_experts=8, num_experts_per_tok=2, n_shared_experts=1,
        first_k_dense_replace=1, n_group=4, topk_group=2, norm_topk_prob=True, routed_scaling_factor=2.5,
        rope_interleave=True, tie_word_embeddings=False,
        rope_parameters=dict(rope_type="yarn", rope_theta=10000.0, factor=4.0, original_max_position_embeddings=64,
                             beta_fast=32.0, beta_slow=1.0, mscale=1.0, mscale_all_dim=1.0),
        **kw,
    )


def nemotron_h_moe(**kw):
    """Nemotron-H with routed experts (its "E" layers), as the fixtures
    nemotron_h_moe and nemotron_h_latent: (config kwargs, storage dtype,
    zero-centred norms)."""
    return dict(
        **SIZES, num_key_value_heads=2, head_dim=16,
        mamba_num_heads=8, mamba_head_dim=16, n_groups=2, ssm_state_size=16, conv_kernel=4, expand=2,
        mamba_hidden_act="silu", use_conv_bias=True, use_bias=False, mlp_hidden_act="relu2",
        mlp_bias=False, attention_bias=False, layer_norm_epsilon=1e-5, residual_in_fp32=False,
        n_routed_experts=8, num_experts_per_tok=2, moe_intermediate_size=32, moe_shared_expert_intermediate_size=48,
        n_shared_experts=1, n_group=2, topk_group=1, norm_topk_prob=True, routed_scaling_factor=2.5,
        tie_word_embeddings=False, **PHI3_TOKENS, **kw,
    ), torch.float32, False


def falcon_h1(**kw):
    """Falcon-H1's fields at the fixtures' sizes (8 Mamba-2 heads of 16,
    state 16) with µP multipliers away from 1, as the published configs
    have them; returns (config kwargs, storage dtype, zero-centred norms)."""
    return dict(
        **SIZES, num_key_value_heads=2, mamba_d_ssm=128, mamba_n_heads=8, mamba_d_head=16, mamba_d_state=16,
        mamba_d_conv=4, mamba_expand=2, mamba_chunk_size=256, mamba_conv_bias=True, mamba_proj_bias=False,
        projectors_bias=False, rms_norm_eps=1e-5, tie_word_embeddings=False,
        lm_head_multiplier=0.8, embedding_multiplier=1.3, mlp_multipliers=[0.9, 1.1], key_multiplier=0.7,
        attention_in_multiplier=1.2, attention_out_multiplier=0.6, ssm_multipliers=[0.5, 0.8, 1.2, 0.9, 1.1],
        ssm_in_multiplier=1.1, ssm_out_multiplier=0.9,
        rope_parameters=dict(rope_type="default", rope_theta=10000.0), **PHI3_TOKENS, **kw,
    ), torch.float32, False


def zamba2(**kw):
    """Zamba2's fields at the fixtures' sizes: Mamba-2 in layers 0 and 2
    (8 heads of 16, 2 groups of state 16), hybrid layers 1 and 3 running
    the shared blocks (4 heads of 32 on x ‖ x₀, an MLP of 96 through
    erf's gelu, adapters of rank 8); returns (config kwargs, storage
    dtype, zero-centred norms)."""
    return dict(
        **SIZES, num_key_value_heads=4, hidden_act="gelu", rms_norm_eps=1e-5,
        layers_block_type=["mamba", "hybrid", "mamba", "hybrid"], mamba_d_state=16, mamba_d_conv=4, mamba_expand=2,
        mamba_ngroups=2, n_mamba_heads=8, use_conv_bias=True, add_bias_linear=False, chunk_size=256,
        adapter_rank=8, rope_parameters=dict(rope_type="default", rope_theta=10000.0), **kw,
    ), torch.float32, False


# DeepSeek-V2's fields: deepseek_v3()'s but rope_interleave (V2 always
# rotates adjacent pairs).
DEEPSEEK_V2_BASE = {k: v for k, v in deepseek_v3().items() if k != "rope_interleave"}


# Llama 4's vision tower, one small block (text never reaches it).
LLAMA4_VISION = dict(hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32,
                     vision_output_dim=16, image_size=28, patch_size=14, projector_input_dim=16,
                     projector_output_dim=16, pixel_shuffle_ratio=0.5)


def specs():
    """Returns (name, model class name, config kwargs, storage dtype, zero-centred norms)."""
    return [
        ("llama", "LlamaForCausalLM", "LlamaConfig", dict(
            COMMON,
            tie_word_embeddings=False,
            mlp_bias=False,
            rope_parameters=dict(rope_type="llama3", rope_theta=500000.0, factor=8.0,
                                 low_freq_factor=1.0, high_freq_factor=4.0,
                                 original_max_position_embeddings=8192),
        ), torch.float32, False),
        ("qwen3", "Qwen3ForCausalLM", "Qwen3Config", dict(
            COMMON,
            tie_word_embeddings=True,
            use_sliding_window=False,
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0),
        ), torch.float32, False),
        # Made in run 37d (stop 56): Qwen2's q/k/v biases, Mistral,
        # Mixtral, Phi-3, Qwen2-MoE, Qwen3-MoE, Gemma 3, Llama's
        # attention_bias. init_weights draws the biases N(0, STD) like
        # every other weight.
        ("qwen2", "Qwen2ForCausalLM", "Qwen2Config", dict(
            COMMON,
            tie_word_embeddings=True,
            use_sliding_window=False,
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0),
        ), torch.float32, False),
        ("mistral", "MistralForCausalLM", "MistralConfig", dict(
            COMMON,
            tie_word_embeddings=False,
            sliding_window=None,
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0),
        ), torch.float32, False),
        ("phi3", "Phi3ForCausalLM", "Phi3Config", dict(
            COMMON, **PHI3_TOKENS,
            tie_word_embeddings=False,
            sliding_window=None,
            original_max_position_embeddings=512,
            rope_parameters=dict(rope_type="default", rope_theta=10000.0),
        ), torch.float32, False),
        ("qwen3_moe", "Qwen3MoeForCausalLM", "Qwen3MoeConfig", dict(
            COMMON,
            tie_word_embeddings=False,
            use_sliding_window=False,
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0),
            **MOE,
            norm_topk_prob=True,
            mlp_only_layers=[1],
        ), torch.float32, False),
        ("mixtral", "MixtralForCausalLM", "MixtralConfig", dict(
            COMMON,
            tie_word_embeddings=False,
            sliding_window=None,
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0),
            num_local_experts=4,
            num_experts_per_tok=2,
        ), torch.float32, False),
        ("qwen2_moe", "Qwen2MoeForCausalLM", "Qwen2MoeConfig", dict(
            COMMON,
            tie_word_embeddings=False,
            use_sliding_window=False,
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0),
            **MOE,
            shared_expert_intermediate_size=48,
            norm_topk_prob=False,
            mlp_only_layers=[],
        ), torch.float32, False),
        ("gemma3", "Gemma3ForCausalLM", "Gemma3TextConfig", dict(
            COMMON,
            hidden_activation="gelu_pytorch_tanh",
            tie_word_embeddings=True,
            query_pre_attn_scalar=24,
            sliding_window=3,
            layer_types=["sliding_attention", "full_attention", "sliding_attention", "full_attention"],
            rope_parameters=dict(
                full_attention=dict(rope_type="linear", rope_theta=1000000.0, factor=2.0),
                sliding_attention=dict(rope_type="default", rope_theta=10000.0)),
        ), torch.float32, True),
        ("llama_bias", "LlamaForCausalLM", "LlamaConfig", dict(
            COMMON,
            attention_bias=True,
            tie_word_embeddings=False,
            mlp_bias=False,
            rope_parameters=dict(rope_type="default", rope_theta=500000.0),
        ), torch.float32, False),
        # Stop 56: rope scaling beyond linear and llama3, and a window
        # shorter than the tokens. phi3_longrope_short's cache (16 rows
        # in the tests) stays within original_max_position_embeddings,
        # so the short factors apply; phi3_longrope_long's eight tokens
        # pass its 4, so transformers' full pass takes the long factors
        # everywhere, and its decode one token at a time (incremental.npy)
        # from position 4 on, as rlx's decode step does.
        ("phi3_longrope_short", "Phi3ForCausalLM", "Phi3Config", phi3_longrope(16), torch.float32, False),
        ("phi3_longrope_long", "Phi3ForCausalLM", "Phi3Config", phi3_longrope(4), torch.float32, False),
        ("qwen2_yarn", "Qwen2ForCausalLM", "Qwen2Config", dict(
            COMMON,
            tie_word_embeddings=True,
            use_sliding_window=False,
            rope_parameters=dict(rope_type="yarn", rope_theta=10000.0, factor=4.0,
                                 original_max_position_embeddings=128),
        ), torch.float32, False),
        ("mistral_window", "MistralForCausalLM", "MistralConfig", dict(
            COMMON,
            tie_word_embeddings=False,
            sliding_window=3,
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0),
        ), torch.float32, False),
        # Gemma 2: soft-caps small enough to bite on these tiny scores
        # (the published 50 and 30 barely move them), the even layers
        # sliding with a window of 3.
        ("gemma2", "Gemma2ForCausalLM", "Gemma2Config", dict(
            COMMON,
            hidden_activation="gelu_pytorch_tanh",
            tie_word_embeddings=True,
            query_pre_attn_scalar=24,
            sliding_window=3,
            attn_logit_softcapping=0.5,
            final_logit_softcapping=1.5,
            rope_parameters=dict(rope_type="default", rope_theta=10000.0),
        ), torch.float32, True),
        # Ministral 3 (Ministral3ForCausalLM, transformers 5): Mistral with
        # YaRN and Llama 4's scaling of every layer's q after the rope by
        # 1 + llama_4_scaling_beta·log(1 + ⌊pos / original⌋). The original
        # context of 2 (and β 0.5) makes the scaling change within the
        # fixture's 8 tokens; mscale = mscale_all_dim = 1, as published,
        # leaves cos and sin unscaled, and ministral3_scaled's
        # mscale_all_dim 0 scales them by 0.1·ln 16 + 1.
        ("ministral3", "Ministral3ForCausalLM", "Ministral3Config", dict(
            COMMON, **PHI3_TOKENS,
            tie_word_embeddings=False,
            sliding_window=None,
            rope_parameters=dict(rope_type="yarn", rope_theta=1000000.0, factor=16.0,
                                 original_max_position_embeddings=2, max_position_embeddings=512,
                                 beta_fast=32.0, beta_slow=1.0, mscale=1.0, mscale_all_dim=1.0,
                                 llama_4_scaling_beta=0.5),
        ), torch.float32, False),
        ("ministral3_scaled", "Ministral3ForCausalLM", "Ministral3Config", dict(
            COMMON, **PHI3_TOKENS,
            tie_word_embeddings=True,
            sliding_window=None,
            rope_parameters=dict(rope_type="yarn", rope_theta=1000000.0, factor=16.0,
                                 original_max_position_embeddings=2, beta_fast=32.0, beta_slow=1.0,
                                 mscale=1.0, mscale_all_dim=0.0, llama_4_scaling_beta=0.5),
        ), torch.float32, False),
        # SmolLM3: Llama's layout with rope left out of every
        # no_rope_layer_interval-th layer (NoPE; 4, the default and what
        # llama.cpp's smollm3 files assume: layer 3).
        ("smollm3", "SmolLM3ForCausalLM", "SmolLM3Config", dict(
            COMMON, **PHI3_TOKENS,
            tie_word_embeddings=True,
            mlp_bias=False,
            use_sliding_window=False,
            no_rope_layer_interval=4,
            rope_parameters=dict(rope_type="default", rope_theta=2000000.0),
        ), torch.float32, False),
        # Granite: Llama's layout with IBM's four multipliers (Granite
        # 3's embedding and residual multipliers and logits scaling; an
        # attention multiplier in place of 1/√head_dim).
        ("granite", "GraniteForCausalLM", "GraniteConfig", dict(
            COMMON, **PHI3_TOKENS,
            tie_word_embeddings=False,
            mlp_bias=False,
            embedding_multiplier=12.0,
            residual_multiplier=0.22,
            attention_multiplier=0.1,
            logits_scaling=8.0,
            rope_parameters=dict(rope_type="default", rope_theta=10000000.0),
        ), torch.float32, False),
        # OLMo 2: norms after attention and after the MLP only, and q/k
        # RMSNorms over the whole projections.
        ("olmo2", "Olmo2ForCausalLM", "Olmo2Config", dict(
            COMMON, **PHI3_TOKENS,
            tie_word_embeddings=False,
            rope_parameters=dict(rope_type="default", rope_theta=500000.0),
        ), torch.float32, False),
        # OLMo 3: OLMo 2 with every layer but each fourth sliding
        # (window 3 here), and YaRN on the full layer (transformers 5
        # keys OLMo 3's rope by layer type).
        ("olmo3", "Olmo3ForCausalLM", "Olmo3Config", dict(
            COMMON, **PHI3_TOKENS,
            tie_word_embeddings=False,
            sliding_window=3,
            rope_parameters=dict(
                full_attention=dict(rope_type="yarn", rope_theta=500000.0, factor=4.0,
                                    original_max_position_embeddings=128),
                sliding_attention=dict(rope_type="default", rope_theta=500000.0)),
        ), torch.float32, False),
        # GLM-4 (0414): norms after attention and the MLP as well as
        # before, q/k/v biases, fused gate_up_proj, rope on half of each
        # head, its pairs interleaved.
        ("glm4", "Glm4ForCausalLM", "Glm4Config", dict(
            COMMON, **PHI3_TOKENS,
            tie_word_embeddings=False,
            attention_bias=True,
            rope_parameters=dict(rope_type="default", rope_theta=10000.0, partial_rotary_factor=0.5),
        ), torch.float32, False),
        # EXAONE 4: OLMo 2's post-norms, per-head q/k norms, three
        # sliding layers (window 3) to a global one without rope.
        ("exaone4", "Exaone4ForCausalLM", "Exaone4Config", dict(
            {k: v for k, v in COMMON.items() if k != "attention_bias"}, **PHI3_TOKENS,
            tie_word_embeddings=False,
            sliding_window=3,
            sliding_window_pattern=4,
            layer_types=["sliding_attention", "sliding_attention", "sliding_attention", "full_attention"],
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0),
        ), torch.float32, False),
        # ERNIE 4.5 (dense): Llama with rope's pairs adjacent.
        ("ernie4_5", "Ernie4_5ForCausalLM", "Ernie4_5Config", dict(
            {k: v for k, v in COMMON.items() if k != "attention_bias"}, **PHI3_TOKENS,
            tie_word_embeddings=True,
            use_bias=False,
            rope_parameters=dict(rope_type="default", rope_theta=500000.0),
        ), torch.float32, False),
        # ERNIE-4.5-MoE (21B-A3B's layout): layer 0 dense, the others 8
        # experts of 32 rows chosen by probability + the moe_statics bias
        # (top 2), two shared experts.
        ("ernie4_5_moe", "Ernie4_5_MoeForCausalLM", "Ernie4_5_MoeConfig", dict(
            {k: v for k, v in COMMON.items() if k != "attention_bias"}, **PHI3_TOKENS,
            tie_word_embeddings=True, use_bias=False,
            moe_num_experts=8, moe_k=2, moe_intermediate_size=32, moe_num_shared_experts=2,
            moe_layer_start_index=1, moe_layer_end_index=-1, moe_layer_interval=1, moe_norm_min=1e-12,
            rope_parameters=dict(rope_type="default", rope_theta=500000.0),
        ), torch.float32, False),
        # MiniMax-M2: whole-projection q/k norms, rope on half of each
        # head, σ-routed experts (8 of 32 rows, top 2) chosen with the
        # e_score_correction_bias in every layer.
        ("minimax_m2", "MiniMaxM2ForCausalLM", "MiniMaxM2Config", dict(
            {k: v for k, v in COMMON.items() if k not in ("attention_bias", "intermediate_size")}, **PHI3_TOKENS,
            intermediate_size=32, num_local_experts=8, num_experts_per_tok=2, tie_word_embeddings=False,
            rope_parameters=dict(rope_type="default", rope_theta=5000000.0, partial_rotary_factor=0.5),
        ), torch.float32, False),
        # Apertus: per-head q/k norms, an MLP down(xIELU(up(x))) with
        # each layer's learned α_p and α_n (drawn), Llama 3's rope.
        ("apertus", "ApertusForCausalLM", "ApertusConfig", dict(
            {k: v for k, v in COMMON.items() if k not in ("head_dim", "hidden_act")}, **PHI3_TOKENS,
            hidden_act="xielu", tie_word_embeddings=False,
            rope_parameters=dict(rope_type="llama3", rope_theta=12000000.0, factor=8.0, original_max_position_embeddings=64,
                                 low_freq_factor=1.0, high_freq_factor=4.0),
        ), torch.float32, False),
        # Cohere (Command R): LayerNorms without a bias, attention and
        # the MLP in parallel, adjacent-pair rope, logits × logit_scale
        # (0.5 here, to bite on these tiny logits), a tied head.
        ("cohere", "CohereForCausalLM", "CohereConfig", cohere(False), torch.float32, False),
        # Command R+: Cohere with per-head q/k LayerNorms ([heads,
        # head_dim] weights, no bias).
        ("cohere_qk", "CohereForCausalLM", "CohereConfig", cohere(True), torch.float32, False),
        # Cohere 2 (Command R7B): Cohere with layers 0-2 sliding (window
        # 3) and rotated, layer 3 global without rope.
        ("cohere2", "Cohere2ForCausalLM", "Cohere2Config", dict(
            {k: v for k, v in COMMON.items() if k != "rms_norm_eps"}, **PHI3_TOKENS,
            tie_word_embeddings=True,
            layer_norm_eps=1e-5,
            logit_scale=0.5,
            sliding_window=3,
            layer_types=["sliding_attention", "sliding_attention", "sliding_attention", "full_attention"],
            rope_parameters=dict(rope_type="default", rope_theta=50000.0),
        ), torch.float32, False),
        # Qwen2.5-VL and Qwen3-VL on text: M-RoPE with every section at
        # the token's position; a one-block vision tower that text never
        # reaches.
        ("qwen2_5_vl", "Qwen2_5_VLForConditionalGeneration", "Qwen2_5_VLConfig", dict(
            text_config=dict(
                {k: v for k, v in COMMON.items() if k not in ("head_dim", "attention_bias")}, **PHI3_TOKENS,
                tie_word_embeddings=False,
                use_sliding_window=False,
                rope_parameters=dict(rope_type="default", rope_theta=1000000.0, mrope_section=[2, 3, 3])),
            vision_config=dict(depth=1, hidden_size=16, intermediate_size=32, num_heads=2, out_hidden_size=64,
                               fullatt_block_indexes=[0]),
            tie_word_embeddings=False,
        ), torch.float32, False),
        ("qwen3_vl", "Qwen3VLForConditionalGeneration", "Qwen3VLConfig", qwen3_vl(), torch.float32, False),
        # Qwen3-VL-MoE on text: Qwen3-MoE's experts, fused (transformers
        # 5.17 saves them [E, 2I, H] and [E, H, I]; the published files
        # hold [E, H, 2I] and [E, I, H]).
        ("qwen3_vl_moe", "Qwen3VLMoeForConditionalGeneration", "Qwen3VLMoeConfig", qwen3_vl(
            moe_intermediate_size=32, num_experts=8, num_experts_per_tok=2,
            decoder_sparse_step=1, norm_topk_prob=True, mlp_only_layers=[]), torch.float32, False),
        # LFM2: gated short convolutions (window 3) in layers 0 and 2,
        # attention with per-head q/k norms in 1 and 3; the MLP's width
        # auto-adjusted (⅔ of 96, a multiple of 32: 64).
        ("lfm2", "Lfm2ForCausalLM", "Lfm2Config", dict(
            **SIZES, num_key_value_heads=2,
            norm_eps=1e-5, conv_L_cache=3, conv_bias=False,
            layer_types=["conv", "full_attention", "conv", "full_attention"],
            block_auto_adjust_ff_dim=True, block_multiple_of=32, block_ffn_dim_multiplier=1.0,
            tie_word_embeddings=True, **PHI3_TOKENS,
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0),
        ), torch.float32, False),
        # LFM2-MoE (LFM2-8B-A1B's layout): LFM2's layers, layer 0's MLP
        # dense, the others 8 experts of 32 rows chosen by σ(logit) + the
        # expert bias (top 2, renormalised with 1e-6, × 1.5).
        ("lfm2_moe", "Lfm2MoeForCausalLM", "Lfm2MoeConfig", dict(
            **SIZES, num_key_value_heads=2,
            norm_eps=1e-5, conv_L_cache=3, conv_bias=False,
            layer_types=["conv", "full_attention", "conv", "full_attention"],
            moe_intermediate_size=32, num_dense_layers=1, num_experts=8, num_experts_per_tok=2,
            use_expert_bias=True, routed_scaling_factor=1.5, norm_topk_prob=True,
            tie_word_embeddings=True, **PHI3_TOKENS,
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0),
        ), torch.float32, False),
        # OLMoE: OLMo 2's whole-projection q/k norms with Llama's
        # pre-norms, 8 experts of 32 rows, top 2, not renormalised.
        ("olmoe", "OlmoeForCausalLM", "OlmoeConfig", dict(
            {k: v for k, v in COMMON.items() if k not in ("head_dim", "intermediate_size")}, **PHI3_TOKENS,
            intermediate_size=32, num_experts=8, num_experts_per_tok=2, norm_topk_prob=False,
            tie_word_embeddings=False,
            rope_parameters=dict(rope_type="default", rope_theta=10000.0),
        ), torch.float32, False),
        # Seed-OSS: q/k/v biases, none on the output projection.
        ("seed_oss", "SeedOssForCausalLM", "SeedOssConfig", dict(
            COMMON, **PHI3_TOKENS,
            attention_bias=True, attention_out_bias=False, mlp_bias=False,
            tie_word_embeddings=False,
            rope_parameters=dict(rope_type="default", rope_theta=10000000.0),
        ), torch.float32, False),
        # Arcee (AFM): a relu² MLP with no gate.
        ("arcee", "ArceeForCausalLM", "ArceeConfig", dict(
            COMMON, **PHI3_TOKENS,
            hidden_act="relu2", mlp_bias=False,
            tie_word_embeddings=False,
            rope_parameters=dict(rope_type="default", rope_theta=10000.0),
        ), torch.float32, False),
        # StarCoder2: LayerNorms with biases, biases everywhere, a
        # gelu_tanh MLP without a gate (c_fc, c_proj).
        ("starcoder2", "Starcoder2ForCausalLM", "Starcoder2Config", dict(
            **SIZES, num_key_value_heads=2,
            norm_epsilon=1e-5, use_bias=True, hidden_act="gelu_pytorch_tanh", sliding_window=None,
            tie_word_embeddings=False, **PHI3_TOKENS,
            rope_parameters=dict(rope_type="default", rope_theta=100000.0),
        ), torch.float32, False),
        # Gemma (the first): 1 + w RMSNorms, a gelu_tanh-gated MLP, the
        # embeddings × √hidden, a tied head.
        ("gemma", "GemmaForCausalLM", "GemmaConfig", dict(
            COMMON, **PHI3_TOKENS,
            hidden_activation="gelu_pytorch_tanh",
            tie_word_embeddings=True,
            rope_parameters=dict(rope_type="default", rope_theta=10000.0),
        ), torch.float32, True),
        # Phi-2: one LayerNorm before a parallel attention and gelu_new
        # MLP, biases everywhere (the lm head's too), rope on half of
        # each head.
        ("phi", "PhiForCausalLM", "PhiConfig", dict(
            **SIZES, num_key_value_heads=2,
            layer_norm_eps=1e-5, hidden_act="gelu_new", qk_layernorm=False,
            tie_word_embeddings=False, **PHI3_TOKENS,
            rope_parameters=dict(rope_type="default", rope_theta=10000.0, partial_rotary_factor=0.5),
        ), torch.float32, False),
        # StableLM 2: LayerNorms with biases, q/k/v biases, rope on a
        # quarter of each head; the second with per-head q/k LayerNorms
        # and a parallel residual (StableLM 2 12B's form).
        ("stablelm", "StableLmForCausalLM", "StableLmConfig", stablelm(False), torch.float32, False),
        ("stablelm_qk", "StableLmForCausalLM", "StableLmConfig", stablelm(True), torch.float32, False),
        # GPT-NeoX (Pythia): q/k/v fused per head, two LayerNorms on the
        # same input of a parallel residual, an erf gelu MLP, rope on a
        # quarter of each head.
        ("gpt_neox", "GPTNeoXForCausalLM", "GPTNeoXConfig", dict(
            **SIZES, layer_norm_eps=1e-5,
            hidden_act="gelu", use_parallel_residual=True, attention_bias=True,
            tie_word_embeddings=False, **PHI3_TOKENS,
            rope_parameters=dict(rope_type="default", rope_theta=10000.0, partial_rotary_factor=0.25),
        ), torch.float32, False),
        # Granite 3 MoE: Granite's four multipliers, 8 experts of 32
        # rows, top 2 (softmax over the chosen); the second with a
        # shared expert.
        ("granitemoe", "GraniteMoeForCausalLM", "GraniteMoeConfig", granite_moe(), torch.float32, False),
        ("granitemoeshared", "GraniteMoeSharedForCausalLM", "GraniteMoeSharedConfig", granite_moe(shared_intermediate_size=48),
         torch.float32, False),
        # Nemotron: LayerNorm1P (1 + w, with biases), a relu² MLP with no
        # gate, rope on half of each head.
        ("nemotron", "NemotronForCausalLM", "NemotronConfig", dict(
            **SIZES, num_key_value_heads=2, head_dim=16,
            norm_eps=1e-5, hidden_act="relu2", attention_bias=False, mlp_bias=False,
            tie_word_embeddings=False, **PHI3_TOKENS,
            rope_parameters=dict(rope_type="default", rope_theta=10000.0, partial_rotary_factor=0.5),
        ), torch.float32, True),
        # gpt-oss: attention sinks, biases on q/k/v/o, layers alternating
        # sliding (window 3) and full, YaRN without truncation; 8 experts
        # of 32 rows, top 2, their gate/up interleaved, with biases and
        # the clamped swiglu.
        ("gpt_oss", "GptOssForCausalLM", "GptOssConfig", dict(
            {k: v for k, v in COMMON.items() if k != "intermediate_size"}, **PHI3_TOKENS,
            intermediate_size=32, num_local_experts=8, num_experts_per_tok=2,
            attention_bias=True, sliding_window=3, swiglu_limit=7.0,
            layer_types=["sliding_attention", "full_attention", "sliding_attention", "full_attention"],
            tie_word_embeddings=False,
            rope_parameters=dict(rope_type="yarn", rope_theta=150000.0, factor=32.0, beta_fast=32.0, beta_slow=1.0,
                                 truncate=False, original_max_position_embeddings=64),
        ), torch.float32, False),
        # GLM-4.5 (MoE): layer 0 dense, the others routing over 8 experts
        # of 32 rows (sigmoid scores, chosen by score + the selection
        # bias, renormalised, × 2.5) with one shared expert; q/k/v
        # biases, per-head q/k norms, rope on half of each head.
        ("glm4_moe", "Glm4MoeForCausalLM", "Glm4MoeConfig", dict(
            COMMON, **PHI3_TOKENS,
            moe_intermediate_size=32, n_routed_experts=8, num_experts_per_tok=2, n_shared_experts=1,
            first_k_dense_replace=1, n_group=1, topk_group=1, norm_topk_prob=True, routed_scaling_factor=2.5,
            attention_bias=True, use_qk_norm=True, tie_word_embeddings=False,
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0, partial_rotary_factor=0.5),
        ), torch.float32, False),
        # Llama 4 (llama4() says what it exercises); llama4_k2 with every
        # layer routing, top 2, no chunks; llama4_vl as published, the
        # text model inside Llama4ForConditionalGeneration.
        ("llama4", "Llama4ForCausalLM", "Llama4TextConfig", llama4(), torch.float32, False),
        ("llama4_k2", "Llama4ForCausalLM", "Llama4TextConfig", dict(
            llama4(), num_experts_per_tok=2, interleave_moe_layer_step=1, attention_chunk_size=8192),
         torch.float32, False),
        ("llama4_vl", "Llama4ForConditionalGeneration", "Llama4Config", dict(
            text_config=llama4(), vision_config=LLAMA4_VISION, tie_word_embeddings=False, **PHI3_TOKENS),
         torch.float32, False),
        # DeepSeek-V3 (deepseek_v3() says what it exercises); the second
        # with q_proj (no q LoRA), one group and the default rope, as
        # Moonlight and the smaller V3-architecture models are.
        ("deepseek_v3", "DeepseekV3ForCausalLM", "DeepseekV3Config", deepseek_v3(), torch.float32, False),
        ("deepseek_v3_q", "DeepseekV3ForCausalLM", "DeepseekV3Config", dict(
            deepseek_v3(), q_lora_rank=None, n_group=1, topk_group=1,
            rope_parameters=dict(rope_type="default", rope_theta=50000.0)), torch.float32, False),
        # DeepSeek-V2 as transformers 5 reads it: deepseek_v3()'s
        # attention and experts with a softmax router, group_limited_greedy
        # (one of 4 groups open, ranked by its best probability), × 2, and
        # V2-Lite's YaRN (mscale = mscale_all_dim: no factor anywhere);
        # the second greedy, with q_proj, the default rope.
        ("deepseek_v2", "DeepseekV2ForCausalLM", "DeepseekV2Config", dict(
            DEEPSEEK_V2_BASE, topk_method="group_limited_greedy", n_group=4, topk_group=1, routed_scaling_factor=2.0,
            rope_parameters=dict(rope_type="yarn", rope_theta=10000.0, factor=4.0, original_max_position_embeddings=64,
                                 beta_fast=32.0, beta_slow=1.0, mscale=0.707, mscale_all_dim=0.707)), torch.float32, False),
        ("deepseek_v2_lite", "DeepseekV2ForCausalLM", "DeepseekV2Config", dict(
            DEEPSEEK_V2_BASE, q_lora_rank=None, topk_method="greedy", n_group=None, topk_group=None, routed_scaling_factor=1.0,
            rope_parameters=dict(rope_type="default", rope_theta=10000.0)), torch.float32, False),
        # Mamba-2 (Codestral Mamba's architecture): every layer a Mamba-2
        # mixer (8 heads of 16, 2 groups, state 16, a window of 4 with
        # its bias), RMSNorms, an untied head.
        ("mamba2", "Mamba2ForCausalLM", "Mamba2Config", dict(
            vocab_size=256, hidden_size=64, num_hidden_layers=4, expand=2, num_heads=8, head_dim=16,
            n_groups=2, state_size=16, conv_kernel=4, use_conv_bias=True, use_bias=False,
            layer_norm_epsilon=1e-5, rms_norm=True, residual_in_fp32=True, chunk_size=256,
            tie_word_embeddings=False, **PHI3_TOKENS,
        ), torch.float32, False),
        # Mamba (the first): the selective scan with a per-channel state,
        # dt through its low-rank projection; Falcon-Mamba with its
        # weightless RMSNorms on dt, B and C.
        ("mamba", "MambaForCausalLM", "MambaConfig", dict(
            vocab_size=256, hidden_size=64, num_hidden_layers=4, expand=2, state_size=16, conv_kernel=4,
            time_step_rank=8, use_conv_bias=True, use_bias=False, layer_norm_epsilon=1e-5,
            residual_in_fp32=True, tie_word_embeddings=True, **PHI3_TOKENS,
        ), torch.float32, False),
        ("falcon_mamba", "FalconMambaForCausalLM", "FalconMambaConfig", dict(
            vocab_size=256, hidden_size=64, num_hidden_layers=4, expand=2, state_size=16, conv_kernel=4,
            time_step_rank=8, use_conv_bias=True, use_bias=False, layer_norm_epsilon=1e-5, mixer_rms_eps=1e-6,
            residual_in_fp32=True, tie_word_embeddings=False, **PHI3_TOKENS,
        ), torch.float32, False),
        # Granite 4.0 H: Mamba-2 layers (0, 2) and attention without rope
        # (1, 3), each followed by 8 experts of 32 rows (top 2) and a
        # shared MLP; Granite's four multipliers. The second as Granite
        # 4.0's dense models: no experts, rope.
        ("granitemoehybrid", "GraniteMoeHybridForCausalLM", "GraniteMoeHybridConfig", granite_hybrid(
            num_local_experts=8, position_embedding_type=None), torch.float32, False),
        ("granitemoehybrid_dense", "GraniteMoeHybridForCausalLM", "GraniteMoeHybridConfig", granite_hybrid(
            num_local_experts=0, position_embedding_type="rope",
            rope_parameters=dict(rope_type="default", rope_theta=10000.0)), torch.float32, False),
        # Bamba: Llama's attention (layers 1 and 3) and MLP with Mamba-2
        # mixers in layers 0 and 2, rope on half of each head.
        ("bamba", "BambaForCausalLM", "BambaConfig", dict(
            COMMON, **PHI3_TOKENS, attn_layer_indices=[1, 3],
            mamba_n_heads=8, mamba_d_head=16, mamba_n_groups=1, mamba_d_state=16, mamba_d_conv=4,
            mamba_expand=2, mamba_chunk_size=256, mamba_conv_bias=True, mamba_proj_bias=False,
            tie_word_embeddings=False,
            rope_parameters=dict(rope_type="default", rope_theta=10000.0, partial_rotary_factor=0.5),
        ), torch.float32, False),
        # Jamba: Mamba mixers (dt, B and C through weighted RMSNorms) in
        # layers 0 and 2 with 8 experts (top 2, not renormalised),
        # attention without rope in 1 and 3 with a SwiGLU MLP.
        ("jamba", "JambaForCausalLM", "JambaConfig", dict(
            **SIZES, num_key_value_heads=2, attn_layer_period=2, attn_layer_offset=1, expert_layer_period=2,
            expert_layer_offset=0, num_experts=8, num_experts_per_tok=2, mamba_d_state=16, mamba_d_conv=4,
            mamba_expand=2, mamba_dt_rank=8, mamba_conv_bias=True, mamba_proj_bias=False, use_mamba_kernels=False,
            rms_norm_eps=1e-6, tie_word_embeddings=False, **PHI3_TOKENS,
        ), torch.float32, False),
        # Nemotron-H: one mixer a layer by hybrid_override_pattern (M
        # Mamba-2 with group-wise gated norms, * attention without rope,
        # - a relu² MLP).
        ("nemotron_h", "NemotronHForCausalLM", "NemotronHConfig", dict(
            **SIZES, num_key_value_heads=2, head_dim=16, hybrid_override_pattern="M*M-",
            mamba_num_heads=8, mamba_head_dim=16, n_groups=2, ssm_state_size=16, conv_kernel=4, expand=2,
            mamba_hidden_act="silu", use_conv_bias=True, use_bias=False, mlp_hidden_act="relu2",
            mlp_bias=False, attention_bias=False, layer_norm_epsilon=1e-5, residual_in_fp32=False,
            tie_word_embeddings=False, **PHI3_TOKENS,
        ), torch.float32, False),
        # Nemotron-H's routed-expert layers (E; Nemotron 3 Nano's): 8
        # relu² experts of 32 rows (up and down, no gate) in 2 groups, the
        # best group open, the top 2 of σ(logit) + the selection bias,
        # renormalised and × 2.5, with a relu² shared expert of 48 rows.
        # The second (Nemotron 3 Super's form) runs the routed experts in
        # a latent of 24 (fc1_latent_proj, fc2_latent_proj).
        ("nemotron_h_moe", "NemotronHForCausalLM", "NemotronHConfig", *nemotron_h_moe(hybrid_override_pattern="ME*E")),
        ("nemotron_h_latent", "NemotronHForCausalLM", "NemotronHConfig", *nemotron_h_moe(
            hybrid_override_pattern="E*ME", moe_latent_size=24)),
        # Falcon-H1: attention and a Mamba-2 mixer in parallel in every
        # layer, then a SwiGLU MLP; µP multipliers on every path (the
        # published models' are far from 1, as here). The second with the
        # mixer's gated RMSNorm by group, gated before the norm.
        ("falcon_h1", "FalconH1ForCausalLM", "FalconH1Config", *falcon_h1(mamba_rms_norm=False, mamba_n_groups=1)),
        # Zamba2 (stop 72): two shared blocks with attention adapters and
        # rope; one block without either (Zamba2-1.2B's and -2.7B's forms).
        ("zamba2", "Zamba2ForCausalLM", "Zamba2Config", *zamba2(
            num_mem_blocks=2, use_shared_attention_adapter=True, use_mem_rope=True)),
        ("zamba2_one", "Zamba2ForCausalLM", "Zamba2Config", *zamba2(
            num_mem_blocks=1, use_shared_attention_adapter=False, use_mem_rope=False)),
        ("falcon_h1_norm", "FalconH1ForCausalLM", "FalconH1Config", *falcon_h1(
            mamba_rms_norm=True, mamba_norm_before_gate=False, mamba_n_groups=2)),
        ("qwen3_5", "Qwen3_5ForCausalLM", "Qwen3_5TextConfig", dict(
            COMMON, **GDN,
            tie_word_embeddings=True,
            layer_types=HYBRID_LAYERS,
            rope_parameters=dict(rope_type="default", rope_theta=10000000.0, partial_rotary_factor=0.25,
                                 mrope_section=[11, 11, 10], mrope_interleaved=True),
        ), torch.bfloat16, True),
        ("qwen3_next", "Qwen3NextForCausalLM", "Qwen3NextConfig", dict(
            COMMON, **GDN,
            tie_word_embeddings=False,
            layer_types=HYBRID_LAYERS,
            rope_parameters=dict(rope_type="default", rope_theta=10000000.0, partial_rotary_factor=0.5),
            **MOE,
            shared_expert_intermediate_size=48,
            norm_topk_prob=True,
            mlp_only_layers=[],
        ), torch.bfloat16, True),
    ]


def make_config(cls, kw):
    """Builds the config; older 5.x releases spelled the rope fields rope_theta/rope_scaling."""
    try:
        # A copy: a config class may fill in the rope dict it is given,
        # which the retry below must not see.
        return cls(**copy.deepcopy(kw))
    except Exception as first:  # retried with the older spelling below
        if "rope_parameters" not in kw:
            raise
        kw = dict(kw)
        rp = dict(kw.pop("rope_parameters"))
        if "full_attention" in rp:
            # Gemma 3's rope keyed by layer type: the older fields are the
            # global rope (rope_theta, rope_scaling) and the sliding
            # layers' base (rope_local_base_freq).
            kw["rope_local_base_freq"] = rp["sliding_attention"]["rope_theta"]
            rp = dict(rp["full_attention"])
        kw["rope_theta"] = rp.pop("rope_theta")
        if "partial_rotary_factor" in rp:
            kw["partial_rotary_factor"] = rp.pop("partial_rotary_factor")
        if rp.get("rope_type", "default") != "default":
            kw["rope_scaling"] = rp
        try:
            return cls(**kw)
        except Exception:
            raise first


def init_weights(model, zero_centred):
    """Draws every weight with the fixed seed: linear, embedding, router and
    expert weights N(0, STD); norm weights around their neutral value (1, or
    0 for the zero-centred `1 + w` norms); the delta net's decay parameters
    so that exp(g) stays in (0.3, 1) and the state carries across tokens; the
    conv1d taps N(0, 0.3), so the short convolution is not negligible."""
    torch.manual_seed(SEED)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("A_log"):
                p.copy_(torch.log(torch.empty_like(p).uniform_(0.05, 1.0)))
            elif name.endswith("dt_bias"):
                p.copy_(1.0 + STD * torch.randn_like(p))
            elif name.endswith("conv1d.weight"):
                p.copy_(0.3 * torch.randn_like(p))
            elif name.endswith("norm.weight") or name.endswith("layernorm.weight") or ("_layernorm.norms." in name and name.endswith(".weight")):
                centred = zero_centred and not name.endswith("linear_attn.norm.weight")
                base = 0.0 if centred else 1.0
                p.copy_(base + STD * torch.randn_like(p))
            else:
                p.copy_(STD * torch.randn_like(p))
        # DeepSeek-V3-style routers' selection bias is a buffer (GLM-4.5,
        # LFM2-MoE's expert_bias): drawn too, so that the fixture sees it.
        for name, b in model.named_buffers():
            if name.endswith("e_score_correction_bias") or name.endswith("expert_bias"):
                b.copy_(0.1 * torch.randn_like(b))


def load(cls, path, dtype, device, moe):
    # Gemma 2 soft-caps its scores, which only the eager attention does;
    # gpt-oss's sinks are eager's only.
    attn = "eager" if cls.__name__.startswith(("Gemma2", "GptOss", "Mamba", "FalconMamba")) else "sdpa"
    kw = dict(attn_implementation=attn)
    if moe:
        # The eager experts loop runs in any dtype; grouped matmuls do not
        # take float64.
        kw["experts_implementation"] = "eager"
    m = None
    for attempt in (dict(kw, dtype=dtype), dict(kw, torch_dtype=dtype),
                    dict(attn_implementation=attn, dtype=dtype)):
        try:
            m = cls.from_pretrained(path, **attempt)
            break
        except (TypeError, ValueError, KeyError) as e:
            err = e
    if m is None:
        raise err
    if moe and getattr(m.config, "_experts_implementation", None) not in (None, "eager"):
        m.config._experts_implementation = "eager"
    return m.to(device).eval()


def forward_full(model, tokens, device, routes=None):
    """Runs the full pass; with routes (a dict), records each MoE router's
    chosen experts per token, by layer, for locating a routing disagreement."""
    ids = torch.tensor([tokens], device=device)
    hooks = []
    if routes is not None:
        for name, mod in model.named_modules():
            if name.endswith("mlp.gate") and hasattr(mod, "top_k"):
                def hook(_m, _inp, out, name=name):
                    try:
                        routes[name] = [[int(i) for i in row] for row in out[2].cpu()]
                    except Exception as e:  # only a debugging aid: never fail the pass
                        routes[name] = repr(e)
                hooks.append(mod.register_forward_hook(hook))
    try:
        with torch.no_grad():
            out = model(ids, use_cache=False, output_hidden_states=True)
    finally:
        for h in hooks:
            h.remove()
    hidden = None
    try:
        hidden = torch.stack([h[0] for h in out.hidden_states])  # [L+1, T, H]
    except Exception:  # only a debugging aid
        pass
    return out.logits[0], hidden


def forward_incremental(model, tokens, device):
    """Decodes one token at a time with transformers' cache: Mamba's and
    Mamba-2's models take it as cache_params (with the token's position),
    the hybrids of Mamba and attention as a HybridMambaAttentionDynamicCache
    made up front (their prepare_inputs_for_generation does that), the
    others as past_key_values."""
    ids = torch.tensor([tokens], device=device)
    params = inspect.signature(model.forward).parameters
    ssm = "cache_params" in params and "past_key_values" not in params
    steps = []
    past = None
    hybrid = getattr(sys.modules[type(model).__module__], "HybridMambaAttentionDynamicCache", None)
    if hybrid is not None and not ssm:
        past = hybrid(model.config, 1, dtype=model.dtype, device=device)
    with torch.no_grad():
        for t in range(len(tokens)):
            if ssm:
                kw = dict(cache_params=past)
                if "cache_position" in params:
                    kw["cache_position"] = torch.tensor([t], device=device)
                out = model(ids[:, t:t + 1], use_cache=True, **kw)
                past = out.cache_params
            else:
                out = model(ids[:, t:t + 1], past_key_values=past, use_cache=True)
                past = out.past_key_values
            steps.append(out.logits[0, -1])
    return torch.stack(steps)


def rel(a, b):
    a, b = a.double().cpu(), b.double().cpu()
    return float((a - b).abs().max() / b.abs().max())


def save_reference(d, full, hidden, report):
    """Writes the full pass's logits (reference.npy) and hidden states
    (hidden.npy) into d, and their arg-max, least top-2 gap and largest
    logit into the report."""
    np.save(os.path.join(d, "reference.npy"), full.detach().cpu().numpy().astype(np.float32))
    if hidden is not None:
        np.save(os.path.join(d, "hidden.npy"), hidden.detach().cpu().numpy().astype(np.float32))
    top2 = torch.topk(full.double(), 2, dim=-1).values
    report["argmax"] = [int(x) for x in full.argmax(-1).cpu()]
    report["min_top2_gap"] = float((top2[:, 0] - top2[:, 1]).min().cpu())
    report["max_abs_logit"] = float(full.abs().max().cpu())


def save_incremental(m, d, full, device, report):
    """Decodes the tokens one at a time with transformers' cache and, where
    that agrees with the full pass, writes the logits (incremental.npy)
    and how far they are from the full pass into the report."""
    inc = forward_incremental(m, TOKENS, device)
    # A cache that did not carry the state from token to token (a
    # model whose cache this script makes wrongly) is not a reference.
    if rel(inc, full) > 1e-3:
        raise RuntimeError(f"incremental decoding differs from the full pass by {rel(inc, full):.3g}: not saved")
    # One token at a time, as a decode step runs: differs from the
    # full pass where a rope's factors depend on the sequence's length
    # (phi3_longrope_long).
    np.save(os.path.join(d, "incremental.npy"), inc.detach().cpu().numpy().astype(np.float32))
    report["incremental_vs_full_max_abs"] = float((inc.double() - full.double()).abs().max().cpu())
    report["incremental_vs_full_rel"] = rel(inc, full)
    report["incremental_argmax_equal"] = bool((inc.argmax(-1) == full.argmax(-1)).all())


def make_one(name, cls_name, cfg_name, kw, store_dtype, zero_centred, out, device):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    cls = getattr(transformers, cls_name)
    cfg_cls = getattr(transformers, cfg_name)
    moe = any(k in kw or k in kw.get("text_config", {}) for k in ("num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts"))
    config = make_config(cfg_cls, kw)
    if cls_name.startswith("GptOss"):
        config._attn_implementation = "eager"  # its sinks have no sdpa form
    model = cls(config)
    init_weights(model, zero_centred)
    model = model.to(store_dtype)
    # Llama is saved in shards, so the importer's index.json path is
    # exercised with files transformers wrote.
    shard = "100KB" if name == "llama" else "50GB"
    model.save_pretrained(d, max_shard_size=shard)
    del model

    report = dict(arch=cls_name, tokens=TOKENS, seed=SEED, std=STD, storage_dtype=str(store_dtype),
                  torch=torch.__version__, transformers=transformers.__version__,
                  python=platform.python_version(), device=device)
    if device.startswith("cuda"):
        report["device_name"] = torch.cuda.get_device_name(0)

    ref_dtype = torch.float64
    routes = {} if moe else None
    try:
        m = load(cls, d, torch.float64, device, moe)
        full, hidden = forward_full(m, TOKENS, device, routes)
    except Exception as e:  # grouped experts without float64: fall back as the issue expects
        if not moe:
            raise
        report["float64_error"] = repr(e)
        ref_dtype = torch.float32
        m = load(cls, d, torch.float32, device, moe)
        full, hidden = forward_full(m, TOKENS, device, routes)
    report["reference_dtype"] = str(ref_dtype)
    # The reference is written first: every later step only adds to the
    # report, and its failure is recorded there instead of losing the rest.
    save_reference(d, full, hidden, report)
    if routes:
        report["router_indices"] = routes

    def step(label, fn):
        try:
            fn()
        except Exception:
            report[label + "_error"] = traceback.format_exc()

    def implementations():
        report["attn_implementation"] = m.config._attn_implementation
        if moe:
            report["experts_implementation"] = getattr(m.config, "_experts_implementation", None)

    def incremental():
        save_incremental(m, d, full, device, report)

    def cpu():
        mc = load(cls, d, ref_dtype, "cpu", moe)
        full_cpu, _ = forward_full(mc, TOKENS, "cpu")
        report["cpu_vs_device_rel"] = rel(full_cpu, full)

    step("implementations", implementations)
    step("incremental", incremental)
    if device != "cpu":
        step("cpu", cpu)

    def tensors():
        from safetensors import safe_open
        names = {}
        for f in sorted(os.listdir(d)):
            if f.endswith(".safetensors"):
                with safe_open(os.path.join(d, f), framework="pt") as st:
                    for k in st.keys():
                        sl = st.get_slice(k)
                        names[k] = [f, sl.get_dtype(), list(sl.get_shape())]
        report["tensors"] = names

    step("tensors", tensors)
    with open(os.path.join(d, "fixture.json"), "w") as fh:
        json.dump(report, fh, indent=1, sort_keys=True)
    print(f"{name}: ok: ref {report['reference_dtype']}, incremental vs full rel {report.get('incremental_vs_full_rel')}, "
          f"cpu vs device rel {report.get('cpu_vs_device_rel')}, argmax {report['argmax']}, "
          f"errors {[k for k in report if k.endswith('_error')]}", flush=True)


# Kimi Linear as Moonshot publishes it (configuration_kimi.py's fields):
# layers 1, 2 and 4 (1-based) Kimi delta attention of 4 heads of 16, layer
# 3 latent attention without rope, layer 0 dense, 8 experts (top 2, one
# group) beside a shared one. transformers 5.17's KimiLinearConfig reads
# these fields too.
KIMI_LINEAR = dict(
    vocab_size=256, hidden_size=64, intermediate_size=96, num_hidden_layers=4, num_attention_heads=4,
    num_key_value_heads=4, head_dim=16, hidden_act="silu", rms_norm_eps=1e-5, tie_word_embeddings=False,
    rope_theta=10000.0, rope_scaling=None, model_max_length=512, bos_token_id=1, eos_token_id=2, pad_token_id=0,
    linear_attn_config=dict(kda_layers=[1, 2, 4], full_attn_layers=[3], num_heads=4, head_dim=16, short_conv_kernel_size=4),
    q_lora_rank=None, kv_lora_rank=16, qk_nope_head_dim=8, qk_rope_head_dim=8, v_head_dim=12, mla_use_nope=True,
    num_experts=8, num_experts_per_token=2, num_shared_experts=1, moe_intermediate_size=32,
    moe_router_activation_func="sigmoid", moe_renormalize=True, routed_scaling_factor=2.446,
    first_k_dense_replace=1, moe_layer_freq=1, use_grouped_topk=True, num_expert_group=1, topk_group=1,
    num_nextn_predict_layers=0,
)


def kimi_published(model):
    """transformers 5.17's KimiLinearForCausalLM state dict under the names
    Moonshot publishes: the packed conv split into q_conv1d, k_conv1d and
    v_conv1d; the forget gate's tensors under self_attn; the routed
    layers' mlp as block_sparse_moe, its fused experts per expert (w1 the
    gate, w3 up, w2 down)."""
    import re
    out = {}
    for name, v in model.state_dict().items():
        v = v.detach().to(torch.float32).contiguous()
        m = re.match(r"(model\.layers\.\d+\.)(.*)$", name)
        if not m:
            out[name] = v
            continue
        p, rest = m.groups()
        if rest == "self_attn.conv1d.weight":
            for part, x in zip(v.chunk(3, 0), "qkv"):
                out[p + f"self_attn.{x}_conv1d.weight"] = part.contiguous()
        elif rest.startswith("self_attn.forget_gate."):
            out[p + "self_attn." + rest[len("self_attn.forget_gate."):]] = v
        elif rest == "mlp.experts.gate_up_proj":
            for e in range(v.shape[0]):
                gate, up = v[e].chunk(2, 0)
                out[p + f"block_sparse_moe.experts.{e}.w1.weight"] = gate.contiguous()
                out[p + f"block_sparse_moe.experts.{e}.w3.weight"] = up.contiguous()
        elif rest == "mlp.experts.down_proj":
            for e in range(v.shape[0]):
                out[p + f"block_sparse_moe.experts.{e}.w2.weight"] = v[e].contiguous()
        elif rest.startswith("mlp.gate.") or rest.startswith("mlp.shared_experts."):
            out[p + "block_sparse_moe." + rest[len("mlp."):]] = v
        else:
            out[name] = v
    return out


def make_kimi_linear(out, device):
    """The kimi_linear fixture: a tiny KimiLinearForCausalLM built by
    transformers (5.17 has the model), its weights drawn as the others',
    saved under Moonshot's published names with Moonshot's config.json (what
    rlx reads), and transformers' logits as the reference. The same
    directory is then loaded back with from_pretrained, so the renaming is
    checked against transformers' own reading of the published form where
    it can read it (published_reload_rel, or its error)."""
    from safetensors.torch import save_file
    d = os.path.join(out, "kimi_linear")
    os.makedirs(d, exist_ok=True)
    cfg = transformers.KimiLinearConfig(**copy.deepcopy(KIMI_LINEAR))
    model = transformers.KimiLinearForCausalLM(cfg)
    init_weights(model, False)
    save_file(kimi_published(model), os.path.join(d, "model.safetensors"), metadata={"format": "pt"})
    # What transformers itself saves (its own names, or the published ones
    # back): in OUT/kimi_linear_tf5, for rlx to read too where they differ.
    tf5 = os.path.join(out, "kimi_linear_tf5")
    try:
        model.save_pretrained(tf5)
    except Exception:
        os.makedirs(tf5, exist_ok=True)
        with open(os.path.join(tf5, "error.txt"), "w") as fh:
            fh.write(traceback.format_exc())
    published = dict(KIMI_LINEAR, architectures=["KimiLinearForCausalLM"], model_type="kimi_linear",
                     transformers_version=transformers.__version__)
    with open(os.path.join(d, "config.json"), "w") as fh:
        json.dump(published, fh, indent=2, sort_keys=True)
    # grouped_mm takes no float64 (run 56b): the eager experts loop, as load() sets it.
    model.config._experts_implementation = "eager"
    m = model.to(torch.float64).to(device).eval()
    report = dict(arch="KimiLinearForCausalLM", tokens=TOKENS, seed=SEED, std=STD, storage_dtype="torch.float32",
                  reference_dtype="torch.float64", torch=torch.__version__, transformers=transformers.__version__,
                  python=platform.python_version(), device=device)
    full, hidden = forward_full(m, TOKENS, device)
    save_reference(d, full, hidden, report)
    try:
        save_incremental(m, d, full, device, report)
    except Exception:
        report["incremental_error"] = traceback.format_exc()
    try:
        again = load(transformers.KimiLinearForCausalLM, d, torch.float64, device, True)
        back, _ = forward_full(again, TOKENS, device)
        report["published_reload_rel"] = rel(back, full)
    except Exception:
        report["published_reload_error"] = traceback.format_exc()
    with open(os.path.join(d, "fixture.json"), "w") as fh:
        json.dump(report, fh, indent=1, sort_keys=True)
    print(f"kimi_linear: ok: argmax {report['argmax']}, incremental vs full rel {report.get('incremental_vs_full_rel')}, "
          f"published reload rel {report.get('published_reload_rel')}, errors {[k for k in report if k.endswith('_error')]}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    # Full float32 matmuls and convolutions on the GPU: no TF32.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    print(f"torch {torch.__version__}, transformers {transformers.__version__}, device {args.device}", flush=True)
    failed = 0
    for name, cls_name, cfg_name, kw, dt, zc in specs():
        if args.only and name not in args.only:
            continue
        try:
            make_one(name, cls_name, cfg_name, kw, dt, zc, args.out, args.device)
            if share(args.out, name):
                print(f"{name}: weights shared with its base (share_weights.py)", flush=True)
        except Exception:
            failed += 1
            os.makedirs(os.path.join(args.out, name), exist_ok=True)
            with open(os.path.join(args.out, name, "error.txt"), "w") as fh:
                fh.write(traceback.format_exc())
            print(f"{name}: FAILED\n{traceback.format_exc()}", flush=True)
    if not args.only or "kimi_linear" in args.only:
        try:
            make_kimi_linear(args.out, args.device)
        except Exception:
            failed += 1
            os.makedirs(os.path.join(args.out, "kimi_linear"), exist_ok=True)
            with open(os.path.join(args.out, "kimi_linear", "error.txt"), "w") as fh:
                fh.write(traceback.format_exc())
            print(f"kimi_linear: FAILED\n{traceback.format_exc()}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
