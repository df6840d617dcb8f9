#!/bin/bash
# On-screen GL frames of two Conduit builds side by side on a GPU host:
# native GLX, then each build's host and guest libraries over shared-memory
# rings (GLX and ES2 flavours), alternated round by round, at 800x600 and
# 1920x1080.
#
# Usage: gpu-onscreen-ab.sh BEFORE_BUILD_DIR AFTER_BUILD_DIR
# Each build directory holds cli/conduit and guest-icd/. Needs what
# gpu-compare.sh needs: glmark2, glmark2-es2, DISPLAY, NV_EGL_JSON, GLMARK2_DATA.
set -u
declare -A BUILD=([before]=$(cd "$1" && pwd) [after]=$(cd "$2" && pwd))
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for w in before after; do
  printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s"}}\n' \
    "${BUILD[$w]}/guest-icd/libEGL_conduit.so.0" > /tmp/ab-$w.json
  __EGL_VENDOR_LIBRARY_FILENAMES=$NV_EGL_JSON "${BUILD[$w]}/cli/conduit" host --listen shm:/tmp/ab-$w.sock \
    > /tmp/ab-host-$w.log 2>&1 &
done
sleep 3
show() { echo "$1 $(grep -E '^\[' "$2" | grep -o 'FPS: [0-9]*' | awk '{print $2}' | tr '\n' ' ')score $(grep -o 'Score: [0-9]*' "$2" | awk '{print $2}')"; }
for size in 800x600 1920x1080; do
  SC="-b build:use-vbo=true:duration=3 -b texture:duration=3 -b shading:shading=phong:duration=3
      -b jellyfish:duration=3 -s $size --data-path $GLMARK2_DATA"
  for r in $(seq ${ROUNDS:-2}); do
    timeout 60 env __GLX_VENDOR_LIBRARY_NAME=nvidia glmark2 $SC > /tmp/ab.log 2>&1; show "$size r$r native-glx" /tmp/ab.log
    for w in before after; do
      timeout 60 env __GLX_VENDOR_LIBRARY_NAME=conduit LD_LIBRARY_PATH="${BUILD[$w]}/guest-icd:${LD_LIBRARY_PATH:-}" \
        CONDUIT_HOST=shm:/tmp/ab-$w.sock glmark2 $SC > /tmp/ab.log 2>&1; show "$size r$r $w-glx-shm" /tmp/ab.log
      timeout 60 env __EGL_VENDOR_LIBRARY_FILENAMES=/tmp/ab-$w.json CONDUIT_HOST=shm:/tmp/ab-$w.sock \
        glmark2-es2 $SC > /tmp/ab.log 2>&1; show "$size r$r $w-es2-shm" /tmp/ab.log
    done
  done
done
echo "scenes: build texture shading jellyfish (FPS), then glmark2's score"
kill $(jobs -p) 2>/dev/null; wait 2>/dev/null
