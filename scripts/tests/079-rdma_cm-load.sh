# rdma_cm on rdma_rxe: the module loads (and brings ib_cm) while RoCE
# devices exist and while they come and go, unloads leaving ib_cm alone,
# and the kernel log stays free of warnings. (Its ids, state table,
# binding, resolution, routes and connections are tested by KUnit:
# kunit/cma/.)
TEST_TIMEOUT=300
[ "${RDMAOOT_KIND:-stock}" = debug ] && TEST_TIMEOUT=600

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"

# ib_kperf uses rdma_cm (cm=rdma), so modprobe ib_kperf loaded it and
# ib_cm: take the three out, users first; the test loads rdma_cm on its
# own and sees it bring ib_cm.
test_setup() {
	rxe_pair_setup
	t_run rmmod ib_kperf
	t_run rmmod rdma_cm
	t_run rmmod ib_cm
}
test_cleanup() { rmmod rdma_cm 2>/dev/null; rmmod ib_cm 2>/dev/null; rxe_pair_cleanup; }

mod_loaded() { grep -q "^$1 " /proc/modules; }

cma_load_unload() {
	local i
	for i in 1 2 3; do
		t_run modprobe rdma_cm
		mod_loaded rdma_cm || t_fail "round $i: rdma_cm is not loaded"
		mod_loaded ib_cm || t_fail "round $i: rdma_cm loaded without ib_cm"
		t_run rmmod rdma_cm
		mod_loaded rdma_cm && t_fail "round $i: rdma_cm is still loaded"
		mod_loaded ib_cm || t_fail "round $i: rmmod rdma_cm took ib_cm"
	done
	true
}

# A device removed and added back under rdma_cm's client (no ids on it).
cma_device_goes_first() {
	t_run modprobe rdma_cm
	t_run nsx rdma link delete rxe1
	t_run nsx rdma link add rxe1 type rxe netdev "$VB"
	t_run rmmod rdma_cm
}

cma_log_clean() {
	if dmesg | grep -E 'WARNING:|BUG:|rdma_cm: .*(error|failed)'; then
		t_fail "the kernel log complains"
	fi
	true
}

test_run() {
	cma_load_unload
	cma_device_goes_first
	cma_log_clean
}
