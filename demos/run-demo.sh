#!/usr/bin/env bash
# The demo `./run.sh demo` runs: glmark2-es2 natively and through Conduit
# (`conduit run` with a private host) on the same scenes, FPS side by side.
#   demos/run-demo.sh [--full] [--duration SECONDS] [--build DIR]
# --full runs glmark2's whole default benchmark instead of the short list.
# Starts Xvfb when DISPLAY is unset; stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
duration=3
full=0
while [ $# -gt 0 ]; do
  case "$1" in
    --full) full=1 ;;
    --duration) duration=$2; shift ;;
    --build) build=$2; shift ;;
    *) echo "usage: $0 [--full] [--duration SECONDS] [--build DIR]" >&2; exit 2 ;;
  esac
  shift
done

conduit="$build/conduit"
[ -x "$conduit" ] || { echo "demo: $conduit not built (./run.sh build)" >&2; exit 1; }
command -v glmark2-es2 >/dev/null || { echo "demo: glmark2-es2 is not installed" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/conduit-demo-XXXXXX")
xvfb_pid=""
cleanup() {
  if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; wait "$xvfb_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "${DISPLAY:-}" ]; then
  n=90
  while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
  Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
  xvfb_pid=$!
  export DISPLAY=":$n"
  for _ in $(seq 100); do
    xdpyinfo >/dev/null 2>&1 && break
    kill -0 "$xvfb_pid" 2>/dev/null || { cat "$work/xvfb.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "== started Xvfb on $DISPLAY"
fi

args=()
if [ "$full" -eq 0 ]; then
  for scene in build:use-vbo=false build:use-vbo=true texture:texture-filter=linear \
               shading:shading=phong bump:bump-render=normals effect2d pulsar:quads=5 \
               desktop:effect=blur buffer:update-method=map conditionals function loop; do
    args+=(-b "$scene:duration=$duration")
  done
fi

# Prints "scene<TAB>fps" for every result line of a glmark2 log.
scores() {
  sed -n 's/^\[\(.*\)\]\(.*\): FPS: \([0-9]*\).*/\1\2\t\3/p' "$1" |
    sed -e 's/duration=[0-9.]*:\{0,1\}//' -e 's/:\t/\t/' -e 's/ \t/\t/'
}

echo "== glmark2-es2 natively (the host's own driver)"
glmark2-es2 "${args[@]}" >"$work/native.log" 2>&1 || { cat "$work/native.log" >&2; exit 1; }
scores "$work/native.log" | sed 's/^/   /'

echo "== glmark2-es2 through Conduit (conduit run, private host)"
status=0
CONDUIT_STATS=1 "$conduit" run --private-host -- glmark2-es2 "${args[@]}" >"$work/conduit.log" 2>&1 || status=$?
scores "$work/conduit.log" | sed 's/^/   /'
grep -E '^conduit|Error|error' "$work/conduit.log" | sed 's/^/   /' || true
[ "$status" -eq 0 ] || { echo "demo: glmark2-es2 through Conduit failed ($status)"; tail -20 "$work/conduit.log"; exit 1; }

echo
printf '%-52s %10s %10s %8s\n' "scene" "native" "conduit" "ratio"
join -t $'\t' -a 1 -e '-' -o 0,1.2,2.2 \
  <(scores "$work/native.log" | awk -F'\t' '{printf "%03d %s\t%s\n", NR, $1, $2}' | sort) \
  <(scores "$work/conduit.log" | awk -F'\t' '{printf "%03d %s\t%s\n", NR, $1, $2}' | sort) |
  awk -F'\t' '{ name = substr($1, 5); r = ($2 > 0 && $3 != "-") ? sprintf("%.2f", $3 / $2) : "-";
               printf "%-52s %10s %10s %8s\n", name, $2, $3, r }'
for log in native conduit; do
  score=$(sed -n 's/.*glmark2 Score: \([0-9]*\).*/\1/p' "$work/$log.log")
  echo "glmark2 score ($log): ${score:--}"
done
