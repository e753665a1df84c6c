# interop/060-sidr-fields: the SIDR REQ and SIDR REP our stack sends are
# the inbox stack's, field by field, as the client and as the server.
#
# Each exchange (udaddy's SIDR REQ and REP, then 3 messages each way; port
# 7174, udaddy's only) runs twice, captured on eth0: once with the inbox
# stack loaded here too (the reference: inbox against inbox), once with
# ours. As the client: the peer's udaddy server against udaddy here, then
# against ib_kperf's udaddy client. As the server: the peer's udaddy client
# against a udaddy server here, then against ib_kperf's udaddy server.
# scripts/cm-fields.py compares the MAD headers (tshark), and reads the
# SIDR fields tshark does not decode: the SIDR REQ's P_Key, service ID
# and CMA header (all but the client's port), the SIDR REP's status,
# service ID, Q_Key, additional information and private data, the BTH
# and DETH both came in, and that the SIDR REP carries the SIDR REQ's
# request ID. The QPN in our SIDR REP must be our server's UD QP, and our
# client must use the QPN the inbox server's SIDR REP named.
TEST_TIMEOUT=600
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"

UD_PORT=7174
CAP=/tmp/interop-sidr
UDADDY_SERVER="timeout 60 udaddy -b $PEER_IP -C 3"
UDADDY_CLIENT="timeout 60 udaddy -s $OUR_IP -b $PEER_IP -C 3"

# as_client STACK CMD...: the peer's udaddy server and CMD here, captured
# into $CAP-client-STACK.pcap; the server must end with status 0.
as_client() {
	connect_captured "$1" $UD_PORT "$UDADDY_SERVER" "${@:2}"
	printf '%s\n' "$PEER_OUT" | grep -qx "return status 0" ||
		t_fail "the inbox udaddy server did not end with status 0"
}

test_cleanup() {
	interop_inbox_down
	interop_ours_down
}

# compare SIDE [QPN]: the two captures of SIDE, ours against the
# reference; QPN: what our SIDR REP must name.
compare() {
	local qpn
	echo "+ scripts/cm-fields.py $CAP-$1-inbox.pcap $CAP-$1-ours.pcap"
	OUT=$(python3 "$RDMAOOT_TOP/scripts/cm-fields.py" "$CAP-$1-inbox.pcap" "$CAP-$1-ours.pcap" 2>&1)
	local rc=$?
	printf '%s\n' "$OUT"
	cp "$CAP-$1"-*.pcap /run/rdmaoot/logs/ 2>/dev/null
	[ $rc -eq 0 ] || t_fail "as the $1, our SIDR messages differ from the inbox stack's: $(printf '%s\n' "$OUT" | grep -m1 -A1 differ | tr '\n' ' ')"
	expect_out "^SIDR_REQ from [0-9.]+: same " "as the $1: a SIDR REQ in both, the same"
	expect_out "^SIDR_REP from [0-9.]+: same " "as the $1: a SIDR REP in both, the same"
	if [ -n "${2:-}" ]; then
		qpn=$(printf '%s\n' "$OUT" | sed -n 's/^SIDR_REP qpn reference=0x[0-9a-f]* ours=//p')
		t_eq "as the $1: the QPN in our SIDR REP" "$2" "$qpn"
	fi
	t_log "as the $1: SIDR REQ and SIDR REP field by field as between two inbox stacks"
}

test_run() {
	local ours_qpn peer_qpn
	interop_inbox_up
	as_client inbox t_run timeout 60 udaddy -s $PEER_IP -b $OUR_IP -C 3
	serve_captured inbox udaddy $UD_PORT 90 "$UDADDY_CLIENT" timeout 60 udaddy -b $OUR_IP -C 3
	interop_inbox_down
	interop_ours_up
	as_client ours kp mode=udaddy role=client addr=$PEER_IP port=$UD_PORT iters=3
	peer_qpn=$(printf '%s\n' "$OUT" | sed -n 's/^info mode=udaddy role=client .* peer_qpn=\(0x[0-9a-f]*\) .*/\1/p')
	[ -n "$peer_qpn" ] || t_fail "our udaddy client printed no info line"
	serve_captured ours udaddy $UD_PORT 90 "$UDADDY_CLIENT" "$KPERF" mode=udaddy role=server addr=$OUR_IP port=$UD_PORT iters=3 timeout_ms=60000
	ours_qpn=$(sed -n 's/^info mode=udaddy role=server .* qpn=\(0x[0-9a-f]*\) .*/\1/p' "$CAP-server-ours.out")
	[ -n "$ours_qpn" ] || t_fail "our udaddy server printed no info line: $(cat "$CAP-server-ours.out")"
	compare client "$peer_qpn"
	compare server "$ours_qpn"
}
