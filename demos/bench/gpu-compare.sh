#!/bin/bash
# glmark2 on a GPU host: the NVIDIA driver natively (GLX), virgl on it, and
# Conduit on it (GLES through the EGL vendor, desktop GL through the GLX
# vendor; unix socket and shared-memory rings), on-screen and off-screen,
# 800x600, the scenes of the virgl baseline in docs/reports/benchmarks.md.
# The unix socket runs twice: as configured by default, and plain, with
# frames and large payloads inside the stream and no side looking on before
# it sleeps (CONDUIT_SOCKET_HEAPS=0 and CONDUIT_PATIENCE=0, a host of its
# own), side by side.
#
# Usage: gpu-compare.sh BUILD_DIR OUT_DIR
# Needs on PATH: Xvfb, glmark2, glmark2-es2, virgl_test_server, nvidia-smi;
# DISPLAY of a running X server; NV_EGL_JSON naming NVIDIA's EGL vendor file
# (the host renders through it); VIRGL_CLIENT_ENV with the variables that
# point Mesa's virpipe client at virgl_test_server; GLMARK2_DATA.
set -u
B=$(cd "$1" && pwd); OUT=$2; mkdir -p "$OUT"
D=${DUR:-3}
SC="-b build:use-vbo=true:duration=$D -b texture:duration=$D -b shading:shading=phong:duration=$D
    -b jellyfish:duration=$D -b refract:duration=$D -b terrain:duration=$D -s 800x600
    --data-path $GLMARK2_DATA"
# The manifest names the library by absolute path, so write one for this tree.
MANIFEST=$OUT/conduit_egl.json
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s"}}\n' \
  "$B/guest-icd/libEGL_conduit.so.0" > "$MANIFEST"
nvidia-smi dmon -s u -o T > "$OUT/dmon.txt" 2>&1 & DMON=$!
__EGL_VENDOR_LIBRARY_FILENAMES=$NV_EGL_JSON "$B/cli/conduit" host \
  --listen unix:/tmp/conduit-gpu.sock --listen shm:/tmp/conduit-gpu-shm.sock > "$OUT/host.log" 2>&1 &
HOST=$!
CONDUIT_PATIENCE=0 __EGL_VENDOR_LIBRARY_FILENAMES=$NV_EGL_JSON "$B/cli/conduit" host \
  --listen unix:/tmp/conduit-gpu-plain.sock > "$OUT/host-plain.log" 2>&1 &
PLAIN_HOST=$!
rm -f /tmp/.virgl_test
__EGL_VENDOR_LIBRARY_FILENAMES=$NV_EGL_JSON virgl_test_server --use-egl-surfaceless \
  > "$OUT/virgl.log" 2>&1 & VIRGL=$!
sleep 2
ES2="env CONDUIT_STATS=1 __EGL_VENDOR_LIBRARY_FILENAMES=$MANIFEST"
GLX="env CONDUIT_STATS=1 __GLX_VENDOR_LIBRARY_NAME=conduit LD_LIBRARY_PATH=$B/guest-icd:${LD_LIBRARY_PATH:-}"
run() {  # run NAME EXTRA-ARGS COMMAND...
  local name=$1 extra=$2; shift 2
  timeout 120 "$@" $SC $extra > "$OUT/$name.log" 2>&1
  echo "$name: $(grep -o 'glmark2 Score: [0-9]*' "$OUT/$name.log")"
}
for m in ${MODES:-off on}; do
  X=""; [ "$m" = off ] && X="--off-screen"
  run "${m}_native_glx" "$X" env __GLX_VENDOR_LIBRARY_NAME=nvidia glmark2
  run "${m}_virgl_es2" "$X" env $VIRGL_CLIENT_ENV glmark2-es2
  run "${m}_conduit_es2_unix" "$X" $ES2 CONDUIT_HOST=unix:/tmp/conduit-gpu.sock glmark2-es2
  run "${m}_conduit_es2_unixplain" "$X" $ES2 CONDUIT_SOCKET_HEAPS=0 CONDUIT_PATIENCE=0 \
    CONDUIT_HOST=unix:/tmp/conduit-gpu-plain.sock glmark2-es2
  run "${m}_conduit_es2_shm" "$X" $ES2 CONDUIT_HOST=shm:/tmp/conduit-gpu-shm.sock glmark2-es2
  run "${m}_conduit_glx_shm" "$X" $GLX CONDUIT_HOST=shm:/tmp/conduit-gpu-shm.sock glmark2
done
kill $HOST $PLAIN_HOST $VIRGL $DMON 2>/dev/null; wait $HOST $PLAIN_HOST 2>/dev/null
for m in ${MODES:-off on}; do
  echo "=== $m-screen FPS, 800x600, ${D} s a scene"
  printf '%-10s' scene
  for f in "$OUT/${m}"_*.log; do printf '%-18s' "$(basename "$f" .log | cut -d_ -f2-)"; done; echo
  for s in build texture shading jellyfish refract terrain Score; do
    printf '%-10s' $s
    for f in "$OUT/${m}"_*.log; do
      if [ $s = Score ]; then v=$(grep -o 'glmark2 Score: [0-9]*' "$f" | awk '{print $3}')
      else v=$(grep "^\[$s\]" "$f" | grep -o 'FPS: [0-9]*' | awk '{print $2}'); fi
      printf '%-18s' "${v:--}"
    done; echo
  done
done | tee "$OUT/summary.txt"
