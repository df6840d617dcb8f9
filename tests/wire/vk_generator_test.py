#!/usr/bin/env python3
"""The Vulkan model's rules on a small registry of its own: which structures
and commands can travel, that a command that cannot is refused unless
annotated, that Vulkan SC variants are ignored, and that opcodes start the
Vulkan range and never move. Then the real vk.xml: Vulkan 1.3 is whole."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, sys.argv.pop(1) if len(sys.argv) > 1 else "wire-protocol/gen")

import emit_vk  # noqa: E402
from vk_model import FIRST_OPCODE, VkModel  # noqa: E402

REGISTRY = """<registry><types>
<type category="basetype">typedef <type>uint32_t</type> <name>VkBool32</name>;</type>
<type category="enum" name="VkStructureType"/>
<type category="enum" name="VkResult"/>
<type category="handle"><type>VK_DEFINE_HANDLE</type>(<name>VkDevice</name>)</type>
<type category="handle"><type>VK_DEFINE_NON_DISPATCHABLE_HANDLE</type>(<name>VkBuffer</name>)</type>
<type category="funcpointer">typedef void (VKAPI_PTR *<name>PFN_vkCallback</name>)(void);</type>
<type requires="X11/Xlib.h" name="Display"/>
<type category="struct" name="VkAllocationCallbacks">
  <member><type>void</type>* <name>pUserData</name></member>
  <member><type>PFN_vkCallback</type> <name>pfnAllocation</name></member></type>
<type category="struct" name="VkThingCreateInfo">
  <member values="VK_STRUCTURE_TYPE_THING"><type>VkStructureType</type> <name>sType</name></member>
  <member optional="true">const <type>void</type>* <name>pNext</name></member>
  <member><type>uint32_t</type> <name>codeSize</name></member>
  <member len="latexmath:[\\(codeSize \\over 4\\)]" altlen="codeSize / 4">const <type>uint32_t</type>* <name>pCode</name></member>
  <member><type>uint32_t</type> <name>nameCount</name></member>
  <member len="nameCount,null-terminated">const <type>char</type>* const* <name>ppNames</name></member>
  <member><type>float</type> <name>color</name>[4]</member>
  <member><type>VkBuffer</type> <name>buffer</name></member></type>
<type category="struct" name="VkWindowCreateInfo">
  <member><type>Display</type>* <name>dpy</name></member></type>
<type category="struct" name="VkHookInfo">
  <member><type>PFN_vkCallback</type> <name>pfnHook</name></member></type>
</types><commands>
<command><proto><type>VkResult</type> <name>vkCreateThing</name></proto>
  <param><type>VkDevice</type> <name>device</name></param>
  <param>const <type>VkThingCreateInfo</type>* <name>pCreateInfo</name></param>
  <param optional="true">const <type>VkAllocationCallbacks</type>* <name>pAllocator</name></param>
  <param><type>VkBuffer</type>* <name>pBuffer</name></param></command>
<command><proto><type>VkResult</type> <name>vkEnumerateThings</name></proto>
  <param><type>VkDevice</type> <name>device</name></param>
  <param><type>uint32_t</type>* <name>pCount</name></param>
  <param len="pCount"><type>VkBuffer</type>* <name>pBuffers</name></param></command>
<command><proto><type>VkResult</type> <name>vkCreateWindowThing</name></proto>
  <param>const <type>VkWindowCreateInfo</type>* <name>pCreateInfo</name></param></command>
<command><proto><type>void</type> <name>vkSetHook</name></proto>
  <param>const <type>VkHookInfo</type>* <name>pInfo</name></param></command>
<command api="vulkansc"><proto><type>void</type> <name>vkScOnly</name></proto>
  <param><type>VkDevice</type> <name>device</name></param></command>
<command name="vkEnumerateThingsKHR" alias="vkEnumerateThings"/>
</commands>
<feature api="vulkan" name="VK_VERSION_1_0" number="1.0"><require>
  <command name="vkCreateThing"/><command name="vkEnumerateThings"/>
  <command name="vkCreateWindowThing"/><command name="vkSetHook"/></require></feature>
<feature api="vulkansc" name="VKSC_VERSION_1_0" number="1.0"><require>
  <command name="vkScOnly"/></require></feature>
<extensions><extension name="VK_KHR_things" supported="vulkan"><require>
  <command name="vkEnumerateThingsKHR"/></require></extension></extensions>
