# rdma_cm connects rdma_rxe QPs: ib_kperf cm=rdma has the peer side bind
# its IP address and a port and listen; per connection the dev side
# resolves the address and the route, has rdma_cm create its QP and
# connects with the connection's index as private data, and the peer side
# accepts each CONNECT_REQUEST on a new id with a QP of its own. Verified
# traffic runs over the QPs rdma_cm moved to RTS, and the connections end
# with rdma_disconnect() on both sides (DREQ, DREP). (a) rxe0 to itself,
# (b) rxe0 to rxe1 across the veth (rxe1's net device in a namespace of
# its own). The IB CM messages under each command are checked in 6.1's
# per-port counter files as in 078. A connection to a port nobody listens
# on must be rejected by the peer's IB CM (invalid service ID, reason 8)
# and fail the command within seconds, leaving the pair usable.
TEST_TIMEOUT=300
[ "${RDMAOOT_KIND:-stock}" = debug ] && TEST_TIMEOUT=900

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"
. "$RDMAOOT_TOP/scripts/guest/cm-counters.sh"

test_setup() { rxe_pair_setup; }
test_cleanup() { rxe_pair_cleanup; }

# The port ib_kperf's peer side listens on by default, and one next to it.
RCM_PORT=18515
RCM_NOBODY=18516

# rcm_expect PEER N: the IB CM messages of N connections rxe0 made to
# PEER and ended, each sent once and received by the other end.
rcm_expect() {
	if [ "$1" = rxe0 ]; then
		cm_expect_loop rxe0 "$2"
	else
		cm_expect_exchange rxe0 "$1" "$2"
	fi
}

# rcm_on PAIR: the operations over rdma_cm-made connections of one pair.
rcm_on() {
	local pair peer qps=4 op
	pair=$(pair_args "$1")
	peer=rxe0
	[ "$1" = dev=rxe0 ] || peer=rxe1
	for op in send write read; do
		cm_mark rxe0 $peer
		kp $pair cm=rdma qp=rc qps=$qps op=$op size=65536 iters=3
		expect_out "^result .* qps=$qps .* status=ok" "rc $op over $qps rdma_cm connections ($1)"
		rcm_expect $peer $qps
	done
	cm_mark rxe0 $peer
	kp $pair cm=rdma qp=uc qps=2 op=write size=4096 iters=3
	kp $pair cm=rdma qp=rc op=read size=1M iters=2
	expect_out '^result .* op=read qp=rc size=1048576 .* status=ok' "a 1 MiB READ over rdma_cm ($1)"
	rcm_expect $peer 3
	# bw and lat run over the same connections as without a CM; the
	# debug kernel runs them as long as tests/080 does there
	local bw=200 lat=100
	if [ "${RDMAOOT_KIND:-stock}" = debug ]; then
		bw=50
		lat=30
	fi
	cm_mark rxe0 $peer
	kp $pair cm=rdma mode=bw qp=rc qps=2 op=write size=65536 iters=$bw
	kp $pair cm=rdma mode=lat qp=rc op=send size=64 iters=$lat
	rcm_expect $peer 3
}

# rcm_unheard: dev=rxe0 peer=rxe1 connecting to rxe1's address on a port
# nobody listens on (the peer side listens on RCM_PORT). rxe1's IB CM
# has no listener for the REQ's service ID and rejects it: the command
# must fail with REJECTED, reason 8, quickly; no RTU, no DREQ; and the
# next command on the same pair must connect.
rcm_unheard() {
	local t0 ms limit=5000
	[ "${RDMAOOT_KIND:-stock}" = debug ] && limit=20000
	cm_mark rxe0 rxe1
	t0=$(date +%s%N)
	kp_refused dev=rxe0 peer=rxe1 cm=rdma port=$RCM_PORT addr=$IPB:$RCM_NOBODY qp=rc op=send
	ms=$((($(date +%s%N) - t0) / 1000000))
	expect_out "^result .* status=fail errno=-111 reason=\"connection 0 to $IPB:$RCM_NOBODY: rejected: invalid service ID \\(status 8\\)\"" \
		"a connection to port $RCM_NOBODY is rejected (invalid service ID)"
	[ "$ms" -le "$limit" ] || t_fail "the rejected command took $ms ms (limit $limit ms)"
	t_log "the rejected command ended after $ms ms"
	cm_expect_sent rxe0 req 1
	cm_expect_sent rxe1 rej 1
	cm_expect_rcvd rxe0 rej 1
	cm_expect_sent rxe0 rtu 0
	cm_expect_sent rxe0 dreq 0
	cm_expect_sent rxe1 rep 0
	kp dev=rxe0 peer=rxe1 cm=rdma qp=rc op=send iters=2
	t_log "rxe0 -> rxe1 connects again after the REJ"
}

# What cm=rdma, addr= and port= do not take.
rcm_refused() {
	kp_refused dev=rxe0 peer=rxe1 cm=rdma qp=ud op=send
	expect_out "cm=rdma connects qp=rc or qp=uc" "cm=rdma with qp=ud is refused"
	kp_refused dev=rxe0 peer=rxe1 cm=rdma mtu=1024
	expect_out "cm=rdma takes the path MTU from its route" "cm=rdma with mtu= is refused"
	kp_refused dev=rxe0 peer=rxe1 cm=ib port=$RCM_PORT
	expect_out "addr= and port= need cm=rdma" "port= without cm=rdma is refused"
	kp_refused dev=rxe0 peer=rxe1 addr=$IPB
	expect_out "addr= and port= need cm=rdma" "addr= without cm=rdma is refused"
	kp_refused dev=rxe0 peer=rxe1 cm=rdma addr=10.77.0.256
	expect_out 'errno=-22 .*bad value' "a bad addr= is refused"
	kp_refused dev=rxe0 peer=rxe1 cm=rdma port=0
	expect_out 'errno=-22 .*bad value' "port=0 is refused"
}

test_run() {
	local pair
	for pair in $(echo dev=rxe0 dev=rxe0,peer=rxe1); do
		rcm_on "$pair"
	done
	rcm_unheard
	rcm_refused
}
