#!/usr/bin/env python3
"""Records the tokenizers library's decode(ids, skip_special_tokens=True)
for the id sequences of runtime/vocab/testdata/hf/*/decoded.json (real
text and random ids, special and byte tokens among them), for
runtime/vocab's DecodeSkipSpecial and Stream to be checked against it.

Usage: python3 skip_special.py --root . --out skip_special.json
(--root: the repository). It needs tokenizers; nothing else, no network.
"""

import argparse
import datetime
import json
import os

import tokenizers

VOCABS = ["bytelevel", "qwen2", "llama3", "spm", "metaspace", "qwen35", "deepseek3", "smollm", "tekken", "gpt4o"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=".")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    out = {
        "made": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "tokenizers": tokenizers.__version__,
        "vocabs": {},
    }
    for name in VOCABS:
        d = os.path.join(a.root, "runtime", "vocab", "testdata", "hf", name)
        tok = tokenizers.Tokenizer.from_file(os.path.join(d, "tokenizer.json"))
        with open(os.path.join(d, "decoded.json")) as f:
            cases = json.load(f)["cases"]
        out["vocabs"][name] = [{"ids": c["ids"], "text": tok.decode(c["ids"], skip_special_tokens=True)} for c in cases]
    with open(a.out, "w") as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))


if __name__ == "__main__":
    main()
