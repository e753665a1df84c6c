# interop/050-ud-mcast: UD ids over SIDR and RoCE multicast between the
# inbox stack and ours, both ways, with the protocols of udaddy and mckey
# (rdmacm-utils).
#
# 1. The peer's udaddy client (SIDR REQ to port 7174, then MSGS messages
#    of SIZE bytes, SEND with immediate) and our ib_kperf mode=udaddy
#    server: ours accepts, checks every message (length, immediate = the
#    sender's QPN, sender = the SIDR REQ's address) and answers each as
#    udaddy's server does; udaddy must get all MSGS answers and end with
#    status 0.
# 2. Our mode=udaddy client and the peer's udaddy server: our SIDR REQ is
#    answered (ESTABLISHED: its QPN and Q_Key), our MSGS messages reach it
#    and its MSGS answers come back, each holding the IPv4 header of our
#    last message and that message's head (udaddy's server echoes its
#    receive buffer), checked byte by byte.
# 3. The peer's mckey sender (-s: joins GROUP, then MSGS messages to it)
#    and our ib_kperf mode=mckey receiver: ours joins GROUP as a full
#    member (eth0 joins the IP group), attaches its QP and must receive
#    all MSGS messages, each from the one sender QP, sent to the group.
# 4. Our mode=mckey sender (a send-only join) and the peer's mckey
#    receiver, which joined first: mckey ends only once all MSGS messages
#    came (it polls for that many completions).
TEST_TIMEOUT=600
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"

UD_PORT=7174
GROUP=239.88.0.5
MSGS=100
SIZE=200
# What one answer to our client verifies: its echo of our last message
# after the 40-byte GRH room, and the two IPv4 addresses in that room.
ANSWER_BYTES=$((SIZE - 40 + 8))

test_setup() { interop_ours_up; }
test_cleanup() { interop_ours_down; }

# udaddy_ok WHAT: $PEER_OUT is a udaddy run that moved every message and
# heard no failing event.
udaddy_ok() {
	printf '%s\n' "$PEER_OUT" | grep -qx "data transfers complete" ||
		t_fail "$1: udaddy did not complete its transfers"
	printf '%s\n' "$PEER_OUT" | grep -qx "return status 0" ||
		t_fail "$1: udaddy did not end with status 0"
	! printf '%s\n' "$PEER_OUT" | grep -q "udaddy: event:" ||
		t_fail "$1: udaddy heard a failing event: $(printf '%s\n' "$PEER_OUT" | grep "udaddy: event:")"
	t_log "$1: udaddy moved its $MSGS messages each way, status 0"
}

inbox_client_ours_server() {
	local out=/tmp/udaddy-server.out
	bg_start "our udaddy server" $out "local_listening udaddy $UD_PORT" \
		"$KPERF" mode=udaddy role=server addr=$OUR_IP port=$UD_PORT \
		iters=$MSGS size=$SIZE timeout_ms=60000
	peer_start "timeout 120 udaddy -s $OUR_IP -b $PEER_IP -C $MSGS -S $SIZE"
	peer_wait "$PEER_N" 150 || t_fail "the inbox udaddy client exited $PEER_RC"
	udaddy_ok "the inbox udaddy client"
	bg_end "our udaddy server" $out
	expect_out "^info mode=udaddy role=server dev=rxe0 port=1 local=$OUR_IP:$UD_PORT remote=$PEER_IP:[0-9]+ qpn=0x[0-9a-f]+ qkey=0x1234567 peer_qpn=0x[0-9a-f]+ peer_qkey=0x1234567\$" \
		"our server took the inbox client's SIDR REQ on rxe0, rdma_cm's UDP Q_Key"
	expect_out "^result mode=udaddy role=server addr=$OUR_IP port=$UD_PORT size=$SIZE iters=$MSGS verify=1 received=$MSGS sent=$MSGS bytes_verified=0 peer_qpn=0x[0-9a-f]+ .* cm_event=CONNECT_REQUEST cm_status=0 status=ok\$" \
		"our server received and checked $MSGS messages and answered each"
}

ours_client_inbox_server() {
	local srv
	peer_start "timeout 120 udaddy -b $PEER_IP -C $MSGS -S $SIZE"
	srv=$PEER_N
	peer_listening $UD_PORT
	kp mode=udaddy role=client addr=$PEER_IP port=$UD_PORT iters=$MSGS size=$SIZE timeout_ms=30000
	expect_out "^info mode=udaddy role=client dev=rxe0 port=1 local=$OUR_IP:[0-9]+ remote=$PEER_IP:$UD_PORT qpn=0x[0-9a-f]+ qkey=0x1234567 peer_qpn=0x[0-9a-f]+ peer_qkey=0x1234567\$" \
		"our client's SIDR REQ was answered with the inbox server's QPN and Q_Key"
	expect_out "^result mode=udaddy role=client addr=$PEER_IP port=$UD_PORT size=$SIZE iters=$MSGS verify=1 received=$MSGS sent=$MSGS bytes_verified=$((MSGS * ANSWER_BYTES)) peer_qpn=0x[0-9a-f]+ .* cm_event=ESTABLISHED cm_status=0 status=ok\$" \
		"our client sent $MSGS messages and verified the $MSGS answers"
	peer_wait "$srv" 60 || t_fail "the inbox udaddy server exited $PEER_RC"
	udaddy_ok "the inbox udaddy server"
}

