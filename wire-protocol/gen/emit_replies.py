"""Emits the replies of hand-written commands ([replies]): the host's
encoders and the guest's decoders, from one declaration."""

from emit_common import HEADER, field_params
from emit_wire import decode_fields, fields_struct, put_fields


def replied(model):
    return [c for c in model.ordered() if c.reply]


def gl_replies_h(model):
    out = [HEADER, "// Replies of hand-written commands: the host encodes them into the reply,\n"
           "// the guest decodes them; Data members borrow from the reply.\n#pragma once\n\n"
           '#include <cstddef>\n#include <vector>\n\n#include "wire/gl_types.h"\n'
           '#include "wire/reader.h"\n#include "wire/result.h"\n#include "wire/writer.h"\n\n'
           "namespace wire {\n\n"]
    for c in replied(model):
        out.append(fields_struct(f"Reply_{c.name}", c.reply))
        out.append(f"void encode_reply_{c.name}(Writer& wire_out, {field_params(c.reply)});\n")
        out.append(f"Status decode_reply_{c.name}(Reader& r, Reply_{c.name}& a);\n\n")
    out.append("}  // namespace wire\n")
    return "".join(out)


def gl_replies_cpp(model):
    out = [HEADER, '#include "wire/gl_replies.h"\n\n#include <cstring>\n\nnamespace wire {\n\n']
    for c in replied(model):
        body = "\n".join(put_fields(c.reply))
        out.append(f"void encode_reply_{c.name}(Writer& wire_out, {field_params(c.reply)}) {{\n{body}\n}}\n\n")
        out.append(f"Status decode_reply_{c.name}(Reader& r, Reply_{c.name}& a) {{\n"
                   f"{decode_fields(c.reply)}\n}}\n\n")
    out.append("}  // namespace wire\n")
    return "".join(out)
