#!/bin/bash
# Guest-side test runner: KUnit modules first (when the kernel has KUnit),
# then every integration test in scripts/tests/. One line per unit goes to
# $SHARE/units.txt:  PASS|FAIL|SKIP <unit> <seconds> [reason]
# KUnit case results are copied from debugfs to $SHARE/kunit/<suite>.ktap;
# the host expands them into one result per case (scripts/results.py).
#
# After every unit the kernel log written during it is searched for splats
# (BUG, WARNING, KASAN, UBSAN, lockdep); on the debug kernel a kmemleak scan
# at the end blames each leak on the unit running when it was allocated.
#
# Between units the runner avoids forking: in the debug guest (KASAN, TCG)
# every program started costs a noticeable fraction of a second, and there
# are more than 70 units.
set -u
SHARE=$1
# check: KUnit and scripts/tests/; interop: scripts/interop/ only, against
# the peer guest (scripts/interop.sh).
SUITE=${2:-check}
TOP=$RDMAOOT_TOP
UNITS=$SHARE/units.txt
START_TIMES=/tmp/unit-starts
. "$TOP/scripts/guest/splat.sh"
# How long a unit may go without progress: scripts/guest/watch.sh. The
# tests see the kernel log's copy through test-one.sh.
export RDMAOOT_KMSG=$SHARE/kmsg.log
. "$TOP/scripts/guest/watch.sh"
mkdir -p "$SHARE/kunit" "$SHARE/logs"
: > "$UNITS"
: > "$START_TIMES"

unit_begin() {
	local up _
	read -r up _ < /proc/uptime
	echo "$up $1" >> "$START_TIMES"
	echo "rdmaoot: test start: $1" > /dev/kmsg
	UNIT_T0=$EPOCHSECONDS
}

# Our module names, from the staged tree. Computed once: every fork costs
# a noticeable fraction of a second in the debug guest (KASAN, TCG).
OUR_MODULES=()
for m in /lib/modules/$(uname -r)/updates/rdmaoot/*.ko; do
	m=${m##*/}
	OUR_MODULES+=("${m%.ko}")
done

