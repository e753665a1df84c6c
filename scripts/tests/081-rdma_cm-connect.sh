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
# and fail the command within seconds, leaving the pair usable. ib_kperf's
# mode=rping speaks rping's protocol to itself: a server bound to rxe1's
# address in rxe1's namespace, a client on rxe0, run concurrently through
# two open files of the run file; both must count every ping and verify
# every byte, the server's iters= must catch a client that stops early,
# and a client to a port nobody listens on must be rejected. UD ids
# (qp=ud, the UDP port space): "connecting" is a SIDR REQ and the peer's
# SIDR REP, whose address vector, QP number and Q_Key the dev side's
# verified sends use; a SIDR REQ to a port nobody listens on is answered
# at once (SIDR REP status 1, UNREACHABLE).
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

# rcm_mcast PAIR PEER: multicast joined through rdma_cm (mcast=1 cm=rdma):
# the target side joins 239.77.1.1 as a full member, the initiator side
# as a send-only member; every target QP must receive every round's
# message, verified, with rdma_cm's Q_Key. Across the veth the messages
# are RoCE v2 packets to 239.77.1.1, which the target's IP stack takes
# only for a group its net device joined: their arrival shows rdma_cm
# made kpveth1 join (the KUnit suite rdma_cm_mcast checks the membership
# itself). After the command the group must have been left.
rcm_mcast() {
	local dev=$VA nsx=()
	if [ "$2" = rxe1 ]; then
		dev=$VB
		nsx=(ip netns exec "$NS")
	fi
	kp $(pair_args "$1") cm=rdma qp=ud mcast=1 qps=3 op=send size=512 iters=20
	expect_out "^info mcast_gid=::ffff:239.77.1.1 members=3 qkey=0x1234567" "rdma_cm's group and Q_Key ($1)"
	expect_out "^result .* qp=ud .* msgs=20 .* status=ok" "every target QP got every multicast message ($1)"
	! "${nsx[@]}" ip maddr show dev $dev | grep -q "inet  *239.77.1.1" ||
		t_fail "$dev is still in 239.77.1.1 after the group was left"
}

# rcm_ud: UD ids over rdma_cm, rxe0 to itself and to rxe1: one SIDR
# REQ and one SIDR REP per connection and nothing else; then a SIDR REQ
# to a port nobody listens on: a SIDR REP within seconds, UNREACHABLE
# with status 1 (service ID not supported), no resends.
rcm_ud() {
	local pair peer t0 ms limit=5000
	for pair in dev=rxe0 dev=rxe0,peer=rxe1; do
		peer=rxe0
		[ "$pair" = dev=rxe0 ] || peer=rxe1
		cm_mark rxe0 $peer
		kp $(pair_args "$pair") cm=rdma qp=ud qps=3 op=send size=1024 iters=5
		expect_out "^result .* qp=ud .* qps=3 .* status=ok" "verified UD sends over 3 SIDR-resolved ids ($pair)"
		cm_expect_sent rxe0 sidr_req 3
		cm_expect_sent $peer sidr_rep 3
		cm_expect_rcvd rxe0 sidr_rep 3
		cm_expect_sent rxe0 req 0
		cm_expect_sent rxe0 dreq 0
		rcm_mcast "$pair" $peer
	done
	[ "${RDMAOOT_KIND:-stock}" = debug ] && limit=20000
	cm_mark rxe0 rxe1
	t0=$(date +%s%N)
	kp_refused dev=rxe0 peer=rxe1 cm=rdma qp=ud port=$RCM_PORT addr=$IPB:$RCM_NOBODY op=send
	ms=$((($(date +%s%N) - t0) / 1000000))
	expect_out "^result .* status=fail .*connection 0 to $IPB:$RCM_NOBODY: unreachable \(status 1\)" \
		"a SIDR REQ to port $RCM_NOBODY is answered: unreachable, status 1"
	[ "$ms" -le "$limit" ] || t_fail "the unanswered SIDR command took $ms ms (limit $limit ms)"
	t_log "the SIDR command to nobody ended after $ms ms"
	cm_expect_sent rxe0 sidr_req 1
	cm_expect_sent rxe1 sidr_rep 1
}

