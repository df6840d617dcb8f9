#!/usr/bin/env python3
"""The generator's refusals: a command whose pointer GL keeps after the call
is generated only with a hand-written host side or not at all. And which
extensions it carries: those whose every command is carried or an alias of
one."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, sys.argv.pop(1) if len(sys.argv) > 1 else "wire-protocol/gen")

from model import Model  # noqa: E402

REGISTRY = """<registry><types/><commands>
<command><proto>void <name>glColorPointer</name></proto>
  <param><ptype>GLint</ptype> <name>size</name></param>
  <param len="size">const void *<name>pointer</name></param></command>
<command><proto>void <name>glSelectBuffer</name></proto>
  <param><ptype>GLsizei</ptype> <name>size</name></param>
  <param len="size"><ptype>GLuint</ptype> *<name>buffer</name></param></command>
<command><proto>void <name>glGetPointerv</name></proto>
  <param><ptype>GLenum</ptype> <name>pname</name></param>
  <param len="1">void **<name>params</name></param></command>
<command><proto>void <name>glClear</name></proto>
  <param><ptype>GLbitfield</ptype> <name>mask</name></param></command>
<command><proto>void <name>glClearTEST</name></proto>
  <param><ptype>GLbitfield</ptype> <name>mask</name></param><alias name="glClear"/></command>
<command><proto>void <name>glFrobTEST</name></proto>
  <param><ptype>GLint</ptype> <name>x</name></param></command>
</commands>
<feature api="gl" name="GL_VERSION_1_0" number="1.0"><require>
  <command name="glColorPointer"/><command name="glSelectBuffer"/>
  <command name="glGetPointerv"/><command name="glClear"/>
</require></feature>
<extensions>
<extension name="GL_TEST_aliases" supported="gl"><require><command name="glClearTEST"/></require></extension>
<extension name="GL_TEST_new" supported="gl"><require>
  <command name="glClearTEST"/><command name="glFrobTEST"/></require></extension>
</extensions></registry>
"""

RULES = """[extensions]
allow = []
[rules]
gen_pattern = "^gl(Gen|Create)[A-Z]"
delete_pattern = "^glDelete"
bind_create_classes = []
lenient_names = []
[pointers]
nullable = []
unpack_buffer = []
in_place = []
kept_pattern = "^gl(?!Get)\\\\w*Pointer"
kept = [{kept}]
[manual]
glGetPointerv = "returns guest pointers"
{manual}
{extra}
"""


def model(kept='"glSelectBuffer.buffer"', manual="", extra=""):
    with tempfile.TemporaryDirectory() as d:
        paths = {}
        for name, text in (("gl.xml", REGISTRY), ("notes.toml", RULES.format(kept=kept, manual=manual, extra=extra)),
                           ("opcodes.txt", "")):
            paths[name] = os.path.join(d, name)
            with open(paths[name], "w") as f:
                f.write(text)
        return Model(paths["gl.xml"], paths["notes.toml"], paths["opcodes.txt"])


class KeptPointers(unittest.TestCase):
    def refusal(self, **kw):
        with self.assertRaises(SystemExit) as err:
            model(**kw)
        return str(err.exception)

    def test_client_array_by_name_is_refused(self):
        text = self.refusal(extra='[both]\nglSelectBuffer = "owned buffer"')
        self.assertIn("glColorPointer: GL keeps the pointer argument 'pointer'", text)
        self.assertNotIn("glSelectBuffer", text)

    def test_listed_pointer_is_refused(self):
        text = self.refusal(manual='glColorPointer = "client array"')
        self.assertIn("glSelectBuffer: GL keeps the pointer argument 'buffer'", text)
        self.assertNotIn("glColorPointer", text)

    def test_host_handler_or_unsupported_is_accepted(self):
        for kind in ("host", "unsupported"):
            m = model(extra=f'[{kind}]\nglColorPointer = "a"\nglSelectBuffer = "b"')
            self.assertIn("glClear", m.commands)

    def test_guest_handler_alone_is_refused(self):
        text = self.refusal(extra='[guest]\nglColorPointer = "a"\nglSelectBuffer = "b"')
        self.assertIn("glColorPointer", text)
        self.assertIn("glSelectBuffer", text)

    def test_get_pointer_commands_are_not_kept(self):
        m = model(extra='[both]\nglColorPointer = "a"\nglSelectBuffer = "b"')
        self.assertEqual(m.kept_pointers(m.commands["glGetPointerv"]), [])
        self.assertEqual(m.kept_pointers(m.commands["glColorPointer"]), ["pointer"])

    def test_kept_list_names_real_parameters(self):
        self.assertIn("not a selected command", self.refusal(kept='"glFeedbackBuffer.buffer"'))
        self.assertIn("no such pointer parameter", self.refusal(kept='"glClear.mask"'))


class CarriedExtensions(unittest.TestCase):
    def setUp(self):
        self.m = model(extra='[both]\nglColorPointer = "a"\nglSelectBuffer = "b"')

    def test_alias_routes_to_the_carried_command(self):
        clear = self.m.commands["glClear"]
        self.assertIn("glClearTEST", clear.aliases)
        self.assertNotIn("glClearTEST", self.m.commands)
        self.assertIn("GL_TEST_aliases", clear.extensions)
        self.assertIn("GL_TEST_aliases", self.m.extensions)

    def test_extension_of_aliases_is_carried(self):
        self.assertNotIn("GL_TEST_aliases", self.m.blocked_extensions())

    def test_extension_with_a_command_of_its_own_is_hidden_with_a_reason(self):
        blocked = self.m.blocked_extensions()
        self.assertEqual(blocked.get("GL_TEST_new"), "glFrobTEST: not carried yet")


if __name__ == "__main__":
    unittest.main()
