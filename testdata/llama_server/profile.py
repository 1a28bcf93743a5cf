#!/usr/bin/env python3
"""Executable specification of the "llama-server profile".

llama.cpp's llama-server (b10256, commit 22dc605) does not hand an OpenAI-style request to the chat
template as it is: POST /apply-template (and /v1/chat/completions) parses the request into its own
message structs, probes the template for capabilities, rewrites the messages accordingly, injects
some context variables, picks a "handler" by looking at the template source, renders, and
post-processes the prompt. This module reproduces all of that in Python, around the *same*
Python Jinja2 rendering that /work/shared/oracle/tools/hf_render.py does, so that the only
remaining differences to the recorded llama-server prompts are llama.cpp's own Jinja engine
deviating from Jinja2, and llama.cpp refusing templates.

Public functions (what a Go implementation must reproduce):
  capabilities(src)                -> Caps       (jinja::caps_get, chat.cpp handler choice, thinking)
  rewrite(src, request, caps=None) -> Rewritten  (the template context llama-server builds)
  render(src, request)             -> str        (rewrite + Jinja2 render + post-processing)

Run as a script it is the driver: every template of ../shared/templates x every case of
../shared/oracle/cases.json, compared with the recorded "llama_server" answers, each pair that is not
reproduced classified as refused / engine / unexplained (classification.tsv with --write):

    python3 testdata/llama_server/profile.py [--llama-jinja BIN] [--write] [--show N]

BIN is llama_jinja.cpp (this folder) built against llama.cpp's common/jinja sources (see
docs/llama-server.md): it renders the rewritten context through llama.cpp's own engine, which is how
an "engine" pair is confirmed. Without it every non-refused pair stays "unexplained".
TMPLGEN_SHARED overrides the location of shared/ (default: ../shared next to the repository).
"""
from __future__ import annotations

import copy
import json
import os
import re
import sys
import types
from dataclasses import dataclass, field
from datetime import datetime

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SHARED = os.environ.get("TMPLGEN_SHARED", os.path.join(os.path.dirname(REPO), "shared"))
sys.path.insert(0, os.path.join(SHARED, "oracle", "tools"))

import hf_render  # noqa: E402  (the transformers-exact Jinja2 environment; rendering goes through it)
import jinja2  # noqa: E402
from jinja2.sandbox import SandboxedEnvironment  # noqa: E402
from markupsafe import Markup  # noqa: E402

# The clock llama-server reads (system_clock::now(), local time = UTC on the oracle machine).
NOW = hf_render.NOW


class LlamaError(Exception):
    """An error llama-server returns instead of a prompt."""


# ---------------------------------------------------------------------------------------------
# 1. Capability probing (common/jinja/caps.cpp: jinja::caps_get)
# ---------------------------------------------------------------------------------------------
# llama.cpp renders the template five times on fixed probe requests with "stats" switched on:
# every value remembers whether it was *used* (looked up by name, reached through a member/index
# expression, passed to a filter or method, printed through |tojson or |string which mark
# recursively) and which *ops* were applied to it ("array_access" for a for-loop over it or an
# integer subscript, "object_access" for a string subscript/attribute, and the name of every
# filter/method/attribute tried on it).  We reproduce the probes with Jinja2 on instrumented
# values.

class _Stats:
    __slots__ = ("used", "ops")

    def __init__(self):
        self.used = False
        self.ops = set()


_probe_state = {"in_filter": 0, "llama_fail": False}


def _mark(v, deep=False):
    if isinstance(v, (TStr, TList, TDict)):
        v._st.used = True
    if deep:
        if isinstance(v, (list, tuple)):
            for x in list.__iter__(v) if isinstance(v, list) else v:
                _mark(x, True)
        elif isinstance(v, dict):
            for x in dict.values(v):
                _mark(x, True)


class TStr(str):
    """A probe string that records uses (llama marks it when it is looked up / printed)."""

    def __new__(cls, s):
        o = str.__new__(cls, s)
        o._st = _Stats()
        return o

    def __str__(self):
        _mark(self)
        return str.__str__(self)

    def __iter__(self):
        # llama.cpp: {% for x in a_string %} is an error ("Expected iterable or object type in
        # for loop"), after marking the string used with op "array_access".
        _mark(self)
        if not _probe_state["in_filter"]:
            self._st.ops.add("array_access")
            _probe_state["llama_fail"] = True
        return str.__iter__(self)

    def __add__(self, other):
        _mark(self)
        if other is None or isinstance(other, jinja2.Undefined):  # llama: none/undefined + str -> str
            return str.__str__(self)
        return str.__add__(self, other)

    def __radd__(self, other):
        _mark(self)
        if other is None or isinstance(other, jinja2.Undefined):
            return str.__str__(self)
        return str(other) + str.__str__(self)

    def __eq__(self, other):
        _mark(self)
        return str.__eq__(self, other)

    def __ne__(self, other):
        _mark(self)
        return str.__ne__(self, other)

    def __contains__(self, item):
        _mark(self)
        return str.__contains__(self, item)

    __hash__ = str.__hash__


class TList(list):
    def __add__(self, other):
        if isinstance(other, str):
            return _concat_any(list(self), other)
        return list.__add__(self, other)

    def __radd__(self, other):
        if isinstance(other, str):
            return _concat_any(other, list(self))
        return NotImplemented

    def __init__(self, it):
        super().__init__(it)
        self._st = _Stats()

    def __iter__(self):
        _mark(self)
        if not _probe_state["in_filter"]:
            self._st.ops.add("array_access")
        return list.__iter__(self)


def _concat_any(a, b):
    # llama.cpp: "str" + x / x + "str" concatenates the string forms (Python raises TypeError)
    return str(a) + str(b)


class TDict(dict):
    def __add__(self, other):
        if isinstance(other, str):
            return _concat_any(dict(self), other)
        return NotImplemented

    def __radd__(self, other):
        if isinstance(other, str):
            return _concat_any(other, dict(self))
        return NotImplemented

    def __init__(self, it):
        super().__init__(it)
        self._st = _Stats()

    def __iter__(self):
        _mark(self)
        if not _probe_state["in_filter"]:
            self._st.ops.add("array_access")
            self._st.ops.add("object_access")
        return dict.__iter__(self)


def _track(x):
    if isinstance(x, str):
        return TStr(x)
    if isinstance(x, list):
        return TList(_track(i) for i in x)
    if isinstance(x, dict):
        return TDict((k, _track(v)) for k, v in x.items())
    return x


class _ProbeUndefined(jinja2.ChainableUndefined):
    """llama.cpp's undefined: attributes of it are undefined, it concatenates with strings as ""."""

    def __add__(self, other):
        if isinstance(other, str):
            return other
        return super().__add__(other)

    def __radd__(self, other):
        if isinstance(other, str):
            return other
        return super().__radd__(other)


_LLAMA_OBJECT_BUILTINS = ("get", "keys", "values", "items", "default", "tojson", "string", "length", "dictsort",
                          "join")


class _LlamaBuiltin:
    """A builtin function value of llama.cpp reached through obj.<name>."""


class _ProbeEnv(SandboxedEnvironment):  # llama.cpp lets templates mutate lists (append, pop)
    def getitem(self, obj, argument):
        st = obj._st if isinstance(obj, (TStr, TList, TDict)) else None
        if st is not None:
            st.used = True
            if isinstance(argument, bool):
                pass
            elif isinstance(argument, int):
                st.ops.add("array_access")
            elif isinstance(argument, str):
                st.ops.add("object_access")
            elif isinstance(argument, slice):
                st.ops.add("slice")
        r = super().getitem(obj, argument)
        _mark(r)
        return r

    def getattr(self, obj, attribute):
        if attribute == "_llama_silent_get":
            if isinstance(obj, TDict):
                obj._st.used = True
                obj._st.ops.add("get")
            if isinstance(obj, dict):
                # llama.cpp: dict.get() returns the value without marking it used
                def get(key, default=None):
                    v = dict.get(obj, key, default)
                    return str.__str__(v) if isinstance(v, TStr) else v
                return get
            attribute = "get"
        if (attribute in _LLAMA_OBJECT_BUILTINS and isinstance(obj, (dict, jinja2.utils.Namespace))
                and attribute in (obj if isinstance(obj, dict) else obj._Namespace__attrs)):
            # llama.cpp: obj.items / obj.keys / ... is the builtin even when the object has that key
            if isinstance(obj, TDict):
                obj._st.used = True
                obj._st.ops.add(attribute)
            d = obj if isinstance(obj, dict) else obj._Namespace__attrs
            return getattr(dict, attribute, None).__get__(d) if hasattr(dict, attribute) else _LlamaBuiltin()
        st = obj._st if isinstance(obj, (TStr, TList, TDict)) else None
        if st is not None:
            st.used = True
            st.ops.add(attribute)
            if isinstance(obj, dict) and attribute in obj:
                st.ops.add("object_access")
        r = super().getattr(obj, attribute)
        _mark(r)
        return r


