#!/usr/bin/python3
"""Unmodified programs through a `conduit host` on TCP (TLS keyed from a
token file), compared with the same programs run natively; and every way
of asking for a host that cannot be used fails clearly without running the
program or starting another host.

usage: tcp_e2e.py CONDUIT_EXE [unittest args]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from x11_support import (MAX_DIFFERENT_PIXELS, Xvfb, conduit_problems, differing_share, gear_pixels,
                         glmark2_native_and_conduit, screenshot)

CONDUIT = None
TOKEN = "e2e-" + os.urandom(16).hex()
GLMARK2_SCENES = ["-b", "build:use-vbo=true", "-b", "texture:texture-filter=linear"]


class TcpHost:
    """`conduit host --listen tcp:127.0.0.1:0 --token-file F`; the port it
    chose is read from its log."""

    def __init__(self, workdir):
        self.token_file = os.path.join(workdir, "token")
        fd = os.open(self.token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, (TOKEN + "\n").encode())
        os.close(fd)
        self.log_path = os.path.join(workdir, "host.log")
        self.log = open(self.log_path, "w")
        env = dict(os.environ)
        env.pop("__EGL_VENDOR_LIBRARY_FILENAMES", None)
        env.pop("CONDUIT_TOKEN", None)
        self.proc = subprocess.Popen([CONDUIT, "host", "--listen", "tcp:127.0.0.1:0",
                                      "--token-file", self.token_file],
                                     stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.address = None
        for _ in range(400):
            m = re.search(r"listening on (tcp:\S+)", self.read_log())
            if m:
                self.address = m.group(1)
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("conduit host did not start:\n" + self.read_log())

    def read_log(self):
        with open(self.log_path) as f:
            return f.read()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.log.close()


class Suite(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="conduit-tcp-e2e-")
        cls.xvfb = Xvfb()
        cls.host = TcpHost(cls.work)

    @classmethod
    def tearDownClass(cls):
        cls.host.stop()
        cls.xvfb.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def env(self, token_file=True):
        env = dict(os.environ)
        env["DISPLAY"] = self.xvfb.display
        for var in ("CONDUIT_HOST", "CONDUIT_TOKEN", "CONDUIT_TOKEN_FILE", "CONDUIT_INSECURE"):
            env.pop(var, None)
        if token_file:
            env["CONDUIT_TOKEN_FILE"] = self.host.token_file
        return env

    def command(self, argv, conduit, host=None):
        if not conduit:
            return argv
        return [CONDUIT, "run", "--host", host or self.host.address, "--"] + argv

    def run_program(self, argv, conduit, env=None, host=None, timeout=120):
        env = env or self.env()
        if conduit:
            env["CONDUIT_STATS"] = "1"
        return subprocess.run(self.command(argv, conduit, host), capture_output=True, text=True, env=env,
                              timeout=timeout)

    def assert_clean_conduit_run(self, run):
        lines = [l for l in run.stderr.splitlines() if l.startswith("conduit")]
        self.assertTrue(any(l.startswith("conduit: batches") for l in lines), run.stderr)
        self.assertEqual(conduit_problems(run.stderr), [], run.stderr)

    def screenshot(self, argv, title, conduit, name, settle=2.0, until=None):
        env = self.env()
        png, out = screenshot(self.xvfb.display, self.command(argv, conduit), env, title,
                              os.path.join(self.work, name), settle, until)
        self.assertIsNotNone(png, f"no window {title!r}:\n{out}")
        self.assertEqual(conduit_problems(out), [], f"Conduit reported a problem:\n{out}")
        return png

    def assert_refused(self, run, *phrases):
        """The run failed, said why, and the program never started."""
        self.assertNotEqual(run.returncode, 0, run.stdout + run.stderr)
        for phrase in phrases:
            self.assertIn(phrase, run.stderr)
        self.assertNotIn("EGL_VENDOR", run.stdout)
        self.assertIn("not starting", run.stderr)

    def test_glmark2_validate_matches_native_over_tls(self):
        native, ours, run = glmark2_native_and_conduit(self, ["glmark2-es2", "--validate"] + GLMARK2_SCENES)
        self.assert_clean_conduit_run(run)
        self.assertIn("Success", native.values())
        self.assertEqual(ours, native)

    def test_es2tri_frame_matches_native_over_tls(self):
        title = "OpenGL ES 2.x tri"
        native = self.screenshot(["es2tri"], title, conduit=False, name="es2tri-native")
        ours = self.screenshot(["es2tri"], title, conduit=True, name="es2tri-tcp", settle=1.0,
                               until=lambda png: differing_share(native, png) <= MAX_DIFFERENT_PIXELS)
        share = differing_share(native, ours)
        self.assertLessEqual(share, MAX_DIFFERENT_PIXELS, f"{share:.2%} of the pixels differ")

    def test_glxgears_draws_gears_over_tls(self):
        native = self.screenshot(["glxgears"], "glxgears", conduit=False, name="glxgears-native", settle=3.0)
        ours = self.screenshot(["glxgears"], "glxgears", conduit=True, name="glxgears-tcp", settle=3.0,
                               until=lambda png: min(gear_pixels(png).values()) > 500)
        for color, n in gear_pixels(native).items():
            self.assertGreater(n, 500, f"no {color} gear natively")
            self.assertGreater(gear_pixels(ours)[color], 500, f"no {color} gear in the frame over TCP")

    def test_wrong_token_is_refused(self):
        env = self.env(token_file=False)
        env["CONDUIT_TOKEN"] = "not-the-token"
        self.assert_refused(self.run_program(["es2_info"], conduit=True, env=env),
                            self.host.address, "token differs")

    def test_missing_token_is_refused(self):
        self.assert_refused(self.run_program(["es2_info"], conduit=True, env=self.env(token_file=False)),
                            "needs a token")

    def test_plaintext_client_is_refused(self):
        env = self.env()
        env["CONDUIT_INSECURE"] = "1"
        self.assert_refused(self.run_program(["es2_info"], conduit=True, env=env), "requires TLS")

    def test_malformed_host_fails_without_a_private_host(self):
        self.assert_refused(self.run_program(["es2_info"], conduit=True, host="bogus:x"), "bogus:x",
                            "scheme")

    def test_unreachable_host_fails_without_a_private_host(self):
        self.assert_refused(self.run_program(["es2_info"], conduit=True, host="tcp:127.0.0.1:1"),
                            "tcp:127.0.0.1:1", "refused")

    def test_unusable_conduit_host_variable_fails_too(self):
        env = self.env()
        env["CONDUIT_HOST"] = "bogus:x"
        run = subprocess.run([CONDUIT, "run", "--", "es2_info"], capture_output=True, text=True, env=env,
                             timeout=60)
        self.assert_refused(run, "CONDUIT_HOST=bogus:x")


if __name__ == "__main__":
    CONDUIT = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
