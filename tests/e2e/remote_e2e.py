#!/usr/bin/python3
"""Remote viewers: `conduit host --vnc` watched by vncsnapshot, by `conduit
view` and by noVNC in a real browser (Debian's chromium, headless, driven
through chromedriver). Each sees the guest program's own picture; a click
and a key from the browser page reach the program in the guest; a password
is asked for when one is set, and without one only loopback is served;
noVNC's WebSocket works over TLS.

usage: remote_e2e.py CONDUIT_EXE INPUT_PROBE [unittest args]
"""
import base64
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from viewer_support import ViewerHost, find_picture, pixels, wait_line
from x11_support import MAX_DIFFERENT_PIXELS, Xvfb, capture, window_id

CONDUIT = INPUT_PROBE = None
COUNTER_ROWS = 8  # input_probe's frame counter changes every frame
# Slow enough that the picture is still between frames, so that lossy
# (JPEG) updates are followed by a lossless refresh.
PROBE_FPS = "2"


def vnc_address(host):
    """HOST:PORT the host's RFB server took (it was asked for port 0)."""
    return host.wait_log(r"vnc: (\S+:\d+): the picture for VNC viewers").group(1)


class RemoteSuite(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="conduit-remote-e2e-")
        cls.xvfb = Xvfb("1280x1024x24")
        cls.host = ViewerHost(CONDUIT, cls.work, cls.xvfb.display, ["--vnc", "127.0.0.1:0"])
        cls.address = vnc_address(cls.host)
        cls.port = cls.address.rsplit(":", 1)[1]
        cls.probe = cls.host.guest([INPUT_PROBE, "--fps", PROBE_FPS])
        wait_line(cls.probe, r"^ready window=", timeout=60)

    @classmethod
    def tearDownClass(cls):
        cls.probe.stop()
        cls.host.stop()
        cls.xvfb.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def host_state(self):
        """Whether the host still runs, and the end of its log."""
        code = self.host.proc.poll()
        return (f"\nhost: {'running' if code is None else f'ended with {code}'}; its log ends:\n" +
                "\n".join(self.host.read_log().splitlines()[-20:]))

    def guest_picture(self):
        wid = window_id(self.xvfb.display, "input-probe")
        return pixels(capture(self.xvfb.display, wid, os.path.join(self.work, "probe-guest")))

    def until_shown(self, take, name):
        """Takes a viewer's picture (`take(path)`) until the guest's own
        picture is found in it; returns where and how well it matched."""
        deadline = time.time() + 30
        while True:
            guest = self.guest_picture()
            shown = take(os.path.join(self.work, name))
            found = find_picture(pixels(shown), guest, COUNTER_ROWS)
            if found[2] <= MAX_DIFFERENT_PIXELS or time.time() > deadline:
                return found
            time.sleep(0.5)

    def vncsnapshot(self, path):
        out = path + ".jpg"  # vncsnapshot writes JPEG; at quality 100 near lossless
        subprocess.run(["vncsnapshot", "-quiet", "-nojpeg", "-encodings", "raw", "-quality", "100",
                        "127.0.0.1::" + self.port, out], check=True, timeout=30,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return out

    def test_a_vncsnapshot_gets_the_guest_frame(self):
        _, _, share = self.until_shown(self.vncsnapshot, "vncsnapshot")
        self.assertLessEqual(share, MAX_DIFFERENT_PIXELS)
        self.assertEqual(self.host.errors(), [])

    def test_b_browser_shows_the_frame_and_drives_the_guest(self):
        browser = Browser(self.work)
        try:
            browser.open(f"http://127.0.0.1:{self.port}/vnc.html?autoconnect=true&resize=off"
                         f"&host=127.0.0.1&port={self.port}")
            x, y, share = self.until_shown(browser.canvas_png, "browser")
            self.assertLessEqual(share, MAX_DIFFERENT_PIXELS, browser.log())
            seen = len(self.probe.lines)
            browser.click(x + 100, y + 60)
            press = wait_line(self.probe, r"^button press button=1 x=(\d+) y=(\d+)", after=seen)
            self.assertLessEqual(abs(int(press.group(1)) - 100), 1, press.group(0))
            self.assertLessEqual(abs(int(press.group(2)) - 60), 1, press.group(0))
            browser.type("a")
            wait_line(self.probe, r"^key press keysym=0x61 ", after=seen)
        finally:
            browser.quit()
        self.assertEqual(self.host.errors(), [])
        self.assertIsNone(self.host.proc.poll(), "the browser's leaving ended the host" + self.host_state())

    def test_c_native_viewer_shows_the_frame(self):
        viewer = subprocess.Popen([CONDUIT, "view", self.address], env=dict(os.environ, DISPLAY=self.xvfb.display),
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            wid = window_id(self.xvfb.display, "Conduit - " + self.address, timeout=60,
                            alive=lambda: viewer.poll() is None)
            if wid is None:
                viewer.terminate()
                self.fail("conduit view opened no window: " + viewer.communicate(timeout=10)[0] +
                          self.host_state())
            _, _, share = self.until_shown(lambda path: capture(self.xvfb.display, wid, path), "view")
            self.assertLessEqual(share, MAX_DIFFERENT_PIXELS)
        finally:
            viewer.terminate()
            viewer.communicate(timeout=20)


class PasswordSuite(unittest.TestCase):
    """Hosts of their own: the address and password rules."""

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="conduit-remote-pw-")
        self.xvfb = Xvfb("640x480x24")

    def tearDown(self):
        self.xvfb.stop()
        shutil.rmtree(self.work, ignore_errors=True)

    def secret(self, name, text):
        path = os.path.join(self.work, name)
        with open(path, "w") as f:
            f.write(text + "\n")
        os.chmod(path, 0o600)
        return path

    def view(self, address, password_file=None):
        argv = [CONDUIT, "view", address] + (["--password-file", password_file] if password_file else [])
        return subprocess.run(argv, env=dict(os.environ, DISPLAY=self.xvfb.display), capture_output=True,
                              text=True, timeout=30)

    def test_without_a_password_only_loopback_is_served(self):
        run = subprocess.run([CONDUIT, "host", "--listen", "unix:" + os.path.join(self.work, "h.sock"),
                              "--vnc", "0.0.0.0:0"], capture_output=True, text=True, timeout=60)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("needs --vnc-password-file", run.stderr)

    def test_a_wrong_password_is_refused(self):
        host = ViewerHost(CONDUIT, self.work, self.xvfb.display,
                          ["--vnc", "0.0.0.0:0", "--vnc-password-file", self.secret("pw", "s3cret-pw")])
        try:
            port = vnc_address(host).rsplit(":", 1)[1]
            address = "127.0.0.1:" + port
            missing = self.view(address)
            self.assertNotEqual(missing.returncode, 0)
            self.assertIn("asks for a password", missing.stderr)
            wrong = self.view(address, self.secret("wrong", "guessing"))
            self.assertNotEqual(wrong.returncode, 0)
            self.assertIn("cannot connect", wrong.stderr)
        finally:
            host.stop()


class TlsSuite(unittest.TestCase):
    """--vnc-cert and --vnc-key: noVNC's WebSocket over TLS (wss://)."""

    def test_websocket_over_tls_speaks_rfb(self):
        import socket
        import ssl
        work = tempfile.mkdtemp(prefix="conduit-remote-tls-")
        xvfb = Xvfb("640x480x24")
        cert, key = os.path.join(work, "cert.pem"), os.path.join(work, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                        "-subj", "/CN=localhost", "-keyout", key, "-out", cert], check=True,
                       capture_output=True)
        os.chmod(key, 0o600)
        host = ViewerHost(CONDUIT, work, xvfb.display,
                          ["--vnc", "127.0.0.1:0", "--vnc-cert", cert, "--vnc-key", key])
        try:
            address = vnc_address(host)
            context = ssl.create_default_context(cafile=cert)
            context.check_hostname = False  # the certificate names localhost
            port = int(address.rsplit(":", 1)[1])
            with context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10),
                                     server_hostname="localhost") as tls:
                tls.sendall(("GET /websockify HTTP/1.1\r\nHost: " + address + "\r\nUpgrade: websocket\r\n"
                             "Connection: Upgrade\r\nOrigin: https://" + address + "\r\n"
                             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                             "Sec-WebSocket-Protocol: binary\r\n\r\n").encode())
                reply = b""
                while not reply.endswith(b"\r\n\r\n"):
                    reply += tls.recv(1)
                self.assertTrue(reply.startswith(b"HTTP/1.1 101"), reply)
                frame = b""
                while len(frame) < 14:
                    frame += tls.recv(14 - len(frame))
                self.assertEqual(frame, b"\x82\x0cRFB 003.008\n")  # a binary frame: the RFB greeting
        finally:
            host.stop()
            xvfb.stop()
            shutil.rmtree(work, ignore_errors=True)


