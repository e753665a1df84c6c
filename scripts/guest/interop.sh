# scripts/guest/interop.sh - our side of the interop tests (scripts/interop/).
#
# Sourced by each test. The peer guest runs the inbox stack on PEER_IP;
# this guest runs ours on OUR_IP (scripts/guest/interop-net.sh). Commands
# for the peer are bash snippets handed over through the shared folder and
# run there in the background (scripts/guest/interop-peer.sh):
#   peer_start CMD      start CMD on the peer; its number in PEER_N
#   peer_wait N SECS    wait for N to end: output in PEER_OUT, errors in
#                       PEER_ERR, status PEER_RC
#   peer_run SECS CMD   both, for a command that must succeed

. "$RDMAOOT_TOP/scripts/guest/interop-net.sh"
. "$RDMAOOT_TOP/scripts/guest/kperf.sh"
PEER_SEQ=/tmp/interop-peer-seq
# What interop_wire_check found, for the verdict of the tests after it.
WIRE_NOTE=/tmp/interop-wire-note

# interop_ping_for SECS: the peer answers a ping within SECS seconds (a
# deadline in time: each ping waits up to a second for its answer, so
# t_wait_for's count of 0.1 s polls would wait 11 times longer).
interop_ping_for() {
	local end=$((SECONDS + $1))

	until busybox ping -c 1 -W 1 "$PEER_IP" > /dev/null 2>&1; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.5
	done
}

# interop_net_up: eth0 up with OUR_IP (once per guest: it outlives the
# tests, as the peer does) and the peer ready and reachable.
interop_net_up() {
	if [ ! -e /sys/class/net/eth0 ]; then
		modprobe virtio_net || t_fail "modprobe virtio_net failed"
		interop_wait_eth0 || t_fail "no eth0 after modprobe virtio_net"
	fi
	ip -4 addr show dev eth0 | grep -q "$OUR_IP/" ||
		ip addr add "$OUR_IP/24" dev eth0 || t_fail "cannot address eth0"
	ip link set eth0 up
	t_wait_for 300 test -e "$PAIR/peer-ready" ||
		t_fail "the peer guest never got ready (its log: peer/share/peer.log)"
	interop_ping_for 30 ||
		t_fail "the peer at $PEER_IP does not answer pings$(cat "$WIRE_NOTE" 2>/dev/null)"
}

