#!/usr/bin/python3
"""A selection of piglit tests run natively and through Conduit over a unix
socket and over shared-memory rings: any test that passes natively and not
through Conduit fails the suite.

usage: piglit_e2e.py CONDUIT_EXE SELECTION_FILE [--zink]

With --zink, GL is Mesa's zink in the program, on Vulkan: natively on the
machine's lavapipe, through Conduit on Conduit's Vulkan ICD (the GL calls
stay in the program, only Vulkan travels); then any test whose result
differs fails the suite.

The selection (tests/e2e/piglit-selection.txt) holds one test a line:
its platform (glx or x11_egl), then its command with `$PIGLIT/` standing for
piglit's installed folder. A mismatch is run once more before it counts, so
that a test starved of CPU time on a busy machine is not taken for a
difference.
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from host_support import Host  # noqa: E402
from x11_support import Xvfb  # noqa: E402

PIGLIT = "/usr/lib/x86_64-linux-gnu/piglit"
RESULT = re.compile(r'^PIGLIT: \{"result": "(\w+)" \}', re.M)
TIMEOUT_S = 60
WORKERS = 2
# zink in Mesa's software loader (Xvfb offers no DRI3), on whichever Vulkan
# driver the loader is given (`conduit run` selects Conduit's GLX: Mesa's here).
ZINK = ["env", "__GLX_VENDOR_LIBRARY_NAME=mesa", "LIBGL_ALWAYS_SOFTWARE=1", "GALLIUM_DRIVER=zink"]


def read_selection(path):
    tests = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                platform, command = line.split(None, 1)
                tests.append((platform, command.replace("$PIGLIT/", PIGLIT + "/").split()))
    return tests


def run_test(command, platform, display, prefix=()):
    env = dict(os.environ, DISPLAY=display, PIGLIT_PLATFORM=platform)
    try:
        out = subprocess.run(list(prefix) + command, env=env, capture_output=True, text=True,
                             timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "timeout"
    found = RESULT.findall(out.stdout)
    if found:
        return found[-1]
    return "crash" if out.returncode < 0 else "no result"


def differs(native, through, zink):
    """Whether a result through Conduit counts against it: GL through
    Conduit must pass what passes natively; zink must do as it does natively."""
    return through != native if zink else native == "pass" and through != "pass"


def compare(conduit, tests, display, hosts, zink=False):
    modes = {"native": tuple(ZINK) if zink else ()}
    for name, host in hosts.items():
        modes[name] = (conduit, "run", "--host", host.address, "--") + modes["native"]

    def one(test):
        platform, command = test
        results = {}
        for mode, prefix in modes.items():
            results[mode] = run_test(command, platform, display, prefix)
            if mode != "native" and differs(results["native"], results[mode], zink):
                results[mode] = run_test(command, platform, display, prefix)  # once more
        return " ".join(command).replace(PIGLIT + "/", ""), results

    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(one, tests))


def main():
    conduit, selection = sys.argv[1], sys.argv[2]
    zink = "--zink" in sys.argv[3:]
    if not os.path.isdir(PIGLIT):
        print(f"piglit is not installed ({PIGLIT}): ./run.sh installs it")
        return 1
    tests = read_selection(selection)
    work = tempfile.mkdtemp(prefix="conduit-piglit-")
    xvfb = Xvfb()
    hosts = {}
    try:
        hosts = {"unix": Host(conduit, "unix:", work), "shm": Host(conduit, "shm:", work)}
        started = time.time()
        rows = compare(conduit, tests, xvfb.display, hosts, zink)
        counts = {mode: {} for mode in ["native"] + list(hosts)}
        differences = []
        for name, results in rows:
            for mode, result in results.items():
                counts[mode][result] = counts[mode].get(result, 0) + 1
            lost = [m for m in hosts if differs(results["native"], results[m], zink)]
            if lost:
                differences.append(f"  {name}: native {results['native']}, " +
                                   ", ".join(f"{m} {results[m]}" for m in lost))
        print(f"{len(tests)} piglit tests{' on zink' if zink else ''} in {time.time() - started:.0f} s")
        for mode, c in counts.items():
            print(f"  {mode:7} " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
        failed = bool(differences)
        if differences:
            print(("results unlike native's" if zink else "passing natively, not through Conduit") + ":\n" +
                  "\n".join(differences))
        for name, host in hosts.items():
            # Every test went through Conduit, not a fallback to the native
            # driver: each started at least one renderer on its host.
            started_renderers = host.stats()["renderers"]["started"]
            if not host.alive() or started_renderers < len(tests):
                print(f"{name} host: alive {host.alive()}, {started_renderers} renderers for "
                      f"{len(tests)} tests")
                failed = True
        if failed:
            for name, host in hosts.items():
                with open(host.log_path) as log:
                    print(f"--- {name} host log, last lines:\n" + "".join(log.readlines()[-15:]))
        return 1 if failed else 0
    finally:
        for host in hosts.values():
            host.stop()
        xvfb.stop()
        if not os.environ.get("CONDUIT_KEEP_LOGS"):
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
