#!/usr/bin/env python3
"""Makes qwen3_fp8: a tiny Qwen3ForCausalLM in transformers' fine-grained FP8.

The qwen3 fixture's model (make_fixtures.py's spec, its seed) is drawn
again, each projection matrix of its layers (q, k, v, o, gate, up, down)
stored as torch.float8_e4m3fn codes with weight_scale_inv in blocks of
48×40 (so that both dims end in partial blocks: DeepSeek's checkpoints use
128×128), each block's scale its largest magnitude / 448, as DeepSeek's
and Qwen's FP8 checkpoints hold them, with quantization_config
{quant_method fp8, fmt e4m3, activation_scheme dynamic,
weight_block_size}. The reference is the model whose matrices are the
dequantised weights (code × scale in float32, rounded to bfloat16, as
transformers' dequantize option loads them), run in float64 on the
device; transformers' own loading of the FP8 checkpoint with
FineGrainedFP8Config(dequantize=True) is tried too and its distance from
the reference recorded (fixture.json: transformers_dequantize_rel or its
error).

Usage: python3 fp8_fixture.py --out DIR   (writes DIR/qwen3_fp8)
"""

import argparse
import json
import os
import platform
import traceback

import numpy as np
import torch
import transformers

import make_fixtures as mf

BLOCK = (48, 40)
PROJ = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


def quantise(w):
    """Returns the float8_e4m3fn codes, the float32 scales and the
    dequantised matrix (float32 × scale, rounded to bfloat16) of w."""
    r, c = w.shape
    br, bc = -(-r // BLOCK[0]), -(-c // BLOCK[1])
    w = w.float()
    scales = torch.zeros(br, bc)
    for i in range(br):
        for j in range(bc):
            blk = w[i * BLOCK[0]:(i + 1) * BLOCK[0], j * BLOCK[1]:(j + 1) * BLOCK[1]]
            scales[i, j] = blk.abs().max() / 448
    full = scales.repeat_interleave(BLOCK[0], 0)[:r].repeat_interleave(BLOCK[1], 1)[:, :c]
    codes = (w / full).to(torch.float8_e4m3fn)
    deq = (codes.float() * full).to(torch.bfloat16)
    return codes, scales, deq


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    torch.manual_seed(mf.SEED)
    spec = next(s for s in mf.specs() if s[0] == "qwen3")
    _, cls_name, cfg_name, kw, _, zero_centred = spec
    cls, cfg_cls = getattr(transformers, cls_name), getattr(transformers, cfg_name)
    model = cls(mf.make_config(cfg_cls, kw))
    mf.init_weights(model, zero_centred)
    model = model.float()

    d = os.path.join(args.out, "qwen3_fp8")
    os.makedirs(d, exist_ok=True)
    # The reference model: the dequantised matrices in place of the drawn.
    state, stored = {}, {}
    for name, t in model.state_dict().items():
        if name.endswith(".weight") and any(p in name for p in PROJ):
            codes, scales, deq = quantise(t)
            stored[name], stored[name + "_scale_inv"] = codes, scales
            state[name] = deq.float()
        else:
            state[name] = t
            stored[name] = t.contiguous()
    model.load_state_dict(state)
    model.save_pretrained(d)  # config.json (and weights, replaced below)
    for f in os.listdir(d):
        if f.endswith(".safetensors") or f.endswith(".index.json"):
            os.remove(os.path.join(d, f))
    from safetensors.torch import save_file
    if "lm_head.weight" in stored and model.config.tie_word_embeddings:
        del stored["lm_head.weight"]
    save_file(stored, os.path.join(d, "model.safetensors"))
    with open(os.path.join(d, "config.json")) as fh:
        cfg = json.load(fh)
    cfg["quantization_config"] = dict(quant_method="fp8", fmt="e4m3", activation_scheme="dynamic",
                                      weight_block_size=list(BLOCK))
    with open(os.path.join(d, "config.json"), "w") as fh:
        json.dump(cfg, fh, indent=2, sort_keys=True)

    report = dict(arch=cls_name, tokens=mf.TOKENS, seed=mf.SEED, std=mf.STD, storage_dtype="float8_e4m3fn",
                  block=list(BLOCK), torch=torch.__version__, transformers=transformers.__version__,
                  python=platform.python_version(), device=args.device, reference_dtype="torch.float64")
    if args.device.startswith("cuda"):
        report["device_name"] = torch.cuda.get_device_name(0)
    ref = model.to(torch.float64).to(args.device).eval()
    full, hidden = mf.forward_full(ref, mf.TOKENS, args.device)
    np.save(os.path.join(d, "reference.npy"), full.detach().cpu().numpy().astype(np.float32))
    inc = mf.forward_incremental(ref, mf.TOKENS, args.device)
    np.save(os.path.join(d, "incremental.npy"), inc.detach().cpu().numpy().astype(np.float32))
    report["incremental_vs_full_rel"] = mf.rel(inc, full)
    report["argmax"] = [int(x) for x in full.argmax(-1).cpu()]
    report["max_abs_logit"] = float(full.abs().max().cpu())
    top2 = torch.topk(full.double(), 2, dim=-1).values
    report["min_top2_gap"] = float((top2[:, 0] - top2[:, 1]).min().cpu())
    try:
        q = transformers.FineGrainedFP8Config(dequantize=True)
        tm = cls.from_pretrained(d, quantization_config=q, dtype=torch.bfloat16).to(args.device).eval()
        report["transformers_dequantize_dtype"] = str(next(tm.parameters()).dtype)
        tm = tm.to(torch.float64)
        tfull, _ = mf.forward_full(tm, mf.TOKENS, args.device)
        report["transformers_dequantize_rel"] = mf.rel(tfull, full)
        np.save(os.path.join(d, "transformers.npy"), tfull.detach().cpu().numpy().astype(np.float32))
    except Exception:
        report["transformers_dequantize_error"] = traceback.format_exc()
    with open(os.path.join(d, "fixture.json"), "w") as fh:
        json.dump(report, fh, indent=1, sort_keys=True)
    print(f"qwen3_fp8: ok: transformers dequantize rel {report.get('transformers_dequantize_rel')}, "
          f"errors {[k for k in report if k.endswith('_error')]}", flush=True)
    if "transformers_dequantize_error" in report:
        print(report["transformers_dequantize_error"][-1500:])


if __name__ == "__main__":
    main()