# The filters llama.cpp has for each type of value (value.cpp get_builtins); any other filter is
# an error "Unknown (built-in) filter". Aliases: count=length, d=default, e=escape, trim=strip.
_LLAMA_FILTERS = {
    "str": "default upper lower strip rstrip lstrip title capitalize length startswith endswith split rsplit "
           "replace format int float string slice safe tojson indent join",
    "list": "default list first last length slice selectattr select rejectattr reject join string tojson map "
            "append pop sort reverse min max unique",
    "dict": "default get keys values items tojson string length dictsort join",
    "int": "default abs int float safe string tojson",
    "bool": "default int float safe string tojson",
    "none": "default tojson string safe items map reject rejectattr select selectattr unique",
    "undefined": "default capitalize first items join last length list lower map max min reject rejectattr "
                 "replace reverse safe select selectattr sort string strip sum title truncate unique upper wordcount",
}
_LLAMA_FILTERS = {k: set(v.split()) for k, v in _LLAMA_FILTERS.items()}
_FILTER_ALIAS = {"count": "length", "d": "default", "e": "escape", "trim": "strip"}
_STR_COERCED = {"capitalize", "lower", "replace", "strip", "title", "upper", "wordcount"}


def _llama_kind(v):
    if isinstance(v, jinja2.Undefined):
        return "undefined"
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "int"
    if isinstance(v, str):
        return "str"
    if isinstance(v, (list, tuple, types.GeneratorType)):
        return "list"
    if isinstance(v, (dict, jinja2.utils.Namespace)):
        return "dict"
    return None


def _llama_has_filter(name, v):
    name = _FILTER_ALIAS.get(name, name)
    k = _llama_kind(v)
    if k is None:
        return True
    if name in _STR_COERCED and k != "undefined":
        k = "str"
    return name in _LLAMA_FILTERS[k]


def _wrap_filter(name, f):
    deep = name in ("tojson", "string")

    def wrapper(*args, **kw):
        # filters with pass_context/pass_eval_context get the context first
        vals = [a for a in args if not isinstance(a, (jinja2.runtime.Context, jinja2.nodes.EvalContext))]
        if vals:
            v = vals[0]
            st = v._st if isinstance(v, (TStr, TList, TDict)) else None
            if st is not None:
                st.used = True
                st.ops.add(name)
            if not _llama_has_filter(name, v):
                raise jinja2.TemplateRuntimeError("llama.cpp: unknown filter %r for this type" % name)
            if deep:
                _mark(v, True)
        _probe_state["in_filter"] += 1
        try:
            r = f(*args, **kw)
            if isinstance(r, types.GeneratorType):  # llama.cpp's map/select/... return lists
                r = list(r)
            return r
        finally:
            _probe_state["in_filter"] -= 1

    for attr in ("jinja_pass_arg",):
        if hasattr(f, attr):
            setattr(wrapper, attr, getattr(f, attr))
    return wrapper


def _silence_gets(node, parent=None, field_name=None):
    """x.get(k) marks its result used only where llama.cpp would look it up again: as the operand
    of a filter, attribute or subscript, or when it is assigned/iterated (identifier lookups)."""
    from jinja2 import nodes
    if (isinstance(node, nodes.Call) and isinstance(node.node, nodes.Getattr) and node.node.attr == "get"):
        keeps = (isinstance(parent, (nodes.Filter, nodes.Getattr, nodes.Getitem)) and field_name == "node") or \
            (isinstance(parent, nodes.Assign) and field_name == "node") or \
            (isinstance(parent, nodes.For) and field_name == "iter") or isinstance(parent, (nodes.Call, nodes.Keyword))
        if not keeps:
            node.node.attr = "_llama_silent_get"
    for fname in node.fields:
        v = getattr(node, fname, None)
        if isinstance(v, nodes.Node):
            _silence_gets(v, node, fname)
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, nodes.Node):
                    _silence_gets(x, node, fname)


def _wrap_test(f):
    def wrapper(*args, **kw):
        if args:
            _mark(args[0])
        _probe_state["in_filter"] += 1
        try:
            return f(*args, **kw)
        finally:
            _probe_state["in_filter"] -= 1
    return wrapper


_probe_cache = {}


def _probe_template(src):
    t = _probe_cache.get(src)
    if t is None:
        env = _ProbeEnv(trim_blocks=True, lstrip_blocks=True, undefined=_ProbeUndefined,
                        extensions=[hf_render.AssistantTracker, jinja2.ext.loopcontrols])
        env.filters["tojson"] = hf_render.tojson
        env.globals["raise_exception"] = hf_render.raise_exception
        env.globals["strftime_now"] = hf_render.strftime_now
        for g in ("dict", "lipsum", "cycler", "joiner"):  # globals llama.cpp does not have
            env.globals.pop(g, None)
        for k in list(env.filters):
            env.filters[k] = _wrap_filter(k, env.filters[k])
        for k in list(env.tests):
            env.tests[k] = _wrap_test(env.tests[k])
        ast = env.parse(src)
        _silence_gets(ast)
        t = env.template_class.from_code(env, env.compile(ast), env.make_globals(None), None)
        _probe_cache[src] = t
    return t


def _probe(src, messages, tools, extra=None):
    """Render one capability probe; returns (success, tracked messages, tracked tools, output)."""
    tm, tt = _track(messages), _track(tools)
    ctx = {"messages": tm, "tools": tt, "bos_token": "", "eos_token": "", "add_generation_prompt": True}
    if extra:
        ctx.update(extra)
    _probe_state["llama_fail"] = False
    _probe_state["in_filter"] = 0
    try:
        out = _probe_template(src).render(**ctx)
        ok = not _probe_state["llama_fail"]
    except Exception:
        out, ok = "", False
    return ok, tm, tt, out


_PROBE_TOOLS = [{
    "name": "tool", "type": "function",
    "function": {"name": "tool1", "description": "Tool description",
                 "parameters": {"type": "object",
                                "properties": {"arg": {"type": "string", "description": "Arg description"}},
                                "required": ["arg"]}},
}]


def _probe_tool_messages(args, n_calls=1):
    calls = [{"id": "call0000%d" % (i + 1), "type": "function",
              "function": {"name": "tool1", "arguments": copy.deepcopy(args)}} for i in range(n_calls)]
    return [
        {"role": "user", "content": "User message"},
        {"role": "assistant", "content": "", "tool_calls": calls},
        {"role": "tool", "content": "Tool response", "tool_call_id": "call00001"},
        {"role": "assistant", "content": "The tool response was 'tool response'"},
        {"role": "user", "content": "User message"},
    ]


@dataclass
class Caps:
    # jinja::caps (common/jinja/caps.h) -- defaults as in llama.cpp
    supports_tools: bool = True
    supports_tool_calls: bool = True
    supports_system_role: bool = True
    supports_parallel_tool_calls: bool = True
    supports_preserve_reasoning: bool = False
    supports_string_content: bool = True
    supports_typed_content: bool = False
    supports_object_arguments: bool = False
    # chat.cpp: which code path renders the template, and whether it "supports thinking"
    handler: str = "generic"
    supports_thinking: bool = False
    thinking_start_tag: str = ""
    reasoning: dict = field(default_factory=dict)


