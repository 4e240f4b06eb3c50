"""sh syntax for the simulated board's shell: command lists (`;`, `&&`, `||`, `&`), pipes, redirections and
`$(( ))` arithmetic, split outside quotes and parentheses as sh does. No state: the shell (perfgate.sim.shell) runs
what these split."""

from __future__ import annotations

import ast
import re
import shlex


def _scan(line: str, ops: tuple[str, ...], cuts: list[tuple[int, str]] | None = None) -> list[tuple[str, str]]:
    """Split `line` at the operators `ops` outside quotes and parentheses; each piece with the operator before it.
    `cuts` receives (offset, operator) of every split."""
    parts: list[tuple[str, str]] = []
    buf: list[str] = []
    quote, depth, prev_op, i = "", 0, ";", 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"`":
            quote = ch
        elif ch == "(":  # $( ), $(( )) and ( subshells ) stay whole
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth and line.startswith("||", i) and "||" not in ops:
            buf.append("||")  # a pipe split leaves `a || b` whole
            i += 2
            continue
        elif not depth:
            op = next((o for o in ops if line.startswith(o, i)), None)
            if op == "&" and (line[i - 1 : i] == ">" or line[i + 1 : i + 2] == ">"):
                op = None  # 2>&1, &>file
            if op:
                if cuts is not None:
                    cuts.append((i, op))
                parts.append(("".join(buf).strip() + (" &" if op == "&" else ""), prev_op))
                prev_op = ";" if op == "&" else op
                buf = []
                i += len(op)
                continue
        buf.append(ch)
        i += 1
    parts.append(("".join(buf).strip(), prev_op))
    return [(p, o) for p, o in parts if p and p != "&"]


def list_cuts(line: str) -> list[tuple[int, str]]:
    """Offsets and operators where a command list splits (`a; b && c` -> [(1, ;), (5, &&)])."""
    cuts: list[tuple[int, str]] = []
    _scan(line, LIST_OPS, cuts)
    return cuts


LIST_OPS = ("&&", "||", ";", "\n", "&")


def split_list(line: str) -> list[tuple[str, str]]:
    """`a; b && c || d & e` -> [(a, ;), (b, ;), (c, &&), (d, ||), ...]."""
    return _scan(line, LIST_OPS)


def split_pipes(segment: str) -> list[str]:
    return [p for p, _ in _scan(segment, ("|",))]


def split_redirections(words: list[str]) -> tuple[list[str], list[tuple[int, str, str]]]:
    """Words without their redirections, and the redirections as (fd, op, target) in order."""
    out: list[str] = []
    redirs: list[tuple[int, str, str]] = []
    i = 0
    while i < len(words):
        w = words[i]
        m = re.fullmatch(r"(\d?|&)(>>|>&|>|<)(.*)", w)
        if m and not (w.startswith("<") and m.group(3) == "" and i + 1 >= len(words)):
            fd_text, op, target = m.groups()
            if not target and i + 1 < len(words):
                i += 1
                target = words[i]
            if op == "<":
                i += 1
                continue
            if fd_text == "&":
                redirs += [(1, ">", target), (2, ">&", "1")]
            else:
                fd = int(fd_text) if fd_text else 1
                if op == ">&" and not target.isdigit():
                    redirs += [(1, ">", target), (2, ">&", "1")]
                else:
                    redirs.append((fd, op, target))
            i += 1
            continue
        out.append(w)
        i += 1
    return out, redirs


def backgrounded(segment: str) -> bool:
    """`cmd &` (split_list keeps the `&` on the job it sends to the background)."""
    return segment.rstrip().endswith(" &") or segment.strip() == "&"


def is_compound(line: str) -> bool:
    return len(split_list(line)) > 1 or len(split_pipes(line)) > 1


def without_redirections(raw: str) -> str:
    try:
        words, _ = split_redirections(shlex.split(raw))
    except ValueError:
        return raw
    return shlex.join(words)


def arithmetic(expr: str, env: dict[str, str]) -> str:
    """sh's `$(( ))`: integers, + - * / %, parentheses, variables (unset = 0)."""
    text = re.sub(r"\$?\b([A-Za-z_]\w*)\b", lambda m: str(int(env.get(m.group(1), "0") or 0)), expr)

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            return -ev(node.operand) if isinstance(node.op, ast.USub) else ev(node.operand)
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            ops = {
                ast.Add: lambda: a + b,
                ast.Sub: lambda: a - b,
                ast.Mult: lambda: a * b,
                ast.Div: lambda: a // b if a * b >= 0 else -(-a // b),  # sh truncates toward zero
                ast.FloorDiv: lambda: a // b,
                ast.Mod: lambda: a % b,
            }
            if type(node.op) in ops:
                return ops[type(node.op)]()
        raise ValueError(expr)

    try:
        return str(ev(ast.parse(text, mode="eval")))
    except (ValueError, SyntaxError, ZeroDivisionError, TypeError):
        return "0"
