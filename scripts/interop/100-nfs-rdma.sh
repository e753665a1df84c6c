# interop/100-nfs-rdma: NFS over RDMA between the two stacks, NFSv3 and
# NFSv4.2, data verified both ways.
#
# 1. The inbox stack serves: the peer's knfsd with the inbox rpcrdma
#    listens on rdma 20049 of PEER_IP, exporting a tmpfs; our NFS client,
#    over our rebuilt rpcrdma, rdma_cm, verbs and rxe, mounts it with
#    proto=rdma,port=20049 (the mount, its port and mountstats' transport
#    checked) and, for each version, reads a 4 MiB file the peer made
#    (same sha256 as the peer computed), writes one through the mount
#    (fsync'ed) that the peer then finds on its tmpfs with our sha256, and
#    reads it back through a fresh mount.
# 2. Ours serves: our knfsd with our rpcrdma on OUR_IP, and the peer's
#    inbox client does the same against it; we check its file on our
#    tmpfs.
# Then both servers stop and every NFS module unloads on our side. The
# server and client helpers are those of tests/103 (scripts/guest/nfs.sh),
# sourced on both sides.
TEST_TIMEOUT=600
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"
. "$RDMAOOT_TOP/scripts/guest/nfs.sh"

NFSDIR=/tmp/i100
NFS_CLIENTS=10.88.0.0/24
PEER_DIR=/tmp/i100p
# What a peer command sources first: the test library and the helpers.
PEER_LIBS=". $RDMAOOT_TOP/scripts/guest/testlib.sh; . $RDMAOOT_TOP/scripts/guest/nfs.sh; NFSDIR=$PEER_DIR; NFS_CLIENTS=$NFS_CLIENTS; nfs_paths"

test_setup() {
	nfs_tools
	interop_ours_up
	nfs_dirs
}

test_cleanup() {
	nfs_cleanup
	peer_start "$PEER_LIBS; nfs_cleanup"
	peer_wait "$PEER_N" 90
	interop_ours_down
}

# peer_sum FILE: the sha256 of FILE on the peer, in SUM.
peer_sum() {
	peer_run 30 "$PEER_LIBS; nfs_sha $1"
	SUM=$(printf '%s\n' "$PEER_OUT" | tail -n 1)
	[ ${#SUM} = 64 ] || t_fail "no sha256 of $1 from the peer: $PEER_OUT"
}

test_run() {
	local v t sum got

	# 1. inbox server, our client
	t=$EPOCHREALTIME
	peer_run 120 "$PEER_LIBS; nfs_dirs && nfs_server_start"
	t_run modprobe rpcrdma
	case $(t_mod_path rpcrdma) in
	*/updates/*) ;;
	*) t_fail "rpcrdma is not the one rebuilt against us: $(t_mod_path rpcrdma)" ;;
	esac
	for v in 3 4.2; do
		peer_run 30 "$PEER_LIBS; head -c 4M /dev/urandom > $PEER_DIR/export/srv-$v"
		peer_sum "$PEER_DIR/export/srv-$v"
		nfs_client_case "$v" "$PEER_IP" "$PEER_DIR/export" "$SUM"
		sum=$(nfs_sha "$NFSDIR/cli-$v")
		peer_sum "$PEER_DIR/export/cli-$v"
		t_eq "vers=$v: our file on the inbox server's tmpfs" "$sum" "$SUM"
		t_log "vers=$v: our client read and wrote 4 MiB on the inbox server, checked"
	done
	nfs_unload
	peer_run 90 "$PEER_LIBS; nfs_cleanup"
	t_log "our client against the inbox server: done ($(t_elapsed "$t") s)"

	# 2. our server, inbox client
	t=$EPOCHREALTIME
	nfs_server_start
	for v in 3 4.2; do
		head -c 4M /dev/urandom > "$EXPORT/srv-$v"
		sum=$(nfs_sha "$EXPORT/srv-$v")
		peer_run 180 "$PEER_LIBS; nfs_dirs && modprobe rpcrdma && nfs_client_case $v $OUR_IP $EXPORT $sum"
		got=$(printf '%s\n' "$PEER_OUT" | sed -n "s/^cli-$v \([0-9a-f]\{64\}\)$/\1/p")
		[ -n "$got" ] || t_fail "the inbox client did not report its file: $PEER_OUT"
		t_eq "vers=$v: the inbox client's file on our tmpfs" "$got" "$(nfs_sha "$EXPORT/cli-$v")"
		t_log "vers=$v: the inbox client read and wrote 4 MiB on our server, checked"
	done
	peer_run 90 "$PEER_LIBS; nfs_cleanup"
	t_run rpc.nfsd 0
	nfs_server_stop
	nfs_unload
	[ -z "$(rdma res show cm_id 2>/dev/null)" ] || t_fail "NFS left rdma_cm ids: $(rdma res show cm_id)"
	t_log "the inbox client against our server: done ($(t_elapsed "$t") s)"
}
