"""What the end-to-end tests share: a private Xvfb, finding a window by its
title, capturing it as PNG and comparing captures."""
import os
import re
import subprocess
import time

# Per-pixel tolerance for screenshots: channel difference allowed, and the
# share of pixels that may exceed it (rasterization may differ on edges).
FUZZ_PERCENT = 3
MAX_DIFFERENT_PIXELS = 0.002


class Xvfb:
    def __init__(self, size="1024x768x24"):
        # Xvfb picks a free display itself and names it once it is ready:
        # suites running side by side never end up on one server. Without
        # -noreset it resets whenever its last client leaves, and a program
        # starting right then cannot open the display.
        read_end, write_end = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-noreset", "-screen", "0",
                                      size, "-nolisten", "tcp"], pass_fds=(write_end,),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_end)
        with os.fdopen(read_end) as ready:
            number = ready.readline().strip()
        if not number.isdigit():
            self.stop()
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number}"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)



# CONDUIT_STATS's summary lines; any other line of ours reports a problem.
CONDUIT_STATS_LINE = re.compile(r"conduit: (batches|\d+ frames put in place)")


def conduit_problems(text):
    """Lines Conduit printed that are not its statistics."""
    return [l for l in text.splitlines() if l.startswith("conduit") and not CONDUIT_STATS_LINE.match(l)]

def window_id(display, title, timeout=20, alive=lambda: True):
    """The window named `title`; with None, the first top-level window with
    no name (programs such as glxdemo name none). None once `alive()` is
    false: the program that was to open it has ended."""
    deadline = time.time() + timeout
    while time.time() < deadline and alive():
        tree = subprocess.run(["xwininfo", "-display", display, "-root", "-tree"], capture_output=True,
                              text=True).stdout
        for line in tree.splitlines():
            m = re.match(r'\s+(0x[0-9a-f]+) (?:"(.*)"|\(has no name\)):', line)
            if m and m.group(2) == title:
                return m.group(1)
        time.sleep(0.1)
    return None


def capture(display, wid, base):
    """Saves window `wid` as BASE.png (through BASE.xwd) and returns the PNG."""
    subprocess.run(["xwd", "-display", display, "-id", wid, "-silent", "-out", base + ".xwd"], check=True)
    subprocess.run(["convert", base + ".xwd", base + ".png"], check=True)
    return base + ".png"


def screenshot(display, cmd, env, title, base, settle=2.0, until=None, limit=30.0):
    """Starts a windowed program, waits for its window to show frames, saves
    it as BASE.png and stops the program. With `until`, keeps capturing
    (frames arrive asynchronously, later on a busy machine) until until(png)
    holds or `limit` seconds passed. Returns the PNG (None without a window)
    and what the program printed."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    png = None
    try:
        wid = window_id(display, title)
        if wid is not None:
            start = time.time()
            time.sleep(settle)
            while True:
                png = capture(display, wid, base)
                if until is None or until(png) or time.time() - start > limit:
                    break
                time.sleep(0.5)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    return png, out or ""


def last_frame(keeper, cmd, env, path, timeout=120):
    """Runs `cmd` while `keeper` (last-frame, tests/e2e/last_frame.cpp) keeps
    what the next window to appear shows last; true when `cmd` succeeded and
    PATH holds that picture, and the program's output."""
    watcher = subprocess.Popen([keeper, path], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    try:
        if watcher.stdout.readline().strip() != "ready":
            return False, "last-frame did not start: " + watcher.stdout.read()
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=timeout)
        kept = watcher.wait(30) == 0
        return kept and proc.returncode == 0, proc.stdout
    finally:
        if watcher.poll() is None:
            watcher.kill()
            watcher.wait()
        watcher.stdout.close()


def differing_share(a, b):
    """Share of pixels of two images that differ by more than FUZZ_PERCENT
    (1.0 for images of different sizes or unreadable ones)."""
    res = subprocess.run(["compare", "-metric", "AE", "-fuzz", f"{FUZZ_PERCENT}%", a, b, "null:"],
                         capture_output=True, text=True)
    try:
        different = float(res.stderr.split()[0])
    except (IndexError, ValueError):
        return 1.0
    size = subprocess.run(["identify", "-format", "%w %h", a], capture_output=True, text=True).stdout.split()
    return different / (int(size[0]) * int(size[1]))


def gear_pixels(png):
    """Pixels of each gear colour: es2gears draws red, green and blue gears on black."""
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


def glmark2_outcomes(stdout):
    """'[scene] options' -> Success/Failure/Unknown from `glmark2 --validate` output."""
    return {f"[{scene}] {opts}": outcome for scene, opts, outcome in
            re.findall(r"^\[(.*?)\] (.*): Validation: (\w+)", stdout, re.M)}


def glmark2_native_and_conduit(test, argv):
    """`argv` (glmark2 --validate …) run by `test.run_program` natively and
    through Conduit: both runs' outcomes, each asserted non-empty, and
    Conduit's run."""
    def outcomes(conduit):
        run = test.run_program(argv, conduit=conduit, timeout=600)
        found = glmark2_outcomes(run.stdout)
        test.assertTrue(found, run.stdout + run.stderr)
        return found, run

    native, _ = outcomes(False)
    ours, run = outcomes(True)
    return native, ours, run