</registry>"""

ANNOTATED = """carried_extensions = ["VK_KHR_things"]
[guest]
vkCreateWindowThing = "a guest window"
[unsupported]
vkSetHook = "a function pointer into the guest"
"""


class VkModelTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.xml = self.write("vk.xml", REGISTRY)
        self.opcodes = self.write("vk-opcodes.txt", "")

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def model(self, annotations=ANNOTATED):
        return VkModel(self.xml, self.write("vk-annotations.toml", annotations), self.opcodes)

    def test_structures_travel_when_every_member_can(self):
        m = self.model()
        self.assertEqual(m.struct_problem("VkThingCreateInfo"), "")
        self.assertIn("function pointer", m.struct_problem("VkHookInfo"))
        self.assertIn("Display", m.struct_problem("VkWindowCreateInfo"))
        kinds = {p.name: p.kind for p in m.commands["vkCreateThing"].params}
        self.assertEqual(kinds, {"device": "handle", "pCreateInfo": "in_struct",
                                 "pAllocator": "allocator", "pBuffer": "out_handle"})
        members = {x.name: x.kind for x in m.structs["VkThingCreateInfo"].members}
        self.assertEqual(members["pCode"], "array")  # its length a formula of members
        self.assertEqual(members["ppNames"], "strings")
        self.assertEqual(members["pNext"], "pnext")

    def test_enumerations_ask_the_count_then_the_elements(self):
        m = self.model()
        kinds = [p.kind for p in m.commands["vkEnumerateThings"].params]
        self.assertEqual(kinds, ["handle", "out_scalar", "out_enumerated"])
        self.assertEqual(m.commands["vkEnumerateThings"].aliases, ["vkEnumerateThingsKHR"])

    def test_a_command_that_cannot_travel_needs_an_annotation(self):
        with self.assertRaises(SystemExit) as refused:
            self.model('carried_extensions = []\n[guest]\nvkCreateWindowThing = "a guest window"\n')
        self.assertIn("vkSetHook", str(refused.exception))
        self.assertNotIn("vkCreateWindowThing", str(refused.exception))

    def test_an_extension_not_carried_has_no_commands_and_may_not_be_carried_too(self):
        hidden = ANNOTATED.replace('carried_extensions = ["VK_KHR_things"]',
                                   'carried_extensions = []').rstrip() + '\n[not_carried]\nVK_KHR_things = "why"\n'
        self.assertNotIn("vkEnumerateThingsKHR", self.model(hidden).commands["vkEnumerateThings"].aliases)
        with self.assertRaises(SystemExit) as refused:
            self.model(ANNOTATED + '[not_carried]\nVK_KHR_things = "why"\n')
        self.assertIn("carried and not carried", str(refused.exception))
        with self.assertRaises(SystemExit):
            self.model(ANNOTATED + '[not_carried]\nVK_KHR_nothing = "why"\n')

    def test_only_commands_run_by_hand_name_the_host_member_that_runs_them(self):
        by_hand = ANNOTATED.replace("[guest]", '[host]\nvkCreateThing = "why"\n[guest]')
        m = self.model(by_hand + '[host_runs]\nvkCreateThing = "create_thing"\n')
        self.assertIn("case VkOp::vkCreateThing: return &VkHandler::create_thing;", emit_vk.vk_host_specials_cpp(m))
        with self.assertRaises(SystemExit) as refused:
            self.model(ANNOTATED + '[host_runs]\nvkEnumerateThings = "enumerate_things"\n')
        self.assertIn("vkEnumerateThings", str(refused.exception))

    def test_vulkan_sc_is_not_selected(self):
        self.assertNotIn("vkScOnly", self.model().commands)

    def test_opcodes_start_the_vulkan_range_and_never_move(self):
        m = self.model()
        m.assign_opcodes(update=True)
        first = {n: c.opcode for n, c in m.commands.items()}
        self.assertEqual(min(first.values()), FIRST_OPCODE)
        again = self.model()
        again.assign_opcodes(update=False)
        self.assertEqual({n: c.opcode for n, c in again.commands.items()}, first)

    def test_a_command_without_an_opcode_is_refused(self):
        with self.assertRaises(SystemExit):
            self.model().assign_opcodes(update=False)


def real_model():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "wire-protocol")
    return VkModel("/usr/share/vulkan/registry/vk.xml", os.path.join(root, "vk-annotations.toml"),
                   os.path.join(root, "vk-opcodes.txt"))


class RealRegistryTest(unittest.TestCase):
    """Debian's vk.xml with the committed annotations and opcode table."""

    def test_bitmasks_hold_every_bit_of_their_flag_bits(self):
        m = real_model()
        self.assertEqual(m.flag_masks["VkCullModeFlags"], 0x3)
        self.assertEqual(m.flag_masks["VkStencilFaceFlags"], 0x3)
        usage = m.flag_masks["VkBufferUsageFlags"]
        # Core bits, a carried extension's and one not carried.
        for bit in (0x1, 0x20000, 0x800, 0x1000000):
            self.assertTrue(usage & bit, hex(bit))
        self.assertFalse(usage & 0x80000000)
        # Reserved bitmasks (no FlagBits yet) and 64-bit ones are not judged.
        self.assertNotIn("VkBufferViewCreateFlags", m.flag_masks)
        self.assertNotIn("VkPipelineStageFlags2", m.flag_masks)

    def test_vulkan_1_3_is_whole(self):
        m = real_model()
        m.assign_opcodes(update=False)
        for name in ("vkCreateInstance", "vkCmdBeginRendering", "vkQueueSubmit2",
                     "vkWaitSemaphores", "vkCreateSwapchainKHR", "vkCreateHeadlessSurfaceEXT"):
            self.assertIn(name, m.commands)
        self.assertIn("vkCmdBeginRenderingKHR", m.commands["vkCmdBeginRendering"].aliases)
        # Promoted extensions carried under their own names; what is hidden has a reason.
        self.assertIn("vkCmdSetLogicOpEXT", m.commands)
        self.assertIn("vkResetQueryPoolEXT", m.commands["vkResetQueryPool"].aliases)
        self.assertTrue(all(m.not_carried.values()))
        opcodes = [c.opcode for c in m.commands.values()]
        self.assertEqual(len(set(opcodes)), len(opcodes))
        self.assertGreaterEqual(min(opcodes), FIRST_OPCODE)


if __name__ == "__main__":
    unittest.main(verbosity=2)
