"""glmark2 command lines, default scene lists and output parsing (no processes here)."""
import csv
import io
import os
import re
import shutil

# glmark2 2023.01's default benchmark list, the same for the GL and GLES flavours.
DEFAULT_SCENES = [
    "build:use-vbo=false",
    "build:use-vbo=true",
    "texture:texture-filter=nearest",
    "texture:texture-filter=linear",
    "texture:texture-filter=mipmap",
    "shading:shading=gouraud",
    "shading:shading=blinn-phong-inf",
    "shading:shading=phong",
    "shading:shading=cel",
    "bump:bump-render=high-poly",
    "bump:bump-render=normals",
    "bump:bump-render=height",
    "effect2d:kernel=0,1,0;1,-4,1;0,1,0;",
    "effect2d:kernel=1,1,1,1,1;1,1,1,1,1;1,1,1,1,1;",
    "pulsar:light=false:quads=5:texture=false",
    "desktop:blur-radius=5:effect=blur:passes=1:separable=true:windows=4",
    "desktop:effect=shadow:windows=4",
    "buffer:columns=200:interleave=false:update-dispersion=0.9:update-fraction=0.5:update-method=map",
    "buffer:columns=200:interleave=false:update-dispersion=0.9:update-fraction=0.5:update-method=subdata",
    "buffer:columns=200:interleave=true:update-dispersion=0.9:update-fraction=0.5:update-method=map",
    "ideas:speed=duration",
    "jellyfish",
    "terrain",
    "shadow",
    "refract",
    "conditionals:fragment-steps=0:vertex-steps=0",
    "conditionals:fragment-steps=5:vertex-steps=0",
    "conditionals:fragment-steps=0:vertex-steps=5",
    "function:fragment-complexity=low:fragment-steps=5",
    "function:fragment-complexity=medium:fragment-steps=5",
    "loop:fragment-loop=false:fragment-steps=5:vertex-steps=5",
    "loop:fragment-steps=5:fragment-uniform=false:vertex-steps=5",
    "loop:fragment-steps=5:fragment-uniform=true:vertex-steps=5",
]

# conduit-vkbench's scenes (demos/vkbench), which takes glmark2's command line.
VK_SCENES = ["draws", "texture", "compute", "rtt"]

PROGRAMS = {"es2": "glmark2-es2", "gl": "glmark2", "vk": "conduit-vkbench"}


def default_scenes(flavour):
    return VK_SCENES if flavour == "vk" else DEFAULT_SCENES


def program_path(flavour, conduit):
    """The flavour's program. conduit-vkbench is built with Conduit, so it is looked
    for beside the conduit executable first: <build>/cli/conduit has it in
    <build>/demos/vkbench, an installed conduit in its own bin directory."""
    name = PROGRAMS[flavour]
    if flavour == "vk" and conduit and os.path.isfile(conduit):
        bin_dir = os.path.dirname(os.path.realpath(conduit))
        for path in (os.path.join(bin_dir, "..", "demos", "vkbench", name),
                     os.path.join(bin_dir, name)):
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return os.path.normpath(path)
    return shutil.which(name) or name

# A new scene starts where a comma is followed by a scene name; commas inside
# option values (effect2d kernels) are followed by digits or signs instead.
_SCENE_START = re.compile(r",(?=[A-Za-z][A-Za-z0-9_-]*(?::|,|$))")


def split_scene_list(text, flavour="es2"):
    """Splits `--scenes` text into scene specs; 'default' expands to the flavour's list."""
    scenes = []
    for part in _SCENE_START.split(text.strip()):
        part = part.strip()
        if not part:
            continue
        if part == "default":
            scenes.extend(default_scenes(flavour))
        else:
            scenes.append(part)
    return scenes


def benchmark_arg(scene, duration):
    """The `-b` argument: the scene spec with the run duration appended."""
    if duration is None:
        return scene
    return f"{scene}:duration={duration:g}"


def command(flavour, scene, duration, size, offscreen, results_file=None, data_path=None,
            program=None):
    """The glmark2 argument vector for one scene (`program` in place of the flavour's name)."""
    argv = [program or PROGRAMS[flavour], "-b", benchmark_arg(scene, duration),
            "-s", f"{size[0]}x{size[1]}", "--results", "fps:cpu"]
    if offscreen:
        argv.append("--off-screen")
    if data_path:
        argv += ["--data-path", data_path]
    if results_file:
        argv += ["--results-file", results_file]
    return argv


_LINE = re.compile(
    r"^\[(?P<scene>[^\]]+)\]\s*(?P<opts>.*?):\s+FPS:\s+(?P<fps>\d+(?:\.\d+)?)"
    r"\s+FrameTime:\s+(?P<ft>\d+(?:\.\d+)?)\s*ms"
    r"(?:\s+\(User:\s+(?P<user>\d+(?:\.\d+)?)\s*ms,\s+System:\s+(?P<sys>\d+(?:\.\d+)?)\s*ms\))?",
    re.M)
_RENDERER = re.compile(r"^\s*GL_RENDERER:\s*(.+?)\s*$", re.M)


def _result(frame_time, fps, user, system):
    frame_time = float(frame_time)
    # The FPS column is rounded to an integer; the frame time keeps 3 decimals.
    fps = 1000.0 / frame_time if frame_time > 0 else float(fps)
    out = {"fps": fps, "frame_time_ms": frame_time}
    if user is not None and system is not None:
        out["guest_cpu_ms_per_frame"] = float(user) + float(system)
    return out


def parse_stdout(text):
    """Results of the scenes in glmark2's console output, in order."""
    return [_result(m["ft"], m["fps"], m["user"], m["sys"]) for m in _LINE.finditer(text)]


def parse_renderer(text):
    m = _RENDERER.search(text)
    return m.group(1) if m else None


def parse_results_csv(text):
    """Results from a `--results-file x.csv` written with `--results fps:cpu`.

    The first row describes the run; each later row is one scene:
    name, fps, frame time, [user ms, system ms, cpu busy,] status.
    """
    rows = list(csv.reader(io.StringIO(text)))
    out = []
    for row in rows[1:]:
        if len(row) < 4 or row[-1] != "Success":
            continue
        user = row[3] if len(row) >= 7 else None
        system = row[4] if len(row) >= 7 else None
        out.append(_result(row[2], row[1], user, system))
    return out