def jinja_caps(src) -> Caps:
    c = Caps()
    # probe 1: typed content -- one user message whose content is the string "content"
    ok, m, _, _ = _probe(src, [{"role": "user", "content": "content"}], [])
    content = m[0]["content"]
    if "selectattr" in content._st.ops or "array_access" in content._st.ops:
        c.supports_typed_content = True
    if not ok:
        c.supports_string_content = False
    # probe 2: system role -- is messages[0].content of a system message used at all?
    _, m, _, _ = _probe(src, [{"role": "system", "content": "System message"},
                              {"role": "user", "content": "User message"}], [])
    if not m[0]["content"]._st.used:
        c.supports_system_role = False
    # probe 3: one tool call with object arguments
    ok, m, t, _ = _probe(src, _probe_tool_messages({"arg": "value"}), _PROBE_TOOLS)
    string_args_probe = True
    if ok:
        if not t[0]["function"]["name"]._st.used:
            c.supports_tools = False
        tc = m[1]["tool_calls"]
        if not tc._st.used:
            c.supports_tool_calls = False
        elif tc[0]["function"]["arguments"]["arg"]._st.used:
            c.supports_object_arguments = True
    # probe 4 (only when object arguments were not detected): one tool call with string arguments
    if not c.supports_object_arguments:
        ok, m, t, _ = _probe(src, _probe_tool_messages('{"arg": "value"}'), _PROBE_TOOLS)
        if not ok:
            c.supports_tool_calls = False
            c.supports_tools = False
        else:
            if not t[0]["function"]["name"]._st.used:
                c.supports_tools = False
            if not m[1]["tool_calls"]._st.used:
                c.supports_tool_calls = False
    # probe 5: two parallel calls (object or string arguments, as detected)
    args = {"arg": "value"} if c.supports_object_arguments else '{"arg": "value"}'
    ok, m, _, _ = _probe(src, _probe_tool_messages(args, 2), _PROBE_TOOLS)
    if not ok:
        c.supports_parallel_tool_calls = False
    elif not m[1]["tool_calls"][1]["function"]._st.used:
        c.supports_parallel_tool_calls = False
    # probe 6: preserve reasoning (reasoning_content of an earlier assistant turn printed)
    ph = "<REASONING_CONTENT_PLACEHOLDER>"
    _, _, _, out = _probe(src, [
        {"role": "user", "content": "User message"},
        {"role": "assistant", "content": "Assistant message", "reasoning_content": ph},
        {"role": "user", "content": "User message"},
        {"role": "assistant", "content": "Assistant message", "reasoning_content": "Reasoning content"},
        {"role": "user", "content": "User message"},
    ], [], extra={"enable_thinking": True, "preserve_thinking": True, "clear_thinking": False,
                  "truncate_history_thinking": False, "drop_thinking": False})
    if ph in out:
        c.supports_preserve_reasoning = True
    return c


# ---------------------------------------------------------------------------------------------
# 2. Handler choice (chat.cpp: common_chat_try_specialized_template), by substrings of the source
# ---------------------------------------------------------------------------------------------
def handler_of(src):
    f = src.find
    if f("[SYSTEM_PROMPT]") >= 0 and f("[TOOL_CALLS]") >= 0 and f("[ARGS]") >= 0 and f("[CALL_ID]") < 0:
        return "ministral_3"
    if f("<|channel|>") >= 0:
        return "gpt_oss"
    if f(">>>all") >= 0 and f(">>>${recipient}") >= 0:
        return "functionary_v3_2"
    if f("<start_function_call>") >= 0:
        return "function_gemma"
    if f("<|tool_calls_section_begin|>") >= 0 and f("<|tool_call_begin|>") >= 0:
        return "kimi_k2"
    if f("<|START_TEXT|>") >= 0 and f("<|START_ACTION|>") >= 0:
        return "cohere2moe"
    if f("<|tool_list_start|>") >= 0 and f("<|tool_list_end|>") >= 0:
        return "lfm2"
    if f("List of tools: [") >= 0 and f("<|tool_list_start|>") < 0:
        return "lfm2_5"
    if f("<|role_sep|>") >= 0 and f("<|message_sep|>") >= 0 and f("<|function_call|>") < 0:
        return "gigachat_v3"
    if f("]<]minimax[>[") >= 0 and f("<tool_call>") >= 0 and f("<invoke name=") >= 0:
        return "minimax_m3"
    if f("dsml_token") >= 0 and f("DSML") >= 0 and (f("function_calls") >= 0 or f("tool_calls") >= 0):
        return "deepseek_v3_2"
    if f("'<|tool_call>call:'") >= 0:
        return "gemma4"
    if f("Tool usage guidelines:") >= 0 and f('<function name="') >= 0 and f('<param name="') >= 0:
        return "minicpm5"
    if f("<tool_call>") >= 0 and f("<function=") >= 0 and f("<parameter=") >= 0:
        return "qwen3_coder"
    return "generic"


# supports_thinking and thinking_start_tag set by each specialized handler (chat.cpp)
_HANDLER_THINKING = {
    "ministral_3": (True, "[THINK]"),
    "gpt_oss": (True, "<|channel|>analysis<|message|>"),
    "functionary_v3_2": (False, ""),
    "function_gemma": (False, ""),
    "kimi_k2": (True, "<think>"),
    "cohere2moe": (True, "<|START_THINKING|>"),
    "lfm2": (True, "<think>"),
    "lfm2_5": (True, "<think>"),
    "gigachat_v3": (False, ""),
    "minimax_m3": (True, "<mm:think>"),
    "deepseek_v3_2": (True, "<think>"),
    "gemma4": (True, "<|channel>thought"),
    "minicpm5": (True, "<think>"),
}


# ---------------------------------------------------------------------------------------------
# 3. Thinking support of the generic handler (chat-diff-analyzer.cpp: analyze_reasoning)
# ---------------------------------------------------------------------------------------------
USER_MSG = "U_USER_MSG Hello END_U"
ASSISTANT_MSG = "A_ASST_MSG I can help END_A"
THINKING_CONTENT = "REASON_PART I am thinking END_R"
_MARKER = r"(?:<[^>]*>|\[[^\]]*\])"
_WS = " \t\n\v\f\r"


def _trim(s):
    return s.strip(_WS)


def segmentize(text):
    """chat-auto-parser-helpers.cpp segmentize_markers: <...> and [...] are MARKER segments."""
    out, in_marker, opener, last = [], False, "", 0
    for i, ch in enumerate(text):
        if not in_marker and ch in "<[":
            if last < i:
                out.append(("T", text[last:i]))
            last, in_marker, opener = i, True, ch
        elif in_marker and ((opener == "<" and ch == ">") or (opener == "[" and ch == "]")):
            out.append(("M", text[last:i + 1]))
            last, in_marker, opener = i + 1, False, ""
    if last < len(text):
        out.append(("T", text[last:]))
    return out


def _cpl(a, b):
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _csl(a, b):
    n = 0
    while n < min(len(a), len(b)) and a[len(a) - 1 - n] == b[len(b) - 1 - n]:
        n += 1
    return n


def diff_split(left, right):
    """chat-auto-parser-helpers.cpp calculate_diff_split -> (prefix, suffix, left, right)."""
    L, R = segmentize(left), segmentize(right)
    if not L:
        return "", "", "", right
    if not R:
        return "", "", left, ""
    ls, le, rs, re_ = 0, len(L) - 1, 0, len(R) - 1
    prefix, suffix = "", ""
    lfc = rfc = False
    while ls != le and rs != re_:
        adv = False
        if L[ls] == R[rs]:
            prefix += L[ls][1]
            ls += 1
            rs += 1
            adv = True
        if L[le] == R[re_]:
            suffix = L[le][1] + suffix
            if ls != le:
                le -= 1
            else:
                lfc = True
            if rs != re_:
                re_ -= 1
            else:
                rfc = True
            adv = True
        if not adv:
            break
    if ls == le and rs != re_:
        if L[ls] == R[re_]:
            suffix = R[re_][1] + suffix
            re_ -= 1
            lfc = True
        elif L[ls] == R[rs]:
            prefix += R[rs][1]
            rs += 1
            lfc = True
    elif rs == re_ and ls != le:
        if L[le] == R[rs]:
            suffix = L[le][1] + suffix
            le -= 1
            rfc = True
        elif L[ls] == R[rs]:
            prefix += L[ls][1]
            ls += 1
            rfc = True
    elif ls == le and rs == re_ and L[ls] == R[rs] and L[ls][0] == "M":
        prefix += R[rs][1]
        lfc = rfc = True
    text_suffix = L[le][0] == "T" and R[re_][0] == "T"
    text_prefix = R[rs][0] == "T" and L[ls][0] == "T"
    rem_l = "".join(s[1] for s in L[ls:(le if lfc else le + 1)])
    rem_r = "".join(s[1] for s in R[rs:(re_ if rfc else re_ + 1)])
    sl = _csl(rem_l, rem_r) if text_suffix else 0
    pl = _cpl(rem_l[:len(rem_l) - sl], rem_r[:len(rem_r) - sl]) if text_prefix else 0
    prefix += rem_l[:pl]
    suffix = rem_l[len(rem_l) - sl:] + suffix
    dl = rem_l[pl:len(rem_l) - sl]
    dr = rem_r[pl:len(rem_r) - sl]
    if dl == "" and dr == "":
        prefix, suffix = left, ""
    if dl == "" and dr != "" and len(left) <= len(right) and right[:len(left)] == left:
        prefix, suffix, dr = left, "", right[len(left):]
    return prefix, suffix, dl, dr


