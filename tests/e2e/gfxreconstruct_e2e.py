#!/usr/bin/python3
"""GFXReconstruct's capture of a program on the machine's driver replays
through Conduit: gfxrecon-replay's screenshots of the captured frames equal
those of the same capture replayed natively, over a unix socket and over
shared memory. The captures are made here, from vkcube: one natively, and
one through `conduit run`, with the capture layer on Conduit's device,
which replays natively with the same frames.

usage: gfxreconstruct_e2e.py CONDUIT_EXE [unittest args]
"""
import os
import shutil
import sys
import tempfile
import time
import unittest

from host_support import Host, run_program
from x11_support import MAX_DIFFERENT_PIXELS, Xvfb, differing_share

CONDUIT = None
FRAMES = 5
CAPTURE_LAYER = "VK_LAYER_LUNARG_gfxreconstruct"


def native_env(display):
    env = dict(os.environ, DISPLAY=display)
    for var in ("VK_DRIVER_FILES", "VK_ICD_FILENAMES", "CONDUIT_HOST", "VK_INSTANCE_LAYERS"):
        env.pop(var, None)
    return env


def run(cmd, env):
    return run_program(cmd, env, timeout=120)


class Suite(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="conduit-gfxr-e2e-")
        cls.xvfb = Xvfb()
        cls.env = native_env(cls.xvfb.display)
        cls.capture = cls.record("native.gfxr")
        cls.hosts = {t: Host(CONDUIT, t + ":", cls.work) for t in ("unix", "shm")}
        cls.native = cls.replay("native", cls.capture)

    @classmethod
    def tearDownClass(cls):
        for h in cls.hosts.values():
            h.stop()
        cls.xvfb.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    @classmethod
    def record(cls, name, prefix=()):
        """Captures vkcube's frames into NAME in the scratch folder."""
        capture = os.path.join(cls.work, name)
        rc, out = run(list(prefix) + ["vkcube", "--c", str(FRAMES)],
                      dict(cls.env, VK_INSTANCE_LAYERS=CAPTURE_LAYER, GFXRECON_CAPTURE_FILE=capture,
                           GFXRECON_CAPTURE_FILE_TIMESTAMP="false"))
        assert rc == 0 and os.path.exists(capture), out[-3000:]
        return capture

    @classmethod
    def replay(cls, name, capture, prefix=()):
        """Replays `capture`, keeping every frame's screenshot; the
        screenshots in frame order and what the replay printed."""
        folder = os.path.join(cls.work, name)
        os.makedirs(folder)
        rc, out = run(list(prefix) + ["gfxrecon-replay", "--screenshot-all", "--screenshot-dir", folder, capture],
                      cls.env)
        assert rc == 0, out[-3000:]
        shots = sorted(os.listdir(folder), key=lambda f: int("".join(c for c in f if c.isdigit()) or 0))
        return [os.path.join(folder, f) for f in shots], out

    def test_the_capture_replays_natively(self):
        shots, out = self.native
        self.assertEqual(len(shots), FRAMES, out[-3000:])
        # The cube turns: equal frames below are the frames, not one picture.
        self.assertGreater(differing_share(shots[0], shots[-1]), 0.05)

    def test_the_replay_through_conduit_shows_the_native_frames(self):
        for transport, host in self.hosts.items():
            with self.subTest(transport=transport):
                before = host.stats()["total"]
                shots, out = self.replay(transport, self.capture, [CONDUIT, "run", "--host", host.address, "--"])
                for _ in range(200):
                    stats = host.stats()
                    if stats["sessions_live"] == 0:
                        break
                    time.sleep(0.05)
                self.assertGreaterEqual(stats["total"]["frames"] - before["frames"], FRAMES,
                                        "the replay did not go through Conduit")
                self.assertEqual(stats["total"]["contexts_lost"], before["contexts_lost"])
                self.assert_same_frames(shots, out)

    def test_a_capture_through_conduit_replays_natively(self):
        # `conduit run`'s private host: the program's capture layer stays in the program.
        capture = self.record("through.gfxr", [CONDUIT, "run", "--"])
        self.assert_same_frames(*self.replay("through", capture))

    def assert_same_frames(self, shots, out):
        native, _ = self.native
        self.assertEqual(len(shots), len(native), out[-3000:])
        for frame, (a, b) in enumerate(zip(native, shots), 1):
            share = differing_share(a, b)
            self.assertLessEqual(share, MAX_DIFFERENT_PIXELS, f"frame {frame}: {share:.2%} of pixels differ")


if __name__ == "__main__":
    CONDUIT = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
