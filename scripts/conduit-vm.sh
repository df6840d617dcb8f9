#!/usr/bin/env bash
# Boots a QEMU guest that runs this machine's own Debian userland (the host's
# root shared read-only over 9p, with a writable overlay in guest memory), so
# the Conduit build is visible inside it at the same paths. Rings for Conduit
# reach the guest as ivshmem-plain PCI devices.
#
#   scripts/conduit-vm.sh prepare
#   scripts/conduit-vm.sh boot [--ivshmem FILE]... [--share DIR] [--cpus N]
#                              [--mem MIB] [--kvm] [-- COMMAND...]
#
# Without COMMAND the guest opens a shell on this terminal; with it, COMMAND
# runs as root in the guest (from the current directory) and the guest powers
# off; its exit status becomes ours. --share DIR mounts DIR read-write at the
# same path in the guest. --kvm uses hardware virtualization where it works.
set -euo pipefail

SCRIPTS=$(cd "$(dirname "$0")" && pwd)
CACHE=${CONDUIT_VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/conduit/vm}
MODULES=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci
         netfs fscache 9pnet 9pnet_virtio 9p overlay)

die() { echo "conduit-vm: $*" >&2; exit 1; }

# The kernel Debian's linux-image-amd64 points at, e.g. 6.1.0-56-amd64.
kernel_version() {
  apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/.*Depends: linux-image-//p' | head -n 1
}

need_tools() {
  local t
  for t in qemu-system-x86_64 busybox cpio dpkg-deb; do
    command -v "$t" >/dev/null || die "$t is missing (./run.sh build installs it)"
  done
}

fetch_kernel_package() {  # VERSION DIR
  (cd "$2" && { apt-get download -q "linux-image-$1" 2>/dev/null ||
                { apt-get update -qq && apt-get download -q "linux-image-$1"; }; }) >/dev/null ||
    die "cannot download linux-image-$1"
}

# Unpacks the kernel and the modules the initramfs loads.
extract_kernel() {  # VERSION DIR
  local deb=("$2"/linux-image-"$1"_*.deb) kdir="./lib/modules/$1/kernel"
  dpkg-deb --fsys-tarfile "${deb[0]}" | tar -x -C "$2/root" --wildcards "./boot/vmlinuz-$1" \
    "$kdir/drivers/virtio/*" "$kdir/fs/9p/*" "$kdir/fs/netfs/*" "$kdir/fs/fscache/*" \
    "$kdir/net/9p/*" "$kdir/fs/overlayfs/*"
  cp "$2/root/boot/vmlinuz-$1" "$2/vmlinuz"
}

build_initramfs() {  # VERSION DIR
  local tree="$2/initramfs" m
  rm -rf "$tree" && mkdir -p "$tree"/{bin,dev,proc,sys,modules}
  cp "$(command -v busybox)" "$tree/bin/busybox"
  install -m 0755 "$SCRIPTS/vm-init.sh" "$tree/init"
  for m in "${MODULES[@]}"; do
    find "$2/root/lib/modules/$1" -name "$m.ko" -exec cp {} "$tree/modules/" \;
    [ -f "$tree/modules/$m.ko" ] || die "module $m not found in linux-image-$1"
    echo "$m" >> "$tree/modules.order"
  done
  (cd "$tree" && find . | cpio -o -H newc --quiet | gzip -1) > "$2/initrd.gz"
}

# Kernel and initramfs, once per kernel version and init script.
cmd_prepare() {
  need_tools
  local version stamp
  version=$(kernel_version)
  [ -n "$version" ] || { apt-get update -qq; version=$(kernel_version); }
  [ -n "$version" ] || die "no linux-image-amd64 in the package lists"
  stamp="$version $(sha256sum "$SCRIPTS/vm-init.sh" "$0" | sha256sum | cut -c1-16)"
  if [ -f "$CACHE/vmlinuz" ] && [ "$(cat "$CACHE/stamp" 2>/dev/null)" = "$stamp" ]; then
    return
  fi
  echo "conduit-vm: preparing a guest kernel ($version) in $CACHE" >&2
  rm -rf "$CACHE" && mkdir -p "$CACHE/root"
  fetch_kernel_package "$version" "$CACHE"
  extract_kernel "$version" "$CACHE"
  build_initramfs "$version" "$CACHE"
  rm -rf "$CACHE/root" "$CACHE/initramfs" "$CACHE"/linux-image-*.deb
  echo "$stamp" > "$CACHE/stamp"
}

# QEMU's -object/-device pair exposing FILE as ivshmem-plain device N.
ivshmem_args() {  # N FILE
  [ -f "$2" ] || die "$2 does not exist: start 'conduit host --listen shm:file=$2' first"
  local size
  size=$(stat -c %s "$2")
  echo "-object memory-backend-file,id=ring$1,size=$size,share=on,mem-path=$2"
  echo "-device ivshmem-plain,memdev=ring$1"
}

cmd_boot() {
  local cpus=2 mem=2048 accel=(-accel tcg) share="" rings=() n=0
  while [ $# -gt 0 ]; do
    case $1 in
      --ivshmem) mapfile -t -O ${#rings[@]} rings < <(ivshmem_args $n "$2"); n=$((n + 1)); shift 2 ;;
      --share) share=$(cd "$2" && pwd); shift 2 ;;
      --cpus) cpus=$2; shift 2 ;;
      --mem) mem=$2; shift 2 ;;
      --kvm) accel=(-accel kvm -cpu host); shift ;;
      --) shift; break ;;
      *) die "unknown option $1 (see the top of $0)" ;;
    esac
  done
  cmd_prepare
  local own_share=""
  if [ $# -gt 0 ] && [ -z "$share" ]; then share=$(mktemp -d); own_share=$share; fi
  if [ -n "$share" ]; then rm -f "$share/guest-status" "$share/guest-command"; fi
  if [ $# -gt 0 ]; then printf '%q ' "$@" > "$share/guest-command"; fi
  local append="console=ttyS0 quiet panic=-1 conduit.cwd=$PWD"
  [ -n "$share" ] && append+=" conduit.share=$share"
  local qemu=(qemu-system-x86_64 "${accel[@]}" -smp "$cpus" -m "$mem" -nographic -no-reboot -nic none
    -kernel "$CACHE/vmlinuz" -initrd "$CACHE/initrd.gz" -append "$append"
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap)
  [ -n "$share" ] && qemu+=(-virtfs "local,path=$share,mount_tag=share,security_model=none")
  # shellcheck disable=SC2206  # each ring line is one option and its value
  for r in "${rings[@]}"; do qemu+=($r); done
  if [ $# -eq 0 ]; then exec "${qemu[@]}"; fi
  "${qemu[@]}" < /dev/null
  local status
  status=$(cat "$share/guest-status" 2>/dev/null || echo 125)
  [ -n "$own_share" ] && rm -rf "$own_share"
  return "$status"
}

case "${1:-}" in
  prepare) shift; cmd_prepare "$@"; echo "$CACHE" ;;
  boot) shift; cmd_boot "$@" ;;
  *) sed -n '2,14p' "$0" >&2; exit 2 ;;
esac
