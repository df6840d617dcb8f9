#!/usr/bin/python3
"""End-to-end runs of unmodified desktop-GL programs through Conduit's GLX
vendor under Xvfb, compared with the same programs run natively.

usage: glx_e2e.py CONDUIT_EXE LEGACY_DEMO_EXE [unittest args]
"""
import os
import re
import subprocess
import sys
import time
import unittest

import guest_e2e
from x11_support import (MAX_DIFFERENT_PIXELS, capture, differing_share, gear_pixels, glmark2_native_and_conduit,
                         screenshot)

DEMO = None


class Glx(guest_e2e.Hosted):
    def command(self, argv, conduit):
        return ([guest_e2e.CONDUIT, "run", "--host", self.host.address, "--"] if conduit else []) + argv

    def run_program(self, argv, conduit, timeout=120):
        return subprocess.run(self.command(argv, conduit), capture_output=True, text=True, env=self.env,
                              timeout=timeout)

    def run_for(self, argv, conduit, seconds):
        """Runs a program that never exits by itself for `seconds`."""
        proc = subprocess.Popen(self.command(argv, conduit), env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        time.sleep(seconds)
        alive = proc.poll() is None
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
        self.assertTrue(alive, f"{argv[0]} exited early:\n{out}")
        self.assertNotIn("conduit: ", out, f"Conduit reported a problem:\n{out}")
        return out

    def capture(self, wid, name):
        return capture(self.xvfb.display, wid, os.path.join(self.work, name))

    def screenshot(self, argv, title, conduit, name, settle=2.0):
        png, out = screenshot(self.xvfb.display, self.command(argv, conduit), self.env, title,
                              os.path.join(self.work, name), settle)
        self.assertIsNotNone(png, f"no window {title!r}:\n{out}")
        self.assertNotIn("conduit: ", out, f"Conduit reported a problem:\n{out}")
        return png

    def demo_frame(self, conduit, name, extra=()):
        """The legacy demo's frame: it says when the frame is finished."""
        proc = subprocess.Popen(self.command([DEMO, "--hold", "30", *extra], conduit), env=self.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = proc.stdout.readline()
            m = re.match(r"ready (0x[0-9a-f]+)", line)
            self.assertIsNotNone(m, f"demo did not finish a frame: {line!r} {proc.stderr.read() if proc.poll() is not None else ''}")
            time.sleep(1.0)  # the last frame reaches the window asynchronously
            return self.capture(m.group(1), name)
        finally:
            proc.terminate()
            _, err = proc.communicate(timeout=20)
            self.assertNotIn("conduit: ", err, f"Conduit reported a problem:\n{err}")
            self.assertNotIn("GL error", err)

    def assert_images_match(self, a, b, max_share=MAX_DIFFERENT_PIXELS):
        share = differing_share(a, b)
        self.assertLessEqual(share, max_share, f"{a} and {b}: {share:.3%} of the pixels differ")

    def test_glxinfo_reports_conduit_and_host_renderer(self):
        native = self.run_program(["glxinfo", "-B"], conduit=False)
        ours = self.run_program(["glxinfo", "-B"], conduit=True)
        self.assertEqual(ours.returncode, 0, ours.stdout + ours.stderr)
        self.assertIn("direct rendering: Yes", ours.stdout)
        renderer = re.search(r"OpenGL renderer string: (.*)", native.stdout).group(1)
        self.assertIn(f"OpenGL renderer string: {renderer}", ours.stdout)
        for key in ("OpenGL core profile version string", "OpenGL version string"):
            self.assertIn(key, ours.stdout)

    def test_glxinfo_full_listing(self):
        ours = self.run_program(["glxinfo"], conduit=True)
        self.assertEqual(ours.returncode, 0, ours.stdout + ours.stderr)
        self.assertIn("server glx vendor string: Conduit", ours.stdout)
        self.assertIn("client glx vendor string: Conduit", ours.stdout)
        self.assertIn("GLX_ARB_create_context_profile", ours.stdout)
        self.assertRegex(ours.stdout, r"(?m)^0x[0-9a-f]+ 24 tc .* r  y")  # double-buffered RGB visuals

    def test_glxgears_runs(self):
        out = self.run_for(["glxgears"], conduit=True, seconds=7)
        self.assertRegex(out, r"\d+ frames in 5\.\d+ seconds")

    def test_glxgears_draws_gears(self):
        png = self.screenshot(["glxgears"], "glxgears", conduit=True, name="glxgears-conduit", settle=3.0)
        for color, n in gear_pixels(png).items():
            self.assertGreater(n, 500, f"no {color} gear in the glxgears frame")

    def test_glxdemo_matches_native(self):
        """glxdemo draws into a single-buffered window and flushes."""
        native = self.screenshot(["glxdemo"], None, conduit=False, name="glxdemo-native")
        ours = self.screenshot(["glxdemo"], None, conduit=True, name="glxdemo-conduit")
        self.assert_images_match(native, ours, max_share=0.0)

    def test_glxheads_runs(self):
        out = self.run_for(["stdbuf", "-oL", "glxheads", self.xvfb.display], conduit=True, seconds=4)
        self.assertIn("GL_RENDERER", out)

    def test_legacy_demo_matches_native(self):
        native = self.demo_frame(conduit=False, name="legacy-native")
        ours = self.demo_frame(conduit=True, name="legacy-conduit")
        self.assert_images_match(native, ours, max_share=0.0)

    def test_front_buffer_drawing_matches_native(self):
        """An outline drawn into the front buffer after the last swap and
        flushed shows in the window as natively."""
        native = self.demo_frame(conduit=False, name="front-native", extra=("--front", "1"))
        ours = self.demo_frame(conduit=True, name="front-conduit", extra=("--front", "1"))
        plain = self.demo_frame(conduit=True, name="front-plain")
        self.assertGreater(differing_share(native, plain), 0.003, "the outline changed nothing")
        self.assert_images_match(native, ours, max_share=0.0)

    def test_glmark2_validate_matches_native(self):
        native, ours, run = glmark2_native_and_conduit(self, ["glmark2", "--validate"])
        self.assertEqual(ours, native)
        self.assertNotIn("conduit: ", run.stderr)


if __name__ == "__main__":
    guest_e2e.CONDUIT = guest_e2e.HostedSuite.CONDUIT = os.path.abspath(sys.argv.pop(1))
    DEMO = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
