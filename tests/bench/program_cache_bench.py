#!/usr/bin/python3
"""Start-up with a cold and a warm program cache: glmark2-es2's shader-heavy
scenes (shading, bump, refract) through one `conduit host`, each scene
rendering for only a moment, so that a run's time is mostly its programs
being compiled (cold: `conduit cache clear` first) or loaded (warm). Prints
each run's wall time, the host's compile and hit counters, and the medians.
With VKBENCH (conduit-vkbench's path) set, its draws and compute scenes
instead, whose pipelines come from the Vulkan pipeline cache.

The host keeps the caller's __EGL_VENDOR_LIBRARY_FILENAMES (a GPU machine
names its driver's EGL there); `conduit run` gives the program Conduit's.

usage: [VKBENCH=PATH] program_cache_bench.py CONDUIT_EXE [RUNS]   (needs DISPLAY)
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

GL_PROGRAM = ["glmark2-es2", "-b", "shading:duration=0.1", "-b", "bump:duration=0.1", "-b", "refract:duration=0.1"]
GL_COUNTERS = ("program_compiles", "program_cache_hits", "shader_compiles")
VK_COUNTERS = ("vk_pipeline_cache_hits", "vk_pipeline_cache_misses")


def vk_program(vkbench):
    return [vkbench, "--off-screen", "-b", "draws:duration=0.1", "-b", "compute:duration=0.1"]


def counters(conduit, admin, names):
    """The host's counters once no session is live: an ended session's are final."""
    for _ in range(100):
        out = subprocess.run([conduit, "info", "--stats", "--admin", admin], capture_output=True, text=True,
                             check=True)
        stats = json.loads(out.stdout)
        if stats["sessions_live"] == 0:
            break
        time.sleep(0.1)
    return {k: stats["total"].get(k, 0) for k in names}


def main():
    conduit = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    work = tempfile.mkdtemp(prefix="conduit-cache-bench-")
    cache = os.path.join(work, "cache")
    sock = os.path.join(work, "host.sock")
    admin = sock + ".admin"
    vkbench = os.environ.get("VKBENCH")
    program, names = (vk_program(vkbench), VK_COUNTERS) if vkbench else (GL_PROGRAM, GL_COUNTERS)
    env = {k: v for k, v in os.environ.items() if k != "CONDUIT_HOST"}
    log = open(os.path.join(work, "host.log"), "w")
    host = subprocess.Popen([conduit, "host", "--listen", "unix:" + sock, "--admin", admin, "--program-cache", cache],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        while not os.path.exists(admin):
            time.sleep(0.05)
        times = {"cold": [], "warm": []}
        for i in range(runs):
            for kind in ("cold", "warm"):
                if kind == "cold":
                    subprocess.run([conduit, "cache", "clear", "--program-cache", cache], check=True,
                                   capture_output=True)
                before = counters(conduit, admin, names)
                start = time.monotonic()
                subprocess.run([conduit, "run", "--host", "unix:" + sock, "--"] + program,
                               check=True, capture_output=True, env=dict(os.environ))
                took = time.monotonic() - start
                after = counters(conduit, admin, names)
                delta = {k: after[k] - before[k] for k in after}
                times[kind].append(took)
                print(f"run {i + 1} {kind}: {took:.2f} s  {delta}", flush=True)
        for kind, t in times.items():
            print(f"{kind}: median {statistics.median(t):.2f} s of {len(t)} runs")
    finally:
        host.terminate()
        host.wait(10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
