#!/usr/bin/env python3
"""Records chat templates rendered by jinja2 as transformers renders them,
for runtime/jinja to be checked against.

The environment is transformers' (_compile_jinja_template):
ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True) with the
loopcontrols extension and a {% generation %} block that renders its body,
the tojson filter replaced by json.dumps(x, ensure_ascii=False, indent=indent,
separators=separators, sort_keys=sort_keys), and the globals
raise_exception(message) and strftime_now(format), the clock fixed at
2025-03-14 09:26:53. Every template under runtime/jinja/testdata/templates
is rendered with a set of conversations (system and user, user only, several
turns, content as a list of text parts, non-ASCII text, tools, tool calls and
their results, turns that break a template's alternation check), with and
without add_generation_prompt, passing messages, tools (None unless given),
documents=None, add_generation_prompt, bos_token and eos_token as
apply_chat_template does; then small synthetic templates, one construct or
whitespace corner each. Each case keeps the template (or its file name), the
variables, and jinja2's output or its error: the error's class, and its
message. An error raised by raise_exception has the class "raise".
Written to OUT as JSON.

Usage: python3 chat.py --out ../../runtime/jinja/testdata/chat.json
It needs jinja2 (3.1.6 made the file); nothing else, no network.
"""

import argparse
import datetime
import json
import os

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension, loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

NOW = datetime.datetime(2025, 3, 14, 9, 26, 53)


class RaiseException(jinja2.exceptions.TemplateError):
    pass


