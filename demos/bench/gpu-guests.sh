#!/bin/bash
# Several guests on one GPU: N glmark2 programs at once through one Conduit
# host over shared-memory rings, each in its own window, against one alone.
# Prints each program's FPS, their sum, the sum over the lone program's FPS,
# and the slowest over the mean (fairness).
#
# Usage: [COUNTS="1 8"] [SCENE=build:use-vbo=true] [DUR=5] [SIZE=800x600] gpu-guests.sh BUILD_DIR
# Needs: DISPLAY, NV_EGL_JSON (the host's EGL vendor), GLMARK2_DATA.
set -u
B=$(cd "$1" && pwd)
[ -n "${NV_EGL_JSON:-}" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$NV_EGL_JSON
"$B/cli/conduit" host --listen shm:/tmp/guests.sock \
  > /tmp/guests-host.log 2>&1 &
HOST=$!
sleep 2
run_one() {  # run_one INDEX COUNT: one program's FPS into /tmp/guests-COUNT-INDEX.log
  timeout 120 env -u __EGL_VENDOR_LIBRARY_FILENAMES __GLX_VENDOR_LIBRARY_NAME=conduit LD_LIBRARY_PATH="$B/guest-icd:${LD_LIBRARY_PATH:-}" \
    CONDUIT_HOST=shm:/tmp/guests.sock glmark2 -b "${SCENE:-build:use-vbo=true}:duration=${DUR:-5}" \
    -s "${SIZE:-800x600}" --data-path "$GLMARK2_DATA" > "/tmp/guests-$2-$1.log" 2>&1
}
alone=0
for n in ${COUNTS:-1 8}; do
  for i in $(seq "$n"); do run_one "$i" "$n" & done
  wait $(jobs -p | grep -vx "$HOST")
  fps=$(for i in $(seq "$n"); do grep -o 'FPS: [0-9]*' "/tmp/guests-$n-$i.log" | awk '{print $2}'; done | tr '\n' ' ')
  python3 - "$n" "$alone" $fps <<'PY'
import sys
n, alone, fps = int(sys.argv[1]), float(sys.argv[2]), [float(f) for f in sys.argv[3:]]
total = sum(fps)
mean = total / len(fps) if fps else 0
line = f"{n} guests: FPS {' '.join(str(int(f)) for f in fps)}; sum {int(total)}"
if alone and fps:
    line += f"; {total / alone:.2f} of one alone; slowest {min(fps) / mean:.2f} of the mean"
print(line if len(fps) == n else line + f" ({n - len(fps)} failed)")
PY
  [ "$n" = 1 ] && alone=$(grep -o 'FPS: [0-9]*' /tmp/guests-1-1.log | awk '{print $2}') && alone=${alone:-0}
done
kill $HOST 2>/dev/null; wait 2>/dev/null
