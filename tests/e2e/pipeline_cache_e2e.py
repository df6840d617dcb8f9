#!/usr/bin/python3
"""The persistent pipeline cache, end to end: conduit-vkbench through one
`conduit host` twice, the second run's device seeded from what the first
stored and its scenes rendering as the first's did; a damaged entry is a
miss, and the entry is written whole again.

usage: pipeline_cache_e2e.py CONDUIT_EXE VKBENCH_EXE [unittest args]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import program_cache_e2e
from program_cache_e2e import CacheHost

CONDUIT = None
VKBENCH = None
# A graphics and a compute pipeline, each made without a cache of the program's.
SCENES = ["draws", "compute"]
COUNTERS = ("vk_pipeline_cache_hits", "vk_pipeline_cache_misses")


def counters(host):
    out = subprocess.run([CONDUIT, "info", "--stats", "--admin", host.admin], capture_output=True, text=True,
                         check=True, timeout=30)
    total = json.loads(out.stdout)["total"]
    return {k: total.get(k, 0) for k in COUNTERS}


class PipelineCache(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="conduit-vkcache-e2e-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def setUp(self):
        self.cache = tempfile.mkdtemp(dir=self.work, prefix="cache-")
        self.host = CacheHost(self.work, self._testMethodName, self.cache)

    def tearDown(self):
        self.host.stop()

    def vkbench(self):
        """The scenes' result lines, and what the host counted meanwhile."""
        before = counters(self.host)
        args = [VKBENCH, "--off-screen"] + [a for s in SCENES for a in ("-b", s + ":duration=0.3")]
        run = subprocess.run([CONDUIT, "run", "--host", self.host.address, "--"] + args, capture_output=True,
                             text=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        # Each scene checks its last frame itself and fails the run otherwise.
        scenes = sorted(line.split("]")[0] + "]" for line in run.stdout.splitlines() if line.startswith("["))
        self.assertEqual(scenes, sorted(f"[{s}]" for s in SCENES), run.stdout)
        after = counters(self.host)
        return scenes, {k: after[k] - before[k] for k in COUNTERS}

    def entries(self):
        return [os.path.join(d, f) for d, _, files in os.walk(self.cache) for f in files]

    def test_second_device_is_seeded_and_renders_the_same(self):
        cold_scenes, cold = self.vkbench()
        self.assertEqual(cold, {"vk_pipeline_cache_hits": 0, "vk_pipeline_cache_misses": 1})
        self.assertEqual(len(self.entries()), 1, self.entries())
        warm_scenes, warm = self.vkbench()
        self.assertEqual(warm, {"vk_pipeline_cache_hits": 1, "vk_pipeline_cache_misses": 0})
        self.assertEqual(warm_scenes, cold_scenes)
        self.assertNotIn("refused", self.host.read_log())
        stats = json.loads(subprocess.run([CONDUIT, "cache", "stats", "--json", "--program-cache", self.cache],
                                          capture_output=True, text=True, check=True).stdout)
        self.assertEqual(stats["entries"], 1, stats)

    def test_damaged_entry_is_a_miss(self):
        self.vkbench()
        for path in self.entries():
            with open(path, "r+b") as f:
                f.seek(-1, os.SEEK_END)
                last = f.read(1)
                f.seek(-1, os.SEEK_END)
                f.write(bytes([last[0] ^ 0xff]))
        _, damaged = self.vkbench()
        self.assertEqual(damaged, {"vk_pipeline_cache_hits": 0, "vk_pipeline_cache_misses": 1})
        # Rewritten whole: the next device is seeded again.
        _, again = self.vkbench()
        self.assertEqual(again, {"vk_pipeline_cache_hits": 1, "vk_pipeline_cache_misses": 0})


if __name__ == "__main__":
    CONDUIT = program_cache_e2e.CONDUIT = os.path.abspath(sys.argv.pop(1))
    VKBENCH = os.path.abspath(sys.argv.pop(1))
    unittest.main()
