#!/bin/bash
# scripts/guest/test-one.sh TEST - run one integration test file.
#
# A test file defines test_run and may define test_setup, test_cleanup,
# TEST_TIMEOUT (seconds, default 300) and TEST_KERNELS (default "stock
# debug"). test_cleanup runs whatever happened, also after a timeout.
# Exit: 0 pass, 77 skip, 124 timeout, anything else fail; the last
# "SKIP: reason" / "FAIL: reason" line of the output is the reason.
t=$1
. "$RDMAOOT_TOP/scripts/guest/testlib.sh"
. "$t"
TEST_TIMEOUT=${TEST_TIMEOUT:-300}
TEST_KERNELS=${TEST_KERNELS:-stock debug}

case " $TEST_KERNELS " in
*" $RDMAOOT_KIND "*) ;;
*) echo "SKIP: not run on the $RDMAOOT_KIND kernel"; exit 77 ;;
esac

declare -F test_cleanup >/dev/null || test_cleanup() { :; }

# Setup and the test body run in a child so the timeout can kill them; the
# cleanup runs here, afterwards, in every case.
timeout -k 5 "$TEST_TIMEOUT" bash -c '
	. "$RDMAOOT_TOP/scripts/guest/testlib.sh"
	. "$1"
	if declare -F test_setup >/dev/null; then
		test_setup || t_fail "setup failed"
	fi
	test_run' _ "$t"
rc=$?
test_cleanup || echo "WARN: cleanup failed"
exit $rc
