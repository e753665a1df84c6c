#!/bin/bash
# scripts/guest/test-one.sh TEST - run one integration test file.
#
# A test file defines test_run and may define test_setup, test_cleanup,
# TEST_TIMEOUT (seconds it is expected to need at most, default 300) and
# TEST_KERNELS (default "stock debug"). test_cleanup runs whatever happened,
# also after the test was stopped.
#
# The test is stopped when it makes no progress (neither its output, this
# script's stdout, nor the kernel log grows) for RDMAOOT_IDLE_S seconds, or
# once it ran RDMAOOT_CAP_FACTOR times TEST_TIMEOUT (scripts/guest/watch.sh);
# the cleanup is watched the same way. A stopped test's output ends with the
# kernel's blocked tasks and a line "TIMEOUT: <why> (last output: '...')".
# Exit: 0 pass, 77 skip, 124 stopped, anything else fail; the last
# "SKIP: reason" / "FAIL: reason" / "TIMEOUT: reason" line of the output is
# the reason.
t=$1
. "$RDMAOOT_TOP/scripts/guest/testlib.sh"
. "$RDMAOOT_TOP/scripts/guest/watch.sh"
. "$t"
TEST_TIMEOUT=${TEST_TIMEOUT:-300}
TEST_KERNELS=${TEST_KERNELS:-stock debug}

case " $TEST_KERNELS " in
*" $RDMAOOT_KIND "*) ;;
*) echo "SKIP: not run on the $RDMAOOT_KIND kernel"; exit 77 ;;
esac

# Our stdout is the test's log (when it is a file: run-tests.sh).
OUT=/proc/$$/fd/1
CAP=$((TEST_TIMEOUT * RDMAOOT_CAP_FACTOR))
STOPPED=

# watched WHAT SNIPPET: run SNIPPET (after sourcing the test file) in a
# session of its own, so that stopping it ends every process it started;
# its status, or 124 when it was stopped.
watched() {
	local pid rc why
	# shellcheck disable=SC2016 # (expanded by that bash)
	setsid bash -c '
		. "$RDMAOOT_TOP/scripts/guest/testlib.sh"
		. "$1"
		eval "$2"' _ "$t" "$2" &
	pid=$!
	watch_wait "$pid" "$RDMAOOT_IDLE_S" "$CAP" "$OUT" ${RDMAOOT_KMSG:+"$RDMAOOT_KMSG"}
	rc=$?
	[ -n "$WATCH_WHY" ] || return "$rc"
	why="$WATCH_WHY (last output: '$(watch_last_line "$OUT")')"
	echo "# $1 stopped: $why"
	[ "$1" = test ] || why="$1: $why"
	STOPPED=${STOPPED:-$why}
	watch_dump_blocked "$1"
	kill -TERM -- "-$pid" 2>/dev/null
	sleep 5
	kill -KILL -- "-$pid" 2>/dev/null
	wait "$pid"
	return 124
}

# Setup and the test body run in a child so they can be stopped; the
# cleanup runs afterwards, in every case.
watched test '
	if declare -F test_setup >/dev/null; then
		test_setup || t_fail "setup failed"
	fi
	test_run'
rc=$?
watched cleanup 'declare -F test_cleanup >/dev/null || exit 0; test_cleanup' || echo "WARN: cleanup failed"
if [ -n "$STOPPED" ]; then
	echo "TIMEOUT: $STOPPED"
	exit 124
fi
exit $rc
