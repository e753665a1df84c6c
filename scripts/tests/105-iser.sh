# 105-iser: iSCSI over RDMA (iSER) over our soft-RoCE, data verified.
#
# The kernel's iSCSI target (LIO, configured through configfs; its iSER
# transport ib_isert rebuilt against our stack) exports a 64 MiB ramdisk
# (brd) as LUN 0 of a target whose portal at rxe0's address 10.77.0.1:3260
# has iSER enabled. open-iscsi's initiator logs in through its built-in
# "iser" interface from the same guest (ib_iser, ours too), so every PDU
# and its data cross rxe0 (a device talking to itself) through our
# rdma_cm, verbs and rxe. Then:
#  - the session is iSER, the target's rdma_cm listener and both ends of
#    the connection are in rdma res;
#  - fio, fourteen verifying jobs at once (4 KiB to 1 MiB, sequential and
#    random, queue depths 4 to 16), every block written then read back and
#    checked (scripts/guest/blkverify.sh);
#  - 10 logout/login cycles, each reading back and checking what the
#    previous one wrote;
#  - ext4 made on the disk, files of known sha256, unmount, logout, login,
#    remount, compared.
# Stock only: the debug kernel is configured without RDMA, so without
# these ULPs.
TEST_KERNELS=stock
TEST_TIMEOUT=420

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"
. "$RDMAOOT_TOP/scripts/guest/blkverify.sh"
. "$RDMAOOT_TOP/scripts/guest/iser.sh"

OUTDIR=/tmp/105
MNT=$OUTDIR/mnt
CYCLES=10

test_setup() {
	command -v mkfs.ext4 >/dev/null || t_skip "mkfs.ext4 (e2fsprogs) is not installed"
	mkdir -p "$MNT"
	rxe_pair_setup
	iser_setup
}

test_cleanup() {
	umount "$MNT" 2>/dev/null
	iser_cleanup
	rxe_pair_cleanup
}

test_run() {
	local t0 t i
	t0=$EPOCHREALTIME
	iser_target_up
	t_log "target up: $IQN, LUN 0 on $RAMDISK, iSER portal $(iser_portal) ($(t_elapsed "$t0") s)"
	iser_initiator_up

	counters_mark rxe0
	iser_login
	t_log "logged in: $DEV in $LOGIN_TIME s"
	iser_session_check
	iser_target_check

	# 1. fio, verifying
	t=$EPOCHREALTIME
	blkv_fio
	t_log "fio: 14 jobs, 60 MiB written and verified in $(t_elapsed "$t") s"
	# Every byte went through rxe0 (to itself): 60 MiB each way, at most
	# 4096 bytes a packet, is at least 30720 packets.
	expect_counter rxe0 sent_pkts -ge 30720
	expect_counter rxe0 rcvd_pkts -ge 30720

	# 2. log out and in again, checking data across each cycle
	t=$EPOCHREALTIME
	blk_write 60
	for i in $(seq 1 "$CYCLES"); do
		iser_logout
		iser_login
		blk_check 60
		blk_write 60
		t_log "cycle $i/$CYCLES: logged in in $LOGIN_TIME s, 64 KiB checked"
	done
	iser_session_check
	iser_target_check
	t_log "$CYCLES logout/login cycles, data checked after each ($(t_elapsed "$t") s)"

	# 3. a filesystem, its files checked across a remount and a new session
	t=$EPOCHREALTIME
	blkv_files_write "$MNT"
	iser_logout
	iser_login
	blkv_files_check "$MNT"
	t_log "ext4: 4 files (4.3 MiB) written, remounted over a new session, checked ($(t_elapsed "$t") s)"

	iser_logout
	t_log "total $(t_elapsed "$t0") s"
}
