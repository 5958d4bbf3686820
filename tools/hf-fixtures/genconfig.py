#!/usr/bin/env python3
"""Records how transformers' generate samples by a checkpoint's own
generation_config.json (no sampling arguments given), for rlx-run
--generation-config to be checked against.

A tiny random Llama (vocabulary 96, more than the top-k of 50 that
transformers has applied by default, float32) is saved with each of a few
generation_config.json files (Qwen3's, Llama 3's, one with min_p and a
repetition penalty, one greedy with a penalty, one with do_sample and
nothing else, so transformers' defaults apply), loaded back, and asked to
generate 6 tokens after a 5-token prompt with only output flags. For
every step it keeps the raw logits, the sequence so far, the softmax of
the scores generate drew from, and the token. Written to OUT as JSON,
with each config file's text.

Usage: python3 genconfig.py --out genconfig.json
It needs torch and transformers; nothing else, no network.
"""

import argparse
import json
import os
import tempfile

import torch
import transformers
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM

CONFIGS = {
    "qwen3": {"do_sample": True, "temperature": 0.6, "top_k": 20, "top_p": 0.95},
    "llama3": {"do_sample": True, "temperature": 0.6, "top_p": 0.9},
    "minp_penalty": {"do_sample": True, "temperature": 1.2, "top_k": 0, "min_p": 0.1, "repetition_penalty": 1.3},
    "greedy_penalty": {"do_sample": False, "repetition_penalty": 1.5},
    "defaults": {"do_sample": True},
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    torch.manual_seed(9)
    config = LlamaConfig(vocab_size=96, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=64)
    model = LlamaForCausalLM(config).float().eval()
    with torch.no_grad():
        model.lm_head.weight.mul_(40)
    cases = []
    for name, gc in CONFIGS.items():
        with tempfile.TemporaryDirectory() as d:
            model.save_pretrained(d)
            text = json.dumps(dict(gc, bos_token_id=1, eos_token_id=2))
            with open(os.path.join(d, "generation_config.json"), "w") as f:
                f.write(text)
            m = AutoModelForCausalLM.from_pretrained(d, dtype=torch.float32).eval()
            for seed in range(3):
                torch.manual_seed(seed)
                prompt = torch.randint(3, 96, (1, 5))
                out = m.generate(prompt, max_new_tokens=6, output_scores=True, output_logits=True,
                                 return_dict_in_generate=True, pad_token_id=0)
                seq = [int(x) for x in out.sequences[0]]
                steps = [{"tokens": seq[:5 + s], "logits": [float(x) for x in raw[0]],
                          "probs": [float(x) for x in sc[0].float().softmax(-1)], "next": seq[5 + s]}
                         for s, (raw, sc) in enumerate(zip(out.logits, out.scores))]
                cases.append({"name": name, "generation_config": text, "steps": steps,
                              "effective": {k: getattr(m.generation_config, k) for k in
                                            ("do_sample", "temperature", "top_k", "top_p", "min_p",
                                             "repetition_penalty")}})
    with open(args.out, "w") as f:
        json.dump({"transformers": transformers.__version__, "cases": cases}, f)
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
