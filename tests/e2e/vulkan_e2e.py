#!/usr/bin/python3
"""vulkaninfo through Conduit's Vulkan ICD, compared with vulkaninfo run on
the machine's own driver: the device it shows, and every property and
feature structure Conduit carries, are the driver's, over a unix socket,
over shared-memory rings and through the private host of `conduit run`.
vkcube and vkcubepp draw their frames through Conduit into their windows,
and vkcube's last frame equals native's, its steady frames without a round
trip; conduit-vkbench's scenes run off-screen. Each run asserts it went through
Conduit: the host counts its commands and loses nothing.

usage: vulkan_e2e.py CONDUIT_EXE LAST_FRAME_EXE VKBENCH_EXE [unittest args]
"""
import os
import re
import subprocess
import sys
import time
import tomllib
import unittest

from host_support import Host, HostedSuite
from viewer_support import ViewerHost, pixels
from x11_support import MAX_DIFFERENT_PIXELS, differing_share, last_frame

CONDUIT = None
LAST_FRAME = None
VKBENCH = None
INVALID_DEVICE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vk_invalid_device.py")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# How vulkaninfo prints driver ID 0, no registered driver (docs/vulkan.md, "Identity").
CONDUIT_DRIVER_ID = "UNKNOWN_VkDriverId_value0"
# The extensions the guest ICD offers of its own, beside the host's.
GUEST_OWN = {"VK_EXT_headless_surface"}
# What vulkaninfo prints that is not the device's: the loader's own notes.
NOISE = re.compile(r"^(error: XDG_RUNTIME_DIR|WARNING: \[Loader|ERROR: \[Loader)")




def run(cmd, env, timeout=120):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=timeout)
    lines = [line for line in p.stdout.splitlines() if not NOISE.match(line)]
    return p.returncode, lines


def section(lines, start):
    """Lines from the one equal to `start` up to the next blank line."""
    if start not in lines:
        return None
    at = lines.index(start)
    end = next((i for i in range(at, len(lines)) if not lines[i].strip()), len(lines))
    return lines[at:end]


def conduit_version():
    with open(os.path.join(ROOT, "meson.build")) as f:
        return re.search(r"version\s*:\s*'([^']+)'", f.read()).group(1)


def as_conduit_says(lines):
    """vulkaninfo's native lines as Conduit shows them (docs/vulkan.md,
    "Identity"): Conduit's device name and driver around the host's, no
    conformance claimed, no driver ID registered, and no null descriptors,
    which the host refuses."""
    out, driver_name, conformance = [], "", 0
    for line in lines:
        m = re.match(r"(\s*(\w+)\s*=\s*)(.*)$", line)
        key, value = (m.group(2), m.group(3)) if m else ("", "")
        if key == "deviceName":
            line = m.group(1) + f"Conduit ({value})"
        elif key == "driverID":
            line = m.group(1) + CONDUIT_DRIVER_ID
        elif key == "driverName":
            driver_name, line = value, m.group(1) + "Conduit"
        elif key == "driverInfo":
            line = m.group(1) + f"Conduit {conduit_version()} on {driver_name} {value}"
        elif key == "conformanceVersion":
            line = m.group(1) + "0.0.0.0"
        elif key in ("major", "minor", "subminor", "patch") and conformance:
            line = m.group(1) + "0"
        elif key == "nullDescriptor":
            line = m.group(1) + "false"
        conformance = 4 if line.strip() == "conformanceVersion:" else max(conformance - 1, 0)
        out.append(line)
    return out


def extensions(lines):
    """The instance's and the first device's extensions vulkaninfo lists."""
    found, where = {"instance": set(), "device": set()}, None
    for line in lines:
        if line.startswith("Instance Extensions:"):
            where = "instance"
        elif line.strip().startswith("Device Extensions:"):
            where = "device" if not found["device"] else None
        elif where and re.match(r"\s*VK_\w+\s*: extension revision", line):
            found[where].add(line.split()[0])
        elif where and not line.strip():
            where = None if found[where] else where
    return found


def not_carried():
    with open(os.path.join(ROOT, "wire-protocol", "vk-annotations.toml"), "rb") as f:
        return tomllib.load(f)["not_carried"]


def device_structures(lines):
    """vulkaninfo's per-device structure sections, by their title."""
    titles = [line for line in lines if re.fullmatch(r"VkPhysicalDevice\w+:", line.strip())]
    return {t.strip(): section(lines, t) for t in titles}


