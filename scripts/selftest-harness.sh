#!/usr/bin/env bash
# scripts/selftest-harness.sh - prove that `make check` can fail.
#
# Each case copies the tree to build/selftest/<case>, breaks it on purpose,
# runs that copy's scripts/check.sh (limited to the units concerned) and
# requires a red verdict with the expected FAIL line:
#   kunit-expectation  one flipped KUnit expectation     -> KUnit case fails
#   warn-in-init       WARN_ON(1) in ib_core's init      -> stock: splat found;
#                                                           debug: panic_on_warn
#   kernel-rdma-header <rdma/rdmavt_mr.h> (a header we do not ship) taken
#                      from the target kernel       -> build fails
#   unit-hang          a test that hangs without output, units' limit
#                      60 s                         -> stopped for no progress
#   guest-hang         the same, guest's limit 60 s -> the host stops the guest
# and, without QEMU, the time limits of scripts/guest/watch.sh on fake tests
# run by scripts/guest/test-one.sh on the host (limit 4 s, a look each 1 s):
#   watch-hang         no output                    -> stopped, no progress
#   watch-slow         a line every 2 s for 12 s, past its TEST_TIMEOUT (8)
#                                                   -> passes
#   watch-cap          a line every second forever  -> stopped, over the cap
#   watch-cleanup      its cleanup hangs            -> stopped, cleanup named
# Prints one line per case and "N passed, N failed". Arguments, if any, name
# the cases to run. RDMAOOT_SELFTEST_REV=<commit> tests that commit instead
# of the work tree.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

pass=0 fail=0
only=("$@")

