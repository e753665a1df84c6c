# 103-nfs-rdma: NFS over RDMA (the kernel's rpcrdma, client and server
# transports, rebuilt against our stack) on our rxe, NFSv3 and NFSv4.2,
# data verified.
#
# The rxe pair of rxe-pair.sh: the server is knfsd in this namespace on
# rxe0 (10.77.0.1), exporting a tmpfs (fsid=0, so also NFSv4's root),
# with RDMA added to its listeners through /proc/fs/nfsd/portlist ("rdma
# 20049"); rpcbind and rpc.mountd run by hand (the guest has no init
# system), the NFSv4 grace period and lease at their 10 s minimum. The
# client mounts from the rxe1 namespace (mount run under nsenter --net,
# so the mount is in this mount namespace but its transport in the other
# network namespace): proto=rdma,port=20049,nolock, so every RPC crosses
# the veth as RoCE packets between rxe1 and rxe0. For each of vers=3
# (the export's path) and vers=4.2 (/):
# - /proc/mounts shows proto=rdma and port=20049 for the mount, and
#   mountstats an "xprt: rdma" transport; rdma_cm shows a connected id
#   to 10.77.0.1:20049;
# - a 4 MiB file made on the server's tmpfs reads back through the mount
#   with the same sha256 (READs: RDMA Writes of the server);
# - a 4 MiB file written through the mount (fsync'ed) is on the tmpfs
#   with its sha256 (WRITEs: RDMA Reads of the server), and reads back the
#   same through a fresh mount (nothing cached);
# - 40 small files created, listed and read back through the mount;
# - rxe0 received at least one packet per KiB (RoCE MTU 1024) of the data
#   written, rxe1 at least one per KiB of the data read, and no
#   rcvd_drop_* counter of either moved;
# - the server's rdma_cm listener on :20049 is there from the start.
# Then the mounts go, knfsd stops (rpc.nfsd 0), the daemons stop, and
# nfsv4, nfsv3, nfs, nfsd and rpcrdma unload, leaving no rdma_cm id.
# A failed mount prints rdma res, the rxe counters, the daemons' logs and
# the rpcrdma and sunrpc tracepoints (enabled for that).
# Stock only: the debug kernel is configured without RDMA, so without
# these ULPs. Measured: 109 s on the stock kernel under TCG (15 s for
# each version's data).
TEST_KERNELS=stock
TEST_TIMEOUT=400

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"

NFSDIR=/tmp/103
EXPORT=$NFSDIR/export
MNT=$NFSDIR/mnt
SRC=$NFSDIR/src
PIDS=$NFSDIR/pids
TRACE=/sys/kernel/tracing

test_setup() {
	local c
	for c in rpc.nfsd rpc.mountd rpcbind exportfs mount.nfs nsenter sha256sum; do
		command -v "$c" >/dev/null || t_skip "$c is not installed (nfs-kernel-server, nfs-common, rpcbind)"
	done
	t_mod_path rpcrdma >/dev/null || t_skip "rpcrdma is not built (make ulps)"
	t_mod_path nfsd >/dev/null || t_skip "the kernel has no nfsd module"
	rxe_pair_setup
	mkdir -p "$EXPORT" "$MNT" "$SRC" "$PIDS"
	t_run mount -t tmpfs -o size=64m nfs103 "$EXPORT"
	t_run modprobe rpcrdma
	# rpcrdma's tracepoints, for nfs_diag
	for TRACE in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -d "$TRACE/events/rpcrdma" ] && break
	done
	if [ -d "$TRACE/events/rpcrdma" ]; then
		echo 1 > "$TRACE/events/rpcrdma/enable"
		echo 1 > "$TRACE/events/sunrpc/enable"
	fi
	nfs_server_start
}

# daemon NAME CMD...: start CMD (staying in the foreground) in the
# background, its pid kept for test_cleanup.
daemon() {
	local name=$1
	shift
	"$@" > "$NFSDIR/$name.log" 2>&1 &
	echo $! > "$PIDS/$name"
}

