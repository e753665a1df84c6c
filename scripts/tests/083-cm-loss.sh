# The IB CM's retries on the wire: rdma_cm connections between rxe0 and
# rxe1 across the veth (ib_kperf cm=rdma, mode=rping) while a tc filter on
# the sending veth end drops CM messages. The filter is a u32 match in the
# end's egress (a prio root qdisc, as tests/085) on RoCE v2 (UDP 4791),
# BTH destination QP 1 (GSI), management class 7 (CM) and the MAD's
# attribute ID. Offsets from the IPv4 header: IPv4 20 + UDP 8, then BTH
# 12 (destination QP in bytes 5..7), DETH 8, then the MAD: class at 1,
# attribute ID at 16.
#
# (a) to (d): the first REQ, REP, RTU or DREQ dropped, and only that one
# (the filter goes once its statistics count a drop; a resend comes
# seconds later). The connection must still come up, verified data must
# pass, and both ports' counters (6.1's cm_tx_msgs, cm_tx_retries,
# cm_rx_msgs, cm_rx_duplicates) must show exactly the repair 6.1 makes:
#
#   REQ   the active side resends it when its wait runs out: 2 x the
#         path's packet life time + the peer's CM response timeout
#         (rdma_cm's route on RoCE: life time 18, 1024 ms; response
#         timeout 20, 4096 ms): 6144 ms. rxe0 cm_tx_retries/req 1.
#   REP   the passive side resends it after the REQ's local CM response
#         timeout, 4096 ms, before the REQ's own resend is due.
#         rxe1 cm_tx_retries/rep 1.
#   RTU   the active side is ESTABLISHED, the passive side still waits:
#         its REP goes again after 4096 ms, the active side takes it for
#         a duplicate (rxe0 cm_rx_duplicates/rep 1) and repeats the RTU
#         from no cm_id, which 6.1 counts as a resend (cm_tx_retries/rtu
#         1, cm_tx_msgs/rtu 3). (6.1's other repair, a QP's
#         IB_EVENT_COMM_EST passed on with rdma_notify(), cannot happen
#         here: rdma_accept() moves the passive QP to RTS before the REP,
#         and rdma_rxe, as IBA, raises COMM_EST for a QP in RTR only;
#         ib_kperf also waits for both ends before sending.)
#   DREQ  the active side resends it after the connection's timeout
#         (the REQ's, 6144 ms); the passive side hears DISCONNECTED then.
#         rxe0 cm_tx_retries/dreq 1.
#
# (e) every REQ dropped: the peer is silent. rdma_cm's REQ allows 15
# retries (CMA_MAX_CM_RETRIES, as the inbox rdma_cm), so the REQ goes 16
# times, 6144 ms apart, and the connecting id hears UNREACHABLE (status
# -ETIMEDOUT) after 16 x 6144 ms = 98.3 s; mode=rping's client reports
# the event that ended it. The 4096 ms of CMA_CM_RESPONSE_TIMEOUT are the
# floor: with the shortest packet life time a ULP can set (through
# rdma_set_ack_timeout() before the route is resolved) it would still take
# 16 x 4098 ms = 65.6 s, so this case runs with rdma_cm's defaults.
# About 4 minutes on the stock kernel (237 s measured, 100 of them the
# silent peer's), 7 on the debug kernel (404 s), both on a host busy
# with other guests; the timeouts allow for more.
# Stock only in make check: it waits out real CM timers (about 4 minutes;
# 404 s on the debug kernel, where it passed too), and the debug guest's
# share of the suite is kept for what KASAN and lockdep add.
TEST_KERNELS=stock
TEST_TIMEOUT=720

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"
. "$RDMAOOT_TOP/scripts/guest/cm-counters.sh"
. "$RDMAOOT_TOP/scripts/guest/cm-drop.sh"

