# 086-rdma_cm-bond: rdma_cm ids on a bond hear ADDR_CHANGE when a failover
# moves the bond's hardware address, as in 6.1.
#
# A soft-RoCE device on an active-backup bond of two veth ends
# (fail_over_mac=active: the bond takes the active port's MAC), ib_kperf
# connections from the device to itself held open (hold=1). Making the
# other port active is a NETDEV_BONDING_FAILOVER with a new bond MAC:
# every id whose resolved source MAC was the old one hears ADDR_CHANGE
# once, the connections stay up, and the command ends cleanly when
# closed. With fail_over_mac=none the bond keeps its MAC across the same
# failover and nobody hears anything.
# Stock only: the debug kernel is configured without bonding. Measured:
# 9 s on the stock kernel (5 ids told: both ends of 2 connections and the
# listener, which is bound to the bond's address).
TEST_KERNELS=stock
TEST_TIMEOUT=300

. "$RDMAOOT_TOP/scripts/guest/kperf.sh"

BOND=kpbond
RXE=kprxe
HOLD=/sys/kernel/debug/ib_kperf/hold
OUTDIR=/tmp/086
HOLD_PID=
QPS=2

test_setup() {
	command -v rdma >/dev/null || t_skip "the rdma tool (iproute2) is not installed"
	command -v ip >/dev/null || t_skip "the ip tool (iproute2) is not installed"
	t_run modprobe bonding max_bonds=0
	t_run modprobe rdma_rxe
	t_run modprobe ib_kperf
	mkdir -p "$OUTDIR"
}

bond_down() {
	rdma link delete "$RXE" 2>/dev/null
	ip link del "$BOND" 2>/dev/null
	ip link del kpbA0 2>/dev/null
	ip link del kpbB0 2>/dev/null
	true
}

test_cleanup() {
	[ -n "$HOLD_PID" ] && echo close > "$HOLD" 2>/dev/null
	if [ -n "$HOLD_PID" ]; then
		kill -KILL "$HOLD_PID" 2>/dev/null
		wait "$HOLD_PID" 2>/dev/null
	fi
	bond_down
	rmmod ib_kperf 2>/dev/null
	rmmod rdma_cm 2>/dev/null
	rmmod iw_cm 2>/dev/null
	rmmod ib_cm 2>/dev/null
	modprobe -r rdma_rxe 2>/dev/null
	modprobe -r ib_core 2>/dev/null
	modprobe -r bonding 2>/dev/null
	true
}

# bond_up MODE: the bond (fail_over_mac=MODE) of kpbA0 (active) and
# kpbB0, 10.78.0.1/24, and the rxe device on it with its RoCE v2 GID.
bond_up() {
	t_run ip link add "$BOND" type bond mode active-backup miimon 50 fail_over_mac "$1"
	t_run ip link add kpbA0 type veth peer name kpbA1
	t_run ip link add kpbB0 type veth peer name kpbB1
	t_run ip link set kpbA0 master "$BOND"
	t_run ip link set kpbB0 master "$BOND"
	t_run ip link set kpbA1 up
	t_run ip link set kpbB1 up
	t_run ip link set "$BOND" up
	t_run ip link set "$BOND" type bond active_slave kpbA0
	t_run ip addr add 10.78.0.1/24 dev "$BOND"
	t_run rdma link add "$RXE" type rxe netdev "$BOND"
	t_wait_for 10 grep -qx "0000:0000:0000:0000:0000:ffff:0a4e:0001" \
		/sys/class/infiniband/$RXE/ports/1/gids/1 ||
		t_fail "$RXE has no RoCE v2 GID for 10.78.0.1"
}

mac_of() { cat "/sys/class/net/$1/address"; }

# held N: the holding command shows N ADDR_CHANGE events.
held() { grep -q "^hold dev=$RXE peer=$RXE qps=$QPS addr_changes=$1\$" "$HOLD" 2>/dev/null; }

# failover MODE EXPECT: connections held on a bond with fail_over_mac=MODE,
# kpbB0 made active; the ids must hear EXPECT ADDR_CHANGE events in all.
failover() {
	local mode=$1 expect=$2 before after out
	bond_up "$mode"
	echo "+ (in the background) kperf dev=$RXE cm=rdma qp=rc qps=$QPS op=send iters=$QPS hold=1"
	"$KPERF" dev=$RXE cm=rdma qp=rc qps=$QPS op=send size=64 iters=$QPS hold=1 \
		timeout_ms=20000 > "$OUTDIR/hold" 2>&1 &
	HOLD_PID=$!
	t_wait_for 60 held 0 ||
		t_fail "the held connections did not come up: $(cat "$OUTDIR/hold")"
	before=$(mac_of "$BOND")
	t_run ip link set "$BOND" type bond active_slave kpbB0
	after=$(mac_of "$BOND")
	t_log "fail_over_mac=$mode: $BOND went from $before to $after"
	if [ "$expect" -gt 0 ]; then
		[ "$before" != "$after" ] || t_fail "the failover kept $BOND's MAC $before"
		t_wait_for 10 held "$expect" ||
			t_fail "expected $expect ADDR_CHANGE events: $(cat "$HOLD")"
	else
		[ "$before" = "$after" ] || t_fail "the failover moved $BOND's MAC to $after"
		# nothing to wait for: give a wrongly queued event time to land
		sleep 2
		held 0 || t_fail "ADDR_CHANGE without a MAC change: $(cat "$HOLD")"
	fi
	echo close > "$HOLD"
	t_wait_for 30 eval '! kill -0 "$HOLD_PID" 2>/dev/null' ||
		t_fail "the holding command did not end: $(cat "$OUTDIR/hold")"
	wait "$HOLD_PID"
	HOLD_PID=
	OUT=$(cat "$OUTDIR/hold")
	printf '%s\n' "$OUT"
	expect_out "^result .* qps=$QPS .* msgs=$QPS .* addr_changes=$expect status=ok\$" \
		"the held connections ended cleanly after $expect ADDR_CHANGE events"
	bond_down
}

test_run() {
	failover none 0
	failover active "$((2 * QPS + 1))"
}
