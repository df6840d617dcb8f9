"""Unit tests of the bench harness's pure parts: parsing, statistics, regressions, reports."""
import json
import math
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.environ.get("BENCH_DIR", os.path.join(HERE, "..", "..", "demos", "bench")))
sys.path.insert(0, HERE)

import conduit_bench  # noqa: E402
from benchlib import glmark, regress, report, stats, summary  # noqa: E402
from benchlib.procs import Child, TreeSampler  # noqa: E402
from pngcheck import check_png  # noqa: E402

STDOUT = """=======================================================
    OpenGL Information
    GL_VENDOR:      Mesa/X.org
    GL_RENDERER:    virgl (LLVMPIPE (LLVM 15.0.6, 256 bits))
=======================================================
[shading] duration=3:shading=cel: FPS: 221 FrameTime: 4.542 ms (User: 0.170 ms, System: 0.331 ms) CpuBusy: 64%
[effect2d] kernel=0,1,0;1,-4,1;0,1,0;: FPS: 141 FrameTime: 7.134 ms
=======================================================
"""

CSV = ('"glmark2-es2 -b shading","glmark2-es2","2023.01","Mesa/X.org","llvmpipe","OpenGL ES 3.2",'
       '"buf=32","800x600 windowed"\n'
       '"[shading] duration=2:shading=cel","101","9.954","13.035","1.801","81","Success"\n')


class SceneListTest(unittest.TestCase):
    def test_default_expands(self):
        self.assertEqual(glmark.split_scene_list("default"), glmark.DEFAULT_SCENES)
        self.assertEqual(len(glmark.DEFAULT_SCENES), 33)

    def test_kernel_commas_stay_inside_their_scene(self):
        text = "build:use-vbo=false,effect2d:kernel=0,1,0;1,-4,1;0,1,0;,jellyfish,shading"
        self.assertEqual(glmark.split_scene_list(text), [
            "build:use-vbo=false", "effect2d:kernel=0,1,0;1,-4,1;0,1,0;", "jellyfish", "shading"])

    def test_command(self):
        argv = glmark.command("gl", "jellyfish", 2.5, (640, 480), True, "r.csv")
        self.assertEqual(argv, ["glmark2", "-b", "jellyfish:duration=2.5", "-s", "640x480",
                                "--results", "fps:cpu", "--off-screen", "--results-file", "r.csv"])
        argv = glmark.command("es2", "cel", None, (8, 8), False, data_path="/d")
        self.assertEqual(argv[1:3] + argv[-2:], ["-b", "cel", "--data-path", "/d"])


class OutputParsingTest(unittest.TestCase):
    def test_stdout(self):
        results = glmark.parse_stdout(STDOUT)
        self.assertEqual(len(results), 2)
        self.assertAlmostEqual(results[0]["fps"], 1000 / 4.542)
        self.assertAlmostEqual(results[0]["guest_cpu_ms_per_frame"], 0.501)
        self.assertAlmostEqual(results[1]["frame_time_ms"], 7.134)
        self.assertNotIn("guest_cpu_ms_per_frame", results[1])

    def test_renderer(self):
        self.assertEqual(glmark.parse_renderer(STDOUT), "virgl (LLVMPIPE (LLVM 15.0.6, 256 bits))")
        self.assertIsNone(glmark.parse_renderer("nothing"))

    def test_results_csv(self):
        (result,) = glmark.parse_results_csv(CSV)
        self.assertAlmostEqual(result["fps"], 1000 / 9.954)
        self.assertAlmostEqual(result["guest_cpu_ms_per_frame"], 14.836)

    def test_failed_scene_is_skipped(self):
        self.assertEqual(glmark.parse_results_csv(CSV.replace("Success", "Fail")), [])