PAIR="dev=rxe0 peer=rxe1"
# rdma_cm's timeouts for a RoCE route (6.1's cma.c and cm.c): the active
# side waits 2 * 2^(18-8) + 2^(20-8) ms for an answer (REQ, DREQ), the
# passive side 2^(20-8) ms (REP).
ACTIVE_WAIT_MS=6144
PASSIVE_WAIT_MS=4096
CMA_MAX_CM_RETRIES=15
RPING_PORT=7174
DROPPED=/tmp/083-dropped

on_side() {
	local side=$1
	shift
	if [ "$side" = a ]; then "$@"; else nsx "$@"; fi
}

side_if() { if [ "$1" = a ]; then echo "$VA"; else echo "$VB"; fi; }

# The counters: cm_want DEV KIND TX RETRIES RX DUP sets what one command
# must add to DEV's cm_tx_msgs, cm_tx_retries, cm_rx_msgs and
# cm_rx_duplicates of KIND; whatever cm_want did not name must stay.
CM_KINDS="req mra rej rep rtu dreq drep"
CM_GROUPS="cm_tx_msgs cm_tx_retries cm_rx_msgs cm_rx_duplicates"
declare -A CM_WANT
cm_want() {
	CM_WANT[$1/cm_tx_msgs/$2]=$3
	CM_WANT[$1/cm_tx_retries/$2]=$4
	CM_WANT[$1/cm_rx_msgs/$2]=$5
	CM_WANT[$1/cm_rx_duplicates/$2]=$6
}

# cm_want_connection: one connection rxe0 -> rxe1 made and ended, every
# message sent once and received once.
cm_want_connection() {
	CM_WANT=()
	cm_want rxe0 req 1 0 0 0
	cm_want rxe1 req 0 0 1 0
	cm_want rxe1 rep 1 0 0 0
	cm_want rxe0 rep 0 0 1 0
	cm_want rxe0 rtu 1 0 0 0
	cm_want rxe1 rtu 0 0 1 0
	cm_want rxe0 dreq 1 0 0 0
	cm_want rxe1 dreq 0 0 1 0
	cm_want rxe1 drep 1 0 0 0
	cm_want rxe0 drep 0 0 1 0
}

cm_counts_match() {
	local dev g k want
	MISMATCH=
	for dev in rxe0 rxe1; do
		for g in $CM_GROUPS; do
			for k in $CM_KINDS; do
				cm_grew "$dev" "$g" "$k"
				want=${CM_WANT[$dev/$g/$k]:-0}
				[ "$D" -eq "$want" ] ||
					MISMATCH="$MISMATCH $dev/$g/$k=+$D (not +$want)"
			done
		done
	done
	[ -z "$MISMATCH" ]
}

# cm_expect_counts WHAT: every counter of both ports grew as CM_WANT says
# (a cancelled message is counted when the MAD layer is done with it:
# allow a few seconds).
cm_expect_counts() {
	t_wait_for 5 cm_counts_match || t_fail "$1: CM counters:$MISMATCH"
	t_log "$1: the CM counters of both ports are as expected"
}

# cm_expect_counts_settle: give cancelled messages a moment to be counted.
cm_expect_counts_settle() { sleep 2; }

cm_show_retries() {
	local dev k line
	for dev in rxe0 rxe1; do
		line=
		for k in $CM_KINDS; do
			cm_grew "$dev" cm_tx_retries "$k"
			line="$line $k=+$D"
		done
		t_log "$dev cm_tx_retries:$line"
	done
}

