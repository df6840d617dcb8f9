"""Maps each output file name to the emitter that writes it."""

import os

import emit_fuzz
import emit_guest
import emit_host
import emit_replies
import emit_tests
import emit_vk
import emit_wire

EMITTERS = {
    "gl_types.h": emit_wire.gl_types_h,
    "gl_opcodes.h": emit_wire.gl_opcodes_h,
    "gl_opcodes.cpp": emit_wire.gl_opcodes_cpp,
    "gl_encode.h": emit_wire.gl_encode_h,
    "gl_encode.cpp": emit_wire.gl_encode_cpp,
    "gl_decode.h": emit_wire.gl_decode_h,
    "gl_decode.cpp": emit_wire.gl_decode_cpp,
    "gl_replies.h": emit_replies.gl_replies_h,
    "gl_replies.cpp": emit_replies.gl_replies_cpp,
    "gl_handlers.h": emit_guest.gl_handlers_h,
    "gl_entry.cpp": emit_guest.gl_entry_cpp,
    "gl_host_handlers.h": emit_host.gl_host_handlers_h,
    "gl_dispatch.cpp": emit_host.gl_dispatch_cpp,
    "gl_roundtrip_test.cpp": emit_tests.gl_roundtrip_test_cpp,
    "gl_decode_any.cpp": emit_tests.gl_decode_any_cpp,
    "gl_fuzz_model.cpp": emit_fuzz.gl_fuzz_model_cpp,
    "vk_commands.h": emit_vk.vk_commands_h,
    "vk_tables.cpp": emit_vk.vk_tables_cpp,
    "vk_host_dispatch.h": emit_vk.vk_host_dispatch_h,
    "vk_host_calls.cpp": emit_vk.vk_host_calls_cpp,
    "vk_host_specials.cpp": emit_vk.vk_host_specials_cpp,
    "vk_guest_entry.cpp": emit_vk.vk_guest_entry_cpp,
}


def write(model, path):
    text = EMITTERS[os.path.basename(path)](model)
    try:
        with open(path) as f:
            if f.read() == text:
                return  # unchanged: keep the timestamp, avoid rebuilds
    except FileNotFoundError:
        pass
    with open(path, "w") as f:
        f.write(text)
