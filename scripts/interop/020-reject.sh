# interop/020-reject: connections the other stack refuses, both ways.
#
# 1. Our client to a port nobody listens on at the inbox peer: its IB CM
#    answers the REQ with a REJ, reason 8 (invalid service ID), no private
#    data, and our side hears REJECTED within seconds.
# 2. A consumer on the inbox side (pyverbs, scripts/guest/interop-cm.py)
#    rejects our REQ with private data: REJECTED, reason 28, and the data.
# 3. The inbox rping client to a port nobody listens on here: our IB CM's
#    REJ must be one the inbox rdma_cm reads as reason 8.
# 4. The inbox udaddy client (RDMA_PS_UDP, port 7174) with no UD listener
#    here: our IB CM's SIDR REP with status 1 must reach it at once, as
#    UNREACHABLE with error 1 (6.1's answer; without one it would retry
#    its SIDR REQ for about a minute and then time out).
TEST_TIMEOUT=300
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"

NOBODY=7999
REJ_PORT=7300
# What the inbox consumer says when it rejects.
REJ_DATA=72656a656374656420627920696e626f78

test_setup() { interop_ours_up; }
test_cleanup() { interop_ours_down; }

ours_to_nobody() {
	local t0 ms
	t0=$(date +%s%N)
	kp_refused mode=rping role=client addr=$PEER_IP port=$NOBODY iters=1
	ms=$((($(date +%s%N) - t0) / 1000000))
	expect_out "^result mode=rping role=client addr=$PEER_IP port=$NOBODY .* pings=0 .* cm_event=REJECTED cm_status=8 rej_data=0{32} status=fail errno=-111 reason=\"connection to $PEER_IP:$NOBODY: rejected: invalid service ID \\(status 8\\)\"" \
		"the inbox IB CM rejects our REQ for a port nobody listens on"
	[ "$ms" -le 5000 ] || t_fail "the rejection took $ms ms"
	t_log "rejected after $ms ms"
}

inbox_consumer_rejects() {
	local cm
	peer_start "/usr/bin/python3 $RDMAOOT_TOP/scripts/guest/interop-cm.py reject $PEER_IP $REJ_PORT $REJ_DATA"
	cm=$PEER_N
	peer_listening $REJ_PORT
	kp_refused mode=rping role=client addr=$PEER_IP port=$REJ_PORT iters=1
	expect_out "^result mode=rping role=client addr=$PEER_IP port=$REJ_PORT .* pings=0 .* cm_event=REJECTED cm_status=28 rej_data=${REJ_DATA:0:32} status=fail errno=-111 reason=\"connection to $PEER_IP:$REJ_PORT: rejected: consumer defined \\(status 28\\)\"" \
		"the inbox consumer's reject reaches us as reason 28 with its private data"
	peer_wait "$cm" 30 || t_fail "the inbox consumer exited $PEER_RC"
	printf '%s\n' "$PEER_OUT" | grep -qx rejected || t_fail "the inbox consumer did not reject"
}

inbox_to_nobody() {
	peer_start "rping -c -a $OUR_IP -p $NOBODY -C 1"
	peer_wait "$PEER_N" 60
	[ "$PEER_RC" -ne 0 ] || t_fail "the inbox rping client to port $NOBODY succeeded"
	printf '%s\n' "$PEER_OUT" "$PEER_ERR" | grep -q "RDMA_CM_EVENT_REJECTED, error 8" ||
		t_fail "the inbox rping client did not see our REJ as reason 8"
	t_log "the inbox rping client saw REJECTED, reason 8"
}

inbox_sidr_to_nobody() {
	local t0 ms
	t0=$(date +%s%N)
	peer_start "udaddy -s $OUR_IP -b $PEER_IP -C 1"
	peer_wait "$PEER_N" 120
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$PEER_RC" -ne 0 ] || t_fail "the inbox udaddy client without a listener here succeeded"
	printf '%s\n' "$PEER_OUT" "$PEER_ERR" | grep -q "RDMA_CM_EVENT_UNREACHABLE, error: 1\$" ||
		t_fail "the inbox udaddy client did not see our SIDR REP with status 1"
	[ "$ms" -le 10000 ] || t_fail "the inbox udaddy client took $ms ms to hear it"
	t_log "the inbox udaddy client saw UNREACHABLE, status 1, after $ms ms"
}

test_run() {
	ours_to_nobody
	inbox_consumer_rejects
	inbox_to_nobody
	inbox_sidr_to_nobody
}
