#!/usr/bin/python3
"""apitrace traces of real programs, recorded here natively, replay through
Conduit with the native frames: glxgears and a mix of glmark2's scenes
(desktop GL, glretrace), es2gears and the same mix of glmark2-es2's
(OpenGL ES, eglretrace), two of xscreensaver's OpenGL hacks (desktop GL
on EGL, eglretrace) and neverball's title screen (SDL 2, legacy GL with
client arrays, glretrace), over a unix socket, over shared memory and through
`conduit run`'s private host. Every frame the replayer snapshots is compared
with the native replay's, and the GL state the replayer dumps with the
native one's.

usage: trace_e2e.py CONDUIT_EXE [unittest args]
"""
import base64
import json
import re
import os
import signal
import subprocess
import sys
import time
import unittest

from host_support import HostedSuite, run_program
from x11_support import MAX_DIFFERENT_PIXELS, differing_share

CONDUIT = None
FRAMES = 40
RECORD_SECONDS = 2.0
# A frame counts as drawn when this share of its pixels is not black.
MIN_LIT_SHARE = 0.02
# What Conduit answers differently by design: the extensions whose commands
# it does not carry are hidden (`conduit info` lists them).
EXPECTED_STATE_DIFFERENCES = {"GL_EXTENSIONS", "GL_NUM_EXTENSIONS"}

# glmark2's scenes, a tenth of a second each: textures, lighting, bump
# maps, 2D filters, blending, render to texture and many small draws.
GLMARK2_SCENES = [a for scene in ("build", "texture", "shading:shading=phong", "bump:bump-render=normals",
                                  "effect2d", "pulsar", "refract", "jellyfish")
                  for a in ("-b", scene + ":duration=0.1")]
GLMARK2_SCENE_COUNT = len(GLMARK2_SCENES) // 2


class Trace:
    """A program to trace: apitrace's --api, the replayer, frames left out
    of the comparison and how often to snapshot. A program that ends by
    itself is traced whole and snapshot every `interval` frames; the
    gears run until stopped and keep their first FRAMES frames.

    The replayers make their window at a size of their own and resize it
    to the trace's after making it current; the gears' first frame is drawn
    before the resize reaches the driver, natively too, and reading it back
    reads pixels no frame wrote (natively whatever memory held)."""

    def __init__(self, argv, api, replayer, skipped, interval=None, seconds=RECORD_SECONDS, home=None):
        self.argv, self.api, self.replayer, self.skipped, self.interval = argv, api, replayer, skipped, interval
        self.seconds = seconds
        self.home = home or {}  # files of a HOME of its own while traced: a game's settings

    def env(self, base, folder):
        """The environment to trace in: `base`, with HOME a fresh `folder`
        holding the program's settings, when it has any, and no sound."""
        if not self.home:
            return base
        for path, text in self.home.items():
            os.makedirs(os.path.dirname(os.path.join(folder, path)), exist_ok=True)
            with open(os.path.join(folder, path), "w") as f:
                f.write(text)
        return {**base, "HOME": folder, "SDL_AUDIODRIVER": "dummy"}


TRACES = {
    "glxgears": Trace(["glxgears"], "gl", "glretrace", 1),
    "es2gears": Trace(["es2gears_x11"], "egl", "eglretrace", 1),
    "glmark2": Trace(["glmark2", "-s", "300x300", *GLMARK2_SCENES], "gl", "glretrace", 0, interval=10),
    "glmark2-es2": Trace(["glmark2-es2", "-s", "300x300", *GLMARK2_SCENES], "egl", "eglretrace", 0, interval=10),
}
# xscreensaver's OpenGL hacks (Debian's xscreensaver-gl): legacy GL on EGL,
# with lighting, textured text, blending and many small draws. A frame each
# 10 ms at most; traced for 4 s, so that 40 frames come on a busy machine.
# Their first frame is drawn before anything is set up: black, natively too.
# Neverball (Debian's neverball, SDL 2 and legacy GL with client arrays):
# its title screen plays a recorded game, textured, lit and blended, under
# the menu. Traced for 12 s, in which a busy machine draws 40 frames.
TRACES["neverball"] = Trace(["/usr/games/neverball"], "gl", "glretrace", 1, seconds=12.0,
                            home={".neverball/neverballrc": "width 320\nheight 240\nfullscreen 0\naudio 0\n"})
XSCREENSAVER = "/usr/libexec/xscreensaver/"
for hack in ("molecule", "moebiusgears"):
    TRACES["xscreensaver-" + hack] = Trace([XSCREENSAVER + hack, "-geometry", "320x240", "-delay", "10000"], "egl",
                                           "eglretrace", 1, seconds=4.0)


