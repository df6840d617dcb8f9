#!/usr/bin/python3
"""conduit bench: glmark2 regression runs, native vs virgl vs Conduit side by side."""
import argparse
import json
import os
import shutil
import sys
from datetime import datetime

sys.dont_write_bytecode = True  # keep the source tree (or install) clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib import glmark, regress, report  # noqa: E402
from benchlib.display import Xvfb  # noqa: E402
from benchlib.modes import MODES, VK_MODES  # noqa: E402
from benchlib.runner import document, now, run_all  # noqa: E402

EXIT_RUNS_FAILED = 1
EXIT_USAGE = 2
EXIT_REGRESSED = 3


def _size(text):
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH, got {text!r}")
    if w <= 0 or h <= 0:
        raise argparse.ArgumentTypeError(f"size must be positive, got {text!r}")
    return w, h


def _modes(text):
    modes = [m.strip() for m in text.split(",") if m.strip()]
    bad = [m for m in modes if m not in MODES]
    if bad or not modes:
        raise argparse.ArgumentTypeError(f"modes are {', '.join(MODES)}; got {text!r}")
    return list(dict.fromkeys(modes))


def _positive(kind):
    def parse(text):
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text!r}")
        return value
    return parse


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="conduit bench",
        description="glmark2 regression runs: native vs virgl vs Conduit, interleaved "
                    "scene by scene and repetition by repetition.",
        epilog="Exit status: 0 all runs passed, 1 a run failed, 2 usage error, "
               "3 a scene regressed against --baseline.")
    p.add_argument("--flavour", choices=sorted(glmark.PROGRAMS), default="es2",
                   help="glmark2-es2 (es2, default), glmark2 (gl) or Vulkan's conduit-vkbench (vk)")
    p.add_argument("--scenes", default="default",
                   help="comma-separated scene specs, or 'default' (glmark2's list; "
                        "for vk, conduit-vkbench's scenes)")
    p.add_argument("--modes", type=_modes,
                   help="comma-separated subset of native,virgl,conduit "
                        "(default: all; native,conduit for vk)")
    p.add_argument("--size", type=_size, default=(800, 600),
                   help="window size WxH (default 800x600)")
    p.add_argument("--offscreen", action="store_true", help="render off-screen")
    p.add_argument("--repeat", type=_positive(int), default=3,
                   help="repetitions per scene (default 3)")
    p.add_argument("--duration", type=_positive(float), default=5.0,
                   help="seconds per scene run, glmark2's duration option (default 5)")
    p.add_argument("--data-path", type=os.path.abspath,
                   help="glmark2's models, shaders and textures (default: glmark2's own)")
    p.add_argument("--out", help="output directory (default: conduit-bench-DATE-TIME)")
    p.add_argument("--baseline", help="an earlier results.json to compare against")
    p.add_argument("--max-regression", type=float, default=5.0, metavar="PCT",
                   help="allowed drop of a scene's median FPS against --baseline (default 5)")
    p.add_argument("--compare", metavar="RESULTS",
                   help="compare this results.json with --baseline without running anything")
    p.add_argument("--conduit", default=shutil.which("conduit") or "conduit",
                   help="the conduit executable for the conduit mode")
    args = p.parse_args(argv)
    if args.flavour == "vk" and args.modes and "virgl" in args.modes:
        p.error("the virgl mode carries OpenGL only; --flavour vk runs --modes native,conduit")
    if args.modes is None:
        args.modes = list(VK_MODES if args.flavour == "vk" else MODES)
    args.program = glmark.program_path(args.flavour, args.conduit)
    args.scenes = glmark.split_scene_list(args.scenes, args.flavour)
    if not args.scenes:
        p.error("no scenes given")
    if args.compare and not args.baseline:
        p.error("--compare needs --baseline")
    for path in (args.baseline, args.compare):
        if path and not os.path.isfile(path):
            p.error(f"no such file: {path}")
    return args


def _load(path):
    with open(path) as f:
        return json.load(f)


def check_baseline(current, baseline_path, max_regression):
    try:
        baseline = _load(baseline_path)
    except (OSError, ValueError) as error:
        print(f"conduit bench: cannot read {baseline_path}: {error}", file=sys.stderr)
        return EXIT_USAGE
    found = regress.regressions(current, baseline, max_regression)
    print(regress.format_regressions(found, max_regression), file=sys.stderr)
    return EXIT_REGRESSED if found else 0


def _missing_tools(config):
    needed = [config.program]
    if "virgl" in config.modes:
        needed.append("virgl_test_server")
    if "DISPLAY" not in os.environ:
        needed.append("Xvfb")
    return [t for t in needed if not shutil.which(t)]


def main(argv):
    config = parse_args(argv)
    if config.compare:
        return check_baseline(_load(config.compare), config.baseline, config.max_regression)
    missing = _missing_tools(config)
    if missing:
        print(f"conduit bench: not found: {', '.join(missing)}", file=sys.stderr)
        return EXIT_USAGE
    out_dir = os.path.abspath(config.out or datetime.now().strftime("conduit-bench-%Y%m%d-%H%M%S"))
    os.makedirs(out_dir, exist_ok=True)
    env = dict(os.environ)
    started = now()
    xvfb = None
    try:
        if "DISPLAY" not in env:
            xvfb = Xvfb(config.size[0], config.size[1], os.path.join(out_dir, "xvfb.log"))
            env["DISPLAY"] = xvfb.display
        runs, renderers = run_all(config, env, out_dir)
    finally:
        if xvfb:
            xvfb.stop()
    doc = document(config, ["conduit", "bench"] + argv, runs, renderers, started)
    files = report.write_all(out_dir, doc)
    for name, ratio in doc["ratios"].items():
        value = "n/a" if ratio["geomean"] is None else f"{ratio['geomean']:.3f}"
        print(f"[bench] geomean {name}: {value} over {ratio['scenes']} scene(s)", file=sys.stderr)
    print(f"[bench] wrote {', '.join(files)} in {out_dir}", file=sys.stderr)
    status = 0
    failed = [r for r in runs if r.get("error")]
    if failed:
        print(f"[bench] {len(failed)} of {len(runs)} run(s) failed", file=sys.stderr)
        status = EXIT_RUNS_FAILED
    if config.baseline:
        status = check_baseline(doc, config.baseline, config.max_regression) or status
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
