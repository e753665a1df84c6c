# scripts/guest/perftest.sh - reading what Debian's perftest (4.5-0.17)
# prints, for the tests that run it (scripts/tests/117-uverbs-perftest,
# scripts/interop/130-uverbs). Sourced after testlib.sh.

# pt_has_results FILE N: FILE has a line of perftest's results table for N
# iterations (its first columns: message size, iterations). The figures
# are not read: in TCG perftest may fail to measure the clock and print
# "inf"; figures are for make bench.
pt_has_results() { grep -Eq "^ *[0-9]+ +$2 " "$1"; }

# pt_rerun_reason FILE...: when the outputs of a failed run show a failure
# of perftest's own making, print why in a few words and return 0, so the
# caller runs the pair again (a bounded number of times, logging each):
#
# - Its clock calibration failed: perftest samples the TSC against
#   gettimeofday() and gives up on a poor fit, which a loaded TCG host
#   causes at times ("Can't produce a report").
# - With -R its client connected before its server listened: the server
#   creates its rdma_cm listener only after the two have exchanged their
#   parameters, and the client may send its REQ first, which the
#   server's CM rejects with reason 8, invalid service ID (no listener).
#   perftest's client then retries on the cm_ids and nodes it has just
#   freed and dies of it (SIGSEGV; the kernel logs a user-mode trap in
#   librdmacm's rdma_resolve_addr). Measured here: 2 runs in 25 of
#   ib_write_bw -R, server on the inbox peer and client ours, with a
#   busy host.
#
# Any other failure returns 1: the caller fails at once.
pt_rerun_reason() {
	if grep -q "Can't produce a report" "$@"; then
		echo "perftest could not calibrate its clock"
	elif grep -q "RDMA_CM_EVENT_REJECTED; error: 8\." "$@"; then
		echo "perftest's client connected before its server listened (REJ reason 8, no listener)"
	else
		return 1
	fi
}

# pt_failure_gist SERVER CLIENT: for a verdict, what a failed pair said in
# one line: each side's first line that reads as an error (perftest's
# "Couldn't ...", "Failed ...", completion errors, timeout's kill), or its
# last line when none does.
pt_failure_gist() {
	local side f line
	for side in server client; do
		f=$1
		shift
		line=$(grep -m1 -iE "couldn't|failed|error|unable|timed out|killed|terminated" "$f" 2>/dev/null) ||
			line=$(grep -v '^[[:space:]]*$' "$f" 2>/dev/null | tail -n1)
		printf '%s: %s' "$side" "${line:-(nothing)}"
		[ "$side" = client ] || printf '; '
	done
}