# What cm=rdma, addr= and port= do not take.
rcm_refused() {
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

# rping's port, and where ib_kperf's rping servers leave their output.
RPING_PORT=7174
RPING_OUT=/tmp/081-rping

# rping_listening ADDR PORT: an ib_kperf rping server lists its listener.
rping_listening() {
	grep -qx "rping $1:$2" /sys/kernel/debug/ib_kperf/listening 2>/dev/null
}

# rping_server_start NAME ARGS...: ib_kperf mode=rping role=server bound to
# rxe1's address, in rxe1's namespace (the writer's namespace holds the
# ids), in the background; its output in $RPING_OUT/NAME. Returns once it
# listens; its pid in RPING_PID.
rping_server_start() {
	local f=$RPING_OUT/$1
	shift
	echo "+ (in $NS, in the background) kperf mode=rping role=server addr=$IPB port=$RPING_PORT $*"
	ip netns exec "$NS" "$KPERF" mode=rping role=server addr="$IPB" \
		port="$RPING_PORT" "$@" > "$f" 2>&1 &
	RPING_PID=$!
	if ! t_wait_for 20 rping_listening "$IPB" "$RPING_PORT"; then
		kill -KILL "$RPING_PID" 2>/dev/null
		wait "$RPING_PID"
		t_fail "ib_kperf's rping server does not listen on $IPB:$RPING_PORT: $(cat "$f")"
	fi
}

# rping_server_end NAME: waits (30 s at most) for the server to end; its
# output in $OUT. Its listener must be gone from the listening file.
rping_server_end() {
	if ! t_wait_for 30 eval '! kill -0 "$RPING_PID" 2>/dev/null'; then
		kill -KILL "$RPING_PID" 2>/dev/null
		wait "$RPING_PID"
		t_fail "ib_kperf's rping server did not end: $(cat "$RPING_OUT/$1")"
	fi
	wait "$RPING_PID"
	OUT=$(cat "$RPING_OUT/$1")
	printf '%s\n' "$OUT"
	! rping_listening "$IPB" "$RPING_PORT" ||
		t_fail "the rping server ended, but its listener is still listed"
}

# rcm_rping: ib_kperf's rping server on rxe1 and its rping client on rxe0
# run N verified pings of rping's protocol (each: the source's
# advertisement, the server's RDMA READ, a go-ahead, the sink's
# advertisement, the server's RDMA WRITE, a go-ahead) over one rdma_cm
# connection, which the client ends; then a server expecting more pings
# than the client runs must fail.
rcm_rping() {
	local n=100 size=64 to=20000
	mkdir -p "$RPING_OUT"
	cm_mark rxe0 rxe1
	rping_server_start srv iters=$n size=$size verify=1 timeout_ms=$to
	kp mode=rping role=client addr=$IPB port=$RPING_PORT iters=$n size=$size verify=1 timeout_ms=$to
	expect_out "^info mode=rping role=client dev=rxe0 port=1 gid=::ffff:$IPA local=$IPA:[0-9]+ remote=$IPB:$RPING_PORT " \
		"the rping client connected from rxe0"
	expect_out "^result mode=rping role=client addr=$IPB port=$RPING_PORT size=$size iters=$n verify=1 pings=$n bytes_verified=$((n * size)) usec=[0-9.]+ cm_event=DISCONNECTED cm_status=0 status=ok\$" \
		"the rping client ran $n pings and verified every echo"
	rping_server_end srv
	expect_out "^info mode=rping role=server dev=rxe1 port=1 gid=::ffff:$IPB local=$IPB:$RPING_PORT remote=$IPA:[0-9]+ " \
		"the rping server took the connection on rxe1"
	expect_out "^result mode=rping role=server addr=$IPB port=$RPING_PORT size=$size iters=$n verify=1 pings=$n bytes_verified=$((n * size)) usec=[0-9.]+ cm_event=DISCONNECTED cm_status=0 status=ok\$" \
		"the rping server served $n pings and verified every one it read"
	cm_expect_exchange rxe0 rxe1 1

	# The server counts the client's pings: 3 when it wanted 5.
	rping_server_start short iters=5 timeout_ms=$to
	kp mode=rping role=client addr=$IPB port=$RPING_PORT iters=3 timeout_ms=$to
	expect_out "^result mode=rping role=client .* pings=3 bytes_verified=192 .* status=ok\$" \
		"an rping client of 3 pings"
	rping_server_end short
	expect_out "^result mode=rping role=server .* iters=5 verify=1 pings=3 bytes_verified=192 .* status=fail errno=-74 reason=\"the client disconnected after 3 pings, iters=5\"" \
		"a server expecting 5 pings fails when the client runs 3"
}

# rcm_rping_refused: rping's connection to a port nobody listens on, and
# what mode=rping does not take.
rcm_rping_refused() {
	kp_refused mode=rping role=client addr=$IPB port=$RCM_NOBODY iters=1
	expect_out "^result mode=rping role=client addr=$IPB port=$RCM_NOBODY .* pings=0 bytes_verified=0 .* cm_event=REJECTED cm_status=8 (rej_data=0+ )?status=fail errno=-111 reason=\"connection to $IPB:$RCM_NOBODY: rejected: invalid service ID \\(status 8\\)\"" \
		"an rping client to a port nobody listens on is rejected"
	kp_refused mode=rping role=probe
	expect_out "bad value 'probe' for role" "role=probe is refused as a value"
	kp_refused mode=rping role=client
	expect_out "mode=rping needs addr=<ipv4>" "mode=rping without addr= is refused"
	kp_refused mode=rping role=client addr=$IPB dev=rxe0
	expect_out "mode=rping takes only role, addr, port, iters, size, verify, timewait and timeout_ms" \
		"mode=rping with dev= is refused"
	kp_refused mode=rping role=client addr=$IPB size=25
	expect_out "mode=rping takes size=26 to size=65535" "a ping smaller than rping's is refused"
	kp_refused mode=rping role=client addr=$IPB iters=0
	expect_out "role=client runs at least one ping" "a client of 0 pings is refused"
	kp_refused dev=rxe0 verify=1
	expect_out "role=, verify= and timewait= need mode=rping" "verify= without mode=rping is refused"
}

test_run() {
	local pair
	for pair in $(echo dev=rxe0 dev=rxe0,peer=rxe1); do
		rcm_on "$pair"
	done
	rcm_unheard
	rcm_ud
	rcm_refused
	rcm_rping
	rcm_rping_refused
}
