# SRQ commands of ib_uverbs over write() (scripts/guest/uverbs-srq.py):
# 6.1's errnos for a PD handle that names no PD, XRC and tag-matching
# types, MODIFY_SRQ, QUERY_SRQ and DESTROY_SRQ of no SRQ; ENOSPC for a
# short request; an SRQ the driver refuses leaves its PD free; a user SRQ
# of rdma_rxe with its sizes, QUERY_SRQ and its PD busy until it goes; the
# kernel stays silent. ibv_srq_pingpong runs in tests/114.
TEST_TIMEOUT=300

. "$RDMAOOT_TOP/scripts/guest/uverbs-env.sh"

HELPER="$RDMAOOT_TOP/scripts/guest/uverbs-srq.py"

test_setup() {
	uv_env_setup
}

test_run() {
	local out
	uv_rxe_add
	uv_uverbs_up
	uv_log_mark
	out=$(/usr/bin/python3 "$HELPER" "$UVDEV" 2>&1) || {
		printf '%s\n' "$out"
		t_fail "uverbs-srq.py found a wrong answer"
	}
	printf '%s\n' "$out"
	printf '%s\n' "$out" | grep -q "^result: passed" || t_fail "uverbs-srq.py did not finish"
	uv_log_quiet "the bad SRQ commands" "warn|bug|kasan|leak|error|srq"
	uv_teardown
}

test_cleanup() {
	uv_env_cleanup
}
