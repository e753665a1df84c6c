# 101-nvme-rdma: NVMe over Fabrics over our soft-RoCE, data verified.
#
# nvmet (the kernel's target, its rdma transport rebuilt against our
# stack, make ulps) exports a 64 MiB ramdisk (brd) as namespace 1 of a
# subsystem on an rdma port at 10.77.0.1:4420, rxe0's address; the
# kernel's host (nvme-rdma, ours too) connects to it from the same guest
# with nvme-cli, two I/O queues, so every command and its data cross
# rxe0 (a device talking to itself: rxe's loopback path) through our
# rdma_cm, verbs and rxe. Then:
#  - fio, fourteen jobs at once (4 KiB to 1 MiB blocks, sequential and
#    random, queue depths 4 to 16, 64 MiB in all), every block written
#    then read back and checked (crc32c); fio's exit status, its JSON (no
#    job error, everything written read back) and its log (no verify
#    complaint);
#  - 20 disconnect/connect cycles, each reading back and checking what
#    the previous one wrote, and writing a new block;
#  - ext4 made on the namespace, files of known sha256 written, the
#    filesystem unmounted, the host disconnected and connected again,
#    remounted, the files compared.
# Timings are logged. Stock only: the debug kernel is configured without
# RDMA, so without these ULPs.
TEST_KERNELS=stock
TEST_TIMEOUT=420

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"
. "$RDMAOOT_TOP/scripts/guest/nvmf.sh"
. "$RDMAOOT_TOP/scripts/guest/blkverify.sh"

OUTDIR=/tmp/101
MNT=$OUTDIR/mnt
CYCLES=20

test_setup() {
	command -v mkfs.ext4 >/dev/null || t_skip "mkfs.ext4 (e2fsprogs) is not installed"
	mkdir -p "$MNT"
	rxe_pair_setup
	nvmf_setup
}

test_cleanup() {
	umount "$MNT" 2>/dev/null
	nvmf_cleanup
	rxe_pair_cleanup
}

test_run() {
	local t0 t i
	t0=$EPOCHREALTIME
	nvmf_target_up
	t_log "target up: $NQN, namespace 1 on $RAMDISK, rdma port $IPA:$TRSVCID ($(t_elapsed "$t0") s)"

	counters_mark rxe0
	nvmf_connect
	t_log "connected: $DEV in $CONNECT_TIME s"
	nvmf_host_check

	# 1. fio, verifying
	t=$EPOCHREALTIME
	blkv_fio
	t_log "fio: 14 jobs, 64 MiB written and verified in $(t_elapsed "$t") s"
	# Every byte went through rxe0 (to itself): 64 MiB each way, at most
	# 4096 bytes a packet, is at least 32768 packets.
	expect_counter rxe0 sent_pkts -ge 32768
	expect_counter rxe0 rcvd_pkts -ge 32768

	# 2. disconnect and connect again, checking data across each cycle
	t=$EPOCHREALTIME
	blk_write 60
	for i in $(seq 1 "$CYCLES"); do
		nvmf_disconnect
		nvmf_connect
		blk_check 60
		blk_write 60
		t_log "cycle $i/$CYCLES: connected in $CONNECT_TIME s, 64 KiB checked"
	done
	nvmf_host_check
	t_log "$CYCLES disconnect/connect cycles, data checked after each ($(t_elapsed "$t") s, last connect $CONNECT_TIME s)"

	# 3. a filesystem, its files checked across a remount and a reconnect
	t=$EPOCHREALTIME
	blkv_files_write "$MNT"
	nvmf_disconnect
	nvmf_connect
	blkv_files_check "$MNT"
	t_log "ext4: 4 files (4.3 MiB) written, remounted over a new connection, checked ($(t_elapsed "$t") s)"

	nvmf_disconnect
	t_log "total $(t_elapsed "$t0") s"
}
