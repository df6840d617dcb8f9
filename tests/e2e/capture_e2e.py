"""Capture and replay (docs/capture.md): programs (es2gears, glxgears,
glmark2-es2 scenes, vkcube) run through a host that
captures their sessions and logs each frame's hash; `conduit replay` of
each capture, twice, makes the frames the host sent live, hash for hash.
Truncated, corrupted and foreign captures stop with a clear error."""
import os
import re
import signal
import subprocess
import sys
import time
import unittest

from host_support import Host, HostedSuite

CONDUIT = HostedSuite.CONDUIT = sys.argv[1]
del sys.argv[1:]

LIVE_HASH = re.compile(r"session (\d+): frame (\d+) surface \d+ (\d+x\d+) hash ([0-9a-f]{16})")
REPLAY_HASH = re.compile(r"^frame (\d+) surface \d+ (\d+x\d+) hash ([0-9a-f]{16})$", re.M)
# A frame whose readback was still under way when its guest left is not
# sent live; a replay finishes it. No more than the host's frame ring.
TAIL_FRAMES = 3


class CaptureHost(Host):
    """`conduit host --capture-dir --log-frame-hashes`, by default on shared
    memory, so that the guests' large data lies in the shared heap."""

    def __init__(self, conduit, scheme, work, name=None, extra_env=None, args=()):
        self.captures = os.path.join(work, scheme.rstrip(":") + "-captures")
        os.mkdir(self.captures)
        super().__init__(conduit, scheme, work, name, extra_env,
                         [*args, "--capture-dir", self.captures, "--log-frame-hashes"])

    def live_hashes(self, session):
        return [(m.group(3), m.group(4)) for m in LIVE_HASH.finditer(self.read_log()) if m.group(1) == str(session)]


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(bytes(data))


def replay(*args):
    return subprocess.run([CONDUIT, "replay", *args], capture_output=True, text=True, timeout=300)


def replay_hashes(path):
    r = replay("--hashes", path)
    return r, [(m.group(2), m.group(3)) for m in REPLAY_HASH.finditer(r.stdout)]


