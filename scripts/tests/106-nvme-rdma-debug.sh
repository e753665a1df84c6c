# 106-nvme-rdma-debug: NVMe over Fabrics over our soft-RoCE on the debug
# kernel (KASAN, lockdep, kmemleak, UBSAN), where tests/101 would take far
# too long. nvme-rdma and nvmet-rdma are rebuilt against our stack for
# this kernel (make ulps) and run beside its built-in nvme-fabrics, nvmet
# and brd. The target and host of tests/101 (scripts/guest/nvmf.sh) on
# rxe0 talking to itself, then:
#  - 64 KiB blocks at four offsets and 4 MiB in 1 MiB direct writes, each
#    read back and compared;
#  - disconnect and connect again (reconnect delay 1 s, controller loss
#    timeout 120 s), everything checked again over the new queues;
#  - the target's port unlinked under a connected host, which must lose
#    its controller's I/O queues' connections, fail two reconnect attempts
#    while nobody listens (its CM REQs rejected, the half-made queues torn
#    down: the error paths of nvme-rdma and rdma_cm under lockdep) and get
#    them back when the port returns (the data still there);
#  - disconnect, the target taken down, nvme-rdma and nvmet-rdma unloaded:
#    every rdma_cm id gone, the modules gone.
# The harness then unloads our stack and asks kmemleak (the debug kernel
# must stay silent across all of it).
TEST_KERNELS=debug
TEST_TIMEOUT=420

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"
. "$RDMAOOT_TOP/scripts/guest/nvmf.sh"
. "$RDMAOOT_TOP/scripts/guest/blkverify.sh"

OUTDIR=/tmp/106
OFFSETS="0 17 33 63"
BIG_OFF=8

test_setup() {
	mkdir -p "$OUTDIR"
	t_mod_path nvme-rdma >/dev/null || t_fail "nvme-rdma was not built for the debug kernel (make ulps)"
	rxe_pair_setup
	nvmf_setup
}

test_cleanup() {
	nvmf_cleanup
	rxe_pair_cleanup
}

# big_write / big_check: 4 MiB of random data at BIG_OFF MiB, 1 MiB direct
# I/Os (a request of several READ/WRITE transfers each).
big_write() {
	head -c 4194304 /dev/urandom > "$OUTDIR/big"
	dd if="$OUTDIR/big" of="$DEV" bs=1M seek="$BIG_OFF" oflag=direct status=none ||
		t_fail "writing 4 MiB at $BIG_OFF MiB of $DEV failed"
	sha256sum < "$OUTDIR/big" > "$OUTDIR/big.sum"
}

big_check() {
	local got
	got=$(dd if="$DEV" bs=1M skip="$BIG_OFF" count=4 iflag=direct status=none |
		sha256sum) || t_fail "reading 4 MiB at $BIG_OFF MiB of $DEV failed"
	[ "$got" = "$(cat "$OUTDIR/big.sum")" ] || t_fail "4 MiB at $BIG_OFF MiB of $DEV differ from what was written"
}

# all_write / all_check: the 64 KiB blocks (each its own checksum) and the
# 4 MiB range.
all_write() {
	local o
	for o in $OFFSETS; do
		blk_write "$o"
		mv "$OUTDIR/blk.sum" "$OUTDIR/blk-$o.sum"
	done
	big_write
}

all_check() {
	local o
	for o in $OFFSETS; do
		cp "$OUTDIR/blk-$o.sum" "$OUTDIR/blk.sum"
		blk_check "$o"
	done
	big_check
}

# failed_reconnects: how many "Failed reconnect attempt" lines nvme-rdma
# has logged since boot.
failed_reconnects() { dmesg | grep -c "nvme nvme[0-9]*: Failed reconnect attempt"; }
reconnects_failed_since() { [ "$(failed_reconnects)" -ge $(($1 + 2)) ]; }

test_run() {
	local t0 t n
	t0=$EPOCHREALTIME
	nvmf_target_up
	counters_mark rxe0
	nvmf_connect
	nvmf_host_check
	t_log "connected: $DEV in $CONNECT_TIME s"

	t=$EPOCHREALTIME
	all_write
	all_check
	expect_counter rxe0 sent_pkts -ge 2048
	t_log "4 x 64 KiB and 4 MiB written and read back ($(t_elapsed "$t") s)"

	nvmf_disconnect
	nvmf_connect -c 1 -l 120
	nvmf_host_check
	all_check
	t_log "reconnected in $CONNECT_TIME s, data checked"

	# The port goes away under the host: its queues lose their
	# connections; it must not be live until the port is back.
	t=$EPOCHREALTIME
	n=$(failed_reconnects)
	nvmf_port_unlink
	t_wait_for 60 nvmf_state_not live || t_fail "the controller stayed live without its port"
	t_log "port removed: controller $(nvmf_state)"
	t_wait_for 60 reconnects_failed_since "$n" ||
		t_fail "the host did not fail two reconnect attempts without the port: $(dmesg | grep 'nvme nvme' | tail -n 3)"
	nvmf_state_is live && t_fail "the controller is live without its port"
	t_log "two reconnect attempts failed without the port: controller $(nvmf_state)"
	nvmf_port_link
	t_wait_for 120 nvmf_state_is live || t_fail "the controller did not reconnect to the returned port: $(nvmf_state)"
	all_check
	t_log "port back: controller live again, data checked ($(t_elapsed "$t") s)"

	nvmf_disconnect
	nvmf_cleanup
	t_mod_loaded nvme_rdma && t_fail "nvme-rdma still loaded after its cleanup"
	t_mod_loaded nvmet_rdma && t_fail "nvmet-rdma still loaded after its cleanup"
	[ -z "$(rdma res show cm_id 2>/dev/null)" ] || t_fail "rdma_cm ids left: $(rdma res show cm_id)"
	t_log "disconnected, target down, ULPs unloaded (total $(t_elapsed "$t0") s)"
}
