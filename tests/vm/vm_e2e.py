#!/usr/bin/python3
"""A real virtual machine: unmodified GLES and Vulkan programs in a QEMU
guest render through Conduit over an ivshmem ring to a `conduit host` outside
the guest, and their frames come back into the guest's own X display.

usage: vm_e2e.py CONDUIT_EXE LAST_FRAME_EXE [unittest args]   on the host: boots guests
       vm_e2e.py --guest CONDUIT_EXE WORKDIR LAST_FRAME_EXE    inside a guest: runs the programs
       vm_e2e.py --gears CONDUIT_EXE WORKDIR LAST_FRAME_EXE    inside a guest: es2gears until killed
"""
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
from x11_support import (MAX_DIFFERENT_PIXELS, Xvfb, conduit_problems, differing_share,  # noqa: E402
                         gear_pixels, glmark2_outcomes, last_frame, screenshot)

VM_SCRIPT = os.path.join(HERE, "..", "..", "scripts", "conduit-vm.sh")
ES2TRI_TITLE = "OpenGL ES 2.x tri"
GLMARK2_SCENES = ["-b", "build", "-b", "texture"]
# The host's default --ring-silence: a killed guest's session ends after it.
RING_SILENCE_SECONDS = 10
# Longer than the old fixed window for a silent peer (at most 1 s), well
# within --ring-silence.
STALL_SECONDS = 4
CONDUIT = None
LAST_FRAME = None
# vkcube's cube turns a fixed angle a frame: its 30th frame is one picture.
VKCUBE = ["vkcube", "--c", "30"]


# ---- inside the guest ------------------------------------------------------

def guest_env(xvfb):
    env = dict(os.environ, DISPLAY=xvfb.display, CONDUIT_STATS="1")
    env.pop("__EGL_VENDOR_LIBRARY_FILENAMES", None)
    return env


def through_conduit(argv):
    return [CONDUIT, "run", "--host", "ivshmem:auto", "--"] + argv


def guest_programs(work):
    """es2_info, es2tri, es2gears and glmark2-es2 one after the other (a ring
    serves one guest program at a time); results into WORKDIR."""
    xvfb = Xvfb("640x480x24")
    env = guest_env(xvfb)
    out = {}
    try:
        info = subprocess.run(through_conduit(["es2_info"]), env=env, capture_output=True, text=True,
                              timeout=120)
        out["es2_info"] = info.stdout + info.stderr
        native = os.path.join(work, "es2tri-native.png")
        _, out["es2tri"] = screenshot(
            xvfb.display, through_conduit(["es2tri"]), env, ES2TRI_TITLE, os.path.join(work, "es2tri-guest"),
            settle=1.0, until=lambda png: differing_share(native, png) <= MAX_DIFFERENT_PIXELS, limit=60)
        _, out["es2gears"] = screenshot(
            xvfb.display, through_conduit(["es2gears_x11"]), env, "es2gears",
            os.path.join(work, "es2gears-guest"), settle=4.0,
            until=lambda png: min(gear_pixels(png).values()) > 500, limit=60)
        glmark = subprocess.run(through_conduit(["glmark2-es2", "--validate"] + GLMARK2_SCENES), env=env,
                                capture_output=True, text=True, timeout=300)
        out["glmark2"] = glmark.stdout + glmark.stderr
        _, out["vkcube"] = last_frame(LAST_FRAME, through_conduit(VKCUBE), env, os.path.join(work, "vkcube-guest.ppm"),
                                      timeout=300)
    finally:
        xvfb.stop()
        with open(os.path.join(work, "guest-results.json"), "w") as f:
            json.dump(out, f, indent=1)


def guest_gears(work):
    xvfb = Xvfb("640x480x24")
    subprocess.run(through_conduit(["es2gears_x11"]), env=guest_env(xvfb), timeout=600)


# ---- on the host -----------------------------------------------------------

class Host:
    """`conduit host` serving two ring files (one per guest), plus a unix
    socket for reading its counters."""

    def __init__(self, work):
        self.ring = f"/dev/shm/conduit-vm-test-{os.getpid()}"
        self.other_ring = self.ring + "-other"
        sock = os.path.join(work, "host.sock")
        self.unix = "unix:" + sock
        self.log_path = os.path.join(work, "host.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([CONDUIT, "host", "--listen", "shm:file=" + self.ring,
                                      "--listen", "shm:file=" + self.other_ring, "--listen", self.unix],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(200):
            if all(os.path.exists(p) for p in (self.ring, self.other_ring, sock)):
                return
            time.sleep(0.05)
        raise RuntimeError("conduit host did not start:\n" + self.log_text())

    def log_text(self):
        with open(self.log_path) as f:
            return f.read()

    def stats(self):
        run = subprocess.run([CONDUIT, "info", "--stats", "--host", self.unix], capture_output=True, text=True,
                             timeout=30)
        return json.loads(run.stdout) if run.returncode == 0 else None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(20)
        self.log.close()


