// Package jinja parses and renders Hugging Face chat templates: the
// Jinja2 template a checkpoint carries (tokenizer_config.json's
// chat_template, chat_template.jinja, GGUF's tokenizer.chat_template)
// that rlx-run --chat turns a conversation into a prompt with. It renders
// as transformers' apply_chat_template does: jinja2's
// ImmutableSandboxedEnvironment with trim_blocks, lstrip_blocks and the
// loopcontrols extension, autoescaping off, tojson as
// json.dumps(x, ensure_ascii=False, indent=..., separators=...,
// sort_keys=...), the globals raise_exception(message) and
// strftime_now(format), and {% generation %} rendering its body.
//
// Parse gives a Template; Render (or RenderAt, which fixes
// strftime_now's clock) renders it with variables: nil, bool, int,
// int64, float64, string, []any, map[string]any and *Dict. Python keeps a
// dict's insertion order and templates show it (items(), tojson, loops),
// so dictionaries are *Dict, an ordered map; DecodeJSON reads messages
// and tools that way, and a map[string]any is taken in sorted key order.
// raise_exception fails with an *Exception whose text is the message
// alone, as transformers' TemplateError; any other error is an *Error
// "name:line:col: message".
//
// The subset:
//
//   - Text, {{ }}, {% %}, {# #}, the - and + whitespace controls,
//     trim_blocks and lstrip_blocks exactly as jinja2's lexer applies them
//     (including its line_starting rule), \r\n read as \n and one trailing
//     newline dropped.
//   - if/elif/else; for over lists, tuples, strings, dicts, range(),
//     with tuple targets, an if filter, else, break, continue and the loop
//     variable (index, index0, revindex, revindex0, first, last, length,
//     previtem, nextitem, depth, cycle); set of names, tuples and ns.attr,
//     and the block form with filters; macro with default arguments;
//     filter blocks; generation. A loop iteration, a macro call, and a
//     filter or generation body are scopes, as in jinja2.
//   - Literals (strings with Python's escapes, ints, floats, true, false,
//     none in both cases, lists, tuples, dicts), attributes and items
//     (attribute first for ".", item first for "[]", negative indices,
//     slices), calls with keyword arguments, filters, tests, not, and, or
//     (returning an operand), chained comparisons, in, not in, + - * / //
//     % **, ~, unary - and +, a if c else b with or without else.
//   - Filters: abs attr batch capitalize count d default dictsort e escape
//     first float forceescape indent int items join last length list lower
//     map max min reject rejectattr replace reverse round safe select
//     selectattr sort string sum title tojson trim unique upper wordcount.
//   - Tests: boolean callable defined divisibleby equalto even false
//     filter float in integer iterable lower mapping none number odd
//     sameas sequence string test true undefined upper, and the
//     comparisons ==, !=, <, <=, >, >=, eq, ne, lt, le, gt, ge,
//     greaterthan, lessthan.
//   - Methods: str strip, lstrip, rstrip, split, rsplit, startswith,
//     endswith, upper, lower, title, capitalize, replace, find, rfind,
//     count, join, splitlines, isdigit, isalpha, isspace, isupper,
//     islower; dict items, keys, values, get, copy; list index, count. The
//     mutating methods (list.append, dict.update, ...) fail as the
//     immutable sandbox makes them fail.
//   - Globals: range (at most 100000 items, the sandbox's limit),
//     namespace, dict(k=v), raise_exception, strftime_now.
//   - Undefined values behave as jinja2's default Undefined: empty when
//     printed, false, empty when iterated, not equal to anything defined,
//     and an error when an attribute, item, call or arithmetic uses them.
//     A missing item is undefined, as is a dict item looked up by a key
//     Python cannot hash (a list or dict), as jinja2's getitem makes it.
//
// Refused, by name and place, when parsed: other filters and tests
// (wordwrap, format, truncate, groupby, ...), include, import, extends,
// block, call, with, raw, recursive loops, *args and **kwargs in calls.
// Refused when rendered: printf-style "%" on strings, str.format, and
// integers beyond 64 bits (Python's are unbounded). Known differences
// that no chat template relies on: dict.items(), keys() and values() give
// lists, printed as lists, not dict_items([...]); reverse gives a list,
// not an iterator; a macro sees the top level as it is when called;
// printing a method shows "<function ...>", not Python's address. A
// template cannot exhaust memory or the stack: output over 16 MiB, over a
// million loop iterations, macro recursion over 64 deep and expressions
// nested over 200 deep are errors.
//
// testdata/chat.json holds jinja2 3.1.6's renderings, configured as
// transformers configures it (tools/hf-fixtures/chat.py): 31 real
// templates of testdata/templates (SOURCES.md says where each came from:
// Llama 3, Qwen 3, Mistral, Gemma 2 and 4, Phi, DeepSeek V3.1 and V3.2,
// GLM 4.5 and 4.6, Kimi K2, Nemotron, MiniMax M2, Seed-OSS, Command R7B,
// LFM2.5, gpt-oss, ...) with 39 cases each: 15 conversations with and
// without add_generation_prompt and 9 variable sets (reasoning_content,
// thinking, string tool arguments, parallel calls, nested tool schemas,
// documents, thinking switches and budgets), and 138
// small templates, one construct or whitespace corner each, 1347 cases in
// all; TestChatFixtures wants every output byte for byte, every failure a
// failure, and raise_exception's message where jinja2 raised.
package jinja
