#!/usr/bin/env bash
# Conduit's front door: `./run.sh demo` or `./run.sh test`.
# Installs missing Debian packages, configures and builds, then runs the job.
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(
  build-essential meson ninja-build pkg-config python3 clang libclang-rt-14-dev
  khronos-api libglvnd-dev libegl-dev libgles-dev libgl-dev libepoxy-dev libgbm-dev
  libx11-dev libxext-dev libx11-xcb-dev libxcb-shm0-dev libxcomposite-dev libzstd-dev libsdl2-dev libvulkan-dev libgnutls28-dev
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libxxhash-dev nettle-dev libpng-dev
  libseccomp-dev
  libegl-mesa0 libgl1-mesa-dri mesa-utils
  glmark2-x11 glmark2-es2-x11 virgl-server
  xvfb x11-utils x11-apps xauth imagemagick python3-matplotlib
  qemu-system-x86 busybox-static cpio piglit
  libsdl2-ttf-dev libfontconfig-dev fonts-dejavu-core libvncserver-dev xdotool python3-numpy
  novnc vncsnapshot chromium chromium-driver python3-selenium openssl
  vulkan-tools mesa-vulkan-drivers vulkan-validationlayers glslang-tools spirv-tools gfxreconstruct vkd3d-demos faketime
  apitrace xscreensaver-gl neverball
)

log() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }

install_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  log "installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# The system python: the generator only needs its standard library.
export PATH="/usr/bin:$PATH"

configure() {  # configure DIR [meson options...]
  local dir=$1; shift
  if [ ! -f "$dir/build.ninja" ]; then
    log "configuring $dir"
    meson setup "$dir" "$@" >/dev/null
  fi
}

# The quick-start build is optimized without debug information (a third of
# the compile time); configure a build of your own to debug.
configure_main() {
  configure build --werror -Ddebug=false
}

build_all() {
  configure_main
  log "building build"
  ninja -C build >/dev/null
}

# One clang build under ASan and UBSan for the unit tests and the fuzzers:
# every library instrumented (-Dfuzzers=true, meson.build), unoptimized so
# that it compiles fast. Fuzzing campaigns use an optimized one (docs/fuzzing.md).
configure_sanitized() {
  CC=clang CXX=clang++ configure build-sanitize --werror --buildtype=debug -Db_lundef=false -Dfuzzers=true
}

case "${1:-}" in
  demo)
    install_packages
    build_all
    shift
    exec demos/run-demo.sh "$@"
    ;;
  test)
    install_packages
    configure_main
    configure_sanitized
    # `meson test` builds what the tests it runs need, so each build compiles
    # only its share: the unit tests run once, under the sanitizers; the
    # optimized build serves the programs of the end-to-end and VM tests.
    log "unit tests under ASan+UBSan"
    # Leaks are reported for Conduit's code; the GL driver's own are suppressed,
    # as are its known overreads (tests/asan.supp).
    ASAN_OPTIONS=detect_leaks=1:suppressions=$PWD/tests/asan.supp UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0 \
      meson test -C build-sanitize --print-errorlogs --suite unit
    log "end-to-end tests"
    meson test -C build --print-errorlogs --suite e2e
    log "virtual machine test (QEMU guest over an ivshmem ring)"
    meson test -C build --print-errorlogs --suite vm
    log "fuzzing (libFuzzer: the decoders, then whole GL and Vulkan sessions into the drivers; 60 s each)"
    tests/fuzz/run_fuzzers.sh build-sanitize 60
    ;;
  build)
    install_packages
    build_all
    ;;
  *)
    echo "usage: $0 demo|test|build" >&2
    exit 2
    ;;
esac
