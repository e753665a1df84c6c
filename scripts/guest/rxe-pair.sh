# scripts/guest/rxe-pair.sh - two rdma_rxe devices on a veth pair, and
# ib_kperf, for the rxe integration tests (sourced by scripts/tests/08x).
#
# rxe0 sits on a veth end in this namespace, rxe1 on the other end moved
# to a namespace of its own (10.77.0.1/24 and 10.77.0.2/24, and
# fd00:77::1/64 and fd00:77::2/64 for commands with ip=6). Packets
# between them cross the veth; a device talking to itself does not.

NS=kperfns
VA=kpveth0
VB=kpveth1
IPA=10.77.0.1
IPB=10.77.0.2
# Their IPv4-mapped GIDs, as sysfs prints them.
GIDA=0000:0000:0000:0000:0000:ffff:0a4d:0001
GIDB=0000:0000:0000:0000:0000:ffff:0a4d:0002
GIDA6=fd00:0077:0000:0000:0000:0000:0000:0001
GIDB6=fd00:0077:0000:0000:0000:0000:0000:0002
IB_CLASS=/sys/class/infiniband
. "$RDMAOOT_TOP/scripts/guest/kperf.sh"

# pair_args PAIR: "dev=rxe0,peer=rxe1" -> "dev=rxe0 peer=rxe1"
pair_args() { echo "${1//,/ }"; }

# has_v2_gid IBDEV GID: port 1 of IBDEV has GID as a RoCE v2 GID. Read
# with the shell's own "read": the table's entries come in name order
# (0, 1, 10, 100, ...), so an IPv6 GID at index 2 is looked for through
# hundreds of entries, and a fork each cost the debug guest a minute.
has_v2_gid() {
	local d=$IB_CLASS/$1/ports/1 f i g t
	for f in "$d"/gids/*; do
		i=${f##*/}
		{ read -r g < "$f"; } 2>/dev/null || continue
		[ "$g" = "$2" ] || continue
		{ read -r t < "$d/gid_attrs/types/$i"; } 2>/dev/null
		[ "$t" = "RoCE v2" ] && return 0
	done
	return 1
}

# rdma_diag DEV...: what the stack shows (ids, QPs, every hw counter of
# each DEV), for a test to print when a step failed.
rdma_diag() {
	local dev f
	rdma res show cm_id
	rdma res show qp
	for dev in "$@"; do
		for f in "$IB_CLASS/$dev"/ports/1/hw_counters/*; do
			echo "$dev ${f##*/} $(cat "$f")"
		done
	done
}

ibdev_gone() { [ ! -e "$IB_CLASS/$1" ]; }

nsx() { ip netns exec "$NS" "$@"; }

# rxe_pair_setup: load rdma_rxe and ib_kperf, make the veth pair, the
# namespace and both devices; wait for their RoCE v2 GIDs.
rxe_pair_setup() {
	command -v rdma >/dev/null || t_skip "the rdma tool (iproute2) is not installed"
	command -v ip >/dev/null || t_skip "the ip tool (iproute2) is not installed"
	t_mod_path rdma_rxe >/dev/null || t_skip "rdma_rxe is not built"
	t_run modprobe rdma_rxe
	t_run modprobe ib_kperf
	[ -e /sys/kernel/debug/ib_kperf/run ] || t_fail "ib_kperf made no debugfs file"
	t_run ip netns add "$NS"
	t_run ip link add "$VA" type veth peer name "$VB"
	t_run ip link set "$VB" netns "$NS"
	t_run ip addr add "$IPA/24" dev "$VA"
	t_run nsx ip addr add "$IPB/24" dev "$VB"
	t_run ip addr add fd00:77::1/64 dev "$VA" nodad
	t_run nsx ip addr add fd00:77::2/64 dev "$VB" nodad
	t_run ip link set "$VA" up
	t_run nsx ip link set "$VB" up
	t_run nsx ip link set lo up
	t_run rdma link add rxe0 type rxe netdev "$VA"
	# The net device lives in $NS: the link is added from there.
	t_run nsx rdma link add rxe1 type rxe netdev "$VB"
	t_wait_for 10 has_v2_gid rxe0 "$GIDA" || t_fail "rxe0 has no RoCE v2 GID for $IPA"
	t_wait_for 10 has_v2_gid rxe1 "$GIDB" || t_fail "rxe1 has no RoCE v2 GID for $IPB"
	t_wait_for 10 has_v2_gid rxe0 "$GIDA6" || t_fail "rxe0 has no RoCE v2 GID for fd00:77::1"
	t_wait_for 10 has_v2_gid rxe1 "$GIDB6" || t_fail "rxe1 has no RoCE v2 GID for fd00:77::2"
	t_log "rxe0 ($VA, $IPA) and rxe1 ($VB in $NS, $IPB) are up"
}

# rxe_pair_cleanup: undo rxe_pair_setup, whatever part of it was done.
rxe_pair_cleanup() {
	rdma link delete rxe1 2>/dev/null
	rdma link delete rxe0 2>/dev/null
	ip link del "$VA" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rmmod ib_kperf 2>/dev/null
	# ib_kperf's cm=ib and cm=rdma pulled ib_cm and rdma_cm in (rdma_cm
	# before what it uses: ib_cm, and iw_cm once it drives iWARP); they
	# hold ib_core
	rmmod rdma_cm 2>/dev/null
	rmmod iw_cm 2>/dev/null
	rmmod ib_cm 2>/dev/null
	modprobe -r rdma_rxe 2>/dev/null
	modprobe -r ib_core 2>/dev/null
	true
}

# Counter deltas: counters_mark DEV... remembers every hw counter of the
# devices; counter_delta DEV NAME sets DELTA to how much one grew since.
# Both read with the shell's own "read": a fork costs a noticeable part
# of a second in the debug guest. counters_mark sets the devices' port
# counters' lifespan to 0, so that every read is fresh: within a lifespan
# (10 ms by default) a read gets the values the one before it cached, and
# an ib_kperf command run by the shell comes back well inside that.
declare -A COUNTER_MARK
counters_mark() {
	local dev f v
	for dev in "$@"; do
		echo 0 > "$IB_CLASS/$dev/ports/1/hw_counters/lifespan" ||
			t_fail "cannot set the lifespan of $dev's counters"
		for f in "$IB_CLASS/$dev"/ports/1/hw_counters/*; do
			read -r v < "$f"
			COUNTER_MARK[$dev/${f##*/}]=$v
		done
	done
}

counter_delta() {
	local f=$IB_CLASS/$1/ports/1/hw_counters/$2 v
	[ -r "$f" ] || t_fail "$1 has no hw counter $2"
	read -r v < "$f"
	DELTA=$((v - ${COUNTER_MARK[$1/$2]:-0}))
}

# expect_counter DEV NAME OP N: the delta of DEV's counter NAME since
# counters_mark compares with N by OP (-ge, -eq, -le, ...).
expect_counter() {
	counter_delta "$1" "$2"
	[ "$DELTA" "$3" "$4" ] || t_fail "$1 $2 grew by $DELTA, expected $3 $4"
	t_log "$1 $2 +$DELTA ($3 $4)"
}
