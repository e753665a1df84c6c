# 104-nvme-rdma-faults: NVMe over Fabrics over our soft-RoCE when the
# fabric fails under I/O: the host recovers from a target port that goes
# and comes back, and a deleted RDMA device ends everything on it with
# errors, not a hang.
#
# The target and host of tests/101 (scripts/guest/nvmf.sh), then:
#  - the port removed under verifying fio writes (the subsystem unlinked
#    from it: nvmet deletes its controllers and stops listening); the
#    host's controller leaves "live" and keeps reconnecting (1 s apart,
#    ctrl_loss_tmo 120 s) while fio's I/O waits; the port linked again,
#    the controller is live again and fio ends with every block read
#    back and verified;
#  - "rdma link delete rxe0" under fio writes: nvme-rdma and nvmet-rdma
#    drop everything on rxe0, fio ends with I/O errors within 60 s, the
#    controller, its block device and every rdma_cm id are gone; rxe0
#    added again and the port re-enabled, a new connection works with
#    data checked.
# The runner fails the unit on any WARN, BUG or lockdep report in the
# kernel log, and on a module of ours left loaded. Stock only: the debug
# kernel is configured without RDMA, so without these ULPs.
TEST_KERNELS=stock
TEST_TIMEOUT=420

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"
. "$RDMAOOT_TOP/scripts/guest/nvmf.sh"

OUTDIR=/tmp/104
FIO_PID=

test_setup() {
	mkdir -p "$OUTDIR"
	rxe_pair_setup
	nvmf_setup
}

test_cleanup() {
	if [ -n "$FIO_PID" ]; then
		kill -KILL "$FIO_PID" 2>/dev/null
		wait "$FIO_PID" 2>/dev/null
	fi
	nvmf_cleanup
	rxe_pair_cleanup
}

# fio_bg NAME SIZE: two rate-limited (2 MB/s each) 64 KiB writers over
# SIZE each, every block checked when read back, in the background
# (FIO_PID); the output goes to $OUTDIR/NAME.out.
fio_bg() {
	fio --name="$1" --filename="$DEV" --ioengine=libaio --direct=1 \
		--rw=write --bs=64k --iodepth=4 --numjobs=2 --size="$2" \
		--offset_increment="$2" --rate=,2m --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --verify_state_save=0 --group_reporting \
		> "$OUTDIR/$1.out" 2>&1 &
	FIO_PID=$!
}

fio_running() { kill -0 "$FIO_PID" 2>/dev/null; }
fio_gone() { ! fio_running; }

test_run() {
	local t0 t rc states s

	# 1. the port removed under I/O and back
	t0=$EPOCHREALTIME
	nvmf_target_up
	nvmf_connect -c 1 -l 120
	nvmf_host_check
	t_log "connected: $DEV in $CONNECT_TIME s (reconnect_delay 1 s, ctrl_loss_tmo 120 s)"
	counters_mark rxe0
	fio_bg outage 16M
	t_wait_for 60 nvmf_moved_at_least 256 || t_fail "fio moved nothing in 60 s: $(tail -5 "$OUTDIR"/*.out)"
	t_log "fio running, $DELTA packets sent; unlinking the port"
	t=$EPOCHREALTIME
	nvmf_port_unlink
	t_wait_for 20 nvmf_state_not live || t_fail "the controller is still live 20 s after its port went"
	states=" $(nvmf_state)"
	# Let the host try to reconnect to nothing a few times.
	for s in 1 2 3 4; do
		sleep 1
		states="$states $(nvmf_state)"
	done
	t_log "controller states without the port:$states"
	case "$states" in *connecting*) ;;
	*) t_fail "the controller never tried to reconnect:$states" ;; esac
	fio_running || t_fail "fio ended while the port was gone: $(tail -5 "$OUTDIR/outage.out")"
	nvmf_port_link
	t_wait_for 60 nvmf_state_is live || t_fail "the controller is not live 60 s after its port came back: $(nvmf_state)"
	t_log "controller live again $(t_elapsed "$t") s after the port went"
	t_wait_for 120 fio_gone || t_fail "fio did not end within 120 s of the port's return"
	wait "$FIO_PID"
	rc=$?
	FIO_PID=
	cat "$OUTDIR/outage.out"
	[ "$rc" = 0 ] || t_fail "fio exited $rc across the port's outage"
	grep -E "verify: bad|verify failed|bad magic" "$OUTDIR/outage.out" &&
		t_fail "fio reported verify errors across the port's outage"
	grep -qE "WRITE: bw=.*io=32.0MiB" "$OUTDIR/outage.out" ||
		t_fail "fio did not write 32 MiB across the port's outage"
	grep -qE "READ: bw=.*io=32.0MiB" "$OUTDIR/outage.out" ||
		t_fail "fio did not read back 32 MiB across the port's outage"
	nvmf_host_check
	nvmf_disconnect
	t_log "port outage: recovered, 32 MiB verified ($(t_elapsed "$t0") s)"

	# 2. the RDMA device deleted under I/O
	t0=$EPOCHREALTIME
	nvmf_connect
	counters_mark rxe0
	fio_bg devgone 16M
	t_wait_for 60 nvmf_moved_at_least 256 || t_fail "fio moved nothing in 60 s: $(tail -5 "$OUTDIR"/*.out)"
	t_log "fio running, $DELTA packets sent; deleting rxe0"
	t=$EPOCHREALTIME
	t_run rdma link delete rxe0
	t_wait_for 30 ibdev_gone rxe0 || t_fail "rxe0 still exists 30 s after rdma link delete"
	t_wait_for 60 fio_gone || t_fail "fio still runs 60 s after rxe0 was deleted"
	wait "$FIO_PID"
	rc=$?
	FIO_PID=
	cat "$OUTDIR/devgone.out"
	t_log "fio ended $(t_elapsed "$t") s after the delete, exit $rc"
	[ "$rc" != 0 ] || t_fail "fio succeeded with its device deleted under it"
	grep -qiE "error|No such device" "$OUTDIR/devgone.out" ||
		t_fail "fio's output names no error"
	t_wait_for 30 nvmf_no_blk || t_fail "$(nvmf_blk) still there after rxe0 was deleted"
	t_wait_for 30 nvmf_no_ctrls || t_fail "controllers left after rxe0 was deleted: $(nvmf_ctrls)"
	rdma res show cm_id | grep -q . && t_fail "cm ids left after rxe0 was deleted: $(rdma res show cm_id)"

	# ... and back. nvmet-rdma let rdma_cm destroy its listener on
	# DEVICE_REMOVAL and does not listen again by itself (as in 6.1: its
	# port repair runs on ADDR_CHANGE only), so the port is re-enabled.
	t_run rdma link add rxe0 type rxe netdev "$VA"
	t_wait_for 10 has_v2_gid rxe0 "$GIDA" || t_fail "the new rxe0 has no RoCE v2 GID for $IPA"
	nvmf_port_unlink
	nvmf_port_link
	nvmf_connect
	nvmf_host_check
	head -c 1048576 /dev/urandom > "$OUTDIR/blk"
	t_run dd if="$OUTDIR/blk" of="$DEV" bs=1M count=1 oflag=direct status=none
	# (a file, not <(...): the guest's /dev has no fd/)
	t_run dd if="$DEV" of="$OUTDIR/blk.back" bs=1M count=1 iflag=direct status=none
	cmp "$OUTDIR/blk.back" "$OUTDIR/blk" || t_fail "1 MiB read back over the new rxe0 differs"
	nvmf_disconnect
	t_log "device deleted under I/O: clean errors, and a new rxe0 serves again ($(t_elapsed "$t0") s)"
}
