#!/usr/bin/env python3
r"""Records how Hugging Face's tokenizers library splits text by the
pre-tokeniser regexes of the tokenizer.ggml.pre names runtime/vocab
encodes GGUF vocabularies with beyond its first ones (llama.cpp's
default for a file without the key, Falcon's, BLOOM's and kin, Viking's,
Chameleon's, SuperBPE's, DeepSeek LLM's and Coder's, and Qwen2's and
DeepSeek V3's other kin), for runtime/vocab's TestPreSplitLibrary to
check rlx's splitter against.

For each name: a pre_tokenizers.Sequence of Split(Regex(p),
behavior="isolated") for its regexes in turn, then
ByteLevel(add_prefix_space=False, use_regex=False), as make_vocab.py
lays out its vocabularies, and the pieces pre_tokenize_str gives for
each of TEXTS (spelled with GPT-2's byte table). Each name is run with
rlx's regexes (source "rlx"; RLX below is a copy of ggufPre in
runtime/vocab/ggufpre.go, whose regexes are llama.cpp's from
src/llama-vocab.cpp, with the tokenizer.json original where llama.cpp
rewrote one for its engine: keep the two equal, the test refuses a file
whose regexes are not rlx's), and where rlx's regex is a rewrite, also
with the other spelling (source "tokenizer.json": BLOOM's nested class,
Bailing's possessive quantifiers; "llama.cpp": GPT-2's regex without its
trailing \s+), whose pieces must be the same.

Usage: python3 pre_split.py --out runtime/vocab/testdata/pre_split.json
It needs tokenizers (which transformers installs); nothing else, no network.
"""

import argparse
import datetime
import json

# The regexes of runtime/vocab/ggufpre.go's ggufPre, by name (a copy).
GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
QWEN2 = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
DEEPSEEK3 = [
    r"\p{N}{1,3}",
    "[一-龥\u3040-ゟ゠-ヿ]+",
    "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
]

RLX = {
    "default": [r"[\p{P}\$\+<=>\^~\|]+", GPT2, r"\p{N}+", r"[0-9][0-9][0-9]"],
    "falcon": [r"[\p{P}\$\+<=>\^~\|`]+", GPT2, r"[0-9][0-9][0-9]"],
    "chameleon": [
        r"<sentinel:[0-9]+>",
        r"(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z",
        r"([\t\n]|    |  )",
        r"\p{N}",
        r"[\p{P}!-/:-@\[-`{-~]",
        GPT2,
    ],
    "bloom": [r" ?[^(\s|.,!?…。，、।۔،)]+"],
    "gpt3-finnish": [r" ?[^(\s|.,!?…。，、।۔،)]+"],
    "poro-chat": [r" ?[^(\s|.,!?…。，、।۔،)]+"],
    "viking": [r" ?[^(\s|.,!?…。，、।۔،)]+", r"\p{N}"],
    "superbpe": [r"\p{N}+", r"(?=(\d{3})+(?!\d))"],
    "ufakzeka": [r"[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"],
    "bailingmoe": [
        r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+",
    ],
    "bailingmoe2": [
        r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+",
    ],
    "llada-moe": [
        r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+",
    ],
    "seed-coder": [
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+",
    ],
    "exaone-moe": [
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]?|\s*[\r\n]|\s+(?!\S)|\s+",
    ],
    "laguna": [r"[^\n]+|[\n]+", QWEN2],
    "minicpm5": [
        r"\p{N}{1,3}",
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}+| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    ],
    "deepseek-llm": [
        "[\r\n]",
        "\\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-\u1f7dᾀ-ᾴᾶ-ᾼ\u1fbeῂ-ῄῆ-ῌῐ-\u1fd3ῖ-\u1fdbῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤ\u2126ℨ\u212a-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+",
        "\\s?[!-/:-~！-／：-～‘-‟\u3000-。]+",
        r"\s+$",
        "[一-龥ࠀ-一가-\ud7ff]+",
        r"\p{N}+",
    ],
    "deepseek-coder": ["[\r\n]", r"\s?\p{L}+", r"\s?\p{P}+", "[一-龥ࠀ-一가-\ud7ff]+", r"\p{N}"],
    "hy_v4": DEEPSEEK3,
    "spark2_5": [
        r"\p{N}{1,3}",
        "[一-龥\u3040-ゟ゠-ヿ]+",
        "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+|[\r\n]|\\s+(?!\\S)|\\s+",
        r"\p{N}",
    ],
}

