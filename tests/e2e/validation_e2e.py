#!/usr/bin/python3
"""The Khronos validation layer, with best practices and synchronization
validation on, reports nothing through Conduit that it does not report
natively on the machine's driver: vkcube and conduit-vkbench's scenes run
natively and through Conduit with the layer in the program, and through
Conduit with the layer in the host's renderer too. The layer in the program
checks the program against Conduit's device; in the renderer, Conduit's own
use of the driver. A program that breaks a rule shows that the renderer's
reports would be seen.

usage: validation_e2e.py CONDUIT_EXE VKBENCH_EXE [unittest args]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from host_support import Host
from x11_support import Xvfb

CONDUIT = None
VKBENCH = None
INVALID_DEVICE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vk_invalid_device.py")
LAYER = "VK_LAYER_KHRONOS_validation"
ENABLES = "VK_VALIDATION_FEATURE_ENABLE_BEST_PRACTICES_EXT,VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT"
# Every kind of report, each as often as it comes (the layer shows 10 of a
# message ID, and the later ones may say something else).
SETTINGS = f"""khronos_validation.report_flags = error,warn,perf,info
khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG
khronos_validation.enable_message_limit = false
khronos_validation.enables = {ENABLES}
"""
REPORT = re.compile(r"Validation (Error|Warning|Performance Warning|Information): (.*)$", re.M)
# The objects and addresses a report names differ from run to run.
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
PROGRAMS = {
    "vkcube": ["vkcube", "--c", "50"],
    "vkbench": None,  # VKBENCH's scenes, filled in at start
}


def reports(text):
    """The layer's reports in `text`: kind and message, addresses elided."""
    return {(kind, ADDRESS.sub("0x…", message.strip())) for kind, message in REPORT.findall(text)}


def best_practices(text):
    return {message for _, message in reports(text) if "BestPractices-" in message}


def native_env(display):
    env = dict(os.environ, DISPLAY=display)
    for var in ("VK_DRIVER_FILES", "VK_ICD_FILENAMES", "CONDUIT_HOST"):
        env.pop(var, None)
    return env


class Suite(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="conduit-validation-e2e-")
        settings = os.path.join(cls.work, "vk_layer_settings.txt")
        with open(settings, "w") as f:
            f.write(SETTINGS)
        cls.layer = {"VK_INSTANCE_LAYERS": LAYER, "VK_LAYER_SETTINGS_PATH": settings}
        cls.xvfb = Xvfb()
        cls.env = dict(native_env(cls.xvfb.display), **cls.layer)
        # The renderer reads no file outside the drivers' (docs/host-processes.md):
        # there the layer takes its enables from a variable and reports errors only.
        cls.host = Host(CONDUIT, "unix:", cls.work, name="validated",
                        extra_env={"VK_INSTANCE_LAYERS": LAYER, "VK_LAYER_ENABLES": ENABLES})
        cls.native = {name: cls.run_program(args) for name, args in PROGRAMS.items()}

    @classmethod
    def tearDownClass(cls):
        cls.host.stop()
        cls.xvfb.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    @classmethod
    def run_program(cls, args, prefix=()):
        p = subprocess.run(list(prefix) + args, env=cls.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=120)
        assert p.returncode == 0, p.stdout[-3000:]
        return p.stdout

    def through(self, args, counted=True):
        """The program's output and what the renderer logged meanwhile. A
        renderer that crashed (the driver may, on a broken rule) counts nothing."""
        start, before = len(self.host.read_log()), self.host.stats()["total"]["commands"]
        out = self.run_program(args, [CONDUIT, "run", "--host", self.host.address, "--"])
        # The renderer has written all it will, and its counters are in,
        # once its session has ended.
        for _ in range(200):
            stats = self.host.stats()
            if stats["sessions_live"] == 0 and (stats["total"]["commands"] > before or not counted):
                break
            time.sleep(0.05)
        if counted:
            self.assertGreater(stats["total"]["commands"], before, "the program did not go through Conduit")
        return out, self.host.read_log()[start:]

    def test_the_layer_runs_natively_and_reports_best_practices(self):
        # Natively the layer is there with its settings and has advice to
        # give: the sets compared below are not empty by construction.
        for name, out in self.native.items():
            with self.subTest(program=name):
                self.assertTrue(best_practices(out), out[-3000:])

    def test_conduits_own_demo_breaks_no_rule(self):
        # conduit-vkbench gets advice at most (its command pool is reset per
        # buffer), never an error or a warning.
        kinds = {kind for kind, _ in reports(self.native["vkbench"])}
        self.assertEqual(kinds - {"Information", "Performance Warning"}, set(), self.native["vkbench"][-3000:])

    def test_nothing_reported_through_conduit_that_is_not_native(self):
        for name, args in PROGRAMS.items():
            with self.subTest(program=name):
                out, renderer = self.through(args)
                native = reports(self.native[name])
                self.assertTrue(best_practices(out), "the layer did not run in the program:\n" + out[-3000:])
                self.assertEqual(reports(out) - native, set())
                self.assertEqual(reports(renderer) - native, set())

    def test_the_renderers_reports_are_seen(self):
        _, renderer = self.through([sys.executable, INVALID_DEVICE], counted=False)
        self.assertIn("VUID-VkDeviceQueueCreateInfo-pQueuePriorities-00383", renderer)


if __name__ == "__main__":
    CONDUIT = os.path.abspath(sys.argv.pop(1))
    VKBENCH = os.path.abspath(sys.argv.pop(1))
    PROGRAMS["vkbench"] = [VKBENCH, "--off-screen"] + [a for scene in ("draws", "texture", "compute", "rtt")
                                                        for a in ("-b", scene + ":duration=0.3")]
    unittest.main(verbosity=2)
