"""Just enough Groovy to read a declarative Jenkinsfile in the tests: a tokenizer that knows Groovy's comments and
string literals ('...', "...", '''...''' and the triple double-quoted form, with their escapes and line
continuations), bracket balance, and the parts a pipeline's commands come from: `sh` steps, `parameters
{ string(...) }`, `environment { K = "..." }`, and named string arguments (`junit testResults: '...'`). Slashy and
dollar-slashy strings are not supported (an example pipeline has no use for them): a lone `/` is an operator."""

from __future__ import annotations

import re
from dataclasses import dataclass

ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "\\": "\\", "'": "'", '"': '"', "$": "$"}


class GroovyError(ValueError):
    pass


@dataclass
class Token:
    kind: str  # "string", "name", "punct", "number"
    text: str  # a string's decoded value; otherwise the token itself
    line: int
    quote: str = ""  # a string's delimiter: ', ", ''' or \"\"\"
    raw: str = ""  # a string's text as written (escapes undecoded)

    @property
    def interpolated(self) -> bool:
        """A double-quoted string (a GString) with a `$` Groovy would substitute."""
        return self.quote in ('"', '"""') and bool(re.search(r"(?<!\\)\$", self.raw))


def _decode(body: str, line: int) -> str:
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n == "\n":  # a line continuation
                i += 2
                continue
            if n not in ESCAPES and n != "u":
                raise GroovyError(f"line {line}: unknown escape \\{n}")
            if n == "u":
                out.append(chr(int(body[i + 2 : i + 6], 16)))
                i += 6
                continue
            out.append(ESCAPES[n])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def tokens(text: str) -> list[Token]:
    out: list[Token] = []
    i, line = 0, 1
    while i < len(text):
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise GroovyError(f"line {line}: unterminated /* comment")
            line += text.count("\n", i, end)
            i = end + 2
        elif c in "'\"":
            quote = c * 3 if text.startswith(c * 3, i) else c
            j = i + len(quote)
            while True:
                if j >= len(text):
                    raise GroovyError(f"line {line}: unterminated string {quote}")
                if text[j] == "\\":
                    j += 2
                    continue
                if text.startswith(quote, j):
                    break
                if len(quote) == 1 and text[j] == "\n":
                    raise GroovyError(f"line {line}: newline in a {quote}-string (use {quote * 3})")
                j += 1
            raw = text[i + len(quote) : j]
            out.append(Token("string", _decode(raw, line), line, quote, raw))
            line += raw.count("\n")
            i = j + len(quote)
        elif c.isalpha() or c == "_":
            m = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[i:])
            assert m
            out.append(Token("name", m.group(), line))
            i += m.end()
        elif c.isdigit():
            m = re.match(r"[0-9][0-9_.]*", text[i:])
            assert m
            out.append(Token("number", m.group(), line))
            i += m.end()
        else:
            out.append(Token("punct", c, line))
            i += 1
    return out


def check_brackets(toks: list[Token]) -> None:
    pairs = {")": "(", "]": "[", "}": "{"}
    stack: list[Token] = []
    for t in toks:
        if t.kind != "punct":
            continue
        if t.text in "([{":
            stack.append(t)
        elif t.text in pairs:
            if not stack or stack[-1].text != pairs[t.text]:
                raise GroovyError(f"line {t.line}: unbalanced {t.text}")
            stack.pop()
    if stack:
        raise GroovyError(f"line {stack[-1].line}: {stack[-1].text} never closed")


def block(toks: list[Token], name: str) -> list[Token]:
    """The tokens inside the first `name { ... }`."""
    for k, t in enumerate(toks):
        if t.kind == "name" and t.text == name and k + 1 < len(toks) and toks[k + 1].text == "{":
            depth = 0
            for j in range(k + 1, len(toks)):
                if toks[j].kind == "punct" and toks[j].text == "{":
                    depth += 1
                elif toks[j].kind == "punct" and toks[j].text == "}":
                    depth -= 1
                    if depth == 0:
                        return toks[k + 2 : j]
    return []


def sh_steps(toks: list[Token]) -> list[Token]:
    """Every `sh '...'`, `sh(...)` with a string or `script: '...'`, in order (the string tokens)."""
    steps = []
    for k, t in enumerate(toks):
        if t.kind != "name" or t.text != "sh":
            continue
        rest = toks[k + 1 : k + 5]
        if rest and rest[0].kind == "string":
            steps.append(rest[0])
        elif len(rest) >= 2 and rest[0].text == "(" and rest[1].kind == "string":
            steps.append(rest[1])
        elif len(rest) >= 4 and rest[0].text == "(" and rest[1].text == "script" and rest[2].text == ":":
            steps.append(rest[3])
        else:
            raise GroovyError(f"line {t.line}: an sh step whose script is not a string literal")
    return steps


def named_strings(toks: list[Token], name: str) -> list[str]:
    """The values of every `name: '...'` argument."""
    return [toks[k + 2].text for k in range(len(toks) - 2)
            if toks[k].kind == "name" and toks[k].text == name and toks[k + 1].text == ":"
            and toks[k + 2].kind == "string"]  # fmt: skip


def string_parameters(toks: list[Token]) -> dict[str, str]:
    """`parameters { string(name: 'X', defaultValue: 'v', ...) }` -> {X: v}."""
    params = block(toks, "parameters")
    names, defaults = named_strings(params, "name"), named_strings(params, "defaultValue")
    if len(names) != len(defaults):
        raise GroovyError("a string parameter without a name or a defaultValue")
    return dict(zip(names, defaults, strict=True))


def environment(toks: list[Token]) -> dict[str, Token]:
    """`environment { NAME = '...' or "..." }` -> {NAME: the string token}."""
    env = block(toks, "environment")
    out = {}
    for k in range(len(env) - 2):
        if env[k].kind == "name" and env[k + 1].text == "=" and env[k + 2].kind == "string":
            out[env[k].text] = env[k + 2]
    return out
