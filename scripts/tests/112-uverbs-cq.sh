# Completion channels and user CQs on rdma_rxe (scripts/guest/uverbs-cq.py):
# the write() ABI by hand (channels, CQs of several sizes with their rings
# mapped and the rdma_user_rxe.h header checked, resize and remap,
# REQ_NOTIFY_CQ, POLL_CQ, destroy and its event counts, 6.1's errnos for
# bad sizes, channels, vectors, mmaps and double destroys, a channel fd
# closed before its CQ); the port's ERR and ACTIVE events on the async
# event file when the netdev goes down and up; libibverbs with the
# unmodified rxe provider (ibv_create_comp_channel, ibv_create_cq,
# ibv_resize_cq, ibv_destroy_cq); "rdma link delete" while a process maps a
# CQ ring: the process still reads and writes its ring, gets EIO from
# commands and mmap, and the kernel stays silent. Completions flowing into
# a user CQ need user QPs (not yet).
TEST_TIMEOUT=600

. "$RDMAOOT_TOP/scripts/guest/uverbs-env.sh"

HELPER="$RDMAOOT_TOP/scripts/guest/uverbs-cq.py"
GO=/tmp/uverbs-cq.go
OUT=/tmp/uverbs-cq.out
BG_PID=

test_setup() {
	uv_env_setup
	rm -f "$GO" "$OUT"
}

port_is() { grep -q "$1" "$IB_CLASS/$IBDEV/ports/1/state" 2>/dev/null; }
bg_said() { grep -q "^$1" "$OUT" 2>/dev/null; }
bg_done() { ! kill -0 "$BG_PID" 2>/dev/null; }
cq_count() { rdma res show | sed -n "s/^[0-9]*: $IBDEV: .* cq \([0-9]*\) .*/\1/p"; }

# Run the helper in MODE in the foreground; its lines go to the log.
helper() {
	local out
	out=$(/usr/bin/python3 "$HELPER" "$@" 2>&1) || {
		printf '%s\n' "$out"
		t_fail "uverbs-cq.py $2 found a wrong answer"
	}
	printf '%s\n' "$out"
	printf '%s\n' "$out" | grep -q "^result: passed" || t_fail "uverbs-cq.py $2 did not finish"
}

# Wait for the background helper and check its verdict.
bg_wait() {
	local rc=0
	t_wait_for 90 bg_done || t_fail "uverbs-cq.py $1 hangs"
	wait "$BG_PID" || rc=$?
	BG_PID=
	cat "$OUT"
	[ "$rc" = 0 ] && grep -q "^result: passed" "$OUT" || t_fail "uverbs-cq.py $1 failed (exit $rc)"
}

check_port_events() {
	/usr/bin/python3 "$HELPER" "$UVDEV" events > "$OUT" 2>&1 &
	BG_PID=$!
	t_wait_for 60 bg_said ready || { cat "$OUT"; t_fail "the event reader did not start"; }
	t_run ip link set "$VETH" down
	t_wait_for 10 port_is DOWN || t_fail "port 1 is not DOWN after the link went down"
	t_run ip link set "$VETH" up
	t_wait_for 10 port_is ACTIVE || t_fail "port 1 is not ACTIVE after the link came up"
	bg_wait events
	t_log "the async event file delivered port ERR and ACTIVE"
}

check_removal() {
	local start end
	/usr/bin/python3 "$HELPER" "$UVDEV" removal "$GO" > "$OUT" 2>&1 &
	BG_PID=$!
	t_wait_for 60 bg_said mapped || { cat "$OUT"; t_fail "the mapper did not map its ring"; }
	start=$(date +%s)
	timeout 60 rdma link delete "$IBDEV" || t_fail "rdma link delete hung or failed under a mapped ring"
	end=$(date +%s)
	t_log "rdma link delete took $((end - start)) s with a CQ ring mapped"
	t_wait_for 5 uv_ibdev_gone || t_fail "$IBDEV still exists"
	touch "$GO"
	bg_wait removal
}

test_run() {
	local cqs
	t_run modprobe ib_uverbs
	uv_rxe_add
	t_wait_for 10 test -c "$UVDEV" || t_fail "no $UVDEV"
	cqs=$(cq_count)
	[ -n "$cqs" ] || t_fail "rdma res show gives no CQ count for $IBDEV: $(rdma res show 2>&1)"
	helper "$UVDEV" basic
	t_eq "CQs of $IBDEV after the file closed (kernel ones only)" "$cqs" "$(cq_count)"
	check_port_events
	if [ -e /usr/lib/x86_64-linux-gnu/libibverbs.so.1 ] || ldconfig -p | grep -q libibverbs.so.1; then
		helper "$IBDEV" verbs
	else
		t_log "libibverbs is not installed: the provider check is skipped"
	fi
	check_removal
	t_run modprobe -r rdma_rxe
	t_run modprobe -r ib_uverbs
}

test_cleanup() {
	[ -n "$BG_PID" ] && kill "$BG_PID" 2>/dev/null
	uv_env_cleanup
	rm -f "$GO" "$OUT"
}
