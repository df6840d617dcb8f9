"""A `conduit host` listening on one transport in a scratch folder, with
its log and its counters, for the suites that compare transports."""
import json
import os
import subprocess
import time

# What selects Conduit for a guest program: never the host's own drivers.
GUEST_VARIABLES = ("__EGL_VENDOR_LIBRARY_FILENAMES", "__GLX_VENDOR_LIBRARY_NAME", "VK_DRIVER_FILES",
                   "VK_ICD_FILENAMES", "CONDUIT_HOST")


class Host:
    """`conduit host --listen SCHEME:WORKDIR/NAME.sock`, logging to NAME.log."""

    def __init__(self, conduit, scheme, workdir, name=None, extra_env=None):
        name = name or scheme.rstrip(":")
        sock = os.path.join(workdir, name + ".sock")
        self.conduit = conduit
        self.address = scheme + sock
        self.admin = sock + ".admin"
        self.log_path = os.path.join(workdir, name + ".log")
        env = {k: v for k, v in os.environ.items() if k not in GUEST_VARIABLES}
        env.update(extra_env or {})
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen([conduit, "host", "--listen", self.address], stdout=log,
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
