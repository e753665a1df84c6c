# rdma_rxe with packets lost on the wire: the two devices of tests/080
# (rxe0 here, rxe1 in a namespace of its own), and a tc filter on the
# SENDING veth end that drops RoCE packets (UDP 4791, optionally one BTH
# opcode) in its egress qdisc. A drop there looks like loss on the wire,
# not like a local send error. Every case runs verified ib_kperf commands
# that must still pass, and checks the hardware counters both devices
# report for the recovery (Documentation/rxe.rst, Counters):
#
#   requests lost     RC writes: the responder counts out_of_seq_request,
#                     the requester rcvd_seq_err (the NAK) and retransmits
#   ACKs lost         RC writes: the requester times out and resends, the
#                     responder counts duplicate_request and ACKs again
#   READ responses    RC reads: a gap in the responses makes the requester
#                     re-issue the READ from the gap, the responder counts
#                     duplicate_request and answers from there
#   everything lost   RC: the retries run out, RETRY_EXC_ERR, counted by
#                     completer_retry_err and retry_exceeded_err
#   UC                a lost packet loses its message: the receiver drops
#                     the rest of it, the sender never knows
#
# Drops are every N-th matching packet (gact "random determ", needs
# CONFIG_GACT_PROB) or, without it, netem's random loss of 1/N of them.
# The cases that recover by resending from a gap draw their drops at
# random (gact "random netrand") even where determ works: a resend starts
# mid-message (a WRITE or READ response MIDDLE, as the inbox stack sends
# it), and when the packets between two sendings of the same PSN number a
# multiple of N, every-N-th drops that PSN each time until the retries run
# out. Real loss has no such phase; a test that locks onto it fails with
# RETRY_EXC_ERR now and then for no fault of the stack.
TEST_TIMEOUT=420
# KASAN under TCG on a shared host: about 4 minutes, twice that when busy.
[ "${RDMAOOT_KIND:-stock}" = debug ] && TEST_TIMEOUT=900

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"

PAIR="dev=rxe0 peer=rxe1"
# The cases that must recover wait 268 ms (2^16 * 4.096 us) for an ACK
# instead of 67 ms: the QP fails after 8 timeouts in a row without
# progress, and a guest under KASAN and kmemleak on TCG can stall the
# peer for half a second. What is dropped, and what must be counted, is
# the same.
RECOVER="ack_timeout=16"
ROCE_PORT=4791
# Offset of the BTH opcode from the IPv4 header (20 bytes, no options,
# then the 8-byte UDP header).
BTH_OPCODE_AT=28
# BTH opcodes (IBA transport headers; rxe_hdr.h).
OPC_RC_READ_RESPONSE_MIDDLE=0x0e
# How drops are made: "gact" or "netem" (decided in test_setup).
LOSS_WAY=

# on_side SIDE CMD...: run CMD where the veth end of side "a" (rxe0) or
# "b" (rxe1) lives.
on_side() {
	local side=$1
	shift
	if [ "$side" = a ]; then "$@"; else nsx "$@"; fi
}

side_if() { if [ "$1" = a ]; then echo "$VA"; else echo "$VB"; fi; }

# loss_on SIDE N [OPCODE]: drop every N-th RoCE packet (only those of BTH
# OPCODE when given) leaving SIDE's veth end; N=1 drops them all. With
# LOSS_PICK=netrand set for the call, 1 in N of them at random instead.
loss_on() {
	local side=$1 n=$2 opc=${3:-} pick=${LOSS_PICK:-determ} ifc match act
	ifc=$(side_if "$side")
	match="match ip protocol 17 0xff match ip dport $ROCE_PORT 0xffff"
	[ -n "$opc" ] && match="$match match u8 $opc 0xff at $BTH_OPCODE_AT"
	if [ "$n" = 1 ]; then
		act="action gact drop"
	elif [ "$LOSS_WAY" = gact ]; then
		act="action gact pass random $pick drop $n"
	else
		# netem in a band of its own, which the default priomap never
		# picks: only the matching packets go through it.
		t_run on_side "$side" tc qdisc add dev "$ifc" root handle 1: prio bands 4
		t_run on_side "$side" tc qdisc add dev "$ifc" parent 1:4 handle 40: \
			netem loss random "$((100 / n))%"
		# shellcheck disable=SC2086
		t_run on_side "$side" tc filter add dev "$ifc" parent 1: protocol ip \
			prio 1 u32 $match flowid 1:4
		return
	fi
	t_run on_side "$side" tc qdisc add dev "$ifc" root handle 1: prio
	# shellcheck disable=SC2086
	t_run on_side "$side" tc filter add dev "$ifc" parent 1: protocol ip \
		prio 1 u32 $match $act
}

