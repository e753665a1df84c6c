# scripts/guest/splat.sh - kernel-log and kmemleak checks for the runner.
# Sourced by run-tests.sh.

# What a kernel says when something is wrong (WARN, BUG, KASAN, UBSAN,
# lockdep, RCU, hung tasks, oopses, kmemleak).
RDMAOOT_SPLAT_RE='BUG:|WARNING:|KASAN:|UBSAN:|general protection fault|Oops:|Kernel panic|'\
'INFO: (possible|trying|task .* blocked|suspicious|inconsistent)|possible (circular|recursive) locking|'\
'inconsistent lock state|suspicious RCU usage|self-detected stall|detected stalls on CPUs|kmemleak: .*suspected|Unable to handle kernel|refcount_t:'

# rdmaoot_splat_between START END: print the first splat line logged between
# the two marker lines (or since START when END has not been logged yet).
rdmaoot_splat_between() {
	dmesg --notime 2>/dev/null |
		awk -v s="$1" -v e="$2" '$0 == s {on = 1; next} $0 == e {on = 0} on' |
		grep -E -m1 "$RDMAOOT_SPLAT_RE" | tr -s ' \t' ' ' | cut -c1-200
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
