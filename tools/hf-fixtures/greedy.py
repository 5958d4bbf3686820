#!/usr/bin/env python3
"""Records transformers' greedy continuation of the fixtures, for
rlx-run --generate to be checked against.

For each fixture directory that holds its own weights (DIR/<name>/ with
config.json and safetensors, as make_fixtures.py wrote them), the model
is loaded as make_fixtures.py loads it (float64, eager experts, eager
attention for Gemma 2) and `generate` runs greedily (do_sample=False, a
fresh GenerationConfig: no end-of-sequence token, no logits processors)
from the prompt 1, 17, 42 for 8 new tokens. Written to OUT (JSON): per
fixture the prompt, the new tokens, and the smallest gap between the top
two logits over the new tokens' steps (a near-tie would let f32 and
float64 choose differently).

Usage: python3 greedy.py --fixtures models/importer/testdata/hf --out greedy.json
It needs torch and transformers; nothing else, no network.
"""

import argparse
import json
import os
import sys

import torch
import transformers

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_fixtures import load  # noqa: E402

PROMPT = [1, 17, 42]
NEW = 8


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    res = {"transformers": transformers.__version__, "torch": torch.__version__, "device": device,
           "prompt": PROMPT, "new_tokens": NEW, "fixtures": {}}
    for name in sorted(os.listdir(args.fixtures)):
        d = os.path.join(args.fixtures, name)
        files = os.listdir(d) if os.path.isdir(d) else []
        if "config.json" not in files or not any(f.endswith(".safetensors") or f.endswith(".index.json") for f in files):
            continue
        try:
            cfg = json.load(open(os.path.join(d, "config.json")))
            arch = cfg["architectures"][0]
            cls = getattr(transformers, arch)
            moe = any(k in cfg or k in cfg.get("text_config", {}) for k in ("num_experts", "num_local_experts"))
            m = load(cls, d, torch.float64, device, moe)
            gc = transformers.GenerationConfig(do_sample=False, max_new_tokens=NEW, eos_token_id=None,
                                               pad_token_id=0, output_scores=True, return_dict_in_generate=True)
            ids = torch.tensor([PROMPT], device=device)
            with torch.no_grad():
                out = m.generate(ids, attention_mask=torch.ones_like(ids), generation_config=gc)
            new = [int(t) for t in out.sequences[0, len(PROMPT):]]
            gaps = [float((lambda v: v[0] - v[1])(torch.topk(s[0].double(), 2).values)) for s in out.scores]
            res["fixtures"][name] = {"arch": arch, "tokens": new, "min_top2_gap": min(gaps)}
            print(name, new, f"gap {min(gaps):.2e}", flush=True)
        except Exception as e:  # one fixture's failure does not stop the others
            res["fixtures"][name] = {"error": repr(e)}
            print(name, "error", repr(e), flush=True)
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