class StatisticsTest(unittest.TestCase):
    def test_median_and_spread(self):
        self.assertEqual(stats.median([3, 1, 2]), 2)
        self.assertEqual(stats.median([4, 1, 3, 2]), 2.5)
        self.assertIsNone(stats.median([]))
        self.assertAlmostEqual(stats.spread_pct([90, 100, 110]), 20.0)

    def test_geomean(self):
        self.assertAlmostEqual(stats.geomean([2.0, 0.5]), 1.0)
        self.assertAlmostEqual(stats.geomean([1.0, 4.0, None]), 2.0)
        self.assertIsNone(stats.geomean([]))

    def test_conduit_stats(self):
        text = ("noise\nconduit-stats: conn=1 frames=10 bytes_raw=1000 bytes_wire=250 round_trips=3\n"
                "[host] conduit-stats: conn=1 frames=20 bytes_raw=2000 bytes_wire=500 round_trips=4\n"
                "conduit-stats: conn=2 frames=20 raw_bytes=100 wire_bytes=50 sync_round_trips=0\n")
        totals = stats.parse_conduit_stats(text)
        self.assertEqual(totals, {"frames": 40, "bytes_raw": 2100, "bytes_wire": 550,
                                  "round_trips": 4})
        per = stats.per_frame(totals, None)
        self.assertAlmostEqual(per["bytes_wire_per_frame"], 550 / 40)
        self.assertAlmostEqual(per["round_trips_per_frame"], 0.1)

    def test_guest_exit_summary(self):
        text = ("conduit: batches 12, commands 900, bytes 48000 raw / 12000 sent (4.00x), "
                "sync round trips 5, frames 100 (dropped 0), round trips per frame 0.05\n")
        totals = stats.parse_conduit_stats(text)
        self.assertEqual(totals, {"frames": 100, "bytes_raw": 48000, "bytes_wire": 12000,
                                  "round_trips": 5})

    def test_guest_exit_summary_with_swaps(self):
        text = ("conduit: batches 2819, commands 89952, bytes 36999392 raw / 10454292 sent "
                "(3.54x), sync round trips 316, swaps 2443, frames presented 2442, round trips "
                "per frame 0.129, frames that waited for the host 5\n")
        totals = stats.parse_conduit_stats(text)
        self.assertEqual(totals, {"frames": 2443, "bytes_raw": 36999392,
                                  "bytes_wire": 10454292, "round_trips": 316})

    def test_conduit_stats_absent(self):
        self.assertIsNone(stats.parse_conduit_stats(STDOUT))
        self.assertEqual(stats.per_frame(None, 100)["bytes_raw_per_frame"], None)

    def test_frames_fall_back_to_the_estimate(self):
        per = stats.per_frame({"bytes_raw": 600.0}, 200)
        self.assertAlmostEqual(per["bytes_raw_per_frame"], 3.0)
        self.assertIsNone(per["round_trips_per_frame"])


def _runs(fps_by_mode, scenes=("a", "b")):
    runs = []
    for scene in scenes:
        for mode, values in fps_by_mode.items():
            for rep, fps in enumerate(values, 1):
                runs.append({"scene": scene, "mode": mode, "rep": rep, "fps": fps,
                             "guest_cpu_s": 1.0, "host_cpu_s": None, "error": None})
    return runs


class SummaryTest(unittest.TestCase):
    def test_summary_and_ratios(self):
        runs = _runs({"native": [100, 90, 110], "virgl": [50, 50, 60], "conduit": [200, 210, 190]})
        runs.append({"scene": "a", "mode": "virgl", "rep": 4, "fps": None, "error": "x"})
        s = summary.summarize(runs, ["a", "b"], ["native", "virgl", "conduit"])
        self.assertEqual(s["a"]["native"]["fps_median"], 100)
        self.assertEqual(s["a"]["virgl"]["failed"], 1)
        self.assertEqual(s["a"]["virgl"]["n"], 3)
        self.assertEqual(s["b"]["conduit"]["fps_min"], 190)
        r = summary.ratios(s, ["native", "virgl", "conduit"])
        self.assertAlmostEqual(r["conduit/native"]["geomean"], 2.0)
        self.assertAlmostEqual(r["virgl/native"]["geomean"], 0.5)
        self.assertAlmostEqual(r["conduit/virgl"]["geomean"], 4.0)

    def test_ratio_absent_when_a_mode_never_ran(self):
        s = summary.summarize(_runs({"native": [100]}), ["a", "b"], ["native", "conduit"])
        r = summary.ratios(s, ["native", "conduit"])
        self.assertIsNone(r["conduit/native"]["geomean"])
        self.assertNotIn("virgl/native", r)


