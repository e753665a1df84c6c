# scripts/guest/blkverify.sh - data checks on a block device that a ULP
# test brought up (NVMe-oF, iSER): verifying fio, a 64 KiB block written
# and read back across reconnects, files of known sha256 across a remount.
# The test sets DEV (the block device, at least 64 MiB) and OUTDIR (an
# existing folder for job files, results and checksums).

# blkv_fio_job NAME RW BSMIN-BSMAX IODEPTH OFFSET SIZE: one job of two
# instances, each on its own range (offset + size * instance).
blkv_fio_job() {
	printf '[%s]\nrw=%s\nbsrange=%s\niodepth=%s\noffset=%s\nsize=%s\noffset_increment=%s\n\n' \
		"$1" "$2" "$3" "$4" "$5" "$6" "$6"
}

# blkv_fio_file: seven verifying jobs, fourteen instances running at
# once over the first 60 MiB of DEV.
blkv_fio_file() {
	printf '[global]\nfilename=%s\nioengine=libaio\ndirect=1\nverify=crc32c\n' "$DEV"
	printf 'do_verify=1\nverify_fatal=1\nverify_dump=0\nverify_state_save=0\nnumjobs=2\n\n'
	blkv_fio_job seq4k write 4k-4k 8 0 2M
	blkv_fio_job rand4k randwrite 4k-4k 16 4M 2M
	blkv_fio_job seq128k write 128k-128k 4 8M 4M
	blkv_fio_job rand64k randwrite 64k-64k 8 16M 4M
	blkv_fio_job seq1m write 1m-1m 4 24M 8M
	blkv_fio_job rand1m randwrite 1m-1m 4 40M 8M
	blkv_fio_job randmix randwrite 4k-1m 8 56M 4M
}

# blkv_fio_check JSON: every job ran without error and read back all it
# wrote.
blkv_fio_check() {
	python3 - "$1" <<-'PYEOF' || t_fail "fio's results do not show every job verified"
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
	PYEOF
}

# blkv_fio: the fourteen verifying jobs on DEV; fio's exit status, its
# log and its JSON must all say every block came back as written.
blkv_fio() {
	local rc
	blkv_fio_file > "$OUTDIR/verify.fio"
	(cd "$OUTDIR" && fio --output-format=json verify.fio > fio.json 2> fio.log)
	rc=$?
	cat "$OUTDIR/fio.log"
	[ "$rc" = 0 ] || t_fail "fio exited $rc: $(grep -v "^fio: multiple writers" "$OUTDIR/fio.json" | head -5)"
	grep -E "verify: bad|verify failed|bad magic" "$OUTDIR/fio.log" "$OUTDIR/fio.json" &&
		t_fail "fio reported verify errors"
	blkv_fio_check "$OUTDIR/fio.json"
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

# blkv_files_write MNT: ext4 made on DEV and mounted on MNT, four files of
# random data (4.3 MiB) written, their sha256 kept, unmounted.
# blkv_files_check MNT: mounted again, the files compared, unmounted.
blkv_files_write() {
	t_run mkfs.ext4 -q -F "$DEV"
	t_run mount "$DEV" "$1"
	head -c 1048576 /dev/urandom > "$1/a" || t_fail "writing $1/a failed"
	head -c 3145728 /dev/urandom > "$1/b" || t_fail "writing $1/b failed"
	head -c 12345 /dev/urandom > "$1/c" || t_fail "writing $1/c failed"
	mkdir "$1/d" && head -c 262144 /dev/urandom > "$1/d/e" || t_fail "writing $1/d/e failed"
	(cd "$1" && sha256sum a b c d/e) > "$OUTDIR/files.sum"
	t_run umount "$1"
}

blkv_files_check() {
	t_run mount "$DEV" "$1"
	(cd "$1" && sha256sum -c --strict "$OUTDIR/files.sum") ||
		t_fail "files on $DEV differ from what was written before the remount"
	t_run umount "$1"
}