class RingSessions:
    """Watches the host's counters in the background: the most frames seen
    in any live session whose channel is the ring file."""

    def __init__(self, host, ring):
        self.host = host
        self.ring = ring
        self.frames = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self):
        while not self._stop.wait(0.5):
            stats = self.host.stats() or {}
            for s in stats.get("sessions", []):
                if s["peer"] == f"shm:file={self.ring} (peer)":
                    self.frames = max(self.frames, s["counters"]["frames"])

    def stop(self):
        self._stop.set()
        self._thread.join()


class VirtualMachine(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        subprocess.run([VM_SCRIPT, "prepare"], check=True, stdout=subprocess.DEVNULL)
        cls.work = tempfile.mkdtemp(prefix="conduit-vm-")
        cls.host = Host(cls.work)
        cls.xvfb = Xvfb("640x480x24")
        cls.native_es2tri = cls.native_screenshot(["es2tri"], ES2TRI_TITLE, "es2tri-native")

    @classmethod
    def tearDownClass(cls):
        cls.xvfb.stop()
        cls.host.stop()
        for ring in (cls.host.ring, cls.host.other_ring):
            if os.path.exists(ring):
                os.unlink(ring)
        shutil.rmtree(cls.work, ignore_errors=True)

    @classmethod
    def native_screenshot(cls, argv, title, name):
        png, out = screenshot(cls.xvfb.display, argv, dict(os.environ, DISPLAY=cls.xvfb.display), title,
                              os.path.join(cls.work, name), settle=1.0)
        assert png, f"{argv[0]} showed no window natively:\n{out}"
        return png

    def boot(self, mode, **popen):
        """Starts a guest that sees the ring as an ivshmem device and runs
        this file in MODE inside it."""
        cmd = [VM_SCRIPT, "boot", "--ivshmem", self.host.ring, "--share", self.work, "--",
               sys.executable, os.path.abspath(__file__), mode, CONDUIT, self.work, LAST_FRAME]
        with open(os.path.join(self.work, f"console{mode}.log"), "w") as console:
            return subprocess.Popen(cmd, stdout=console, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    **popen)

    def console(self, mode):
        with open(os.path.join(self.work, f"console{mode}.log"), errors="replace") as f:
            return f.read()[-4000:]

    def rendering_sessions_ended(self):
        """Sessions on the ring that ended holding contexts (`conduit run`'s
        probe connection ends holding none)."""
        ended = re.compile(re.escape(f"(shm:file={self.host.ring} (peer)) ended: ") + r".*; freeing (\d+) contexts")
        return sum(int(m.group(1)) > 0 for m in ended.finditer(self.host.log_text()))

    def test_ring_file_is_owner_only(self):
        self.assertEqual(stat.S_IMODE(os.stat(self.host.ring).st_mode), 0o600)

    def test_programs_in_the_guest_render_through_the_ring(self):
        watch = RingSessions(self.host, self.host.ring)
        try:
            vm = self.boot("--guest")
            self.assertEqual(vm.wait(900), 0, self.console("--guest"))
        finally:
            watch.stop()
        with open(os.path.join(self.work, "guest-results.json")) as f:
            out = json.load(f)

        self.assertIn("EGL_VENDOR: Conduit", out["es2_info"])
        native_info = subprocess.run(["es2_info"], capture_output=True, text=True, timeout=60,
                                     env=dict(os.environ, DISPLAY=self.xvfb.display)).stdout
        renderer = re.search(r"GL_RENDERER: (.*)", native_info).group(1)
        self.assertIn(f"GL_RENDERER: {renderer}", out["es2_info"])
        for program in ("es2_info", "es2tri", "es2gears", "glmark2", "vkcube"):
            self.assertEqual(conduit_problems(out[program]), [], f"{program} in the guest:\n{out[program]}")

        guest_tri = os.path.join(self.work, "es2tri-guest.png")
        share = differing_share(self.native_es2tri, guest_tri)
        self.assertLessEqual(share, MAX_DIFFERENT_PIXELS, f"es2tri in the guest: {share:.2%} of pixels differ")
        for color, n in gear_pixels(os.path.join(self.work, "es2gears-guest.png")).items():
            self.assertGreater(n, 500, f"no {color} gear in the guest's es2gears window")

        native = subprocess.run(["glmark2-es2", "--validate"] + GLMARK2_SCENES, capture_output=True, text=True,
                                env=dict(os.environ, DISPLAY=self.xvfb.display), timeout=300)
        expected = glmark2_outcomes(native.stdout)
        self.assertEqual(len(expected), 2, native.stdout)
        self.assertEqual(glmark2_outcomes(out["glmark2"]), expected, out["glmark2"])

        native_cube = os.path.join(self.work, "vkcube-native.ppm")
        kept, native_out = last_frame(LAST_FRAME, VKCUBE, dict(os.environ, DISPLAY=self.xvfb.display), native_cube)
        self.assertTrue(kept, native_out)
        share = differing_share(native_cube, os.path.join(self.work, "vkcube-guest.ppm"))
        self.assertLessEqual(share, MAX_DIFFERENT_PIXELS, f"vkcube in the guest: {share:.2%} of pixels differ")

        # The frames arrived over the ring: the host counted them in sessions
        # whose channel is the ring file.
        self.assertGreater(watch.frames, 10, self.host.log_text())
        self.assertIn(f"(shm:file={self.host.ring} (peer)) ended", self.host.log_text())

    def test_killed_vm_leaves_the_host_serving(self):
        """A guest on one ring is stopped for a few seconds (as a loaded host
        may not run its virtual CPUs) and keeps its session, then is killed
        mid-frame while another program renders over a second ring: only the
        first is affected."""
        env = dict(os.environ, DISPLAY=self.xvfb.display)
        other_log = os.path.join(self.work, "other.log")
        with open(other_log, "w") as log:
            other = subprocess.Popen([CONDUIT, "run", "--host", "shm:file=" + self.host.other_ring, "--",
                                      "es2gears_x11"], env=env, stdout=log, stderr=subprocess.STDOUT)
        other_watch = RingSessions(self.host, self.host.other_ring)
        watch = RingSessions(self.host, self.host.ring)
        vm = self.boot("--gears", start_new_session=True)
        try:
            deadline = time.time() + 300
            while watch.frames < 30 and time.time() < deadline and vm.poll() is None:
                time.sleep(0.5)
            self.assertGreaterEqual(watch.frames, 30, self.console("--gears"))

            os.killpg(vm.pid, signal.SIGSTOP)  # no CPU time for the whole VM
            time.sleep(STALL_SECONDS)
            os.killpg(vm.pid, signal.SIGCONT)
            frames_after_stall = watch.frames
            deadline = time.time() + 120
            while watch.frames < frames_after_stall + 10 and time.time() < deadline and vm.poll() is None:
                time.sleep(0.5)
            self.assertGreaterEqual(watch.frames, frames_after_stall + 10,
                                    "the guest stopped rendering after a stall:\n" + self.console("--gears") +
                                    self.host.log_text())
            self.assertEqual(self.rendering_sessions_ended(), 0, self.host.log_text())
        finally:
            os.killpg(vm.pid, signal.SIGKILL)  # QEMU dies mid-frame
            vm.wait(30)
            watch.stop()

        deadline = time.time() + RING_SILENCE_SECONDS + 30
        while self.rendering_sessions_ended() == 0:
            self.assertLess(time.time(), deadline, self.host.log_text())
            time.sleep(0.2)
        # The line is logged as the session starts ending; its renderer then
        # frees the contexts and exits, which takes a while on a loaded host.
        deadline = time.time() + 60
        while True:
            stats = self.host.stats()
            self.assertIsNotNone(stats, "the host stopped answering")
            if f"shm:file={self.host.ring} (peer)" not in [s["peer"] for s in stats["sessions"]]:
                break
            self.assertLess(time.time(), deadline, "the killed VM's renderer did not end:\n" + self.host.log_text())
            time.sleep(0.5)

        # The other guest kept rendering throughout and after.
        frames_at_kill = other_watch.frames
        time.sleep(3)
        other_watch.stop()
        other.terminate()
        other.wait(20)
        with open(other_log) as log:
            self.assertGreater(other_watch.frames, frames_at_kill, "the other ring's program stopped rendering:\n" +
                               log.read()[-2000:] + self.host.log_text())

        # The same ring serves the next guest: here a program on the host
        # attaching to the ring file, checked against native rendering.
        png, out = screenshot(self.xvfb.display,
                              [CONDUIT, "run", "--host", "shm:file=" + self.host.ring, "--", "es2tri"], env,
                              ES2TRI_TITLE, os.path.join(self.work, "es2tri-after-kill"), settle=1.0,
                              until=lambda p: differing_share(self.native_es2tri, p) <= MAX_DIFFERENT_PIXELS)
        self.assertIsNotNone(png, out)
        self.assertLessEqual(differing_share(self.native_es2tri, png), MAX_DIFFERENT_PIXELS)
        self.assertIsNone(self.host.proc.poll())


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] in ("--guest", "--gears"):
        CONDUIT, LAST_FRAME = os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[4])
        (guest_programs if sys.argv[1] == "--guest" else guest_gears)(sys.argv[3])
        sys.exit(0)
    CONDUIT = os.path.abspath(sys.argv.pop(1))
    LAST_FRAME = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
