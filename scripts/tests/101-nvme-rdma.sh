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

# fio_file: seven verifying jobs of two instances each, every instance
# on its own range of the 64 MiB namespace (offset + size * instance),
# all fourteen running at once.
fio_job() { # NAME RW BSMIN-BSMAX IODEPTH OFFSET SIZE
	printf '[%s]\nrw=%s\nbsrange=%s\niodepth=%s\noffset=%s\nsize=%s\noffset_increment=%s\n\n' \
		"$1" "$2" "$3" "$4" "$5" "$6" "$6"
}

fio_file() {
	printf '[global]\nfilename=%s\nioengine=libaio\ndirect=1\nverify=crc32c\n' "$DEV"
	printf 'do_verify=1\nverify_fatal=1\nverify_dump=0\nverify_state_save=0\nnumjobs=2\n\n'
	fio_job seq4k write 4k-4k 8 0 2M
	fio_job rand4k randwrite 4k-4k 16 4M 2M
	fio_job seq128k write 128k-128k 4 8M 4M
	fio_job rand64k randwrite 64k-64k 8 16M 4M
	fio_job seq1m write 1m-1m 4 24M 8M
	fio_job rand1m randwrite 1m-1m 4 40M 8M
	fio_job randmix randwrite 4k-1m 8 56M 4M
}

# fio_check JSON: every job ran without error, read back all it wrote.
fio_check() {
	python3 - "$1" <<-'EOF' || t_fail "fio's results do not show every job verified"
	import json, re, sys
	# fio writes its warnings (numjobs on one file) before the JSON
	s = open(sys.argv[1]).read()
	d = json.JSONDecoder().raw_decode(s[re.search(r"^\{", s, re.M).start():])[0]
	bad = 0
	for j in d["jobs"]:
	    w, r = j["write"]["io_kbytes"], j["read"]["io_kbytes"]
	    print("# %-8s err=%d written %6d KiB, read back %6d KiB, %5.1f MB/s write"
	          % (j["jobname"], j["error"], w, r, j["write"]["bw_bytes"] / 1e6))
	    if j["error"] or w == 0 or r != w:
	        bad += 1
	print("# %d jobs" % len(d["jobs"]))
	sys.exit(1 if bad or len(d["jobs"]) != 14 else 0)
	EOF
}

# blk_write OFF_MIB: 64 KiB of random data at OFF_MIB MiB, direct; its
# sha256 goes to $OUTDIR/blk.sum. blk_check OFF_MIB: read it back, compare.
blk_write() {
	head -c 65536 /dev/urandom > "$OUTDIR/blk"
	dd if="$OUTDIR/blk" of="$DEV" bs=64k seek=$(($1 * 16)) count=1 oflag=direct \
		status=none || t_fail "writing 64 KiB at $1 MiB of $DEV failed"
	sha256sum < "$OUTDIR/blk" > "$OUTDIR/blk.sum"
}

blk_check() {
	local got
	got=$(dd if="$DEV" bs=64k skip=$(($1 * 16)) count=1 iflag=direct status=none |
		sha256sum) || t_fail "reading 64 KiB at $1 MiB of $DEV failed"
	[ "$got" = "$(cat "$OUTDIR/blk.sum")" ] || t_fail "64 KiB at $1 MiB of $DEV differ from what was written"
}

test_run() {
	local t0 t i rc
	t0=$EPOCHREALTIME
	nvmf_target_up
	t_log "target up: $NQN, namespace 1 on $RAMDISK, rdma port $IPA:$TRSVCID ($(nvmf_elapsed "$t0") s)"

	counters_mark rxe0
	nvmf_connect
	t_log "connected: $DEV in $CONNECT_TIME s"
	nvmf_host_check

	# 1. fio, verifying
	t=$EPOCHREALTIME
	fio_file > "$OUTDIR/verify.fio"
	(cd "$OUTDIR" && fio --output-format=json verify.fio > fio.json 2> fio.log)
	rc=$?
	cat "$OUTDIR/fio.log"
	[ "$rc" = 0 ] || t_fail "fio exited $rc: $(grep -v "^fio: multiple writers" "$OUTDIR/fio.json" | head -5)"
	grep -E "verify: bad|verify failed|bad magic" "$OUTDIR/fio.log" "$OUTDIR/fio.json" &&
		t_fail "fio reported verify errors"
	fio_check "$OUTDIR/fio.json"
	t_log "fio: 14 jobs, 64 MiB written and verified in $(nvmf_elapsed "$t") s"
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
	t_log "$CYCLES disconnect/connect cycles, data checked after each ($(nvmf_elapsed "$t") s, last connect $CONNECT_TIME s)"

	# 3. a filesystem, its files checked across a remount and a reconnect
	t=$EPOCHREALTIME
	t_run mkfs.ext4 -q -F "$DEV"
	t_run mount "$DEV" "$MNT"
	head -c 1048576 /dev/urandom > "$MNT/a" || t_fail "writing $MNT/a failed"
	head -c 3145728 /dev/urandom > "$MNT/b" || t_fail "writing $MNT/b failed"
	head -c 12345 /dev/urandom > "$MNT/c" || t_fail "writing $MNT/c failed"
	mkdir "$MNT/d" && head -c 262144 /dev/urandom > "$MNT/d/e" || t_fail "writing $MNT/d/e failed"
	(cd "$MNT" && sha256sum a b c d/e) > "$OUTDIR/files.sum"
	t_run umount "$MNT"
	nvmf_disconnect
	nvmf_connect
	t_run mount "$DEV" "$MNT"
	(cd "$MNT" && sha256sum -c --strict "$OUTDIR/files.sum") ||
		t_fail "files differ after umount, reconnect and mount"
	t_run umount "$MNT"
	t_log "ext4: 4 files (4.3 MiB) written, remounted over a new connection, checked ($(nvmf_elapsed "$t") s)"

	nvmf_disconnect
	t_log "total $(nvmf_elapsed "$t0") s"
}