def lit_share(png):
    """Share of the picture's pixels that are not black."""
    out = subprocess.run(["convert", png, "-colorspace", "Gray", "-threshold", "2%", "-format", "%[fx:mean]",
                          "info:"], capture_output=True, text=True, check=True).stdout
    return float(out)


def end_group(proc):
    """Stops a traced program and everything it started: SIGTERM flushes the
    trace; what is left a few seconds later (xscreensaver's hacks outlived
    it) gets SIGKILL."""
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(30)
    for _ in range(50):
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


class Suite(HostedSuite):

    TRANSPORTS = ("unix", "shm")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.traces = {name: cls.record(name, trace) for name, trace in TRACES.items()}
        cls.native = {name: cls.replay(name, "native", []) for name in TRACES}

    @classmethod
    def record(cls, name, trace):
        """Traces the program natively: whole when it ends by itself, else
        for a while, keeping its first FRAMES frames."""
        full = os.path.join(cls.work, name + "-full.trace")
        env = trace.env(cls.env, os.path.join(cls.work, name + "-home"))
        proc = subprocess.Popen(["apitrace", "trace", "--api", trace.api, "-o", full, *trace.argv], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        if trace.interval:
            assert proc.wait(120) == 0, f"{name} failed while traced"
            return full
        cls.wait_for_frames(proc, full, trace.seconds)
        end_group(proc)
        trace = os.path.join(cls.work, name + ".trace")
        rc, out = run_program(["apitrace", "trim", f"--frames=0-{FRAMES - 1}", "-o", trace, full], cls.env)
        assert rc == 0 and os.path.exists(trace), out[-3000:]
        return trace

    @classmethod
    def wait_for_frames(cls, proc, full, seconds):
        """Lets a traced program run `seconds`, then longer while its trace
        holds fewer than FRAMES frames: on a loaded machine a hack took
        more than 4 s to draw its first frame."""
        deadline = time.monotonic() + 60
        time.sleep(seconds)
        while time.monotonic() < deadline and proc.poll() is None and cls.frames_in(full) < FRAMES:
            time.sleep(1)

    @classmethod
    def frames_in(cls, trace):
        """Frames a trace being written holds so far: its swaps."""
        p = subprocess.run(["apitrace", "dump", "--grep=SwapBuffers", trace], env=cls.env, capture_output=True,
                           text=True)
        return len(p.stdout.splitlines())

    @classmethod
    def replay(cls, name, where, prefix):
        """Replays trace `name` with a snapshot of every frame; the snapshots
        in frame order and what the replayer printed."""
        folder = os.path.join(cls.work, f"{name}-{where}")
        os.makedirs(folder)
        trace = TRACES[name]
        every = [f"--snapshot-interval={trace.interval}"] if trace.interval else []
        # -b: no glGetError after every call, which through Conduit is a
        # round trip each (neverball: 8,000 a frame, 45 s against 7 s).
        rc, out = run_program(prefix + [trace.replayer, "-b", f"--snapshot-prefix={folder}/", "--snapshot=frame", *every,
                                        cls.traces[name]], cls.env)
        replayer = trace.replayer
        assert rc == 0, f"{replayer} {where}:\n{out[-3000:]}"
        return [os.path.join(folder, f) for f in sorted(os.listdir(folder))], out

    @classmethod
    def state_at_last_swap(cls, name, prefix, extra=()):
        """The GL state glretrace dumps at the trace's last swap."""
        rc, out = run_program(["apitrace", "dump", "--grep=glXSwapBuffers", cls.traces[name]], cls.env)
        call = out.strip().splitlines()[-1].split()[0]
        p = subprocess.run(prefix + ["glretrace", *extra, "-D", call, cls.traces[name]], env=cls.env,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr[-3000:]
        return json.loads(p.stdout, strict=False)

    def routes(self):
        """Through Conduit: (name, command prefix, host whose counters tell)."""
        for transport, host in self.hosts.items():
            yield transport, [CONDUIT, "run", "--host", host.address, "--"], host
        yield "private host", [CONDUIT, "run", "--"], None

    def test_native_replays_draw_moving_frames(self):
        for name, (shots, out) in self.native.items():
            with self.subTest(trace=name):
                trace = TRACES[name]
                if trace.interval:
                    # A busy machine draws fewer frames in a scene's tenth of a
                    # second; the replay still draws and snapshots all of them.
                    frames = int(re.search(r"Rendered (\d+) frames", out).group(1))
                    self.assertGreaterEqual(frames, 2 * GLMARK2_SCENE_COUNT, out[-3000:])
                    self.assertEqual(len(shots), -(-frames // trace.interval), out[-3000:])  # the first, then each interval-th
                else:
                    # Traced for a while: a busy machine may draw fewer.
                    self.assertIn(len(shots), range(FRAMES // 2, FRAMES + 1), out[-3000:])
                skipped = trace.skipped
                self.assertGreater(lit_share(shots[skipped]), MIN_LIT_SHARE)
                # The pictures move: equal frames below are the frames, not one picture.
                self.assertGreater(differing_share(shots[skipped], shots[-1]), 0.01)

    def test_replays_through_conduit_show_the_native_frames(self):
        for name in TRACES:
            for where, prefix, host in self.routes():
                with self.subTest(trace=name, through=where):
                    before = host.stats()["total"]["frames"] if host else 0
                    shots, out = self.replay(name, where.replace(" ", "-"), prefix)
                    self.assertNotIn("conduit: ", out)
                    if host:
                        # At least a frame a native snapshot (a snapshot each frame, or fewer).
                        self.assertGreaterEqual(self.frames_when_done(host) - before, len(self.native[name][0]),
                                                "the replay did not go through Conduit")
                    self.assert_same_frames(name, shots, out)

    @staticmethod
    def frames_when_done(host):
        """The host's frame count once the replay's session ended."""
        for _ in range(200):
            stats = host.stats()
            if stats["sessions_live"] == 0:
                break
            time.sleep(0.05)
        return stats["total"]["frames"]

    def assert_same_frames(self, name, shots, out):
        native, _ = self.native[name]
        self.assertEqual(len(shots), len(native), out[-3000:])
        for frame in range(TRACES[name].skipped, len(native)):
            share = differing_share(native[frame], shots[frame])
            self.assertLessEqual(share, MAX_DIFFERENT_PIXELS, f"{name} frame {frame + 1}: {share:.2%} of pixels differ")
            if lit_share(native[frame]) > MIN_LIT_SHARE:  # some of glmark2's scenes start dark
                self.assertGreater(lit_share(shots[frame]), MIN_LIT_SHARE, f"{name} frame {frame + 1} is blank")

    def test_replayed_state_matches_native(self):
        """GL_DOUBLEBUFFER, the draw and read buffers after the replayer's
        resize, every other parameter and the framebuffer's images, with a
        double-buffered and a single-buffered visual."""
        for visual, extra, double in (("double", (), "GL_TRUE"), ("single", ("--sb",), "GL_FALSE")):
            native = self.state_at_last_swap("glxgears", [], extra)
            self.assertEqual(native["parameters"]["GL_DOUBLEBUFFER"], double)
            for where, prefix, _ in self.routes():
                with self.subTest(visual=visual, through=where):
                    ours = self.state_at_last_swap("glxgears", prefix, extra)
                    self.assertEqual(ours["parameters"]["GL_DOUBLEBUFFER"], double)
                    differ = {k for k in native["parameters"].keys() | ours["parameters"].keys()
                              if native["parameters"].get(k) != ours["parameters"].get(k)}
                    self.assertEqual(differ - EXPECTED_STATE_DIFFERENCES, set())
                    self.assert_same_framebuffer(native["framebuffer"], ours["framebuffer"], f"{visual}-{where}")

    def assert_same_framebuffer(self, native, ours, name):
        """The dumped buffers: colour within the screenshots' tolerance,
        depth and stencil exactly."""
        self.assertEqual(sorted(ours), sorted(native))
        for buffer, image in native.items():
            mine = ours[buffer]
            self.assertEqual({k: v for k, v in mine.items() if k != "__data__"},
                             {k: v for k, v in image.items() if k != "__data__"}, buffer)
            if image["__format__"] in ("GL_DEPTH_COMPONENT", "GL_STENCIL_INDEX"):
                self.assertTrue(mine["__data__"] == image["__data__"], f"{buffer} differs from native")
                continue
            pngs = []
            for who, data in (("native", image["__data__"]), ("conduit", mine["__data__"])):
                pngs.append(os.path.join(self.work, f"state-{name}-{buffer}-{who}.png".replace(" ", "-")))
                with open(pngs[-1], "wb") as f:
                    f.write(base64.b64decode(data))
            share = differing_share(*pngs)
            self.assertLessEqual(share, MAX_DIFFERENT_PIXELS, f"{buffer}: {share:.2%} of pixels differ")
            self.assertGreater(lit_share(pngs[1]), MIN_LIT_SHARE, f"{buffer} is blank")


if __name__ == "__main__":
    CONDUIT = HostedSuite.CONDUIT = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