def _apply_probe(src, messages, tools, agp, enable_thinking):
    """autoparser::apply_template: a direct render of raw probe messages (no rewriting)."""
    ctx = {"messages": messages, "bos_token": "", "eos_token": "", "enable_thinking": enable_thinking}
    if tools:
        ctx["tools"] = tools
    if agp:
        ctx["add_generation_prompt"] = True
    try:
        return hf_render.compile_template(src).render(**ctx)
    except Exception:
        return None


def _compare(src, a, b):
    oa = _apply_probe(src, *a)
    ob = _apply_probe(src, *b)
    if oa is None or ob is None:
        return None
    return diff_split(oa, ob), oa, ob


_AUTO_TOOLS = [
    {"type": "function", "function": {"name": n, "description": d, "parameters": {
        "type": "object", "properties": {
            "AA_ARG_FST_AA": {"type": "string", "description": "First argument"},
            "BB_ARG_SND_BB": {"type": "string", "description": "Second argument"}},
        "required": []}}}
    for n, d in (("FFF_FIRST_FUN_F", "Test function foo"), ("SSS_SECOND_FUN_S", "Test function bar"))]


def analyze_reasoning(src, supports_tool_calls):
    """Returns (mode, start, end) with mode in NONE/TAG_BASED/TOOLS_ONLY."""
    mode, start, end = "NONE", "", ""
    user = {"role": "user", "content": USER_MSG}
    # R1: reasoning_content present vs absent on a past assistant turn
    r = _compare(src, ([user, {"role": "assistant", "content": ASSISTANT_MSG}], None, False, True),
                 ([user, {"role": "assistant", "content": ASSISTANT_MSG, "reasoning_content": THINKING_CONTENT}],
                  None, False, True))
    if r is not None:
        (_, _, _, dr), _, ob = r
        if dr and THINKING_CONTENT in dr:
            m = re.search("(" + _MARKER + r"\s*)" + re.escape(THINKING_CONTENT) + r"(\s*" + _MARKER + r"\s*)", ob)
            if m:
                mode, start, end = "TAG_BASED", m.group(1), m.group(2)
            else:
                m = re.search(re.escape(THINKING_CONTENT) + r"\s*(" + _MARKER + r"\s*)?", ob)
                if m and m.group(1):
                    mode, end = "TAG_BASED", m.group(1)
    # R2: generation prompt with enable_thinking false vs true
    r = _compare(src, ([user], None, True, False), ([user], None, True, True))
    if r is not None:
        (_, _, dl, dr), oa, ob = r
        lt, rt = _trim(dl), _trim(dr)
        if lt == "" and dr != "":
            if rt != "" and ob.endswith(rt):
                if start == "":
                    start, mode = dr, "TAG_BASED"
        elif rt == "" and dl != "":
            if lt != "" and oa.endswith(lt):
                if end == "":
                    seg = [s for s in segmentize(oa) if _trim(s[1])]
                    if len(seg) >= 2 and seg[-1][1] == lt and seg[-2][0] == "M":
                        start = seg[-2][1]
                    end, mode = dl, "TAG_BASED"
        elif lt != "" and rt != "":
            for base, ext in ((ob, oa), (oa, ob)):
                n = min(len(base), 64)
                anchor = base[len(base) - n:]
                pos = ext.rfind(anchor)
                if pos < 0 or pos + n >= len(ext):
                    continue
                extra = _trim(ext[pos + n:])
                if not extra:
                    continue
                seg = [s for s in segmentize(extra) if _trim(s[1])]
                if len(seg) == 2 and seg[0][0] == "M" and seg[1][0] == "M":
                    start = start or seg[0][1]
                    end = end or seg[1][1]
                    mode = "TAG_BASED"
                    break
        if mode == "NONE" and start == "" and end != "":
            mode = "TAG_BASED"
    # R3: reasoning only shown next to tool calls
    if supports_tool_calls:
        call = {"id": "call00001", "type": "function", "function": {
            "name": "FFF_FIRST_FUN_F", "arguments": {"AA_ARG_FST_AA": "VVVV", "BB_ARG_SND_BB": "XXXX"}}}
        r = _compare(src, ([user, {"role": "assistant", "content": ASSISTANT_MSG,
                                   "reasoning_content": THINKING_CONTENT}], _AUTO_TOOLS, False, True),
                     ([user, {"role": "assistant", "content": None, "reasoning_content": THINKING_CONTENT,
                              "tool_calls": [call]}], _AUTO_TOOLS, False, True))
        if r is not None:
            _, oa, ob = r
            if THINKING_CONTENT not in oa and THINKING_CONTENT in ob:
                mode = "TOOLS_ONLY"
                m = re.search("(" + _MARKER + r"\s*)" + re.escape(THINKING_CONTENT) + r"\s*(" + _MARKER + r"\s*)", ob)
                if m:
                    start, end = m.group(1), m.group(2)
                else:
                    m = re.search(re.escape(THINKING_CONTENT) + r"\s*(" + _MARKER + r"\s*)?", ob)
                    if m:
                        end = m.group(1) or ""
                    else:
                        mode = "NONE"
    # workarounds (chat-diff-analyzer.cpp), the ones that touch reasoning
    if ("content.split('</think>')" in src and "reasoning_content" not in src and "<SPECIAL_12>" not in src
            and mode == "NONE"):
        mode, start, end = "TAG_BASED", "<think>", "</think>"
    if "Write your thoughts between <think></think> and write your response between <response></response>" in src:
        mode, start, end = "TAG_BASED", "<think>", "</think>"
    if ("<SPECIAL_10>" in src and "<SPECIAL_11>" in src and "<SPECIAL_12>" in src and "<TOOL_RESPONSE>" in src):
        mode, start, end = "TAG_BASED", "<think>\n", "</think>"
    if "laguna_glm_thinking" in src:
        start, end = _trim(start), _trim(end)
    return mode, start, end


_caps_cache = {}


def capabilities(src) -> Caps:
    c = _caps_cache.get(src)
    if c is not None:
        return c
    c = jinja_caps(src)
    c.handler = handler_of(src)
    if c.handler == "generic":
        mode, start, end = analyze_reasoning(src, c.supports_tool_calls)
        c.reasoning = {"mode": mode, "start": start, "end": end}
        c.supports_thinking = mode != "NONE"
        c.thinking_start_tag = _trim(start) if c.supports_thinking else ""
    elif c.handler == "qwen3_coder":
        c.supports_thinking = "<think>" in src
        c.thinking_start_tag = "<think>" if c.supports_thinking else ""
    else:
        c.supports_thinking, c.thinking_start_tag = _HANDLER_THINKING[c.handler]
    _caps_cache[src] = c
    return c


def default_enable_thinking(caps: Caps, oracle_binding=True) -> bool:
    """llama-server: enable_thinking defaults to common_chat_templates_support_enable_thinking().

    The recording tool (llama.node) cannot read supports_thinking and uses "thinking_start_tag is
    non-empty" instead; the two differ only for a generic template whose reasoning start marker is
    empty (delimiter style). oracle_binding=True reproduces the recordings."""
    return bool(caps.thinking_start_tag) if oracle_binding else caps.supports_thinking


# ---------------------------------------------------------------------------------------------
# 4. Request parsing and message rewriting
# ---------------------------------------------------------------------------------------------
def _dump_compact(x):
    # nlohmann::ordered_json::dump(): no spaces, UTF-8 kept
    return json.dumps(x, ensure_ascii=False, separators=(",", ":"))


def parse_messages(messages):
    """common_chat_msgs_parse_oaicompat -> list of common_chat_msg (as dicts)."""
    out = []
    try:
        if not isinstance(messages, list):
            raise ValueError("Expected 'messages' to be an array, got " + _dump_compact(messages))
        for m in messages:
            if not isinstance(m, dict):
                raise ValueError("Expected 'message' to be an object")
            if "role" not in m:
                raise ValueError("Missing 'role' in message")
            msg = {"role": m["role"], "content": "", "parts": [], "tool_calls": [], "reasoning_content": "",
                   "name": "", "tool_call_id": ""}
            if "content" in m:
                c = m["content"]
                if isinstance(c, str):
                    msg["content"] = c
                elif isinstance(c, list):
                    for p in c:
                        if "type" not in p:
                            raise ValueError("Missing content part type")
                        if p["type"] not in ("text", "media_marker"):
                            raise ValueError("Unsupported content part type: " + _dump_compact(p["type"]))
                        msg["parts"].append({"type": p["type"], "text": p["text"],
                                             "extra": {k: v for k, v in p.items() if k not in ("type", "text")}})
                elif c is not None:
                    raise ValueError("Invalid 'content' type: expected string or array")
            if "tool_calls" in m:
                for tc in m["tool_calls"]:
                    if tc.get("type") != "function":
                        raise ValueError("Unsupported tool call type")
                    fc = tc["function"]
                    args = fc["arguments"]
                    msg["tool_calls"].append({"name": fc["name"],
                                              "arguments": args if isinstance(args, str) else _dump_compact(args),
                                              "id": tc.get("id", "")})
            if "content" not in m and "tool_calls" not in m:
                raise ValueError("Expected 'content' or 'tool_calls'")
            msg["reasoning_content"] = m.get("reasoning_content", "") or ""
            msg["name"] = m.get("name", "") or ""
            msg["tool_call_id"] = m.get("tool_call_id", "") or ""
            out.append(msg)
    except (ValueError, KeyError, TypeError) as e:
        raise LlamaError("Failed to parse messages: %s" % e)
    return out


