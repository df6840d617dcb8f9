"""The command model: gl.xml + the annotations file -> classified commands.

Every later stage (opcodes, wire encoder/decoder, guest entry points, host
dispatch, tests) reads this model, so the two sides cannot drift.
"""

import re
import tomllib
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import opcode_table

# Scalar GL types: (C++ type used in code, bytes on the wire).
SCALARS = {
    "GLenum": ("GLenum", 4), "GLboolean": ("GLboolean", 1), "GLbitfield": ("GLbitfield", 4),
    "GLbyte": ("GLbyte", 1), "GLubyte": ("GLubyte", 1), "GLshort": ("GLshort", 2),
    "GLushort": ("GLushort", 2), "GLint": ("GLint", 4), "GLuint": ("GLuint", 4),
    "GLclampx": ("GLclampx", 4), "GLfixed": ("GLfixed", 4), "GLsizei": ("GLsizei", 4),
    "GLfloat": ("GLfloat", 4), "GLclampf": ("GLclampf", 4), "GLdouble": ("GLdouble", 8),
    "GLclampd": ("GLclampd", 8), "GLint64": ("GLint64", 8), "GLint64EXT": ("GLint64EXT", 8),
    "GLuint64": ("GLuint64", 8), "GLuint64EXT": ("GLuint64EXT", 8), "GLhalf": ("GLhalf", 2),
    "GLhalfNV": ("GLhalfNV", 2), "GLchar": ("GLchar", 1), "GLcharARB": ("GLcharARB", 1),
    # Pointer-sized integers travel as 64 bits so 32- and 64-bit guests agree.
    "GLintptr": ("GLintptr", 8), "GLsizeiptr": ("GLsizeiptr", 8),
    "GLintptrARB": ("GLintptrARB", 8), "GLsizeiptrARB": ("GLsizeiptrARB", 8),
}
# Bytes per element of arrays of these types (void counts bytes).
ELEMENT_BYTES = {k: v[1] for k, v in SCALARS.items()} | {"void": 1}
# Arrays of pointer-sized integers keep their native layout (64-bit guests only).
ELEMENT_BYTES |= {"GLintptr": 8, "GLsizeiptr": 8, "GLintptrARB": 8, "GLsizeiptrARB": 8}



# The registry's API names whose features and extensions are carried.
CARRIED_APIS = ("gl", "gles1", "gles2")


class Unsupported(Exception):
    """A command the generator cannot handle without hand-written code."""


@dataclass
class Param:
    name: str
    ctype: str           # full C type, e.g. "const GLfloat *"
    base: str            # element or scalar type, e.g. "GLfloat" or "void"
    pointer: int         # pointer depth
    const: bool
    len: str | None
    cls: str | None      # object class ("buffer", "texture", ...)
    kind: str = ""       # scalar | in_array | in_string | out_array
    size_kind: str = ""  # for arrays: fixed | expr | pname | pixels
    count_expr: str = ""  # C++ element count (expr, fixed) or args for size funcs
    buffer_source: str = ""  # "unpack": may be an offset into the bound unpack buffer
    nullable: bool = False   # NULL is meaningful (e.g. allocate without data)
    in_place: bool = False   # heap bytes read where they lie (Reader::get_data_in_place)
    gen: bool = False        # names the guest allocates (glGen*, glCreate*)
    named_by: str | None = None  # the parameter (target, identifier) whose value says what it names


