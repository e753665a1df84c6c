# scripts/guest/uverbs-env.sh - the device the ib_uverbs tests
# (scripts/tests/11x-uverbs-*) talk to: rxe0 on one end of a veth pair
# whose IPv4 address gives it a RoCE v2 GID at index 1, and the checks
# around it. Sourced after testlib.sh; the test loads the modules in the
# order it is about (ib_uverbs on demand, before or after the device).

VETH=uvveth0
VPEER=uvveth1
IBDEV=rxe0
IP4=192.0.2.11
IP4_GID=0000:0000:0000:0000:0000:ffff:c000:020b
IB_CLASS=/sys/class/infiniband
UVDEV=/dev/infiniband/uverbs0
# The far end, for the tests that cross the veth: VPEER in a namespace of
# its own with IP4B, and rxe1 on it there.
UV_NS=uvns
IBDEV2=rxe1
IP4B=192.0.2.12

# uv_env_setup [CMD...]: skip without the rdma tool, ib_uverbs or any of
# the commands CMD; the veth pair up, VETH with IP4.
uv_env_setup() {
	local c
	command -v rdma >/dev/null || t_skip "the rdma tool (iproute2) is not installed"
	for c in "$@"; do
		command -v "$c" >/dev/null || t_skip "$c is not installed (make deps)"
	done
	t_mod_path ib_uverbs >/dev/null || t_skip "ib_uverbs is not built"
	t_run ip link add "$VETH" type veth peer name "$VPEER"
	t_run ip addr add "$IP4/24" dev "$VETH"
	t_run ip link set "$VETH" up
	t_run ip link set "$VPEER" up
}

# uv_rxe_add: rdma_rxe loaded, IBDEV on VETH with its IPv4 GID at index 1.
uv_rxe_add() {
	t_run modprobe rdma_rxe
	t_run rdma link add "$IBDEV" type rxe netdev "$VETH"
	t_wait_for 10 uv_gid1_is || t_fail "$IBDEV has no GID 1 $IP4_GID"
}

# uv_uverbs_up: ib_uverbs loaded and IBDEV's device file there.
uv_uverbs_up() {
	t_run modprobe ib_uverbs
	t_wait_for 10 test -c "$UVDEV" || t_fail "no $UVDEV"
}

# uv_log_mark: remember where the kernel log ends, for uv_log_quiet.
uv_log_mark() { UV_LOG_MARK=$(dmesg | wc -l); }

# uv_log_quiet WHAT [PATTERN]: fail naming WHAT if the kernel logged a line
# matching PATTERN (an extended regex, case-blind; by default warnings,
# bugs, KASAN, leaks, errors, rxe and uverbs) since uv_log_mark.
uv_log_quiet() {
	local noise
	noise=$(dmesg | tail -n +"$((UV_LOG_MARK + 1))" |
		grep -Ei "${2:-warn|bug|kasan|leak|error|rxe|uverbs}" || true)
	[ -z "$noise" ] || t_fail "the kernel spoke during $1: $noise"
}

# uv_teardown: IBDEV deleted, rdma_rxe and ib_uverbs unloaded (rdma_ucm
# first when librdmacm loaded it), each of which must work.
uv_teardown() {
	t_run rdma link delete "$IBDEV"
	! t_mod_loaded rdma_ucm || t_run modprobe -r rdma_ucm
	t_run modprobe -r rdma_rxe
	t_run modprobe -r ib_uverbs
}

# uv_ns_rxe_add: VPEER moved to UV_NS with IP4B (and lo up there), IBDEV2
# added on it from inside the namespace.
uv_ns_rxe_add() {
	t_run ip netns add "$UV_NS"
	t_run ip link set "$VPEER" netns "$UV_NS"
	t_run ip -n "$UV_NS" addr add "$IP4B/24" dev "$VPEER"
	t_run ip -n "$UV_NS" link set "$VPEER" up
	t_run ip -n "$UV_NS" link set lo up
	t_run ip netns exec "$UV_NS" rdma link add "$IBDEV2" type rxe netdev "$VPEER"
}

uv_gid1_is() { [ "$(cat "$IB_CLASS/$IBDEV/ports/1/gids/1" 2>/dev/null)" = "$IP4_GID" ]; }
uv_ibdev_gone() { [ ! -e "$IB_CLASS/$IBDEV" ]; }

# uv_env_cleanup: the devices, the namespace and the veth pair gone,
# whatever was made.
uv_env_cleanup() {
	if [ -e "/run/netns/$UV_NS" ]; then
		ip netns exec "$UV_NS" rdma link delete "$IBDEV2" 2>/dev/null
		ip netns del "$UV_NS"
	fi
	rdma link delete "$IBDEV" 2>/dev/null
	ip link del "$VETH" 2>/dev/null
	true
}
