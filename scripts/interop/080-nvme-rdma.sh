# interop/080-nvme-rdma: NVMe over Fabrics between the two stacks, data
# verified both ways.
#
# 1. The inbox stack is the target: the peer's nvmet (inbox nvmet-rdma on
#    the inbox soft-RoCE) exports a 64 MiB ramdisk on PEER_IP:4420; our
#    nvme-rdma connects to it over our rdma_cm, verbs and rxe; fourteen
#    verifying fio jobs, then ext4 files of known sha256 across an
#    unmount, a disconnect, a connect and a mount.
# 2. Ours is the target: our nvmet-rdma exports the same kind of ramdisk
#    on OUR_IP:4420; the peer's inbox nvme-rdma connects and runs the same
#    verifying fio jobs there.
# The helpers are those of the one-guest tests (scripts/guest/nvmf.sh,
# blkverify.sh), sourced on both sides with IPA set to the target's
# address.
TEST_TIMEOUT=900
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"
. "$RDMAOOT_TOP/scripts/guest/nvmf.sh"
. "$RDMAOOT_TOP/scripts/guest/blkverify.sh"

OUTDIR=/tmp/i080
MNT=$OUTDIR/mnt
# What a peer command sources first: the test library and the helpers.
PEER_LIBS=". $RDMAOOT_TOP/scripts/guest/testlib.sh; . $RDMAOOT_TOP/scripts/guest/nvmf.sh; . $RDMAOOT_TOP/scripts/guest/blkverify.sh; OUTDIR=/tmp/i080p; mkdir -p \$OUTDIR"

test_setup() {
	command -v mkfs.ext4 >/dev/null || t_skip "mkfs.ext4 (e2fsprogs) is not installed"
	mkdir -p "$MNT"
	interop_ours_up
	nvmf_setup
}

test_cleanup() {
	umount "$MNT" 2>/dev/null
	nvmf_cleanup
	peer_start "$PEER_LIBS; nvmf_cleanup"
	peer_wait "$PEER_N" 60
	interop_ours_down
}

test_run() {
	local t

	# 1. inbox target, our host
	t=$EPOCHREALTIME
	peer_run 120 "$PEER_LIBS; IPA=$PEER_IP; nvmf_setup && nvmf_target_up"
	IPA=$PEER_IP
	nvmf_connect
	nvmf_host_check
	t_log "our host connected to the inbox target at $PEER_IP: $DEV in $CONNECT_TIME s"
	blkv_fio
	t_log "fio on the inbox target: 14 jobs verified ($(t_elapsed "$t") s)"
	blkv_files_write "$MNT"
	nvmf_disconnect
	nvmf_connect
	blkv_files_check "$MNT"
	nvmf_disconnect
	t_log "ext4 on the inbox target across a reconnect: files checked ($(t_elapsed "$t") s)"
	peer_run 60 "$PEER_LIBS; nvmf_cleanup"

	# 2. our target, inbox host
	t=$EPOCHREALTIME
	IPA=$OUR_IP
	nvmf_target_up
	peer_run 600 "$PEER_LIBS; IPA=$OUR_IP; nvmf_setup && nvmf_connect && nvmf_host_check && blkv_fio && nvmf_disconnect && echo verified"
	printf '%s\n' "$PEER_OUT" | grep -qx verified || t_fail "the inbox host did not verify its data on our target"
	t_log "the inbox host connected to our target at $OUR_IP, 14 fio jobs verified there ($(t_elapsed "$t") s)"
}
