"""Emits the host's GL dispatch: validate every argument, then call GL."""

import re

from emit_common import HEADER, element_count, elem_bytes

OBJECT_TYPES = {
    "buffer": "kBuffer", "texture": "kTexture", "framebuffer": "kFramebuffer",
    "renderbuffer": "kRenderbuffer", "program": "kProgram", "shader": "kShader",
    "sampler": "kSampler", "query": "kQuery", "transform feedback": "kTransformFeedback",
    "vertex array": "kVertexArray", "program pipeline": "kProgramPipeline",
    "display list": "kDisplayList", "assembly program": "kAssemblyProgram",
    "memory object": "kMemoryObject",
}
# Kinds whose storage the memory ledger charges; GL may hand their names out
# again while a deleted object under that name still holds storage.
CHARGED_CLASSES = {"buffer", "texture", "renderbuffer"}


def handler_decl(c):
    if c.custom == "manual":
        return f"wire::Status handle_{c.name}(DispatchEnv& env, wire::Reader& r);\n"
    return f"wire::Status handle_{c.name}(DispatchEnv& env, wire::Args_{c.name}& a);\n"


def gl_host_handlers_h(model):
    decls = "".join(handler_decl(c) for c in model.ordered() if c.custom in ("host", "both", "manual"))
    return (HEADER + "// Hand-written host handlers (see annotations.toml).\n#pragma once\n\n"
            '#include "host/gl_dispatch.h"\n#include "wire/gl_decode.h"\n\nnamespace host {\n\n'
            + decls + "\n}  // namespace host\n")


def _name_use(model, c, p):
    if c.names_mode == "delete":
        return "NameUse::kDelete"
    if c.names_mode == "lenient":
        return "NameUse::kLenient"
    if p.cls in model.notes["rules"]["bind_create_classes"]:
        return "NameUse::kCreateOnUse"
    return "NameUse::kExisting"


def _scalar_arg(model, c, p, lines, post):
    if p.named_by:
        lines.append(f"  GLuint {p.name} = 0;")
        lines.append(f"  WIRE_TRY(st.translate_named_by(a.{p.named_by}, a.{p.name}, &{p.name}));")
        return p.name
    if not p.cls:
        return f"a.{p.name}"
    t = OBJECT_TYPES[p.cls]
    lines.append(f"  GLuint {p.name} = 0;")
    lines.append(f"  WIRE_TRY(st.translate(ObjectType::{t}, a.{p.name}, "
                 f"{_name_use(model, c, p)}, &{p.name}));")
    if c.names_mode == "delete":
        post.append(f"  st.forget_deleted(ObjectType::{t}, a.{p.name});")
    return p.name


def _host_count(p):
    return element_count(p, lambda name: f"a.{name}")


def _array_arg(model, c, p, lines, post):
    name, ctype = p.name, p.ctype.replace("const ", "").replace("*", "").strip()
    if p.size_kind == "pixels":
        image = _prefixed(c, p.count_expr)
        # glBitmap and stipples fix their format; glDrawPixels and glTexImage* take the guest's.
        guest_format = "a.format" in image
        lines.append(f"  auto {name} = input_pixels(st, a.{name}, {_bool(p.nullable)}, "
                     f"{_bool(guest_format)}, {image});")
        lines.append(f"  if (!{name}) return {name}.error();")
        # A format/type pair the host cannot size: GL_INVALID_ENUM, not run.
        lines.append(f"  if ({name}->refused) return {{}};")
        return f"static_cast<const {ctype}*>({name}->data)"
    elif p.size_kind == "counted_string":
        lines.append(f"  auto {name} = input_counted_string(env, a.{name}, a.{p.count_expr});")
    else:
        pad = "wire::size::kMaxEnumValues" if p.size_kind == "enum" else "0"
        count = _host_count(p)
        lines.append(f"  auto {name} = input_array(env, a.{name}, {count}, {elem_bytes(p)}, "
                     f"{pad}, {_bool(p.nullable)}, {_bool(p.buffer_source)});")
    lines.append(f"  if (!{name}) return {name}.error();")
    if p.cls and c.names_mode in ("delete", ""):
        t = OBJECT_TYPES[p.cls]
        use = "kDelete" if c.names_mode == "delete" else "kExisting"
        lines.append(f"  auto {name}_host = translate_array(st, ObjectType::{t}, *{name}, "
                     f"{_host_count(p)}, NameUse::{use});")
        lines.append(f"  if (!{name}_host) return {name}_host.error();")
        if c.names_mode == "delete":
            post.append(f"  forget_array(st, ObjectType::{t}, *{name}, {_host_count(p)});")
        return f"{name}_host->data()"
    return f"static_cast<const {ctype}*>(*{name})"


