#!/usr/bin/env python3
"""Makes the vocabularies that runtime/vocab's decoding and encoding are
tested against.

Ten tokenizers are trained with Hugging Face's `tokenizers` library on a
small multilingual text (no network): a byte-level BPE with GPT-2's
pre-tokeniser (ByteLevel with its regex), Qwen2's and Llama 3's (a Split
by their regexes, then ByteLevel without one; Llama 3's with
ignore_merges and a template adding <|begin_of_text|>), and a
SentencePiece-style BPE as Llama 2's and Mistral's tokenizer.json
describe theirs (byte fallback, "▁" for spaces, a prefix space, the
decoder sequence Replace, ByteFallback, Fuse, Strip, a template adding
<s>), and one as Mistral v0.3's (a Metaspace pre-tokeniser and
decoder). Each gets special and added tokens. Then 200 random id sequences
(specials and byte pieces among them) are decoded with
skip_special_tokens=False (decoded.json), and the training text and 200
random strings are encoded with and without the special tokens the
template adds (encoded.json), beside each tokenizer.json.

Usage: python3 make_vocab.py --out DIR [--only NAME...]   (writes DIR/<name>/)
It needs `tokenizers` (which transformers installs); nothing else.
"""

import argparse
import json
import os
import random

from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

TEXT = [
    "The quick brown fox jumps over the lazy dog.",
    "Grüße aus München! Ça va très bien, merci.",
    "数学是科学的语言。 日本語のテキストも少し。",
    "def f(x):\n    return x * 2  # tabs\tand  double  spaces",
    "Emoji: 🙂🚀 and accents: naïve café résumé.",
    "Numbers 12345 67890, punctuation ?!;:()[]{}.",
] * 20

# The later vocabularies' training text adds what their pre-tokenisers
# treat apart (combining marks, kana, numbers of other kinds), so that
# their merges cross what another pre-tokeniser would split.
TEXT2 = TEXT + [
    "Cafe\u0301 na\u0303o e\u0301te\u0301 नमस्ते दुनिया",
    "カタカナとひらがな、漢字かな。2024年12月6日 it's I'M",
    "١٢٣ ½ Ⅻ x² a1b22c333 1234567 — «quoted»",
] * 20

# tekken's and GPT-4o's add words whose case turns inside them.
TEXT3 = TEXT2 + ["camelCaseWord HTTPServer parseJSONValue XMLHttpRequest ÉtéÀlaPlage DON'T It's path/to/file"] * 20

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


QWEN2 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
         r"|\s*[\r\n]+|\s+(?!\S)|\s+")
LLAMA3 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
          r"|\s*[\r\n]+|\s+(?!\S)|\s+")


def split_bytelevel(pattern, ignore_merges=False, bos=None, text=TEXT):
    tok = Tokenizer(models.BPE(ignore_merges=ignore_merges))
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(pattern), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    specials = ([bos] if bos else []) + SPECIALS
    trainer = trainers.BpeTrainer(vocab_size=450, special_tokens=specials,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(text, trainer)
    if bos:
        tok.post_processor = processors.Sequence([
            processors.ByteLevel(trim_offsets=False),
            processors.TemplateProcessing(single=f"{bos} $A", special_tokens=[(bos, tok.token_to_id(bos))])])
    else:
        tok.post_processor = processors.ByteLevel(trim_offsets=False)
    return tok


def qwen2():
    return split_bytelevel(QWEN2)


QWEN35 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*"
          r"|\s*[\r\n]+|\s+(?!\S)|\s+")
DEEPSEEK3 = [r"\p{N}{1,3}", "[一-龥぀-ゟ゠-ヿ]+",
             "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+"
             "| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"]


TEKKEN = (r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
          r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
          r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+")
GPT4O = (r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
         r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
         r"|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+")


def tekken():
    """Mistral Nemo's and Small 3's layout (tekken): letters split at a
    lowercase-to-uppercase turn, digits alone, ignore_merges."""
    return split_bytelevel(TEKKEN, ignore_merges=True, text=TEXT3)


def gpt4o():
    """GPT-4o's (o200k) layout, which gpt-oss and Llama 4 use."""
    return split_bytelevel(GPT4O, text=TEXT3)


def qwen35():
    """Qwen3.5's layout: Qwen2's with combining marks taken with letters."""
    return split_bytelevel(QWEN35, text=TEXT2)


def deepseek3():
    """DeepSeek V3's layout: three Splits (numbers of up to three digits,
    CJK ideographs and kana, the rest), then ByteLevel without its regex."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Split(Regex(p), behavior="isolated", invert=False) for p in DEEPSEEK3]
        + [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=450, special_tokens=SPECIALS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(TEXT2, trainer)
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    return tok


def smollm():
    """SmolLM's (and StarCoder's) layout: each digit alone, then GPT-2's
    ByteLevel with its regex."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True),
                                                 pre_tokenizers.ByteLevel(add_prefix_space=False)])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=450, special_tokens=SPECIALS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(TEXT2, trainer)
    return tok


def llama3():
    return split_bytelevel(LLAMA3, ignore_merges=True, bos="<|begin_of_text|>")


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
    tok.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", tok.token_to_id("<s>"))])
    return tok


