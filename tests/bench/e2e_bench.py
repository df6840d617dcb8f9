"""A short `conduit bench` run in all three modes, then its outputs and regression check.

Usage: e2e_bench.py CONDUIT_EXECUTABLE. Fails while any mode cannot run.
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)

from pngcheck import check_png  # noqa: E402

CONDUIT = None
SCENES = ["build:use-vbo=false", "shading:shading=cel"]
MODES = ["native", "virgl", "conduit"]


def bench(*args):
    return subprocess.run([CONDUIT, "bench", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)


class BenchRunTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="conduit-bench-e2e-")
        cls.bench_run = bench("--scenes", ",".join(SCENES), "--modes", ",".join(MODES),
                        "--repeat", "1", "--duration", "1", "--size", "320x240",
                        "--out", cls.out)
        sys.stderr.write(cls.bench_run.stdout)
        with open(os.path.join(cls.out, "results.json")) as f:
            cls.results = json.load(f)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.out, name)

    def test_every_mode_ran(self):
        self.assertEqual(self.bench_run.returncode, 0, "a run failed; see the log above")
        runs = self.results["runs"]
        self.assertEqual(len(runs), len(SCENES) * len(MODES))
        for run in runs:
            self.assertIsNone(run["error"], f"{run['mode']} {run['scene']}")
            self.assertGreater(run["fps"], 0)

    def test_progress_was_shown(self):
        self.assertIn(f"scene 2/{len(SCENES)}", self.bench_run.stdout)
        self.assertIn("remaining", self.bench_run.stdout)

    def test_modes_used_their_own_paths(self):
        renderers = self.results["renderers"]
        self.assertIn("virgl", renderers["virgl"] or "")
        self.assertNotIn("virgl", renderers["native"] or "virgl")
        virgl = [r for r in self.results["runs"] if r["mode"] == "virgl"]
        self.assertTrue(all(r["host_cpu_s"] and r["host_cpu_s"] > 0 for r in virgl))
        # Conduit's own counters prove the frames went through the wire.
        for run in (r for r in self.results["runs"] if r["mode"] == "conduit"):
            self.assertGreater(run["bytes_wire_per_frame"] or 0, 0, run["scene"])
            self.assertGreater(run["host_cpu_s"] or 0, 0, run["scene"])

    def test_results_parse(self):
        summary = self.results["summary"]
        self.assertEqual(sorted(summary), sorted(SCENES))
        with open(self.path("results.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), len(SCENES) * len(MODES))
        for row in rows:
            json_fps = summary[row["scene"]][row["mode"]]["fps_median"]
            if json_fps is not None:
                self.assertAlmostEqual(float(row["fps_median"]), json_fps, delta=json_fps * 1e-3)
        self.assertEqual(sorted(self.results["ratios"]),
                         ["conduit/native", "conduit/virgl", "virgl/native"])

    def test_report_and_plots(self):
        with open(self.path("report.html")) as f:
            page = f.read()
        for png in ("scenes.png", "ratios.png"):
            self.assertIn(f'src="{png}"', page)
            width, height = check_png(self.path(png))
            self.assertGreater(width * height, 0)

    def test_identical_results_pass_the_regression_check(self):
        results = self.path("results.json")
        same = bench("--compare", results, "--baseline", results, "--max-regression", "5")
        self.assertEqual(same.returncode, 0, same.stdout)

    def test_planted_regression_fails_the_check(self):
        baseline = json.loads(json.dumps(self.results))
        scene = SCENES[1]
        for summary in baseline["summary"][scene].values():
            if summary["fps_median"]:
                summary["fps_median"] *= 1.5  # the current run is a third slower
        planted = self.path("planted-baseline.json")
        with open(planted, "w") as f:
            json.dump(baseline, f)
        worse = bench("--compare", self.path("results.json"), "--baseline", planted,
                      "--max-regression", "20")
        self.assertEqual(worse.returncode, 3, worse.stdout)
        self.assertIn(scene, worse.stdout)
        self.assertNotIn(SCENES[0], worse.stdout)


if __name__ == "__main__":
    CONDUIT = sys.argv.pop(1)
    unittest.main()