def _doc(runs, scenes=("a", "b"), modes=("native", "virgl")):
    s = summary.summarize(runs, list(scenes), list(modes))
    return {"config": {"scenes": list(scenes), "modes": list(modes)}, "summary": s}


class RegressionTest(unittest.TestCase):
    def test_identical_passes(self):
        doc = _doc(_runs({"native": [100], "virgl": [50]}))
        self.assertEqual(regress.regressions(doc, doc, 5.0), [])

    def test_planted_regression_is_named(self):
        base = _doc(_runs({"native": [100], "virgl": [50]}))
        now = _doc(_runs({"native": [100], "virgl": [50]}, scenes=("a",))
                   + _runs({"native": [80], "virgl": [49]}, scenes=("b",)))
        found = regress.regressions(now, base, 5.0)
        self.assertEqual([(m, s) for m, s, *_ in found], [("native", "b")])
        self.assertAlmostEqual(found[0][4], -20.0)
        self.assertIn("native   b: 100.0 -> 80.0", regress.format_regressions(found, 5.0))
        self.assertEqual(regress.regressions(now, base, 25.0), [])

    def test_failed_scene_regresses(self):
        base = _doc(_runs({"native": [100], "virgl": [50]}))
        runs = _runs({"native": [100], "virgl": [50]})
        runs[0]["error"] = "crashed"
        self.assertEqual([(m, s) for m, s, *_ in regress.regressions(_doc(runs), base, 5.0)],
                         [("native", "a")])

    def test_scenes_not_attempted_are_ignored(self):
        base = _doc(_runs({"native": [100], "virgl": [50]}))
        now = _doc(_runs({"native": [100]}, scenes=("a",)), scenes=("a",), modes=("native",))
        self.assertEqual(regress.regressions(now, base, 5.0), [])


class OptionsTest(unittest.TestCase):
    def test_defaults(self):
        args = conduit_bench.parse_args([])
        self.assertEqual(args.modes, ["native", "virgl", "conduit"])
        self.assertEqual(args.size, (800, 600))
        self.assertEqual(args.scenes, glmark.DEFAULT_SCENES)

    def test_values(self):
        args = conduit_bench.parse_args(["--modes", "virgl,native", "--size", "320x200",
                                         "--scenes", "jellyfish", "--offscreen", "--repeat", "2"])
        self.assertEqual((args.modes, args.size, args.scenes), (["virgl", "native"], (320, 200),
                                                                ["jellyfish"]))
        self.assertTrue(args.offscreen)

    def test_vulkan_flavour(self):
        # conduit-vkbench's scenes, natively and through Conduit, the program
        # found beside the conduit executable of a build tree.
        with tempfile.TemporaryDirectory() as build:
            for path in ("cli/conduit", "demos/vkbench/conduit-vkbench"):
                os.makedirs(os.path.dirname(os.path.join(build, path)), exist_ok=True)
                open(os.path.join(build, path), "w").close()
                os.chmod(os.path.join(build, path), 0o755)
            args = conduit_bench.parse_args(["--flavour", "vk", "--conduit", os.path.join(build, "cli/conduit")])
            self.assertEqual(args.modes, ["native", "conduit"])
            self.assertEqual(args.scenes, ["draws", "texture", "compute", "rtt"])
            self.assertEqual(os.path.realpath(args.program),
                             os.path.realpath(os.path.join(build, "demos/vkbench/conduit-vkbench")))

    def test_rejects(self):
        for bad in (["--modes", "vulkan"], ["--size", "800"], ["--repeat", "0"],
                    ["--compare", "x.json"], ["--flavour", "vk", "--modes", "native,virgl"]):
            with self.assertRaises(SystemExit), open(os.devnull, "w") as null:
                stderr, sys.stderr = sys.stderr, null
                try:
                    conduit_bench.parse_args(bad)
                finally:
                    sys.stderr = stderr


