#!/usr/bin/python3
"""Direct3D 12 programs on Vulkan (vkd3d's demos, the path of Windows games
in VMs through vkd3d and DXVK) through Conduit's Vulkan ICD, beside the
same programs on the machine's own driver: each window's picture through
a unix socket and through shared-memory rings equals native's and is not
blank, and each run went through Conduit and lost nothing. vkd3d finds the
same Vulkan extensions, features and limits through Conduit as natively.

vkd3d-gears turns its gears by the wall clock; the clock is held still
(libfaketime, CLOCK_REALTIME only) so that every run draws the same frame.

usage: vkd3d_e2e.py CONDUIT_EXE [unittest args]
"""
import os
import re
import subprocess
import sys
import time
import unittest

from host_support import HostedSuite
from x11_support import MAX_DIFFERENT_PIXELS, differing_share, gear_pixels, screenshot

CONDUIT = None
FAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
STILL_CLOCK = {"FAKETIME": "2024-01-01 00:00:00", "FAKETIME_DONT_FAKE_MONOTONIC": "1"}
# program: its window's title
DEMOS = {"vkd3d-gears": "Vkd3d Gears", "vkd3d-triangle": "Vkd3d Triangle"}
# Colours a drawn frame has at least: the triangle's gradient, the gears'
# shading (a blank or single-colour window has one).
MIN_COLOURS = 100
# vkd3d's traces of what it found of the Vulkan device (VKD3D_DEBUG=trace).
CAPABILITIES = re.compile(r"^\w+:vkd3d_(check_extensions|trace_physical_device\w*|init_feature_level):.*$",
                          re.M)
ADDRESS = re.compile(r"0x[0-9a-f]+")


def capabilities(out):
    """What vkd3d found, its pointers left out."""
    return [ADDRESS.sub("ADDR", m.group(0)) for m in CAPABILITIES.finditer(out)]


def as_conduit_names(lines):
    """Native lines with the device named as Conduit names it: Conduit
    around the host's device (docs/vulkan.md, "Identity")."""
    return [re.sub(r"Device name: (.*)\.$", r"Device name: Conduit (\1).", line) for line in lines]


def colours(png):
    out = subprocess.run(["convert", png, "-format", "%k", "info:"], capture_output=True, text=True).stdout
    return int(out or 0)


class Suite(HostedSuite):

    TRANSPORTS = ("unix", "shm")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.env.update(STILL_CLOCK)

    def picture(self, demo, name, prefix=(), env=None):
        """The demo's window, once it has drawn, as NAME.png, and what the
        demo printed."""
        cmd = list(prefix) + ["env", "LD_PRELOAD=" + FAKETIME, demo]
        png, out = screenshot(self.xvfb.display, cmd, env or self.env, DEMOS[demo], os.path.join(self.work, name),
                              settle=1.0, until=lambda p: colours(p) >= MIN_COLOURS)
        self.assertIsNotNone(png, f"{demo} showed no window:\n{out[-3000:]}")
        return png, out

    def settled(self, host, before):
        """The host's totals once the demo's session ended (a renderer folds
        its counters in at its session's end)."""
        for _ in range(200):
            stats = host.stats()
            if stats["total"]["commands"] > before["commands"] and stats["sessions_live"] == 0:
                break
            time.sleep(0.05)
        return stats["total"]

    def test_frames_equal_native(self):
        for demo in DEMOS:
            native, _ = self.picture(demo, demo + "-native")
            self.assertGreaterEqual(colours(native), MIN_COLOURS, "the native frame is blank")
            for transport, host in self.hosts.items():
                with self.subTest(demo=demo, transport=transport):
                    before = host.stats()["total"]
                    png, _ = self.picture(demo, f"{demo}-{transport}", [CONDUIT, "run", "--host", host.address, "--"])
                    after = self.settled(host, before)
                    self.assertGreater(after["commands"], before["commands"], "the demo did not go through Conduit")
                    self.assertGreater(after["frames"], before["frames"], "the host presented no frame")
                    self.assertEqual(after["contexts_lost"], before["contexts_lost"], host.read_log()[-3000:])
                    self.assertGreaterEqual(colours(png), MIN_COLOURS, "the frame is blank")
                    share = differing_share(native, png)
                    self.assertLessEqual(share, MAX_DIFFERENT_PIXELS, f"{share:.2%} of pixels differ")

    def test_gears_stand_still_under_the_held_clock(self):
        """The comparison's premise: two native runs draw the same gears,
        all three of them."""
        first, second = (self.picture("vkd3d-gears", f"gears-still-{n}")[0] for n in (1, 2))
        self.assertEqual(differing_share(first, second), 0.0)
        self.assertTrue(all(n > 1000 for n in gear_pixels(first).values()), gear_pixels(first))

    def test_vkd3d_finds_the_device_as_natively(self):
        traced = dict(self.env, VKD3D_DEBUG="trace")
        _, out = self.picture("vkd3d-triangle", "traced-native", env=traced)
        native = capabilities(out)
        self.assertTrue(any('Found "VK_KHR_push_descriptor"' in line for line in native), out[-3000:])
        self.assertTrue(any("maxUniformBufferRange" in line for line in native), out[-3000:])
        _, out = self.picture("vkd3d-triangle", "traced-unix", [CONDUIT, "run", "--host", self.hosts["unix"].address,
                                                                 "--"], env=traced)
        self.assertEqual(capabilities(out), as_conduit_names(native))


if __name__ == "__main__":
    CONDUIT = HostedSuite.CONDUIT = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
