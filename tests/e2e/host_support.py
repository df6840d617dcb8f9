"""A `conduit host` listening on one transport in a scratch folder, with
its log and its counters, and the set-up the end-to-end suites share: a
scratch folder, an Xvfb, an environment free of Conduit's guest variables
and a host on each transport a suite names."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

from x11_support import Xvfb

# What selects Conduit for a guest program: never the host's own drivers.
GUEST_VARIABLES = ("__EGL_VENDOR_LIBRARY_FILENAMES", "__GLX_VENDOR_LIBRARY_NAME", "VK_DRIVER_FILES",
                   "VK_ICD_FILENAMES", "CONDUIT_HOST")


class Host:
    """`conduit host --listen SCHEME:WORKDIR/NAME.sock [ARGS]`, logging to NAME.log."""

    def __init__(self, conduit, scheme, workdir, name=None, extra_env=None, args=()):
        name = name or scheme.rstrip(":")
        sock = os.path.join(workdir, name + ".sock")
        self.conduit = conduit
        self.address = scheme + sock
        self.admin = sock + ".admin"
        self.log_path = os.path.join(workdir, name + ".log")
        env = {k: v for k, v in os.environ.items() if k not in GUEST_VARIABLES}
        env.update(extra_env or {})
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen([conduit, "host", "--listen", self.address, *args], stdout=log,
                                         stderr=subprocess.STDOUT, env=env)
        for _ in range(400):
            if "listening on" in self.read_log():
                return
            if not self.alive():
                break
            time.sleep(0.05)
        raise RuntimeError(f"conduit host on {self.address} did not start:\n" + self.read_log())

    def read_log(self):
        with open(self.log_path) as f:
            return f.read()

    def stats(self):
        """`conduit info --stats`: totals, sessions, renderers."""
        out = subprocess.run([self.conduit, "info", "--stats", "--admin", self.admin], capture_output=True,
                             text=True, check=True, timeout=30)
        return json.loads(out.stdout)

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        if self.alive():
            self.proc.terminate()
            self.proc.wait(10)


def run_program(cmd, env, timeout=300):
    """A program's exit status and its output, stdout and stderr together."""
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    return p.returncode, p.stdout


def guest_free_env(display):
    """This environment on `display`, without what would select Conduit
    for a program: programs run natively unless `conduit run` starts them."""
    env = {k: v for k, v in os.environ.items() if k not in GUEST_VARIABLES}
    env["DISPLAY"] = display
    return env


class HostedSuite(unittest.TestCase):
    """A suite with its scratch folder (`work`, kept with CONDUIT_KEEP_LOGS
    set), its own Xvfb, `env` (guest_free_env on it) and a `conduit host`
    on each of TRANSPORTS (`hosts`, by transport). Whatever was started is
    stopped even when a later start fails."""

    CONDUIT = None  # the conduit executable: each script sets it
    TRANSPORTS = ()  # e.g. ("unix", "shm")

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="conduit-" + cls.__name__.lower() + "-")
        if not os.environ.get("CONDUIT_KEEP_LOGS"):
            cls.addClassCleanup(shutil.rmtree, cls.work, ignore_errors=True)
        cls.xvfb = Xvfb()
        cls.addClassCleanup(cls.xvfb.stop)
        cls.env = guest_free_env(cls.xvfb.display)
        cls.hosts = {t: cls.start_host(t) for t in cls.TRANSPORTS}

    @classmethod
    def start_host(cls, transport, name=None, args=(), extra_env=None, host_class=None):
        """One more host in the suite's folder, stopped with the suite."""
        host = (host_class or Host)(HostedSuite.CONDUIT, transport + ":", cls.work, name, extra_env, args)
        cls.addClassCleanup(host.stop)
        return host