@dataclass
class Command:
    name: str
    ret: str             # C return type, "void" when none
    ret_cls: str | None
    params: list
    alias_of: str | None
    gl_version: int = 0      # first desktop GL version (major*10+minor), 0 = none
    gles_version: int = 0    # first GLES 2.0+ version, 0 = none
    gles1: bool = False      # in OpenGL ES 1.x (core or an ES 1 extension)
    extensions: list = field(default_factory=list)
    aliases: list = field(default_factory=list)  # extension names routed here
    opcode: int = 0
    custom: str = ""         # "", guest, host, both, manual
    render_pass: str = ""    # Vulkan command-buffer commands: inside, outside or both
    levels: str = ""         # Vulkan: the command buffer levels it may be recorded in
    reason: str = ""
    names_mode: str = ""     # "", gen, delete, lenient
    facts: set = field(default_factory=set)  # names of [facts] that hold for it
    draw: str = ""           # the [facts.draws] kind, "" when it draws nothing
    layout: list = field(default_factory=list)  # [layouts] wire fields of a [manual] command
    reply: list = field(default_factory=list)   # [replies] wire fields of its hand-written reply

    @property
    def sync(self):
        return self.ret != "void" or any(p.kind == "out_array" for p in self.params)

    def arg_list(self):
        return ", ".join(f"{p.ctype} {p.name}" if not p.ctype.endswith("*") else
                         f"{p.ctype}{p.name}" for p in self.params)

    def call_list(self):
        return ", ".join(p.name for p in self.params)


def _text(elem):
    return "".join(elem.itertext())


def _parse_param(elem):
    name = elem.find("name").text
    full = _text(elem)
    ctype = full[: full.rfind(name)].strip()
    ptype = elem.find("ptype")
    base = ptype.text if ptype is not None else ("void" if "void" in ctype else ctype)
    pointer = ctype.count("*")
    ctype = re.sub(r"\s*\*", " *", ctype).replace("* *", "**").replace("*const*", "*const*")
    if pointer:
        ctype = ctype if ctype.endswith("*") else ctype
    return Param(name=name, ctype=ctype, base=base, pointer=pointer,
                 const=ctype.startswith("const"), len=elem.get("len"), cls=elem.get("class"))


def _is_nul_terminated(p):
    """A string parameter whose length is the string itself."""
    return p.len is None or p.len in (f"COMPSIZE({p.name})", "COMPSIZE()")


def _version(number):
    major, minor = number.split(".")
    return int(major) * 10 + int(minor)