class Capture(HostedSuite):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.host = cls.start_host("shm", host_class=CaptureHost)
        cls.captured = {}

    def sessions_before(self):
        return set(os.listdir(self.host.captures))

    def capture_of(self, before):
        """The capture file of the program that just ran, and its session."""
        new = sorted(set(os.listdir(self.host.captures)) - before)
        # A capture is complete once its session has ended.
        for _ in range(200):
            if all(f"capture of session {self.session_of(n)}: " in self.host.read_log() for n in new):
                break
            time.sleep(0.1)
        self.assertTrue(new, "no capture was written:\n" + self.host.read_log())
        sized = max(new, key=lambda n: os.path.getsize(os.path.join(self.host.captures, n)))
        return os.path.join(self.host.captures, sized), self.session_of(sized)

    @staticmethod
    def session_of(name):
        return int(name.rsplit("-", 1)[1].split(".")[0])

    def run_for(self, argv, seconds):
        """A program that runs until stopped: stopped after `seconds`."""
        before = self.sessions_before()
        p = subprocess.Popen([CONDUIT, "run", "--host", self.host.address, "--", *argv], env=self.env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        time.sleep(seconds)
        p.send_signal(signal.SIGTERM)
        out, _ = p.communicate(timeout=30)
        return self.capture_of(before), out

    def test_a_compressed_socket_stream_replays_too(self):
        """Over unix: batches compressed with the connection's zstd history."""
        shm_host = self.host
        self.host = self.start_host("unix", host_class=CaptureHost)
        try:
            (path, session), _ = self.run_for(["es2gears_x11"], 3)
            self.assert_replays_live_frames(path, session, heap_reads=False)
        finally:
            self.host.stop()
            self.host = shm_host

    def run_to_end(self, argv):
        before = self.sessions_before()
        p = subprocess.run([CONDUIT, "run", "--host", self.host.address, "--", *argv], env=self.env,
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        return self.capture_of(before), p.stdout + p.stderr

    def assert_replays_live_frames(self, path, session, heap_reads=True):
        live = self.host.live_hashes(session)
        self.assertGreater(len(live), 5, self.host.read_log())
        for attempt in (1, 2):
            r, replayed = replay_hashes(path)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("all equal", r.stderr)
            # Over shm: the large data lay in the shared heap, and came from the capture.
            reads = int(re.search(r"(\d+) shared-heap reads", r.stderr).group(1))
            if heap_reads:
                self.assertGreater(reads, 0, r.stderr)
            self.assertEqual(replayed[:len(live)], live, f"replay {attempt} differs from the live frames")
            self.assertLessEqual(len(replayed) - len(live), TAIL_FRAMES)

    def es2gears(self):
        if "es2gears" not in self.captured:
            (path, session), _ = self.run_for(["es2gears_x11"], 4)
            self.captured["es2gears"] = (path, session)
        return self.captured["es2gears"]

    def test_es2gears_replays_the_frames_seen_live(self):
        self.assert_replays_live_frames(*self.es2gears())

    def test_glxgears_replays_the_frames_seen_live(self):
        (path, session), _ = self.run_for(["glxgears"], 3)
        self.assert_replays_live_frames(path, session, heap_reads=False)

    def test_glmark2_scenes_replay_the_frames_seen_live(self):
        (path, session), _ = self.run_to_end(["glmark2-es2", "-s", "320x240", "-b", "shading:duration=1",
                                              "-b", "texture:duration=1", "-b", "refract:duration=1"])
        self.assert_replays_live_frames(path, session)

    def test_vkcube_replays_the_frames_seen_live(self):
        (path, session), _ = self.run_to_end(["vkcube", "--c", "40"])
        self.assert_replays_live_frames(path, session)

    def test_a_frame_range_is_snapshot_as_png(self):
        path, _ = self.es2gears()
        shots = os.path.join(self.work, "shots")
        r = replay("--frames", "2-4", "--snapshot", shots, "--hashes", "--bench", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(os.listdir(shots)), ["frame-000002.png", "frame-000003.png", "frame-000004.png"])
        with open(os.path.join(shots, "frame-000003.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertEqual([int(m.group(1)) for m in REPLAY_HASH.finditer(r.stdout)], [2, 3, 4])
        self.assertRegex(r.stdout, r"bench: [0-9.]+ s host-side, \d+ commands/s")

    def test_a_truncated_capture_stops_where_it_ends(self):
        path, _ = self.es2gears()
        cut = os.path.join(self.work, "cut.cdcap")
        data = read(path)
        write(cut, data[:len(data) * 2 // 3])
        r = replay(cut)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertRegex(r.stderr, r"truncated.* at file byte \d+ .*stopped after frame \d+")

    def test_a_corrupted_capture_stops_where_it_breaks(self):
        path, _ = self.es2gears()
        bad = os.path.join(self.work, "bad.cdcap")
        data = bytearray(read(path))
        for i in range(len(data) // 2, len(data) // 2 + 64):
            data[i] ^= 0x5a
        write(bad, data)
        r = replay(bad)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertRegex(r.stderr, r"corrupted.* at file byte \d+ .*stopped after frame \d+")

    def test_another_protocol_version_is_refused(self):
        path, _ = self.es2gears()
        other = os.path.join(self.work, "other.cdcap")
        data = bytearray(read(path))
        data[12:16] = (99).to_bytes(4, "little")
        write(other, data)
        r = replay(other)
        self.assertEqual(r.returncode, 1)
        self.assertIn("captured with wire protocol version 99", r.stderr)

    def test_run_capture_writes_a_replayable_file(self):
        out = os.path.join(self.work, "run.cdcap")
        p = subprocess.run([CONDUIT, "run", "--capture", out, "--", "vkcube", "--c", "20"], env=self.env,
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        r = replay("--hashes", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreaterEqual(len(REPLAY_HASH.findall(r.stdout)), 15, r.stdout)
        self.assertIn("all equal", r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