def _prefixed_expr(expr):
    """An annotation's size expression over the command's arguments."""
    return re.sub(r"\$(\w+)", r"static_cast<int64_t>(a.\1)", expr)


ALLOCATION_KEYS = {"object", "target", "unit", "name", "face", "level", "bytes", "mipmaps", "samples", "uses"}


def allocation_check(model, c):
    """The [allocations] check of a command: the object it fills (bound at
    `target`, or the host name `name` translates to), the texture level, and
    the bytes. Emitted after the arguments are validated, just before GL."""
    spec = model.notes.get("allocations", {}).get(c.name)
    if not spec:
        return None
    where = f"annotations: [allocations] {c.name}"
    args = {p.name for p in c.params}
    if c.custom in ("host", "both", "manual"):
        raise SystemExit(f"{where}: the host handler is hand-written")
    sizes = ("bytes" in spec) + bool(spec.get("mipmaps")) + ("samples" in spec)
    if set(spec) - ALLOCATION_KEYS or sizes != 1 or spec.get("object") not in OBJECT_TYPES:
        raise SystemExit(f"{where}: needs object, bytes (or mipmaps or samples) and target or name")
    if "samples" in spec and "level" not in spec:
        raise SystemExit(f"{where}: samples are of one level")
    if ("target" in spec) == ("name" in spec):
        raise SystemExit(f"{where}: needs exactly one of target and name")
    if ("unit" in spec and "target" not in spec) or ("face" in spec and "name" not in spec):
        raise SystemExit(f"{where}: a unit goes with a target, a face with a name")
    used = {spec[k] for k in ("target", "unit", "name", "face", "level", "samples", "uses") if k in spec}
    used |= set(re.findall(r"\$(\w+)", spec.get("bytes", "")))
    if used - args:
        raise SystemExit(f"{where}: no argument {sorted(used - args)}")
    for key in ("name", "uses"):
        if key in spec and not next(p for p in c.params if p.name == spec[key]).cls:
            raise SystemExit(f"{where}: {spec[key]} is not an object name")
    fields = [f".kind = ObjectType::{OBJECT_TYPES[spec['object']]}"]
    if "target" in spec:
        fields.append(f".target = a.{spec['target']}")
        if "unit" in spec:
            fields.append(f".unit = a.{spec['unit']}")
    else:
        if "face" in spec:
            fields.append(f".target = a.{spec['face']}")
        # The name was translated above into a local of the same name.
        fields += [f".object = {spec['name']}", ".named = true"]
    if "level" in spec:
        fields += [".per_level = true", f".level = a.{spec['level']}"]
    if spec.get("mipmaps"):
        fields.append(".mip_chain = true")
    elif "samples" in spec:
        fields.append(f".samples = a.{spec['samples']}")
    else:
        fields.append(f".bytes = {_prefixed_expr(spec['bytes'])}")
    if "uses" in spec:
        # Translated above, like `name`.
        used = next(p for p in c.params if p.name == spec["uses"])
        fields.append(f".uses = {{ObjectType::{OBJECT_TYPES[used.cls]}, {spec['uses']}}}")
    return f"  if (!st.admit_allocation({{{', '.join(fields)}}})) return {{}};"


def _matching(pattern, name):
    return re.fullmatch(pattern, name) is not None


def nonzero_check(model, c):
    """The [nonzero] refusal of a command: GL_INVALID_OPERATION, GL not
    called, when a parameter the annotation names is zero."""
    names = [param for param, pattern in model.notes.get("nonzero", {}).items()
             if _matching(pattern, c.name) and any(p.name == param for p in c.params)]
    if not names:
        return []
    if c.custom in ("host", "both", "manual"):
        raise SystemExit(f"annotations: [nonzero] {c.name}: the host handler is hand-written")
    zero = " || ".join(f"a.{n} == 0" for n in names)
    outputs = sum(1 for p in c.params if _is_output(p))
    return [f"  if ({zero}) {{",
            "    refuse_call(st, GL_INVALID_OPERATION);",
            f"    return {'refused_reply(env, ' + str(outputs) + ')' if outputs else '{}'};",
            "  }"]


