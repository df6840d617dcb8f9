"""Runs every scene in every mode, interleaved, and shows progress."""
import os
import platform
import sys
import time
from datetime import datetime, timezone

from . import glmark
from .modes import RUNNERS, Job
from .summary import ratios, summarize


def _clock(seconds):
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


class Progress:
    def __init__(self, total, stream=sys.stderr):
        self.total = total
        self.done = 0
        self.start = time.monotonic()
        self.stream = stream

    def before(self, scene_index, scene_count, scene, mode, rep, repeat):
        elapsed = time.monotonic() - self.start
        if self.done:
            left = f"~{_clock(elapsed / self.done * (self.total - self.done))}"
        else:
            left = "estimating"
        print(f"[bench] scene {scene_index}/{scene_count} rep {rep}/{repeat} {mode:7} "
              f"{scene}  (elapsed {_clock(elapsed)}, remaining {left})",
              file=self.stream, flush=True)

    def after(self, record):
        self.done += 1
        if record.get("error"):
            print(f"[bench]   failed: {record['error']}", file=self.stream, flush=True)
        else:
            print(f"[bench]   {record['fps']:.1f} fps", file=self.stream, flush=True)


def run_all(config, env, out_dir):
    """Runs the matrix scene by scene, repetition by repetition, mode by mode."""
    runs = []
    renderers = {}
    progress = Progress(len(config.scenes) * config.repeat * len(config.modes))
    for si, scene in enumerate(config.scenes, 1):
        for rep in range(1, config.repeat + 1):
            for mode in config.modes:
                progress.before(si, len(config.scenes), scene, mode, rep, config.repeat)
                run_dir = os.path.join(out_dir, "runs", f"{si:02d}-{mode}-{rep}")
                record = RUNNERS[mode](Job(config, scene, mode, rep, run_dir, env))
                record["log"] = os.path.relpath(record.get("log") or run_dir, out_dir)
                if record.get("renderer"):
                    renderers.setdefault(mode, record["renderer"])
                runs.append(record)
                progress.after(record)
    return runs, renderers


def now():
    return datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds")


def document(config, argv, runs, renderers, started):
    summary = summarize(runs, config.scenes, config.modes)
    return {
        "schema": 1,
        "started": started,
        "created": now(),
        "command": argv,
        "machine": {"cpu": _cpu_model(), "cpus": os.cpu_count(),
                    "kernel": platform.release()},
        "config": {"flavour": config.flavour, "program": glmark.PROGRAMS[config.flavour],
                   "scenes": config.scenes, "modes": config.modes,
                   "size": list(config.size), "offscreen": config.offscreen,
                   "repeat": config.repeat, "duration": config.duration,
                   "data_path": config.data_path},
        "renderers": {m: renderers.get(m) for m in config.modes},
        "runs": runs,
        "summary": summary,
        "ratios": ratios(summary, config.modes),
    }
