# ib_cm connects rdma_rxe QPs: ib_kperf cm=ib has the peer side listen on
# a service ID and the dev side send a REQ per connection; the QPs move
# to RTS on the attributes ib_cm_init_qp_attr() gives (REQ, REP, RTU),
# verified traffic runs over them, and the connections end with DREQ and
# DREP. (a) rxe0 to itself, (b) rxe0 to rxe1 across the veth. Each
# command's messages are checked in 6.1's per-port counter files: every
# message sent once (plus its resends, which cm_tx_retries accounts for)
# and received by the other side.
TEST_TIMEOUT=300
[ "${RDMAOOT_KIND:-stock}" = debug ] && TEST_TIMEOUT=900

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"
. "$RDMAOOT_TOP/scripts/guest/cm-counters.sh"

test_setup() { rxe_pair_setup; }
test_cleanup() { rxe_pair_cleanup; }

# cm_on PAIR: the operations over CM-made connections of one pair.
cm_on() {
	local pair peer qps=4 op
	pair=$(pair_args "$1")
	peer=rxe0
	[ "$1" = dev=rxe0 ] || peer=rxe1
	for op in send write read; do
		cm_mark rxe0 $peer
		kp $pair cm=ib qp=rc qps=$qps op=$op size=65536 iters=3
		# on one device both ends count on the same port
		if [ $peer = rxe0 ]; then
			cm_expect_sent rxe0 req $qps
			cm_expect_sent rxe0 rep $qps
			cm_expect_rcvd rxe0 rtu $qps
			cm_expect_rcvd rxe0 drep $qps
		else
			cm_expect_exchange rxe0 rxe1 $qps
		fi
	done
	cm_mark rxe0 $peer
	kp $pair cm=ib qp=uc qps=2 op=write size=4096 iters=3
	kp $pair cm=ib qp=rc op=read size=1M iters=2
	[ $peer = rxe0 ] || cm_expect_exchange rxe0 rxe1 3
}

# What cm=ib does not take.
cm_refused() {
	kp_refused dev=rxe0 peer=rxe1 cm=ib qp=ud op=send
	expect_out "cm=ib connects qp=rc or qp=uc" "cm=ib with qp=ud is refused"
	kp_refused dev=rxe0 peer=rxe1 cm=tcp qp=rc op=send
	expect_out 'errno=-22' "an unknown cm= is refused"
}

test_run() {
	local pair
	for pair in $(echo dev=rxe0 dev=rxe0,peer=rxe1); do
		cm_on "$pair"
	done
	cm_refused
}