def parse_tools(tools):
    """common_chat_tools_parse_oaicompat + common_chat_tools_to_json_oaicompat."""
    if not tools:
        return None
    out = []
    for t in tools:
        if t.get("type") != "function" or "function" not in t:
            raise LlamaError("Failed to parse tools: Unsupported tool type")
        f = t["function"]
        out.append({"type": "function", "function": {
            "name": f["name"], "description": f.get("description", ""),
            "parameters": copy.deepcopy(f.get("parameters", {}))}})
    return out


def msg_to_json(msg, concat_typed_text):
    """common_chat_msg::to_json_oaicompat: the key order and field set the template sees."""
    j = {"role": msg["role"]}
    contains_media = any(p["type"] == "media_marker" for p in msg["parts"])
    if msg["content"]:
        j["content"] = msg["content"]
    elif msg["parts"]:
        if concat_typed_text or contains_media:
            text, last_media = "", False
            for p in msg["parts"]:
                if p["type"] == "text":
                    nl = not last_media and text != ""
                    last_media = False
                elif p["type"] == "media_marker":
                    nl, last_media = False, True
                else:
                    continue
                if nl:
                    text += "\n"
                text += p["text"]
            j["content"] = text
        else:
            j["content"] = [dict({"type": p["type"], "text": p["text"]}, **p["extra"]) for p in msg["parts"]]
    else:
        j["content"] = ""
    if msg["reasoning_content"]:
        j["reasoning_content"] = msg["reasoning_content"]
    if msg["name"]:
        j["name"] = msg["name"]
    if msg["tool_call_id"]:
        j["tool_call_id"] = msg["tool_call_id"]
    if msg["tool_calls"]:
        calls = []
        for tc in msg["tool_calls"]:
            c = {"type": "function", "function": {"name": tc["name"], "arguments": tc["arguments"]}}
            if tc["id"]:
                c["id"] = tc["id"]
            calls.append(c)
        j["tool_calls"] = calls
    return j


def render_messages_to_json(msgs, caps: Caps):
    """chat.cpp render_message_to_json: strings only / typed only / both, by capability."""
    only_string = caps.supports_string_content and not caps.supports_typed_content
    only_typed = not caps.supports_string_content and caps.supports_typed_content
    out = []
    for m in msgs:
        j = msg_to_json(m, concat_typed_text=only_string)
        if only_typed and isinstance(j["content"], str):
            j["content"] = [{"type": "text", "text": j["content"]}]
        out.append(j)
    return out


def _format_time(fmt):
    return NOW.strftime(fmt)


@dataclass
class Rewritten:
    context: dict            # the template's globals, in llama.cpp's insertion order
    handler: str
    add_generation_prompt: bool
    prefill: str | None      # appended verbatim to the rendered prompt
    add_bos: bool
    add_eos: bool
    bos: str
    eos: str
    enable_thinking: bool


def rewrite(src, req, caps: Caps | None = None) -> Rewritten:
    caps = caps or capabilities(src)
    bos, eos = req.get("bos", "<s>"), req.get("eos", "</s>")
    add_bos, add_eos = bool(req.get("add_bos", False)), bool(req.get("add_eos", False))
    kw = req.get("chat_template_kwargs") or {}
    messages = list(req.get("messages") or [])
    agp = req.get("add_generation_prompt", True)

    # --- llama-server (oaicompat_chat_params_parse / handle_apply_template) ---
    enable_thinking = default_enable_thinking(caps)
    if "enable_thinking" in kw:
        v = kw["enable_thinking"]
        if v is True or v is False:
            enable_thinking = v
        elif isinstance(v, str):
            raise LlamaError('invalid type for "enable_thinking" (expected boolean, got string)')
    prefill = None
    if messages and isinstance(messages[-1], dict) and messages[-1].get("role") == "assistant":
        last = messages[-1]
        messages = messages[:-1]
        if messages and messages[-1].get("role") == "assistant":
            raise LlamaError("Cannot have 2 or more assistant messages at the end of the list.")
        if enable_thinking:
            raise LlamaError("Assistant response prefill is incompatible with enable_thinking.")
        agp = True
        c = last.get("content")
        if isinstance(c, list):
            prefill = "".join(p.get("text", "") if isinstance(p, dict) and isinstance(p.get("text"), str) else ""
                              for p in c)
        else:
            prefill = c if isinstance(c, str) else ""

    # --- common_chat_templates_apply_jinja ---
    msgs = parse_messages(messages)
    tools = parse_tools(req.get("tools"))
    if "You have access to the following functions in JSONSchema format" in src:  # StepFun
        for m in msgs:
            m["content"] = _trim(m["content"])
            m["reasoning_content"] = _trim(m["reasoning_content"])
            for p in m["parts"]:
                if p["type"] == "text":
                    p["text"] = _trim(p["text"])
    jm = render_messages_to_json(msgs, caps)
    if "<|channel|>" not in src:
        for m in jm:
            if m["role"] == "developer":
                m["role"] = "system"
    if not caps.supports_system_role and jm and jm[0]["role"] == "system":
        if len(jm) > 1:
            a, b = jm[0]["content"], jm[1]["content"]
            for x in (a, b):
                if not isinstance(x, str):
                    raise LlamaError("[json.exception.type_error.302] type must be string, but is array")
            jm[1]["content"] = a + "\n" + b
        del jm[0]
    if caps.supports_tool_calls:
        for m in jm:
            if "tool_calls" in m and "content" not in m:
                m["content"] = ""
    if caps.supports_object_arguments:
        for m in jm:
            for tc in m.get("tool_calls", []):
                a = tc["function"]["arguments"]
                if isinstance(a, str):
                    try:
                        tc["function"]["arguments"] = json.loads(a)
                    except ValueError as e:
                        raise LlamaError("Failed to parse tool call arguments as JSON: %s" % e)
    extra = {"datetime": _format_time("%b %d %Y"), "date_string": _format_time("%d %b %Y")}
    for k in sorted(kw):  # std::map<string,string>: sorted keys, values re-parsed from JSON
        extra[k] = kw[k]

    # handler-specific message adjustments
    h = caps.handler
    if h == "gemma4" and "{#- OpenAI Chat Completions:" not in src:
        jm = _gemma4_tool_responses(jm)
    if h == "ministral_3":
        jm = [_ministral_msg(m) for m in jm]
    elif h == "gpt_oss":
        for m in jm:
            if isinstance(m.get("reasoning_content"), str):
                m["thinking"] = m["reasoning_content"]
                if m.get("tool_calls"):
                    m.pop("content", None)
    elif h in ("lfm2", "lfm2_5"):
        for m in jm:
            if isinstance(m.get("reasoning_content"), str):
                m["thinking"] = m["reasoning_content"]
    elif h == "deepseek_v3_2" and "function_calls" not in src:
        jm = _deepseek_v4_sort_tool_results(jm)

    # common_chat_template_direct_apply_impl: the context, in this order
    ctx = {"messages": jm, "bos_token": bos, "eos_token": eos, "enable_thinking": enable_thinking}
    if tools:
        ctx["tools"] = tools
    ctx.update(extra)
    if agp:
        ctx["add_generation_prompt"] = True
    if isinstance(ctx.get("preserve_reasoning"), bool):
        on = ctx["preserve_reasoning"]
        for k, v in (("preserve_thinking", on), ("clear_thinking", not on),
                     ("truncate_history_thinking", not on), ("drop_thinking", not on)):
            ctx.setdefault(k, v)
    return Rewritten(ctx, h, bool(agp), prefill, add_bos, add_eos, bos, eos, enable_thinking)


def _ministral_msg(m):
    if m["role"] not in ("system", "assistant"):
        return m
    blocks = []
    if isinstance(m.get("reasoning_content"), str):
        blocks.append({"type": "thinking", "thinking": m["reasoning_content"]})
    if "content" in m:
        if isinstance(m["content"], str):
            blocks.append({"type": "text", "text": m["content"]})
        elif isinstance(m["content"], list):
            blocks.extend(m["content"])
    m = dict(m)
    m["content"] = blocks
    m.pop("reasoning_content", None)
    return m


