# scripts/guest/cm-drop.sh - drop CM messages on the wire with tc, for the
# tests of the IB CM's resends (scripts/tests/083, scripts/interop/070).
#
# A u32 filter in the egress of a net device (a prio root qdisc) matches
# RoCE v2 (UDP 4791), BTH destination QP 1 (GSI), management class 7 (CM)
# and the MAD's attribute ID; its action drops. The sourcing test says
# where its sides are: side_if SIDE names a side's net device, on_side
# SIDE CMD... runs CMD where that device lives (a namespace, or here).
# drop_first needs DROPPED, a path for the poller's note.

ROCE_PORT=4791
# Offsets from the IPv4 header (20 bytes, no options; UDP 8; BTH 12;
# DETH 8; the MAD from byte 48).
BTH_DQPN_AT=32		# the BTH's second word: reserved byte, destination QP
MAD_CLASS_AT=49		# mgmt_class
MAD_ATTR_AT=64		# attr_id, byte 16 of the MAD
# CM attribute IDs (IBA 16.7.2; <rdma/ibta_vol1_c12.h>).
declare -A CM_ATTR=([req]=0x0010 [mra]=0x0011 [rej]=0x0012 [rep]=0x0013
	[rtu]=0x0014 [dreq]=0x0015 [drep]=0x0016)

# cm_filter_on SIDE KIND: drop every CM message KIND leaving SIDE's net device.
cm_filter_on() {
	local ifc
	ifc=$(side_if "$1")
	t_run on_side "$1" tc qdisc add dev "$ifc" root handle 1: prio
	t_run on_side "$1" tc filter add dev "$ifc" parent 1: protocol ip prio 1 u32 \
		match ip protocol 17 0xff match ip dport $ROCE_PORT 0xffff \
		match u32 0x00000001 0x00ffffff at $BTH_DQPN_AT \
		match u8 0x07 0xff at $MAD_CLASS_AT \
		match u16 "${CM_ATTR[$2]}" 0xffff at $MAD_ATTR_AT \
		action gact drop
}

# cm_filter_drops SIDE: sets N to what the filter's action has dropped
# (its statistics; empty once the filter is gone). One fork: the poller
# below calls it in a loop.
cm_filter_drops() {
	local out
	out=$(on_side "$1" tc -s filter show dev "$(side_if "$1")" parent 1: 2>/dev/null)
	N=
	[[ $out =~ \(dropped\ ([0-9]+), ]] && N=${BASH_REMATCH[1]}
}

# cm_qdisc_drops SIDE: all the root qdisc dropped (the filter's drops).
cm_qdisc_drops() {
	on_side "$1" tc -s qdisc show dev "$(side_if "$1")" |
		awk '/dropped/ { sub(/.*dropped /, ""); sub(/,.*/, ""); print; exit }'
}

# cm_filter_off SIDE: the qdisc's drop count in LOST, the qdisc gone.
cm_filter_off() {
	LOST=$(cm_qdisc_drops "$1")
	on_side "$1" tc qdisc del dev "$(side_if "$1")" root 2>/dev/null
	t_log "side $1: $LOST packets dropped"
}

# drop_first SIDE KIND: drop the first KIND leaving SIDE and no other: a
# poller in the background deletes the filter once it has dropped one
# (within a fraction of a second; a resend comes seconds later). It
# forks once a round (tc; it sleeps with "read -t" on a FIFO) and runs as
# a real-time task where chrt works: a guest on a busy host forks slowly.
drop_first() {
	local side=$1 ifc
	ifc=$(side_if "$side")
	rm -f "$DROPPED" "$DROPPED.fifo"
	mkfifo "$DROPPED.fifo" || t_fail "mkfifo failed"
	cm_filter_on "$side" "$2"
	(
		command -v chrt >/dev/null && chrt -f -p 10 $BASHPID >/dev/null 2>&1
		exec 8<> "$DROPPED.fifo"
		t0=$EPOCHREALTIME
		rounds=0
		# gives up after 120 s (a command that failed leaves it behind)
		end=$((SECONDS + 120))
		while :; do
			cm_filter_drops "$side"
			rounds=$((rounds + 1))
			[ "${N:-0}" -ge 1 ] && break
			[ "$SECONDS" -lt "$end" ] || exit 1
			read -r -t 0.1 -u 8
		done
		t1=$EPOCHREALTIME
		on_side "$side" tc filter del dev "$ifc" parent 1: protocol ip prio 1
		t2=$EPOCHREALTIME
		echo "$N $rounds $(ms_between "$t0" "$t1") $(ms_between "$t1" "$t2")" > "$DROPPED"
	) &
	POLL_PID=$!
}

# ms_between T0 T1: milliseconds from EPOCHREALTIME T0 to T1.
ms_between() {
	local a=${1/./} b=${2/./}
	echo $(((10#$b - 10#$a) / 1000))
}

# drop_first_end SIDE: the poller must have seen its drop and be done.
# Sets LOST (all the filter dropped) and POLL_MS (how long after the
# filter came the poller saw the drop).
drop_first_end() {
	local n rounds del
	if ! t_wait_for 3 eval '! kill -0 "$POLL_PID" 2>/dev/null'; then
		kill "$POLL_PID" 2>/dev/null
		wait "$POLL_PID"
		cm_filter_off "$1"
		t_fail "the filter dropped nothing"
	fi
	wait "$POLL_PID"
	read -r n rounds POLL_MS del < "$DROPPED"
	t_log "the poller saw $n drop(s) in round $rounds, $POLL_MS ms after the filter came, and took the filter away in $del ms"
	cm_filter_off "$1"
}
