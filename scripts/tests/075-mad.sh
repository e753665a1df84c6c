# The MAD layer on rdma_rxe: QP1 on every RoCE port (a PD, a CQ and the
# GSI QP, owned by ib_core, in "rdma res"), and MADs between the QP1s of
# rxe0 and of rxe1 (in a namespace of its own, across a veth), driven by
# ib_kperf mode=mad:
#
#   echo       an agent of the peer answers each GET with its GET_RESP:
#              the answer is routed back by TID to the requester, with
#              the request's data, and the request then completes
#   unmatched  no agent on the peer: its MAD layer answers GET_RESP with
#              status 0x000c (unsupported method/attribute)
#   timeout    the peer's agent never answers: the request is sent
#              1 + retries times, resp_ms apart, then RESP_TIMEOUT_ERR
#   cancel     ib_cancel_mad() right after posting: WR_FLUSH_ERR, at once
#   rmpp=1     echo with RMPP: 2000-byte messages of a vendor class of
#              range 2 (10 segments each way), sent in the receiver's
#              window, ACKed, reassembled, echoed and checked byte by byte
TEST_TIMEOUT=300
[ "${RDMAOOT_KIND:-stock}" = debug ] && TEST_TIMEOUT=600

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"

PAIRS="dev=rxe0 dev=rxe0,peer=rxe1"

test_setup() { rxe_pair_setup; }
test_cleanup() { rxe_pair_cleanup; }

# usec_of: the usec= figure of the result line in $OUT, whole microseconds.
usec_of() { printf '%s\n' "$OUT" | sed -n 's/.* usec=\([0-9]*\)\..*/\1/p' | tail -1; }

test_mad_objects() {
	OUT=$(rdma res show 2>&1)
	printf '%s\n' "$OUT"
	expect_out '^[0-9]+: rxe0: pd 1 cq 1 qp 1 ' "rxe0 holds the MAD layer's PD, CQ and QP1, nothing else"
	OUT=$(rdma res show qp link rxe0 2>&1)
	printf '%s\n' "$OUT"
	expect_out 'lqpn 1 .*type GSI .*comm \[?ib_core' "QP1 of rxe0 belongs to ib_core"
	printf '%s\n' "$OUT" | grep -q 'type SMI' && t_fail "a RoCE port has no QP0: $OUT"
	t_log "no QP0 on the RoCE port"
}

test_run() {
	local pair args usec

	test_mad_objects
	for pair in $PAIRS; do
		args=$(pair_args "$pair")
		# shellcheck disable=SC2086
		kp mode=mad mad=echo iters=20 $args
		expect_out 'msgs=20 .*status=ok' "$pair: 20 GETs answered by the peer's agent"
		# shellcheck disable=SC2086
		kp mode=mad mad=echo rmpp=1 iters=10 $args
		expect_out 'msgs=10 .*status=ok' "$pair: 10 RMPP messages of 10 segments echoed by the peer's agent"
		# shellcheck disable=SC2086
		kp mode=mad mad=unmatched iters=5 $args
		expect_out 'msgs=5 .*status=ok' "$pair: 5 GETs answered 'unsupported' by the peer's MAD layer"
		# shellcheck disable=SC2086
		kp mode=mad mad=cancel iters=5 resp_ms=10000 timeout_ms=20000 $args
		usec=$(usec_of)
		[ -n "$usec" ] && [ "$usec" -lt 10000000 ] ||
			t_fail "$pair: 5 cancelled requests took ${usec:-?} us (a cancel must not wait for resp_ms)"
		t_log "$pair: 5 cancelled requests in $usec us"
	done

	# One unanswered request across the veth: exactly 1 + 3 packets reach
	# rxe1, none comes back, and it ends after at least 4 * 200 ms.
	counters_mark rxe0 rxe1
	kp mode=mad mad=timeout iters=1 resp_ms=200 retries=3 timeout_ms=5000 dev=rxe0 peer=rxe1
	expect_out 'msgs=1 .*status=ok' "an unanswered GET timed out after its 3 retries"
	expect_counter rxe0 sent_pkts -eq 4
	expect_counter rxe1 rcvd_pkts -eq 4
	expect_counter rxe1 sent_pkts -eq 0

	# One RMPP echo across the veth, packet by packet. rxe0 sends the 10
	# segments of its request, then (all ACKed, a response expected) a DS
	# ACK, and ACKs the response twice: for its first segment (opening
	# the window) and for the whole message. rxe1 ACKs the request twice
	# the same way and sends the 10 segments of its response.
	counters_mark rxe0 rxe1
	kp mode=mad mad=echo rmpp=1 iters=1 dev=rxe0 peer=rxe1
	expect_out 'msgs=1 .*status=ok' "one RMPP message echoed across the veth"
	expect_counter rxe0 sent_pkts -eq 13
	expect_counter rxe1 rcvd_pkts -eq 13
	expect_counter rxe1 sent_pkts -eq 12

	# A bad command is refused before anything is sent.
	kp_refused mode=mad mad=timeout rmpp=1 resp_ms=100 retries=1 timeout_ms=5000 dev=rxe0
	kp_refused mode=mad mad=timeout resp_ms=2000 retries=3 timeout_ms=5000 dev=rxe0
	kp_refused mode=mad mad=nonsense dev=rxe0
}
