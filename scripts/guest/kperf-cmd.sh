# scripts/guest/kperf-cmd.sh - one ib_kperf command, run by the calling
# shell itself (sourced by scripts/kperf and scripts/guest/kperf.sh).
#
# No process is started: in the debug guest (KASAN, TCG) every program
# costs about 0.1 s, and the tests run hundreds of commands; a command
# run through scripts/kperf cost 0.65 s there, this way 0.02 s.

KPERF_RUN=${KPERF_RUN:-/sys/kernel/debug/ib_kperf/run}

# kperf_cmd [--expect-fail] key=value...: write the command to ib_kperf's
# debugfs file and read back what the module reports through the same
# open file ("info ..." and "result ... status=ok|fail ..." lines, see
# Documentation/kperf.rst). Sets KPERF_OUT to those lines and KPERF_ERR to
# our own complaints. Returns 0 when the result says status=ok, 1 when it
# says status=fail or there is none, 2 on a usage error; --expect-fail
# swaps 0 and 1 (a failure, a bad command refused with EINVAL included, is
# what the caller wants).
kperf_cmd() {
	local expect_fail=0 wrc ok=0 fd line
	local -a lines=()
	KPERF_OUT=
	KPERF_ERR=
	if [ "${1:-}" = --expect-fail ]; then
		expect_fail=1
		shift
	fi
	if [ $# -eq 0 ]; then
		KPERF_ERR="usage: kperf [--expect-fail] key=value..."
		return 2
	fi
	if [ ! -e "$KPERF_RUN" ] && ! mountpoint -q /sys/kernel/debug; then
		mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	fi
	if [ ! -e "$KPERF_RUN" ]; then
		KPERF_ERR="kperf: $KPERF_RUN does not exist (modprobe ib_kperf?)"
		return 2
	fi
	exec {fd}<>"$KPERF_RUN" || return 2
	# One write is one command; it returns when the command is over, with
	# an errno when it failed, and rewinds the file: the result is read
	# from the start of the same open file.
	printf '%s\n' "$*" >&"$fd" 2>/dev/null
	wrc=$?
	mapfile -t -u "$fd" lines
	exec {fd}>&-
	for line in "${lines[@]}"; do
		KPERF_OUT+=${KPERF_OUT:+$'\n'}$line
		[[ $line == "result "*" status=ok" ]] && ok=1
	done
	if [ $ok -eq 0 ] && [ $wrc -eq 0 ]; then
		KPERF_ERR="kperf: the command reported no success"
	fi
	if [ $expect_fail -eq 1 ]; then
		[ $ok -eq 0 ] && return 0
		KPERF_ERR="kperf: the command succeeded, a failure was expected"
		return 1
	fi
	[ $ok -eq 1 ] && return 0
	return 1
}
