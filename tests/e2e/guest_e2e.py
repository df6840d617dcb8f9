#!/usr/bin/python3
"""End-to-end runs of unmodified GLES programs through Conduit under Xvfb,
compared with the same programs run natively (Mesa on the same machine).

usage: guest_e2e.py CONDUIT_EXE [unittest args]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

CONDUIT = None
# Per-pixel tolerance for screenshots: channel difference allowed, and the
# share of pixels that may exceed it (rasterization may differ on edges).
FUZZ_PERCENT = 3
MAX_DIFFERENT_PIXELS = 0.002


class Xvfb:
    def __init__(self):
        n = 120
        while os.path.exists(f"/tmp/.X11-unix/X{n}") or os.path.exists(f"/tmp/.X{n}-lock"):
            n += 1
        self.display = f":{n}"
        self.proc = subprocess.Popen(["Xvfb", self.display, "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if subprocess.run(["xdpyinfo", "-display", self.display], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0:
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("Xvfb did not start")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


class Host:
    """One `conduit host` for the suite, on a private socket."""

    def __init__(self, workdir):
        self.address = "unix:" + os.path.join(workdir, "host.sock")
        self.log = open(os.path.join(workdir, "host.log"), "w")
        env = dict(os.environ)
        env.pop("__EGL_VENDOR_LIBRARY_FILENAMES", None)
        self.proc = subprocess.Popen([CONDUIT, "host", "--listen", self.address], stdout=self.log,
                                     stderr=subprocess.STDOUT, env=env)
        sock = self.address[len("unix:"):]
        for _ in range(200):
            if os.path.exists(sock):
                return
            time.sleep(0.05)
        raise RuntimeError("conduit host did not start")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.log.close()


def window_id(display, title, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        tree = subprocess.run(["xwininfo", "-display", display, "-root", "-tree"], capture_output=True,
                              text=True).stdout
        for line in tree.splitlines():
            m = re.match(r'\s*(0x[0-9a-f]+) "(.*)":', line)
            if m and m.group(2) == title:
                return m.group(1)
        time.sleep(0.1)
    return None


class Suite(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="conduit-e2e-")
        cls.xvfb = Xvfb()
        cls.host = Host(cls.work)

    @classmethod
    def tearDownClass(cls):
        cls.host.stop()
        cls.xvfb.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def env(self):
        env = dict(os.environ)
        env["DISPLAY"] = self.xvfb.display
        return env

    def run_program(self, argv, conduit, timeout=120):
        cmd = ([CONDUIT, "run", "--host", self.host.address, "--"] if conduit else []) + argv
        env = self.env()
        if conduit:
            env["CONDUIT_STATS"] = "1"
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)

    def assert_clean_conduit_run(self, run):
        """The program went through Conduit (its statistics line is there)
        and Conduit reported no problem."""
        lines = [l for l in run.stderr.splitlines() if l.startswith("conduit")]
        self.assertTrue(any(l.startswith("conduit: batches") for l in lines), run.stderr)
        problems = [l for l in lines if not l.startswith("conduit: batches")]
        self.assertEqual(problems, [], run.stderr)

    def screenshot(self, argv, title, conduit, name, settle=2.0, until=None, limit=30.0):
        """Starts a windowed program, waits for its window to show frames,
        saves the window as PNG and stops the program. With `until`, keeps
        taking screenshots (frames arrive asynchronously, later on a busy
        machine) until until(png) holds or `limit` seconds passed."""
        cmd = ([CONDUIT, "run", "--host", self.host.address, "--"] if conduit else []) + argv
        env = self.env()
        if conduit:
            env["CONDUIT_STATS"] = "1"
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            wid = window_id(self.xvfb.display, title)
            self.assertIsNotNone(wid, f"no window {title!r}")
            xwd = os.path.join(self.work, name + ".xwd")
            png = os.path.join(self.work, name + ".png")
            start = time.time()
            time.sleep(settle)
            while True:
                subprocess.run(["xwd", "-display", self.xvfb.display, "-id", wid, "-silent", "-out", xwd],
                               check=True)
                subprocess.run(["convert", xwd, png], check=True)
                if until is None or until(png) or time.time() - start > limit:
                    return png
                time.sleep(0.5)
        finally:
            proc.terminate()
            out, _ = proc.communicate(timeout=20)
            problems = [l for l in (out or "").splitlines()
                        if l.startswith("conduit") and not l.startswith("conduit: batches")]
            self.assertEqual(problems, [], f"Conduit reported a problem:\n{out}")

    def differing_share(self, a, b):
        res = subprocess.run(["compare", "-metric", "AE", "-fuzz", f"{FUZZ_PERCENT}%", a, b, "null:"],
                             capture_output=True, text=True)
        try:
            different = float(res.stderr.split()[0])
        except (IndexError, ValueError):
            return 1.0  # different sizes or an unreadable image
        size = subprocess.run(["identify", "-format", "%w %h", a], capture_output=True, text=True).stdout.split()
        return different / (int(size[0]) * int(size[1]))

    def assert_images_match(self, a, b):
        share = self.differing_share(a, b)
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
                               until=lambda png: self.differing_share(native, png) <= MAX_DIFFERENT_PIXELS)
        self.assert_images_match(native, ours)

    def test_es2gears_runs_and_draws(self):
        png = self.screenshot(["es2gears_x11"], "es2gears", conduit=True, name="es2gears-conduit", settle=1.0,
                              until=lambda png: min(self.gear_pixels(png).values()) > 500)
        for color, n in self.gear_pixels(png).items():
            self.assertGreater(n, 500, f"no {color} gear in the es2gears frame")

    @staticmethod
    def gear_pixels(png):
        """Pixels of each gear colour: the gears are red, green and blue on black."""
        colors = subprocess.run(["convert", png, "-format", "%c", "histogram:info:-"], capture_output=True,
                                text=True).stdout
        counts = {"red": 0, "green": 0, "blue": 0}
        for line in colors.splitlines():
            m = re.search(r"(\d+):\s*\(\s*(\d+),\s*(\d+),\s*(\d+)", line)
            if not m:
                continue
            n, r, g, b = (int(x) for x in m.groups())
            if r > 100 and g < 60 and b < 60:
                counts["red"] += n
            if g > 100 and r < 60 and b < 60:
                counts["green"] += n
            if b > 100 and r < 60 and g < 60:
                counts["blue"] += n
        return counts

    def test_glmark2_validate_matches_native(self):
        def results(conduit):
            run = self.run_program(["glmark2-es2", "--validate"], conduit=conduit, timeout=600)
            found = {f"[{scene}] {opts}": outcome for scene, opts, outcome in
                     re.findall(r"^\[(.*?)\] (.*): Validation: (\w+)", run.stdout, re.M)}
            self.assertTrue(found, run.stdout + run.stderr)
            return found, run

        native, _ = results(False)
        ours, run = results(True)
        self.assert_clean_conduit_run(run)
        self.assertIn("Success", native.values())
        for scene, outcome in native.items():
            if outcome == "Success":
                self.assertEqual(ours.get(scene), "Success", f"{scene} validates natively but not through Conduit")


if __name__ == "__main__":
    CONDUIT = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