def array_offset_check(model, c):
    """The [array_offsets] check: a zero buffer's offset is a client pointer;
    a null one goes into the host's empty buffer, any other is refused.
    Emitted once `buffer` is translated into a local of that name."""
    pattern = model.notes.get("array_offsets", {}).get("pattern")
    if not pattern or not _matching(pattern, c.name):
        return []
    if {"buffer", "offset"} - {p.name for p in c.params}:
        raise SystemExit(f"annotations: [array_offsets] {c.name}: needs buffer and offset")
    return ["  if (a.buffer == 0) {",
            "    if (a.offset != 0) {",
            "      refuse_call(st, GL_INVALID_OPERATION);",
            "      return {};",
            "    }",
            "    buffer = empty_array_buffer(st);",
            "  }"]


def _check_patterns(model):
    """Every [nonzero] and [array_offsets] pattern matches a carried command."""
    patterns = list(model.notes.get("nonzero", {}).values())
    patterns += [model.notes.get("array_offsets", {}).get("pattern")] if "array_offsets" in model.notes else []
    for pattern in patterns:
        if not any(_matching(pattern, name) for name in model.commands):
            raise SystemExit(f"annotations: {pattern!r} matches no carried command")


def _bool(value):
    return "true" if value else "false"


def _prefixed(c, args):
    """Size arguments: the command's own read from `a`, constants as written."""
    names = {p.name for p in c.params}
    return ", ".join(f"a.{a.strip()}" if a.strip() in names else a.strip() for a in args.split(","))


def _is_output(p):
    """Parameters dispatch_body hands to _out_arg: each puts one Data in the reply."""
    return not p.gen and p.kind not in ("scalar", "in_string", "in_array")


# Integer answers wide enough to hold an object's name.
NAME_ANSWER_TYPES = ("GLint", "GLuint", "GLint64", "GLuint64", "GLint64EXT", "GLuint64EXT")


def _out_arg(model, c, p, lines, post):
    name = p.name
    pad = "wire::size::kMaxEnumValues" if p.size_kind == "enum" else "0"
    if p.size_kind == "pixels":
        lines.append(f"  auto {name} = output_pixels(st, {_prefixed(c, p.count_expr)});")
    else:
        lines.append(f"  auto {name} = output_array(env, {_host_count(p)}, {elem_bytes(p)}, {pad});")
    lines.append(f"  if (!{name}) return {name}.error();")
    outputs = sum(1 for q in c.params if _is_output(q))
    lines.append(f"  if ({name}->refused) return refused_reply(env, {outputs});")
    ctype = p.ctype.replace("*", "").strip()
    # GL writes one string (a command with a `length` answer) and its NUL
    # only: the rest of the program's buffer stays as it was (programs pass
    # a bufSize larger than what they hold).
    one_string = (ctype in ("GLchar", "GLcharARB")
                  and any(q.name == "length" for q in c.params))
    written = f"written_string_bytes({name}->data, {name}->bytes)" if one_string else f"{name}->bytes"
    if ctype in NAME_ANSWER_TYPES and any(q.name == "pname" for q in c.params):
        # A pname that asks for a bound object's name: GL answers the host's.
        post.append(f"  if (answered) answer_guest_name(st, a.pname, static_cast<{ctype}*>({name}->data), "
                    f"{name}->bytes / sizeof({ctype}));")
    post.append(f"  env.reply.put_data({name}->data, answered ? {written} : 0);")
    return f"static_cast<{ctype}*>({name}->data)"


def _gen_arg(p, lines, post):
    """Names the guest allocated: the host generates its own and maps them."""
    name, count, t = p.name, _host_count(p), OBJECT_TYPES[p.cls]
    lines.append(f"  auto guest_{name} = input_array(env, a.{name}, {count}, 4, 0, false);")
    lines.append(f"  if (!guest_{name}) return guest_{name}.error();")
    lines.append(f"  auto {name} = output_array(env, {count}, 4, 0);")
    lines.append(f"  if (!{name}) return {name}.error();")
    lines.append(f"  if ({name}->refused) return {{}};  // GL_OUT_OF_MEMORY, no names made")
    if p.cls in CHARGED_CLASSES:
        # {regen} becomes the GL call again, making one name into `one`.
        post.append(f"  st.avoid_retired_names(ObjectType::{t}, static_cast<GLuint*>({name}->data), "
                    f"{count}, [&](GLuint* one) {{ {{regen}}; }});")
    post.append(f"  WIRE_TRY(st.adopt(ObjectType::{t}, static_cast<const GLuint*>(*guest_{name}), "
                f"static_cast<const GLuint*>({name}->data), {count}));")
    return f"static_cast<GLuint*>({name}->data)"


