# scripts/guest/nfs.sh - a knfsd server listening on rdma 20049 and an NFS
# client mounting over RDMA, for the NFS/RDMA tests (scripts/tests/103,
# scripts/interop/100). Sourced after testlib.sh; the one-guest test also
# has rxe-pair.sh.
#
# The test sets NFSDIR (a folder of its own, made by nfs_dirs) and
# NFS_CLIENTS (who may mount the export, an exports(5) host list). The
# server runs rpcbind and rpc.mountd by hand (the guests have no init
# system), exports a tmpfs on $EXPORT (fsid=0, so also NFSv4's root) and
# adds "rdma 20049" to knfsd's listeners; NFSv4's grace period and lease
# are at their 10 s minimum. A client mounts on $MNT, from the network
# namespace NFS_NETNS when that is set.

TRACE=/sys/kernel/tracing
# Every module NFS brings in, rpcrdma last.
NFS_MODS="nfsv4 nfsv3 nfs nfsd rpcrdma"

# nfs_paths: the test's folders under NFSDIR (export, mount point,
# sources, pids); nfs_dirs also makes them.
nfs_paths() {
	EXPORT=$NFSDIR/export
	MNT=$NFSDIR/mnt
	SRC=$NFSDIR/src
	PIDS=$NFSDIR/pids
}

nfs_dirs() {
	nfs_paths
	mkdir -p "$EXPORT" "$MNT" "$SRC" "$PIDS"
}

# nfs_tools: skip unless the NFS programs and the rebuilt rpcrdma exist.
nfs_tools() {
	local c
	for c in rpc.nfsd rpc.mountd rpcbind exportfs mount.nfs nsenter sha256sum; do
		command -v "$c" >/dev/null || t_skip "$c is not installed (nfs-kernel-server, nfs-common, rpcbind)"
	done
	t_mod_path rpcrdma >/dev/null || t_skip "rpcrdma is not built (make ulps)"
	t_mod_path nfsd >/dev/null || t_skip "the kernel has no nfsd module"
}

# nfs_trace on|off: rpcrdma's and sunrpc's tracepoints, for nfs_diag.
nfs_trace() {
	local v=0
	[ "$1" = on ] && v=1
	for TRACE in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -d "$TRACE/events/rpcrdma" ] && break
	done
	[ -d "$TRACE/events/rpcrdma" ] || return 0
	echo "$v" > "$TRACE/events/rpcrdma/enable"
	echo "$v" > "$TRACE/events/sunrpc/enable"
}

# nfs_daemon NAME CMD...: start CMD (staying in the foreground) in the
# background, its pid kept for nfs_daemon_stop.
nfs_daemon() {
	local name=$1
	shift
	"$@" > "$NFSDIR/$name.log" 2>&1 &
	echo $! > "$PIDS/$name"
}

nfs_daemon_stop() {
	local pid
	[ -r "$PIDS/$1" ] || return 0
	read -r pid < "$PIDS/$1"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$PIDS/$1"
}

# nfs_server_start: the tmpfs exported to NFS_CLIENTS, knfsd on rdma 20049.
nfs_server_start() {
	t_run mount -t tmpfs -o size=64m nfsexport "$EXPORT"
	t_run modprobe rpcrdma
	mkdir -p /run/rpcbind /var/lib/nfs/v4recovery
	nfs_daemon rpcbind rpcbind -f -w
	t_wait_for 10 rpcinfo -p 127.0.0.1 >/dev/null 2>&1 ||
		t_fail "rpcbind did not come up: $(cat "$NFSDIR/rpcbind.log")"
	# nfsd before mountd: mountd answers the export caches' upcalls only
	# for the channels that exist when it starts.
	t_run modprobe nfsd
	mountpoint -q /proc/fs/nfsd || t_run mount -t nfsd nfsd /proc/fs/nfsd
	# fsid=0: the tmpfs is NFSv4's root (the guest's root, an overlay,
	# cannot give the file handles of a pseudo root above it); NFSv3
	# mounts it by its path.
	echo "$EXPORT $NFS_CLIENTS(rw,no_root_squash,insecure,no_subtree_check,fsid=0)" > /etc/exports
	t_run exportfs -ra
	nfs_daemon mountd rpc.mountd -F -p 20048
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
	t_log "knfsd listens on rdma 20049, exporting $EXPORT (tmpfs) to $NFS_CLIENTS"
}