class Generation(Extension):
    """transformers' AssistantTracker, without the tracking."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_generation"), [], [], body).set_lineno(lineno)

    def _generation(self, caller):
        return caller()


def environment():
    def raise_exception(message):
        raise RaiseException(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(format):
        return NOW.strftime(format)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[Generation, loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def render(env, source, variables):
    try:
        return {"output": env.from_string(source).render(**variables)}
    except RaiseException as e:
        return {"error": str(e), "kind": "raise"}
    except Exception as e:  # every other failure only has to fail in Go too
        return {"error": str(e), "kind": type(e).__name__}


TOOLS = [{
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather in a city.",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city, e.g. Paris"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "The unit"},
            },
            "required": ["location"],
        },
    },
}]

CALL = {"id": "call12345", "type": "function", "function": {"name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius"}}}



def CALL_STR(id, city):
    return {"id": id, "type": "function", "function": {"name": "get_weather", "arguments": json.dumps({"location": city})}}


SYS = {"role": "system", "content": "You are a helpful assistant."}
CONVERSATIONS = {
    "system_user": [SYS, {"role": "user", "content": "Hello!"}],
    "user": [{"role": "user", "content": "What is 2+2?"}],
    "multi_turn": [SYS, {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello! How can I help?"},
                   {"role": "user", "content": "Tell me a joke."}],
    "multi_turn_spaces": [{"role": "user", "content": " Hello "}, {"role": "assistant", "content": "   I am an assistant   "},
                          {"role": "user", "content": "Another question\n"}],
    "parts": [{"role": "user", "content": [{"type": "text", "text": "Describe"}, {"type": "text", "text": " this."}]}],
    "unicode": [{"role": "user", "content": "Grüße, 世界! 🙂 — «ok»"}, {"role": "assistant", "content": "Привет, ça va?"},
                {"role": "user", "content": "日本語で答えて"}],
    "tools": [SYS, {"role": "user", "content": "What is the weather in Paris?"}],
    "tool_calls": [{"role": "user", "content": "What is the weather in Paris?"},
                   {"role": "assistant", "content": "", "tool_calls": [CALL]},
                   {"role": "tool", "tool_call_id": "call12345", "name": "get_weather", "content": "22 degrees"}],
    "think": [{"role": "user", "content": "Why?"}, {"role": "assistant", "content": "<think>\nLet me see.\n</think>\n\nBecause."},
              {"role": "user", "content": "And then?"}],
    "bad_alternation": [{"role": "user", "content": "One"}, {"role": "user", "content": "Two"}],
    "assistant_first": [{"role": "assistant", "content": "I speak first."}, {"role": "user", "content": "Fine."}],
    # Newer templates read reasoning_content, string arguments (as OpenAI
    # sends them) and several calls answered in turn.
    "reasoning": [SYS, {"role": "user", "content": "What is 2+2?"},
                  {"role": "assistant", "content": "2+2 is 4.", "reasoning_content": "Two plus two makes four."}],
    "thinking_field": [{"role": "user", "content": "Name a prime."},
                       {"role": "assistant", "content": "7", "thinking": "Seven is prime."}],
    "tool_responses": [{"role": "user", "content": "Weather in Paris?"},
                       {"role": "assistant", "content": "", "tool_calls": [CALL]},
                       {"role": "tool", "content": "", "tool_responses": [{"name": "get_weather", "response": {"temp": 22, "unit": "celsius", "sunny": True}},
                                                                          {"name": "get_weather", "response": "mild"}]}],
    "parallel_calls": [{"role": "user", "content": "Weather in Paris and Rome?"},
                       {"role": "assistant", "content": "Checking both.", "reasoning_content": "I need two lookups.",
                        "tool_calls": [CALL_STR("call_paris01", "Paris"), CALL_STR("call_rome002", "Rome")]},
                       {"role": "tool", "tool_call_id": "call_paris01", "name": "get_weather", "content": "22 degrees"},
                       {"role": "tool", "tool_call_id": "call_rome002", "name": "get_weather", "content": "25 degrees"},
                       {"role": "assistant", "content": "Paris is 22 degrees, Rome 25."}],
}
TOOL_CONVERSATIONS = ("tools", "tool_calls", "parallel_calls", "tool_responses")

# Schemas the tool-describing templates walk further: arrays, nested objects,
# integers, booleans, nullable fields, defaults, a tool without
# parameters, non-ASCII text.
RICH_TOOLS = TOOLS + [{
    "type": "function",
    "function": {
        "name": "search_flights",
        "description": "Search flights — «direct» ones first.",
        "parameters": {
            "type": "object",
            "properties": {
                "cities": {"type": "array", "items": {"type": "string"}, "description": "Cities to visit"},
                "max_stops": {"type": "integer", "description": "Most stops", "default": 1},
                "refundable": {"type": "boolean", "nullable": True},
                "passenger": {"type": "object", "description": "Who flies",
                              "properties": {"name": {"type": "string"}, "age": {"type": "number"}}, "required": ["name"]},
                "legs": {"type": "array", "items": {"type": "object", "properties": {"from": {"type": "string"}, "to": {"type": "string"}},
                                                    "required": ["from"]}},
                "cabin": {"type": "string", "enum": ["economy", "business"], "default": "economy"},
                "tags": {"type": ["string", "null"]},
            },
            "required": ["cities", "passenger"],
        },
    },
}, {"type": "function", "function": {"name": "get_time", "description": "The time now.", "parameters": {"type": "object", "properties": {}}}}]
# A property typed by oneOf alone, which some templates cannot describe.
ONEOF_TOOLS = RICH_TOOLS + [{"type": "function", "function": {"name": "remind", "description": "Set a reminder.", "parameters": {
    "type": "object", "properties": {"when": {"oneOf": [{"type": "string", "description": "a date"}, {"type": "integer"}]}}}}}]


DOCUMENTS = [{"title": "Paris", "text": "Paris is the capital of France."}, {"title": "Rome", "text": "Rome is the capital of Italy."}]


def chat_cases(template_dir):
    cases = []
    for fname in sorted(os.listdir(template_dir)):
        if not fname.endswith(".jinja"):
            continue
        with open(os.path.join(template_dir, fname), encoding="utf-8") as f:
            source = f.read()
        for conv, messages in CONVERSATIONS.items():
            for agp in (True, False):
                variables = {"messages": messages, "tools": TOOLS if conv in TOOL_CONVERSATIONS else None,
                             "documents": None, "add_generation_prompt": agp, "bos_token": "<s>", "eos_token": "</s>"}
                case = {"name": f"{fname[:-6]}/{conv}/agp={agp}", "file": fname, "vars": variables}
                case.update(render(environment(), source, variables))
                cases.append(case)
        # Extra keyword arguments some templates read.
        for name, extra in [("no_tools_var", {}), ("enable_thinking_false", {"enable_thinking": False}),
                            ("tools_in_system", {"tools_in_user_message": False, "tools": TOOLS}),
                            ("builtin_tools", {"builtin_tools": ["brave_search", "code_interpreter"], "tools": TOOLS}),
                            ("enable_thinking_true", {"enable_thinking": True, "tools": TOOLS}),
                            ("documents", {"documents": DOCUMENTS}),
                            ("thinking_budget", {"thinking_budget": 512}),
                            ("rich_tools", {"tools": RICH_TOOLS}),
                            ("builtin_browser_python", {"builtin_tools": ["browser", "python"], "tools": ONEOF_TOOLS,
                                                        "reasoning_effort": "high", "model_identity": "You are a test model."})]:
            variables = {"messages": CONVERSATIONS["tools"], "add_generation_prompt": True, "bos_token": "<s>", "eos_token": "</s>"}
            variables.update(extra)
            case = {"name": f"{fname[:-6]}/{name}", "file": fname, "vars": variables}
            case.update(render(environment(), source, variables))
            cases.append(case)
    return cases


# Synthetic templates: (template, variables). Variables default to V.
V = {"name": "World", "items": [3, 1, 2], "words": ["b", "A", "c"], "d": {"b": 1, "a": 2},
     "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}],
     "n": 7, "x": 2.5, "s": "  Hello, World  ", "empty": [], "none": None, "t": True}

SYNTHETIC = [
    # Whitespace control, trim_blocks, lstrip_blocks.
    "a\n{% if true %}\nb\n{% endif %}\nc",
    "a\n  {% if true %}\n  b\n  {% endif %}\nc",
    "a  {% if true %}b{% endif %}  c",
    "  {% if true %}x{% endif %}",
    "a\n\t {% if true %}\n\tb\n {% endif %}  \nc",
    "a\n  {%+ if true %}\nb\n{% endif %}",
    "a\n  {%- if true %}\nb\n{%- endif %}\nc",
    "a\n  {% if true -%}\n   b   \n  {%- endif %}\nc",
    "a {{- name -}} b",
    "a\n  {{ name }}\n  b",
    "a\n  {{- name }}\n  b",
    "{% for i in items %}\n  {{ i }}\n{% endfor %}\n",
    "{% for i in items -%}\n  {{ i }}\n{%- endfor %}",
    "{%- for i in items %}{{ i }}{% if not loop.last %}, {% endif %}{% endfor %}",
    "x\n{# comment #}\ny",
    "x\n   {# comment #}\ny",
    "x {#- comment -#} y",
    "x\n{#- comment #}\ny",
    "{% if true %}a{% endif %}\n\n",
    "{% if true %}a{% endif %}\r\nb\r\n",
    "line\n\n\n",
    "{{ name }}\n{% set y = 1 %}\n{{ y }}",
    "{% set y = 1 +%}\nkept newline",
    "a{% if false %}\nb\n{% else %}\nc\n{% endif %}d",
    "  {{ name }}  {% if true %}  x  {% endif %}  ",
    "{% for m in messages %}\n    {{- m.role }}: {{ m.content }}\n{% endfor %}",
    "{% macro f(a) %}\n  [{{ a }}]\n{% endmacro %}\n{{ f(1) }}{{ f(2) }}",
    "{%- set x = 'v' -%}\n\n\n{{ x }}",
    "{{ '{{' }} {{ '%}' }}",
    "{{ {'a': {'b': 1}} }}",
    # Literals and printing.
    "{{ 'it\\'s' }} {{ \"say \\\"hi\\\"\" }} {{ 'tab\\there' }} {{ 'nl\\nx' }} {{ 'u\\u00e9' }}",
    "{{ 1 }} {{ -3 }} {{ 1.5 }} {{ 1e3 }} {{ 1_000 }} {{ 0.1 + 0.2 }} {{ 1/3 }} {{ 10/2 }}",
    "{{ true }} {{ False }} {{ none }} {{ None }} {{ [1, 'a', none, true, 2.0] }} {{ (1,) }} {{ (1, 'b') }} {{ () }}",
    "{{ {'k': 'v', 'n': [1, {'x': none}]} }} {{ d }}",
    "{{ 'a' 'b' }}{{ \"it's\" }}{{ ['it\\'s', 'q\"'] }}",
    "{{ 1e16 }} {{ 1e-5 }} {{ 123.456 }} {{ 2**62 }} {{ -0.0 }} {{ 3.0 }}",
    # Operators.
    "{{ 7 // 2 }} {{ -7 // 2 }} {{ 7 % 3 }} {{ -7 % 3 }} {{ 2 ** 10 }} {{ 2 ** -1 }} {{ 7.5 // 2 }} {{ 7 % 2.5 }}",
    "{{ 'a' + 'b' }} {{ 'ab' * 3 }} {{ [1] + [2] }} {{ 1 ~ 2 ~ 'x' }} {{ none ~ 'x' }} {{ undefined_thing ~ 'y' }}",
    "{{ 1 + true }} {{ 3 - 1.5 }} {{ 2 * 3 }} {{ -x }} {{ +n }} {{ not t }} {{ -n|abs }}",
    "{{ 1 < 2 < 3 }} {{ 3 > 2 > 2 }} {{ 'a' < 'b' }} {{ [1, 2] < [1, 3] }} {{ 1 == 1.0 }} {{ 1 != 2 }} {{ true == 1 }}",
    "{{ 'a' in 'cat' }} {{ 2 in items }} {{ 'a' in d }} {{ 'z' not in d }} {{ not 'a' in d }} {{ 'x' in undefined_thing }}",
    "{{ t and 'yes' }} {{ none or 'fallback' }} {{ 0 or '' }} {{ [] and 1 }} {{ 'a' and 'b' or 'c' }}",
    "{{ 'yes' if t else 'no' }} {{ 'yes' if none else 'no' }} [{{ 'only' if false }}] {{ 1 if false else 2 if true else 3 }}",
    "{{ 1 + 'a' }}",
    "{{ 1 < 'a' }}",
    "{{ 1 / 0 }}",
    "{{ undefined_thing + 1 }}",
    # Names, attributes, items, slices.
    "{{ d.a }} {{ d['b'] }} {{ d.zz }} {{ messages[0].role }} {{ messages[-1]['content'] }} {{ items[5] }}",
    "{{ items[1:] }} {{ items[:-1] }} {{ items[::-1] }} {{ s[2:7] }} {{ 'abcdef'[::2] }} {{ items[-2:] }} {{ 'abc'[-1] }}",
    "{{ undefined_thing.attr }}",
    "{{ d.zz.deeper }}",
    "{{ none.attr }}|{{ (none).x is defined }}",
    "{{ d.items is defined }} {{ d.items is callable }}",
    # Tests.
    "{{ name is defined }} {{ nope is defined }} {{ nope is undefined }} {{ none is none }} {{ name is not none }}",
    "{{ 'a' is string }} {{ d is mapping }} {{ items is iterable }} {{ items is sequence }} {{ 'a' is sequence }} {{ 5 is iterable }} {{ nope is iterable }}",
    "{{ 1 is number }} {{ 1.5 is number }} {{ true is number }} {{ 1 is integer }} {{ true is integer }} {{ 1.0 is integer }} {{ 1.0 is float }}",
    "{{ true is boolean }} {{ 1 is boolean }} {{ false is false }} {{ 0 is false }} {{ true is true }} {{ 1 is true }}",
    "{{ 3 is odd }} {{ 4 is even }} {{ 9 is divisibleby 3 }} {{ 9 is divisibleby(4) }} {{ 'a' is equalto 'a' }} {{ 2 is in items }} {{ 2 is eq 2 }} {{ 2 is ne 3 }}",
    "{{ 3 is gt 2 }} {{ 3 is ge 3 }} {{ 3 is lt 2 }} {{ 3 is le 3 }} {{ 'A' is upper }} {{ 'a' is lower }} {{ none is sameas none }} {{ 'upper' is filter }}",
    "{{ d.a is defined and d.zz is not defined }}",
    "{{ x is wibble }}",
    # Filters.
    "{{ s|trim }}|{{ 'xxhixx'|trim('x') }}|{{ name|upper }}|{{ name|lower }}|{{ 'hello wORLD-x (y'|title }}|{{ 'hELLO'|capitalize }}",
    "{{ items|length }} {{ d|length }} {{ 'héllo'|count }} {{ nope|length }} {{ items|first }} {{ items|last }} {{ 'abc'|first }} {{ empty|first }}",
    "{{ 3.7|int }} {{ '42'|int }} {{ ' 12 '|int }} {{ '1.9'|int }} {{ 'x'|int }} {{ 'x'|int(5) }} {{ '2.5'|float }} {{ 3|float }} {{ 'x'|float }}",
    "{{ -3|abs }} {{ x|round }} {{ 3.5|round }} {{ 2.675|round(2) }} {{ 7|round }} {{ 2.1|round(0, 'ceil') }} {{ 2.9|round(method='floor') }}",
    "{{ items|join(', ') }} {{ words|join }} {{ messages|join('|', attribute='role') }} {{ [1, none, 'a']|join('-') }}",
    "{{ nope|default('dflt') }} {{ none|default('dflt') }} {{ ''|default('dflt', true) }} {{ 0|d('z', boolean=true) }} {{ name|d }}",
    "{{ 'a-b-c'|replace('-', '+') }} {{ 'aaa'|replace('a', 'b', 2) }} {{ 'abc'|list }} {{ d|list }} {{ items|reverse|list }} {{ 'abc'|reverse }}",
    "{{ items|sort }} {{ words|sort }} {{ words|sort(case_sensitive=true) }} {{ items|sort(reverse=true) }} {{ messages|sort(attribute='role')|map(attribute='role')|list }}",
    "{{ [1, 2, 1, 3, 2]|unique|list }} {{ ['a', 'A', 'b']|unique|list }} {{ d|items|list }} {{ d|dictsort }} {{ d|dictsort(by='value', reverse=true) }}",
    "{{ messages|selectattr('role', 'equalto', 'user')|list }} {{ messages|rejectattr('role', 'equalto', 'user')|map(attribute='content')|list }}",
    "{{ messages|selectattr('content')|list|length }} {{ messages|selectattr('tool_calls', 'defined')|list }} {{ messages|selectattr('role', 'in', ['user'])|list|length }}",
    "{{ items|select('odd')|list }} {{ items|reject('odd')|list }} {{ [0, 1, '', 'a', none]|select|list }} {{ items|select('gt', 1)|list }}",
    "{{ words|map('upper')|list }} {{ items|map('string')|join }} {{ messages|map(attribute='nope', default='?')|list }}",
    "{{ 'a\\nb\\n\\nc'|indent }}|{{ 'a\\nb'|indent(2, true) }}|{{ 'a\\n\\nb'|indent(width='> ', blank=true) }}",
    "{{ '<a href=\"x\">&\\'</a>'|e }} {{ '<b>'|escape }} {{ '<b>'|safe }} {{ '<b>' }}",
    "{{ 'one two  three'|wordcount }} {{ items|batch(2)|list }} {{ items|sum }} {{ items|min }} {{ items|max }} {{ [1.5, 2]|sum }}",
    "{{ d|tojson }} {{ messages|tojson }} {{ 'é\"\\n\\t<>'|tojson }} {{ [1, 2.5, none, true]|tojson }} {{ {}|tojson }} {{ []|tojson(indent=2) }}",
    "{{ messages|tojson(indent=2) }}",
    "{{ d|tojson(sort_keys=true) }} {{ d|tojson(separators=(',', ':')) }} {{ 'é'|tojson(ensure_ascii=true) }} {{ (1, 2)|tojson }}",
    "{{ nope|tojson }}",
    "{{ 5|string ~ 'x' }} {{ none|string }} {{ [1]|string }}",
    # Methods.
    "{{ s.strip() }}|{{ s.lstrip() }}|{{ s.rstrip() }}|{{ 'xxaxx'.strip('x') }}|{{ '\\n\\nabc\\n'.lstrip('\\n') }}",
    "{{ 'a,b,,c'.split(',') }} {{ '  a  b '.split() }} {{ 'a b c'.split(' ', 1) }} {{ 'a,b,c'.rsplit(',', 1) }} {{ 'abc'.split('x') }}",
    "{{ 'hello'.startswith('he') }} {{ 'hello'.endswith('lo') }} {{ 'hello'.startswith(('x', 'h')) }} {{ 'Hello'.upper() }} {{ 'Hello'.lower() }}",
    "{{ 'hello world'.title() }} {{ 'they\\'re'.title() }} {{ 'x-y'.replace('-', '_') }} {{ 'abc'.find('c') }} {{ 'abcabc'.count('b') }} {{ ', '.join(['a', 'b']) }}",
    "{{ d.items()|list }} {{ d.keys()|list }} {{ d.values()|list }} {{ d.get('a') }} {{ d.get('zz') }} {{ d.get('zz', 'dflt') }}",
    "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}",
    "{% set l = [1] %}{{ l.append(2) }}",
    "{% set m = {} %}{{ m.update({'a': 1}) }}",
    "{{ 'abc'.nosuch() }}",
    # Statements.
    "{% if n > 5 %}big{% elif n > 2 %}mid{% else %}small{% endif %}",
    "{% if nope %}a{% elif none %}b{% endif %}",
    "{% for i in items %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.revindex0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }};{% endfor %}",
    "{% for i in items %}{{ loop.previtem }}>{{ i }}>{{ loop.nextitem }} {% endfor %}",
    "{% for i in items if i > 1 %}{{ i }}{{ loop.length }}{% endfor %}",
    "{% for i in empty %}x{% else %}empty{% endfor %} {% for i in nope %}x{% else %}undef{% endfor %}",
    "{% for c in 'abc' %}{{ c }}.{% endfor %} {% for k in d %}{{ k }}{% endfor %} {% for i in range(3) %}{{ i }}{% endfor %} {% for i in range(1, 10, 3) %}{{ i }}{% endfor %}",
    "{% for a, b in [[1, 2], [3, 4]] %}{{ a + b }}{% endfor %} {% for a, b in d|items %}{{ a }}{{ b }}{% endfor %}",
    "{% for i in items %}{% if i == 1 %}{% continue %}{% endif %}{% if i == 2 %}{% break %}{% endif %}{{ i }}{% endfor %}",
    "{% for i in [1, 2] %}{% for j in 'ab' %}{{ loop.index }}{{ i }}{{ j }} {% endfor %}{{ loop.index }}|{% endfor %}",
    "{% set x = 1 %}{% for i in [1, 2] %}{{ x }}{% set x = i * 10 %}{{ x }} {% endfor %}{{ x }}",
    "{% if true %}{% set z = 3 %}{% endif %}{{ z }}",
    "{% set ns = namespace(c=0, found=false) %}{% for i in items %}{% set ns.c = ns.c + i %}{% if i == 1 %}{% set ns.found = true %}{% endif %}{% endfor %}{{ ns.c }} {{ ns.found }}",
    "{% set ns = namespace() %}{% set ns.a = 'x' %}{{ ns.a }} {{ ns.b is defined }}",
    "{% set a, b = 1, 2 %}{{ a }}{{ b }} {% set c = 1, 2 %}{{ c }}",
    "{% set block %}\n  inner {{ name }}\n{% endset %}[{{ block }}]",
    "{% set up | upper %}shout {{ name }}{% endset %}{{ up }}",
    "{% set x = 5 %}{{ x.y }}",
    "{% set s2 = 'x' %}{% set s2.attr = 1 %}",
    "{% macro greet(who, punct='!') %}Hi {{ who }}{{ punct }}{% endmacro %}{{ greet('a') }} {{ greet('b', '?') }} {{ greet(who='c', punct='.') }} {{ greet() }}",
    "{% macro fact(k) %}{% if k <= 1 %}1{% else %}{{ k }}*{{ fact(k - 1) }}{% endif %}{% endmacro %}{{ fact(4) }}",
    "{% macro m(a) %}{{ a }}{% endmacro %}{{ m(1, 2) }}",
    "{% macro m() %}{{ name }}{% endmacro %}{{ m() }}",
    "{% filter upper %}hello {{ name }}{% endfilter %}",
    "{% generation %}gen {{ name }}{% endgeneration %}!",
    "{% set q = 0 %}{% generation %}{% set q = 1 %}{{ q }}{% endgeneration %}{{ q }}",
    "{% set q = 0 %}{% filter upper %}{% set q = 1 %}{{ q }}{% endfilter %}{{ q }}",
    "{% for m in messages %}{% generation %}{{ m.content }}{% endgeneration %}{% endfor %}",
    "{{ raise_exception('Custom failure: ' ~ name) }}",
    "{% if messages|length > 1 %}{{ raise_exception('Too many messages!') }}{% endif %}",
    "{{ strftime_now('%d %b %Y') }} {{ strftime_now('%Y-%m-%d %H:%M:%S %A %B') }}",
    "{{ dict(a=1, b='x') }} {{ range(5)|list }} {{ range(2, 5)|length }} {{ namespace(a=1).a }}",
    "{% for m in messages %}{% if m.content is string %}{{ m.content }}{% else %}{% for p in m.content %}{{ p.text }}{% endfor %}{% endif %}{% endfor %}",
    "{{ messages[0].content[0].text }}",
    # Errors in the source.
    "{% if true %}unclosed",
    "{{ 1 + }}",
    "{% endfor %}",
    "{% include 'x.jinja' %}",
    "{% for x in items %}{% endif %}",
    "{{ name",
    "{# never closed",
    "{{ 'abc }}",
    "{{ (1, 2 }}",
    "{% break %}",
    # Added later, after the cases above, so their numbers stay.
    "{{ d[[1]] is defined }} {{ d[{}] is defined }} {{ items[1.0] is defined }} {{ items[true] }} {{ 'abc'[1.0] is defined }} {{ d[none] is defined }}",
    "{{ d[[1]].x }}",
    "{{ [1] in d }}",
]

SYNTHETIC_VARS = {
    "{% for m in messages %}{% if m.content is string %}{{ m.content }}{% else %}{% for p in m.content %}{{ p.text }}{% endfor %}{% endif %}{% endfor %}":
        {"messages": [{"role": "user", "content": [{"type": "text", "text": "part one, "}, {"type": "text", "text": "part two"}]}, {"role": "assistant", "content": "plain"}]},
    "{{ messages[0].content[0].text }}":
        {"messages": [{"role": "user", "content": [{"type": "text", "text": "first"}]}]},
}


def synthetic_cases():
    cases = []
    for i, source in enumerate(SYNTHETIC):
        variables = SYNTHETIC_VARS.get(source, V)
        case = {"name": f"synthetic/{i:03d}", "template": source, "vars": variables}
        case.update(render(environment(), source, variables))
        cases.append(case)
    return cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--templates", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../runtime/jinja/testdata/templates"))
    args = ap.parse_args()
    cases = chat_cases(args.templates) + synthetic_cases()
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"jinja2": jinja2.__version__, "now": NOW.isoformat(), "cases": cases}, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
