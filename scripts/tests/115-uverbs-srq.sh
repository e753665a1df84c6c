# SRQ commands of ib_uverbs over write() (scripts/guest/uverbs-srq.py):
# 6.1's errnos for a PD handle that names no PD, XRC and tag-matching
# types, MODIFY_SRQ, QUERY_SRQ and DESTROY_SRQ of no SRQ; ENOSPC for a
# short request; an SRQ the driver refuses leaves its PD free; a user SRQ
# of rdma_rxe with its sizes, QUERY_SRQ and its PD busy until it goes; the
# kernel stays silent. ibv_srq_pingpong runs in tests/114.
TEST_TIMEOUT=300

VETH=usrqveth0
VPEER=usrqveth1
IBDEV=rxe0
IP4=192.0.2.23
IB_CLASS=/sys/class/infiniband
DEVFILE=/dev/infiniband/uverbs0
HELPER="$RDMAOOT_TOP/scripts/guest/uverbs-srq.py"

test_setup() {
	command -v rdma >/dev/null || t_skip "the rdma tool (iproute2) is not installed"
	t_mod_path ib_uverbs >/dev/null || t_skip "ib_uverbs is not built"
	t_run ip link add "$VETH" type veth peer name "$VPEER"
	t_run ip addr add "$IP4/24" dev "$VETH"
	t_run ip link set "$VETH" up
	t_run ip link set "$VPEER" up
}

test_run() {
	local out before noise
	t_run modprobe rdma_rxe
	t_run modprobe ib_uverbs
	t_run rdma link add "$IBDEV" type rxe netdev "$VETH"
	t_wait_for 10 test -c "$DEVFILE" || t_fail "no $DEVFILE"
	before=$(dmesg | wc -l)
	out=$(/usr/bin/python3 "$HELPER" "$DEVFILE" 2>&1) || {
		printf '%s\n' "$out"
		t_fail "uverbs-srq.py found a wrong answer"
	}
	printf '%s\n' "$out"
	printf '%s\n' "$out" | grep -q "^result: passed" || t_fail "uverbs-srq.py did not finish"
	noise=$(dmesg | tail -n +"$((before + 1))" | grep -Ei "warn|bug|error|srq" || true)
	[ -z "$noise" ] || t_fail "the kernel spoke during the bad SRQ commands: $noise"
	t_run rdma link delete "$IBDEV"
	t_run modprobe -r rdma_rxe
	t_run modprobe -r ib_uverbs
}

test_cleanup() {
	rdma link delete "$IBDEV" 2>/dev/null
	ip link del "$VETH" 2>/dev/null
}
