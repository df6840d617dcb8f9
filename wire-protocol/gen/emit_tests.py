"""Emits per-command tests: random round trips and a decode-any table for
truncation and fuzzing."""

from emit_common import HEADER, inputs
from emit_wire import encodable


def _fill(p, list_counts):
    """Declares a random value for one input; returns (lines, encoder args)."""
    v = f"v_{p.name}"
    if p.name in list_counts:  # how many Data a later field carries: a few
        return [f"  {p.base} {v} = static_cast<{p.base}>(rng.scalar<uint8_t>() % 4);"], [v]
    if p.kind == "data_list":
        return ([f"  std::vector<std::vector<std::byte>> {v}(static_cast<size_t>(v_{p.count_expr}));",
                 f"  std::vector<const void*> {v}_at;\n  std::vector<size_t> {v}_bytes;",
                 f"  for (auto& d : {v}) {{\n    d = rng.bytes();\n    {v}_at.push_back(d.data());\n"
                 f"    {v}_bytes.push_back(d.size());\n  }}"],
                [f"{v}_at.data()"])
    if p.kind == "scalar":
        return [f"  {p.base} {v} = rng.scalar<{p.base}>();"], [v]
    if p.kind == "in_string":
        return [f"  std::string {v} = rng.text();"], [f"{v}.c_str()"]
    ctype = p.ctype.replace("*", "").strip()
    return ([f"  std::vector<std::byte> {v} = rng.bytes();"],
            [f"reinterpret_cast<{ctype}*>({v}.data())"])


def _check(p):
    v = f"v_{p.name}"
    if p.kind == "scalar":
        return f"  EXPECT_TRUE(same_bytes(a.{p.name}, {v})) << \"{p.name}\";"
    if p.kind == "in_string":
        return f"  EXPECT_EQ(as_string(a.{p.name}), {v} + std::string(1, '\\0')) << \"{p.name}\";"
    if p.kind == "data_list":
        return (f"  ASSERT_EQ(a.{p.name}.size(), {v}.size()) << \"{p.name}\";\n"
                f"  for (size_t i = 0; i < {v}.size(); ++i) EXPECT_EQ(as_bytes(a.{p.name}[i]), {v}[i]);")
    return f"  EXPECT_EQ(as_bytes(a.{p.name}), {v}) << \"{p.name}\";"


def _fills(fields):
    """Random values of `fields`: (declarations, the encoder's arguments)."""
    lines, args, sizes = [], [], []
    list_counts = {p.count_expr for p in fields if p.kind == "data_list"}
    for p in fields:
        decl, a = _fill(p, list_counts)
        lines += decl
        args += a
        if p.kind == "data_list":
            sizes.append(f"v_{p.name}_bytes.data()")
        elif p.kind == "in_array":
            sizes.append(f"v_{p.name}.size()")
        if p.kind in ("data_list", "in_array") and p.buffer_source:
            sizes.append("false")
    return lines, args + sizes


def roundtrip_fn(c):
    lines, args = _fills(inputs(c))
    call_args = ", ".join(["out"] + args)
    checks = "\n".join(_check(p) for p in inputs(c))
    return (f"void roundtrip_{c.name}(Rng& rng) {{\n" + "\n".join(lines) +
            f"\n  wire::Writer out;\n  wire::encode_{c.name}({call_args});\n"
            f"  wire::Args_{c.name} a;\n"
            f"  const auto payload = single_command(out, {c.opcode});\n"
            f"  wire::Reader in(payload, 0);\n"
            f"  ASSERT_TRUE(wire::decode_{c.name}(in, a).ok());\n{checks}\n"
            f"  expect_truncation_fails(payload, [](wire::Reader& cut) {{\n"
            f"    wire::Args_{c.name} b;\n    return wire::decode_{c.name}(cut, b);\n  }});\n}}\n\n")


def reply_roundtrip_fn(c):
    """The same for a reply: what the host encodes, the guest decodes."""
    lines, args = _fills(c.reply)
    call_args = ", ".join(["out"] + args)
    checks = "\n".join(_check(p) for p in c.reply)
    return (f"void roundtrip_reply_{c.name}(Rng& rng) {{\n" + "\n".join(lines) +
            f"\n  wire::Writer out;\n  wire::encode_reply_{c.name}({call_args});\n"
            f"  wire::Reply_{c.name} a;\n"
            f"  const std::vector<std::byte> payload(out.bytes().begin(), out.bytes().end());\n"
            f"  wire::Reader in(payload, 0);\n"
            f"  ASSERT_TRUE(wire::decode_reply_{c.name}(in, a).ok());\n{checks}\n"
            f"  expect_truncation_fails(payload, [](wire::Reader& cut) {{\n"
            f"    wire::Reply_{c.name} b;\n    return wire::decode_reply_{c.name}(cut, b);\n  }});\n}}\n\n")


def gl_roundtrip_test_cpp(model):
    cmds = [c for c in model.ordered() if encodable(c)]
    replies = [c for c in model.ordered() if c.reply]
    out = [HEADER, '#include "roundtrip_support.h"\n\n#include "wire/gl_decode.h"\n'
           '#include "wire/gl_encode.h"\n#include "wire/gl_replies.h"\n\nnamespace {\n\n']
    out += [roundtrip_fn(c) for c in cmds]
    out += [reply_roundtrip_fn(c) for c in replies]
    table = "".join(f'    {{"{c.name}", roundtrip_{c.name}}},\n' for c in cmds)
    table += "".join(f'    {{"{c.name} reply", roundtrip_reply_{c.name}}},\n' for c in replies)
    out.append("}  // namespace\n\nconst std::vector<RoundTrip>& all_roundtrips() {\n"
               "  static const std::vector<RoundTrip> kAll = {\n" + table + "  };\n"
               "  return kAll;\n}\n")
    return "".join(out)


def gl_decode_any_cpp(model):
    cases = "".join(
        f"    case {c.opcode}: {{\n      wire::Args_{c.name} a;\n"
        f"      return wire::decode_{c.name}(r, a);\n    }}\n"
        for c in model.ordered() if encodable(c))
    return (HEADER + '#include "decode_any.h"\n\n#include "wire/gl_decode.h"\n\n'
            "wire::Status decode_any(uint32_t opcode, wire::Reader& r) {\n"
            "  switch (opcode) {\n" + cases +
            "    default:\n      return wire::make_error(wire::Errc::kUnknownOpcode, \"opcode\");\n"
            "  }\n}\n")
