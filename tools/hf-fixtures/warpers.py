#!/usr/bin/env python3
"""Records transformers' sampling warpers on random logits, for
runtime/decode's Sampling to be checked against.

200 cases: 64 logits (normal, scale 3, float32), a temperature, a top-k and
a top-p; transformers' TemperatureLogitsWarper, TopKLogitsWarper and
TopPLogitsWarper applied in generate's order, then the softmax: the
probabilities each token is drawn with. Written to OUT as JSON.

Usage: python3 warpers.py --out warpers.json
It needs torch and transformers; nothing else, no network.
"""

import argparse
import json
import random

import torch
import transformers
from transformers.generation.logits_process import (TemperatureLogitsWarper, TopKLogitsWarper,
                                                     TopPLogitsWarper)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(11)
    torch.manual_seed(11)
    cases = []
    for _ in range(200):
        logits = (torch.randn(1, 64) * 3).float()
        t = rng.choice([0.3, 0.7, 1.0, 1.5])
        k = rng.choice([0, 1, 5, 20, 64])
        p = rng.choice([1.0, 0.95, 0.9, 0.5, 0.1])
        scores = TemperatureLogitsWarper(t)(None, logits.clone())
        if k:
            scores = TopKLogitsWarper(k)(None, scores)
        if p < 1:
            scores = TopPLogitsWarper(p)(None, scores)
        probs = scores.softmax(-1)[0]
        cases.append({"logits": [float(x) for x in logits[0]], "temperature": t, "top_k": k, "top_p": p,
                      "probs": [float(x) for x in probs]})
    with open(args.out, "w") as f:
        json.dump({"transformers": transformers.__version__, "torch": torch.__version__, "cases": cases}, f)
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
