# Debian's iproute2 "rdma" tool, unchanged, against our ib_core's NETLINK_RDMA:
# dev, link, rename, res, stat, system, link add/delete, permissions.
TEST_TIMEOUT=240

VETH=rdmat0
VPEER=rdmat1

# t_rdma_ok ARGS...: run rdma ARGS, fail the test when it fails; output in $OUT.
t_rdma_ok() {
	echo "+ rdma $*"
	OUT=$(rdma "$@" 2>&1) || t_fail "'rdma $*' failed: $OUT"
	printf '%s\n' "$OUT"
}

# t_expect PATTERN WHAT: fail unless $OUT matches the extended regex PATTERN.
t_expect() {
	printf '%s\n' "$OUT" | grep -Eq -- "$1" || t_fail "$2: no '$1' in: $OUT"
	t_log "$2: ok"
}

test_run() {
	command -v rdma >/dev/null || t_skip "no rdma tool (iproute2) on this system"
	t_run modprobe ib_testdev
	[ -d /sys/class/infiniband/ibtest0 ] || t_fail "ibtest0 did not appear"

	# rdma dev: the device, its node GUID
	t_rdma_ok dev
	t_expect '^[0-9]+: ibtest0: node_type [a-z_]+ .*node_guid [0-9a-f]{4}:' "rdma dev lists ibtest0"
	t_rdma_ok -d dev show ibtest0
	t_expect 'node_guid [0-9a-f:]{19}' "rdma -d dev show has the node GUID"

	# rdma link: port 1 is ACTIVE
	t_rdma_ok link show ibtest0/1
	t_expect '^link ibtest0/1 .*state ACTIVE' "port 1 is ACTIVE"

	# rename there and back; sysfs follows
	t_rdma_ok dev set ibtest0 name ibtestX
	[ -e /sys/class/infiniband/ibtestX ] || t_fail "sysfs did not follow the rename"
	[ -e /sys/class/infiniband/ibtest0 ] && t_fail "old name still in sysfs"
	t_rdma_ok dev
	t_expect 'ibtestX' "rdma dev shows the new name"
	t_rdma_ok dev set ibtestX name ibtest0
	[ -e /sys/class/infiniband/ibtest0 ] || t_fail "rename back did not show in sysfs"

	# a user without CAP_NET_ADMIN may not rename
	if OUT=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
			rdma dev set ibtest0 name ibtestY 2>&1); then
		t_fail "unprivileged rename succeeded: $OUT"
	fi
	t_log "unprivileged rename refused: $OUT"
	printf '%s\n' "$OUT" | grep -Eqi 'not permitted|permission' ||
		t_fail "unprivileged rename failed without a permission error: $OUT"
	[ -e /sys/class/infiniband/ibtest0 ] || t_fail "unprivileged rename changed the name"

	# rdma res: the MAD layer's own objects on the one InfiniBand port
	# (a PD, a CQ, QP0 and QP1), listed with ib_core as owner
	t_rdma_ok res
	t_expect '^[0-9]+: ibtest0: pd 1 cq 1 qp 2 cm_id 0 mr 0 ' "rdma res counts the MAD layer's PD, CQ, QP0 and QP1"
	t_rdma_ok res show qp link ibtest0
	t_expect 'lqpn 0 .*type SMI .*comm \[?ib_core' "QP0 is listed, owned by ib_core"
	t_expect 'lqpn 1 .*type GSI .*comm \[?ib_core' "QP1 is listed, owned by ib_core"

	# with the test ULP on the device, its PD, CQ and QP are counted too
	# and listed with the ULP as owner
	t_run modprobe ib_testclient
	t_rdma_ok res
	t_expect '^[0-9]+: ibtest0: pd 2 cq 2 qp 3 cm_id 0 mr 0 ' "rdma res counts the ULP's PD, CQ and QP"
	t_rdma_ok res show pd dev ibtest0
	t_expect 'ib_testclient' "the PD's owner is the ULP"
	t_rdma_ok res show cq dev ibtest0
	t_expect 'ib_testclient' "the CQ's owner is the ULP"
	t_rdma_ok res show qp link ibtest0
	t_expect 'ib_testclient' "the QP's owner is the ULP"
	t_rdma_ok res show mr dev ibtest0
	t_run rmmod ib_testclient
	t_rdma_ok res
	t_expect '^[0-9]+: ibtest0: pd 1 cq 1 qp 2 ' "the ULP's objects are gone from rdma res"

	# rdma stat show: the three hardware counters of port 1
	t_rdma_ok stat show link ibtest0/1
	t_expect '^link ibtest0/1 ' "rdma stat show names the port"
	n=$(printf '%s\n' "$OUT" | head -1 | tr ' ' '\n' | grep -Ec '^[0-9]+$')
	[ "$n" -ge 3 ] || t_fail "expected 3 counters, got $n in: $OUT"
	t_log "rdma stat show lists $n counter values"

	# rdma system: namespace mode
	t_rdma_ok system
	t_expect 'netns (shared|exclusive)' "rdma system shows the netns mode"

	# rdma link add/delete through the test driver's link type
	ip link add "$VETH" type veth peer name "$VPEER" || t_fail "cannot create veth"
	ip link set "$VETH" up
	t_rdma_ok link add rt0 type testdev netdev "$VETH"
	[ -d /sys/class/infiniband/rt0 ] || t_fail "rdma link add did not create rt0"
	t_rdma_ok link show rt0/1
	t_expect "netdev $VETH" "rt0 is bound to $VETH"
	t_rdma_ok link delete rt0
	[ -d /sys/class/infiniband/rt0 ] && t_fail "rdma link delete left rt0"

	# an unknown type fails cleanly
	if OUT=$(rdma link add x type nosuchtype netdev lo 2>&1); then
		t_fail "link add with an unknown type succeeded: $OUT"
	fi
	t_log "unknown link type refused: $OUT"
	[ -d /sys/class/infiniband/x ] && t_fail "a device x appeared"
	# and ibtest0 (not created by a link) cannot be deleted
	if OUT=$(rdma link delete ibtest0 2>&1); then
		t_fail "rdma link delete ibtest0 succeeded"
	fi
	[ -d /sys/class/infiniband/ibtest0 ] || t_fail "ibtest0 went away"
	t_log "ibtest0 cannot be deleted: $OUT"
}

test_cleanup() {
	rdma link delete rt0 2>/dev/null || true
	ip link del "$VETH" 2>/dev/null || true
	rmmod ib_testclient 2>/dev/null
	modprobe -r ib_testdev 2>/dev/null || true
	modprobe -r ib_core 2>/dev/null || true
}
