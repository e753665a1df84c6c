# interop/030-cm-fields: the CM MADs our stack sends and answers are the
# inbox stack's, field by field, as the active and as the passive side.
#
# Each exchange (3 rping pings, then the client's disconnect) runs twice,
# captured on eth0: once with the inbox stack loaded here too (the
# reference: inbox against inbox), once with ours. As the client: the
# peer's rping -s against rping -c here, then against ib_kperf's rping
# client. As the server: the peer's rping -c against rping -s here, then
# against ib_kperf's rping server. scripts/cm-fields.py compares every MAD
# header and CM field of each message, the CMA header included, but for
# the ones that are new in every connection (IDs, QPNs, PSNs, ports).
TEST_TIMEOUT=600
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"

CLIENT_PORT=7175
SERVER_PORT=7177
CAP=/tmp/interop-cm

test_cleanup() {
	interop_inbox_down
	interop_ours_down
}

# as_client STACK CMD...: the peer's rping server and CMD here, captured
# into $CAP-client-STACK.pcap.
as_client() {
	local name=$1 srv
	shift
	peer_start "rping -s -a $PEER_IP -p $CLIENT_PORT -C 3"
	srv=$PEER_N
	peer_listening $CLIENT_PORT
	capture_start "$CAP-client-$name.pcap"
	"$@"
	peer_wait "$srv" 60 || t_fail "the inbox rping server exited $PEER_RC"
	capture_stop
}

# local_listening PORT: a listener on PORT in this guest's rdma_cm (the
# inbox one lists it in rdma res; ib_kperf's in its listening file).
local_listening() {
	rdma res show cm_id 2>/dev/null | grep -Eq "state LISTEN .*src-addr [^ ]*:$1( |\$)" ||
		grep -qx "rping $OUR_IP:$1" /sys/kernel/debug/ib_kperf/listening 2>/dev/null
}

# as_server STACK CMD...: CMD, a server started here in the background,
# and the peer's rping client, captured into $CAP-server-STACK.pcap.
as_server() {
	local name=$1 pid
	shift
	echo "+ (in the background) $*"
	"$@" > "$CAP-server-$name.out" 2>&1 &
	pid=$!
	t_wait_for 20 local_listening $SERVER_PORT ||
		t_fail "the $name server does not listen: $(cat "$CAP-server-$name.out")"
	capture_start "$CAP-server-$name.pcap"
	peer_run 120 "rping -c -a $OUR_IP -p $SERVER_PORT -C 3 -V"
	t_wait_for 30 eval '! kill -0 $pid 2>/dev/null' || t_fail "the $name server did not end"
	wait $pid || t_fail "the $name server failed: $(cat "$CAP-server-$name.out")"
	capture_stop
}

# compare SIDE: the two captures of SIDE, ours against the reference.
compare() {
	echo "+ scripts/cm-fields.py $CAP-$1-inbox.pcap $CAP-$1-ours.pcap"
	OUT=$(python3 "$RDMAOOT_TOP/scripts/cm-fields.py" "$CAP-$1-inbox.pcap" "$CAP-$1-ours.pcap" 2>&1)
	local rc=$?
	printf '%s\n' "$OUT"
	cp "$CAP-$1"-*.pcap /run/rdmaoot/logs/ 2>/dev/null
	[ $rc -eq 0 ] || t_fail "as the $1, our CM MADs differ from the inbox stack's: $(printf '%s\n' "$OUT" | grep -m1 -A1 differ | tr '\n' ' ')"
	t_log "as the $1: REQ, REP, RTU, DREQ and DREP field by field as between two inbox stacks"
}

test_run() {
	interop_inbox_up
	as_client inbox t_run rping -c -a $PEER_IP -p $CLIENT_PORT -C 3 -V
	as_server inbox rping -s -a $OUR_IP -p $SERVER_PORT -C 3
	interop_inbox_down
	interop_ours_up
	as_client ours kp mode=rping role=client addr=$PEER_IP port=$CLIENT_PORT iters=3 size=64 verify=1
	as_server ours "$KPERF" mode=rping role=server addr=$OUR_IP port=$SERVER_PORT iters=3 size=64 verify=1
	compare client
	compare server
}