class Suite(HostedSuite):

    TRANSPORTS = ("unix", "shm")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        rc, cls.native_summary = run(["vulkaninfo", "--summary"], cls.env)
        assert rc == 0, "\n".join(cls.native_summary)
        rc, cls.native_full = run(["vulkaninfo"], cls.env)
        assert rc == 0

    def through(self, args, host=None):
        cmd = [CONDUIT, "run"] + (["--host", host.address] if host else []) + ["--"] + args
        rc, lines = run(cmd, self.env)
        self.assertEqual(rc, 0, "\n".join(lines[-30:]))
        return lines

    def assert_same_device(self, lines):
        native = section(self.native_summary, "GPU0:")
        self.assertIsNotNone(native)
        self.assertEqual(section(lines, "GPU0:"), as_conduit_says(native))

    def check_host(self, transport, args):
        """Runs through one of the hosts; the program's lines and how the
        host's counters moved."""
        host = self.hosts[transport]
        before = host.stats()["total"]
        lines = self.through(args, host)
        # The program's renderer folds its counters in when its session has ended.
        for _ in range(200):
            stats = host.stats()
            after = stats["total"]
            if after["commands"] > before["commands"] and stats["sessions_live"] == 0:
                break
            time.sleep(0.05)
        self.assertGreater(after["commands"], before["commands"], "the program did not go through Conduit")
        self.assertEqual(after["contexts_lost"], before["contexts_lost"])
        self.assertNotIn("context lost", host.read_log())
        return lines, {k: after[k] - before[k] for k in ("commands", "round_trips", "frames", "shared_allocations")}

    def test_summary_shows_the_host_device(self):
        for transport in self.hosts:
            with self.subTest(transport=transport):
                self.assert_same_device(self.check_host(transport, ["vulkaninfo", "--summary"])[0])

    def test_summary_through_the_private_host(self):
        self.assert_same_device(self.through(["vulkaninfo", "--summary"]))

    def test_every_carried_structure_is_the_drivers(self):
        native = device_structures(as_conduit_says(self.native_full))
        for transport in self.hosts:
            with self.subTest(transport=transport):
                carried = device_structures(self.check_host(transport, ["vulkaninfo"])[0])
                # Vulkan 1.1-1.3's own structures and the core ones at least.
                for must in ("VkPhysicalDeviceVulkan11Properties:", "VkPhysicalDeviceVulkan13Features:",
                             "VkPhysicalDeviceDriverProperties:", "VkPhysicalDeviceLimits:"):
                    self.assertIn(must, carried)
                for title, body in carried.items():
                    self.assertEqual(body, native.get(title), title)

    def test_every_extension_the_host_offers_is_carried_or_has_its_reason(self):
        native = extensions(self.native_full)
        through = extensions(self.check_host("unix", ["vulkaninfo"])[0])
        hidden = not_carried()
        with open(os.path.join(ROOT, "docs", "vulkan.md")) as f:
            docs = f.read()
        for kind in ("instance", "device"):
            with self.subTest(kind=kind):
                self.assertGreater(len(through[kind]), 5)
                self.assertEqual(native[kind] - through[kind] - set(hidden), set(), "hidden without a reason")
                self.assertEqual(through[kind] - native[kind] - GUEST_OWN, set(), "offered beyond the host's")
        # What is listed as hidden is: the guest's loader offers its own
        # debug and portability extensions whatever the driver does.
        loaders = {"VK_EXT_debug_report", "VK_EXT_debug_utils", "VK_KHR_portability_enumeration"}
        self.assertEqual((through["instance"] | through["device"]) & (set(hidden) - loaders), set())
        for name in hidden:
            self.assertIn(name, docs, "docs/vulkan.md does not give the reason")

    def test_vkcube_draws_its_frames_without_round_trips(self):
        for transport in self.hosts:
            with self.subTest(transport=transport):
                _, short = self.check_host(transport, ["vkcube", "--c", "100"])
                _, long = self.check_host(transport, ["vkcube", "--c", "400"])
                # The host sent every presented frame.
                self.assertGreaterEqual(short["frames"], 100)
                self.assertGreaterEqual(long["frames"], 400)
                # Steady frames wait for the host only if it is very late: the
                # 300 extra frames cost (next to) no round trip.
                self.assertLessEqual(long["round_trips"] - short["round_trips"], 3)
                # On shared memory vkcube's coherent uniform buffers are the
                # GPU's own memory, placed in the shared area; sockets have none.
                if transport == "shm":
                    self.assertGreater(short["shared_allocations"], 0)
                else:
                    self.assertEqual(short["shared_allocations"], 0)

    def test_validation_layer_reports_nothing(self):
        """The Khronos validation layer in the program and in the host's
        renderer: vkcube through Conduit breaks no rule of the spec. A
        program that breaks one shows the host's reports would be seen."""
        layers = {"VK_INSTANCE_LAYERS": "VK_LAYER_KHRONOS_validation", "VK_LOADER_DEBUG": "layer"}
        # Over shm the host imports the program's shared memory, which has rules of its own.
        for transport in ("unix", "shm"):
            host = Host(CONDUIT, transport + ":", self.work, name="validated-" + transport, extra_env=layers)
            try:
                rc, lines = run([CONDUIT, "run", "--host", host.address, "--", "vkcube", "--validate", "--c", "60"],
                                dict(self.env, **layers))
                self.assertEqual(rc, 0, "\n".join(lines[-30:]))
                for who, text in (("program", "\n".join(lines)), ("host", host.read_log())):
                    with self.subTest(transport=transport, where=who):
                        self.assertIn('Insert instance layer "VK_LAYER_KHRONOS_validation"', text)
                        self.assertNotIn("Validation Error", text)
                        self.assertNotIn("Validation Warning", text)
                run([CONDUIT, "run", "--host", host.address, "--", sys.executable, INVALID_DEVICE], self.env)
                self.assertIn("VUID-VkDeviceQueueCreateInfo-pQueuePriorities-00383", host.read_log())
            finally:
                host.stop()

    def test_vkbench_scenes_off_screen(self):
        # Each scene checks its own last frame (not one plain colour).
        for scene in ("draws", "texture", "compute", "rtt"):
            with self.subTest(scene=scene):
                lines, _ = self.check_host("unix", [VKBENCH, "--off-screen", "-b", scene + ":duration=0.5"])
                self.assertTrue(any(line.startswith(f"[{scene}]") for line in lines), "\n".join(lines))

    def vnc_picture(self, port, name):
        out = os.path.join(self.work, name + ".jpg")
        subprocess.run(["vncsnapshot", "-quiet", "-nojpeg", "-encodings", "raw", "-quality", "100",
                        "127.0.0.1::" + port, out], check=True, timeout=30,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return pixels(out)

    def test_vulkan_windows_reach_remote_viewers(self):
        """vkcube's frames go to `conduit host --vnc` as a GL window's do,
        and its tile goes when the program ends."""
        def lunarg_teal(picture):  # the logo on the cube's faces
            p = picture.astype(int)
            return int(((p[..., 1] > p[..., 0] + 40) & (p[..., 2] > p[..., 0] + 40)).sum())

        work = os.path.join(self.work, "vnc")
        os.makedirs(work, exist_ok=True)
        host = ViewerHost(CONDUIT, work, self.xvfb.display, ["--vnc", "127.0.0.1:0"])
        cube = None
        try:
            port = host.wait_log(r"vnc: \S+:(\d+): the picture").group(1)
            cube = host.guest(["vkcube", "--c", "100000"])
            deadline = time.time() + 30
            while lunarg_teal(self.vnc_picture(port, "cube")) < 2000 and time.time() < deadline:
                time.sleep(0.5)
            self.assertGreaterEqual(lunarg_teal(self.vnc_picture(port, "cube")), 2000, host.read_log())
            cube.stop()
            deadline = time.time() + 30
            while lunarg_teal(self.vnc_picture(port, "gone")) > 0 and time.time() < deadline:
                time.sleep(0.5)
            self.assertEqual(lunarg_teal(self.vnc_picture(port, "gone")), 0)
            # Mesa's Vulkan shader cache is refused its files by the renderer's
            # sandbox, and goes on without it (docs/host-processes.md).
            self.assertEqual([l for l in host.errors() if "mesa_shader_cache" not in l], [])
        finally:
            if cube:
                cube.stop()
            host.stop()

    def last_frame(self, name, args):
        """The file holding what the program's window showed last."""
        path = os.path.join(self.work, name + ".ppm")
        kept, out = last_frame(LAST_FRAME, args, self.env, path)
        self.assertTrue(kept, out[-3000:])
        return path

    def test_vkcube_last_frame_equals_native(self):
        # vkcube turns its cube by a fixed angle a frame: the 30th frame is
        # the same picture wherever it is drawn (the 31st differs in 6%).
        cube = ["vkcube", "--c", "30"]
        native = self.last_frame("native", cube)
        runs = {t: [CONDUIT, "run", "--host", h.address, "--"] + cube for t, h in self.hosts.items()}
        runs["private"] = [CONDUIT, "run", "--"] + cube
        # Presents naming the regions that changed (VK_KHR_incremental_present):
        # hints, and the whole frame is shown.
        runs["incremental"] = [CONDUIT, "run", "--"] + cube + ["--incremental_present"]
        for name, args in runs.items():
            with self.subTest(run=name):
                share = differing_share(native, self.last_frame(name, args))
                self.assertLessEqual(share, MAX_DIFFERENT_PIXELS, f"{share:.2%} of pixels differ")

if __name__ == "__main__":
    CONDUIT = HostedSuite.CONDUIT = os.path.abspath(sys.argv.pop(1))
    LAST_FRAME = os.path.abspath(sys.argv.pop(1))
    VKBENCH = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
