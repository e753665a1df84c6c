# rdma_ucm's multicast commands (JOIN_IP_MCAST, JOIN_MCAST, LEAVE_MCAST and
# the MULTICAST_JOIN event with its join's uid) under Debian's unmodified
# mckey: a receiver on rxe1 in another network namespace joins an IPv4
# group as a full member, a sender on rxe0 across the veth pair joins it
# and sends; both must move all their messages and end with status 0,
# with no failing event; the kernel stays silent and everything unloads.
TEST_TIMEOUT=600

. "$RDMAOOT_TOP/scripts/guest/uverbs-env.sh"

GROUP=239.1.2.3
MSGS=10
OUT=/tmp/ucma-mc

test_setup() {
	uv_env_setup mckey stdbuf
	t_mod_path rdma_ucm >/dev/null || t_skip "rdma_ucm is not built"
	rm -rf "$OUT"
	mkdir -p "$OUT"
}

# mckey writes to a file: line-buffered (stdbuf) so its "joined" shows at once
joined() { grep -q "^mckey: joined dgid: ::ffff:$GROUP " "$OUT/recv"; }

mckey_ok() {
	grep -q "^mckey: joined dgid: ::ffff:$GROUP " "$1" || t_fail "$2 did not hear MULTICAST_JOIN"
	grep -qx "data transfers complete" "$1" || t_fail "$2 did not complete its transfers"
	grep -qx "return status 0" "$1" || t_fail "$2 did not end with status 0"
	! grep -q "mckey: event:" "$1" || t_fail "$2 heard a failing event"
}

test_run() {
	local rpid rc=0
	uv_rxe_add
	uv_uverbs_up
	t_run modprobe rdma_ucm
	uv_log_mark
	uv_ns_rxe_add

	timeout 120 ip netns exec "$UV_NS" stdbuf -oL mckey -m "$GROUP" -b "$IP4B" -C "$MSGS" > "$OUT/recv" 2>&1 &
	rpid=$!
	t_wait_for 30 joined || { cat "$OUT/recv"; t_fail "the receiver did not join $GROUP"; }
	timeout 120 mckey -m "$GROUP" -b "$IP4" -s -C "$MSGS" > "$OUT/send" 2>&1 || rc=$?
	wait "$rpid" || rc=$((rc ? rc : $?))
	cat "$OUT/recv" "$OUT/send"
	[ "$rc" = 0 ] || t_fail "mckey failed (exit $rc)"
	mckey_ok "$OUT/recv" "the receiver"
	mckey_ok "$OUT/send" "the sender"

	uv_log_quiet "mckey" "warn|bug|kasan|leak|error|rxe|ucma|rdma_cm"
	t_run ip netns exec "$UV_NS" rdma link delete "$IBDEV2"
	t_run rdma link delete "$IBDEV"
	t_run modprobe -r rdma_ucm
	t_run modprobe -r rdma_rxe
	t_run modprobe -r ib_uverbs
}

test_cleanup() {
	uv_env_cleanup
}