def _gemma4_tool_responses(msgs):
    out, i = [], 0
    while i < len(msgs):
        m = msgs[i]
        if m.get("role") != "assistant" or not m.get("tool_calls"):
            out.append(m)
            i += 1
            continue
        calls, responses, content, reasoning = list(m["tool_calls"]), [], None, None
        if isinstance(m.get("reasoning_content"), str):
            reasoning = m["reasoning_content"]
        i += 1
        while i < len(msgs) and msgs[i].get("role") == "tool":
            cur = msgs[i]
            resp = None
            if "content" in cur:
                c = cur["content"]
                if isinstance(c, str):
                    try:
                        resp = json.loads(c)
                    except ValueError:
                        resp = c
                else:
                    resp = c
            name = ""
            if len(responses) < len(calls):
                name = calls[len(responses)].get("function", {}).get("name", "")
            if not name:
                name = cur.get("tool_call_id", "")
            responses.append({"name": name, "response": resp})
            i += 1
        if i < len(msgs) and msgs[i].get("role") == "assistant":
            nxt = msgs[i]
            if not nxt.get("tool_calls") and isinstance(nxt.get("content"), (str, list)) and nxt["content"]:
                content = nxt["content"]
                i += 1
        nm = {"role": "assistant", "tool_calls": calls}
        if responses:
            nm["tool_responses"] = responses
        if content is not None:
            nm["content"] = content
        if reasoning is not None:
            nm["reasoning_content"] = reasoning
        out.append(nm)
    return out


def _deepseek_v4_sort_tool_results(msgs):
    adj = copy.deepcopy(msgs)
    order, i = {}, 0
    while i < len(adj):
        role = adj[i].get("role", "")
        if role == "assistant" and adj[i].get("tool_calls"):
            order = {tc.get("id", ""): k for k, tc in enumerate(adj[i]["tool_calls"]) if tc.get("id")}
            i += 1
            continue
        if role not in ("user", "tool"):
            i += 1
            continue
        pos, j = [], i
        while j < len(adj):
            r = adj[j].get("role", "")
            if r == "tool":
                pos.append(j)
            elif r != "user":
                break
            j += 1
        if len(pos) > 1 and order:
            res = sorted((adj[p] for p in pos), key=lambda m: order.get(m.get("tool_call_id", ""), 0))
            for k, p in enumerate(pos):
                adj[p] = res[k]
        i = j
    return adj


# ---------------------------------------------------------------------------------------------
# 5. Render and post-process
# ---------------------------------------------------------------------------------------------
def render_rewritten(src, rw: Rewritten) -> str:
    return _post(hf_render.compile_template(src).render(**rw.context), rw)


def render(src, req) -> str:
    return render_rewritten(src, rewrite(src, req))


# ---------------------------------------------------------------------------------------------
# 6. Driver: all templates x all cases against the recorded llama_server answers
# ---------------------------------------------------------------------------------------------
def template_paths():
    rows = open(os.path.join(SHARED, "templates", "MANIFEST.tsv"), encoding="utf-8").read().splitlines()[1:]
    return [r.split("\t")[0] for r in rows if r.strip()]


def reference(src, case):
    """('prompt', text) or ('error', message): what this reference implementation answers."""
    try:
        caps = capabilities(src)
    except Exception as e:  # noqa: BLE001
        return "error", "capabilities: %s" % e, None
    try:
        rw = rewrite(src, case, caps)
    except LlamaError as e:
        return "error", str(e), None
    try:
        return "prompt", render_rewritten(src, rw), rw
    except Exception as e:  # noqa: BLE001
        return "error", "%s: %s" % (type(e).__name__, e), rw


def run_all(templates=None, cases=None):
    cases = cases or json.load(open(os.path.join(SHARED, "oracle", "cases.json"), encoding="utf-8"))
    results = []
    for path in templates or template_paths():
        src = open(os.path.join(SHARED, "templates", path), encoding="utf-8").read()
        exp = json.load(open(os.path.join(SHARED, "oracle", "expected", path + ".json"), encoding="utf-8"))
        for case in cases:
            rec = exp["cases"].get(case["id"], {}).get("llama_server")
            if rec is None:
                continue
            kind, val, rw = reference(src, case)
            ok = (kind == "error") == ("error" in rec) and (kind == "error" or val == rec["prompt"])
            results.append({"template": path, "case": case["id"], "req": case, "ok": ok, "kind": kind, "value": val,
                            "expected": rec, "rewritten": rw, "src": src})
    return results


# ---------------------------------------------------------------------------------------------
# 7. Classification of the pairs the reference does not reproduce
# ---------------------------------------------------------------------------------------------
# Engine deviations of llama.cpp's Jinja engine (common/jinja) that can be emulated in Jinja2, used
# to *name* the cause of a difference: a pair is attributed to a deviation when turning its
# emulation on makes Python Jinja2, on the very same rewritten request, give llama-server's bytes.
def _llama_str(v):
    if v is None or isinstance(v, jinja2.Undefined):
        return ""
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, dict):
        return ""
    if isinstance(v, (list, tuple)):
        return "".join(_llama_str(x) for x in v)
    return str(v)


def _tojson_int_floats(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    def fix(v):
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, dict):
            return {k: fix(w) for k, w in v.items()}
        if isinstance(v, list):
            return [fix(w) for w in v]
        return v
    return hf_render.tojson(fix(x), ensure_ascii, indent, separators, sort_keys)


def _ascii_upper(s):
    return "".join(c.upper() if c < "\x80" else c for c in str(s))


def _ascii_lower(s):
    return "".join(c.lower() if c < "\x80" else c for c in str(s))


DEVIATIONS = {
    "none_prints_empty": "llama.cpp prints none as \"\" (Jinja2 prints \"None\")",
    "containers_not_repr": "llama.cpp prints a list as its items concatenated and a dict as \"\" (Jinja2 prints Python repr)",
    "tojson_int_floats": "llama.cpp's tojson prints an integral float (3.0) as 3",
    "length_bytes": "llama.cpp's length counts UTF-8 bytes of a string",
    "upper_lower_ascii": "llama.cpp's upper/lower change ASCII letters only",
    "split_keeps_empty": "llama.cpp's str.split() without arguments splits on single spaces and keeps empty items",
    "default_none": "llama.cpp's default(x) also replaces none",
    "undefined_lenient": "llama.cpp's undefined is lenient: its attributes/items/calls are undefined, it concatenates "
                         "as \"\" and iterates as empty (Jinja2 raises UndefinedError)",
    "null_concat": "llama.cpp's + and ~ treat none as \"\" next to a string, and \"str\" + list/dict concatenates "
                   "the repr (Jinja2: \"None\" or TypeError)",
    "list_filters": "llama.cpp's map/select/selectattr/reject/rejectattr return lists (Jinja2 generators, which "
                    "tojson cannot serialize)",
    "format_braces": "llama.cpp's format filter substitutes only '{}' placeholders (Jinja2's format is printf-style "
                     "%s)",
    "safe_noop": "llama.cpp's safe is a no-op (Jinja2's Markup HTML-escapes strings added to it)",
    "raw_repr": "llama.cpp's string form of a list/dict (|string, and |trim/upper/... which coerce to string first) "
                "writes strings unescaped in quotes (Jinja2 uses Python repr, which escapes \\n)",
    "list_mutation": "llama.cpp allows list.append/pop that transformers' ImmutableSandboxedEnvironment forbids",
}

# llama.cpp engine errors (where Jinja2 renders) -> the deviation they show
ENGINE_ERRORS = [
    ("selectattr: unknown test", "llama.cpp's selectattr/rejectattr(attribute, test) read their first argument as "
                                 "the test name"),
    ("Expected iterable or object type in for loop: got String", "llama.cpp cannot iterate over a string"),
    ("Cannot perform operation in on undefined values", "'undefined in x' is an error in llama.cpp (Jinja2: False)"),
    ("hint: 'dict'", "llama.cpp has no dict() global"),
    ("Unknown (built-in) filter", "llama.cpp lacks this filter for this type"),
    ("Unknown operator", "llama.cpp lacks this operator for these types"),
    ("Unknown test", "llama.cpp lacks this test"),
    ("not implemented", "llama.cpp does not implement this construct"),
    ("NotImplemented", "llama.cpp does not implement this construct"),
]