# lose_first SIDE KIND MIN_MS: one verified cm=rdma command with the first
# KIND leaving SIDE dropped; it must pass and take at least MIN_MS (the
# repair waits for a timeout). A round in which the filter took two
# packets had a poller that came later than the resend (a guest starved
# by its host): it does not count, and runs again, three rounds at most.
# (A resend that came early would fail every round, and the counters.)
lose_first() {
	local side=$1 kind=$2 min=$3 t0 round
	for round in 1 2 3; do
		cm_mark rxe0 rxe1
		drop_first "$side" "$kind"
		t0=$(date +%s%N)
		kp $PAIR cm=rdma qp=rc op=send size=4096 iters=4
		MS=$((($(date +%s%N) - t0) / 1000000))
		drop_first_end "$side"
		expect_out "^result .* op=send qp=rc size=4096 qps=1 .* status=ok" \
			"the connection came up and verified data passed with the first $kind lost"
		t_log "the command took $MS ms (the resend is due after $min ms)"
		cm_show_retries
		[ "$LOST" -gt 1 ] || break
		t_log "the filter took $LOST packets: the poller came too late, again"
		# the connection ended; let the CM settle before the next mark
		cm_expect_counts_settle
	done
	[ "$LOST" = 1 ] || t_fail "$LOST packets were dropped, not 1"
	[ "$MS" -ge "$min" ] || t_fail "the command took $MS ms: the $kind cannot have been resent after its timeout ($min ms)"
}

# (a) The first REQ lost: rxe0 resends it.
case_req() {
	t_log "=== (a) the first REQ lost"
	lose_first a req $ACTIVE_WAIT_MS
	cm_want_connection
	cm_want rxe0 req 2 1 0 0
	cm_expect_counts "REQ lost"
}

# (b) The first REP lost: rxe1 resends it, before rxe0's REQ is due.
case_rep() {
	t_log "=== (b) the first REP lost"
	lose_first b rep $PASSIVE_WAIT_MS
	cm_want_connection
	cm_want rxe1 rep 2 1 0 0
	cm_expect_counts "REP lost"
}

# (c) The first RTU lost: rxe1's REP goes again, rxe0 repeats its RTU.
case_rtu() {
	t_log "=== (c) the first RTU lost"
	lose_first a rtu $PASSIVE_WAIT_MS
	cm_want_connection
	cm_want rxe1 rep 2 1 0 0
	cm_want rxe0 rep 0 0 2 1
	cm_want rxe0 rtu 3 1 0 0
	cm_expect_counts "RTU lost"
}

# (c) again with rping's protocol: the client pings as soon as it is
# ESTABLISHED, so its first SEND reaches the server's QP (in RTS since
# before the REP) while the server still waits for the RTU; the server
# takes it once the repeated RTU has made it ESTABLISHED.
case_rtu_rping() {
	local round
	t_log "=== (c) the first RTU lost, rping"
	for round in 1 2 3; do
		rtu_rping_round
		[ "$LOST" -gt 1 ] || break
		t_log "the filter took $LOST packets: the poller came too late, again"
		cm_expect_counts_settle
	done
	[ "$LOST" = 1 ] || t_fail "$LOST packets were dropped, not 1"
	cm_want_connection
	cm_want rxe1 rep 2 1 0 0
	cm_want rxe0 rep 0 0 2 1
	cm_want rxe0 rtu 3 1 0 0
	cm_expect_counts "RTU lost (rping)"
}

rtu_rping_round() {
	local to=20000 f=/tmp/083-rping pid
	cm_mark rxe0 rxe1
	echo "+ (in $NS, in the background) kperf mode=rping role=server addr=$IPB port=$RPING_PORT iters=3 timeout_ms=$to"
	nsx "$KPERF" mode=rping role=server addr="$IPB" port="$RPING_PORT" \
		iters=3 timeout_ms=$to > "$f" 2>&1 &
	pid=$!
	t_wait_for 20 grep -qx "rping $IPB:$RPING_PORT" /sys/kernel/debug/ib_kperf/listening ||
		t_fail "ib_kperf's rping server does not listen: $(cat "$f")"
	drop_first a rtu
	kp mode=rping role=client addr=$IPB port=$RPING_PORT iters=3 timeout_ms=$to
	drop_first_end a
	expect_out "^result mode=rping role=client .* pings=3 bytes_verified=192 .* cm_event=DISCONNECTED cm_status=0 status=ok\$" \
		"the rping client ran 3 verified pings with the first RTU lost"
	if ! t_wait_for 30 eval '! kill -0 "$pid" 2>/dev/null'; then
		kill -KILL "$pid" 2>/dev/null
		t_fail "ib_kperf's rping server did not end: $(cat "$f")"
	fi
	wait "$pid"
	OUT=$(cat "$f")
	printf '%s\n' "$OUT"
	rm -f "$f"
	expect_out "^result mode=rping role=server .* pings=3 bytes_verified=192 .* cm_event=DISCONNECTED cm_status=0 status=ok\$" \
		"the rping server served 3 verified pings with the first RTU lost"
}

