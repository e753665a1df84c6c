# interop/010-rping: rping's protocol between the inbox stack and ours,
# both ways, 1000 pings each with the data checked at both ends.
#
# 1. The peer's rping -s (inbox rdma_cm, userspace through rdma_ucm) and
#    our ib_kperf mode=rping client: the client verifies every ping the
#    server wrote back (rping -V), the server prints every ping it read
#    (rping -v), which must be the client's, in order.
# 2. Our ib_kperf rping server and the peer's rping -c -V -v: the server
#    verifies every ping it reads, rping's client every ping it gets back.
TEST_TIMEOUT=900
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"

RPING_PORT=7174
PINGS=1000
SIZE=64

test_setup() { interop_ours_up; }
test_cleanup() { interop_ours_down; }

inbox_server_ours_client() {
	local srv
	peer_start "rping -s -a $PEER_IP -p $RPING_PORT -C $PINGS -S $SIZE -v"
	srv=$PEER_N
	peer_listening $RPING_PORT
	kp mode=rping role=client addr=$PEER_IP port=$RPING_PORT iters=$PINGS size=$SIZE verify=1 timeout_ms=30000
	expect_out "^info mode=rping role=client dev=rxe0 port=1 gid=::ffff:$OUR_IP local=$OUR_IP:[0-9]+ remote=$PEER_IP:$RPING_PORT " \
		"our client connected from rxe0 to the inbox rping server"
	expect_out "^result mode=rping role=client addr=$PEER_IP port=$RPING_PORT size=$SIZE iters=$PINGS verify=1 pings=$PINGS bytes_verified=$((PINGS * SIZE)) .* cm_event=DISCONNECTED cm_status=0 status=ok\$" \
		"our client ran $PINGS pings and verified every one the inbox server wrote back"
	peer_wait "$srv" 60 || t_fail "the inbox rping server exited $PEER_RC"
	expect_pings "the inbox rping server" "server ping data: " "$PEER_OUT"
}

ours_server_inbox_client() {
	local out=/tmp/rping-server.out pid
	echo "+ (in the background) kperf mode=rping role=server addr=$OUR_IP port=$RPING_PORT iters=$PINGS size=$SIZE verify=1"
	"$KPERF" mode=rping role=server addr=$OUR_IP port=$RPING_PORT iters=$PINGS \
		size=$SIZE verify=1 timeout_ms=60000 > "$out" 2>&1 &
	pid=$!
	t_wait_for 20 grep -qx "rping $OUR_IP:$RPING_PORT" /sys/kernel/debug/ib_kperf/listening ||
		t_fail "our rping server does not listen: $(cat "$out")"
	peer_start "rping -c -a $OUR_IP -p $RPING_PORT -C $PINGS -S $SIZE -V -v"
	peer_wait "$PEER_N" 600 || t_fail "the inbox rping client exited $PEER_RC"
	expect_pings "the inbox rping client" "ping data: " "$PEER_OUT"
	t_wait_for 30 eval '! kill -0 $pid 2>/dev/null' || t_fail "our rping server did not end"
	wait $pid
	OUT=$(cat "$out")
	printf '%s\n' "$OUT"
	expect_out "^info mode=rping role=server dev=rxe0 port=1 gid=::ffff:$OUR_IP local=$OUR_IP:$RPING_PORT remote=$PEER_IP:[0-9]+ " \
		"our server took the inbox client's connection on rxe0"
	expect_out "^result mode=rping role=server addr=$OUR_IP port=$RPING_PORT size=$SIZE iters=$PINGS verify=1 pings=$PINGS bytes_verified=$((PINGS * SIZE)) .* cm_event=DISCONNECTED cm_status=0 status=ok\$" \
		"our server served $PINGS pings and verified every one it read"
}

test_run() {
	inbox_server_ours_client
	ours_server_inbox_client
}
