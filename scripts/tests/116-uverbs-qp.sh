# User QPs and AHs on rdma_rxe over ib_uverbs' write() ABI by hand
# (scripts/guest/uverbs-qp.py), the rings mapped as rdma-core maps them:
# 6.1's errnos for QP and AH commands naming no PD, CQ, SRQ or QP, XRC and
# unknown types, attr_mask bits beyond the standard ones, bad ports,
# double destroys, PDs and CQs in use (EBUSY, then free once the QP went),
# the POST_SEND doorbell with work requests in it or on a QP in RESET or
# INIT; RAW_PACKET and privileged Q_Keys refused to a process without
# CAP_NET_RAW; ATTACH_MCAST and DETACH_MCAST errnos; a QP, an AH and a UD
# QP in a multicast group left open are gone with the process (rdma res).
# Hostile rings on a QP aimed at itself: a SEND and an RDMA WRITE arrive
# intact, a producer index with garbage in its high bits is masked; WQEs
# with opcodes user space may not post, SGE counts and inline lengths past
# the QP's limits, UD AH numbers of nothing or of another PD each complete
# with LOC_QP_OP_ERR, put the QP in ERR and flush the WQE after them; a
# receive WQE with 0xffffffff SGEs fails its message only. Then 2000
# random WQEs (fixed seed) in RC, UC and UD QPs' SQ and RQ slots with
# random producer indices now and then. Throughout, the kernel stays silent.
TEST_TIMEOUT=900

. "$RDMAOOT_TOP/scripts/guest/uverbs-env.sh"

HELPER="$RDMAOOT_TOP/scripts/guest/uverbs-qp.py"

test_setup() {
	uv_env_setup
}

# helper MODE [ARGS]: uverbs-qp.py MODE in the foreground, its lines logged.
helper() {
	local out
	out=$(timeout 600 /usr/bin/python3 "$HELPER" "$UVDEV" "$@" 2>&1) || {
		printf '%s\n' "$out"
		t_fail "uverbs-qp.py $1 found a wrong answer"
	}
	printf '%s\n' "$out"
	printf '%s\n' "$out" | grep -q "^result: passed" || t_fail "uverbs-qp.py $1 did not finish"
}

# Objects of the helper's process (comm python3) still known to rdma res.
left() { rdma res show "$1" | grep -c "comm python3" || true; }

# none_left KIND: no object of KIND left (asked again at every try).
none_left() { [ "$(left "$1")" = 0 ]; }

nothing_left() {
	t_wait_for 10 none_left qp || t_fail "user QPs left after the process exited: $(rdma res show qp)"
	t_wait_for 10 none_left pd || t_fail "user PDs left after the process exited: $(rdma res show pd)"
	t_wait_for 10 none_left cq || t_fail "user CQs left after the process exited: $(rdma res show cq)"
}

test_run() {
	uv_rxe_add
	uv_uverbs_up
	uv_log_mark
	helper errnos
	nothing_left
	helper rings
	nothing_left
	helper random 2000
	nothing_left
	uv_log_quiet "the hostile QP input"
	uv_teardown
}

test_cleanup() {
	uv_env_cleanup
}
