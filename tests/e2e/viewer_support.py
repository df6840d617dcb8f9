"""What the viewer tests share: a `conduit host` with viewers on a unix
socket of its own, guest programs run through it, and finding a guest's
picture inside a viewer's."""
import os
import re
import subprocess
import threading
import time

import numpy

from x11_support import FUZZ_PERCENT


class ViewerHost:
    """`conduit host --listen unix:DIR/host.sock EXTRA...` on `display`."""

    def __init__(self, conduit, workdir, display, extra):
        self.conduit = conduit
        self.address = "unix:" + os.path.join(workdir, "host.sock")
        self.display = display
        self.log_path = os.path.join(workdir, "host.log")
        self.log = open(self.log_path, "w")
        env = dict(os.environ, DISPLAY=display)
        env.pop("__EGL_VENDOR_LIBRARY_FILENAMES", None)
        self.proc = subprocess.Popen([conduit, "host", "--listen", self.address] + extra,
                                     stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.wait_log(r"listening on unix:")

    def read_log(self):
        with open(self.log_path) as f:
            return f.read()

    def wait_log(self, pattern, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = re.search(pattern, self.read_log())
            if m:
                return m
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"conduit host never logged {pattern!r}:\n" + self.read_log())

    def guest(self, argv):
        """Runs `argv` through this host."""
        env = dict(os.environ, DISPLAY=self.display)
        for var in ("CONDUIT_HOST", "__EGL_VENDOR_LIBRARY_FILENAMES"):
            env.pop(var, None)
        return Program([self.conduit, "run", "--host", self.address, "--"] + argv, env)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(20)
        self.log.close()

    def errors(self):
        """Log lines that say something went wrong."""
        return [l for l in self.read_log().splitlines()
                if re.search(r"error|refused|abnormally|lost", l, re.I)]


class Program:
    """A running program whose output lines are collected as they come."""

    def __init__(self, argv, env):
        self.proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)
        self.lines = []
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(20)
        self.reader.join(5)


def wait_line(program, pattern, timeout=30, after=0):
    """Waits for an output line (from line `after` on) matching `pattern`;
    returns the match."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for line in program.lines[after:]:
            m = re.search(pattern, line)
            if m:
                return m
        if program.proc.poll() is not None and not program.reader.is_alive():
            break
        time.sleep(0.05)
    raise AssertionError(f"no line matching {pattern!r} in:\n" + "\n".join(program.lines))


def pixels(png):
    """An image as a height x width x 3 array of bytes."""
    size = subprocess.run(["identify", "-format", "%w %h", png], capture_output=True, text=True,
                          check=True).stdout.split()
    w, h = int(size[0]), int(size[1])
    raw = subprocess.run(["convert", png, "-depth", "8", "rgb:-"], capture_output=True, check=True).stdout
    return numpy.frombuffer(raw, dtype=numpy.uint8).reshape(h, w, 3)


def mismatch(a, b):
    """Share of pixels whose channels differ by more than FUZZ_PERCENT."""
    diff = numpy.abs(a.astype(numpy.int16) - b.astype(numpy.int16)).max(axis=2)
    return float((diff > 255 * FUZZ_PERCENT / 100).mean())


def find_picture(big, small, skip_top=0):
    """Where `small` (rows from `skip_top` on) lies in `big`: (x, y, share
    of differing pixels) of the best place, found from its middle pixel row."""
    part = small[skip_top:]
    h, w = part.shape[:2]
    row = part[h // 2]
    best = (0, 0, 1.0)
    for y in range(big.shape[0] - h + 1):
        line = big[y + h // 2]
        for x in range(big.shape[1] - w + 1):
            if not numpy.array_equal(line[x:x + 8], row[:8]):
                continue
            if mismatch(line[x:x + w][None], row[None]) > 0.05:
                continue
            share = mismatch(big[y:y + h, x:x + w], part)
            if share < best[2]:
                best = (x, y - skip_top, share)
    return best
