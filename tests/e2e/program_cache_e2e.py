#!/usr/bin/python3
"""The persistent program cache, end to end: glmark2-es2 through one
`conduit host` twice, the second run's programs all coming from the cache
and rendering what the first rendered; a cache made under another renderer
string, or damaged, is not used.

usage: program_cache_e2e.py CONDUIT_EXE [unittest args]
"""
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

from host_support import Host, HostedSuite
from x11_support import glmark2_outcomes

CONDUIT = None
SCENES = ["-b", "shading:duration=1", "-b", "bump:duration=1", "-b", "refract:duration=1"]
COUNTERS = ("programs_linked", "program_cache_hits", "program_compiles", "shader_compiles", "shader_cache_hits")


HOST_NUMBERS = itertools.count()


class CacheHost(Host):
    """`conduit host` with its program cache in `cache`."""

    def __init__(self, workdir, name, cache, extra_env=None, scheme="unix:"):
        super().__init__(CONDUIT, scheme, workdir, name, extra_env, ["--program-cache", cache])
        for _ in range(400):
            if os.path.exists(self.admin):
                return
            time.sleep(0.05)
        raise RuntimeError("conduit host has no admin socket:\n" + self.read_log())

    def counters(self):
        """What the host counted, once the sessions of programs that ended
        have ended too: a renderer publishes its counters on its beat, and
        an ended session's are final."""
        for _ in range(100):
            out = subprocess.run([CONDUIT, "info", "--stats", "--admin", self.admin], capture_output=True, text=True,
                                 check=True, timeout=30)
            stats = json.loads(out.stdout)
            if stats["sessions_live"] == 0:
                break
            time.sleep(0.1)
        return {k: stats["total"].get(k, 0) for k in COUNTERS}


