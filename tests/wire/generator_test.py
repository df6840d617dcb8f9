#!/usr/bin/env python3
"""The generator's refusals: a command whose pointer GL keeps after the call
is generated only with a hand-written host side or not at all, and one that
allocates storage only with an [allocations] entry. The host's facts of
each command, from [facts]. And which extensions it
carries: every one of the registry, except those annotated with a reason and
those with a command it cannot carry. The layouts and replies declared for
hand-written commands."""

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
<command><proto>void <name>glFrobxTEST</name></proto>
  <param><ptype>GLfixed</ptype> <name>x</name></param></command>
<command><proto>void <name>glBufferStorageTEST</name></proto>
  <param><ptype>GLsizeiptr</ptype> <name>size</name></param></command>
</commands>
<feature api="gl" name="GL_VERSION_1_0" number="1.0"><require>
  <command name="glColorPointer"/><command name="glSelectBuffer"/>
  <command name="glGetPointerv"/><command name="glClear"/>
</require></feature>
<feature api="gles1" name="GL_VERSION_ES_CM_1_0" number="1.0"><require>
  <command name="glClear"/></require></feature>
<extensions>
<extension name="GL_TEST_aliases" supported="gl"><require><command name="glClearTEST"/></require></extension>
<extension name="GL_TEST_new" supported="gl"><require>
  <command name="glClearTEST"/><command name="glFrobTEST"/></require></extension>
<extension name="GL_TEST_storage" supported="gl"><require><command name="glBufferStorageTEST"/></require></extension>
<extension name="GL_TEST_es1" supported="gl|gles1"><require><command name="glFrobxTEST"/></require>
  <require api="gl"><command name="glSelectBuffer"/></require></extension>