def _llama_repr(v):
    """llama.cpp value_to_string_repr / as_string of containers (no escaping inside strings)."""
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False) if "'" in v else "'" + v + "'"
    if v is None:
        return "None"
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, dict):
        return "{" + ", ".join(_llama_repr(k) + ": " + _llama_repr(x) for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_llama_repr(x) for x in v) + "]"
    return str(v)


class _LlamaUndefined(jinja2.Undefined):
    __slots__ = ()

    def __getattr__(self, name):
        if name[:2] == "__":
            raise AttributeError(name)
        return self

    def __getitem__(self, key):
        return self

    def __call__(self, *a, **k):
        return self

    def __add__(self, other):
        return other if isinstance(other, str) else self

    __radd__ = __add__

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def __str__(self):
        return ""

    def __eq__(self, other):
        return isinstance(other, jinja2.Undefined)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = jinja2.Undefined.__hash__


class _DevEnv(SandboxedEnvironment):
    devs = frozenset()
    intercepted_binops = frozenset(["+"])

    def call_binop(self, context, operator, left, right):
        if operator == "+" and "null_concat" in self.devs and not isinstance(left, Markup) \
                and not isinstance(right, Markup):
            ls, rs = isinstance(left, str), isinstance(right, str)
            if ls or rs:
                def s(v):
                    if v is None or isinstance(v, jinja2.Undefined):
                        return ""
                    if isinstance(v, (list, tuple, dict)):
                        return _llama_repr(v)
                    return str(v)
                return s(left) + s(right)
        return super().call_binop(context, operator, left, right)

    def getattr(self, obj, attribute):
        if "split_keeps_empty" in self.devs and isinstance(obj, str) and attribute == "split":
            def split(sep=None, maxsplit=-1):
                return str.split(obj, " " if sep is None else sep, maxsplit)
            return split
        if "upper_lower_ascii" in self.devs and isinstance(obj, str) and attribute in ("upper", "lower"):
            return (lambda: _ascii_upper(obj)) if attribute == "upper" else (lambda: _ascii_lower(obj))
        return super().getattr(obj, attribute)

    def is_safe_attribute(self, obj, attr, value):
        if "list_mutation" not in self.devs:
            from jinja2.sandbox import modifies_known_mutable
            if modifies_known_mutable(obj, attr):
                return False
        return super().is_safe_attribute(obj, attr, value)


def _llama_concat(*parts):
    return "".join("" if p is None or isinstance(p, jinja2.Undefined) else
                   (_llama_repr(p) if isinstance(p, (list, tuple, dict)) else str(p)) for p in parts)


def _concat_to_call(node):
    from jinja2 import nodes
    for fname in node.fields:
        v = getattr(node, fname, None)
        if isinstance(v, nodes.Concat):
            _concat_to_call(v)
            setattr(node, fname, nodes.Call(nodes.Name("__llama_concat", "load"), v.nodes, [], None, None,
                                            lineno=v.lineno))
        elif isinstance(v, nodes.Node):
            _concat_to_call(v)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, nodes.Concat):
                    _concat_to_call(x)
                    v[i] = nodes.Call(nodes.Name("__llama_concat", "load"), x.nodes, [], None, None, lineno=x.lineno)
                elif isinstance(x, nodes.Node):
                    _concat_to_call(x)


def _format_braces(s, *args, **kw):
    out, i, k = [], 0, 0
    while i < len(s):
        if s[i] == "{" and s[i + 1:i + 2] == "}":
            out.append(str(args[k]) if k < len(args) else "")
            k += 1
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def _dev_template(src, devs):
    env = _DevEnv(trim_blocks=True, lstrip_blocks=True,
                  extensions=[hf_render.AssistantTracker, jinja2.ext.loopcontrols],
                  undefined=_LlamaUndefined if "undefined_lenient" in devs else jinja2.Undefined)
    env.devs = frozenset(devs)
    env.filters["tojson"] = _tojson_int_floats if "tojson_int_floats" in devs else hf_render.tojson
    env.globals["raise_exception"] = hf_render.raise_exception
    env.globals["strftime_now"] = hf_render.strftime_now
    env.globals["__llama_concat"] = _llama_concat
    if "none_prints_empty" in devs or "containers_not_repr" in devs:
        both = "containers_not_repr" in devs
        none = "none_prints_empty" in devs

        def fin(v):
            if v is None and none:
                return ""
            if both and isinstance(v, (list, tuple, dict)):
                return _llama_str(v)
            return v
        env.finalize = fin
    if "length_bytes" in devs:
        orig = env.filters["length"]
        env.filters["length"] = env.filters["count"] = (
            lambda v: len(v.encode("utf-8")) if isinstance(v, str) else orig(v))
    if "upper_lower_ascii" in devs:
        env.filters["upper"], env.filters["lower"] = _ascii_upper, _ascii_lower
    if "default_none" in devs:
        orig_d = env.filters["default"]

        def default(v, d="", boolean=False):
            return d if v is None else orig_d(v, d, boolean)
        env.filters["default"] = env.filters["d"] = default
    if "list_filters" in devs:
        for name in ("map", "select", "selectattr", "reject", "rejectattr"):
            f = env.filters[name]

            def lf(*a, _f=f, **k):
                r = _f(*a, **k)
                return list(r) if isinstance(r, types.GeneratorType) else r
            for attr in ("jinja_pass_arg",):
                if hasattr(f, attr):
                    setattr(lf, attr, getattr(f, attr))
            env.filters[name] = lf
    if "format_braces" in devs:
        env.filters["format"] = _format_braces
    if "safe_noop" in devs:
        env.filters["safe"] = lambda v: v
    if "raw_repr" in devs:
        orig_s = env.filters["string"]
        env.filters["string"] = lambda v: _llama_repr(v) if isinstance(v, (list, tuple, dict)) else orig_s(v)
        for name in ("capitalize", "lower", "replace", "trim", "title", "upper", "wordcount"):
            f = env.filters[name]

            def coerced(v, *a, _f=f, **k):  # llama.cpp coerces a non-string to its string form first
                return _f(_llama_repr(v) if isinstance(v, (list, tuple, dict)) else v, *a, **k)
            for attr in ("jinja_pass_arg",):
                if hasattr(f, attr):
                    setattr(coerced, attr, getattr(f, attr))
            env.filters[name] = coerced
    ast = env.parse(src)
    if "null_concat" in devs:
        _concat_to_call(ast)
    return env.template_class.from_code(env, env.compile(ast), env.make_globals(None), None)


def render_with_deviations(src, rw: Rewritten, devs):
    out = _dev_template(src, devs).render(**rw.context)
    tmp = Rewritten(**dict(rw.__dict__))
    return _post(out, tmp)


def _post(out, rw):
    if rw.add_bos and out.startswith(rw.bos):
        out = out[len(rw.bos):]
    if rw.add_eos and out.endswith(rw.eos):
        out = out[:len(out) - len(rw.eos)]
    if rw.handler == "gpt_oss" and not rw.add_generation_prompt:
        p = out.rfind("<|return|>")
        if p >= 0:
            out = out[:p] + "<|end|>" + out[p + len("<|return|>"):]
    if rw.handler == "gemma4" and rw.add_generation_prompt and out.endswith("<turn|>\n"):
        out += "<|turn>model\n"
    if rw.prefill is not None:
        out += rw.prefill
    return out


def _name_deviations(src, rw, expected_prompt):
    """Smallest set of emulated deviations (1 or 2, then all) that turns Jinja2's output into llama's."""
    names = list(DEVIATIONS)

    def ok(devs):
        try:
            return render_with_deviations(src, rw, devs) == expected_prompt
        except Exception:  # noqa: BLE001
            return False
    for d in names:
        if ok({d}):
            return [d]
    for i, d in enumerate(names):
        for e in names[i + 1:]:
            if ok({d, e}):
                return [d, e]
    if ok(set(names)):
        return ["all emulated deviations together"]
    return None


class LlamaJinja:
    """Renders a context through llama.cpp's own Jinja engine (an external tool built from the
    llama.cpp sources, see docs/llama-server.md): JSON lines {"template","ctx"} -> {"prompt"|...}."""

    def __init__(self, path):
        import subprocess
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  encoding="utf-8")

    def _ask(self, req):
        self.p.stdin.write(json.dumps(req, ensure_ascii=False) + "\n")
        self.p.stdin.flush()
        return json.loads(self.p.stdout.readline())

    def render(self, src, ctx):
        o = self._ask({"template": src, "ctx": ctx})
        if "prompt" in o:
            return "prompt", o["prompt"]
        return "error", o.get("render_error") or o.get("error")

    def caps(self, src):
        return self._ask({"template": src}).get("caps")


