# ib_uverbs' ioctl interface (RDMA_VERBS_IOCTL) as rdma-core 44 uses it.
# (1) The ABI by hand (scripts/guest/uverbs-ioctl.py abi): every errno of
# the header and attribute contract, each method's answers against sysfs
# and the write() commands, an aborted ASYNC_EVENT_ALLOC leaving no
# descriptor, 2000 random ioctls from a fixed seed (half of them valid
# calls with a field or two mutated, a share of which must succeed) that
# may only fail with the ABI's errnos; the closed file leaves no context
# and no PD.
# (2) Which path libibverbs takes: ibv_devinfo -v under strace, once with
# every ioctl answering ENOTTY (strace's fault injection: libibverbs'
# write() fallback, which is what it used before the engine existed) and
# once plainly, where it must send no write() at all to uverbs0 (GET_CONTEXT,
# ASYNC_EVENT_ALLOC, QUERY_PORT, the GIDs and, through INVOKE_WRITE, the
# device queries are ioctls); both print the same, with the IPv4 GID.
# (3) A process holding a context made by ioctl while "rdma link delete"
# runs: methods answer EIO afterwards, unknown ones still
# EPROTONOSUPPORT. The debug kernel's KASAN, lockdep and kmemleak are
# checked by the runner.
TEST_TIMEOUT=600

. "$RDMAOOT_TOP/scripts/guest/uverbs-env.sh"

PY=$RDMAOOT_TOP/scripts/guest/uverbs-ioctl.py
READY=/tmp/uverbs-ioctl.ready
GO=/tmp/uverbs-ioctl.go
HOLD_OUT=/tmp/uverbs-ioctl.hold
TRACE=/tmp/uverbs-ioctl.trace
HOLD_PID=

test_setup() {
	uv_env_setup ibv_devinfo strace
	rm -f "$READY" "$GO" "$HOLD_OUT" "$TRACE"
}

hold_ready() { [ -e "$READY" ]; }

# ibv_devinfo -v with its syscalls on uverbs0 traced into $TRACE; "fallback"
# makes every ioctl fail with ENOTTY, as a kernel without the engine.
devinfo_traced() {
	local inject=()
	[ "$1" = fallback ] && inject=(-e inject=ioctl:error=ENOTTY)
	strace -f -o "$TRACE" -e trace=ioctl,write -P /dev/infiniband/uverbs0 \
		"${inject[@]}" ibv_devinfo -v -d "$IBDEV" 2>&1
}

check_paths() {
	local old new nw ni
	old=$(devinfo_traced fallback) || t_fail "ibv_devinfo -v over write() failed: $old"
	nw=$(grep -c 'write(' "$TRACE")
	[ "$nw" -ge 3 ] || { cat "$TRACE"; t_fail "with ioctl refused libibverbs sent only $nw write()s"; }
	t_log "ioctl refused: $nw write()s to uverbs0 (the fallback)"
	new=$(devinfo_traced) || t_fail "ibv_devinfo -v failed: $new"
	printf '%s\n' "$new" | head -80
	nw=$(grep -c 'write(' "$TRACE")
	ni=$(grep -c 'ioctl(.*RDMA_VERBS_IOCTL\|ioctl(.*0x1b, 0x1' "$TRACE")
	[ "$nw" = 0 ] || { cat "$TRACE"; t_fail "libibverbs still sent $nw write()s to uverbs0"; }
	[ "$ni" -ge 5 ] || { cat "$TRACE"; t_fail "libibverbs sent only $ni RDMA_VERBS_IOCTLs"; }
	t_log "ibv_devinfo -v: $ni ioctls and no write() to uverbs0"
	[ "$old" = "$new" ] || {
		diff <(printf '%s\n' "$old") <(printf '%s\n' "$new")
		t_fail "ibv_devinfo -v over ioctl differs from its output over write()"
	}
	printf '%s\n' "$new" | grep -qE "GID\[ *1\]:.*($IP4_GID|::ffff:$IP4)" ||
		t_fail "ibv_devinfo over ioctl does not show GID 1 ($IP4)"
	t_log "ibv_devinfo -v: identical over write() and over ioctl ($(printf '%s\n' "$new" | wc -l) lines)"
}

check_abi() {
	local out
	out=$(/usr/bin/python3 "$PY" abi /dev/infiniband/uverbs0 "$IBDEV" 2000 2>&1) || {
		printf '%s\n' "$out"
		t_fail "uverbs-ioctl.py found a wrong answer"
	}
	printf '%s\n' "$out"
	[ "$(printf '%s\n' "$out" | grep -c '^ok ')" -ge 60 ] ||
		t_fail "uverbs-ioctl.py made fewer checks than it should"
	rdma res show | grep "^[0-9]*: $IBDEV:" | grep -q " ctx 0 " ||
		t_fail "a context is left after the file closed: $(rdma res show 2>&1)"
	! rdma res show pd dev "$IBDEV" | grep -q "comm python3" ||
		t_fail "a user PD is left after the file closed: $(rdma res show pd 2>&1)"
	t_log "the closed file left no context and no PD"
}

check_removal() {
	local rc=0
	/usr/bin/python3 "$PY" hold /dev/infiniband/uverbs0 "$READY" "$GO" \
		> "$HOLD_OUT" 2>&1 &
	HOLD_PID=$!
	t_wait_for 60 hold_ready || { cat "$HOLD_OUT"; t_fail "the holder did not open $IBDEV"; }
	timeout 60 rdma link delete "$IBDEV" || t_fail "rdma link delete $IBDEV failed or hung"
	touch "$GO"
	t_wait_for 60 sh -c "! kill -0 $HOLD_PID 2>/dev/null" || t_fail "the holder hangs after the removal"
	wait "$HOLD_PID" || rc=$?
	HOLD_PID=
	cat "$HOLD_OUT"
	[ "$rc" = 0 ] || t_fail "the holder saw wrong answers after the removal (exit $rc)"
}

test_run() {
	uv_rxe_add
	uv_uverbs_up
	check_abi
	check_paths
	check_removal
	t_run modprobe -r rdma_rxe
	t_run modprobe -r ib_uverbs
}

test_cleanup() {
	[ -n "$HOLD_PID" ] && kill "$HOLD_PID" 2>/dev/null
	uv_env_cleanup
	rm -f "$READY" "$GO" "$HOLD_OUT" "$TRACE"
}
