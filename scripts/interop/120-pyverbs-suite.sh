# interop/120-pyverbs-suite: rdma-core's own python test suite (the tests
# Debian's python3-pyverbs ships) on the inbox soft-RoCE and on ours, at
# the same time, one per guest, each on its rxe0 with GID index 1.
#
# Every test that passes on the inbox rxe must pass on ours, and so must
# every test of test_rdmacm.py, which the inbox skips: its rxe0 has no
# parent device whose net/ names eth0, ours takes the virtio NIC's. Both
# runs must have run the whole suite (at least 250 tests each). The log lists
# the outcomes side by side: the tests the inbox itself fails (and why,
# from its unittest report), and those ours passes that the inbox skips.
# scripts/guest/pyverbs-suite.py runs the suite as its run_tests.py does
# and writes one line per test.
TEST_TIMEOUT=2400
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"

SUITE=/usr/share/doc/rdma-core/tests
RUNNER=$RDMAOOT_TOP/scripts/guest/pyverbs-suite.py
W=/tmp/pyverbs-suite
MIN_TESTS=250
# tests/test_rdmacm.py's tests (rdma-core 44): all run on ours
RDMACM_TESTS=10

test_setup() {
	[ -e "$SUITE/run_tests.py" ] || t_skip "no $SUITE (python3-pyverbs; make deps)"
	interop_ours_up
	# (what rdma-core's udev rules would load: no udev here)
	t_run modprobe ib_uverbs
	t_run modprobe rdma_ucm
	t_wait_for 10 test -c /dev/infiniband/uverbs0 || t_fail "no /dev/infiniband/uverbs0"
	t_wait_for 10 test -c /dev/infiniband/rdma_cm || t_fail "no /dev/infiniband/rdma_cm"
}

test_cleanup() { interop_ours_down; }

# unpack: the suite into $W/tests (Debian gzips the bigger files).
UNPACK="rm -rf $W && mkdir -p $W && cp -r $SUITE $W/ && gunzip -f $W/tests/*.gz"
# run NAME: the suite on rxe0, outcomes in $W/NAME.txt, report in $W/NAME.log.
run_cmd() {
	echo "cd $W && /usr/bin/python3 $RUNNER $W/tests $W/$1.txt --dev rxe0 --gid 1 > $W/$1.log 2>&1"
}

# outcome FILE TEST: the outcome of TEST in FILE, or "none".
outcome() { awk -v t="$2" '$2 == t { print $1; f = 1 } END { if (!f) print "none" }' "$1"; }

test_run() {
	local n t mine missing=0 ran_inbox ran_ours rdmacm
	peer_start "$UNPACK && $(run_cmd inbox); tail -n 4 $W/inbox.log >&2; cat $W/inbox.txt; grep -B2 -A12 '^\(FAIL\|ERROR\):' $W/inbox.log | sed 's/^/inbox-report: /' | head -n 200"
	n=$PEER_N
	eval "$UNPACK" || t_fail "cannot unpack $SUITE"
	eval "$(run_cmd ours)" || t_fail "the suite did not run on ours: $(tail -n 5 $W/ours.log)"
	tail -n 4 "$W/ours.log"
	peer_wait "$n" 1800 > /dev/null || t_fail "the suite did not run on the inbox stack (exit $PEER_RC): $PEER_ERR"
	printf '%s\n' "$PEER_OUT" | grep -E '^(pass|fail|error|skip|xfail|xpass) ' > "$W/inbox.txt"
	printf '%s\n' "$PEER_OUT" | grep '^inbox-report: '
	ran_inbox=$(wc -l < "$W/inbox.txt")
	ran_ours=$(wc -l < "$W/ours.txt")
	t_log "inbox: $ran_inbox tests: $(awk '{print $1}' "$W/inbox.txt" | sort | uniq -c | xargs)"
	t_log "ours:  $ran_ours tests: $(awk '{print $1}' "$W/ours.txt" | sort | uniq -c | xargs)"
	[ "$ran_inbox" -ge "$MIN_TESTS" ] || t_fail "the inbox run reported only $ran_inbox tests"
	[ "$ran_ours" -ge "$MIN_TESTS" ] || t_fail "our run reported only $ran_ours tests"
	# why ours skips what it skips (the next features to add, or vendor
	# hardware), most common first
	awk '$1 == "skip" { $1 = $2 = ""; sub(/^ +/, ""); print }' "$W/ours.txt" |
		sort | uniq -c | sort -rn | sed 's/^/# ours skips: /'
	for t in $(awk '$1 != "pass" && $1 != "skip" { print $2 }' "$W/inbox.txt"); do
		t_log "the inbox itself does not pass $t ($(outcome "$W/inbox.txt" "$t")); ours: $(outcome "$W/ours.txt" "$t")"
	done
	for t in $(awk '$1 == "pass" { print $2 }' "$W/ours.txt"); do
		[ "$(outcome "$W/inbox.txt" "$t")" = skip ] && t_log "ours passes what the inbox skips: $t"
	done
	for t in $(awk '$1 == "pass" { print $2 }' "$W/inbox.txt"); do
		mine=$(outcome "$W/ours.txt" "$t")
		[ "$mine" = pass ] && continue
		t_log "passes on the inbox, not on ours ($mine): $t"
		missing=$((missing + 1))
	done
	# The rdmacm tests the inbox skips (its rxe0 has no parent device
	# whose net/ names eth0): ours has one, they run and must pass.
	[ -e /sys/class/infiniband/rxe0/device/net/eth0 ] ||
		t_fail "our rxe0 has no parent device whose net/ names eth0: $(ls -l /sys/class/infiniband/rxe0/ | grep device)"
	rdmacm=$(grep -c '^pass tests\.test_rdmacm\.' "$W/ours.txt")
	t_log "rdmacm tests passed on ours: $rdmacm of $RDMACM_TESTS"
	if [ "$rdmacm" -lt "$RDMACM_TESTS" ]; then
		awk '$2 ~ /^tests\.test_rdmacm\./ && $1 != "pass" { print "# not passed on ours: " $2 " (" $1 ")" }' "$W/ours.txt"
		missing=$((missing + 1))
	fi
	if [ "$missing" -gt 0 ]; then
		grep -B2 -A20 '^\(FAIL\|ERROR\):' "$W/ours.log" | head -n 400
		# what the rdmacm tests' two processes each caught
		grep -E '^Player (active|passive) got:' "$W/ours.log" | sort | uniq -c
		t_fail "$missing check(s) failed: test(s) that pass on the inbox rxe or rdmacm tests do not pass on ours"
	fi
}
