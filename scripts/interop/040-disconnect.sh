# interop/040-disconnect: a connection either stack ends, then its
# timewait.
#
# 1. The inbox side ends it: a pyverbs consumer on the peer connects an
#    RC QP to our ib_kperf rping server and disconnects before sending
#    anything; our server must hear DISCONNECTED (the inbox DREQ, which
#    our DREP answers) after 0 pings, then TIMEWAIT_EXIT (timewait=1),
#    and the consumer's rdma_disconnect() must return (our DREP reached
#    it). Then the same server port takes a connection again (its
#    listener and port were given back) and serves an inbox rping client.
# 2. Ours ends it: our rping client's DREQ, the inbox rping server's DREP,
#    DISCONNECTED, then TIMEWAIT_EXIT.
TEST_TIMEOUT=300
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"

PORT=7176

test_setup() { interop_ours_up; }
test_cleanup() { interop_ours_down; }

# server_start ITERS [ARGS...]: our rping server on OUR_IP:PORT in the
# background.
server_start() {
	SERVER_OUT=/tmp/rping-server-$1.out
	echo "+ (in the background) kperf mode=rping role=server addr=$OUR_IP port=$PORT iters=$*"
	"$KPERF" mode=rping role=server addr=$OUR_IP port=$PORT iters="$@" timeout_ms=30000 \
		> "$SERVER_OUT" 2>&1 &
	SERVER_PID=$!
	t_wait_for 20 grep -qx "rping $OUR_IP:$PORT" /sys/kernel/debug/ib_kperf/listening ||
		t_fail "our rping server does not listen: $(cat "$SERVER_OUT")"
}

# server_end: wait for the server; its output in OUT.
server_end() {
	t_wait_for 60 eval '! kill -0 $SERVER_PID 2>/dev/null' || t_fail "our rping server did not end"
	wait $SERVER_PID
	OUT=$(cat "$SERVER_OUT")
	printf '%s\n' "$OUT"
}

test_run() {
	local srv
	server_start 0 timewait=1
	peer_run 60 "/usr/bin/python3 $RDMAOOT_TOP/scripts/guest/interop-cm.py hangup $OUR_IP $PORT"
	printf '%s\n' "$PEER_OUT" | grep -qx disconnected || t_fail "the inbox consumer did not disconnect"
	server_end
	expect_out "^result mode=rping role=server addr=$OUR_IP port=$PORT .* pings=0 .* cm_event=DISCONNECTED cm_status=0 timewait_ms=[0-9.]+ status=ok\$" \
		"our server heard the inbox side's DREQ as DISCONNECTED, then TIMEWAIT_EXIT"

	server_start 5
	peer_run 120 "rping -c -a $OUR_IP -p $PORT -C 5 -V"
	server_end
	expect_out "^result mode=rping role=server addr=$OUR_IP port=$PORT .* iters=5 verify=1 pings=5 .* cm_event=DISCONNECTED cm_status=0 status=ok\$" \
		"the port serves the next inbox client"

	peer_start "rping -s -a $PEER_IP -p $PORT -C 2"
	srv=$PEER_N
	peer_listening $PORT
	kp mode=rping role=client addr=$PEER_IP port=$PORT iters=2 timewait=1 timeout_ms=30000
	expect_out "^result mode=rping role=client .* pings=2 .* cm_event=DISCONNECTED cm_status=0 timewait_ms=[0-9.]+ status=ok\$" \
		"our client's disconnect: DISCONNECTED, then TIMEWAIT_EXIT"
	peer_wait "$srv" 60 || t_fail "the inbox rping server exited $PEER_RC"
}