def dispatch_body(model, c):
    lines = [f"  wire::Args_{c.name} a;", f"  WIRE_TRY(wire::decode_{c.name}(r, a));"]
    if c.custom in ("host", "both"):
        lines.append(f"  return handle_{c.name}(env, a);")
        return "\n".join(lines)
    lines.append("  [[maybe_unused]] auto& st = env.state.impl();")
    lines.extend(nonzero_check(model, c))
    call_args, post = [], []
    for p in c.params:
        if p.gen:
            call_args.append(_gen_arg(p, lines, post))
        elif p.kind == "scalar":
            call_args.append(_scalar_arg(model, c, p, lines, post))
        elif p.kind == "in_string":
            lines.append(f"  auto {p.name} = input_string(a.{p.name});")
            lines.append(f"  if (!{p.name}) return {p.name}.error();")
            call_args.append(f"*{p.name}")
        elif p.kind == "in_array":
            call_args.append(_array_arg(model, c, p, lines, post))
        else:
            call_args.append(_out_arg(model, c, p, lines, post))
    lines.extend(array_offset_check(model, c))
    check = allocation_check(model, c)
    if check:
        # Over the guest's limits: GL_OUT_OF_MEMORY, nothing allocated.
        lines.append(check)
    call = f"{c.name}({', '.join(call_args)})"
    gen = next((p for p in c.params if p.gen), None)
    if gen is not None:
        if gen.cls in CHARGED_CLASSES and [q.name for q in c.params][-2:] != ["n", gen.name]:
            raise SystemExit(f"{c.name}: expected (..., n, names) to make names one at a time")
        one = [("1" if q.name == "n" else "one" if q is gen else arg)
               for q, arg in zip(c.params, call_args)]
        post = [line.replace("{regen}", f"{c.name}({', '.join(one)})") for line in post]
    # A query GL refuses writes nothing into its outputs: the guest then
    # copies nothing into the program's memory.
    queries = any(_is_output(p) for p in c.params)
    if c.ret != "void" and queries:
        lines.append(f"  {c.ret} ret{{}};")
        lines.append(f"  const bool answered = answered_by_gl(st, [&] {{ ret = {call}; }});")
        lines.append("  env.reply.put(ret);")
    elif c.ret != "void":
        lines.append(f"  {c.ret} ret = {call};")
        lines.append("  env.reply.put(ret);")
    elif queries:
        lines.append(f"  const bool answered = answered_by_gl(st, [&] {{ {call}; }});")
    else:
        lines.append(f"  {call};")
    lines.extend(post)
    lines.append("  return {};")
    return "\n".join(lines)


def gl_dispatch_cpp(model):
    unknown = set(model.notes.get("allocations", {})) - set(model.commands)
    if unknown:
        raise SystemExit(f"annotations: [allocations] {sorted(unknown)}: not carried commands")
    _check_patterns(model)
    out = [HEADER, '#include <epoxy/gl.h>\n\n#include "gl/dispatch_support.h"\n'
           '#include "gl/bound_names.h"\n#include "gl/client_arrays.h"\n#include "gl/pixel_transfer.h"\n'
           '#include "gl_host_handlers.h"\n#include "wire/gl_decode.h"\n#include "wire/sizes.h"\n\n'
           "namespace host {\nnamespace {\n\n"]
    table = []
    for c in model.ordered():
        if c.custom == "manual":
            table.append((c.opcode, f"handle_{c.name}"))
            continue
        out.append(f"wire::Status d_{c.name}(DispatchEnv& env, wire::Reader& r) {{\n"
                   f"{dispatch_body(model, c)}\n}}\n\n")
        table.append((c.opcode, f"d_{c.name}"))
    first = table[0][0]
    slots = {op: fn for op, fn in table}
    rows = "".join(f"    {slots.get(op, 'nullptr')},\n" for op in range(first, table[-1][0] + 1))
    out.append("}  // namespace\n\n"
               "DispatchFn gl_dispatch_fn(uint32_t opcode) {\n"
               "  static const DispatchFn kTable[] = {\n" + rows + "  };\n"
               f"  if (opcode < {first} || opcode - {first} >= std::size(kTable)) return nullptr;\n"
               f"  return kTable[opcode - {first}];\n}}\n\n}}  // namespace host\n")
    return "".join(out)