# unload_order: set UNLOAD_ORDER to the modules of ours that are loaded,
# every one after the modules of ours that use it (its holders in
# /sys/module/<name>/holders), so removing them in that order needs no retry.
unload_order() {
	local m h busy progress left=" "
	local -a rest
	for m in "${OUR_MODULES[@]}"; do
		[ -d "/sys/module/$m" ] && left+="$m "
	done
	UNLOAD_ORDER=()
	while [ "$left" != " " ]; do
		progress=
		for m in $left; do
			busy=
			for h in "/sys/module/$m/holders/"*; do
				h=${h##*/}
				[[ $left == *" $h "* ]] && { busy=1; break; }
			done
			[ -n "$busy" ] && continue
			UNLOAD_ORDER+=("$m")
			left=${left/" $m "/ }
			progress=1
		done
		# A holder that is not ours keeps the rest: rmmod says which.
		if [ -z "$progress" ]; then
			read -ra rest <<< "$left"
			UNLOAD_ORDER+=("${rest[@]}")
			break
		fi
	done
}

# unload_ours: remove every module of ours that is loaded, users before
# what they use, with one rmmod; set UNLOAD_LEFT to those still loaded
# after that and up to five more rounds of one rmmod per module (a
# reference dropped late by deferred work gets that much time, as before).
unload_ours() {
	local m _
	UNLOAD_LEFT=
	unload_order
	[ ${#UNLOAD_ORDER[@]} -gt 0 ] || return 0
	rmmod "${UNLOAD_ORDER[@]}" 2>/dev/null
	# Every module of ours is looked at again, not only those of the
	# order: one might have been loaded meanwhile.
	for _ in 2 3 4 5 6; do
		UNLOAD_LEFT=
		for m in "${OUR_MODULES[@]}"; do
			[ -d "/sys/module/$m" ] && UNLOAD_LEFT+=" $m"
		done
		[ -z "$UNLOAD_LEFT" ] && return 0
		for m in $UNLOAD_LEFT; do
			rmmod "$m" 2>/dev/null
		done
	done
	UNLOAD_LEFT=
	for m in "${OUR_MODULES[@]}"; do
		[ -d "/sys/module/$m" ] && UNLOAD_LEFT+=" $m"
	done
	return 0
}

# unit_end NAME STATUS [REASON]: a splat during the unit, or a module of
# ours that cannot be unloaded afterwards (a leaked reference), makes it FAIL.
# The end marker follows the unload, so what the modules' exits log counts.
unit_end() {
	local name=$1 status=$2 reason=${3:-}
	unload_ours
	if [ -n "$UNLOAD_LEFT" ] && [ "$status" != FAIL ]; then
		status=FAIL
		reason="modules still loaded after the unit:$UNLOAD_LEFT"
	fi
	echo "rdmaoot: test end: $name" > /dev/kmsg
	rdmaoot_splat_unit "rdmaoot: test start: $name" "rdmaoot: test end: $name"
	if [ -n "$RDMAOOT_SPLAT" ]; then
		status=FAIL
		reason="kernel reported: $RDMAOOT_SPLAT"
	fi
	echo "$status $name $((EPOCHSECONDS - UNIT_T0)) $reason" >> "$UNITS"
	echo "rdmaoot: $status $name $reason" > /dev/kmsg
}

selected() {
	local pat
	[ -z "${RDMAOOT_TESTS:-}" ] && return 0
	for pat in $RDMAOOT_TESTS; do
		# shellcheck disable=SC2053
		[[ $1 == $pat ]] && return 0
	done
	return 1
}

# A KUnit module's suites run in its init: the kernel log grows as they
# report their cases. One whose modprobe made no progress for
# RDMAOOT_IDLE_S seconds (or ran over its cap) is stuck: KUnit's own
# per-case timeout (300 s) cannot stop a case blocked in the kernel.
KUNIT_EXPECT_S=900

# kunit_load MOD LOG: modprobe MOD (its suites run in its init), output
# to LOG; the modprobe's status. Returns 124 if it was given up on
# (WATCH_WHY says why): the kernel's list of blocked tasks then ends LOG
# (sysrq w, from dmesg).
kunit_load() {
	local pid rc
	modprobe "$1" > "$2" 2>&1 &
	pid=$!
	watch_wait "$pid" "$RDMAOOT_IDLE_S" $((KUNIT_EXPECT_S * RDMAOOT_CAP_FACTOR)) "$2" "$RDMAOOT_KMSG"
	rc=$?
	[ -n "$WATCH_WHY" ] || return "$rc"
	WATCH_WHY="$WATCH_WHY (last kernel line: '$(watch_last_line "$RDMAOOT_KMSG" | sed 's/^[^;]*;//')')"
	watch_dump_blocked "modprobe $1" >> "$2"
	return 124
}

# kunit_keep SUITE: copy the suite's results from debugfs to
# $SHARE/kunit/SUITE.ktap, byte for byte, without a cp per suite.
kunit_keep() {
	local f=/sys/kernel/debug/kunit/$1/results
	local -a ktap
	[ -r "$f" ] || return 0
	mapfile ktap < "$f" || return 0
	printf '%s' "${ktap[@]}" > "$SHARE/kunit/$1.ktap"
}

# KUnit: load each test module, keep its debugfs results before unloading.
# A module that hangs ends the run (nothing after it could unload).
run_kunit() {
	local mod suites s rc
	[ -d /sys/kernel/debug/kunit ] || return 0
	while read -r mod suites; do
		case "$mod" in ''|'#'*) continue ;; esac
		selected "kunit/$mod" || continue
		unit_begin "kunit/$mod"
		kunit_load "$mod" "$SHARE/logs/kunit-$mod.log"
		rc=$?
		if [ $rc -eq 124 ]; then
			unit_end "kunit/$mod" FAIL "$WATCH_WHY (blocked tasks in logs/kunit-$mod.log)"
			return 1
		fi
		for s in $suites; do
			kunit_keep "$s"
		done
		if [ $rc -ne 0 ]; then
			unit_end "kunit/$mod" FAIL "modprobe failed ($rc)"
		else
			unit_end "kunit/$mod" PASS
		fi
	done < "$TOP/kunit/SUITES"
	return 0
}

# asked_for NAME: RDMAOOT_TESTS has a pattern naming NAME's folder
# outright (interop/record/...): the on-demand units run only then, never
# under a wider glob such as "interop/*" or in a plain `make check`.
asked_for() {
	local pat
	for pat in ${RDMAOOT_TESTS:-}; do
		# shellcheck disable=SC2053
		[[ $pat == "${1%/*}/"* && $1 == $pat ]] && return 0
	done
	return 1
}

run_integration() {
	local t name rc log reason dir=tests
	[ "$SUITE" = interop ] && dir=interop
	for t in "$TOP/scripts/$dir"/[0-9]*.sh "$TOP/scripts/$dir"/record/*.sh; do
		[ -e "$t" ] || continue
		name=${t##*/}
		name=${name%.sh}
		case $t in
		*/record/*)
			name=$dir/record/$name
			asked_for "$name" || continue
			;;
		*)
			name=$dir/$name
			selected "$name" || continue
			;;
		esac
		log=${name#*/}
		log=$SHARE/logs/${log//\//-}.log
		unit_begin "$name"
		bash "$TOP/scripts/guest/test-one.sh" "$t" > "$log" 2>&1
		rc=$?
		reason=$(sed -n 's/^SKIP: //p; s/^FAIL: //p; s/^TIMEOUT: //p' "$log" | tail -n1)
		case $rc in
		0) unit_end "$name" PASS ;;
		77) unit_end "$name" SKIP "${reason:-skipped}" ;;
		124) unit_end "$name" FAIL "${reason:-stopped} (blocked tasks in logs/${log##*/})" ;;
		*) unit_end "$name" FAIL "${reason:-exit status $rc}" ;;
		esac
	done
}

rdmaoot_kmsg_start
rdmaoot_kmemleak_baseline
if [ "$SUITE" = interop ]; then
	run_integration
else
	run_kunit && run_integration
fi
rdmaoot_kmemleak_final "$START_TIMES" >> "$UNITS"
exit 0