nfs_server_start() {
	mkdir -p /run/rpcbind /var/lib/nfs/v4recovery
	daemon rpcbind rpcbind -f -w
	t_wait_for 10 rpcinfo -p 127.0.0.1 >/dev/null 2>&1 ||
		t_fail "rpcbind did not come up: $(cat "$NFSDIR/rpcbind.log")"
	# nfsd before mountd: mountd answers the export caches' upcalls only
	# for the channels that exist when it starts.
	t_run modprobe nfsd
	mountpoint -q /proc/fs/nfsd || t_run mount -t nfsd nfsd /proc/fs/nfsd
	# fsid=0: the tmpfs is NFSv4's root (the guest's root, an overlay,
	# cannot give the file handles of a pseudo root above it); NFSv3
	# mounts it by its path.
	echo "$EXPORT 10.77.0.0/24(rw,no_root_squash,insecure,no_subtree_check,fsid=0)" > /etc/exports
	t_run exportfs -ra
	daemon mountd rpc.mountd -F -p 20048
	# The shortest NFSv4 grace period and lease (OPENs wait it out).
	echo 10 > /proc/fs/nfsd/nfsv4gracetime || t_fail "cannot set the NFSv4 grace time"
	echo 10 > /proc/fs/nfsd/nfsv4leasetime || t_fail "cannot set the NFSv4 lease time"
	t_run rpc.nfsd 4
	echo "rdma 20049" > /proc/fs/nfsd/portlist ||
		t_fail "knfsd refused the rdma listener: $(dmesg | tail -n 5)"
	cat /proc/fs/nfsd/portlist
	grep -qx "rdma 20049" /proc/fs/nfsd/portlist ||
		t_fail "no 'rdma 20049' in portlist: $(cat /proc/fs/nfsd/portlist)"
	rdma res show cm_id | grep -q "state LISTEN .*src-addr 0.0.0.0:20049" ||
		t_fail "no rdma_cm listener on :20049: $(rdma res show cm_id)"
	t_wait_for 10 rpcinfo -p 127.0.0.1 mountd >/dev/null 2>&1 ||
		rpcinfo -p 127.0.0.1 | grep -q mountd ||
		t_fail "rpc.mountd did not register: $(cat "$NFSDIR/mountd.log")"
	t_log "knfsd listens on rdma 20049, exporting $EXPORT (tmpfs)"
}

daemon_stop() {
	local pid
	[ -r "$PIDS/$1" ] || return 0
	read -r pid < "$PIDS/$1"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$PIDS/$1"
}

nfs_server_stop() {
	mountpoint -q /proc/fs/nfsd && rpc.nfsd 0 2>/dev/null
	exportfs -au 2>/dev/null
	daemon_stop mountd
	daemon_stop rpcbind
	mountpoint -q /proc/fs/nfsd && umount /proc/fs/nfsd
	: > /etc/exports
}

# nfs_unload: every module NFS brought in, rpcrdma last; their exits can
# wait for transports still closing, hence the retries.
NFS_MODS="nfsv4 nfsv3 nfs nfsd rpcrdma"

# mod_gone M: module M is not loaded, or unloads now.
mod_gone() { [ ! -d "/sys/module/$1" ] || modprobe -r "$1" 2>/dev/null; }

nfs_unload() {
	local m
	for m in $NFS_MODS; do
		t_wait_for 20 mod_gone "$m"
	done
}

test_cleanup() {
	if [ -d "$TRACE/events/rpcrdma" ]; then
		echo 0 > "$TRACE/events/rpcrdma/enable"
		echo 0 > "$TRACE/events/sunrpc/enable"
	fi
	umount -f "$MNT" 2>/dev/null
	nfs_server_stop
	nfs_unload
	umount "$EXPORT" 2>/dev/null
	rm -rf "$NFSDIR"
	rxe_pair_cleanup
	true
}

