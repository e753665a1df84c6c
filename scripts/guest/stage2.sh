#!/bin/bash
# Second stage in the guest, PID 1 on the overlay root. Mounts the usual
# pseudo filesystems, installs our modules into a depmod'ed updates/ tree of
# the running kernel, runs the job (tests or demo) and powers off. Whatever
# happens, the guest powers off: QEMU runs under a timeout on the host too.
#
# Inputs come from /run/rdmaoot/env.sh (written by scripts/qemu-run.sh):
#   RDMAOOT_TOP    repository path (the same on host and guest)
#   RDMAOOT_KIND   stock | debug
#   RDMAOOT_JOB    check | interop | interop-peer | demo | shell-command to run
#   RDMAOOT_PAIRED set when the guest is one of two on a wire (/run/pair)
#   RDMAOOT_MODROOT  staged module root (scripts/stage-modules.sh)
SHARE=/run/rdmaoot
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
set -a
. "$SHARE/env.sh"
set +a

poweroff_now() {
	sync
	echo o > /proc/sysrq-trigger
	sleep 30
}
trap poweroff_now EXIT

mount_pseudo() {
	mount -t proc proc /proc
	mount -t sysfs sys /sys
	mount -t devtmpfs dev /dev
	mkdir -p /dev/pts /dev/shm
	mount -t devpts devpts /dev/pts
	mount -t tmpfs shm /dev/shm
	mount -t debugfs debugfs /sys/kernel/debug
	mount -t configfs configfs /sys/kernel/config 2>/dev/null || true
	mkdir -p /run/netns /run/lock
}

# /lib/modules/<kver> is the tree scripts/stage-modules.sh prepared and
# depmod'ed on the host: ours in updates/, the inbox ones (stock) in kernel/.
setup_modules() {
	local dir
	dir=/lib/modules/$(uname -r)
	mkdir -p "$dir"
	mount --bind "$RDMAOOT_MODROOT$dir" "$dir" ||
		echo "rdmaoot: cannot bind $RDMAOOT_MODROOT$dir" > /dev/kmsg
}

mount_pseudo
# Keep a complete copy of the kernel log: the ring buffer may wrap.
cat /dev/kmsg > "$SHARE/kmsg.log" &
hostname rdmaoot-guest
ip link set lo up
setup_modules
# One of two guests on a virtual wire: the folder both of them share.
if [ -n "${RDMAOOT_PAIRED:-}" ]; then
	mkdir -p /run/pair
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 pair /run/pair ||
		echo "rdmaoot: cannot mount the pair folder" > /dev/kmsg
fi
echo "rdmaoot: guest ready, kernel $(uname -r), job $RDMAOOT_JOB" > /dev/kmsg

case "$RDMAOOT_JOB" in
check) bash "$RDMAOOT_TOP/scripts/guest/run-tests.sh" "$SHARE" ;;
interop) bash "$RDMAOOT_TOP/scripts/guest/run-tests.sh" "$SHARE" interop ;;
interop-peer) bash "$RDMAOOT_TOP/scripts/guest/interop-peer.sh" /run/pair > "$SHARE/peer.log" 2>&1 ;;
demo) bash "$RDMAOOT_TOP/scripts/guest/demo.sh" > "$SHARE/demo.log" 2>&1 ;;
*) bash -c "$RDMAOOT_JOB" > "$SHARE/job.log" 2>&1 ;;
esac
rc=$?
echo "rdmaoot: job finished with status $rc" > /dev/kmsg
# Written last: its presence says the guest survived, its content how the
# job itself ended.
echo "$rc" > "$SHARE/done"
