# interop/record/cm-vectors: record the CM MADs of the inbox stack, inbox
# against inbox, for kunit/cm/vectors/ (the known answers of the ib_cm_msg
# KUnit suite). Not a check: run-tests.sh runs it only when RDMAOOT_TESTS
# names it outright; scripts/record-cm-vectors.sh runs it and trims what it
# leaves into the committed test data (see kunit/cm/vectors/README.md).
#
# This guest loads the inbox stack too (interop_inbox_up); the peer runs it
# anyway. Each exchange is captured on eth0 into its own file, this guest
# (10.88.0.2) the active side, the peer (10.88.0.1) the passive one:
#   rping.pcap            rping -c against rping -s, 3 pings: REQ, REP,
#                         RTU, then the client's DREQ and the server's DREP
#   rej-nolistener.pcap   rping -c to a port nobody listens on: REJ, 8
#   rej-consumer.pcap     rping -c to a pyverbs consumer that rejects with
#                         private data: REJ, 28, the data
#   mra.pcap              pyverbs connect to a pyverbs listener that
#                         accepts 9 s late: REQ, REQ again after 6144 ms,
#                         MRA (answering the repeat), REP, RTU, DREQ, DREP
#   sidr.pcap             udaddy -s against udaddy (RDMA_PS_UDP): SIDR REQ,
#                         SIDR REP status 0
#   sidr-nolistener.pcap  udaddy -s with no udaddy at the peer: SIDR REP,
#                         status 1
# The files go to the logs folder (build/out-pair/ours/share/logs/cmvec-*),
# with cmvec-versions.txt (both kernels, rdma-core).
TEST_TIMEOUT=900
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"

CAP=/tmp/cmvec
LOGS=/run/rdmaoot/logs
GEN=$RDMAOOT_TOP/scripts/gen-cm-vectors.py
PY="/usr/bin/python3 $RDMAOOT_TOP/scripts/guest/interop-cm.py"
RPING_PORT=7174
NOBODY=7999
REJ_PORT=7300
MRA_PORT=7301
# What the inbox consumer says when it rejects ("rejected by inbox").
REJ_DATA=72656a656374656420627920696e626f78

test_setup() { interop_inbox_up; }
test_cleanup() { interop_inbox_down; }

# record NAME EXPECTED CMD...: CMD captured into $CAP-NAME.pcap; the CM
# messages in it (gen-cm-vectors.py --list, kinds and telling fields in
# order) must be EXPECTED, a space-separated list; the file is kept.
record() {
	local name=$1 want=$2 got
	shift 2
	capture_start "$CAP-$name.pcap"
	"$@"
	capture_stop
	python3 "$GEN" --list "$CAP-$name.pcap" | tee "$CAP-$name.txt"
	got=$(cut -d' ' -f6- "$CAP-$name.txt" | tr '\n' ' ')
	cp "$CAP-$name.pcap" "$LOGS/cmvec-$name.pcap"
	[ "${got% }" = "$want" ] || t_fail "$name: recorded '$got', wanted '$want'"
	t_log "$name: $want"
}

rping_exchange() {
	local srv
	peer_start "rping -s -a $PEER_IP -p $RPING_PORT -C 3"
	srv=$PEER_N
	peer_listening $RPING_PORT
	t_run rping -c -a $PEER_IP -p $RPING_PORT -C 3 -V
	peer_wait "$srv" 60 || t_fail "the inbox rping server exited $PEER_RC"
}

rej_nolistener() {
	echo "+ rping -c -a $PEER_IP -p $NOBODY -C 1"
	OUT=$(rping -c -a $PEER_IP -p $NOBODY -C 1 2>&1)
	printf '%s\n' "$OUT"
	printf '%s\n' "$OUT" | grep -q "RDMA_CM_EVENT_REJECTED, error 8" ||
		t_fail "rping -c to port $NOBODY did not see REJECTED, reason 8"
}

rej_consumer() {
	local cm
	peer_start "$PY reject $PEER_IP $REJ_PORT $REJ_DATA"
	cm=$PEER_N
	peer_listening $REJ_PORT
	echo "+ rping -c -a $PEER_IP -p $REJ_PORT -C 1"
	OUT=$(rping -c -a $PEER_IP -p $REJ_PORT -C 1 2>&1)
	printf '%s\n' "$OUT"
	printf '%s\n' "$OUT" | grep -q "RDMA_CM_EVENT_REJECTED, error 28" ||
		t_fail "rping -c did not see the consumer's REJECTED, reason 28"
	peer_wait "$cm" 30 || t_fail "the inbox consumer exited $PEER_RC"
}

mra() {
	local cm
	peer_start "$PY accept-late $PEER_IP $MRA_PORT 9"
	cm=$PEER_N
	peer_listening $MRA_PORT
	t_run $PY hangup $PEER_IP $MRA_PORT
	peer_wait "$cm" 60 || t_fail "the late acceptor exited $PEER_RC"
	printf '%s\n' "$PEER_OUT" | grep -qx disconnected || t_fail "the late acceptor did not disconnect"
}

sidr() {
	local srv
	peer_start "udaddy -b $PEER_IP -C 1"
	srv=$PEER_N
	peer_listening $RPING_PORT
	t_run udaddy -s $PEER_IP -b $OUR_IP -C 1
	peer_wait "$srv" 60 || t_fail "the inbox udaddy server exited $PEER_RC"
}

sidr_nolistener() {
	echo "+ udaddy -s $PEER_IP -b $OUR_IP -C 1"
	OUT=$(udaddy -s $PEER_IP -b $OUR_IP -C 1 2>&1)
	echo "exit status $?"
	printf '%s\n' "$OUT"
}

test_run() {
	{
		echo "ours (active side): $(uname -r)"
		echo "peer (passive side): $(cat "$PAIR/peer-ready")"
		dpkg-query -W rdmacm-utils python3-pyverbs librdmacm1 2>/dev/null
	} | tee "$LOGS/cmvec-versions.txt"
	record rping "REQ REP RTU DREQ DREP" rping_exchange
	record rej-nolistener "REQ REJ rejected=0 reason=8" rej_nolistener
	record rej-consumer "REQ REJ rejected=0 reason=28" rej_consumer
	record mra "REQ REQ MRA mraed=0 timeout=24 REP RTU DREQ DREP" mra
	record sidr "SIDR_REQ SIDR_REP status=0" sidr
	record sidr-nolistener "SIDR_REQ SIDR_REP status=1" sidr_nolistener
}
