"""How each mode runs one glmark2 scene: native, virgl and conduit."""
import fcntl
import os
import shutil
import subprocess
import time

from . import glmark, stats
from .procs import Child, TreeSampler

MODES = ("native", "virgl", "conduit")
# virgl carries OpenGL only: Vulkan programs run natively or through Conduit.
VK_MODES = ("native", "conduit")
RESULTS_NAME = "glmark2-results.csv"


class Job:
    """One scene in one mode: what to run and where its files go."""

    def __init__(self, config, scene, mode, rep, run_dir, env):
        self.config = config
        self.scene = scene
        self.mode = mode
        self.rep = rep
        self.run_dir = run_dir
        self.env = env
        os.makedirs(run_dir, exist_ok=True)
        self.log = os.path.join(run_dir, "guest.log")

    def glmark_argv(self):
        c = self.config
        # Relative, so it resolves in the run directory even where /tmp is remounted.
        return glmark.command(c.flavour, self.scene, c.duration, c.size, c.offscreen,
                              RESULTS_NAME, c.data_path, c.program)

    def timeout(self):
        return (self.config.duration or 10) * 3 + 90


def _finish(job, guest, ok):
    """The record of a finished run: FPS and CPU from the guest's output."""
    text = guest.output()
    record = {"scene": job.scene, "mode": job.mode, "rep": job.rep,
              "renderer": glmark.parse_renderer(text), "exit_code": guest.exit_code,
              "guest_cpu_s": guest.cpu_s, "host_cpu_s": None, "fps": None,
              "frame_time_ms": None, "guest_cpu_ms_per_frame": None,
              "bytes_raw_per_frame": None, "bytes_wire_per_frame": None,
              "round_trips_per_frame": None, "error": None, "log": job.log}
    results = []
    csv_path = os.path.join(job.run_dir, RESULTS_NAME)
    if os.path.exists(csv_path):
        with open(csv_path, "r", errors="replace") as f:
            results = glmark.parse_results_csv(f.read())
    if not results:
        results = glmark.parse_stdout(text)
    if not ok:
        record["error"] = f"timed out after {job.timeout():.0f} s"
    elif guest.exit_code != 0:
        record["error"] = f"exited with status {guest.exit_code}"
    elif not results:
        record["error"] = "no result in glmark2's output"
    if results and not record["error"]:
        record.update(results[0])
    if record["error"]:
        tail = text.strip().splitlines()[-5:]
        record["error"] += ": " + " | ".join(tail) if tail else ""
    return record, text


def run_native(job):
    guest = Child(job.glmark_argv(), job.log, env=job.env, cwd=job.run_dir)
    ok = guest.wait(job.timeout())
    record, _ = _finish(job, guest, ok)
    return record


def run_conduit(job):
    env = dict(job.env, CONDUIT_STATS="1")
    argv = [job.config.conduit, "run", "--"] + job.glmark_argv()
    guest = Child(argv, job.log, env=env, cwd=job.run_dir)
    sampler = TreeSampler(guest.pid)
    ok = guest.wait(job.timeout())
    sampler.stop()
    record, text = _finish(job, guest, ok)
    counters = stats.parse_conduit_stats(text)
    # Everything below `conduit run` that is not the program is the host side.
    # (A process's comm is its name's first 15 characters.)
    program = os.path.basename(job.config.program)[:15]
    host_cpu = sampler.cpu_of(lambda comm: not comm.startswith(program))
    if counters and "host_cpu_ms" in counters:
        host_cpu = counters["host_cpu_ms"] / 1000.0
    record["host_cpu_s"] = host_cpu
    if guest.cpu_s is not None:
        record["guest_cpu_s"] = max(guest.cpu_s - host_cpu, 0.0)
    frames = None
    if record["fps"] and job.config.duration:
        frames = record["fps"] * job.config.duration
    record.update(stats.per_frame(counters, frames))
    record["conduit_stats"] = counters
    return record


# --- virgl ------------------------------------------------------------------

# Mesa's virpipe connects to a fixed path, /tmp/.virgl_test. To keep each run's
# server private, the client runs in its own mount namespace where /tmp is the
# run's directory (with the X11 socket directory bound back in).
_NS_SCRIPT = ('mount --bind /tmp/.X11-unix "$1/.X11-unix" && mount --rbind "$1" /tmp '
              '&& shift && exec "$@"')
VIRGL_FIXED_SOCKET = "/tmp/.virgl_test"
_namespace_prefix = None


def namespace_prefix():
    """The `unshare` prefix that gives a private mount namespace, or [] if none works."""
    global _namespace_prefix
    if _namespace_prefix is None:
        _namespace_prefix = []
        if shutil.which("unshare"):
            candidates = [["unshare", "--mount", "--propagation", "private"]]
            if os.geteuid() != 0:
                candidates.insert(0, ["unshare", "--user", "--map-root-user", "--mount",
                                      "--propagation", "private"])
            for prefix in candidates:
                probe = subprocess.run(prefix + ["sh", "-c", "mount --bind / /mnt 2>/dev/null "
                                                 "|| mount -t tmpfs none /mnt"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                if probe.returncode == 0:
                    _namespace_prefix = prefix
                    break
    return _namespace_prefix


def _wait_for_socket(path, server, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return True
        if server.poll():
            return False
        time.sleep(0.02)
    return False


def run_virgl(job):
    env = dict(job.env, GALLIUM_DRIVER="virpipe", LIBGL_ALWAYS_SOFTWARE="1")
    prefix = namespace_prefix()
    lock = None
    if prefix:
        root = os.path.join(job.run_dir, "tmp")
        os.makedirs(os.path.join(root, ".X11-unix"), exist_ok=True)
        socket_path = os.path.join(root, ".virgl_test")
        argv = prefix + ["sh", "-c", _NS_SCRIPT, "sh", root] + job.glmark_argv()
    else:
        # No namespaces here: share the fixed path, one bench at a time.
        lock = open(VIRGL_FIXED_SOCKET + ".lock", "w")
        fcntl.flock(lock, fcntl.LOCK_EX)
        socket_path = VIRGL_FIXED_SOCKET
        argv = job.glmark_argv()
    try:
        if os.path.exists(socket_path):
            os.unlink(socket_path)
        # One client, then exit: the server's whole CPU time comes back with wait4.
        server = Child(["virgl_test_server", "--no-loop-or-fork", "--use-egl-surfaceless",
                        f"--socket-path={socket_path}"],
                       os.path.join(job.run_dir, "virgl-server.log"), env=job.env)
        if not _wait_for_socket(socket_path, server):
            server.kill()
            return _server_failure(job, server)
        guest = Child(argv, job.log, env=env, cwd=job.run_dir)
        ok = guest.wait(job.timeout())
        if not server.wait(15.0):
            server.kill()
        record, _ = _finish(job, guest, ok)
        record["host_cpu_s"] = server.cpu_s
        return record
    finally:
        if lock:
            fcntl.flock(lock, fcntl.LOCK_UN)
            lock.close()


def _server_failure(job, server):
    tail = " | ".join(server.output().strip().splitlines()[-5:])
    return {"scene": job.scene, "mode": job.mode, "rep": job.rep, "fps": None,
            "error": f"virgl_test_server did not start: {tail}", "log": server.log_path}


RUNNERS = {"native": run_native, "virgl": run_virgl, "conduit": run_conduit}
