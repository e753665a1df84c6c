# scripts/guest/kperf.sh - ib_kperf commands in the integration tests
# (sourced by scripts/guest/rxe-pair.sh and scripts/guest/interop.sh).

KPERF="$RDMAOOT_TOP/scripts/kperf"

# kp ARGS...: run a kperf command that must pass; output in $OUT.
kp() {
	echo "+ kperf $*"
	OUT=$("$KPERF" "$@" 2>&1)
	local rc=$?
	printf '%s\n' "$OUT"
	[ $rc -eq 0 ] || t_fail "kperf $* failed: $(printf '%s\n' "$OUT" | grep -o 'reason=.*' | head -1)"
}

# kp_refused ARGS...: a command that must fail (bad command, or a failure
# the module cannot turn into success).
kp_refused() {
	echo "+ kperf --expect-fail $*"
	OUT=$("$KPERF" --expect-fail "$@" 2>&1)
	local rc=$?
	printf '%s\n' "$OUT"
	[ $rc -eq 0 ] || t_fail "kperf $* was not refused"
}

# expect_out PATTERN WHAT: $OUT matches the extended regex PATTERN.
expect_out() {
	printf '%s\n' "$OUT" | grep -Eq -- "$1" || t_fail "$2: no '$1' in: $OUT"
	t_log "$2: ok"
}