# loss_drops SIDE: packets dropped so far by SIDE's root qdisc (its
# first "dropped" figure; netem's drops count there too).
loss_drops() {
	on_side "$1" tc -s qdisc show dev "$(side_if "$1")" |
		awk '/dropped/ { sub(/.*dropped /, ""); sub(/,.*/, ""); print; exit }'
}

# loss_off SIDE: the drop count goes to the log, the qdisc goes away.
loss_off() {
	LOST=$(loss_drops "$1")
	t_log "side $1: $LOST packets dropped"
	on_side "$1" tc qdisc del dev "$(side_if "$1")" root 2>/dev/null
}

# loss_way: can this kernel drop every N-th packet with gact, or only
# 1/N of them at random with netem?
loss_way() {
	modprobe -q sch_prio; modprobe -q cls_u32; modprobe -q act_gact
	modprobe -q sch_netem
	t_run tc qdisc add dev "$VA" root handle 1: prio
	if tc filter add dev "$VA" parent 1: protocol ip prio 1 u32 \
		match ip dport 9 0xffff action gact pass random determ drop 2 2>/dev/null; then
		LOSS_WAY=gact
	elif tc qdisc add dev "$VA" parent 1:3 handle 30: netem loss random 1% 2>/dev/null; then
		LOSS_WAY=netem
	fi
	tc qdisc del dev "$VA" root
	[ -n "$LOSS_WAY" ] || t_skip "neither gact 'random determ' nor netem loss works here (tc modules?)"
	t_log "drops made with $LOSS_WAY"
}

# rcvd_all LOST: rxe1 has received all rxe0 sent since counters_mark but
# LOST packets (the last ones may still sit in the veth's backlog).
rcvd_all() {
	local sent
	counter_delta rxe0 sent_pkts
	sent=$DELTA
	counter_delta rxe1 rcvd_pkts
	[ "$DELTA" -eq $((sent - $1)) ]
}

# expect_rcvd_all: rcvd_all, within a second.
expect_rcvd_all() {
	local ok=0 sent
	t_wait_for 1 rcvd_all "$LOST" && ok=1
	counter_delta rxe0 sent_pkts
	sent=$DELTA
	counter_delta rxe1 rcvd_pkts
	[ $ok = 1 ] || t_fail "rxe0 sent $sent, $LOST dropped, rxe1 received $DELTA"
	t_log "rxe0 sent $sent, $LOST dropped, rxe1 received the rest"
}

test_setup() {
	command -v tc >/dev/null || t_skip "the tc tool (iproute2) is not installed"
	rxe_pair_setup
	# veth ends have no queue of their own: give the qdiscs' FIFOs room
	t_run ip link set "$VA" txqueuelen 1000
	t_run nsx ip link set "$VB" txqueuelen 1000
	loss_way
}

# (a) Writes of 64 packets (64 KiB at path MTU 1024), 1 in 10 request
# packets lost at random: each gap is NAKed and resent from there.
case_requests() {
	t_log "=== (a) RC requests lost"
	counters_mark rxe0 rxe1
	LOSS_PICK=netrand loss_on a 10
	kp $PAIR $RECOVER qp=rc op=write size=65536 iters=4
	kp $PAIR $RECOVER qp=rc op=send size=65536 iters=4
	loss_off a
	[ "$LOST" -ge 1 ] || t_fail "nothing was dropped"
	expect_counter rxe1 out_of_seq_request -ge 1
	expect_counter rxe0 rcvd_seq_err -ge 1
	expect_counter rxe0 retry_exceeded_err -eq 0
	# everything sent that was not dropped arrived
	expect_rcvd_all
}

