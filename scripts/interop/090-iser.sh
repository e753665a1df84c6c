# interop/090-iser: iSER between the two stacks, data verified both ways.
#
# 1. The inbox stack is the target: the peer's LIO with the inbox ib_isert
#    exports a 64 MiB ramdisk at PEER_IP:3260 with iSER on; our ib_iser
#    (open-iscsi's iser interface) logs in over our rdma_cm, verbs and
#    rxe; fourteen verifying fio jobs, then ext4 files of known sha256
#    across an unmount, a logout, a login and a mount.
# 2. Ours is the target: our LIO with our ib_isert at OUR_IP:3260; the
#    peer's inbox ib_iser logs in and runs the same verifying fio jobs
#    there, while our target's rdma_cm id shows the connection.
# The helpers are those of tests/105-iser (scripts/guest/iser.sh,
# blkverify.sh), sourced on both sides with IPA set to the portal's
# address.
TEST_TIMEOUT=900
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"
. "$RDMAOOT_TOP/scripts/guest/iser.sh"
. "$RDMAOOT_TOP/scripts/guest/blkverify.sh"

OUTDIR=/tmp/i090
MNT=$OUTDIR/mnt
# What a peer command sources first: the test library and the helpers.
PEER_LIBS=". $RDMAOOT_TOP/scripts/guest/testlib.sh; . $RDMAOOT_TOP/scripts/guest/iser.sh; . $RDMAOOT_TOP/scripts/guest/blkverify.sh; OUTDIR=/tmp/i090p; mkdir -p \$OUTDIR"

test_setup() {
	command -v mkfs.ext4 >/dev/null || t_skip "mkfs.ext4 (e2fsprogs) is not installed"
	mkdir -p "$MNT"
	interop_ours_up
	iser_setup
}

# The cleanup runs outside test_run's shell: IPA is set again, to the
# portal of our target.
test_cleanup() {
	umount "$MNT" 2>/dev/null
	IPA=$OUR_IP
	iser_cleanup
	peer_start "$PEER_LIBS; IPA=$PEER_IP; iser_cleanup; IPA=$OUR_IP; iser_cleanup"
	peer_wait "$PEER_N" 60
	interop_ours_down
}

# our_target_connected: our target has a connected rdma_cm id on its portal.
our_target_connected() { rdma res show cm_id | grep -q "state CONNECT.*src-addr $OUR_IP:3260 "; }
our_target_idle() { ! rdma res show cm_id | grep -v "state LISTEN" | grep -q "src-addr $OUR_IP:3260 "; }

test_run() {
	local t n

	# 1. inbox target, our initiator
	t=$EPOCHREALTIME
	peer_run 120 "$PEER_LIBS; IPA=$PEER_IP; iser_setup && iser_target_up"
	IPA=$PEER_IP
	iser_initiator_up
	iser_login
	iser_session_check
	t_log "our initiator logged in to the inbox target at $PEER_IP: $DEV in $LOGIN_TIME s"
	blkv_fio
	t_log "fio on the inbox target: 14 jobs verified ($(t_elapsed "$t") s)"
	blkv_files_write "$MNT"
	iser_logout
	iser_login
	blkv_files_check "$MNT"
	iser_logout
	t_log "ext4 on the inbox target across a new session: files checked ($(t_elapsed "$t") s)"
	peer_run 60 "$PEER_LIBS; IPA=$PEER_IP; iser_cleanup"

	# 2. our target, inbox initiator
	t=$EPOCHREALTIME
	IPA=$OUR_IP
	iser_target_up
	peer_start "$PEER_LIBS; IPA=$OUR_IP; iser_setup && iser_initiator_up && iser_login && iser_session_check && blkv_fio && iser_logout && echo verified"
	n=$PEER_N
	t_wait_for 120 our_target_connected || t_fail "the inbox initiator never connected to our target: $(rdma res show cm_id)"
	t_log "our target has the inbox initiator's connection"
	peer_wait "$n" 600 || t_fail "on the peer, the iSER session on our target failed ($PEER_RC): $(printf '%s\n' "$PEER_ERR$PEER_OUT" | tail -n 3)"
	printf '%s\n' "$PEER_OUT" | grep -qx verified || t_fail "the inbox initiator did not verify its data on our target"
	t_log "the inbox initiator logged in to our target at $OUR_IP, 14 fio jobs verified there ($(t_elapsed "$t") s)"
	t_wait_for 30 our_target_idle || t_fail "our target kept the connection after the inbox initiator logged out: $(rdma res show cm_id; rdma res show qp)"
	t_log "our target let the connection go after the logout"
}