</extensions></registry>
"""

RULES = """[unsupported_extensions]
{blocked}
[classes]
{classes}
[allocations]
{allocations}
[rules]
allocating_pattern = "^gl(Named)?Buffer(Data|Storage)"
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
[facts]
{facts}
[facts.draws]
{draws}
[manual]
glGetPointerv = "returns guest pointers"
{manual}
{extra}
"""


FACTS = 'clears = "glClear"\nanswers = ["clears", "glGet.*"]'
DRAWS = 'first = "glClear"\nsecond = "gl(Clear|GetPointerv)"'
CHARGED = 'glBufferStorageTEST = { object = "buffer", bytes = "$size" }'


def model(kept='"glSelectBuffer.buffer"', manual="", extra="", blocked="", classes="",
          allocations=CHARGED, facts=FACTS, draws=DRAWS):
    notes = RULES.format(kept=kept, manual=manual, extra=extra, blocked=blocked, classes=classes,
                         allocations=allocations, facts=facts, draws=draws)
    with tempfile.TemporaryDirectory() as d:
        paths = {}
        for name, text in (("gl.xml", REGISTRY), ("notes.toml", notes),
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


class Allocations(unittest.TestCase):
    def test_allocating_command_needs_an_entry(self):
        with self.assertRaises(SystemExit) as err:
            model(extra=HAND_WRITTEN, allocations="")
        self.assertIn("glBufferStorageTEST: allocates storage", str(err.exception))

    def test_entry_or_unsupported_extension_is_accepted(self):
        self.assertIn("glBufferStorageTEST", model(extra=HAND_WRITTEN).commands)
        m = model(extra=HAND_WRITTEN, allocations="", blocked='"GL_TEST_storage" = "uncharged"')
        self.assertNotIn("glBufferStorageTEST", m.commands)


class Classes(unittest.TestCase):
    def test_annotated_class_replaces_the_registry_one(self):
        m = model(extra=HAND_WRITTEN, classes='"glFrobTEST.x" = "assembly program"')
        self.assertEqual(m.commands["glFrobTEST"].params[0].cls, "assembly program")

    def test_annotated_class_names_a_real_parameter(self):
        with self.assertRaises(SystemExit) as err:
            model(extra=HAND_WRITTEN, classes='"glFrobTEST.y" = "program"')
        self.assertIn("no such parameter", str(err.exception))


HAND_WRITTEN = '[both]\nglColorPointer = "a"\nglSelectBuffer = "b"'


class Facts(unittest.TestCase):
    def test_a_fact_holds_by_name_and_through_the_facts_it_names(self):
        m = model(extra=HAND_WRITTEN)
        self.assertEqual(m.commands["glClear"].facts, {"clears", "answers"})
        self.assertEqual(m.commands["glGetPointerv"].facts, {"answers"})
        self.assertEqual(m.commands["glColorPointer"].facts, set())

    def test_the_first_draw_kind_that_matches_decides(self):
        m = model(extra=HAND_WRITTEN)
        self.assertEqual(m.commands["glClear"].draw, "first")
        self.assertEqual(m.commands["glGetPointerv"].draw, "second")
        self.assertEqual(m.commands["glColorPointer"].draw, "")

    def test_a_name_matches_whole(self):
        m = model(extra=HAND_WRITTEN, facts='clears = "glClear|glGetP"')
        self.assertEqual(m.commands["glGetPointerv"].facts, set())

    def test_a_fact_of_no_command_is_refused(self):
        with self.assertRaises(SystemExit) as err:
            model(extra=HAND_WRITTEN, facts='clears = "glClear"\nwrites = "glWrite.*"')
        self.assertIn("writes", str(err.exception))
        with self.assertRaises(SystemExit) as err:
            model(extra=HAND_WRITTEN, draws='first = "glClear"\nnever = "glNever"')
        self.assertIn("never", str(err.exception))


class CarriedExtensions(unittest.TestCase):
    def setUp(self):
        self.m = model(extra=HAND_WRITTEN)

    def test_alias_routes_to_the_carried_command(self):
        clear = self.m.commands["glClear"]
        self.assertIn("glClearTEST", clear.aliases)
        self.assertNotIn("glClearTEST", self.m.commands)
        self.assertIn("GL_TEST_aliases", clear.extensions)
        self.assertIn("GL_TEST_aliases", self.m.extensions)

    def test_every_extension_is_carried(self):
        self.assertIn("glFrobTEST", self.m.commands)
        self.assertIn("GL_TEST_new", self.m.commands["glFrobTEST"].extensions)
        self.assertEqual(self.m.blocked_extensions(), {})

    def test_annotated_extension_is_hidden_with_its_reason(self):
        m = model(extra=HAND_WRITTEN, blocked='"GL_TEST_new" = "frobs the host"')
        self.assertNotIn("glFrobTEST", m.commands)
        self.assertIn("glClearTEST", m.commands["glClear"].aliases)
        self.assertEqual(m.blocked_extensions()["GL_TEST_new"], "frobs the host")

    def test_unknown_annotated_extension_is_refused(self):
        with self.assertRaises(SystemExit) as err:
            model(extra=HAND_WRITTEN, blocked='"GL_TEST_none" = "x"')
        self.assertIn("unknown extensions GL_TEST_none", str(err.exception))

    def test_unsupported_command_hides_its_extension_with_the_reason(self):
        m = model(extra=HAND_WRITTEN + '\n[unsupported]\nglFrobTEST = "host memory"')
        self.assertEqual(m.blocked_extensions().get("GL_TEST_new"), "glFrobTEST: host memory")

    def test_opengl_es_1_commands_are_marked(self):
        self.assertTrue(self.m.commands["glClear"].gles1)
        self.assertFalse(self.m.commands["glColorPointer"].gles1)
        self.assertIn("GL_TEST_es1", self.m.commands["glFrobxTEST"].extensions)

    def test_a_command_of_one_api_hides_its_extension_there_only(self):
        m = model(extra=HAND_WRITTEN.replace('glSelectBuffer = "b"', '') +
                  '\n[unsupported]\nglSelectBuffer = "host memory"')
        self.assertIn("GL_TEST_es1", m.blocked_extensions(("gl",)))
        self.assertNotIn("GL_TEST_es1", m.blocked_extensions(("gles1",)))

    def test_guest_only_command_is_carried_without_an_opcode(self):
        m = model(extra=HAND_WRITTEN + '\n[guest_only]\nglFrobTEST = "glClear"')
        self.assertNotIn("glFrobTEST", m.commands)
        self.assertIn("glFrobTEST", m.guest_only)
        self.assertNotIn("GL_TEST_new", m.blocked_extensions())


class Layouts(unittest.TestCase):
    """[layouts] and [replies]: wire fields declared once for both ends."""

    def test_a_list_of_data_or_offsets_is_counted_by_an_earlier_field(self):
        m = model(extra=HAND_WRITTEN + '\n[layouts]\nglGetPointerv = "GLsizei n, data_or_offset[n] parts"')
        parts = m.commands["glGetPointerv"].layout[1]
        self.assertEqual((parts.kind, parts.count_expr, parts.buffer_source), ("data_list", "n", "bound"))

    def test_a_reply_of_a_hand_written_command_is_declared(self):
        m = model(extra=HAND_WRITTEN + '\n[replies]\nglGetPointerv = "GLint length, data bytes"')
        reply = m.commands["glGetPointerv"].reply
        self.assertEqual([(p.name, p.kind) for p in reply], [("length", "scalar"), ("bytes", "in_array")])

    def test_a_reply_of_a_generated_command_is_refused(self):
        with self.assertRaises(SystemExit) as err:
            model(extra=HAND_WRITTEN + '\n[replies]\nglClear = "GLenum status"')
        self.assertIn("[replies] glClear", str(err.exception))


if __name__ == "__main__":
    unittest.main()
