# User QPs on rdma_rxe with Debian's unmodified libibverbs and its rxe
# provider: ibv_rc_pingpong, ibv_uc_pingpong, ibv_ud_pingpong and
# ibv_srq_pingpong (16 QPs on one user SRQ) with their data check (-c)
# between two processes on rxe0, RC also woken by
# completion events (-e) and across the veth pair to rxe1 in another
# network namespace. Every run must complete all its iterations on both
# sides; "rdma res" must show the user QPs with their process while they
# run, and none once they exited; the kernel stays silent.
TEST_TIMEOUT=900

. "$RDMAOOT_TOP/scripts/guest/uverbs-env.sh"

OUT=/tmp/uverbs-pp
ITERS=200

test_setup() {
	uv_env_setup ibv_rc_pingpong ibv_uc_pingpong ibv_ud_pingpong \
		ibv_srq_pingpong ss
	rm -rf "$OUT"
	mkdir -p "$OUT"
}

# pingpong NAME PORT CDEV CPRE HOST ARGS...: a server of ibv_NAME_pingpong
# on IBDEV and a client on CDEV (run through CPRE, e.g. "ip netns exec
# NS") connecting to HOST, both with ARGS, both checked.
pingpong() {
	local name=$1 port=$2 cdev=$3 cpre=$4 host=$5 spid rc=0 f
	shift 5
	f="$OUT/$name-$port"
	"ibv_${name}_pingpong" -d "$IBDEV" -p "$port" "$@" > "$f.server" 2>&1 &
	spid=$!
	t_wait_for 20 port_open "$port" || { cat "$f.server"; t_fail "$name server did not listen"; }
	# shellcheck disable=SC2086
	timeout 120 $cpre "ibv_${name}_pingpong" -d "$cdev" -p "$port" "$@" "$host" > "$f.client" 2>&1 || rc=$?
	wait "$spid" || rc=$((rc ? rc : $?))
	cat "$f.server" "$f.client"
	[ "$rc" = 0 ] || t_fail "ibv_${name}_pingpong $* failed (exit $rc)"
	grep -q "^$ITERS iters in" "$f.server" || t_fail "$name server did not finish its $ITERS iterations"
	grep -q "^$ITERS iters in" "$f.client" || t_fail "$name client did not finish its $ITERS iterations"
}

port_open() { ss -ltnH "sport = :$1" | grep -q .; }

user_qps() { rdma res show qp | grep -c "comm ibv_" || true; }
no_user_qps() { [ "$(user_qps)" = 0 ]; }

test_run() {
	uv_rxe_add
	uv_uverbs_up
	uv_log_mark

	# one device, two processes
	pingpong rc 18515 "$IBDEV" "" 127.0.0.1 -g 1 -c -n "$ITERS"
	pingpong rc 18516 "$IBDEV" "" 127.0.0.1 -g 1 -c -n "$ITERS" -e
	pingpong rc 18517 "$IBDEV" "" 127.0.0.1 -g 1 -c -n "$ITERS" -s 65536
	pingpong uc 18518 "$IBDEV" "" 127.0.0.1 -g 1 -c -n "$ITERS"
	pingpong ud 18519 "$IBDEV" "" 127.0.0.1 -g 1 -c -n "$ITERS" -s 512
	pingpong srq 18524 "$IBDEV" "" 127.0.0.1 -g 1 -c -n "$ITERS"

	# user QPs show their process while they live
	ibv_rc_pingpong -d "$IBDEV" -g 1 -p 18520 > "$OUT/res.server" 2>&1 &
	t_wait_for 20 port_open 18520 || t_fail "the rc server for rdma res did not listen"
	rdma res show qp | grep "$IBDEV" || true
	[ "$(user_qps)" -ge 1 ] || t_fail "rdma res shows no QP of ibv_rc_pingpong"
	kill $! 2>/dev/null
	wait $! 2>/dev/null
	t_wait_for 10 no_user_qps || t_fail "user QPs left after their process exited"

	# across the veth to rxe1 in another namespace
	uv_ns_rxe_add
	pingpong rc 18521 "$IBDEV2" "ip netns exec $UV_NS" "$IP4" -g 1 -c -n "$ITERS"
	pingpong uc 18522 "$IBDEV2" "ip netns exec $UV_NS" "$IP4" -g 1 -c -n "$ITERS"
	pingpong ud 18523 "$IBDEV2" "ip netns exec $UV_NS" "$IP4" -g 1 -c -n "$ITERS" -s 512
	pingpong srq 18525 "$IBDEV2" "ip netns exec $UV_NS" "$IP4" -g 1 -c -n "$ITERS" -e

	uv_log_quiet "the pingpongs"
	t_run ip netns exec "$UV_NS" rdma link delete "$IBDEV2"
	uv_teardown
}

test_cleanup() {
	uv_env_cleanup
}
