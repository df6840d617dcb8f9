"""The Vulkan command model: vk.xml + vk-annotations.toml -> classified commands.

The same shape as the GL model (model.py): Param and Command records, an
append-only opcode table, and every selected command either generated or
annotated with its reason. What Vulkan adds is structure: handles (the
ones a guest allocates itself, dispatchable or not), structures passed by
pointer with arrays and strings inside them, and pNext chains. A structure
can travel when every member can (scalars, handles, fixed arrays, nested
structures, counted arrays, strings, byte blobs with a length, pNext); a
command can when every parameter can.
"""

import re
import tomllib
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import opcode_table
from model import Command, Param, Unsupported, _text

# The Vulkan API name of the registry's features, extensions and variants.
API = "vulkan"
# Opcodes of the Vulkan range (wire/format.h: kFirstVkOpcode).
FIRST_OPCODE = 65536

# Scalar C types of vk.xml: bytes on the wire.
C_SCALARS = {
    "uint8_t": 1, "int8_t": 1, "uint16_t": 2, "int16_t": 2, "uint32_t": 4, "int32_t": 4,
    "uint64_t": 8, "int64_t": 8, "float": 4, "double": 8, "char": 1,
    # Pointer-sized: 64 bits on the wire, so 32- and 64-bit guests agree.
    "size_t": 8,
    # A POSIX file descriptor's number: on the wire, what stands for it
    # (external memory's export numbers, host-renderer/vk/memory_fds.cpp).
    "int": 4,
}


@dataclass
class Member:
    name: str
    base: str            # the element or value type
    pointer: int         # pointer depth
    const: bool
    len: str | None      # a sibling member, "null-terminated", or both
    array: str = ""      # fixed array size: a number or an API constant
    optional: bool = False
    kind: str = ""       # scalar | handle | struct | string | strings | array | bytes | pnext
    bitfield: bool = False
    unchecked: bool = False  # noautovalidity: its value may be ignored (a selector leaves it unused)


@dataclass
class Struct:
    name: str
    members: list
    stype: str = ""           # its VK_STRUCTURE_TYPE_*, "" when none
    extends: list = field(default_factory=list)  # structures whose pNext chain takes it
    returned_only: bool = False
    union: bool = False


def _member(elem):
    name = elem.find("name").text
    text = _text(elem)
    before = text[: text.find(name)]
    after = text[text.find(name) + len(name):]
    fixed = re.match(r"\s*\[([^\]]+)\]", after)
    return Member(name=name, base=elem.find("type").text, pointer=before.count("*"),
                  const=before.strip().startswith("const"), len=elem.get("altlen") or elem.get("len"),
                  array=fixed.group(1).strip() if fixed else "",
                  # A pointer or handle the spec says is not checked (one a
                  # selector leaves unused, a sampler an image descriptor
                  # does without) may be null.
                  optional=(elem.get("optional") or "").startswith("true")
                  or elem.get("noautovalidity") == "true",
                  bitfield=re.match(r"\s*:\s*\d", after) is not None,
                  unchecked=elem.get("noautovalidity") == "true")


def _for_vulkan(elem):
    """Whether an element applies to Vulkan (not only to Vulkan SC)."""
    return API in (elem.get("api") or API).split(",")


def _bit_of(e):
    """The bits a bitmask's enumerant sets (none for an alias)."""
    if e.get("bitpos") is not None:
        return 1 << int(e.get("bitpos"))
    if e.get("value") is not None:
        return int(e.get("value"), 0)
    return 0