class ProgramCache(HostedSuite):

    def setUp(self):
        self.cache = tempfile.mkdtemp(dir=self.work, prefix="cache-")
        self.hosts = []

    def tearDown(self):
        for h in self.hosts:
            h.stop()

    def host(self, name, extra_env=None, scheme="unix:"):
        # Numbered, not named after the test: a unix socket's path is short.
        h = CacheHost(self.work, f"{name}-{next(HOST_NUMBERS)}", self.cache, extra_env, scheme)
        self.hosts.append(h)
        return h

    def glmark2(self, host, args):
        """glmark2-es2's validation outcomes through `host`, and what the host counted meanwhile."""
        before = host.counters()
        run = subprocess.run([CONDUIT, "run", "--host", host.address, "--", "glmark2-es2", "--validate"] + args,
                             capture_output=True, text=True, env=self.env, timeout=600)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        after = host.counters()
        outcomes = glmark2_outcomes(run.stdout)
        self.assertTrue(outcomes, run.stdout)
        return outcomes, {k: after[k] - before[k] for k in COUNTERS}

    def test_second_run_compiles_nothing_and_renders_the_same(self):
        host = self.host("host")
        cold_frames, cold = self.glmark2(host, SCENES)
        self.assertGreater(cold["programs_linked"], 0, cold)
        self.assertEqual(cold["program_cache_hits"], 0, cold)
        self.assertEqual(cold["program_compiles"], cold["programs_linked"], cold)
        warm_frames, warm = self.glmark2(host, SCENES)
        self.assertEqual(warm_frames, cold_frames)
        # glmark2 has references for some scenes only (refract: Unknown).
        self.assertNotIn("Failure", warm_frames.values(), warm_frames)
        self.assertEqual(warm_frames["[shading] duration=1"], "Success", warm_frames)
        self.assertEqual(warm["programs_linked"], cold["programs_linked"], warm)
        self.assertEqual(warm["program_cache_hits"], warm["programs_linked"], warm)
        self.assertEqual(warm["program_compiles"], 0, warm)
        self.assertEqual(warm["shader_compiles"], 0, warm)
        print(f"\ncold {cold}\nwarm {warm}", file=sys.stderr)
        self.assertNotIn("refused", host.read_log())
        listing = subprocess.run([CONDUIT, "cache", "stats", "--program-cache", self.cache], capture_output=True,
                                 text=True, check=True).stdout
        self.assertNotIn(" 0 entries", listing.splitlines()[0])
        stats = json.loads(subprocess.run([CONDUIT, "cache", "stats", "--json", "--program-cache", self.cache],
                                          capture_output=True, text=True, check=True).stdout)
        # One folder, this user's: an entry per distinct program and shader.
        self.assertEqual(len(stats["scopes"]), 1, stats)
        self.assertTrue(0 < stats["entries"] <= cold["programs_linked"] + cold["shader_compiles"], stats)
        subprocess.run([CONDUIT, "cache", "clear", "--program-cache", self.cache], check=True, capture_output=True)
        stats = json.loads(subprocess.run([CONDUIT, "cache", "stats", "--json", "--program-cache", self.cache],
                                          capture_output=True, text=True, check=True).stdout)
        self.assertEqual(stats["entries"], 0, stats)
        _, cleared = self.glmark2(host, ["-b", "shading:duration=1"])
        self.assertEqual(cleared["program_cache_hits"], 0, cleared)

    def test_shm_guests_are_answered_from_what_unix_guests_stored(self):
        """The cache is the transport's business nowhere: a guest of this
        user on shared-memory rings is the same guest identity as on a unix
        socket, and its links come from the entries the socket's run stored."""
        cold_frames, cold = self.glmark2(self.host("unix"), ["-b", "shading:duration=1"])
        self.assertGreater(cold["programs_linked"], 0, cold)
        warm_frames, warm = self.glmark2(self.host("shm", scheme="shm:"), ["-b", "shading:duration=1"])
        self.assertEqual(warm_frames, cold_frames)
        self.assertEqual(warm["program_cache_hits"], warm["programs_linked"], warm)
        self.assertEqual(warm["program_compiles"], 0, warm)
        self.assertEqual(warm["shader_compiles"], 0, warm)

    def test_cache_of_another_renderer_is_not_used(self):
        llvmpipe = self.host("llvmpipe")
        self.glmark2(llvmpipe, ["-b", "shading:duration=1"])
        softpipe = self.host("softpipe", {"GALLIUM_DRIVER": "softpipe"})
        _, other = self.glmark2(softpipe, ["-b", "shading:duration=1"])
        self.assertGreater(other["programs_linked"], 0, other)
        self.assertEqual(other["program_cache_hits"], 0, other)
        self.assertEqual(other["shader_cache_hits"], 0, other)
        self.assertEqual(other["program_compiles"], other["programs_linked"], other)

    def test_damaged_entries_are_misses(self):
        host = self.host("host")
        cold_frames, _ = self.glmark2(host, ["-b", "shading:duration=1"])
        damaged = 0
        for folder, _, files in os.walk(self.cache):
            for name in files:
                path = os.path.join(folder, name)
                with open(path, "r+b") as f:
                    f.seek(-1, os.SEEK_END)
                    last = f.read(1)
                    f.seek(-1, os.SEEK_END)
                    f.write(bytes([last[0] ^ 0xff]))
                damaged += 1
        self.assertGreater(damaged, 0)
        frames, counted = self.glmark2(host, ["-b", "shading:duration=1"])
        self.assertEqual(frames, cold_frames)
        self.assertEqual(counted["program_cache_hits"], 0, counted)
        self.assertEqual(counted["shader_cache_hits"], 0, counted)
        self.assertEqual(counted["program_compiles"], counted["programs_linked"], counted)
        # Rewritten whole: the next run hits again.
        _, again = self.glmark2(host, ["-b", "shading:duration=1"])
        self.assertEqual(again["program_cache_hits"], again["programs_linked"], again)

    def test_cache_off_compiles_every_time(self):
        h = CacheHost(self.work, "off", "off")
        self.hosts.append(h)
        self.glmark2(h, ["-b", "shading:duration=1"])
        _, second = self.glmark2(h, ["-b", "shading:duration=1"])
        self.assertEqual(second["program_cache_hits"], 0, second)
        self.assertEqual(second["program_compiles"], second["programs_linked"], second)


if __name__ == "__main__":
    CONDUIT = HostedSuite.CONDUIT = os.path.abspath(sys.argv.pop(1))
    unittest.main()
