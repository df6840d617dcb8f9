#!/usr/bin/env bash
# What a connected but idle guest costs the host: starts `conduit host` on a
# private socket, connects GUESTS idle guests (host-soak-guest idle: hello
# only; idle-frame: one context, one 64x64 frame), lets them sit, then
# prints for each renderer serving one its memory (/proc/PID/status: RssAnon,
# RssShmem, RssFile) and, over SECONDS, its CPU time and how often its
# threads woke (context switches of all its threads).
#
#   scripts/idle-cost.sh BUILD_DIR [idle|idle-frame] [GUESTS] [SECONDS]
#
# CONDUIT names another `conduit` program to measure (the guests stay BUILD_DIR's).
set -euo pipefail

BUILD=${1:?usage: idle-cost.sh BUILD_DIR [idle|idle-frame] [GUESTS] [SECONDS]}
MODE=${2:-idle}
GUESTS=${3:-2}
SECONDS_IDLE=${4:-10}
SOCK=/tmp/conduit-idle-cost-$$.sock
TICK=$(getconf CLK_TCK)

"${CONDUIT:-$BUILD/conduit}" host --listen "unix:$SOCK" --admin "$SOCK.admin" 2>/tmp/conduit-idle-cost-$$.log &
HOST=$!
guests=()
cleanup() {
  for g in "${guests[@]}"; do kill "$g" 2>/dev/null || true; done
  kill "$HOST" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 50); do [ -S "$SOCK" ] && break; sleep 0.2; done

for _ in $(seq "$GUESTS"); do
  exec {out}< <("$BUILD/tests/host/host-soak-guest" "unix:$SOCK" "$MODE")
  guests+=($!)
  read -r -n 1 -u "$out" _ready
done
sleep 3  # let start-up work settle

# The renderers serving the guests (not the one kept ready for the next).
renderers=$("$BUILD/conduit" info --stats --admin "$SOCK.admin" |
  python3 -c 'import json, sys; print(*(s["renderer_pid"] for s in json.load(sys.stdin)["sessions"]))')

field() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
switches() {
  cat /proc/"$1"/task/*/status 2>/dev/null |
    awk '/^(non)?voluntary_ctxt_switches:/ { n += $2 } END { print n }'
}

declare -A cpu0 sw0
for p in $renderers; do cpu0[$p]=$(cpu "$p"); sw0[$p]=$(switches "$p"); done
sleep "$SECONDS_IDLE"
printf '%-8s %10s %11s %10s %8s %10s %14s\n' pid RssAnon_kB RssShmem_kB RssFile_kB threads cpu_ms wakeups_per_s
for p in $renderers; do
  printf '%-8s %10s %11s %10s %8s %10s %14s\n' "$p" "$(field "$p" RssAnon)" "$(field "$p" RssShmem)" \
    "$(field "$p" RssFile)" "$(field "$p" Threads)" \
    $(( ($(cpu "$p") - cpu0[$p]) * 1000 / TICK )) \
    "$(awk -v n=$(( $(switches "$p") - sw0[$p] )) -v s="$SECONDS_IDLE" 'BEGIN { printf "%.1f", n / s }')"
done