class Browser:
    """Headless chromium through chromedriver, with noVNC's page."""

    def __init__(self, work):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--window-size=1200,900", "--user-data-dir=" + os.path.join(work, "chromium")):
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)

    def open(self, url):
        self.driver.get(url)
        deadline = time.time() + 30
        while time.time() < deadline:
            state = self.driver.execute_script(
                "const s = document.getElementById('noVNC_status');"
                "return document.documentElement.classList.contains('noVNC_connected') ? 'connected'"
                " : (s ? s.textContent : '');")
            if state == "connected":
                return
            time.sleep(0.2)
        raise AssertionError("noVNC never connected: " + str(state) + "\n" + self.log())

    def canvas(self):
        from selenium.webdriver.common.by import By
        return self.driver.find_element(By.CSS_SELECTOR, "#noVNC_container canvas")

    def canvas_png(self, path):
        data = self.driver.execute_script("return arguments[0].toDataURL('image/png');", self.canvas())
        with open(path + ".png", "wb") as f:
            f.write(base64.b64decode(data.split(",", 1)[1]))
        return path + ".png"

    def click(self, x, y):
        """A left click at canvas pixel (x, y)."""
        from selenium.webdriver.common.action_chains import ActionChains
        canvas = self.canvas()
        size = canvas.size  # shown 1:1 (resize=off)
        ActionChains(self.driver).move_to_element_with_offset(
            canvas, x - size["width"] // 2, y - size["height"] // 2).click().perform()

    def type(self, text):
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).send_keys(text).perform()

    def log(self):
        try:
            return "\n".join(str(e) for e in self.driver.get_log("browser"))
        except Exception as e:  # the log is for failure messages only
            return f"(no browser log: {e})"

    def quit(self):
        self.driver.quit()


if __name__ == "__main__":
    CONDUIT, INPUT_PROBE = sys.argv[1:3]
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
