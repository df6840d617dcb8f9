#!/usr/bin/python3
"""Mesa's zink (OpenGL on Vulkan) in the guest on Conduit's Vulkan ICD,
beside zink on the machine's own lavapipe: glxinfo shows zink on Conduit's
device with the same GL versions, and glmark2's scenes validate the same. The GL calls stay in the
guest's Mesa; only Vulkan travels.

usage: zink_e2e.py CONDUIT_EXE [unittest args]
"""
import os
import re
import shutil
import sys
import tempfile
import unittest

from host_support import Host, run_program
from x11_support import Xvfb, glmark2_outcomes

CONDUIT = None
# zink in Mesa's software loader (Xvfb offers no DRI3), on whichever Vulkan
# driver the loader is given.
ZINK = {"__GLX_VENDOR_LIBRARY_NAME": "mesa", "LIBGL_ALWAYS_SOFTWARE": "1", "GALLIUM_DRIVER": "zink"}
SCENES = ["build:use-vbo=true", "texture:texture-filter=linear", "shading:shading=phong",
          "bump:bump-render=normals", "effect2d:kernel=0,1,0;1,-4,1;0,1,0;"]


run = run_program


class Suite(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="conduit-zink-e2e-")
        cls.xvfb = Xvfb()
        cls.env = {k: v for k, v in os.environ.items()
                   if k not in ("VK_DRIVER_FILES", "VK_ICD_FILENAMES", "CONDUIT_HOST")}
        cls.env.update(ZINK, DISPLAY=cls.xvfb.display)
        cls.host = Host(CONDUIT, "unix:", cls.work)

    @classmethod
    def tearDownClass(cls):
        cls.host.stop()
        cls.xvfb.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def through(self, args):
        """`args` with GLX left to the guest's Mesa and Vulkan to Conduit
        (`conduit run` selects Conduit's GLX; zink is Mesa's)."""
        before = self.host.stats()["total"]["commands"]
        rc, out = run([CONDUIT, "run", "--host", self.host.address, "--", "env"]
                      + [f"{k}={v}" for k, v in ZINK.items()] + args, self.env)
        self.assertEqual(rc, 0, out[-3000:])
        self.assertGreater(self.host.stats()["total"]["commands"], before, "zink did not go through Conduit")
        self.assertEqual(self.host.stats()["total"]["contexts_lost"], 0, self.host.read_log()[-3000:])
        return out

    def test_glxinfo_shows_zink_on_conduits_device(self):
        out = self.through(["glxinfo", "-B"])
        renderer = re.search(r"OpenGL renderer string: (.*)", out)
        self.assertIsNotNone(renderer, out[-3000:])
        self.assertTrue(renderer.group(1).startswith("zink (Conduit ("), renderer.group(1))

    def test_gl_versions_as_on_lavapipe(self):
        """zink's GL versions follow the Vulkan features and extensions it
        finds (3.0 needs transform feedback, 3.3 vertex divisors): the same
        through Conduit as natively."""
        versions = re.compile(r"^(?:Max .* profile version|OpenGL .*version string): .*$", re.M)
        rc, native = run(["glxinfo", "-B"], self.env)
        self.assertEqual(rc, 0, native[-3000:])
        expected = versions.findall(native)
        self.assertTrue(any(v.startswith("OpenGL core profile version string: ") for v in expected), native[-3000:])
        self.assertEqual(versions.findall(self.through(["glxinfo", "-B"])), expected)

    def test_glmark2_scenes_validate_as_on_lavapipe(self):
        args = ["glmark2", "--validate", "-s", "320x240"] + [a for s in SCENES for a in ("-b", s)]
        rc, native = run(args, self.env)
        self.assertEqual(rc, 0, native[-3000:])
        expected = glmark2_outcomes(native)
        self.assertEqual(len(expected), len(SCENES), native[-3000:])
        self.assertEqual(glmark2_outcomes(self.through(args)), expected)


if __name__ == "__main__":
    CONDUIT = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