# interop_ours_up: our soft-RoCE on eth0 (rxe0) and ib_kperf, with rdma_cm.
interop_ours_up() {
	interop_net_up
	modprobe rdma_rxe || t_fail "modprobe rdma_rxe failed"
	case $(t_mod_path rdma_rxe) in
	*/updates/*) ;;
	*) t_fail "rdma_rxe is not ours: $(t_mod_path rdma_rxe)" ;;
	esac
	rdma link add rxe0 type rxe netdev eth0 || t_fail "rdma link add rxe0 failed"
	modprobe ib_kperf || t_fail "modprobe ib_kperf failed"
}

# interop_ours_down: undo interop_ours_up (the runner unloads the modules),
# after interop_wire_check.
interop_ours_down() {
	interop_wire_check
	rdma link delete rxe0 2>/dev/null
	return 0
}

# interop_wire_counts: eth0's packet counters in one line (run on both).
interop_wire_counts() {
	local d=/sys/class/net/eth0/statistics
	echo "rx $(cat $d/rx_packets) tx $(cat $d/tx_packets) rx_dropped $(cat $d/rx_dropped) tx timeouts $(cat /sys/class/net/eth0/queues/tx-0/tx_timeout 2>/dev/null)"
}

# interop_wire_state: what this guest's end of the wire says (run on both).
interop_wire_state() {
	ip -s -s link show eth0
	echo "softnet_stat (processed dropped squeezed ...):"
	cat /proc/net/softnet_stat
	grep -i virtio /proc/interrupts
	echo "tx-0 timeouts: $(cat /sys/class/net/eth0/queues/tx-0/tx_timeout 2>/dev/null)"
}

# interop_wire_qemu WHEN: what both QEMUs say about their virtio-net
# queues (the host runs scripts/qmp-wire-dump.py when asked through the
# shared folder) to the log; its one-line summary in WIRE_QEMU.
interop_wire_qemu() {
	rm -f "$PAIR/wire-dump.txt"
	touch "$PAIR/wire-dump.req"
	WIRE_QEMU="the host did not answer"
	t_wait_for 30 test -e "$PAIR/wire-dump.txt" || return 0
	sed "s/^/WIRE qemu $1: /" "$PAIR/wire-dump.txt"
	WIRE_QEMU=$(sed -n 's/^SUMMARY //p' "$PAIR/wire-dump.txt" |
		awk '{ printf "%s%s", (NR > 1 ? "; " : ""), $0 }')
}

# interop_wire_check: the peer still answers pings after a test. If not,
# both ends' state goes to the log (the peer's through the shared folder,
# which needs no wire) with what both QEMUs say about the virtio rings,
# then both take eth0 down and up (virtio refills its receive ring) and the
# log says whether pings came back: a stall in a guest then shows apart
# from one in the QEMUs that join them.
interop_wire_check() {
	busybox ping -c 2 -W 2 "$PEER_IP" > /dev/null 2>&1 && return 0
	local ours peers after qemu
	echo "WIRE: the peer at $PEER_IP does not answer pings after the test; our end:"
	interop_wire_state
	ours=$(interop_wire_counts)
	interop_wire_qemu before
	qemu=$WIRE_QEMU
	peer_start "$(declare -f interop_wire_state interop_wire_counts); interop_wire_state; echo \"COUNTS \$(interop_wire_counts)\"; ip link set eth0 down; ip link set eth0 up"
	peer_wait "$PEER_N" 30 > /tmp/interop-wire-peer
	sed 's/^/WIRE peer: /' /tmp/interop-wire-peer
	peers=$(sed -n 's/^COUNTS //p' /tmp/interop-wire-peer)
	ip link set eth0 down
	ip link set eth0 up
	if interop_ping_for 30; then
		after="pings came back"
	else
		after="still no pings"
	fi
	echo "WIRE: $after after eth0 went down and up on both ends"
	[ "$after" = "pings came back" ] || interop_wire_qemu after
	# The tests after this one fail on the dead wire: say why in their verdict.
	echo " (the wire died in an earlier test; ours: $ours; the peer: ${peers:-no answer through the shared folder}; QEMU rings: $qemu; after eth0 down/up on both: $after)" > "$WIRE_NOTE"
}

peer_start() {
	local n f
	n=$(($(cat "$PEER_SEQ" 2>/dev/null || echo 0) + 1))
	echo "$n" > "$PEER_SEQ"
	PEER_N=$(printf '%04d' "$n")
	f=$PAIR/cmd/$PEER_N
	printf '%s\n' "$*" > "$f.tmp"
	mv "$f.tmp" "$f.sh"
	echo "+ (peer #$PEER_N) $*"
}

peer_wait() {
	local f=$PAIR/cmd/$1
	PEER_RC=124
	t_wait_for "$2" test -e "$f.rc" && PEER_RC=$(cat "$f.rc")
	PEER_OUT=$(cat "$f.out" 2>/dev/null)
	PEER_ERR=$(cat "$f.err" 2>/dev/null)
	printf '%s\n' "$PEER_OUT"
	[ -z "$PEER_ERR" ] || printf 'stderr: %s\n' "$PEER_ERR"
	return "$PEER_RC"
}

peer_run() {
	local secs=$1
	shift
	peer_start "$@"
	peer_wait "$PEER_N" "$secs" || t_fail "on the peer, '$*' exited $PEER_RC: $(printf '%s\n' "$PEER_ERR$PEER_OUT" | tail -n 3)"
}

# peer_listening PORT: the peer's rdma_cm has a listener on PORT (rping -s
# started in the background listens a moment later).
peer_listening() {
	peer_run 30 "for i in \$(seq 100); do rdma res show cm_id | grep -Eq 'state LISTEN .*src-addr [^ ]*:$1( |\$)' && exit 0; sleep 0.2; done; rdma res show cm_id; exit 1"
}

# inbox_load NAME: the stock kernel's own module NAME loaded here, after
# what it needs, by path (modprobe takes ours for our modules' names).
inbox_load() {
	local p dep
	[ -d "/sys/module/$1" ] && return 0
	p=$(find "/lib/modules/$(uname -r)/kernel/drivers/infiniband/" -name "$1.ko*" | head -n1)
	[ -n "$p" ] || { modprobe "$1"; return; }
	for dep in $(modinfo -F depends "$p" | tr , ' '); do
		inbox_load "$dep" || return 1
	done
	insmod "$p"
}

# interop_inbox_up: the inbox soft-RoCE and rdma_ucm here too, in place of
# ours, for a reference exchange between two inbox stacks.
interop_inbox_up() {
	interop_net_up
	inbox_load rdma_rxe || t_fail "cannot load the inbox rdma_rxe"
	inbox_load rdma_ucm || t_fail "cannot load the inbox rdma_ucm"
	rdma link add rxe0 type rxe netdev eth0 || t_fail "rdma link add rxe0 (inbox) failed"
}

# interop_inbox_down: the inbox stack unloaded again.
interop_inbox_down() {
	local m
	rdma link delete rxe0 2>/dev/null
	for m in rdma_ucm rdma_cm iw_cm ib_cm rdma_rxe ib_uverbs ib_core; do
		[ -d "/sys/module/$m" ] && rmmod "$m"
	done
	return 0
}

# capture_start FILE: RoCE v2 traffic on eth0 into FILE, in the background.
capture_start() {
	tcpdump -i eth0 -U --immediate-mode -w "$1" udp port 4791 2> "$1.log" &
	CAPTURE_PID=$!
	t_wait_for 10 grep -q "listening on" "$1.log" || t_fail "tcpdump did not start: $(cat "$1.log")"
}

# capture_stop: end the capture capture_start began.
capture_stop() {
	sleep 1
	kill -INT "$CAPTURE_PID" 2>/dev/null
	wait "$CAPTURE_PID"
}

# connect_captured NAME PORT SERVER CMD...: the peer's SERVER command
# (listening on PORT) and CMD here against it, captured into
# $CAP-client-NAME.pcap; the server's output is in $PEER_OUT after.
connect_captured() {
	local name=$1 port=$2 server=$3 srv
	shift 3
	peer_start "$server"
	srv=$PEER_N
	peer_listening "$port"
	capture_start "$CAP-client-$name.pcap"
	"$@"
	peer_wait "$srv" 60 || t_fail "the inbox server '$server' exited $PEER_RC"
	capture_stop
}

# local_listening MODE PORT: a listener on PORT in this guest's rdma_cm
# (the inbox one lists it in rdma res; ib_kperf's mode=MODE server in its
# listening file).
local_listening() {
	rdma res show cm_id 2>/dev/null | grep -Eq "state LISTEN .*src-addr [^ ]*:$2( |\$)" ||
		grep -qx "$1 $OUR_IP:$2" /sys/kernel/debug/ib_kperf/listening 2>/dev/null
}

# bg_start WHAT OUT READY CMD...: CMD (WHAT, for messages) started in the
# background with its output in OUT; READY (a command line, eval'ed) must
# hold within 20 s. BG_PID is CMD's.
bg_start() {
	local what=$1 out=$2 ready=$3
	shift 3
	echo "+ (in the background) $*"
	"$@" > "$out" 2>&1 &
	BG_PID=$!
	t_wait_for 20 eval "$ready" || t_fail "$what is not ready: $(cat "$out")"
}

# bg_end WHAT OUT: the command bg_start began ends within 30 s; OUT, its
# output, is printed and kept in $OUT. Returns the command's status.
bg_end() {
	local rc
	t_wait_for 30 eval '! kill -0 $BG_PID 2>/dev/null' || t_fail "$1 did not end"
	wait "$BG_PID"
	rc=$?
	OUT=$(cat "$2")
	printf '%s\n' "$OUT"
	return $rc
}

# serve_captured NAME MODE PORT SECS CLIENT CMD...: CMD, a server started
# here in the background that listens on PORT (ib_kperf's as mode=MODE),
# and the peer's CLIENT command against it (given SECS), captured into
# $CAP-server-NAME.pcap; the server's output in $CAP-server-NAME.out.
serve_captured() {
	local name=$1 mode=$2 port=$3 secs=$4 client=$5 out=$CAP-server-$1.out
	shift 5
	bg_start "the $name server" "$out" "local_listening $mode $port" "$@"
	capture_start "$CAP-server-$name.pcap"
	peer_run "$secs" "$client"
	bg_end "the $name server" "$out" || t_fail "the $name server failed: $OUT"
	capture_stop
}

# rping's data, for tests that check every ping (interop/010, 130).
# The bytes after a ping's number run through 'A' (65) to 'z' (122) and
# wrap; ping N starts at 'A' + N % 58. Twice over, for substrings.
ALPHA=$(printf '%s' {A..Z} '[' '\' ']' '^' '_' '`' {a..z})
ALPHA=$ALPHA$ALPHA

# ping_text N: what rping's client puts in ping N (SIZE - 1 bytes; the
# test sets SIZE and PINGS).
ping_text() {
	local s="rdma-ping-$1: "
	printf '%s%s' "$s" "${ALPHA:$(($1 % 58)):$((SIZE - 1 - ${#s}))}"
}

# expect_pings WHAT PREFIX TEXT: TEXT holds "PREFIX<ping n>" for every n in
# order and nothing else with PREFIX.
expect_pings() {
	local got want n
	got=$(printf '%s\n' "$3" | grep -c "^$2")
	t_eq "$1: pings printed" "$PINGS" "$got"
	want=$(for ((n = 0; n < PINGS; n++)); do echo "$2$(ping_text $n)"; done)
	[ "$(printf '%s\n' "$3" | grep "^$2")" = "$want" ] ||
		t_fail "$1: the pings printed are not the client's, in order"
	t_log "$1: every ping is the client's"
}
