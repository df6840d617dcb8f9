#!/usr/bin/python3
"""A selection of piglit tests run natively and through Conduit over a unix
socket and over shared-memory rings: any test that passes natively and not
through Conduit fails the suite.

usage: piglit_e2e.py CONDUIT_EXE SELECTION_FILE

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


def compare(conduit, tests, display, hosts):
    modes = {"native": ()}
    for name, host in hosts.items():
        modes[name] = (conduit, "run", "--host", host.address, "--")

    def one(test):
        platform, command = test
        results = {}
        for mode, prefix in modes.items():
            results[mode] = run_test(command, platform, display, prefix)
            if mode != "native" and results["native"] == "pass" and results[mode] != "pass":
                results[mode] = run_test(command, platform, display, prefix)  # once more
        return " ".join(command).replace(PIGLIT + "/", ""), results

    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(one, tests))


def main():
    conduit, selection = sys.argv[1], sys.argv[2]
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
        rows = compare(conduit, tests, xvfb.display, hosts)
        counts = {mode: {} for mode in ["native"] + list(hosts)}
        differences = []
        for name, results in rows:
            for mode, result in results.items():
                counts[mode][result] = counts[mode].get(result, 0) + 1
            lost = [m for m in hosts if results["native"] == "pass" and results[m] != "pass"]
            if lost:
                differences.append(f"  {name}: native pass, " +
                                   ", ".join(f"{m} {results[m]}" for m in lost))
        print(f"{len(tests)} piglit tests in {time.time() - started:.0f} s")
        for mode, c in counts.items():
            print(f"  {mode:7} " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
        failed = bool(differences)
        if differences:
            print("passing natively, not through Conduit:\n" + "\n".join(differences))
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
