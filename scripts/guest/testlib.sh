# scripts/guest/testlib.sh - helpers for integration tests (scripts/tests/).
# Every helper is named t_* so test-one.sh can export them to the subshell.

# t_skip REASON: end the test as skipped.
t_skip() { echo "SKIP: $*"; exit 77; }

# t_fail REASON: end the test as failed.
t_fail() { echo "FAIL: $*"; exit 1; }

# t_log MESSAGE: a line in the test's log.
t_log() { echo "# $*"; }

# t_eq WHAT EXPECTED ACTUAL: fail unless equal.
t_eq() {
	[ "$2" = "$3" ] || t_fail "$1: expected '$2', got '$3'"
	t_log "$1 = '$3'"
}

# t_run CMD...: run a command, fail the test if it fails.
t_run() {
	echo "+ $*"
	"$@" || t_fail "'$*' exited $?"
}

# t_mod_loaded NAME: true when module NAME is loaded.
t_mod_loaded() { [ -d "/sys/module/$1" ] && [ -e "/sys/module/$1/refcnt" ]; }

# t_mod_path NAME: the file modprobe would load for module NAME.
t_mod_path() { modinfo -F filename "$1" 2>/dev/null; }

# t_wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds; false
# when it never did.
t_wait_for() {
	local n=$(($1 * 10))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# t_counter DEV NAME: hardware counter NAME of port 1 of RDMA device DEV.
t_counter() {
	local f=/sys/class/infiniband/$1/ports/1/hw_counters/$2
	local v
	[ -r "$f" ] || t_fail "$1 has no hw counter $2"
	read -r v < "$f"
	echo "$v"
}

# t_elapsed SINCE: seconds since SINCE (an $EPOCHREALTIME), 0.1 s precision.
t_elapsed() {
	local now=${EPOCHREALTIME/./} then=${1/./}
	local d=$(((now - then) / 100000))
	echo "$((d / 10)).$((d % 10))"
}
