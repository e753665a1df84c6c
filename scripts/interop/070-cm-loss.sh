# interop/070-cm-loss: the IB CM's repairs between the two stacks, over a
# lossy wire. A tc filter in the egress of our eth0 drops the first CM
# message of one kind we send (scripts/guest/cm-drop.sh, as tests/083
# does between our own two ports); the connection must still come up, 3
# rping pings pass with their data verified at both ends, and our port's
# counters must show the repair:
#
# 1. Our REQ lost (our rping client, the inbox rping -s): we resend it
#    after 2 x 2^(18-8) + 2^(20-8) = 6144 ms. cm_tx_retries/req 1.
# 2. Our RTU lost: the inbox side resends its REP after its CM response
#    timeout (4096 ms); we take it for a duplicate and repeat the RTU,
#    which 6.1 counts as a resend. cm_rx_duplicates/rep 1,
#    cm_tx_retries/rtu 1.
# 3. Our DREQ lost: we resend it after 6144 ms, and the inbox DREP ends
#    the connection. cm_tx_retries/dreq 1.
# 4. Our REP lost (our rping server, the inbox rping -c): we resend it
#    after 4096 ms, before the inbox REQ's own resend is due (6144 ms).
#    cm_tx_retries/rep 1.
TEST_TIMEOUT=600
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"
IB_CLASS=/sys/class/infiniband
. "$RDMAOOT_TOP/scripts/guest/cm-counters.sh"
. "$RDMAOOT_TOP/scripts/guest/cm-drop.sh"

PORT=7177
PINGS=3
SIZE=64
ACTIVE_WAIT_MS=6144
PASSIVE_WAIT_MS=4096
DROPPED=/tmp/070-dropped

# One side: ours, eth0, in this namespace.
side_if() { echo eth0; }
on_side() { shift; "$@"; }

test_setup() {
	command -v tc >/dev/null || t_skip "the tc tool (iproute2) is not installed"
	modprobe -q sch_prio; modprobe -q cls_u32; modprobe -q act_gact
	interop_ours_up
}

test_cleanup() {
	tc qdisc del dev eth0 root 2>/dev/null
	rm -f "$DROPPED" "$DROPPED.fifo"
	interop_ours_down
}

# expect_grew GROUP KIND N: rxe0's CM counter GROUP/KIND grew by N.
expect_grew() {
	cm_grew rxe0 "$1" "$2"
	[ "$D" -eq "$3" ] || t_fail "rxe0 $1/$2 grew by $D, not $3"
	t_log "rxe0 $1/$2 +$D"
}

# client_round KIND: our client to the inbox rping server, the first KIND
# we send dropped. Sets MS (how long our command took) and LOST.
client_round() {
	local srv t0
	cm_mark rxe0
	peer_start "rping -s -a $PEER_IP -p $PORT -C $PINGS -S $SIZE -V"
	srv=$PEER_N
	peer_listening $PORT
	drop_first ours "$1"
	t0=$(date +%s%N)
	kp mode=rping role=client addr=$PEER_IP port=$PORT iters=$PINGS size=$SIZE verify=1 timeout_ms=40000
	MS=$((($(date +%s%N) - t0) / 1000000))
	drop_first_end ours
	expect_out "^result mode=rping role=client .* pings=$PINGS bytes_verified=$((PINGS * SIZE)) .* cm_event=DISCONNECTED cm_status=0 status=ok\$" \
		"our client's $PINGS verified pings with our first $1 lost"
	peer_wait "$srv" 60 || t_fail "the inbox rping server exited $PEER_RC"
}

# server_round KIND: the inbox rping client to our server, the first KIND
# we send dropped.
server_round() {
	local out=/tmp/070-server.out pid t0
	cm_mark rxe0
	echo "+ (in the background) kperf mode=rping role=server addr=$OUR_IP port=$PORT iters=$PINGS"
	"$KPERF" mode=rping role=server addr=$OUR_IP port=$PORT iters=$PINGS size=$SIZE \
		verify=1 timeout_ms=40000 > "$out" 2>&1 &
	pid=$!
	t_wait_for 20 grep -qx "rping $OUR_IP:$PORT" /sys/kernel/debug/ib_kperf/listening ||
		t_fail "our rping server does not listen: $(cat "$out")"
	drop_first ours "$1"
	t0=$(date +%s%N)
	peer_run 90 "rping -c -a $OUR_IP -p $PORT -C $PINGS -S $SIZE -V"
	MS=$((($(date +%s%N) - t0) / 1000000))
	drop_first_end ours
	t_wait_for 60 eval '! kill -0 "$pid" 2>/dev/null' || t_fail "our rping server did not end"
	wait "$pid"
	OUT=$(cat "$out")
	printf '%s\n' "$OUT"
	expect_out "^result mode=rping role=server .* pings=$PINGS bytes_verified=$((PINGS * SIZE)) .* cm_event=DISCONNECTED cm_status=0 status=ok\$" \
		"our server's $PINGS verified pings with our first $1 lost"
}

# lose ROLE KIND MIN_MS: a round of ROLE (client or server) with the first
# KIND lost; it must take at least MIN_MS (the repair waits for a
# timeout). A round whose filter took two packets had its poller come
# after the resend (a starved guest) and runs again, three rounds at most.
lose() {
	local role=$1 kind=$2 min=$3 round
	t_log "=== our first $kind lost ($role)"
	for round in 1 2 3; do
		"${role}_round" "$kind"
		t_log "the exchange took $MS ms (the repair is due after $min ms)"
		[ "$LOST" -gt 1 ] || break
		t_log "the filter took $LOST packets: the poller came too late, again"
		sleep 2
	done
	[ "$LOST" = 1 ] || t_fail "$LOST packets were dropped, not 1"
	[ "$MS" -ge "$min" ] || t_fail "it took $MS ms: the repair cannot have waited for its timeout ($min ms)"
}

test_run() {
	lose client req $ACTIVE_WAIT_MS
	expect_grew cm_tx_msgs req 2
	expect_grew cm_tx_retries req 1

	lose client rtu $PASSIVE_WAIT_MS
	expect_grew cm_rx_duplicates rep 1
	expect_grew cm_tx_retries rtu 1

	lose client dreq $ACTIVE_WAIT_MS
	expect_grew cm_tx_msgs dreq 2
	expect_grew cm_tx_retries dreq 1

	lose server rep $PASSIVE_WAIT_MS
	expect_grew cm_tx_msgs rep 2
	expect_grew cm_tx_retries rep 1
	expect_grew cm_rx_msgs rtu 1
}
