# rdma_rxe as a user meets it through Debian's "rdma" tool: "rdma link add
# ... type rxe" loads the module and makes a device on a veth, whose port
# follows the veth (state, carrier), shows RoCE v2 GIDs and the inbox
# driver's counters; duplicates and bad net devices are refused; it works
# in another network namespace; the device goes with "rdma link delete",
# with its net device and with the module.
TEST_TIMEOUT=600

VETH=rxeveth0
VPEER=rxeveth1
NSVETH=rxensveth0
NSPEER=rxensveth1
NS=rxetestns
IBDEV=rxe0
NSDEV=rxe1
IB_CLASS=/sys/class/infiniband
IP4=192.0.2.1
IP4_GID=0000:0000:0000:0000:0000:ffff:c000:0201
ROUNDS=10
INBOX_COUNTERS="sent_pkts rcvd_pkts duplicate_request out_of_seq_request
	rcvd_rnr_err send_rnr_err rcvd_seq_err ack_deferred retry_exceeded_err
	retry_rnr_exceeded_err completer_retry_err send_err link_downed
	rdma_sends rdma_recvs"
# 4791 in /proc/net/udp's hex
RXE_PORT_HEX=12B7

# t_rdma_ok ARGS...: run rdma ARGS, fail the test when it fails; output in $OUT.
t_rdma_ok() {
	echo "+ rdma $*"
	OUT=$(rdma "$@" 2>&1) || t_fail "'rdma $*' failed: $OUT"
	printf '%s\n' "$OUT"
}

# t_rdma_fails WHAT ARGS...: rdma ARGS must fail.
t_rdma_fails() {
	local what=$1
	shift
	echo "+ rdma $* (must fail)"
	if OUT=$(rdma "$@" 2>&1); then
		t_fail "$what: 'rdma $*' succeeded: $OUT"
	fi
	t_log "$what refused: $OUT"
}

# The polled reads use the shell's own read: a fork per poll is slow on
# the debug kernel.
sysfs_is() { local v=; { read -r v < "$1"; } 2>/dev/null; [ "$v" = "$2" ]; }
port_state() { local v=; { read -r v < "$IB_CLASS/$1/ports/1/state"; } 2>/dev/null; echo "$v"; }
state_is() { sysfs_is "$IB_CLASS/$1/ports/1/state" "$2"; }
dev_gone() { [ ! -e "$IB_CLASS/$1" ]; }
gid_is() { sysfs_is "$IB_CLASS/$1/ports/1/gids/$2" "$3"; }
udp_listens() { grep -qi ":$RXE_PORT_HEX 00000000:0000" /proc/net/udp; }
no_udp_listen() { ! udp_listens; }

# expect_state DEV STATE: the port reaches "N: STATE" within 5 s.
expect_state() {
	t_wait_for 5 state_is "$1" "$2" ||
		t_fail "$1 port state: expected '$2', got '$(port_state "$1")'"
	t_log "$1 port state $2"
}

# The device's attributes as sysfs shows them.
check_sysfs() {
	local d=$IB_CLASS/$IBDEV p=$IB_CLASS/$IBDEV/ports/1 c
	t_eq "node_type" "1: CA" "$(< "$d/node_type")"
	t_eq "node_desc" "rxe" "$(< "$d/node_desc")"
	t_eq "link_layer" "Ethernet" "$(< "$p/link_layer")"
	expect_state "$IBDEV" "4: ACTIVE"
	t_eq "phys_state" "5: LinkUp" "$(< "$p/phys_state")"
	t_wait_for 5 gid_is "$IBDEV" 1 "$IP4_GID" ||
		t_fail "gids/1: expected $IP4_GID, got $(cat "$p/gids/1")"
	t_log "gids/1 = $IP4_GID"
	t_eq "GID 1 type" "RoCE v2" "$(< "$p/gid_attrs/types/1")"
	t_eq "GID 1 ndev" "$VETH" "$(< "$p/gid_attrs/ndevs/1")"
	for c in $INBOX_COUNTERS; do
		[ -e "$p/hw_counters/$c" ] || t_fail "no hw_counters/$c"
	done
	t_log "all 15 inbox counters in hw_counters/"
	t_eq "link_downed" "0" "$(< "$p/hw_counters/link_downed")"
	# a veth has no parent device, so neither has the rxe device (one on
	# a NIC takes the NIC's: interop/120 checks that)
	[ ! -e "$d/device" ] || t_fail "rxe on a veth has a parent device: $(readlink "$d/device")"
	case $(readlink -f "$d") in
	/sys/devices/virtual/infiniband/"$IBDEV") ;;
	*) t_fail "rxe on a veth is not a virtual device: $(readlink -f "$d")" ;;
	esac
}

# The port follows the peer's carrier and counts going down.
check_carrier() {
	t_run ip link set "$VPEER" down
	expect_state "$IBDEV" "1: DOWN"
	t_eq "phys_state while down" "3: Disabled" \
		"$(< "$IB_CLASS/$IBDEV/ports/1/phys_state")"
	t_run ip link set "$VPEER" up
	expect_state "$IBDEV" "4: ACTIVE"
	t_eq "link_downed after one carrier loss" "1" \
		"$(cat "$IB_CLASS/$IBDEV/ports/1/hw_counters/link_downed")"
}

