#!/usr/bin/python3
"""X connections through Conduit: what a program costs the X server, and
many programs at once through one host.

usage: xconn_e2e.py CONDUIT_EXE WINDOW_CHURN_EXE [unittest args]

Xvfb serves 256 clients by default. Through Conduit a program has its own
connection and one more through which frames are drawn; a connection per
window or surface would let a program that cycles through windows (a test
runner, a trace replayer) fill the server and get other programs refused.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from host_support import GUEST_VARIABLES, Host  # noqa: E402
from x11_support import Xvfb  # noqa: E402

CONDUIT = None
CHURN = None
WINDOWS = 150  # per churning program: four of them exceed the server's 256 clients
REFUSALS = ("XOpenDisplay", "cannot open display", "Can't open display", "Maximum number of clients")


def x_clients(display):
    """Connections the X server of `display` has open now."""
    socket = f"/tmp/.X11-unix/X{display.lstrip(':')} "
    out = subprocess.run(["ss", "-x", "state", "established"], capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if socket in line)


class PeakClients:
    """Samples the X server's client count until stopped; `peak` is the most seen."""

    def __init__(self, display):
        self.display, self.peak, self._done = display, 0, threading.Event()
        self._thread = threading.Thread(target=self._watch)
        self._thread.start()

    def _watch(self):
        while not self._done.is_set():
            self.peak = max(self.peak, x_clients(self.display))
            time.sleep(0.02)

    def stop(self):
        self._done.set()
        self._thread.join()
        return self.peak


class XConnections(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="conduit-xconn-")
        cls.xvfb = Xvfb()
        cls.hosts = {"unix": Host(CONDUIT, "unix:", cls.work), "shm": Host(CONDUIT, "shm:", cls.work)}

    @classmethod
    def tearDownClass(cls):
        for host in cls.hosts.values():
            host.stop()
        cls.xvfb.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def env(self):
        env = {k: v for k, v in os.environ.items() if k not in GUEST_VARIABLES}
        env["DISPLAY"] = self.xvfb.display
        return env

    def command(self, argv, host):
        return ([CONDUIT, "run", "--host", self.hosts[host].address, "--"] if host else []) + argv

    def peak_of(self, argv, host):
        """A program's exit status, output and the most X clients seen while it ran."""
        deadline = time.time() + 10  # the server notices closed connections in its own time
        while x_clients(self.xvfb.display) and time.time() < deadline:
            time.sleep(0.1)
        self.assertEqual(x_clients(self.xvfb.display), 0, "the X server has clients left from before")
        watch = PeakClients(self.xvfb.display)
        p = subprocess.run(self.command(argv, host), env=self.env(), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=300)
        return p.returncode, p.stdout, watch.stop()

    def test_cycling_windows_costs_one_client_more_than_natively(self):
        for api in ("glx", "egl"):
            argv = [CHURN, api, str(WINDOWS)]
            rc, out, native = self.peak_of(argv, None)
            self.assertEqual(rc, 0, f"natively: {out}")
            for host in self.hosts:
                with self.subTest(api=api, host=host):
                    rc, out, ours = self.peak_of(argv, host)
                    print(f"{api} {WINDOWS} windows: {native} X clients natively, {ours} through {host}",
                          file=sys.stderr)
                    self.assertEqual(rc, 0, out)
                    self.assertNotIn("conduit: ", out)
                    self.assertLessEqual(ours, native + 1)

    def sixteen_programs(self):
        """Eight windowed glmark2 runs (GLX and EGL), four off-screen, four churning windows."""
        glmark2 = ["-s", "160x120", "-b", "build:duration=2", "-b", "texture:duration=2"]
        programs = [["glmark2", *glmark2], ["glmark2-es2", *glmark2]] * 4
        programs += [["glmark2", "--off-screen", "-b", "shading:duration=2"],
                     ["glmark2-es2", "--off-screen", "-b", "shading:duration=2"]] * 2
        programs += [[CHURN, "glx", str(WINDOWS)], [CHURN, "egl", str(WINDOWS)]] * 2
        return programs

    def test_sixteen_programs_at_once_through_one_host(self):
        for host in self.hosts:
            with self.subTest(host=host):
                started = self.hosts[host].stats()["renderers"]["started"]
                watch = PeakClients(self.xvfb.display)
                procs = [subprocess.Popen(self.command(argv, host), env=self.env(), stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, text=True)
                         for argv in self.sixteen_programs()]
                results = [(p.args, p.wait(300), p.stdout.read()) for p in procs]
                for p in procs:
                    p.stdout.close()
                peak = watch.stop()
                print(f"16 programs through {host}: at most {peak} X clients", file=sys.stderr)
                for argv, rc, out in results:
                    refused = [r for r in REFUSALS if r in out]
                    why = f"{argv}: {out}\nthe host's log:\n{self.hosts[host].read_log()[-4000:]}"
                    self.assertEqual(refused, [], why)
                    self.assertEqual(rc, 0, why)
                self.assertLessEqual(peak, 2 * len(procs))
                self.assertGreaterEqual(self.hosts[host].stats()["renderers"]["started"] - started, len(procs))
                self.assertTrue(self.hosts[host].alive())


if __name__ == "__main__":
    CONDUIT, CHURN = sys.argv[1], sys.argv[2]
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