class Model:
    def __init__(self, xml_path, annotations_path, opcodes_path):
        self.root = ET.parse(xml_path).getroot()
        with open(annotations_path, "rb") as f:
            self.notes = tomllib.load(f)
        self.opcodes_path = opcodes_path
        self.all = {c.find("proto/name").text: c for c in self.root.find("commands")}
        self.commands = {}
        self.blocked = self.notes["unsupported_extensions"]
        self.extensions = []
        self._select()
        self._classify_all()
        # Every extension that brings a carried command, in a fixed order:
        # the host asks for each whether its context has it.
        used = {e for c in self.commands.values() for e in c.extensions}
        self.extensions = sorted(used)
        self._assign_facts()

    # -- selection -----------------------------------------------------
    def _add(self, name):
        if name not in self.commands:
            elem = self.all[name]
            proto = elem.find("proto")
            ret = _text(proto)[: -len(name)].strip()
            alias = elem.find("alias")
            params = [_parse_param(p) for p in elem.findall("param")]
            for p in params:
                p.cls = self.notes["classes"].get(f"{name}.{p.name}", p.cls)
                p.named_by = self.notes.get("named_by", {}).get(f"{name}.{p.name}")
            self.commands[name] = Command(
                name=name, ret=ret, ret_cls=proto.get("class"), params=params,
                alias_of=alias.get("name") if alias is not None else None)
        return self.commands[name]

    def _select(self):
        for feature in self.root.iter("feature"):
            api = feature.get("api")
            if api not in CARRIED_APIS:
                continue
            version = _version(feature.get("number"))
            for req in feature.findall("require"):
                for cmd in req.findall("command"):
                    c = self._add(cmd.get("name"))
                    if api == "gl" and not c.gl_version:
                        c.gl_version = version
                    if api == "gles2" and not c.gles_version:
                        c.gles_version = version
                    c.gles1 |= api == "gles1"
        self.core_names = sorted(self.commands)
        for ext in self.registry_extensions():
            if ext.get("name") in self.blocked:
                continue
            for req in ext.findall("require"):
                if req.get("api") not in (None, *CARRIED_APIS):
                    continue
                for cmd in req.findall("command"):
                    self._add_extension_command(cmd.get("name"), ext.get("name"))
        unknown = sorted(set(self.blocked) - {e.get("name") for e in self.registry_extensions()})
        if unknown:
            raise SystemExit(f"annotations: unknown extensions {', '.join(unknown)}")
        self._route_all_aliases()

    def registry_extensions(self):
        """Every GL and GLES extension of the registry."""
        for ext in self.root.iter("extension"):
            apis = set((ext.get("supported") or "").split("|"))
            if apis & {"glcore", *CARRIED_APIS}:
                yield ext

    def _route_all_aliases(self):
        """Any extension command that the registry declares an alias of a
        carried command is routed to it, so an extension made of such
        commands (GL_ARB_window_pos, GL_EXT_framebuffer_blit...) is carried
        with no code of its own. The target's version requirement still
        applies on the host."""
        for ext in self.root.iter("extension"):
            for req in ext.findall("require"):
                if req.get("api") not in (None, *CARRIED_APIS):
                    continue
                for cmd in req.findall("command"):
                    alias = self.all[cmd.get("name")].find("alias")
                    target = self.commands.get(alias.get("name")) if alias is not None else None
                    if target is None or target.name == cmd.get("name"):
                        continue
                    if cmd.get("name") not in target.aliases:
                        target.aliases.append(cmd.get("name"))
                    if ext.get("name") not in target.extensions:
                        target.extensions.append(ext.get("name"))

    def _add_extension_command(self, name, ext):
        elem = self.all[name]
        alias = elem.find("alias")
        target = alias.get("name") if alias is not None else None
        if target in self.commands and target != name:
            # Same semantics as a command we already carry: route it there.
            if name not in self.commands[target].aliases:
                self.commands[target].aliases.append(name)
            if ext not in self.commands[target].extensions:
                self.commands[target].extensions.append(ext)
            return
        c = self._add(name)
        if ext not in c.extensions:
            c.extensions.append(ext)

    # -- classification ------------------------------------------------
    def _classify_all(self):
        notes = self.notes
        kinds = {}
        for kind in ("guest", "host", "both", "manual", "guest_only", "unsupported"):
            for name, reason in notes.get(kind, {}).items():
                if name in kinds:
                    raise SystemExit(f"annotations: {name} listed twice")
                kinds[name] = (kind, reason)
        for name in kinds:
            if name not in self.commands:
                raise SystemExit(f"annotations: {name} is not a selected command")
        self._check_kept_list()
        self.unsupported = {}
        self.guest_only = {}
        self.failures = {}
        for name in list(self.commands):
            c = self.commands[name]
            kind, reason = kinds.get(name, ("", ""))
            if kind == "unsupported":
                self.unsupported[name] = reason
                del self.commands[name]
                continue
            if kind == "guest_only":
                c.custom, c.reason = kind, reason
                self.guest_only[name] = self.commands.pop(name)
                continue
            c.custom, c.reason = kind, reason
            try:
                self._classify(c)
            except Unsupported as err:
                if kind != "manual":
                    self.failures[name] = str(err)
        self._check_allocations()
        self._apply_layouts()
        self._apply_replies()
        if self.failures:
            lines = "\n".join(f"  {n}: {w}" for n, w in sorted(self.failures.items()))
            raise SystemExit("commands needing an annotation (hand-written or unsupported):\n"
                             + lines)

    def _apply_layouts(self):
        """[layouts]: the wire layout of a [manual] command, declared once for
        both ends: "TYPE name" for a GL scalar, "data name" for bytes (or
        null), "data_or_offset name" for bytes or an offset into a bound
        buffer, "data[count] name" (or "data_or_offset[count] name") for as
        many of them as the scalar field `count` before it says; "same as
        glX" for glX's layout, which the host may then read with glX's
        decoder."""
        for c, fields in self._declared("layouts", ("manual",)):
            c.layout = fields

    def _apply_replies(self):
        """[replies]: the reply of a command whose both ends are hand-written,
        in the fields of [layouts], declared once for the host's encoder and
        the guest's decoder."""
        for c, fields in self._declared("replies", ("both", "manual")):
            c.reply = fields

    def _declared(self, table, customs):
        """(command, fields) of each entry of a table of wire layouts."""
        decls = self.notes.get(table, {})
        for name, decl in decls.items():
            c = self.commands.get(name)
            if c is None or c.custom not in customs:
                raise SystemExit(f"annotations: [{table}] {name} is not a {' or '.join(customs)} command")
            if decl.startswith("same as "):
                decl = decls.get(decl[len("same as "):], "")
                if not decl or decl.startswith("same as "):
                    raise SystemExit(f"annotations: [{table}] {name}: not the same as a declared layout")
            fields = []
            for text in decl.split(","):
                fields.append(self._layout_field(f"[{table}] {name}", text.split(), fields))
            yield c, fields

    @staticmethod
    def _layout_field(command, words, before):
        if len(words) != 2:
            raise SystemExit(f"annotations: {command}: bad field {' '.join(words)!r}")
        kind, name = words
        if kind in SCALARS:
            return Param(name=name, ctype=kind, base=kind, pointer=0, const=False, len=None,
                         cls=None, kind="scalar")
        data = Param(name=name, ctype="const void *", base="void", pointer=1, const=True,
                     len=None, cls=None, kind="in_array")
        if kind == "data":
            return data
        if kind == "data_or_offset":
            data.buffer_source = "bound"
            return data
        count = re.fullmatch(r"(data|data_or_offset)\[(\w+)\]", kind)
        if count and any(p.name == count[2] and p.kind == "scalar" for p in before):
            data.kind, data.count_expr = "data_list", count[2]
            data.buffer_source = "bound" if count[1] == "data_or_offset" else ""
            data.ctype = "const void *const *"
            return data
        raise SystemExit(f"annotations: {command}: unknown field type {kind!r}")

    def _assign_facts(self):
        """[facts]: what the host must know of each command, by its name."""
        facts = dict(self.notes["facts"])
        self.draw_kinds = list(facts.pop("draws"))
        self.fact_names = list(facts)
        patterns = {}
        for name, value in facts.items():
            items = value if isinstance(value, list) else [value]
            patterns[name] = [p for item in items
                              for p in (patterns[item] if item in patterns else [re.compile(item)])]
        draws = {k: re.compile(v) for k, v in self.notes["facts"]["draws"].items()}
        for c in self.commands.values():
            c.facts = {n for n, ps in patterns.items() if any(p.fullmatch(c.name) for p in ps)}
            c.draw = next((k for k, p in draws.items() if p.fullmatch(c.name)), "")
        unused = [n for n in self.fact_names if not any(n in c.facts for c in self.commands.values())]
        unused += [k for k in self.draw_kinds if not any(c.draw == k for c in self.commands.values())]
        if unused:
            raise SystemExit(f"annotations: [facts] {', '.join(unused)} match no carried command")

    def _check_allocations(self):
        """A command that allocates storage is charged to the guest: it needs
        an [allocations] entry or a hand-written host side."""
        pattern = re.compile(self.notes["rules"]["allocating_pattern"])
        charged = self.notes["allocations"]
        for c in self.commands.values():
            if (pattern.search(c.name) and c.name not in charged
                    and c.custom not in ("host", "both", "manual")):
                self.failures[c.name] = "allocates storage: needs an [allocations] entry"

    def _classify(self, c):
        rules = self.notes["rules"]
        if re.match(rules["delete_pattern"], c.name):
            c.names_mode = "delete"
        elif re.match(rules["gen_pattern"], c.name) and any(p.cls and p.pointer for p in c.params):
            c.names_mode = "gen"
        elif c.name in rules["lenient_names"]:
            c.names_mode = "lenient"
        kept = self.kept_pointers(c)
        if kept and c.custom not in ("host", "both", "manual"):
            # A generated host call would hand GL memory the host reuses.
            raise Unsupported(f"GL keeps the pointer argument '{kept[0]}' after the call: "
                              "its host side must be hand-written")
        if c.ret != "void" and (c.ret not in SCALARS or c.ret_cls):
            raise Unsupported(f"returns {c.ret}" + (f" ({c.ret_cls} name)" if c.ret_cls else ""))
        for p in c.params:
            self._classify_param(c, p)

    def kept_pointers(self, c):
        """Pointer parameters GL holds on to after the call returns: every
        pointer of a command matching [pointers] kept_pattern (client arrays,
        read at draw time), and those listed in [pointers] kept."""
        rules = self.notes["pointers"]
        by_name = re.match(rules["kept_pattern"], c.name) is not None
        return [p.name for p in c.params if p.pointer and
                (by_name or f"{c.name}.{p.name}" in rules["kept"])]

    def _check_kept_list(self):
        for section in ("classes", "named_by"):
            for key in self.notes.get(section, {}):
                name, _, param = key.partition(".")
                c = self.commands.get(name)
                if c is None or not any(p.name == param for p in c.params):
                    raise SystemExit(f"annotations: [{section}] {key}: no such parameter")
        for key in self.notes["pointers"]["kept"] + self.notes["pointers"]["in_place"]:
            name, _, param = key.partition(".")
            c = self.commands.get(name)
            if c is None:
                raise SystemExit(f"annotations: [pointers] {key}: not a selected command")
            if not any(p.name == param and p.pointer for p in c.params):
                raise SystemExit(f"annotations: [pointers] {key}: no such pointer parameter")

    def _classify_param(self, c, p):
        if p.pointer == 0:
            if p.base not in SCALARS:
                raise Unsupported(f"parameter {p.name} of type {p.ctype}")
            if p.cls == "sync":
                raise Unsupported(f"sync object parameter {p.name}")
            p.kind = "scalar"
            return
        if p.pointer > 1 or p.base not in ELEMENT_BYTES:
            raise Unsupported(f"parameter {p.name} of type {p.ctype}")
        p.len = self.notes.get("lengths", {}).get(f"{c.name}.{p.name}", p.len)
        if p.const and p.base in ("GLchar", "GLcharARB") and _is_nul_terminated(p):
            p.kind = "in_string"
            return
        if p.len is None:
            raise Unsupported(f"pointer {p.name} without a length")
        p.kind = "in_array" if p.const else "out_array"
        key = f"{c.name}.{p.name}"
        p.nullable = key in self.notes["pointers"]["nullable"]
        if key in self.notes["pointers"]["unpack_buffer"]:
            p.buffer_source = "unpack"
        p.in_place = key in self.notes["pointers"]["in_place"]
        if p.cls and p.kind == "out_array":
            if c.names_mode != "gen":
                raise Unsupported(f"returns {p.cls} names in {p.name}")
            # The guest allocates the names and sends them: an input on the wire.
            p.kind, p.gen = "in_array", True
        self._classify_len(c, p)

    def _classify_len(self, c, p):
        names = {q.name for q in c.params if q.kind == "scalar" or q.pointer == 0}
        sized = self.notes.get("sizes", {}).get(p.len)
        if sized and "image" in sized:
            # An image under the pixel-store state: "dims, format, type, w, h, d".
            p.size_kind, p.count_expr = "pixels", sized["image"]
            return
        if sized:
            p.size_kind = "enum" if sized.get("pad") else "func"
            p.count_expr = f"wire::size::{sized['fn']}({sized.get('args', '')})"
            return
        m = re.fullmatch(r"COMPSIZE\((.*)\)", p.len)
        if m and p.kind == "in_array" and p.base in ("GLchar", "GLcharARB"):
            args = [a.strip() for a in m.group(1).split(",")]
            if len(args) == 2 and args[0] == p.name and args[1] in names:
                p.size_kind, p.count_expr = "counted_string", args[1]
                return
        if m:
            args = [a.strip() for a in m.group(1).split(",") if a.strip()]
            if args == ["pname"]:
                p.size_kind, p.count_expr = "pname", "pname"
                return
            if p.kind == "in_array" and args[:2] == ["format", "type"] and len(args) >= 3:
                dims = args[2:] + ["1"] * (5 - len(args))
                p.size_kind = "pixels"
                p.count_expr = ", ".join([str(len(args) - 2), "format", "type"] + dims)
                p.buffer_source = "unpack"
                return
            raise Unsupported(f"state-dependent size {p.len} of {p.name}")
        if re.fullmatch(r"\d+", p.len):
            p.size_kind, p.count_expr = "fixed", p.len
            return
        tokens = set(re.findall(r"[A-Za-z_]\w*", p.len))
        if tokens and tokens <= names and re.fullmatch(r"[\w\s*/+]+", p.len):
            p.size_kind, p.count_expr = "expr", p.len
            return
        raise Unsupported(f"length {p.len} of {p.name}")

    def blocked_extensions(self, apis=CARRIED_APIS):
        """Extensions Conduit does not carry in contexts of any of `apis`,
        each with why: those annotated as a whole, and those with a command
        of that API outside the carried set. The guest hides them, and
        `conduit info` says so. A block of commands that another extension
        brings (an interaction) blocks nothing."""
        carried = set(self.commands) | set(self.guest_only)
        for c in self.commands.values():
            carried.update(c.aliases)
        out = dict(self.blocked)
        for ext in self.root.iter("extension"):
            supported = set((ext.get("supported") or "").replace("glcore", "gl").split("|"))
            if ext.get("name") in out:
                continue
            for api in supported & set(apis):
                names = {c.get("name") for req in ext.findall("require")
                         if req.get("api") in (None, api)
                         and not self._interaction(req)
                         for c in req.findall("command")}
                missing = sorted(names - carried)
                if missing:
                    out[ext.get("name")] = self._missing_reason(missing)
                    break
        return out

    def _interaction(self, req):
        """A block of commands another extension brings: one the registry
        calls an interaction, or one "Extended by" an extension not carried."""
        comment = req.get("comment") or ""
        extended_by = re.fullmatch(r"Extended by (GL_\w+)", comment)
        return "interaction" in comment or bool(extended_by and extended_by.group(1) in self.blocked)

    def _missing_reason(self, missing):
        def annotated(name):  # an alias has its target's reason
            alias = self.all[name].find("alias")
            target = alias.get("name") if alias is not None else name
            return self.unsupported.get(name) or self.unsupported.get(target)
        known = [n for n in missing if annotated(n)]
        first = known[0] if known else missing[0]
        why = annotated(first) or "not carried yet"
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        return f"{first}{more}: {why}"

    # -- opcodes ---------------------------------------------------------
    def assign_opcodes(self, update=False):
        opcode_table.assign(self.commands, self.opcodes_path, 1024, update)

    def ordered(self):
        return sorted(self.commands.values(), key=lambda c: c.opcode)

    def report(self):
        core = [n for n in self.core_names]
        annotated = [n for n in core if n in self.unsupported or
                     (n in self.commands and self.commands[n].custom)]
        generated = [n for n in core if n in self.commands and not self.commands[n].custom]
        return (f"{len(core)} core commands: {len(generated)} fully generated "
                f"({100.0 * len(generated) / len(core):.1f}%), {len(annotated)} annotated "
                f"({sum(1 for n in core if n in self.unsupported)} unsupported); "
                f"{len(self.commands)} commands with opcodes incl. {len(self.extensions)} extensions")
