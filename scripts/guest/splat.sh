# scripts/guest/splat.sh - kernel-log and kmemleak checks for the runner.
# Sourced by run-tests.sh.

# What a kernel says when something is wrong (WARN, BUG, KASAN, UBSAN,
# lockdep, RCU, hung tasks, oopses, kmemleak). A general protection fault
# counts when the kernel took it ("general protection fault: 0000 [#1]",
# "..., probably for non-canonical address"), not a user program's, which
# the kernel logs as "traps: prog[pid] general protection fault ip:...":
# that program's test sees it die (as it sees a segfault, never matched
# here) and judges. scripts/splat-check.sh holds the forms.
RDMAOOT_SPLAT_RE='BUG:|WARNING:|KASAN:|UBSAN:|general protection fault[,:]|Oops:|Kernel panic|'\
'INFO: (possible|trying|task .* blocked|suspicious|inconsistent)|possible (circular|recursive) locking|'\
'inconsistent lock state|suspicious RCU usage|self-detected stall|detected stalls on CPUs|kmemleak: .*suspected|Unable to handle kernel|refcount_t:'

# rdmaoot_splat_between START END: print the first splat line logged between
# the two marker lines (or since START when END has not been logged yet),
# from the whole kernel log. The fallback of rdmaoot_splat_unit.
rdmaoot_splat_between() {
	dmesg --notime 2>/dev/null |
		awk -v s="$1" -v e="$2" '$0 == s {on = 1; next} $0 == e {on = 0} on' |
		grep -E -m1 "$RDMAOOT_SPLAT_RE" | tr -s ' \t' ' ' | cut -c1-200
}

# The kernel log as a stream: one reader of /dev/kmsg, started once, copies
# every record to RDMAOOT_KMSG_STREAM; the runner keeps a descriptor on that
# file open and each unit's scan reads only what was added since the last
# one, instead of the whole log through dmesg (seconds per unit on the
# debug guest). Lines read past a unit's end marker wait in
# RDMAOOT_KMSG_PENDING for the next scan.
RDMAOOT_KMSG_STREAM=/tmp/rdmaoot-kmsg.stream
RDMAOOT_KMSG_PID=
RDMAOOT_KMSG_FD=
RDMAOOT_NAP_FD=
RDMAOOT_KMSG_PENDING=()
RDMAOOT_KMSG_PARTIAL=
# How long a scan waits for its end marker to come through the reader.
RDMAOOT_KMSG_WAIT_S=60

# rdmaoot_nap: sleep 50 ms without a fork (a read timing out on a FIFO
# nobody writes to).
rdmaoot_nap() {
	local _
	read -r -t 0.05 -u "$RDMAOOT_NAP_FD" _
}

# rdmaoot_kmsg_start: start the reader. Without it (no FIFO, no /dev/kmsg)
# every scan falls back to rdmaoot_splat_between.
rdmaoot_kmsg_start() {
	local nap=/tmp/rdmaoot-nap.fifo
	rm -f "$nap" "$RDMAOOT_KMSG_STREAM"
	mkfifo "$nap" && exec {RDMAOOT_NAP_FD}<>"$nap" || return 0
	: > "$RDMAOOT_KMSG_STREAM"
	cat /dev/kmsg >> "$RDMAOOT_KMSG_STREAM" &
	RDMAOOT_KMSG_PID=$!
	exec {RDMAOOT_KMSG_FD}<"$RDMAOOT_KMSG_STREAM" || RDMAOOT_KMSG_PID=
}

