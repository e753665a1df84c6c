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
RPING_SERVER="rping -s -a $PEER_IP -p $CLIENT_PORT -C 3"
RPING_CLIENT="rping -c -a $OUR_IP -p $SERVER_PORT -C 3 -V"

test_cleanup() {
	interop_inbox_down
	interop_ours_down
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
	connect_captured inbox $CLIENT_PORT "$RPING_SERVER" t_run rping -c -a $PEER_IP -p $CLIENT_PORT -C 3 -V
	serve_captured inbox rping $SERVER_PORT 120 "$RPING_CLIENT" rping -s -a $OUR_IP -p $SERVER_PORT -C 3
	interop_inbox_down
	interop_ours_up
	connect_captured ours $CLIENT_PORT "$RPING_SERVER" kp mode=rping role=client addr=$PEER_IP port=$CLIENT_PORT iters=3 size=64 verify=1
	serve_captured ours rping $SERVER_PORT 120 "$RPING_CLIENT" "$KPERF" mode=rping role=server addr=$OUR_IP port=$SERVER_PORT iters=3 size=64 verify=1
	compare client
	compare server
}
