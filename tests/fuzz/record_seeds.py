#!/usr/bin/env python3
"""Records real programs' command streams through Conduit (CONDUIT_CAPTURE)
and turns them into seeds for the fuzz targets. With gfxreconstruct
installed (Debian's gfxreconstruct), vkcube is also captured natively and the
capture replayed through Conduit with gfxrecon-replay, a Vulkan stream of
another program's making.

  record_seeds.py record CONDUIT_EXE CAPTURE_DIR   run the programs, keep their batches
  record_seeds.py convert CAPTURE_DIR CORPUS_DIR    one seed per recorded connection

A seed is one batch of commands as fuzz_session runs it after its prelude
(surface 1; context 1 GLES, context 2 desktop GL compatibility): the
recording's GL and Vulkan commands in order (Vulkan needs no prelude: its
objects are the stream's own), its make-current and swap commands pointed at
those objects, its other control commands left out. Seeds are cut at a
command boundary before --max-bytes; commands larger than --max-command (big
texture uploads) are left out, since libFuzzer inputs are kept small.
"""
import argparse
import glob
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from x11_support import Xvfb  # noqa: E402

# wire/control.h
HELLO, CREATE_CONTEXT, MAKE_CURRENT, SWAP_BUFFERS, SYNC = 1, 2, 4, 8, 9
API_GLES = 1
FIRST_GL_OPCODE = 1024
FIRST_VK_OPCODE = 65536  # wire/format.h

GLMARK2_SCENES = ["build:use-vbo=true", "texture:texture-filter=linear", "shading:shading=phong",
                  "effect2d:kernel=0,1,0;1,-4,1;0,1,0;", "pulsar:quads=5", "refract", "terrain"]
VKBENCH_SCENES = ["draws:draws=20", "texture:size=32", "compute:elements=4096", "rtt"]
WINDOWED_SECONDS = 3


def programs(conduit):
    """(argv, ends by itself) of each recorded program, in seed order."""
    vkbench = os.path.join(os.path.dirname(os.path.abspath(conduit)), "..", "demos", "vkbench", "conduit-vkbench")
    return ([(["glmark2-es2", "--off-screen", "-s", "64x64", "-b", f"{s}:duration=0.5"], True) for s in GLMARK2_SCENES]
            + [(["es2gears_x11"], False), (["glxgears"], False), (["vkcube", "--c", "3"], True)]
            + [([vkbench, "--off-screen", "-s", "64x64", "-b", f"{s}:duration=0.1"], True) for s in VKBENCH_SCENES])


def gfxreconstruct_replay(work, display):
    """(argv, ends by itself) replaying a native capture of vkcube, or None
    without gfxreconstruct."""
    capture = shutil.which("gfxrecon-capture-vulkan.py")
    if not capture or not shutil.which("gfxrecon-replay"):
        return None
    out = os.path.join(work, "vkcube.gfxr")
    env = dict(os.environ, DISPLAY=display)
    subprocess.run([capture, "-o", out, "vkcube", "--c", "3"], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=120)
    # The layer stamps the file name with the time of capture.
    made = sorted(glob.glob(os.path.join(work, "vkcube*.gfxr")))
    return (["gfxrecon-replay", made[-1]], True) if made else None


def record(conduit, capture_dir):
    os.makedirs(capture_dir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="conduit-record-")
    xvfb = Xvfb()
    sock = f"unix:{work}/host.sock"
    # A unix-socket host: every payload travels inline, so the capture holds it.
    host = subprocess.Popen([conduit, "host", "--listen", sock], stderr=subprocess.DEVNULL)
    try:
        time.sleep(1)
        recorded = programs(conduit)
        replay = gfxreconstruct_replay(work, xvfb.display)
        if replay:
            recorded.append(replay)
        for i, (argv, ends) in enumerate(recorded):
            out = os.path.join(capture_dir, f"{i:02d}-{os.path.basename(argv[0])}")
            os.makedirs(out, exist_ok=True)
            env = dict(os.environ, DISPLAY=xvfb.display, CONDUIT_CAPTURE=out)
            proc = subprocess.Popen([conduit, "run", "--host", sock, "--"] + argv, env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                proc.wait(timeout=None if ends else WINDOWED_SECONDS)
            except subprocess.TimeoutExpired:
                proc.terminate()
                proc.wait(10)
            print(f"{' '.join(argv)}: {len(os.listdir(out))} batches")
    finally:
        host.terminate()
        host.wait(10)
        xvfb.stop()
        shutil.rmtree(work, ignore_errors=True)


def commands(data):
    at = 0
    while len(data) - at >= 8:
        opcode, size = struct.unpack_from("<II", data, at)
        if size < 8 or size % 4 or size > len(data) - at:
            return
        yield opcode, data[at:at + size]
        at += size


def command(opcode, *fields):
    return struct.pack("<II", opcode, 8 + 4 * len(fields)) + struct.pack(f"<{len(fields)}I", *fields)


def convert_connection(batches, max_bytes, max_command):
    apis = {}  # recorded context id -> Api
    out = bytearray()
    for path in batches:
        with open(path, "rb") as f:
            data = f.read()
        for opcode, cmd in commands(data):
            if opcode == CREATE_CONTEXT:
                ctx, _, api = struct.unpack_from("<III", cmd, 8)
                apis[ctx] = api
                continue
            if opcode == MAKE_CURRENT:
                ctx = struct.unpack_from("<I", cmd, 8)[0]
                fuzz_ctx = 0 if ctx == 0 else (1 if apis.get(ctx) == API_GLES else 2)
                cmd = command(MAKE_CURRENT, fuzz_ctx, 1 if ctx else 0, 1 if ctx else 0)
            elif opcode == SWAP_BUFFERS:
                cmd = command(SWAP_BUFFERS, 1, struct.unpack_from("<I", cmd, 12)[0])
            elif opcode < FIRST_GL_OPCODE and opcode != SYNC:  # Vulkan commands are kept as they are
                continue
            if len(cmd) > max_command:
                continue
            if len(out) + len(cmd) > max_bytes:
                return bytes(out)
            out += cmd
    return bytes(out)


def convert(capture_dir, corpus_dir, max_bytes, max_command):
    os.makedirs(corpus_dir, exist_ok=True)
    written = 0
    for program in sorted(os.listdir(capture_dir)):
        files = sorted(glob.glob(os.path.join(capture_dir, program, "*.bin")))
        connections = sorted({os.path.basename(f).rsplit("-", 1)[0] for f in files})
        for n, conn in enumerate(connections):
            batches = [f for f in files if os.path.basename(f).rsplit("-", 1)[0] == conn]
            seed = convert_connection(batches, max_bytes, max_command)
            if not any(op >= FIRST_GL_OPCODE for op, _ in commands(seed)):
                continue
            name = f"{program}-{n}.bin"
            with open(os.path.join(corpus_dir, name), "wb") as f:
                f.write(seed)
            written += 1
            print(f"{name}: {len(seed)} bytes from {len(batches)} batches")
    print(f"{written} seeds in {corpus_dir}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("record")
    r.add_argument("conduit")
    r.add_argument("capture_dir")
    c = sub.add_parser("convert")
    c.add_argument("capture_dir")
    c.add_argument("corpus_dir")
    c.add_argument("--max-bytes", type=int, default=48 * 1024)
    c.add_argument("--max-command", type=int, default=16 * 1024)
    args = ap.parse_args()
    if args.what == "record":
        record(args.conduit, args.capture_dir)
    else:
        convert(args.capture_dir, args.corpus_dir, args.max_bytes, args.max_command)


if __name__ == "__main__":
    main()
