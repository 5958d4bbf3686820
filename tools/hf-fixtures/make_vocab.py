#!/usr/bin/env python3
"""Makes the vocabularies that runtime/vocab's decoding is tested against.

Two tokenizers are trained with Hugging Face's `tokenizers` library on a
small multilingual text (no network): a byte-level BPE as Qwen's and
Llama 3's tokenizer.json describe theirs (ByteLevel pre-tokeniser and
decoder), and a SentencePiece-style BPE as Llama 2's and Mistral's do
(byte fallback, "▁" for spaces, a prefix space, and the decoder sequence
Replace, ByteFallback, Fuse, Strip). Each gets special tokens. Then 200
random id sequences (specials and byte pieces among them) are decoded by
the library with skip_special_tokens=False, and ids with the texts are
written beside tokenizer.json as decoded.json.

Usage: python3 make_vocab.py --out DIR   (writes DIR/bytelevel, DIR/spm)
It needs `tokenizers` (which transformers installs); nothing else.
"""

import argparse
import json
import os
import random

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

TEXT = [
    "The quick brown fox jumps over the lazy dog.",
    "Grüße aus München! Ça va très bien, merci.",
    "数学是科学的语言。 日本語のテキストも少し。",
    "def f(x):\n    return x * 2  # tabs\tand  double  spaces",
    "Emoji: 🙂🚀 and accents: naïve café résumé.",
    "Numbers 12345 67890, punctuation ?!;:()[]{}.",
] * 20

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def bytelevel():
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=SPECIALS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(TEXT, trainer)
    # Added tokens that are not GPT-2's spelling: one with a space (its
    # own UTF-8) and one of a single rune the table maps to a byte.
    tok.add_tokens(["naïve café", "é"])
    return tok


def spm():
    tok = Tokenizer(models.BPE(byte_fallback=True, unk_token="<unk>"))
    tok.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    tok.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(),
                                     decoders.Strip(" ", 1, 0)])
    bytes_ = [f"<0x{b:02X}>" for b in range(256)]
    trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=["<unk>", "<s>", "</s>"] + bytes_,
                                  limit_alphabet=200)
    tok.train_from_iterator(TEXT, trainer)
    tok.add_tokens(["▁hi there"])
    return tok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(7)
    for name, make in [("bytelevel", bytelevel), ("spm", spm)]:
        tok = make()
        d = os.path.join(args.out, name)
        os.makedirs(d, exist_ok=True)
        tok.save(os.path.join(d, "tokenizer.json"))
        n = tok.get_vocab_size(with_added_tokens=True)
        cases = []
        # Real text, encoded and decoded, then random sequences.
        for t in TEXT[:6]:
            ids = tok.encode(t).ids
            cases.append({"ids": ids, "text": tok.decode(ids, skip_special_tokens=False)})
        for _ in range(200):
            ids = [rng.randrange(n) for _ in range(rng.randrange(1, 12))]
            cases.append({"ids": ids, "text": tok.decode(ids, skip_special_tokens=False)})
        import tokenizers
        with open(os.path.join(d, "decoded.json"), "w") as f:
            json.dump({"tokenizers": tokenizers.__version__, "vocab_size": n, "cases": cases}, f,
                      ensure_ascii=False, indent=0)
        print(name, n, "tokens,", len(cases), "cases")


if __name__ == "__main__":
    main()
