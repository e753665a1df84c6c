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

test_setup() { rxe_pair_setup; }
test_cleanup() { rxe_pair_cleanup; }

# cm_read DEV GROUP KIND: sets V to port 1's counter GROUP/KIND.
cm_read() {
	local f=$IB_CLASS/$1/ports/1/$2/$3
	[ -r "$f" ] || t_fail "$1 has no CM counter $2/$3"
	read -r V < "$f"
}

# cm_mark DEV...: remembers every CM counter of the devices.
declare -A CM_MARK
cm_mark() {
	local dev g k
	for dev in "$@"; do
		for g in cm_tx_msgs cm_tx_retries cm_rx_msgs cm_rx_duplicates; do
			for k in req rep rtu dreq drep rej; do
				cm_read "$dev" "$g" "$k"
				CM_MARK[$dev/$g/$k]=$V
			done
		done
	done
}

# cm_grew DEV GROUP KIND: sets D to how much the counter grew since cm_mark.
cm_grew() {
	cm_read "$1" "$2" "$3"
	D=$((V - ${CM_MARK[$1/$2/$3]}))
}

# cm_expect_sent DEV KIND N: DEV sent N messages of KIND, each once
# (transmissions minus resends).
cm_expect_sent() {
	local tx
	cm_grew "$1" cm_tx_msgs "$2"; tx=$D
	cm_grew "$1" cm_tx_retries "$2"
	[ $((tx - D)) -eq "$3" ] ||
		t_fail "$1 sent $tx $2 messages with $D resends, not $3 messages"
}

# cm_expect_rcvd DEV KIND N: DEV took in at least N messages of KIND (a
# resend that crossed the answer also counts).
cm_expect_rcvd() {
	cm_grew "$1" cm_rx_msgs "$2"
	[ "$D" -ge "$3" ] || t_fail "$1 received $D $2 messages, expected $3"
}

# cm_expect_exchange ACTIVE PASSIVE N: the messages of N connections made
# and ended by ACTIVE, and no REJ anywhere.
cm_expect_exchange() {
	local a=$1 p=$2 n=$3 k
	for k in req rtu dreq; do
		cm_expect_sent "$a" $k "$n"
		cm_expect_rcvd "$p" $k "$n"
	done
	for k in rep drep; do
		cm_expect_sent "$p" $k "$n"
		cm_expect_rcvd "$a" $k "$n"
	done
	cm_grew "$a" cm_rx_msgs rej
	[ "$D" -eq 0 ] || t_fail "$a received $D REJs"
	cm_grew "$p" cm_rx_msgs rej
	[ "$D" -eq 0 ] || t_fail "$p received $D REJs"
	t_log "$a -> $p: $n x REQ REP RTU DREQ DREP counted on both ports"
}

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