# mckey_ok WHAT: $PEER_OUT is a mckey run that joined GROUP and completed.
mckey_ok() {
	printf '%s\n' "$PEER_OUT" | grep -q "^mckey: joined dgid: ::ffff:$GROUP " ||
		t_fail "$1: mckey did not hear MULTICAST_JOIN for $GROUP"
	printf '%s\n' "$PEER_OUT" | grep -qx "data transfers complete" ||
		t_fail "$1: mckey did not complete its transfers"
	printf '%s\n' "$PEER_OUT" | grep -qx "return status 0" ||
		t_fail "$1: mckey did not end with status 0"
	! printf '%s\n' "$PEER_OUT" | grep -q "mckey: event:" ||
		t_fail "$1: mckey heard a failing event"
	t_log "$1: joined $GROUP, its $MSGS messages moved, status 0"
}

inbox_sender_ours_receiver() {
	local out=/tmp/mckey-receiver.out
	bg_start "our mckey receiver" $out \
		"grep -qx 'mckey $GROUP:0' /sys/kernel/debug/ib_kperf/listening" \
		"$KPERF" mode=mckey role=server addr=$GROUP bind=$OUR_IP \
		iters=$MSGS size=$SIZE timeout_ms=60000
	ip maddr show dev eth0 | grep -Eq "inet +$GROUP\$" ||
		t_fail "eth0 is not in the IP group $GROUP: $(ip maddr show dev eth0)"
	peer_start "timeout 60 mckey -m $GROUP -b $PEER_IP -s -C $MSGS -S $SIZE"
	peer_wait "$PEER_N" 90 || t_fail "the inbox mckey sender exited $PEER_RC"
	mckey_ok "the inbox mckey sender"
	bg_end "our mckey receiver" $out
	expect_out "^info mode=mckey role=server dev=rxe0 port=1 bind=$OUR_IP group=$GROUP mgid=::ffff:$GROUP qpn=0x[0-9a-f]+ qkey=0x1234567 group_qpn=0xffffff group_qkey=0x1234567\$" \
		"our receiver joined $GROUP (MULTICAST_JOIN: the group's GID, QPN 0xffffff, Q_Key)"
	expect_out "^result mode=mckey role=server addr=$GROUP bind=$OUR_IP size=$SIZE iters=$MSGS received=$MSGS sent=0 peer_qpn=0x[0-9a-f]+ .* cm_event=MULTICAST_JOIN cm_status=0 status=ok\$" \
		"our receiver got all $MSGS messages of the inbox sender"
	! ip maddr show dev eth0 | grep -Eq "inet +$GROUP\$" ||
		t_fail "eth0 is still in the IP group $GROUP after our receiver left"
}

ours_sender_inbox_receiver() {
	local rcv
	peer_start "stdbuf -oL timeout 60 mckey -m $GROUP -b $PEER_IP -C $MSGS -S $SIZE"
	rcv=$PEER_N
	t_wait_for 30 grep -qs "^mckey: joined dgid" "$PAIR/cmd/$rcv.out" ||
		t_fail "the inbox mckey receiver did not join: $(cat "$PAIR/cmd/$rcv.out" "$PAIR/cmd/$rcv.err" 2>/dev/null)"
	kp mode=mckey role=client addr=$GROUP bind=$OUR_IP iters=$MSGS size=$SIZE timeout_ms=30000
	expect_out "^info mode=mckey role=client dev=rxe0 port=1 bind=$OUR_IP group=$GROUP mgid=::ffff:$GROUP qpn=0x[0-9a-f]+ qkey=0x1234567 group_qpn=0xffffff group_qkey=0x1234567\$" \
		"our sender joined $GROUP send-only"
	expect_out "^result mode=mckey role=client addr=$GROUP bind=$OUR_IP size=$SIZE iters=$MSGS received=0 sent=$MSGS .* cm_event=MULTICAST_JOIN cm_status=0 status=ok\$" \
		"our sender sent $MSGS messages to the group"
	peer_wait "$rcv" 90 || t_fail "the inbox mckey receiver exited $PEER_RC (messages lost?)"
	mckey_ok "the inbox mckey receiver"
}

test_run() {
	inbox_client_ours_server
	ours_client_inbox_server
	inbox_sender_ours_receiver
	ours_sender_inbox_receiver
}
