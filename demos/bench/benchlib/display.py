"""An Xvfb server for runs that have no DISPLAY."""
import os
import subprocess


class Xvfb:
    def __init__(self, width, height, log_path):
        read_fd, write_fd = os.pipe()
        screen = f"{max(width, 1280)}x{max(height, 1024)}x24"
        with open(log_path, "ab") as log:
            # -displayfd lets the server pick a free display and tell us which.
            self.proc = subprocess.Popen(
                ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", screen,
                 "-nolisten", "tcp", "-noreset"],
                stdout=log, stderr=subprocess.STDOUT, pass_fds=(write_fd,),
                start_new_session=True)
        os.close(write_fd)
        with os.fdopen(read_fd, "r") as pipe:
            number = pipe.readline().strip()
        if not number:
            self.stop()
            raise RuntimeError(f"Xvfb did not start; see {log_path}")
        self.display = f":{number}"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
