#!/bin/bash
# Vulkan on a GPU host: conduit-vkbench's scenes (off-screen and on-screen,
# through `conduit bench --flavour vk`) and vkcube, natively on the
# machine's Vulkan driver and through Conduit (a private host on
# shared-memory rings), side by side.
#
# Usage: [MODES="off on"] [DUR=3] gpu-vulkan.sh BUILD_DIR OUT_DIR
# Needs: DISPLAY of a running X server; VK_DRIVER_FILES naming the GPU's
# Vulkan ICD (the native runs and Conduit's host use it); NV_EGL_JSON naming
# its EGL vendor file (the host's GL); vkcube on PATH.
set -u
B=$(cd "$1" && pwd); OUT=$2; mkdir -p "$OUT"
D=${DUR:-3}
# The build's manifests name their libraries by absolute path: write them for this tree.
for f in "$B"/guest-icd/*_build.json; do sed -i "s|\"[^\"]*/guest-icd/|\"$B/guest-icd/|" "$f"; done
[ -n "${NV_EGL_JSON:-}" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$NV_EGL_JSON
nvidia-smi dmon -s u -o T > "$OUT/dmon.txt" 2>&1 & DMON=$!
for m in ${MODES:-off on}; do
  X=""; [ "$m" = off ] && X="--offscreen"
  "$B/cli/conduit" bench --flavour vk $X --repeat 2 --duration "$D" --out "$OUT/vk-$m" > "$OUT/vk-$m.log" 2>&1
done
# vkcube: wall time for 100 and 2,100 frames; the difference is 2,000 frames.
TIMEFORMAT=%R
for n in 100 2100; do
  t=$( { time timeout 120 vkcube --c $n > /dev/null 2>> "$OUT/vkcube-native.log"; } 2>&1 ); echo "native $n $t"
  t=$( { time timeout 120 env CONDUIT_STATS=1 "$B/cli/conduit" run -- vkcube --c $n \
         > /dev/null 2>> "$OUT/vkcube-conduit.log"; } 2>&1 ); echo "conduit $n $t"
done > "$OUT/vkcube-times.txt"
kill $DMON 2>/dev/null
{ for m in ${MODES:-off on}; do echo "=== vk $m-screen"; grep -h "^\[bench\]" "$OUT/vk-$m.log" | grep -v "scene "; \
    cat "$OUT/vk-$m/results.md" 2>/dev/null; done
  echo "=== vkcube (frames, seconds)"; cat "$OUT/vkcube-times.txt"
  grep -h "round trips per frame" "$OUT/vkcube-conduit.log" | tail -1; } | tee "$OUT/summary.txt"
