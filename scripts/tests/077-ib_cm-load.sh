# ib_cm on rdma_rxe: the module loads while RoCE devices exist (a CM class
# agent on QP1 of each port, and 6.1's per-port counter files) and while
# they come and go, unloads leaving nothing behind, and the kernel log
# stays free of warnings. (The state machine itself is tested by KUnit:
# kunit/cm/cm_table_test.c; the counters by kunit/cm/cm_counters_test.c.)
TEST_TIMEOUT=300
[ "${RDMAOOT_KIND:-stock}" = debug ] && TEST_TIMEOUT=600

. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"

# ib_kperf uses ib_cm (cm=ib) and rdma_cm (cm=rdma), which uses ib_cm,
# so modprobe ib_kperf loaded both: take the three out, users first; the
# test loads and unloads ib_cm on its own.
test_setup() {
	rxe_pair_setup
	t_run rmmod ib_kperf
	t_run rmmod rdma_cm
	t_run rmmod ib_cm
}
test_cleanup() { rmmod ib_cm 2>/dev/null; rxe_pair_cleanup; }

cm_loaded() { grep -q '^ib_cm ' /proc/modules; }

# 6.1's counter directories under a port, and the files of each.
CM_PORT=$IB_CLASS/rxe0/ports/1
CM_DIRS="cm_tx_msgs cm_tx_retries cm_rx_msgs cm_rx_duplicates"
CM_FILES="req mra rej rep rtu dreq drep sidr_req sidr_rep lap apr"

# cm_counters_present: each directory holds the 11 files and nothing
# else, each reading a non-negative decimal count. (The shell's own glob
# and "read": a fork costs a noticeable part of a second in the debug
# guest.)
cm_counters_present() {
	local d f v n
	for d in $CM_DIRS; do
		[ -d "$CM_PORT/$d" ] || t_fail "no $CM_PORT/$d after modprobe ib_cm"
		n=0
		for f in "$CM_PORT/$d"/*; do
			[ -e "$f" ] && n=$((n + 1))
		done
		[ "$n" -eq 11 ] || t_fail "$d holds $n files, not 11"
		for f in $CM_FILES; do
			[ -f "$CM_PORT/$d/$f" ] || t_fail "no $d/$f"
			read -r v < "$CM_PORT/$d/$f" || t_fail "cannot read $d/$f"
			[[ $v =~ ^[0-9]+$ ]] || t_fail "$d/$f reads '$v', not a count"
		done
	done
	t_log "rxe0 port 1: 4 counter directories of 11 files"
}

cm_counters_gone() {
	local d
	for d in $CM_DIRS; do
		[ -e "$CM_PORT/$d" ] && t_fail "$CM_PORT/$d is still there after rmmod ib_cm"
	done
	true
}

cm_load_unload() {
	local i
	for i in 1 2 3; do
		t_run modprobe ib_cm
		cm_loaded || t_fail "round $i: ib_cm is not loaded"
		cm_counters_present
		t_run rmmod ib_cm
		cm_loaded && t_fail "round $i: ib_cm is still loaded"
		cm_counters_gone
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
