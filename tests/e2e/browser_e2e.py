#!/usr/bin/python3
"""WebGL 2 in Chromium through Conduit, on each of ANGLE's OpenGL back-ends
(desktop GL through GLX, OpenGL ES through EGL, desktop GL through EGL),
over a unix socket and over shared memory. A page compiles a shader, draws
a full-window gradient, reads every pixel back and prints a checksum; the
checksum and a capture of the browser's window (composited by the GPU
process through Conduit too) must match the native run's.

usage: browser_e2e.py CONDUIT_EXE [unittest args]
"""
import os
import subprocess
import sys
import time
import unittest

from host_support import HostedSuite
from x11_support import MAX_DIFFERENT_PIXELS, capture, conduit_problems, differing_share, window_id

BACKENDS = ("gl", "gles", "gl-egl")
TITLE = "conduit-webgl"
PAGE = """<!doctype html><html><head><title>%s</title></head>
<body style="margin:0;background:#fff"><canvas id=c width=256 height=256></canvas><script>
function run() {
  const gl = document.getElementById('c').getContext('webgl2', {preserveDrawingBuffer: true});
  if (!gl) return 'no WebGL 2';
  const vs = `#version 300 es
  in vec2 p; out vec2 uv; void main() { uv = p * 0.5 + 0.5; gl_Position = vec4(p, 0, 1); }`;
  const fs = `#version 300 es
  precision highp float; in vec2 uv; uniform float k; out vec4 o;
  void main() { o = vec4(uv.x, uv.y, k, 1.0); }`;
  function shader(type, text) {
    const s = gl.createShader(type); gl.shaderSource(s, text); gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw gl.getShaderInfoLog(s);
    return s;
  }
  const prog = gl.createProgram();
  gl.attachShader(prog, shader(gl.VERTEX_SHADER, vs)); gl.attachShader(prog, shader(gl.FRAGMENT_SHADER, fs));
  gl.linkProgram(prog);
  if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) return 'link: ' + gl.getProgramInfoLog(prog);
  gl.useProgram(prog);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  gl.uniform1f(gl.getUniformLocation(prog, 'k'), 0.5);
  gl.clearColor(0, 0, 0, 1); gl.clear(gl.COLOR_BUFFER_BIT); gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  const px = new Uint8Array(256 * 256 * 4);
  gl.readPixels(0, 0, 256, 256, gl.RGBA, gl.UNSIGNED_BYTE, px);
  let sum = 0;
  for (let i = 0; i < px.length; i++) sum = (sum * 31 + px[i]) >>> 0;
  return 'checksum ' + sum + ' error ' + gl.getError();
}
let result;
try { result = run(); } catch (e) { result = 'exception ' + e; }
console.log('WEBGL ' + result);
</script></body></html>
""" % TITLE
# Chromium takes a few seconds to start on a busy 2-core machine.
PAGE_SECONDS = 90


class Suite(HostedSuite):

    TRANSPORTS = ("unix", "shm")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.page = os.path.join(cls.work, "webgl.html")
        with open(cls.page, "w") as f:
            f.write(PAGE)
        cls.native = {backend: cls.browse(backend, "native", []) for backend in BACKENDS}

    @classmethod
    def browse(cls, backend, label, prefix):
        """Opens the page in Chromium (through `prefix`, e.g. `conduit run`)
        and returns the page's result line, a capture of the window and
        what the browser printed."""
        name = f"{backend}-{label}"
        cmd = prefix + ["chromium", "--no-sandbox", "--test-type", "--no-first-run", "--disable-gpu-sandbox",
                        "--use-gl=angle", "--use-angle=" + backend, "--ignore-gpu-blocklist",
                        "--enable-logging=stderr", "--v=0", "--window-position=0,0", "--window-size=400,320",
                        "--user-data-dir=" + os.path.join(cls.work, "profile-" + name),
                        "--app=file://" + cls.page]
        log_path = os.path.join(cls.work, name + ".log")
        with open(log_path, "w") as log:
            proc = subprocess.Popen(cmd, env=cls.env, stdout=log, stderr=subprocess.STDOUT)
        try:
            result = cls.wait_for_result(log_path, proc)
            png = None
            wid = window_id(cls.env["DISPLAY"], TITLE, timeout=10) if result else None
            if wid:
                time.sleep(1.0)  # the window's first frames after the page's
                png = capture(cls.env["DISPLAY"], wid, os.path.join(cls.work, name))
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        with open(log_path) as f:
            return result, png, f.read()

    @staticmethod
    def wait_for_result(log_path, proc):
        deadline = time.time() + PAGE_SECONDS
        while time.time() < deadline and proc.poll() is None:
            with open(log_path) as f:
                for line in f:
                    if '"WEBGL ' in line:
                        return line.split('"WEBGL ', 1)[1].split('"', 1)[0]
            time.sleep(0.2)
        return None

    def check_backend(self, backend):
        native, native_png, native_log = self.native[backend]
        self.assertIsNotNone(native, f"native Chromium gave no WebGL result on ANGLE {backend}:\n{native_log[-3000:]}")
        self.assertTrue(native.startswith("checksum ") and native.endswith(" error 0"), native)
        for transport, host in self.hosts.items():
            with self.subTest(transport=transport):
                before = host.stats()
                result, png, log = self.browse(backend, transport,
                                               [self.CONDUIT, "run", "--host", host.address, "--"])
                self.assertEqual(result, native, f"ANGLE {backend} over {transport}:\n{log[-3000:]}")
                self.assertNotIn("BadMatch", log)
                self.assertEqual(conduit_problems(log), [])
                after = host.stats()
                self.assertGreater(after["total"]["frames"], before["total"]["frames"],
                                   "the browser's frames did not come through the host")
                self.assertEqual(after["total"]["contexts_lost"], 0)
                self.assertEqual(after["renderers"]["crashed"], 0)
                self.assertIsNotNone(png, "no window to capture")
                self.assertLessEqual(differing_share(png, native_png), MAX_DIFFERENT_PIXELS)

    def test_webgl_on_angle_desktop_gl_through_glx(self):
        self.check_backend("gl")

    def test_webgl_on_angle_gles_through_egl(self):
        self.check_backend("gles")

    def test_webgl_on_angle_desktop_gl_through_egl(self):
        self.check_backend("gl-egl")


if __name__ == "__main__":
    HostedSuite.CONDUIT = sys.argv[1]
    unittest.main(argv=[sys.argv[0]] + sys.argv[2:], verbosity=2)
