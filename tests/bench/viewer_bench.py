#!/usr/bin/python3
"""Remote viewer latency and cost: input_probe runs through `conduit host
--vnc` at each size; viewer-latency clients read its frame counter out of
the RFB updates. Prints a Markdown table:

- latency: from the probe handing frame N to eglSwapBuffers to a viewer
  holding the decoded update that shows N (both CLOCK_MONOTONIC on this
  machine), p50 and p95 over the frames the viewer saw;
- the host's CPU (its supervisor process, where composition and every
  viewer's encoding run) with 0, 1 and 2 viewers connected, and what the
  second viewer adds (composition runs only while someone watches);

for three pictures: "still", a flat window whose frame counter alone
changes (damage tracking sends a few blocks); "moving", bars sliding across
the whole window (every block changes with every frame, but in flat colours
that Tight sends as solid rectangles); and "glmark2", glmark2-es2's shaded
horse (gradients: JPEG's real work; no frame counter, so CPU only).

usage: viewer_bench.py CONDUIT_EXE INPUT_PROBE VIEWER_LATENCY [--sizes 1280x720,1920x1080]
       [--scenes still,moving,glmark2] [--seconds 10] [--fps 60]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))

from viewer_support import ViewerHost, wait_line  # noqa: E402
from x11_support import Xvfb  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def supervisor_cpu(pid, seconds):
    """Share of one core the process used over `seconds`, in percent."""
    before, start = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return 100 * (cpu_seconds(pid) - before) / (time.monotonic() - start)


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def viewers(tool, address, count, seconds, height):
    return [subprocess.Popen([tool, address, str(seconds), str(height)], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True) for _ in range(count)]


def latencies(probe_lines, viewer_out):
    swapped = {}
    for line in probe_lines:
        m = re.match(r"frame (\d+) t=(\d+)", line)
        if m:
            swapped[int(m.group(1))] = int(m.group(2))
    return [(int(t) - swapped[int(n)]) / 1e6 for n, t in re.findall(r"seen (\d+) t=(\d+)", viewer_out)
            if int(n) in swapped]


def measure(args, size, scene, work):
    width, height = (int(v) for v in size.split("x"))
    xvfb = Xvfb(f"{max(width, 1024) + 64}x{max(height, 768) + 64}x24")
    host = ViewerHost(args.conduit, work, xvfb.display,
                      ["--vnc", "127.0.0.1:0", "--tile-size", size])
    try:
        address = host.wait_log(r"vnc: (\S+:\d+): the picture").group(1)
        if scene == "glmark2":
            probe = host.guest(["glmark2-es2", "--size", size, "--run-forever",
                                "-b", "shading:shading=phong:duration=1000"])
            time.sleep(5)  # it prints nothing until a scene ends
            if probe.proc.poll() is not None:
                raise RuntimeError("glmark2-es2 ended:\n" + "\n".join(probe.lines))
        else:
            probe = host.guest([args.probe, "--size", size, "--fps", str(args.fps), "--log-frames"] +
                               (["--moving"] if scene == "moving" else []))
            wait_line(probe, r"^ready window=", timeout=60)
        time.sleep(2)
        row = {"size": size, "scene": scene}
        row["cpu0"] = supervisor_cpu(host.proc.pid, args.seconds)
        for count in (1, 2):
            clients = viewers(args.viewer, address, count, args.seconds + 4, height)
            time.sleep(2)  # connected and past the first full picture
            row[f"cpu{count}"] = supervisor_cpu(host.proc.pid, args.seconds)
            outputs = [c.communicate(timeout=60)[0] for c in clients]
            if count == 1:
                updates = re.search(r"updates (\d+)", outputs[0])
                row["rate"] = int(updates.group(1)) / (args.seconds + 4) if updates else 0
            if count == 1 and scene != "glmark2":
                lat = latencies(probe.lines, outputs[0])
                row["p50"], row["p95"] = percentile(lat, 0.5), percentile(lat, 0.95)
        probe.stop()
        return row
    finally:
        host.stop()
        xvfb.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("conduit")
    parser.add_argument("probe")
    parser.add_argument("viewer")
    parser.add_argument("--sizes", default="1280x720,1920x1080")
    parser.add_argument("--scenes", default="still,moving,glmark2")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--fps", type=int, default=60)
    args = parser.parse_args()
    rows = []
    for size in args.sizes.split(","):
        for scene in args.scenes.split(","):
            work = tempfile.mkdtemp(prefix="conduit-viewer-bench-")
            try:
                rows.append(measure(args, size, scene, work))
            finally:
                shutil.rmtree(work, ignore_errors=True)
    print(f"probe at {args.fps} FPS; {args.seconds:g} s per CPU sample; Tight encoding (JPEG), as noVNC asks")
    print()
    print("| guest window | picture | updates/s (1 viewer) | latency p50 (ms) | p95 (ms) | host CPU, no viewer | 1 viewer "
          "| 2 viewers | second viewer |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        more = r["cpu2"] - r["cpu1"]
        seen = f"{r['rate']:.1f} | " + (f"{r['p50']:.1f} | {r['p95']:.1f}" if "p50" in r else "- | -")
        print(f"| {r['size']} | {r['scene']} | {seen} | {r['cpu0']:.0f}% "
              f"| {r['cpu1']:.0f}% | {r['cpu2']:.0f}% | {more:.0f}% |")


if __name__ == "__main__":
    main()