class ReportTest(unittest.TestCase):
    def test_outputs(self):
        runs = _runs({"native": [100, 110], "virgl": [60, 70], "conduit": [120, 100]})
        modes = ["native", "virgl", "conduit"]
        s = summary.summarize(runs, ["a", "b"], modes)
        doc = {"created": "2024-01-01T00:00:00", "command": ["conduit", "bench"],
               "machine": {"cpu": "cpu", "cpus": 2, "kernel": "k"},
               "config": {"flavour": "es2", "program": "glmark2-es2", "scenes": ["a", "b"],
                          "modes": modes, "size": [800, 600], "offscreen": False,
                          "repeat": 2, "duration": 1.0},
               "renderers": {m: "r" for m in modes}, "runs": runs, "summary": s,
               "ratios": summary.ratios(s, modes)}
        with tempfile.TemporaryDirectory() as out:
            files = report.write_all(out, doc)
            self.assertEqual(sorted(files), ["ratios.png", "report.html", "results.csv",
                                             "results.json", "results.md", "scenes.png"])
            with open(os.path.join(out, "results.json")) as f:
                self.assertEqual(json.load(f)["summary"]["a"]["conduit"]["fps_median"], 110)
            with open(os.path.join(out, "results.csv")) as f:
                self.assertEqual(len(f.read().strip().splitlines()), 1 + 2 * 3)
            for png in ("scenes.png", "ratios.png"):
                width, height = check_png(os.path.join(out, png))
                self.assertGreater(width * height, 0)
            with open(os.path.join(out, "results.md")) as f:
                table = f.read().splitlines()
            self.assertEqual(len(table), 2 + 2 + 1)
            self.assertIn("**0.619**", table[-1])  # virgl/native: median 65 vs 105 in both
            with open(os.path.join(out, "report.html")) as f:
                page = f.read()
            self.assertIn('src="ratios.png"', page)
            self.assertTrue(math.isclose(doc["ratios"]["conduit/native"]["geomean"], 1.0,
                                         rel_tol=0.05))


BUSY = "i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done"


class ProcessTest(unittest.TestCase):
    def test_child_cpu_time_and_exit_status(self):
        with tempfile.TemporaryDirectory() as out:
            child = Child(["sh", "-c", BUSY + "; echo done; exit 3"], os.path.join(out, "log"))
            self.assertTrue(child.wait(20))
            self.assertEqual(child.exit_code, 3)
            self.assertGreater(child.cpu_s, 0.02)
            self.assertEqual(child.output(), "done\n")

    def test_timeout_kills(self):
        with tempfile.TemporaryDirectory() as out:
            child = Child(["sleep", "30"], os.path.join(out, "log"))
            self.assertFalse(child.wait(0.1))
            self.assertLess(child.exit_code, 0)

    def test_sampler_sees_descendants(self):
        with tempfile.TemporaryDirectory() as out:
            # The outer shell waits for the inner one, which does the work and
            # then stays a while with its time on show: a sampler that a busy
            # machine lets run late still sees it.
            child = Child(["sh", "-c", f"sh -c '{BUSY}; sleep 0.5'; sleep 0.2"], os.path.join(out, "log"))
            sampler = TreeSampler(child.pid, interval=0.02)
            self.assertTrue(child.wait(20))
            sampler.stop()
            self.assertGreater(sampler.cpu_of(lambda comm: comm == "sh"), 0.02)
            self.assertEqual(sampler.cpu_of(lambda comm: comm == "glmark2"), 0)


class PngCheckTest(unittest.TestCase):
    def test_corruption_is_caught(self):
        with tempfile.TemporaryDirectory() as out:
            path = os.path.join(out, "x.png")
            report.plot_ratios(path, {"virgl/native": {"geomean": 1.2, "scenes": 1}})
            check_png(path)
            with open(path, "rb") as f:
                data = bytearray(f.read())
            data[len(data) // 2] ^= 0xFF
            with open(path, "wb") as f:
                f.write(data)
            with self.assertRaises(ValueError):
                check_png(path)


if __name__ == "__main__":
    unittest.main()
