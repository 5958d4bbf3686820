#!/usr/bin/env python3
"""Records what transformers' generate draws each token with, for
runtime/decode's Sampling to be checked against it end to end: the
repetition penalty over the whole sequence, then temperature, top-k,
top-p and min-p in generate's own order.

A tiny random Llama (vocabulary 48, float32) generates 10 tokens after a
6-token prompt under 60 settings (do_sample=True: temperature, top_k,
top_p, min_p, repetition_penalty; and 10 greedy ones with a repetition
penalty). For every step it keeps the model's raw logits (output_logits),
the sequence so far and the softmax of the scores generate sampled from
(output_scores: after every processor and warper). Written to OUT as JSON.

Usage: python3 sampling.py --out sampling.json
It needs torch and transformers; nothing else, no network.
"""

import argparse
import json
import random

import torch
import transformers
from transformers import LlamaConfig, LlamaForCausalLM


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(5)
    torch.manual_seed(5)
    config = LlamaConfig(vocab_size=48, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=64)
    model = LlamaForCausalLM(config).float().eval()
    with torch.no_grad():  # logits of a few units, so that the warpers bite
        model.lm_head.weight.mul_(40)
    cases = []
    for i in range(70):
        prompt = [rng.randrange(48) for _ in range(6)]
        if i < 60:
            settings = {
                "do_sample": True,
                "temperature": rng.choice([0.5, 1.0, 1.7]),
                "top_k": rng.choice([0, 5, 20]),
                "top_p": rng.choice([1.0, 0.9, 0.6]),
                "min_p": rng.choice([None, 0.05, 0.3]),
                "repetition_penalty": rng.choice([1.0, 1.3, 0.8, 2.0]),
            }
        else:
            settings = {"do_sample": False, "repetition_penalty": rng.choice([1.3, 0.8, 2.0])}
        torch.manual_seed(100 + i)
        out = model.generate(torch.tensor([prompt]), max_new_tokens=10, eos_token_id=None,
                             pad_token_id=0, output_scores=True, output_logits=True,
                             return_dict_in_generate=True, **settings)
        seq = [int(x) for x in out.sequences[0]]
        steps = []
        for s, (raw, scores) in enumerate(zip(out.logits, out.scores)):
            steps.append({"tokens": seq[:len(prompt) + s], "logits": [float(x) for x in raw[0]],
                          "probs": [float(x) for x in scores[0].float().softmax(-1)],
                          "next": seq[len(prompt) + s]})
        cases.append({"settings": settings, "steps": steps})
    with open(args.out, "w") as f:
        json.dump({"transformers": transformers.__version__, "torch": torch.__version__, "cases": cases}, f)
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