# A second device on another veth, made from inside a network namespace.
check_netns() {
	t_run ip netns add "$NS"
	t_run ip link add "$NSVETH" type veth peer name "$NSPEER"
	t_run ip link set "$NSVETH" netns "$NS"
	t_run ip link set "$NSPEER" up
	t_run ip netns exec "$NS" ip link set "$NSVETH" up
	echo "+ ip netns exec $NS rdma link add $NSDEV type rxe netdev $NSVETH"
	OUT=$(ip netns exec "$NS" rdma link add "$NSDEV" type rxe netdev "$NSVETH" 2>&1) ||
		t_fail "rdma link add in a namespace failed: $OUT"
	[ -d "$IB_CLASS/$NSDEV" ] || t_fail "$NSDEV did not appear"
	expect_state "$NSDEV" "4: ACTIVE"
	ip netns exec "$NS" grep -qi ":$RXE_PORT_HEX 00000000:0000" /proc/net/udp ||
		t_fail "no UDP socket on port 4791 in $NS"
	t_log "UDP/4791 open in $NS"
	# the namespace goes, with its veth end and so the device
	t_run ip netns del "$NS"
	t_wait_for 10 dev_gone "$NSDEV" || t_fail "$NSDEV outlived its namespace"
	t_log "$NSDEV went with its namespace"
	ip link del "$NSPEER" 2>/dev/null || true
}

# rounds: add and delete, and load and unload with a device present.
check_rounds() {
	local i
	for i in $(seq 1 $ROUNDS); do
		rdma link add "$IBDEV" type rxe netdev "$VETH" ||
			t_fail "round $i: rdma link add failed"
		t_wait_for 5 state_is "$IBDEV" "4: ACTIVE" ||
			t_fail "round $i: $IBDEV is not ACTIVE"
		if [ $((i % 2)) -eq 0 ]; then
			rdma link delete "$IBDEV" || t_fail "round $i: rdma link delete failed"
			dev_gone "$IBDEV" || t_fail "round $i: $IBDEV left after delete"
		fi
		rmmod rdma_rxe || t_fail "round $i: rmmod rdma_rxe failed"
		dev_gone "$IBDEV" || t_fail "round $i: $IBDEV left after rmmod"
		t_mod_loaded rdma_rxe && t_fail "round $i: rdma_rxe still loaded"
	done
	t_log "$ROUNDS rounds of add, delete or unload"
}

test_run() {
	local path
	command -v rdma >/dev/null || t_skip "no rdma tool (iproute2) on this system"
	path=$(t_mod_path rdma_rxe) || t_fail "rdma_rxe is not installed"
	case "$path" in
	*/updates/rdmaoot/*) t_log "rdma_rxe is ours: $path" ;;
	*) t_fail "modprobe would load $path, not ours" ;;
	esac
	t_mod_loaded rdma_rxe && t_fail "rdma_rxe loaded before the test"

	t_run ip link add "$VETH" type veth peer name "$VPEER"
	# no IPv6 addresses: GID 0 is the default GID, GID 1 the IPv4 address
	echo 1 > "/proc/sys/net/ipv6/conf/$VETH/disable_ipv6" || t_fail "cannot turn IPv6 off on $VETH"
	t_run ip addr add "$IP4/24" dev "$VETH"
	t_run ip link set "$VETH" up
	t_run ip link set "$VPEER" up

	# made on demand: the module loads through its link alias
	t_rdma_ok link add "$IBDEV" type rxe netdev "$VETH"
	t_mod_loaded rdma_rxe || t_fail "rdma link add did not load rdma_rxe"
	[ -d "$IB_CLASS/$IBDEV" ] || t_fail "$IBDEV did not appear"
	t_wait_for 5 udp_listens || t_fail "no UDP socket on port 4791"
	t_log "UDP/4791 open"
	check_sysfs

	t_rdma_ok link show "$IBDEV/1"
	printf '%s\n' "$OUT" | grep -Eq "state ACTIVE .*netdev $VETH" ||
		t_fail "rdma link does not show $IBDEV ACTIVE on $VETH: $OUT"
	t_rdma_ok dev show "$IBDEV"
	printf '%s\n' "$OUT" | grep -q "node_type ca" ||
		t_fail "rdma dev does not show a CA: $OUT"

	check_carrier

	t_rdma_fails "a second device on $VETH" link add rxe9 type rxe netdev "$VETH"
	[ -e "$IB_CLASS/rxe9" ] && t_fail "rxe9 appeared"
	t_rdma_fails "a missing net device" link add rxe9 type rxe netdev nosuchdev0
	t_rdma_fails "a loopback net device" link add rxe9 type rxe netdev lo
	[ -e "$IB_CLASS/rxe9" ] && t_fail "rxe9 appeared"

	check_netns

	t_rdma_ok link delete "$IBDEV"
	dev_gone "$IBDEV" || t_fail "rdma link delete left $IBDEV"
	t_wait_for 5 no_udp_listen || t_fail "UDP/4791 still open with no device"
	t_log "UDP/4791 closed with the last device"

	# the device goes with its net device
	t_rdma_ok link add "$IBDEV" type rxe netdev "$VETH"
	t_run ip link del "$VETH"
	t_wait_for 10 dev_gone "$IBDEV" || t_fail "$IBDEV outlived $VETH"
	t_log "$IBDEV went with $VETH"

	t_run ip link add "$VETH" type veth peer name "$VPEER"
	t_run ip link set "$VETH" up
	t_run ip link set "$VPEER" up
	check_rounds
}

test_cleanup() {
	rdma link delete "$IBDEV" 2>/dev/null
	rdma link delete "$NSDEV" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	ip link del "$VETH" 2>/dev/null
	ip link del "$NSPEER" 2>/dev/null
	rmmod rdma_rxe 2>/dev/null
	modprobe -r ib_core 2>/dev/null || true
}