# The other spellings of the regexes rlx rewrites.
BLOOM_ORIGINAL = r" ?[^(\s|[.,!?…。，、।۔،])]+"
BAILING_ORIGINAL = (r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]"
                    r"|\s+(?!\S)|\s+")
GPT2_LLAMA_CPP = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"


def others():
    """(name, source, regexes) for the other spellings."""
    out = []
    for name in ["bloom", "gpt3-finnish", "poro-chat", "viking"]:
        out.append((name, "tokenizer.json", [BLOOM_ORIGINAL] + RLX[name][1:]))
    for name in ["bailingmoe", "bailingmoe2", "llada-moe"]:
        out.append((name, "tokenizer.json", [BAILING_ORIGINAL]))
    for name in ["default", "falcon", "chameleon"]:
        out.append((name, "llama.cpp", [GPT2_LLAMA_CPP if p == GPT2 else p for p in RLX[name]]))
    return out


# Digit runs, punctuation runs, contractions, CJK and kana, Hangul,
# newlines and carriage returns, mixed and Unicode spaces, accents and
# combining marks, numbers of other scripts and kinds, emoji, the
# letters Unicode normalization would replace, and the texts of
# runtime/vocab's TestGGUFPreSplit.
TEXTS = [
    "Hello, world!! 1234567 x$+y", " 12 x`!", "a ,b", "I'm don't", "a \n\n  b\tc", "café 数学 ١٢٣", "1234",
    "Hello, World!\n  123 ok", " Héllo 数学。", "x  y  ", "🙂  x🙂  ", "3.14!", "a\r\nb", "한국어 テキスト", "a+b=c, d",
    "<sentinel:12>IMGIMGABZ ok", "a      b", "c d\n\te", "x+=1.5!", "don't", "a1234567 b, 12 ok", "123456", "١٢٣٤",
    "12½3456", "hello  world\n", "Hello, world! (x|y)", "a  b\n\nc", "数学，是。123 don't", "wait… ok", " 42",
    "x12345 数学かな .NET", "İstanbul'da 12 kişi", "I'LL x\n\n  y 123", "x!!\n\ny 12", "Hello world, I'm 12!!\n\n",
    "a  b", "e\u0301te\u0301 x/\n", "x 1234567 I'LL", "a \nb!\n\n c", "x12345 ok!\n\n",
    "\u00a0x\u2003 y  \u3000z", "camelCase HTTPServer DON'T It'S 'S 'D 'Re 'VE", "\u2126 \u212a \u1f7d \u1fd3 \u1fbe ά",
    "ա Ա ა \ua790 ǅungla", "def f(x):\n    return x * 2  # tabs\tand  double  spaces",
    "Emoji: 🙂🚀 and accents: naïve résumé.", "«quoted» — dash “quotes” ‘single’ ！？（全角）",
    "x²½Ⅻ 2024年12月6日 ０１２", "  leading and trailing  ", "\n\n\n", "\r\n\r\n  \r", "",
    "IMGIMGABCDEZ IMGIMGZ IMGIMGAZ <sentinel:0><sentinel:x>", "$100,000.50 + 7 = ~|^<>`", "path/to/file.go:12:7",
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    import tokenizers
    from tokenizers import Regex, pre_tokenizers

    splits = []
    for name, source, patterns in [(n, "rlx", p) for n, p in RLX.items()] + others():
        pre = pre_tokenizers.Sequence(
            [pre_tokenizers.Split(Regex(p), behavior="isolated", invert=False) for p in patterns]
            + [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
        pieces = [[piece for piece, _ in pre.pre_tokenize_str(t)] for t in TEXTS]
        splits.append({"pre": name, "source": source, "patterns": patterns, "pieces": pieces})
    out = {
        "made": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "tokenizers": tokenizers.__version__,
        "texts": TEXTS,
        "splits": splits,
    }
    with open(a.out, "w") as f:
        json.dump(out, f, ensure_ascii=False, indent=0)
    print(len(splits), "splits of", len(TEXTS), "texts")


if __name__ == "__main__":
    main()
