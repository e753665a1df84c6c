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
# Prints one line per case and "N passed, N failed". Arguments, if any, name
# the cases to run. RDMAOOT_SELFTEST_REV=<commit> tests that commit instead
# of the work tree.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

pass=0 fail=0
only=("$@")

# run_case NAME KINDS TESTS EXPECT... -- MUTATION (a shell snippet run in the copy)
run_case() {
	local name=$1 kinds=$2 tests=$3 mutation=$4
	shift 4
	local dir=$RDMAOOT_TOP/build/selftest/$name out pat ok=1
	[ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $name "* ]] || return 0
	rm -rf "$dir"
	mkdir -p "$dir"
	if [ -n "${RDMAOOT_SELFTEST_REV:-}" ]; then
		git -C "$RDMAOOT_TOP" archive "$RDMAOOT_SELFTEST_REV" | tar -x -C "$dir"
	else
		rsync -a --exclude=/build --exclude=/.git "$RDMAOOT_TOP/" "$dir/"
	fi
	(cd "$dir" && eval "$mutation") || { echo "FAIL $name (mutation did not apply)"; fail=$((fail + 1)); return; }
	out=$(RDMAOOT_KINDS=$kinds RDMAOOT_TESTS=$tests "$dir/scripts/check.sh" 2>&1)
	if [ $? -eq 0 ]; then
		ok=0
		echo "# $name: make check stayed green"
	fi
	for pat in "$@"; do
		printf '%s\n' "$out" | grep -qE "$pat" || { ok=0; echo "# $name: no line matching '$pat'"; }
	done
	printf '%s\n' "$out" | sed "s/^/# $name: /" | grep -E 'FAIL|passed' | head -n 8
	if [ $ok = 1 ]; then
		echo "PASS $name"
		pass=$((pass + 1))
	else
		echo "FAIL $name"
		fail=$((fail + 1))
	fi
}

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

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