_CLOCK = re.compile(r"\d\d:\d\d:\d\d")


def _first_diff(a, b):
    n = _cpl(a, b)
    return n, a[max(0, n - 20):n + 40], b[max(0, n - 20):n + 40]


def _dropped_by_loop_control(src, mine, exp):
    if not re.search(r"{%-?\s*(continue|break)\b", src) or len(exp) >= len(mine):
        return False
    n = _cpl(mine, exp)
    m = _csl(mine[n:], exp[n:])
    return exp[n:len(exp) - m] == ""


def _heuristic_reason(src, mine, exp):
    n, a, b = _first_diff(mine, exp)
    if mine[n:n + 4] == "None":
        return "none_prints_empty"
    if mine[n:n + 1] in "[{(" or mine[n:n + 2] == "['":
        return "containers_not_repr"
    return None


def _probe_difference(r, llama):
    """Confirms a pair whose difference comes from capability probing done by llama.cpp's engine:
    with the capabilities llama.cpp detects, the same request handling gives llama-server's answer."""
    exp, src = r["expected"], r["src"]
    # the capabilities llama.cpp's engine detects may differ from what Jinja2 probing finds
    lc = llama.caps(src)
    mine = capabilities(src)
    diff = sorted(k for k, v in (lc or {}).items() if getattr(mine, k) != v)
    if diff:
        for flip in (False, True):
            c2 = copy.copy(mine)
            for k in diff:
                setattr(c2, k, lc[k])
            if flip:  # the thinking probe (rendered by llama.cpp's engine) may differ too
                c2.thinking_start_tag = "" if mine.thinking_start_tag else "?"
            try:
                rw2 = rewrite(src, r["req"], c2)
                k2, v2 = llama.render(src, rw2.context)
                if k2 == "prompt" and _post(v2, rw2) == exp.get("prompt"):
                    return "engine", ("llama.cpp's engine probes the template differently (%s%s), which changes "
                                      "the request handling" % (", ".join("%s=%s" % (k, lc[k]) for k in diff),
                                                                ", enable_thinking default=%s" % (not (
                                                                    bool(mine.thinking_start_tag))) if flip
                                                                else ""))
            except LlamaError as e:
                if str(e) == exp.get("error"):
                    return "engine", ("llama.cpp's engine probes the template differently (%s%s), and then "
                                      "llama-server answers: %s" % (", ".join(diff), ", thinking" if flip else "",
                                                                    e))
    return None


def classify_pair(r, llama):
    """-> (category, reason). Categories: refused / engine / unexplained."""
    exp, src, rw = r["expected"], r["src"], r["rewritten"]
    if "error" in exp:
        e = exp["error"]
        if e.startswith("template rejected at load"):
            why = e.split("(", 1)[-1].rstrip(")") if "std::exception" in e else e.split(": ", 1)[-1]
            return "refused", "llama.cpp rejects the template at load (server would not start): " + \
                why.replace("\n", " ")[:160]
        if e.startswith("Unable to generate parser") and "While executing" not in e:
            return "refused", "autoparser failed: " + e.split("failed: ", 1)[-1].replace("\n", " ")[:160]
    if r["kind"] == "error" and rw is None:
        return "unexplained", "request handling error: " + r["value"][:160]
    if (r["kind"] == "prompt" and "prompt" in exp
            and _CLOCK.sub("HH:MM:SS", r["value"]) == _CLOCK.sub("HH:MM:SS", exp["prompt"])):
        return "engine", ("llama.cpp's strftime_now formats the wall clock of the recording run, not the request "
                          "time; only the time of day differs")
    # same rewritten request through llama.cpp's engine
    if llama is None:
        return "unexplained", "no llama.cpp engine to confirm"
    kind, val = llama.render(src, rw.context)
    if kind == "prompt":
        val = _post(val, rw)
    if "error" in exp:
        if kind == "error":
            msg = exp["error"].split("Error: ")[-1].replace("\n", " ")[:140]
            named = next((d for k, d in ENGINE_ERRORS if k in exp["error"]), None)
            return "engine", "llama.cpp's engine fails where Jinja2 renders%s: %s" % (
                " (%s)" % named if named else "", msg)
        return _probe_difference(r, llama) or (
            "unexplained", "llama.cpp errs but its engine renders the rewritten request")
    if kind == "error" or val != exp["prompt"]:
        got = _probe_difference(r, llama)
        if got:
            return got
        return "unexplained", "llama.cpp's engine on the rewritten request differs from the recording"
    # engine confirmed: name it
    if r["kind"] == "prompt" and _CLOCK.sub("HH:MM:SS", r["value"]) == _CLOCK.sub("HH:MM:SS", exp["prompt"]):
        return "engine", ("llama.cpp's strftime_now formats the wall clock of the recording run, not the request "
                          "time; only the time of day differs")
    if r["kind"] == "error":
        devs = _name_deviations(src, rw, exp["prompt"])
        if devs:
            return "engine", "Jinja2 raises (%s); %s" % (r["value"].split(":")[0],
                                                         "; ".join(DEVIATIONS.get(d, d) for d in devs))
        return "engine", "Jinja2 raises where llama.cpp renders: " + r["value"].replace("\n", " ")[:140]
    devs = _name_deviations(src, rw, exp["prompt"])
    if devs:
        return "engine", "; ".join(DEVIATIONS.get(d, d) for d in devs)
    if _dropped_by_loop_control(src, r["value"], exp["prompt"]):
        return "engine", ("llama.cpp drops the output an {% if %} block produced before a {% continue %}/"
                          "{% break %} inside it (Jinja2 keeps it); llama.cpp's bytes are Jinja2's with that "
                          "output removed")
    if re.search(r"{%-?\s*macro\s+\w+\([^)]*=", src) and re.search(r"\w\([^()]*,\s*\w+\s*=", src):
        n, a, b = _first_diff(r["value"], exp["prompt"])
        return "engine", ("llama.cpp binds macro arguments by position count: a keyword argument that skips a "
                          "defaulted parameter is lost and the default is used; Jinja2 %r vs llama.cpp %r at byte %d"
                          % (a, b, n))
    h = _heuristic_reason(src, r["value"], exp["prompt"])
    n, a, b = _first_diff(r["value"], exp["prompt"])
    return "engine", "%sJinja2 %r vs llama.cpp %r at byte %d" % (
        (DEVIATIONS[h] + "; ") if h else "", a, b, n)


def classify(results, llama_path=None):
    llama = LlamaJinja(llama_path) if llama_path else None
    rows = []
    for r in results:
        if r["ok"]:
            continue
        cat, why = classify_pair(r, llama)
        rows.append((r["template"], r["case"], cat, why.replace("\t", " ").replace("\n", " ")))
    rows.sort()
    return rows


def report(results, rows, show=0):
    import collections
    n = len(results)
    ok = sum(r["ok"] for r in results)
    prompt_pairs = [r for r in results if "prompt" in r["expected"]]
    okp = sum(r["ok"] for r in prompt_pairs)
    cat = collections.Counter(c for _, _, c, _ in rows)
    byk = {(t, c): k for t, c, k, _ in rows}
    catp = collections.Counter(byk[(r["template"], r["case"])] for r in prompt_pairs if not r["ok"])
    print("pairs: %d; reproduced %d; refused %d; engine %d; unexplained %d"
          % (n, ok, cat["refused"], cat["engine"], cat["unexplained"]))
    print("pairs where llama.cpp produced a prompt: %d; reproduced %d; refused %d; engine %d; unexplained %d"
          % (len(prompt_pairs), okp, catp["refused"], catp["engine"], catp["unexplained"]))
    shown = 0
    for t, c, k, w in rows:
        if k == "unexplained" and shown < show:
            print("UNEXPLAINED", t, c, w)
            shown += 1


def write_tsv(rows, path):
    with open(path, "w", encoding="utf-8") as f:
        f.write("template\tcase\tcategory\treason\n")
        for row in rows:
            f.write("\t".join(row) + "\n")


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--templates", nargs="*", help="template paths relative to shared/templates")
    ap.add_argument("--llama-jinja", default=os.environ.get("LLAMA_JINJA"),
                    help="path of a llama.cpp-jinja render tool (see docs/llama-server.md) used to confirm "
                         "engine deviations on the rewritten request")
    ap.add_argument("--write", action="store_true", help="write classification.tsv")
    ap.add_argument("--show", type=int, default=0, help="print N unexplained pairs")
    a = ap.parse_args(argv)
    res = run_all(a.templates)
    rows = classify(res, a.llama_jinja)
    report(res, rows, a.show)
    if a.write:
        write_tsv(rows, os.path.join(HERE, "classification.tsv"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