# (d) The first DREQ lost: rxe0 resends it.
case_dreq() {
	t_log "=== (d) the first DREQ lost"
	lose_first a dreq $ACTIVE_WAIT_MS
	cm_want_connection
	cm_want rxe0 dreq 2 1 0 0
	cm_expect_counts "DREQ lost"
}

# (e) Every REQ lost: UNREACHABLE after rdma_cm's 15 retries.
case_silent() {
	# the upper bound allows for a guest on TCG sharing a busy host (the
	# retry count, not the time, says how many REQs went)
	local n=$((CMA_MAX_CM_RETRIES + 1)) t0 ms min max slack=20000
	[ "${RDMAOOT_KIND:-stock}" = debug ] && slack=45000
	min=$((n * ACTIVE_WAIT_MS))
	max=$((min + slack))
	t_log "=== (e) every REQ lost: $n REQs, UNREACHABLE after $min ms"
	cm_mark rxe0 rxe1
	cm_filter_on a req
	t0=$(date +%s%N)
	kp_refused mode=rping role=client addr=$IPB port=$RPING_PORT iters=1 \
		timeout_ms=$((max + 20000))
	ms=$((($(date +%s%N) - t0) / 1000000))
	cm_filter_off a
	expect_out "^result mode=rping role=client addr=$IPB port=$RPING_PORT .* pings=0 bytes_verified=0 usec=[0-9.]+ cm_event=UNREACHABLE cm_status=-110 status=fail errno=-110 reason=\"connection to $IPB:$RPING_PORT: unreachable \\(status -110\\)\"\$" \
		"the connecting id heard UNREACHABLE (-ETIMEDOUT)"
	[ "$LOST" = "$n" ] || t_fail "the filter dropped $LOST REQs, not $n"
	CM_WANT=()
	cm_want rxe0 req "$n" "$CMA_MAX_CM_RETRIES" 0 0
	cm_expect_counts "silent peer"
	cm_show_retries
	[ "$ms" -ge "$min" ] || t_fail "UNREACHABLE after $ms ms, before the last REQ's wait ($min ms)"
	[ "$ms" -le "$max" ] || t_fail "UNREACHABLE after $ms ms, over $max ms"
	t_log "UNREACHABLE after $ms ms ($n x $ACTIVE_WAIT_MS ms = $min ms)"
	# the pair still connects
	cm_mark rxe0 rxe1
	kp $PAIR cm=rdma qp=rc op=send iters=2
	cm_want_connection
	cm_expect_counts "a connection after the silent peer"
}

test_setup() {
	command -v tc >/dev/null || t_skip "the tc tool (iproute2) is not installed"
	modprobe -q sch_prio; modprobe -q cls_u32; modprobe -q act_gact
	rxe_pair_setup
	t_run ip link set "$VA" txqueuelen 1000
	t_run nsx ip link set "$VB" txqueuelen 1000
}

test_run() {
	case_req
	case_rep
	case_rtu
	case_rtu_rping
	case_dreq
	case_silent
}

test_cleanup() {
	tc qdisc del dev "$VA" root 2>/dev/null
	rm -f "$DROPPED" "$DROPPED.fifo"
	rxe_pair_cleanup
}
