#!/usr/bin/python3
"""Host viewers: guest programs' windows shown by `conduit host --window`,
each tile matching the guest's own window (a still demo and input_probe;
then glxgears and es2gears_x11, animating), and the host window's keyboard
and pointer reaching the guest program under it.

usage: viewer_e2e.py CONDUIT_EXE LEGACY_GL_DEMO INPUT_PROBE [unittest args]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from viewer_support import ViewerHost, find_picture, pixels, wait_line
from x11_support import MAX_DIFFERENT_PIXELS, Xvfb, capture, window_id

CONDUIT = LEGACY_GL_DEMO = INPUT_PROBE = None
COUNTER_ROWS = 8  # input_probe's frame counter changes every frame


def window_origin(display, wid):
    info = subprocess.run(["xwininfo", "-display", display, "-id", wid], capture_output=True, text=True,
                          check=True).stdout
    x = int(re.search(r"Absolute upper-left X:\s+(-?\d+)", info).group(1))
    y = int(re.search(r"Absolute upper-left Y:\s+(-?\d+)", info).group(1))
    return x, y


class HostWindowSuite(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="conduit-viewer-e2e-")
        cls.xvfb = Xvfb("1600x1000x24")
        cls.host = ViewerHost(CONDUIT, cls.work, cls.xvfb.display, ["--window"])
        cls.legacy = cls.host.guest([LEGACY_GL_DEMO, "--hold", "120"])
        wait_line(cls.legacy, r"^ready 0x", timeout=60)
        # It draws once; no window manager places windows, so the probe's
        # will cover it: its own picture is taken now.
        wid = window_id(cls.xvfb.display, "legacy-gl-demo")
        cls.legacy_picture = pixels(capture(cls.xvfb.display, wid, os.path.join(cls.work, "legacy-guest")))
        cls.probe = cls.host.guest([INPUT_PROBE, "--fps", "30"])
        wait_line(cls.probe, r"^ready window=", timeout=60)
        cls.host_window = window_id(cls.xvfb.display, "Conduit")

    @classmethod
    def tearDownClass(cls):
        for p in (cls.legacy, cls.probe):
            p.stop()
        cls.host.stop()
        cls.xvfb.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def capture(self, title, name):
        wid = self.host_window if title == "Conduit" else window_id(self.xvfb.display, title)
        self.assertIsNotNone(wid, f"no window {title!r}")
        return pixels(capture(self.xvfb.display, wid, os.path.join(self.work, name)))

    def locate(self, title, skip_top=0, guest=None):
        """Where the guest window `title` (or its picture `guest`) is in the
        host window, once its frames arrived."""
        deadline = time.time() + 30
        while True:
            if title:
                guest = self.capture(title, title + "-guest")
            shown = self.capture("Conduit", (title or "legacy") + "-host")
            x, y, share = find_picture(shown, guest, skip_top)
            if share <= MAX_DIFFERENT_PIXELS or time.time() > deadline:
                return x, y, share
            time.sleep(0.5)

    def test_a_both_guests_shown_as_their_own_windows(self):
        self.assertIsNotNone(self.host_window, self.host.read_log())
        _, _, legacy_share = self.locate(None, guest=self.legacy_picture)
        self.assertLessEqual(legacy_share, MAX_DIFFERENT_PIXELS)
        _, _, probe_share = self.locate("input-probe", skip_top=COUNTER_ROWS)
        self.assertLessEqual(probe_share, MAX_DIFFERENT_PIXELS)
        self.assertEqual(self.host.errors(), [])

    def test_b_click_and_key_reach_the_guest_under_the_pointer(self):
        x, y, share = self.locate("input-probe", skip_top=COUNTER_ROWS)
        self.assertLessEqual(share, MAX_DIFFERENT_PIXELS)
        ox, oy = window_origin(self.xvfb.display, self.host_window)
        display = ["xdotool"]
        env = dict(os.environ, DISPLAY=self.xvfb.display)
        subprocess.run(display + ["mousemove", str(ox + x + 100), str(oy + y + 60), "click", "1"], env=env,
                       check=True)
        press = wait_line(self.probe, r"^button press button=1 x=(\d+) y=(\d+)")
        self.assertLessEqual(abs(int(press.group(1)) - 100), 1, press.group(0))
        self.assertLessEqual(abs(int(press.group(2)) - 60), 1, press.group(0))
        subprocess.run(display + ["key", "a"], env=env, check=True)
        wait_line(self.probe, r"^key press keysym=0x61 ")
        self.assertEqual(self.host.errors(), [])


class GearsSuite(unittest.TestCase):
    """glxgears (GLX) and es2gears_x11 (EGL) in two guests, both animating."""

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="conduit-gears-e2e-")
        self.xvfb = Xvfb("1024x768x24")
        self.host = ViewerHost(CONDUIT, self.work, self.xvfb.display, ["--window"])
        self.gears = [self.host.guest(["glxgears"]), self.host.guest(["es2gears_x11"])]

    def tearDown(self):
        self.signal_renderers("CONT")
        self.signal("CONT")
        for p in self.gears:
            p.stop()
        self.host.stop()
        self.xvfb.stop()
        shutil.rmtree(self.work, ignore_errors=True)

    def signal(self, name):
        for p in self.gears:
            for child in subprocess.run(["pgrep", "-P", str(p.proc.pid)], capture_output=True,
                                        text=True).stdout.split() + [str(p.proc.pid)]:
                subprocess.run(["kill", "-" + name, child], capture_output=True)

    def signal_renderers(self, name):
        """Signals the host's renderer processes (its children)."""
        for child in subprocess.run(["pgrep", "-P", str(self.host.proc.pid)], capture_output=True,
                                    text=True).stdout.split():
            subprocess.run(["kill", "-" + name, child], capture_output=True)

    def capture(self, wid, name):
        return pixels(capture(self.xvfb.display, wid, os.path.join(self.work, name)))

    def test_both_shown_each_as_its_own_window(self):
        env = dict(os.environ, DISPLAY=self.xvfb.display)
        windows = {t: window_id(self.xvfb.display, t, timeout=60) for t in ("glxgears", "es2gears", "Conduit")}
        self.assertNotIn(None, windows.values(), self.host.read_log())
        # No window manager: set them side by side, none covering another.
        for title, (x, y) in {"glxgears": (0, 0), "es2gears": (310, 0), "Conduit": (0, 330)}.items():
            subprocess.run(["xdotool", "windowmove", windows[title], str(x), str(y)], env=env, check=True)
        # The host's renderers are paused first, so that no frame is made
        # after those the guests still have to show (a guest may be frames
        # behind its renderer); then the guests. Paused, a program's window
        # and its tile hold the same frame, unless a renderer was paused
        # between giving a frame to the host window and to its guest. Then
        # all run a little and are paused again.
        for attempt in range(8):
            time.sleep(1.5)
            self.signal_renderers("STOP")
            time.sleep(1.0)
            self.signal("STOP")
            time.sleep(0.5)
            shown = self.capture(windows["Conduit"], f"host-{attempt}")
            guests = [self.capture(windows[t], f"{t}-{attempt}") for t in ("glxgears", "es2gears")]
            for g in guests:  # gears drawn, not an empty window that black matches anywhere
                self.assertGreater((g.max(axis=2) > 40).mean(), 0.1)
            shares = [find_picture(shown, g)[2] for g in guests]
            if max(shares) <= MAX_DIFFERENT_PIXELS:
                break
            self.signal_renderers("CONT")
            self.signal("CONT")
        self.assertLessEqual(max(shares), MAX_DIFFERENT_PIXELS, shares)
        self.assertEqual(self.host.errors(), [])


if __name__ == "__main__":
    CONDUIT, LEGACY_GL_DEMO, INPUT_PROBE = sys.argv[1:4]
    unittest.main(argv=[sys.argv[0]] + sys.argv[4:], verbosity=2)