def metaspace():
    """Mistral v0.3's layout: no normalizer, a Metaspace pre-tokeniser that
    prepends "▁" at the text's start only, a Metaspace decoder."""
    tok = Tokenizer(models.BPE(byte_fallback=True, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first", split=False)
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="first", split=False)
    bytes_ = [f"<0x{b:02X}>" for b in range(256)]
    trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=["<unk>", "<s>", "</s>"] + bytes_,
                                  limit_alphabet=200)
    tok.train_from_iterator(TEXT, trainer)
    tok.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", tok.token_to_id("<s>"))])
    return tok


FRAGMENTS = ["the", "The", " quick", "fox", "Grüße", "München", "Ça", "très", "数学", "日本語", "🙂", "🚀",
             "naïve café", "é", "hi there", " ", "  ", "   ", "\n", "\n\n", " \n ", "\t", "\r\n",
             "1", "12", "123", "12345", "3.14", "?!", "...", "()", "{}", "'s", "'LL", "'re", "don't",
             "<|im_end|>", "<|im_start|>", "<|endoftext|>", "def", "return", "x * 2", "résumé", "#", "::", "ÿ",
             "\u00a0", "a", "Z", "é🙂é"]


# More fragments for the vocabularies made after the first five (their
# texts only): combining marks, kana, numbers of other scripts and kinds.
EXTRA = ["e\u0301", "n\u0303o", "नमस्ते", "カタカナ", "ひらがな", "漢字かな", "2024", "١٢٣", "½", "Ⅻ", "x²",
         "a1b22c333", "'S", "I'M", "it's", "—", "«»", "\u200d", "👩\u200d💻"]
# And for tekken's and GPT-4o's (case turns inside words, a slash after
# punctuation, contractions after capitals).
EXTRA2 = ["camelCaseWord", "HTTPServer", "aÉb", "ÉTÉ", "Ǆx", "ǅungla", "ʰa", "x/y\n", "!?/\n", "DON'T", "It'S"]


def random_text(rng, frags=FRAGMENTS):
    return "".join(rng.choice(frags) for _ in range(rng.randrange(1, 14)))


# Code point ranges for --many's wider texts: ASCII, Latin-1, Greek,
# Cyrillic, Arabic, Devanagari, combining marks, general punctuation and
# spaces, CJK, kana, Hangul, emoji, controls.
RANGES = [(0x20, 0x7F), (0xA0, 0x100), (0x370, 0x400), (0x400, 0x500), (0x600, 0x700), (0x900, 0x980),
          (0x300, 0x370), (0x2000, 0x2070), (0x4E00, 0x4F00), (0x3040, 0x3100), (0xAC00, 0xAD00),
          (0x1F300, 0x1F700), (0x0, 0x20), (0x3000, 0x3040), (0xFE00, 0xFE10)]


def wide_text(rng):
    parts = []
    for _ in range(rng.randrange(1, 20)):
        if rng.random() < 0.5:
            parts.append(rng.choice(FRAGMENTS + EXTRA))
        else:
            lo, hi = rng.choice(RANGES)
            parts.append("".join(chr(rng.randrange(lo, hi)) for _ in range(rng.randrange(1, 6))))
    return "".join(parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="*", help="make only these vocabularies")
    ap.add_argument("--many", type=int, default=0,
                    help="instead: write DIR/<name>/many.json, N wider random texts encoded (not committed)")
    args = ap.parse_args()
    import tokenizers
    rng = random.Random(7)
    first = ["bytelevel", "qwen2", "llama3", "spm", "metaspace"]
    makers = [(n, globals()[n]) for n in first + ["qwen35", "deepseek3", "smollm", "tekken", "gpt4o"]
              if not args.only or n in args.only]
    if args.many:
        for name, make in makers:
            tok = make()
            d = os.path.join(args.out, name)
            os.makedirs(d, exist_ok=True)
            texts = [wide_text(rng) for _ in range(args.many)]
            enc = [{"text": t, "ids": tok.encode(t).ids, "plain": tok.encode(t, add_special_tokens=False).ids}
                   for t in texts]
            dec = []
            for e in enc[: args.many // 4]:
                dec.append({"ids": e["plain"], "text": tok.decode(e["plain"], skip_special_tokens=False)})
            with open(os.path.join(d, "many.json"), "w") as f:
                json.dump({"tokenizers": tokenizers.__version__, "cases": enc, "decoded": dec}, f, ensure_ascii=False)
            print(name, len(enc), "encoded", len(dec), "decoded")
        return
    for name, make in makers:
        frags = FRAGMENTS if name in first else FRAGMENTS + EXTRA
        if name in ("tekken", "gpt4o"):
            frags = frags + EXTRA2
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
        with open(os.path.join(d, "decoded.json"), "w") as f:
            json.dump({"tokenizers": tokenizers.__version__, "vocab_size": n, "cases": cases}, f,
                      ensure_ascii=False, indent=0)
        texts = TEXT[:6] + [random_text(rng, frags) for _ in range(200)]
        enc = [{"text": t, "ids": tok.encode(t).ids, "plain": tok.encode(t, add_special_tokens=False).ids}
               for t in texts]
        with open(os.path.join(d, "encoded.json"), "w") as f:
            json.dump({"tokenizers": tokenizers.__version__, "cases": enc}, f, ensure_ascii=False, indent=0)
        print(name, n, "tokens,", len(cases), "decoded,", len(enc), "encoded")


if __name__ == "__main__":
    main()
