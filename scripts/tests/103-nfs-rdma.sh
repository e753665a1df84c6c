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
# Server and client helpers: scripts/guest/nfs.sh. Stock only: the debug
# kernel is configured without sunrpc, so without these ULPs. Measured: 109 s on the stock kernel under TCG (15 s for
# each version's data).
TEST_KERNELS=stock
TEST_TIMEOUT=400

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"
. "$RDMAOOT_TOP/scripts/guest/nfs.sh"

NFSDIR=/tmp/103
NFS_CLIENTS=10.77.0.0/24
NFS_DIAG_DEVS="rxe0 rxe1"
# The client mounts from rxe1's namespace.
NFS_NETNS=$NS

test_setup() {
	nfs_tools
	rxe_pair_setup
	nfs_dirs
	nfs_trace on
	nfs_server_start
}

test_cleanup() {
	nfs_cleanup
	rxe_pair_cleanup
	true
}

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
	nfs_mount "$v" "$IPA"
	rdma res show cm_id | grep -q "state CONNECT.*dst-addr $IPA:20049" ||
		t_fail "no connected rdma_cm id to $IPA:20049: $(rdma res show cm_id)"

	t_eq "vers=$v read of srv-$v" "$(nfs_sha "$SRC/srv-$v")" "$(nfs_sha "$MNT/srv-$v")"
	t_run dd if="$SRC/cli-$v" of="$MNT/cli-$v" bs=1M conv=fsync status=none
	t_eq "vers=$v write of cli-$v, on the server" "$(nfs_sha "$SRC/cli-$v")" "$(nfs_sha "$EXPORT/cli-$v")"
	mkdir "$MNT/small-$v" || t_fail "mkdir over vers=$v failed"
	for i in $(seq 1 40); do
		echo "file $i of vers=$v" > "$MNT/small-$v/f$i" ||
			t_fail "creating small file $i over vers=$v failed"
	done
	t_eq "vers=$v small files listed" 40 "$(ls "$MNT/small-$v" | wc -l)"
	nfs_umount

	nfs_mount "$v" "$IPA"
	t_eq "vers=$v read back of cli-$v" "$(nfs_sha "$SRC/cli-$v")" "$(nfs_sha "$MNT/cli-$v")"
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
	nfs_unload
	local m
	m=$(rdma res show cm_id 2>/dev/null | grep -c . || true)
	[ "$m" -eq 0 ] || t_fail "NFS left $m cm_id rows: $(rdma res show cm_id)"
}
