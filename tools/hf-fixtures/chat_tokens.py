#!/usr/bin/env python3
"""Records transformers' apply_chat_template end to end, for runtime/chat
and runtime/vocab to be checked against it together: real chat templates
(runtime/jinja/testdata/templates) on runtime/vocab's library-made
vocabularies of the same layout (runtime/vocab/testdata/hf), each
rendered (tokenize=False) and tokenised (tokenize=True, which encodes the
rendered text with add_special_tokens=False) for a few conversations,
with and without the generation prompt, and for some templates with
further variables (tools offered, Qwen3's enable_thinking=False). A
template that refuses a
conversation (raise_exception) is recorded with its message.

Usage: python3 chat_tokens.py --root . --out chat_tokens.json
(--root: the repository). It needs transformers; nothing else, no network.
"""

import argparse
import datetime
import json
import os

import transformers
from transformers import PreTrainedTokenizerFast

# (vocabulary, template, bos_token, eos_token)
PAIRS = [
    ("qwen2", "qwen3-0.6b", None, "<|im_end|>"),
    ("qwen2", "qwq-32b", None, "<|im_end|>"),
    ("qwen2", "deepseek-r1-distill-qwen-32b", "<|endoftext|>", "<|endoftext|>"),
    ("llama3", "llama-3.2-3b-instruct", "<|begin_of_text|>", "<|endoftext|>"),
    ("llama3", "llama-3.3-70b-instruct", "<|begin_of_text|>", "<|endoftext|>"),
    ("bytelevel", "openhermes-2.5-mistral-7b", "<|endoftext|>", "<|im_end|>"),
    ("spm", "mistral-7b-instruct-v0.2", "<s>", "</s>"),
    ("spm", "gemma-2-2b-it", "<s>", "</s>"),
    ("metaspace", "mistral-nemo-instruct-2407", "<s>", "</s>"),
    ("metaspace", "phi-3.5-mini-instruct", "<s>", "</s>"),
]

CONVERSATIONS = [
    [{"role": "user", "content": "What is the capital of France?"}],
    [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Name three primes."}],
    [{"role": "user", "content": "Hi!"}, {"role": "assistant", "content": "Hello. How can I help?"},
     {"role": "user", "content": "Translate 'naïve café' to German, über schnell."}],
    [{"role": "user", "content": "  spaces  and\nnewlines\n\n"}],
]

TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "The weather in a city, now.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "The city's name"},
                                                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
                   "required": ["city"]}}}]

# Further keyword arguments (the template's variables) for some templates:
# tools offered, and Qwen3's thinking switched off.
VARS = {
    "qwen3-0.6b": [{"enable_thinking": False}, {"tools": TOOLS}],
    "qwq-32b": [{"tools": TOOLS}],
    "llama-3.3-70b-instruct": [{"tools": TOOLS}, {"tools": TOOLS, "tools_in_user_message": False}],
    "mistral-nemo-instruct-2407": [{"tools": TOOLS}],
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    cases = []
    # strftime_now formats the current time: kept, for the check to use it.
    now = datetime.datetime.now()
    for vocab, name, bos, eos in PAIRS:
        with open(os.path.join(args.root, "runtime/jinja/testdata/templates", name + ".jinja")) as f:
            template = f.read()
        tok = PreTrainedTokenizerFast(tokenizer_file=os.path.join(args.root, "runtime/vocab/testdata/hf", vocab, "tokenizer.json"),
                                      bos_token=bos, eos_token=eos)
        tok.chat_template = template
        for conv, extra in [(c, {}) for c in CONVERSATIONS] + [(CONVERSATIONS[1], v) for v in VARS.get(name, [])]:
            for gen in (True, False):
                case = {"vocab": vocab, "template": name, "bos_token": bos, "eos_token": eos,
                        "messages": conv, "add_generation_prompt": gen, "vars": extra}
                try:
                    case["text"] = tok.apply_chat_template(conv, add_generation_prompt=gen, tokenize=False, **extra)
                    ids = tok.apply_chat_template(conv, add_generation_prompt=gen, tokenize=True, **extra)
                    if not isinstance(ids, list):
                        ids = ids["input_ids"]
                    case["ids"] = [int(x) for x in ids]
                except Exception as e:  # a template's raise_exception
                    case["error"] = str(e)
                cases.append(case)
    with open(args.out, "w") as f:
        json.dump({"transformers": transformers.__version__, "now": now.strftime("%Y-%m-%d"), "cases": cases}, f, ensure_ascii=False, indent=0)
    print(len(cases), "cases,", sum("error" in c for c in cases), "refused")


if __name__ == "__main__":
    main()