# wanted NAME: the arguments name NAME, or none.
wanted() { [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $1 "* ]]; }

# verdict NAME OK: count and print the case's outcome.
verdict() {
	if [ "$2" = 1 ]; then
		echo "PASS $1"
		pass=$((pass + 1))
	else
		echo "FAIL $1"
		fail=$((fail + 1))
	fi
}

# run_case NAME KINDS TESTS MUTATION EXPECT...: MUTATION is a shell snippet
# run in the copy; CASE_ENV, if set, names variables for its check.sh.
run_case() {
	local name=$1 kinds=$2 tests=$3 mutation=$4
	shift 4
	local dir=$RDMAOOT_TOP/build/selftest/$name out pat ok=1
	wanted "$name" || return 0
	rm -rf "$dir"
	mkdir -p "$dir"
	if [ -n "${RDMAOOT_SELFTEST_REV:-}" ]; then
		git -C "$RDMAOOT_TOP" archive "$RDMAOOT_SELFTEST_REV" | tar -x -C "$dir"
	else
		rsync -a --exclude=/build --exclude=/.git "$RDMAOOT_TOP/" "$dir/"
	fi
	(cd "$dir" && eval "$mutation") || { echo "FAIL $name (mutation did not apply)"; fail=$((fail + 1)); return; }
	# shellcheck disable=SC2086
	out=$(env ${CASE_ENV:-} RDMAOOT_KINDS="$kinds" RDMAOOT_TESTS="$tests" "$dir/scripts/check.sh" 2>&1)
	if [ $? -eq 0 ]; then
		ok=0
		echo "# $name: make check stayed green"
	fi
	for pat in "$@"; do
		printf '%s\n' "$out" | grep -qE "$pat" || { ok=0; echo "# $name: no line matching '$pat'"; }
	done
	printf '%s\n' "$out" | sed "s/^/# $name: /" | grep -E 'FAIL|passed' | head -n 8
	verdict "$name" $ok
}

# A test that hangs without a word, for the cases of the time limits.
HANG_TEST='TEST_KERNELS=stock
test_run() { echo "about to hang"; sleep 100000; }'

# watch_case NAME TEST RC PATTERN...: run TEST (a test file's text) with
# scripts/guest/test-one.sh here on the host, under short limits; require
# exit status RC and a line of its output matching each PATTERN.
watch_case() {
	local name=$1 text=$2 want=$3 dir=$RDMAOOT_TOP/build/selftest/$1 out rc pat ok=1
	shift 3
	wanted "$name" || return 0
	rm -rf "$dir"
	mkdir -p "$dir/bin"
	printf '%s\n' "$text" > "$dir/test.sh"
	# The blocked tasks would be the host's: none asked for, none read.
	printf '#!/bin/sh\necho "(dmesg)"\n' > "$dir/bin/dmesg"
	chmod +x "$dir/bin/dmesg"
	PATH=$dir/bin:$PATH RDMAOOT_KIND=stock RDMAOOT_IDLE_S=4 RDMAOOT_CAP_FACTOR=2 \
		WATCH_TICK_S=1 WATCH_SYSRQ=/dev/null RDMAOOT_KMSG='' \
		bash "$RDMAOOT_TOP/scripts/guest/test-one.sh" "$dir/test.sh" > "$dir/log" 2>&1
	rc=$?
	[ $rc = "$want" ] || { ok=0; echo "# $name: exit status $rc, not $want"; }
	for pat in "$@"; do
		grep -qE "$pat" "$dir/log" || { ok=0; echo "# $name: no line matching '$pat'"; }
	done
	[ $ok = 1 ] || sed "s/^/# $name: /" "$dir/log" | tail -n 5
	verdict "$name" $ok
}

watch_case watch-hang "$HANG_TEST" 124 \
	"^TIMEOUT: no progress for [4-6]s \(last output: 'about to hang'\)\$" \
	'^--- test: no progress for [0-9]+s; blocked tasks:$' '^\(dmesg\)$'
# shellcheck disable=SC2016 # (the tests' text, expanded where they run)
watch_case watch-slow 'TEST_TIMEOUT=8
test_run() { for i in 1 2 3 4 5 6; do echo "step $i"; sleep 2; done; }' 0 '^step 6$'
watch_case watch-cap 'TEST_TIMEOUT=3
test_run() { while :; do echo tick; sleep 1; done; }' 124 \
	"^TIMEOUT: over the cap of 6s \(last output: 'tick'\)\$"
watch_case watch-cleanup 'test_run() { echo fine; }
test_cleanup() { echo cleaning; sleep 100000; }' 124 \
	"^TIMEOUT: cleanup: no progress for [4-6]s \(last output: 'cleaning'\)\$"

run_case kunit-expectation debug 'kunit/rate_test' \
	'sed -i "0,/KUNIT_EXPECT_EQ(test,/s//KUNIT_EXPECT_NE(test,/" kunit/verbs/rate_test.c' \
	'^FAIL debug/kunit/ib_core_rate/'

run_case warn-in-init 'stock debug' 'tests/010-*' \
	'sed -i "s|^#include <linux/init.h>|#include <linux/bug.h>\n&|; s|pr_debug(\"loaded\\\\n\");|WARN_ON(1);|" core/main.c && grep -q "WARN_ON(1)" core/main.c' \
	'^FAIL stock/tests/010-ib_core-load \(kernel reported: .*WARNING' \
	'^--- stock/tests/010-ib_core-load: what the kernel reported' \
	'^  \| WARNING: CPU: .* at .*main\.c' \
	'^FAIL debug/guest \(did not finish: stopped in tests/010-ib_core-load'

run_case kernel-rdma-header stock 'none' \
	'echo "#include <rdma/rdmavt_mr.h>" >> core/verbs/rate.c' \
	'^FAIL build/stock .*target-kernel headers'

# (A copy of the tree for each: they build their own modules.)
# shellcheck disable=SC2016 # (the mutations, expanded by run_case)
CASE_ENV="RDMAOOT_IDLE_S=60" run_case unit-hang stock 'tests/199-hang' \
	'printf "%s\n" "$HANG_TEST" > scripts/tests/199-hang.sh' \
	"^FAIL stock/tests/199-hang \(no progress for 6[0-9]s \(last output: 'about to hang'\) \(blocked tasks in logs/199-hang.log\)\)"

# shellcheck disable=SC2016
CASE_ENV="RDMAOOT_GUEST_IDLE_S=60" run_case guest-hang stock 'tests/199-hang' \
	'printf "%s\n" "$HANG_TEST" > scripts/tests/199-hang.sh' \
	"^FAIL stock/guest \(did not finish: stopped in tests/199-hang: the host stopped it: no progress for 6[0-9]s \\(last console line: "

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
