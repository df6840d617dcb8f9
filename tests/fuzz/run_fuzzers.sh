#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, every library under ASan, UBSan and
# coverage) and runs each for a bounded time from the committed seeds plus
# the corpus earlier runs grew in the build tree. Fails on any crash, leak,
# UBSan finding or timeout, printing its report and the input's path; prints
# each run's numbers either way. FUZZ_SEED picks libFuzzer's seed (default 1,
# so that a run from the same corpus tries the same inputs again; 0: random).
#   usage: run_fuzzers.sh BUILD_DIR SECONDS_PER_TARGET [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$1
seconds=$2
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_decoder fuzz_session fuzz_vk_session)

[ -f "$dir/build.ninja" ] ||
  CC=clang CXX=clang++ meson setup "$dir" -Dfuzzers=true >/dev/null
ninja -C "$dir" "${targets[@]/#/tests/fuzz/}" >/dev/null

export ASAN_OPTIONS=detect_leaks=1:suppressions=$PWD/tests/asan.supp
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0

# One target's run; its log and result land in the build tree.
fuzz_one() {
  local t=$1
  local corpus=$dir/fuzz-corpus/$t artifacts=$dir/fuzz-crashes/$t log=$dir/fuzz-$t.log
  mkdir -p "$corpus" "$artifacts"
  # The Vulkan target starts from its own seeds (valid uses of its prelude's
  # objects) and from the recorded Vulkan programs; the others from every
  # recorded program.
  local seeds=tests/fuzz/seeds/session
  if [ "$t" = fuzz_vk_session ]; then
    seeds=$dir/fuzz-seeds/$t
    rm -rf "$seeds"
    mkdir -p "$seeds"
    cp tests/fuzz/seeds/vk-session/* "$seeds"/
    cp tests/fuzz/seeds/session/*vk* tests/fuzz/seeds/session/*gfxrecon* "$seeds"/
    # libFuzzer runs every input it starts from before its time limit
    # counts, at one or two inputs a second here: only the newest of what
    # earlier runs grew are kept, so a run stays within its time.
    find "$corpus" -type f -printf '%T@ %p\n' | sort -rn | tail -n +25 | cut -d' ' -f2- | xargs -r rm -f
  fi
  # Capture files (fuzz_capture, named on the command line) start from
  # captures of real programs, which are larger than one batch.
  local max_len=65536
  if [ "$t" = fuzz_capture ]; then
    seeds=tests/fuzz/seeds/capture
    max_len=262144
  fi
  # The session target's inputs are single batches of a real program's size;
  # a second per input is already very slow for one 64x64 surface.
  if "$dir/tests/fuzz/$t" -max_total_time="$seconds" -seed="${FUZZ_SEED:-1}" -max_len="$max_len" -timeout=20 -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "$seeds" >"$log" 2>&1; then
    echo ok >"$dir/fuzz-$t.result"
  else
    echo FAILED >"$dir/fuzz-$t.result"
  fi
}

# Each target is one process on one core: as many run at once as there are
# cores, so the whole takes the time of the slowest rounds, not their sum.
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
  rm -f "$dir/fuzz-$t.result"
  fuzz_one "$t" &
done
wait

status=0
for t in "${targets[@]}"; do
  corpus=$dir/fuzz-corpus/$t
  artifacts=$dir/fuzz-crashes/$t
  log=$dir/fuzz-$t.log
  result=$(cat "$dir/fuzz-$t.result" 2>/dev/null || echo FAILED)
  [ "$result" = ok ] || status=1
  echo "-- $t ($seconds s): $result"
  grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)|^INFO: seed corpus' "$log" || true
  echo "corpus: $(find "$corpus" -type f | wc -l) files in $corpus"
  if [ "$result" != ok ]; then
    sed -n '/^==[0-9]*==ERROR\|runtime error\|^==[0-9]*== ERROR\|ALARM\|deadly signal/,$p' "$log" | head -n 150
    echo "input kept in $artifacts; full log $log"
  fi
done
exit $status