class VkModel:
    def __init__(self, xml_path, annotations_path, opcodes_path):
        self.root = ET.parse(xml_path).getroot()
        with open(annotations_path, "rb") as f:
            self.notes = tomllib.load(f)
        self.opcodes_path = opcodes_path
        self._read_types()
        self._read_enum_values()
        self._read_flag_masks()
        self._read_commands()
        self.commands = {}
        self.versions = {}
        self._select()
        self._classify_all()

    # -- the registry's types ---------------------------------------------
    def _read_types(self):
        self.handles = {}      # name -> dispatchable
        self.object_types = {}  # handle name -> its VK_OBJECT_TYPE_*
        self.aliases = {}      # type alias -> type
        self.structs = {}
        self.scalars = dict(C_SCALARS)  # enums, bitmasks and base types join these
        self.funcpointers = set()
        self.external = set()  # platform types (X11, xcb, ...): opaque to the wire
        self.flag_bits_of = {}  # 32-bit bitmask type -> its FlagBits type
        for t in self.root.find("types"):
            if t.tag != "type" or not _for_vulkan(t):
                continue
            category = t.get("category")
            name = t.get("name") or (t.find("name").text if t.find("name") is not None else None)
            if t.get("alias"):
                self.aliases[name] = t.get("alias")
            elif category == "handle":
                self.handles[name] = t.find("type").text == "VK_DEFINE_HANDLE"
                self.object_types[name] = t.get("objtypeenum")
            elif category in ("struct", "union"):
                self._read_struct(t, name, category == "union")
            elif category == "enum":
                self.scalars[name] = 4
            elif category == "bitmask":
                self.scalars[name] = 8 if t.find("type").text == "VkFlags64" else 4
                if t.get("requires") and t.find("type").text == "VkFlags":
                    self.flag_bits_of[name] = t.get("requires")
            elif category == "basetype" and t.find("type") is not None:
                self.scalars[name] = C_SCALARS.get(t.find("type").text, 0) or 8
            elif category == "funcpointer":
                self.funcpointers.add(name)
            elif t.get("requires") and category is None:
                self.external.add(name)
        for alias, target in self.aliases.items():
            if target in self.scalars:
                self.scalars[alias] = self.scalars[target]

    def _read_enum_values(self):
        """Every value vk.xml gives each enumerated type (not bitmasks): its
        own block's, and those features and extensions add to it."""
        self.enum_values = {}
        for block in self.root.findall("enums"):
            if block.get("type") == "enum":
                self.enum_values[block.get("name")] = {
                    int(e.get("value"), 0) for e in block.findall("enum") if e.get("value")}
        for owner in list(self.root.iter("feature")) + list(self.root.iter("extension")):
            number = owner.get("number")
            for e in owner.iter("enum"):
                target = e.get("extends")
                if target not in self.enum_values:
                    continue
                if e.get("value") is not None:
                    value = int(e.get("value"), 0)
                elif e.get("offset") is not None:
                    ext = int(e.get("extnumber") or number)
                    value = 1000000000 + (ext - 1) * 1000 + int(e.get("offset"))
                    value = -value if e.get("dir") == "-" else value
                else:
                    continue  # an alias of a value given elsewhere
                self.enum_values[target].add(value)

    def _read_flag_masks(self):
        """Every bit vk.xml gives each 32-bit bitmask type with a FlagBits
        type, as one mask: its own block's, and those features and
        extensions (carried or not, as enumerated values) add to it.
        Bitmasks without FlagBits (reserved: 0 now, bits to come) and 64-bit
        ones have none."""
        bits = {}
        for block in self.root.findall("enums"):
            if block.get("type") == "bitmask":
                bits[block.get("name")] = 0
                for e in block.findall("enum"):
                    bits[block.get("name")] |= _bit_of(e)
        for owner in list(self.root.iter("feature")) + list(self.root.iter("extension")):
            for e in owner.iter("enum"):
                if e.get("extends") in bits:
                    bits[e.get("extends")] |= _bit_of(e)
        self.flag_masks = {flags: bits.get(flag_bits, 0) for flags, flag_bits in self.flag_bits_of.items()}

    def _read_struct(self, t, name, union):
        members = [_member(m) for m in t.findall("member") if _for_vulkan(m)]
        stype = next((m.get("values") for m in t.findall("member")
                      if m.find("name").text == "sType" and m.get("values")), "")
        self.structs[name] = Struct(
            name=name, members=members, stype=stype,
            extends=(t.get("structextends") or "").split(",") if t.get("structextends") else [],
            returned_only=t.get("returnedonly") == "true", union=union)

    def resolve(self, name):
        while name in self.aliases:
            name = self.aliases[name]
        return name

    def _read_commands(self):
        self.all = {}
        self.command_aliases = {}
        for c in self.root.find("commands"):
            if not _for_vulkan(c):
                continue
            if c.get("alias"):
                self.command_aliases[c.get("name")] = c.get("alias")
                continue
            name = c.find("proto/name").text
            params = []
            for p in c.findall("param"):
                if not _for_vulkan(p):
                    continue
                m = _member(p)
                params.append(Param(name=m.name, ctype=_text(p)[: _text(p).rfind(m.name)].strip(),
                                    base=m.base, pointer=m.pointer, const=m.const, len=m.len,
                                    cls=None, nullable=m.optional))
                params[-1].array = m.array
                # Elements `stride` bytes apart (vk.xml's stride): the array
                # travels as the bytes the elements span.
                params[-1].stride = p.get("stride") or ""
            self.all[name] = Command(name=name, ret=c.find("proto/type").text, ret_cls=None,
                                     params=params, alias_of=None, render_pass=c.get("renderpass", ""),
                                     levels=c.get("cmdbufferlevel", ""))

    # -- selection ---------------------------------------------------------
    def _select(self):
        """Vulkan 1.0-1.3 and the carried extensions' commands; an alias of
        a selected command is routed to it. Their types are selected too:
        only those structures travel (a guest's others are refused)."""
        self.selected_types = set()
        for feature in self.root.iter("feature"):
            if not _for_vulkan(feature):
                continue
            for req in feature.findall("require"):
                for cmd in req.findall("command"):
                    self._add(cmd.get("name"), feature.get("number"))
                self.selected_types.update(t.get("name") for t in req.findall("type"))
        carried = self.notes["carried_extensions"]
        known = {e.get("name"): e for e in self.root.iter("extension")}
        self.device_extensions = {n for n, e in known.items() if e.get("type") == "device"}
        self.instance_extensions = {n for n, e in known.items() if e.get("type") == "instance"}
        self.async_results = set(self.notes.get("async_results", []))
        self.ranges = dict(self.notes.get("ranges", {}))
        self.host_runs = dict(self.notes.get("host_runs", {}))
        self.not_carried = dict(self.notes.get("not_carried", {}))
        both = sorted(set(carried) & set(self.not_carried))
        if both:
            raise SystemExit(f"vk annotations: carried and not carried: {', '.join(both)}")
        unknown = sorted((set(carried) | set(self.not_carried)) - set(known))
        if unknown:
            raise SystemExit(f"vk annotations: unknown extensions {', '.join(unknown)}")
        for name in carried:
            for req in known[name].findall("require"):
                if not self._carried(req.get("depends") or req.get("extension") or "", carried):
                    continue  # what it brings with another extension, not carried
                for cmd in req.findall("command"):
                    self._add(cmd.get("name"), name)
                self.selected_types.update(t.get("name") for t in req.findall("type"))

    @staticmethod
    def _carried(condition, carried):
        """Whether a requirement's condition holds: names of versions and
        extensions joined with "," (or) and "+" (and); versions 1.0-1.3 hold."""
        def holds(name):
            return name in carried or re.fullmatch(r"VK_VERSION_1_[0-3]", name) is not None
        condition = condition.replace("(", "").replace(")", "")
        return not condition or any(all(holds(n) for n in alternative.split("+"))
                                    for alternative in condition.split(","))

    def _add(self, name, where):
        target = self.command_aliases.get(name)
        if target:
            self.commands.setdefault(target, self.all[target]).aliases.append(name)
            self.versions.setdefault(target, where)
            return
        self.commands.setdefault(name, self.all[name])
        self.versions.setdefault(name, where)

    # -- classification ----------------------------------------------------
    def _classify_all(self):
        kinds = {}
        for kind in ("guest", "host", "both", "unsupported"):
            for name, reason in self.notes.get(kind, {}).items():
                if name in kinds:
                    raise SystemExit(f"vk annotations: {name} listed twice")
                if name not in self.commands:
                    raise SystemExit(f"vk annotations: {name} is not a selected command")
                kinds[name] = (kind, reason)
        self.failures = {}
        self.struct_failures = {}
        for name, c in self.commands.items():
            c.custom, c.reason = kinds.get(name, ("", ""))
            try:
                self._classify_return(c)
                for p in c.params:
                    self._classify_param(c, p)
            except Unsupported as err:
                if not c.custom:
                    self.failures[name] = str(err)
        by_hand = sorted(n for n in self.host_runs
                         if n not in self.commands or self.commands[n].custom not in ("host", "both"))
        if by_hand:
            raise SystemExit("vk annotations: [host_runs] names that are not [host] or [both] commands: "
                             + ", ".join(by_hand))
        unknown = sorted(n for n in self.ranges if n not in self.commands)
        if unknown:
            raise SystemExit("vk annotations: [ranges] names that are not selected commands: " + ", ".join(unknown))
        wrong = sorted(n for n in self.async_results
                       if n not in self.commands or self.resolve(self.commands[n].ret) != "VkResult"
                       or any(p.kind.startswith("out_") for p in self.commands[n].params))
        if wrong:
            raise SystemExit("vk annotations: async_results that are not commands answering a VkResult "
                             "alone: " + ", ".join(wrong))
        if self.failures:
            lines = "\n".join(f"  {n}: {w}" for n, w in sorted(self.failures.items()))
            raise SystemExit("Vulkan commands needing an annotation (hand-written or unsupported):\n"
                             + lines)

    def _classify_return(self, c):
        ret = self.resolve(c.ret)
        if ret != "void" and ret not in self.scalars:
            raise Unsupported(f"returns {c.ret}")

    def _classify_param(self, c, p):
        base = self.resolve(p.base)
        if p.name == "pAllocator":
            p.kind = "allocator"  # host memory is the host's own: never carried
        elif p.pointer == 0:
            p.kind = self._value_kind(base, f"{c.name}.{p.name}")
        elif base == "char" and p.pointer == 1:
            p.kind = "in_string"
        elif base == "void":
            if not p.len:
                raise Unsupported(f"{p.name}: a pointer with no length")
            p.kind = "in_bytes" if p.const else "out_bytes"
        elif p.pointer == 1 and p.stride:
            self._value_kind(base, f"{c.name}.{p.name}")
            if not (p.const and p.len and base in self.structs):
                raise Unsupported(f"{p.name}: a strided array that is not of structures given")
            p.kind = "in_bytes"
        elif p.pointer == 1:
            element = self._value_kind(base, f"{c.name}.{p.name}")
            if p.const:
                p.kind = "in_array" if p.len else f"in_{element}"
            elif p.len and "," not in p.len and self._is_count_pointer(c, p.len):
                p.kind = "out_enumerated"  # the count is asked, then the elements
            else:
                p.kind = "out_array" if p.len else f"out_{element}"
        else:
            raise Unsupported(f"{p.name}: {p.pointer} levels of pointers")
        p.size_kind = base

    @staticmethod
    def _is_count_pointer(c, length):
        return any(q.name == length and q.pointer == 1 for q in c.params)

    def _value_kind(self, base, where):
        if base in self.scalars:
            return "scalar"
        if base in self.handles:
            return "handle"
        if base in self.structs:
            why = self.struct_problem(base)
            if why:
                raise Unsupported(f"{where}: {base}: {why}")
            return "struct"
        if base in self.funcpointers:
            raise Unsupported(f"{where}: a function pointer ({base})")
        raise Unsupported(f"{where}: {base}, a platform type")

    def struct_problem(self, name, seen=()):
        """Why a structure cannot travel, or "" when it can."""
        if name in self.struct_failures:
            return self.struct_failures[name]
        if name in seen:
            return ""  # a recursive link is checked where it starts
        why = ""
        for m in self.structs[name].members:
            why = self._member_problem(name, m, (*seen, name))
            if why:
                break
        self.struct_failures[name] = why
        return why

    def _member_problem(self, owner, m, seen):
        base = self.resolve(m.base)
        if m.name == "pNext":
            m.kind = "pnext"
            return ""
        if m.bitfield:
            return f"{m.name}: a bit field"
        if m.pointer == 0:
            if base in self.scalars or base in self.handles:
                m.kind = "scalar" if base in self.scalars else "handle"
                return ""
            if base in self.structs:
                m.kind = "struct"
                return self.struct_problem(base, seen)
            return f"{m.name}: {base}" + (" (a function pointer)" if base in self.funcpointers else "")
        if base == "char":
            m.kind = "string" if m.pointer == 1 else "strings"
            return "" if m.pointer <= 2 else f"{m.name}: {m.pointer} levels of pointers"
        if base == "void":
            m.kind = "bytes"
            return "" if m.len else f"{m.name}: a pointer with no length"
        if m.pointer > 1:
            return f"{m.name}: {m.pointer} levels of pointers"
        if not m.len and base in self.structs:
            m.kind = "struct"
            return self.struct_problem(base, seen)
        if not m.len:
            return f"{m.name}: a pointer to one {base}"
        if not self._length_of_members(owner, m.len):
            return f"{m.name}: a length that is not of the structure's members ({m.len})"
        m.kind = "array"
        if base in self.structs:
            return self.struct_problem(base, seen)
        if base in self.scalars or base in self.handles:
            return ""
        return f"{m.name}: an array of {base}"

    def _length_of_members(self, owner, length):
        """A length given by the structure's own members: one member, or
        arithmetic on members and numbers (vk.xml's altlen, C syntax)."""
        names = {m.name for m in self.structs[owner].members}
        expr = length.removesuffix(",null-terminated")
        tokens = re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\d+|[-+*/() ]|.", expr)
        return all(t in names or t.isdigit() or t in "+-*/() " for t in tokens)

    # -- opcodes -------------------------------------------------------------
    def assign_opcodes(self, update=False):
        opcode_table.assign(self.commands, self.opcodes_path, FIRST_OPCODE, update)

    # -- report ---------------------------------------------------------------
    def report(self):
        total = len(self.commands)
        annotated = {k: sum(1 for c in self.commands.values() if c.custom == k)
                     for k in ("guest", "host", "both", "unsupported")}
        generated = total - sum(annotated.values())
        structs = [s for s in self.structs if not self.struct_problem(s)]
        return (f"{total} Vulkan commands (1.0-1.3 and {len(self.notes['carried_extensions'])} "
                f"extensions): {generated} fully generated ({100 * generated / total:.1f}%), "
                f"{total - generated} annotated ({annotated['guest']} guest, {annotated['host']} host, "
                f"{annotated['both']} both, {annotated['unsupported']} unsupported); "
                f"{len(structs)} of {len(self.structs)} structures can travel")
