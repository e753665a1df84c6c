# scripts/guest/kperf.sh - ib_kperf commands in the integration tests
# (sourced by scripts/guest/rxe-pair.sh and scripts/guest/interop.sh).

# The program, for what runs it in another namespace (ip netns exec);
# kp and kp_refused run the command in this shell (kperf-cmd.sh).
KPERF="$RDMAOOT_TOP/scripts/kperf"
. "$RDMAOOT_TOP/scripts/guest/kperf-cmd.sh"

# kp_out: OUT as the program prints it: its lines, then its complaint.
kp_out() {
	OUT=$KPERF_OUT
	[ -z "$KPERF_ERR" ] || OUT+=${OUT:+$'\n'}$KPERF_ERR
	[ -z "$OUT" ] || printf '%s\n' "$OUT"
}

# kp ARGS...: run a kperf command that must pass; output in $OUT.
kp() {
	local rc
	echo "+ kperf $*"
	kperf_cmd "$@"
	rc=$?
	kp_out
	[ $rc -eq 0 ] || t_fail "kperf $* failed: $(printf '%s\n' "$OUT" | grep -o 'reason=.*' | head -1)"
}

# kp_refused ARGS...: a command that must fail (bad command, or a failure
# the module cannot turn into success).
kp_refused() {
	local rc
	echo "+ kperf --expect-fail $*"
	kperf_cmd --expect-fail "$@"
	rc=$?
	kp_out
	[ $rc -eq 0 ] || t_fail "kperf $* was not refused"
}

# expect_out PATTERN WHAT: a line of $OUT matches the extended regex
# PATTERN (as grep -E would find it, without starting grep).
expect_out() {
	local line
	while IFS= read -r line; do
		[[ $line =~ $1 ]] && { t_log "$2: ok"; return 0; }
	done <<< "$OUT"
	t_fail "$2: no '$1' in: $OUT"
}
