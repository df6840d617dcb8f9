"""Pieces of C++ shared by the emitters: types, sizes and argument layout."""

from model import ELEMENT_BYTES

HEADER = "// Generated from the Khronos registry by wire-protocol/gen; do not edit.\n"


def elem_bytes(p):
    return ELEMENT_BYTES[p.base]


def inputs(c):
    """What travels of a command: its [layouts] fields, or its input parameters."""
    return c.layout or [p for p in c.params if p.kind != "out_array"]


def outputs(c):
    return [p for p in c.params if p.kind == "out_array"]


def encoder_params(c):
    """Parameters of wire::encode_glX: the call's inputs, then input byte counts."""
    return field_params(inputs(c))


def field_params(fields):
    """Parameters of an encoder of `fields`: their values, then byte counts."""
    parts = []
    for p in fields:
        parts.append(f"{p.ctype} {p.name}" if p.pointer == 0 else f"{p.ctype}{p.name}")
    for p in fields:
        if p.kind == "data_list":
            parts.append(f"const size_t* {p.name}_bytes")
            if p.buffer_source:
                parts.append(f"bool {p.name}_in_buffer")
        elif p.kind == "in_array":
            parts.append(f"size_t {p.name}_bytes")
            if p.buffer_source:
                parts.append(f"bool {p.name}_in_buffer")
    return ", ".join(parts)


def element_count(p, value):
    """C++ expression of an array's element count; `value(name)` reads a scalar."""
    if p.size_kind == "fixed":
        return p.count_expr
    if p.size_kind in ("expr", "counted_string"):
        expr = p.count_expr
        for token in sorted(set(_tokens(expr)), key=len, reverse=True):
            expr = _replace_token(expr, token, f"static_cast<int64_t>({value(token)})")
        return f"wire::size::nonnegative({expr})"
    if p.size_kind in ("enum", "func"):
        expr = p.count_expr
        for token in sorted(set(_tokens(expr.split("(", 1)[1])), key=len, reverse=True):
            head, tail = expr.split("(", 1)
            expr = head + "(" + _replace_token(tail, token, value(token))
        return expr
    raise ValueError(f"no element count for {p.name} ({p.size_kind})")


def _tokens(expr):
    import re
    return re.findall(r"[A-Za-z_]\w*", expr)


def _replace_token(expr, token, replacement):
    import re
    return re.sub(rf"\b{token}\b", replacement, expr)