# nfs_server_stop: knfsd stopped, the export and the daemons gone.
nfs_server_stop() {
	mountpoint -q /proc/fs/nfsd && rpc.nfsd 0 2>/dev/null
	exportfs -au 2>/dev/null
	nfs_daemon_stop mountd
	nfs_daemon_stop rpcbind
	mountpoint -q /proc/fs/nfsd && umount /proc/fs/nfsd
	: > /etc/exports
	umount "$EXPORT" 2>/dev/null
	true
}

# nfs_mod_gone M: module M is not loaded, or unloads now.
nfs_mod_gone() { [ ! -d "/sys/module/$1" ] || modprobe -r "$1" 2>/dev/null; }

# nfs_unload: NFS_MODS unloaded; their exits can wait for transports
# still closing, hence the waits. Fails naming the first that stays.
nfs_unload() {
	local m
	for m in $NFS_MODS; do
		t_wait_for 20 nfs_mod_gone "$m" || t_fail "$m does not unload: $(lsmod | grep -E "^$m ")"
	done
}

# nfs_mount VERS SERVER [PATH]: mount the export of SERVER over RDMA on
# MNT (NFSv3 by its path, PATH or this side's EXPORT; NFSv4 as /), and
# check that the mount, mountstats and the port say rdma.
nfs_mount() {
	local line path=${3:-$EXPORT} ns=()
	[ "$1" = 3 ] || path=/
	[ -z "${NFS_NETNS:-}" ] || ns=(nsenter --net=/run/netns/"$NFS_NETNS")
	echo "+ mount vers=$1 $2:$path"
	timeout 120 "${ns[@]}" mount -v -t nfs \
		-o "vers=$1,proto=rdma,port=20049,nolock" "$2:$path" "$MNT" ||
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

nfs_umount() { t_run umount "$MNT"; }

# nfs_client_case VERS SERVER PATH SUM: a client's checks against a server
# of the other stack, whose export holds srv-VERS of sha256 SUM: it reads
# back the same through a mount; a 4 MiB file written through the mount
# (fsync'ed) as cli-VERS reads back the same through a fresh mount.
# Prints "cli-VERS <sha256>" for the server to check its copy.
nfs_client_case() {
	local v=$1 cli=$NFSDIR/cli-$1 sum
	nfs_mount "$v" "$2" "$3"
	t_eq "vers=$v read of srv-$v from $2" "$4" "$(nfs_sha "$MNT/srv-$v")"
	head -c 4M /dev/urandom > "$cli"
	sum=$(nfs_sha "$cli")
	t_run dd if="$cli" of="$MNT/cli-$v" bs=1M conv=fsync status=none
	nfs_umount
	nfs_mount "$v" "$2" "$3"
	t_eq "vers=$v read back of cli-$v from $2" "$sum" "$(nfs_sha "$MNT/cli-$v")"
	nfs_umount
	echo "cli-$v $sum"
}

# nfs_diag: what the stack and the daemons show, when a step failed.
# With rxe-pair.sh's rdma_diag, also the counters of NFS_DIAG_DEVS.
nfs_diag() {
	if declare -F rdma_diag >/dev/null; then
		rdma_diag ${NFS_DIAG_DEVS:-}
	else
		rdma res show cm_id
		rdma res show qp
	fi
	rpcinfo -p 127.0.0.1
	cat /proc/fs/nfsd/portlist 2>/dev/null
	tail -n 20 "$NFSDIR"/*.log
	[ -r "$TRACE/trace" ] && tail -n 150 "$TRACE/trace"
	dmesg | tail -n 40
}

# nfs_sha FILE: FILE's sha256.
nfs_sha() { sha256sum < "$1" | cut -d' ' -f1; }

# nfs_cleanup: whatever part of server and client was set up, undone.
nfs_cleanup() {
	nfs_paths
	nfs_trace off
	umount -f "$MNT" 2>/dev/null
	nfs_server_stop
	local m
	for m in $NFS_MODS; do
		t_wait_for 20 nfs_mod_gone "$m"
	done
	rm -rf "$NFSDIR"
	true
}
