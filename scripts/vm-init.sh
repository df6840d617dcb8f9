#!/bin/busybox sh
# /init of the guest's initramfs: mounts the host's root (9p, read-only)
# under a tmpfs overlay, so the guest runs the host's own userland, then
# runs the requested command (or a shell) in it and powers off.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /modules.order); do insmod "/modules/$m.ko" || echo "init: cannot load $m"; done

arg() { sed -n "s/.*conduit\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
share=$(arg share)
workdir=$(arg cwd)

mkdir -p /lower /upper /newroot
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=262144 hostroot /lower
mount -t tmpfs -o mode=0755 upper /upper
mkdir -p /upper/data /upper/work
mount -t overlay -o lowerdir=/lower,upperdir=/upper/data,workdir=/upper/work overlay /newroot
for d in proc sys dev; do mount --move "/$d" "/newroot/$d"; done
mkdir -p /newroot/dev/shm /newroot/dev/pts
mount -t tmpfs -o mode=1777 shm /newroot/dev/shm
mount -t devpts devpts /newroot/dev/pts
mount -t tmpfs -o mode=0755 run /newroot/run
if [ -n "$share" ]; then
  mkdir -p "/newroot$share"
  mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 share "/newroot$share"
fi

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
export XDG_RUNTIME_DIR=/run/user/0
mkdir -p /newroot/run/user/0 && chmod 0700 /newroot/run/user/0
if [ -n "$share" ] && [ -f "/newroot$share/guest-command" ]; then
  chroot /newroot /bin/sh -c "cd '${workdir:-/}' && . '$share/guest-command'"
  echo $? > "/newroot$share/guest-status"
else
  echo "Conduit guest: the host's userland, writable in memory. 'exit' powers off."
  chroot /newroot /usr/bin/setsid -w -c /bin/bash -c "cd '${workdir:-/}'; exec /bin/bash -i"
fi
sync
echo o > /newroot/proc/sysrq-trigger
while :; do sleep 1; done  # init must not exit while the power-off runs
