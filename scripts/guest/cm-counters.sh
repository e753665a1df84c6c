# scripts/guest/cm-counters.sh - the IB CM's per-port message counters
# (6.1's ports/1/cm_tx_msgs, cm_tx_retries, cm_rx_msgs, cm_rx_duplicates)
# for the tests that connect through a CM (sourced by scripts/tests/078,
# 081 after rxe-pair.sh): remember them, then check what a command sent
# and received. Read with the shell's own "read": a fork costs a
# noticeable part of a second in the debug guest.

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
			for k in req mra rej rep rtu dreq drep sidr_req sidr_rep; do
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

# cm_expect_no_rej DEV...: no REJ reached the devices.
cm_expect_no_rej() {
	local dev
	for dev in "$@"; do
		cm_grew "$dev" cm_rx_msgs rej
		[ "$D" -eq 0 ] || t_fail "$dev received $D REJs"
	done
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
	cm_expect_no_rej "$a" "$p"
	t_log "$a -> $p: $n x REQ REP RTU DREQ DREP counted on both ports"
}

# cm_expect_loop DEV N: the messages of N connections a device made to
# itself: both ends count on its one port, so each kind was sent N times
# and received at least N times there; no REJ.
cm_expect_loop() {
	local k
	for k in req rep rtu dreq drep; do
		cm_expect_sent "$1" $k "$2"
		cm_expect_rcvd "$1" $k "$2"
	done
	cm_expect_no_rej "$1"
	t_log "$1 -> $1: $2 x REQ REP RTU DREQ DREP sent and received on one port"
}
