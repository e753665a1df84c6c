# shellcheck shell=bash
# scripts/guest/watch.sh - wait for a process while it makes progress. Sourced
# by run-tests.sh (KUnit modules) and test-one.sh (integration tests) in the
# guest, and by scripts/qemu-run.sh on the host (the guest as a whole).
#
# A process makes progress while one of the files it is watched by grows:
# its own log, and the guest's copy of the kernel log (RDMAOOT_KMSG, which
# grows as the kernel prints). It is given up on after RDMAOOT_IDLE_S
# seconds without progress (a hang), or once it has run RDMAOOT_CAP_FACTOR
# times its expected time (a backstop for one that keeps printing but never
# ends). So a loaded machine makes a unit slower, not red, and a real hang
# is still caught within minutes.

RDMAOOT_IDLE_S=${RDMAOOT_IDLE_S:-600}
RDMAOOT_CAP_FACTOR=${RDMAOOT_CAP_FACTOR:-3}
RDMAOOT_KMSG=${RDMAOOT_KMSG:-}
# How often the files are looked at: one find and one sleep each time (in
# the debug guest every program started costs a noticeable fraction of a
# second).
WATCH_TICK_S=${WATCH_TICK_S:-10}
# (The host's selftest of this file points it elsewhere.)
WATCH_SYSRQ=${WATCH_SYSRQ:-/proc/sysrq-trigger}

# watch_size PATH...: set WATCH_SIZE to the total size of the files that
# exist among PATHs and under those that are folders, and how many there are.
watch_size() {
	local sizes n sum=0 count=0
	# (No process substitution: the guest has no /dev/fd.)
	sizes=$(find -L "$@" -printf '%s\n' 2>/dev/null)
	for n in $sizes; do
		sum=$((sum + n))
		count=$((count + 1))
	done
	WATCH_SIZE="$sum $count"
}

# watch_wait PID IDLE CAP PATH...: wait for PID (a child of this shell)
# while PATHs grow (watch_size). Returns its status and sets WATCH_WHY
# empty; or, when it made no progress for IDLE seconds (0: no such limit)
# or ran for CAP seconds, leaves it running, sets WATCH_WHY to "no progress
# for Ns" or "over the cap of Ns" and returns 124.
watch_wait() {
	local pid=$1 idle=$2 cap=$3 t0=$EPOCHSECONDS last=$EPOCHSECONDS prev='' spid ended rc
	shift 3
	WATCH_WHY=
	while :; do
		sleep "$WATCH_TICK_S" &
		spid=$!
		ended=
		wait -n -p ended "$pid" "$spid"
		rc=$?
		if [ "$ended" = "$pid" ]; then
			kill "$spid" 2>/dev/null
			wait "$spid" 2>/dev/null
			return "$rc"
		fi
		watch_size "$@"
		[ "$WATCH_SIZE" != "$prev" ] && { prev=$WATCH_SIZE; last=$EPOCHSECONDS; }
		if [ "$idle" -gt 0 ] && [ $((EPOCHSECONDS - last)) -ge "$idle" ]; then
			WATCH_WHY="no progress for $((EPOCHSECONDS - last))s"
		elif [ $((EPOCHSECONDS - t0)) -ge "$cap" ]; then
			WATCH_WHY="over the cap of ${cap}s"
		else
			continue
		fi
		return 124
	done
}

# watch_last_line FILE: FILE's last non-empty line, shortened, for a reason.
watch_last_line() {
	grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n1 | cut -c1-100
}

# watch_dump_blocked WHAT: print the kernel's list of blocked tasks
# (sysrq w), under a line saying what was given up on and why.
watch_dump_blocked() {
	echo w > "$WATCH_SYSRQ"
	sleep 2
	echo "--- $1: $WATCH_WHY; blocked tasks:"
	dmesg | tail -n 600
}
