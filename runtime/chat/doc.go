// Package chat turns a conversation into the text a checkpoint's chat
// model was trained on, as transformers' apply_chat_template does: it
// finds the checkpoint's chat template (a chat_template.jinja beside the
// weights, tokenizer_config.json's "chat_template", chat_template.json,
// or a GGUF file's tokenizer.chat_template), with the beginning- and
// end-of-sequence tokens' text it is rendered with, and renders it with
// package jinja (the Jinja2 subset chat templates use).
//
// The rendered text already holds the special tokens the template
// writes, so it is encoded without the vocabulary's own template
// (runtime/vocab's Encode with withSpecial false), as apply_chat_template
// tokenises with add_special_tokens=False.
package chat
