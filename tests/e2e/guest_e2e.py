#!/usr/bin/python3
"""End-to-end runs of unmodified GLES programs through Conduit under Xvfb,
compared with the same programs run natively (Mesa on the same machine).

usage: guest_e2e.py CONDUIT_EXE THREE_APIS_EXE MEMORY_INTEROP_EXE [unittest args]
"""
import os
import re
import subprocess
import sys
import unittest

from host_support import HostedSuite
from x11_support import (MAX_DIFFERENT_PIXELS, conduit_problems, differing_share, gear_pixels,
                         glmark2_native_and_conduit, screenshot)

CONDUIT = None
THREE_APIS = None  # tests/e2e/three_apis.cpp
MEMORY_INTEROP = None  # tests/e2e/memory_interop.cpp


class Hosted(HostedSuite):
    """A suite with one `conduit host`, on a unix socket."""

    TRANSPORTS = ("unix",)

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.host = cls.hosts["unix"]


class Suite(Hosted):

    def run_program(self, argv, conduit, timeout=120, extra_env=None):
        cmd = ([CONDUIT, "run", "--host", self.host.address, "--"] if conduit else []) + argv
        env = dict(self.env, **(extra_env or {}))
        if conduit:
            env["CONDUIT_STATS"] = "1"
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)

    def assert_clean_conduit_run(self, run):
        """The program went through Conduit (its statistics line is there)
        and Conduit reported no problem."""
        lines = [l for l in run.stderr.splitlines() if l.startswith("conduit")]
        self.assertTrue(any(l.startswith("conduit: batches") for l in lines), run.stderr)
        self.assertEqual(conduit_problems(run.stderr), [], run.stderr)

    def screenshot(self, argv, title, conduit, name, settle=2.0, until=None, limit=30.0):
        """Starts a windowed program, waits for its window to show frames,
        saves the window as PNG and stops the program. With `until`, keeps
        taking screenshots (frames arrive asynchronously, later on a busy
        machine) until until(png) holds or `limit` seconds passed."""
        cmd = ([CONDUIT, "run", "--host", self.host.address, "--"] if conduit else []) + argv
        env = dict(self.env)
        if conduit:
            env["CONDUIT_STATS"] = "1"
        png, out = screenshot(self.xvfb.display, cmd, env, title, os.path.join(self.work, name), settle,
                              until, limit)
        self.assertIsNotNone(png, f"no window {title!r}:\n{out}")
        self.assertEqual(conduit_problems(out), [], f"Conduit reported a problem:\n{out}")
        return png

    def assert_images_match(self, a, b):
        share = differing_share(a, b)
        self.assertLessEqual(share, MAX_DIFFERENT_PIXELS, f"{a} and {b}: {share:.2%} of the pixels differ")

    def test_es2_info_reports_conduit_and_host_renderer(self):
        native = self.run_program(["es2_info"], conduit=False)
        ours = self.run_program(["es2_info"], conduit=True)
        self.assertEqual(ours.returncode, 0, ours.stdout + ours.stderr)
        self.assert_clean_conduit_run(ours)
        self.assertIn("EGL_VENDOR: Conduit", ours.stdout)
        renderer = re.search(r"GL_RENDERER: (.*)", native.stdout).group(1)
        self.assertIn(f"GL_RENDERER: {renderer}", ours.stdout)

    def test_eglinfo_reports_conduit(self):
        ours = self.run_program(["eglinfo"], conduit=True)
        self.assertEqual(ours.returncode, 0, ours.stdout + ours.stderr)
        self.assertIn("EGL vendor string: Conduit", ours.stdout)
        self.assertIn("EGL version string: 1.5 Conduit", ours.stdout)
        self.assertRegex(ours.stdout, r"0x0\d 32 .* win,pb")

    def test_es2tri_matches_native(self):
        title = "OpenGL ES 2.x tri"
        native = self.screenshot(["es2tri"], title, conduit=False, name="es2tri-native")
        ours = self.screenshot(["es2tri"], title, conduit=True, name="es2tri-conduit", settle=1.0,
                               until=lambda png: differing_share(native, png) <= MAX_DIFFERENT_PIXELS)
        self.assert_images_match(native, ours)

    def test_es2gears_runs_and_draws(self):
        png = self.screenshot(["es2gears_x11"], "es2gears", conduit=True, name="es2gears-conduit", settle=1.0,
                              until=lambda png: min(gear_pixels(png).values()) > 500)
        for color, n in gear_pixels(png).items():
            self.assertGreater(n, 500, f"no {color} gear in the es2gears frame")

    def test_glmark2_validate_matches_native(self):
        native, ours, run = glmark2_native_and_conduit(self, ["glmark2-es2", "--validate"])
        self.assert_clean_conduit_run(run)
        self.assertIn("Success", native.values())
        for scene, outcome in native.items():
            if outcome == "Success":
                self.assertEqual(ours.get(scene), "Success", f"{scene} validates natively but not through Conduit")

    def test_a_program_using_glx_egl_and_vulkan_is_one_session(self):
        """The GLX vendor, the EGL vendor and the Vulkan ICD are one library,
        so a program using all three has one connection and one renderer:
        the host serves it one session and the program prints one line of
        statistics, as for a program using one API (`conduit run` itself
        asks the host first). With a library each it was three of both."""
        def sessions_of(argv):
            before = self.host.stats()["sessions_total"]
            run = self.run_program(argv, conduit=True)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            return self.host.stats()["sessions_total"] - before, run
        one_api, _ = sessions_of(["es2_info"])
        sessions, run = sessions_of([THREE_APIS])
        self.assertRegex(run.stdout, r"glx 255,0,0 egl 0,0,255 vulkan \S", run.stderr)
        self.assert_clean_conduit_run(run)
        self.assertEqual(sessions, one_api)
        self.assertEqual(sum(l.startswith("conduit: batches") for l in run.stderr.splitlines()), 1, run.stderr)

    def test_vulkan_memory_imported_into_gl(self):
        """GL_EXT_memory_object_fd: memory the program wrote through Vulkan
        and exported reads back through a GL buffer placed in it, and the
        import takes the program's fd, natively and through Conduit (a
        unix host and the private host on shared memory). Through Conduit
        the host also refuses, with GL_INVALID_VALUE and before the driver
        sees them, a buffer past the memory's end, a texture whose texels
        exceed it, an fd that is no export, an export imported twice and
        one imported as larger than it is, and with GL_INVALID_OPERATION an
        import into a memory object imported before; llvmpipe itself raises
        no error for any of them."""
        native = subprocess.run([MEMORY_INTEROP], capture_output=True, text=True, env=self.env, timeout=120)
        if native.returncode == 2:
            self.skipTest("the host's drivers share no memory between Vulkan and GL")
        expected = {"import": "0x0", "fd_owned": "1", "read": "1"}
        self.assertEqual(native.returncode, 0, native.stdout + native.stderr)
        self.assertLessEqual(expected.items(), dict(l.split() for l in native.stdout.splitlines()).items(),
                             native.stdout)
        expected.update(past_end="0x501", too_big="0x501", not_ours="0x501", again="0x501", too_large="0x501",
                        reimport="0x502")
        for route in (["--host", self.host.address], []):
            with self.subTest(route=route or "private host"):
                run = subprocess.run([CONDUIT, "run", *route, "--", MEMORY_INTEROP], capture_output=True, text=True,
                                     env=dict(self.env, CONDUIT_STATS="1"), timeout=120)
                self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
                self.assertEqual(dict(l.split() for l in run.stdout.splitlines()), expected, run.stderr)
                self.assert_clean_conduit_run(run)

    def test_frames_are_put_in_place_from_the_sockets_heaps(self):
        """Over a unix socket the host writes each frame into the heaps the
        handshake shared, and the X server reads it from there: every frame
        presented is put in place. Asked to keep frames in the stream, none is."""
        argv = ["glmark2-es2", "-b", "build:duration=1", "-s", "320x240"]
        for heaps, in_place in (("1", True), ("0", False)):
            run = self.run_program(argv, conduit=True, extra_env={"CONDUIT_SOCKET_HEAPS": heaps})
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assert_clean_conduit_run(run)
            presented = int(re.search(r"frames presented (\d+)", run.stderr).group(1))
            placed = int(re.search(r"conduit: (\d+) frames put in place", run.stderr).group(1))
            self.assertGreater(presented, 10, run.stderr)
            if in_place:
                self.assertGreaterEqual(placed, presented * 9 // 10, run.stderr)
            else:
                self.assertEqual(placed, 0, run.stderr)


if __name__ == "__main__":
    CONDUIT = HostedSuite.CONDUIT = os.path.abspath(sys.argv.pop(1))
    THREE_APIS = os.path.abspath(sys.argv.pop(1))
    MEMORY_INTEROP = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