# rdmaoot_kmsg_more: append to RDMAOOT_KMSG_PENDING the complete lines the
# reader wrote since the last call; false when there were none.
rdmaoot_kmsg_more() {
	local -a new=()
	local n
	mapfile -u "$RDMAOOT_KMSG_FD" new
	n=${#new[@]}
	[ "$n" -gt 0 ] || return 1
	new[0]=$RDMAOOT_KMSG_PARTIAL${new[0]}
	RDMAOOT_KMSG_PARTIAL=
	# A last line without its newline is still being written.
	if [[ ${new[n - 1]} != *$'\n' ]]; then
		RDMAOOT_KMSG_PARTIAL=${new[n - 1]}
		unset 'new[n - 1]'
	fi
	RDMAOOT_KMSG_PENDING+=("${new[@]%$'\n'}")
	[ ${#new[@]} -gt 0 ]
}

# rdmaoot_splat_first TEXT...: set RDMAOOT_SPLAT to the first line of the
# records' texts that matches RDMAOOT_SPLAT_RE, squeezed as the report
# wants it ("" when none does). A record's own newlines reach /dev/kmsg
# escaped (\x0a), as every control byte and backslash is; dmesg shows them
# unescaped, line by line, and so does this.
rdmaoot_splat_first() {
	local all text line
	local -a lines
	RDMAOOT_SPLAT=
	[ $# -gt 0 ] || return 0
	# One match over the whole unit first: in the usual case, nothing, no
	# line needs a look of its own. ('.' matches newlines here, so this
	# finds at least whatever a line-by-line match finds.)
	printf -v all '%s\n' "$@"
	[[ $all == *'\x'* ]] && printf -v all '%b' "$all"
	[[ $all =~ $RDMAOOT_SPLAT_RE ]] || return 0
	for text in "$@"; do
		[[ $text == *'\x'* ]] && printf -v text '%b' "$text"
		mapfile -t lines <<< "$text"
		for line in "${lines[@]}"; do
			[[ $line =~ $RDMAOOT_SPLAT_RE ]] || continue
			line=${line//$'\t'/ }
			while [[ $line == *'  '* ]]; do line=${line//  / }; done
			RDMAOOT_SPLAT=${line:0:200}
			return 0
		done
	done
}

# rdmaoot_splat_unit START END: set RDMAOOT_SPLAT to the first splat line
# logged between the marker lines START and END (both already written to
# /dev/kmsg), reading only the part of the stream not scanned yet. Waits up
# to RDMAOOT_KMSG_WAIT_S for END to come through; when it does not (the
# reader died or is stuck), or START is not in the new part, scans the whole
# log with rdmaoot_splat_between instead, from then on for every unit.
rdmaoot_splat_unit() {
	local start=$1 end=$2 i n text on=0 seen_start='' done='' deadline
	local -a unit=()
	deadline=$((EPOCHSECONDS + RDMAOOT_KMSG_WAIT_S))
	while [ -n "$RDMAOOT_KMSG_PID" ]; do
		n=${#RDMAOOT_KMSG_PENDING[@]}
		for ((i = 0; i < n; i++)); do
			text=${RDMAOOT_KMSG_PENDING[i]}
			# " KEY=value" lines after a record: its dictionary.
			[[ $text == ' '* ]] && continue
			text=${text#*;}
			if [ "$text" = "$start" ]; then
				on=1 seen_start=1
				unit=()
			elif [ "$text" = "$end" ]; then
				done=1
				break
			elif [ $on = 1 ]; then
				unit+=("$text")
			fi
		done
		if [ -n "$done" ]; then
			RDMAOOT_KMSG_PENDING=("${RDMAOOT_KMSG_PENDING[@]:i + 1}")
			break
		fi
		RDMAOOT_KMSG_PENDING=()
		rdmaoot_kmsg_more && continue
		if [ "$EPOCHSECONDS" -gt "$deadline" ] || ! kill -0 "$RDMAOOT_KMSG_PID" 2>/dev/null; then
			echo "rdmaoot: kernel log reader lost; scanning the whole log from now on" > /dev/kmsg
			RDMAOOT_KMSG_PID=
			break
		fi
		rdmaoot_nap
	done
	if [ -z "$done" ] || [ -z "$seen_start" ]; then
		RDMAOOT_SPLAT=$(rdmaoot_splat_between "$start" "$end")
		return 0
	fi
	rdmaoot_splat_first "${unit[@]}"
}

KMEMLEAK=/sys/kernel/debug/kmemleak

# Forget what the kernel itself leaked while booting, so only our leaks count.
rdmaoot_kmemleak_baseline() {
	[ -w "$KMEMLEAK" ] || return 0
	echo scan > "$KMEMLEAK"
	echo clear > "$KMEMLEAK"
}

# rdmaoot_kmemleak_final STARTS: scan (objects younger than 5 s are never
# reported, so wait first) and print one result line per unit that leaked,
# found from each object's age and the units' start times in STARTS
# ("<uptime> <unit>" lines). Prints "PASS kmemleak" when nothing leaked.
rdmaoot_kmemleak_final() {
	local starts=$1 report
	[ -w "$KMEMLEAK" ] || return 0
	sleep 6
	echo scan > "$KMEMLEAK"
	report=$(cat "$KMEMLEAK")
	printf '%s\n' "$report" > /run/rdmaoot/kmemleak.txt
	if [ -z "$report" ]; then
		echo "PASS kmemleak 0"
		return 0
	fi
	printf '%s\n' "$report" | awk -v now="$(cut -d' ' -f1 /proc/uptime)" -v starts="$starts" '
		BEGIN {
			while ((getline line < starts) > 0) {
				split(line, f, " "); n++; t[n] = f[1]; u[n] = f[2]
			}
		}
		function owner(at,   i, who) {
			who = "boot"
			for (i = 1; i <= n; i++) if (t[i] <= at) who = u[i]
			return who
		}
		/^unreferenced object/ { obj++; inbt = 0; next }
		/age [0-9.]+s/ {
			match($0, /age [0-9.]+s/)
			age = substr($0, RSTART + 4, RLENGTH - 5)
			cur = owner(now - age); leaks[cur]++; next
		}
		/backtrace:/ { inbt = 1; frames = 0; next }
		inbt && frames < 4 {
			sub(/^ *\[<[0-9a-f]+>\] */, ""); frames++
			if (!(cur in first) && frames == 4) first[cur] = $0
			if (frames < 4) bt = bt " " $0
			next
		}
		END {
			for (w in leaks)
				printf "FAIL kmemleak:%s 0 %d leaked object(s), e.g. at %s\n", w, leaks[w], first[w]
		}'
}