# (b) Every 3rd ACK lost: the requester's timer resends, the responder
# sees duplicates and acknowledges them.
case_acks() {
	t_log "=== (b) RC ACKs lost"
	counters_mark rxe0 rxe1
	loss_on b 3
	kp $PAIR $RECOVER qp=rc op=write size=4096 iters=9
	loss_off b
	[ "$LOST" -ge 1 ] || t_fail "nothing was dropped"
	expect_counter rxe0 completer_retry_err -ge 1
	expect_counter rxe1 duplicate_request -ge 1
	expect_counter rxe0 retry_exceeded_err -eq 0
}

# (c) 1 in 5 READ responses from the middle of a 64-response stream lost
# at random.
case_read_responses() {
	t_log "=== (c) RC READ responses lost"
	counters_mark rxe0 rxe1
	LOSS_PICK=netrand loss_on b 5 $OPC_RC_READ_RESPONSE_MIDDLE
	kp $PAIR $RECOVER qp=rc op=read size=65536 iters=4
	loss_off b
	[ "$LOST" -ge 1 ] || t_fail "nothing was dropped"
	# the re-issued READ is a duplicate at the responder
	expect_counter rxe1 duplicate_request -ge 1
	# 4 READ requests, and the re-issued ones
	expect_counter rxe0 sent_pkts -gt 4
	expect_counter rxe0 retry_exceeded_err -eq 0
	expect_counter rxe1 out_of_seq_request -eq 0
}

# (d) Everything lost: 7 retries after the first timeout (67 ms each),
# then RETRY_EXC_ERR.
case_all_lost() {
	t_log "=== (d) RC everything lost"
	counters_mark rxe0 rxe1
	loss_on a 1
	kp $PAIR qp=rc op=write size=4096 iters=1 expect=RETRY_EXC_ERR
	expect_out 'wc=RETRY_EXC_ERR .*status=ok' "all lost: retries exceeded"
	loss_off a
	expect_counter rxe0 retry_exceeded_err -eq 1
	expect_counter rxe0 completer_retry_err -eq 8
	expect_counter rxe1 rcvd_pkts -eq 0
	# the devices still work
	kp $PAIR qp=rc op=write size=4096 iters=2
}

# (e) UC: 4-packet sends, every 7th packet lost. The sender completes
# every send; the receiver drops the rest of each message that lost a
# packet (rcvd_pkts, but never processed: not in rdma_recvs).
case_uc() {
	local rcvd done
	t_log "=== (e) UC packets lost"
	counters_mark rxe0 rxe1
	loss_on a 7
	kp mode=bw $PAIR qp=uc op=send size=4096 depth=4 iters=40
	loss_off a
	[ "$LOST" -ge 1 ] || t_fail "nothing was dropped"
	expect_rcvd_all
	counter_delta rxe1 rcvd_pkts
	rcvd=$DELTA
	counter_delta rxe1 rdma_recvs
	done=$DELTA
	[ "$done" -lt "$rcvd" ] || t_fail "rxe1 processed $done of $rcvd packets: nothing was dropped as part of a lost message"
	t_log "rxe1 processed $done of $rcvd packets received"
	expect_counter rxe1 out_of_seq_request -eq 0
	expect_counter rxe1 duplicate_request -eq 0
	# and a verified UC exchange afterwards
	kp $PAIR qp=uc op=send size=4096 iters=3
}

test_run() {
	case_requests
	case_acks
	case_read_responses
	case_all_lost
	case_uc
}

test_cleanup() {
	tc qdisc del dev "$VA" root 2>/dev/null
	rxe_pair_cleanup
}
