# ib_cm on rdma_rxe: the module loads while RoCE devices exist (a CM class
# agent on QP1 of each port) and while they come and go, unloads leaving
# nothing behind, and the kernel log stays free of warnings. (The state
# machine itself is tested by KUnit: kunit/cm/cm_table_test.c.)
TEST_TIMEOUT=300
[ "${RDMAOOT_KIND:-stock}" = debug ] && TEST_TIMEOUT=600

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"

test_setup() { rxe_pair_setup; }
test_cleanup() { rmmod ib_cm 2>/dev/null; rxe_pair_cleanup; }

cm_loaded() { grep -q '^ib_cm ' /proc/modules; }

cm_load_unload() {
	local i
	for i in 1 2 3; do
		t_run modprobe ib_cm
		cm_loaded || t_fail "round $i: ib_cm is not loaded"
		t_run rmmod ib_cm
		cm_loaded && t_fail "round $i: ib_cm is still loaded"
	done
	true
}

cm_device_goes_first() {
	t_run modprobe ib_cm
	t_run nsx rdma link delete rxe1
	t_run nsx rdma link add rxe1 type rxe netdev "$VB"
	t_run rmmod ib_cm
}

cm_log_clean() {
	if dmesg | grep -E 'WARNING:|BUG:|ib_cm: .*(error|failed)'; then
		t_fail "the kernel log complains"
	fi
	true
}

test_run() {
	cm_load_unload
	cm_device_goes_first
	cm_log_clean
}