# nfs_mount VERS: mount the export from the rxe1 namespace over RDMA.
nfs_mount() {
	local line path=$EXPORT
	[ "$1" = 3 ] || path=/
	echo "+ mount vers=$1 $IPA:$path"
	timeout 120 nsenter --net=/run/netns/"$NS" mount -v -t nfs \
		-o "vers=$1,proto=rdma,port=20049,nolock" "$IPA:$path" "$MNT" ||
		{ nfs_diag; t_fail "vers=$1 mount over rdma failed"; }
	line=$(grep " $MNT nfs" /proc/mounts) || t_fail "no nfs mount on $MNT"
	t_log "$line"
	case ",${line#* * * }" in
	*,proto=rdma,*) ;;
	*) t_fail "vers=$1 mount is not over rdma: $line" ;;
	esac
	case "$line" in
	*,port=20049,*) ;;
	*) t_fail "vers=$1 mount is not on port 20049: $line" ;;
	esac
	awk -v m="$MNT" '$1 == "device" && $5 == m { on = 1; next }
		$1 == "device" { on = 0 } on && $1 == "xprt:" { print; exit }' \
		/proc/self/mountstats | grep -q "xprt:[[:space:]]*rdma" ||
		t_fail "mountstats shows no rdma transport for $MNT"
}

# nfs_diag: what the stack and the daemons show, when a step failed.
nfs_diag() {
	rdma_diag rxe0 rxe1
	rpcinfo -p 127.0.0.1
	cat /proc/fs/nfsd/portlist
	tail -n 20 "$NFSDIR"/*.log
	[ -r "$TRACE/trace" ] && tail -n 150 "$TRACE/trace"
	dmesg | tail -n 40
}

nfs_umount() { t_run umount "$MNT"; }

sha() { sha256sum < "$1" | cut -d' ' -f1; }

# drops_none DEV: no rcvd_drop_* counter of DEV moved since counters_mark.
drops_none() {
	local f
	for f in "$IB_CLASS/$1"/ports/1/hw_counters/rcvd_drop_*; do
		expect_counter "$1" "${f##*/}" -eq 0
	done
}

# nfs_case VERS: the checks of the header for one NFS version.
nfs_case() {
	local v=$1 i t0=$SECONDS

	head -c 4M /dev/urandom > "$SRC/srv-$v"
	head -c 4M /dev/urandom > "$SRC/cli-$v"
	cp "$SRC/srv-$v" "$EXPORT/srv-$v"
	counters_mark rxe0 rxe1
	nfs_mount "$v"
	rdma res show cm_id | grep -q "state CONNECT.*dst-addr $IPA:20049" ||
		t_fail "no connected rdma_cm id to $IPA:20049: $(rdma res show cm_id)"

	t_eq "vers=$v read of srv-$v" "$(sha "$SRC/srv-$v")" "$(sha "$MNT/srv-$v")"
	t_run dd if="$SRC/cli-$v" of="$MNT/cli-$v" bs=1M conv=fsync status=none
	t_eq "vers=$v write of cli-$v, on the server" "$(sha "$SRC/cli-$v")" "$(sha "$EXPORT/cli-$v")"
	mkdir "$MNT/small-$v" || t_fail "mkdir over vers=$v failed"
	for i in $(seq 1 40); do
		echo "file $i of vers=$v" > "$MNT/small-$v/f$i" ||
			t_fail "creating small file $i over vers=$v failed"
	done
	t_eq "vers=$v small files listed" 40 "$(ls "$MNT/small-$v" | wc -l)"
	nfs_umount

	nfs_mount "$v"
	t_eq "vers=$v read back of cli-$v" "$(sha "$SRC/cli-$v")" "$(sha "$MNT/cli-$v")"
	for i in 1 17 40; do
		t_eq "vers=$v small file $i" "file $i of vers=$v" "$(cat "$MNT/small-$v/f$i")"
	done
	nfs_umount

	# 4 MiB written, 8 MiB read (srv once, cli once), in 1 KiB packets.
	expect_counter rxe0 rcvd_pkts -ge 4096
	expect_counter rxe1 rcvd_pkts -ge 8192
	drops_none rxe0
	drops_none rxe1
	t_log "vers=$v done in $((SECONDS - t0)) s"
}

test_run() {
	nfs_case 3
	nfs_case 4.2
	t_run rpc.nfsd 0
	nfs_server_stop
	local m
	for m in $NFS_MODS; do
		t_wait_for 20 mod_gone "$m" || t_fail "$m does not unload: $(lsmod | grep -E "^$m ")"
	done
	m=$(rdma res show cm_id 2>/dev/null | grep -c . || true)
	[ "$m" -eq 0 ] || t_fail "NFS left $m cm_id rows: $(rdma res show cm_id)"
}
