"""Child processes with their CPU time: rusage on exit, /proc samples on the way."""
import os
import signal
import subprocess
import threading
import time

_TICKS = os.sysconf("SC_CLK_TCK")


def _rusage_seconds(ru):
    return ru.ru_utime + ru.ru_stime


class Child:
    """A process in its own session, logging to a file, reaped with wait4."""

    def __init__(self, argv, log_path, env=None, cwd=None):
        self.argv = argv
        self.log_path = log_path
        with open(log_path, "ab") as log:
            self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, env=env, cwd=cwd,
                                         start_new_session=True)
        self.pid = self.proc.pid
        self.exit_code = None
        self.cpu_s = None

    def poll(self):
        """Reaps the child if it exited; True once it has."""
        if self.exit_code is not None:
            return True
        pid, status, ru = os.wait4(self.pid, os.WNOHANG)
        if pid == 0:
            return False
        self.exit_code = os.waitstatus_to_exitcode(status)
        self.cpu_s = _rusage_seconds(ru)  # includes its reaped descendants
        self.proc.returncode = self.exit_code
        return True

    def wait(self, timeout):
        """Waits up to `timeout` seconds, then kills the whole session."""
        deadline = time.monotonic() + timeout
        while not self.poll():
            if time.monotonic() > deadline:
                self.kill()
                return False
            time.sleep(0.02)
        return True

    def kill(self):
        for sig, grace in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(self.pid, sig)
            except ProcessLookupError:
                pass
            deadline = time.monotonic() + grace
            while not self.poll() and time.monotonic() < deadline:
                time.sleep(0.02)
            if self.exit_code is not None:
                return

    def output(self):
        with open(self.log_path, "r", errors="replace") as log:
            return log.read()


def read_stat(pid):
    """(ppid, comm, cpu seconds) of a process from /proc/PID/stat, or None."""
    try:
        with open(f"/proc/{pid}/stat", "r") as f:
            text = f.read()
    except OSError:
        return None
    # comm is in parentheses and may itself hold spaces or parentheses.
    comm = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    ppid = int(fields[1])
    utime, stime = int(fields[11]), int(fields[12])
    return ppid, comm, (utime + stime) / _TICKS


class TreeSampler:
    """Samples the CPU time of every descendant of a process while it runs.

    A descendant's time is known only up to the last sample before it exits;
    at 100 ms intervals that is close enough for seconds-long runs, and a scan
    of /proc (about 1 ms) costs the measured programs about 1% of a core.
    """

    def __init__(self, root_pid, interval=0.1):
        self.root_pid = root_pid
        self.interval = interval
        self.seen = {}  # pid -> (comm, cpu seconds at the latest sample)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self):
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.interval)

    def sample(self):
        parents = {}
        info = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                stat = read_stat(int(entry))
                if stat:
                    parents.setdefault(stat[0], []).append(int(entry))
                    info[int(entry)] = stat
        stack = list(parents.get(self.root_pid, []))
        while stack:
            pid = stack.pop()
            self.seen[pid] = (info[pid][1], info[pid][2])
            stack.extend(parents.get(pid, []))

    def stop(self):
        self._stop.set()
        self._thread.join()

    def cpu_of(self, predicate):
        """Summed CPU seconds of the sampled descendants whose comm matches."""
        return sum(cpu for comm, cpu in self.seen.values() if predicate(comm))
