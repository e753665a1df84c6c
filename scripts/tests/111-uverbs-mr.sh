# User memory regions on our rxe (ib_umem, REG_MR/DEREG_MR): the write()
# ABI by hand (scripts/guest/uverbs-mr.py abi: sizes and access flags,
# VmPin rising and falling page by page, read-only memory, every bad
# input's errno, ALLOC_MW/DEALLOC_MW, an MR and an MW left for close);
# an unprivileged process under
# "ulimit -l" gets ENOMEM beyond RLIMIT_MEMLOCK and EPERM with a limit of
# 0; a process holding an MR shows in "rdma res show mr" with its pid and
# comm, and once it is killed its pins are gone system-wide
# (/proc/vmstat nr_foll_pin_*); libibverbs' unmodified rxe provider
# registers and deregisters MRs (ibv_reg_mr through ctypes). REREG_MR
# (uverbs-mr.py rereg): ACCESS and PD in place, TRANS and a read-only MR
# made writable as a new MR behind the same handle, 6.1's errnos; and
# (uverbs-rereg.py, pyverbs) RDMA WRITEs on a looped-back RC QP through
# the new keys after TRANS, refused through the old ones, and refused or
# allowed at once by access and PD changed in place.
TEST_TIMEOUT=600

. "$RDMAOOT_TOP/scripts/guest/uverbs-env.sh"

WORK=/tmp/uverbs-mr
HOLD_PID=

test_setup() {
	uv_env_setup setpriv
	# a copy anyone can read, for the unprivileged runs
	rm -rf "$WORK"
	mkdir -m 0755 "$WORK"
	cp "$RDMAOOT_TOP/scripts/guest/abi_check.py" \
		"$RDMAOOT_TOP/scripts/guest/uverbs-write.py" \
		"$RDMAOOT_TOP/scripts/guest/uverbs-mr.py" \
		"$RDMAOOT_TOP/scripts/guest/uverbs-rereg.py" "$WORK/"
	chmod 0644 "$WORK"/*.py
}

mr_py() { /usr/bin/python3 "$WORK/uverbs-mr.py" "$@"; }

# Pins held system-wide: acquired minus released, counters folded first.
pins_held() {
	echo 1 > /proc/sys/vm/stat_refresh 2>/dev/null
	awk '$1 == "nr_foll_pin_acquired" { a = $2 } $1 == "nr_foll_pin_released" { r = $2 }
	     END { print a - r }' /proc/vmstat
}

# MRs of user processes (kernel MRs show the module as their comm).
user_mrs() { rdma res show mr dev "$IBDEV" 2>/dev/null | grep -c "comm python3"; }

check_abi() {
	local out
	out=$(mr_py abi "$UVDEV" 2>&1) || { printf '%s\n' "$out"; t_fail "uverbs-mr.py abi found a wrong answer"; }
	printf '%s\n' "$out"
	t_eq "user MRs after the file closed" 0 "$(user_mrs)"
}

# Unprivileged, under ulimit -l KB.
run_limited() {
	local kb=$1
	sh -c "ulimit -l $kb && exec setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all /usr/bin/python3 $WORK/uverbs-mr.py limit $UVDEV $kb" 2>&1
}

check_limit() {
	local out kb
	for kb in 64 0; do
		out=$(run_limited "$kb") || { printf '%s\n' "$out"; t_fail "RLIMIT_MEMLOCK of $kb KiB not enforced as 6.1 does"; }
		printf '%s\n' "$out"
	done
}

held() { grep -q '^held' "$WORK/hold.out" 2>/dev/null; }

check_exit() {
	local before during after pid out
	before=$(pins_held)
	# python itself in the background (a function would leave a subshell)
	/usr/bin/python3 "$WORK/uverbs-mr.py" hold "$UVDEV" 32 "$WORK/never" \
		> "$WORK/hold.out" 2>&1 &
	HOLD_PID=$!
	t_wait_for 60 held || { cat "$WORK/hold.out"; t_fail "the holder did not register its MR"; }
	cat "$WORK/hold.out"
	pid=$(awk '$1 == "held" { print $2 }' "$WORK/hold.out")
	t_eq "the holder's pid" "$HOLD_PID" "$pid"
	out=$(rdma res show mr dev "$IBDEV" 2>&1)
	printf '%s\n' "$out"
	printf '%s\n' "$out" | grep -q "mrlen 131072 .*pid $pid comm python3" ||
		t_fail "rdma res show mr does not list the holder's 128 KiB MR with pid $pid"
	during=$(pins_held)
	[ $((during - before)) -ge 32 ] || t_fail "pins held rose by $((during - before)), not 32"
	t_log "pins held: $before before, $during with the MR"
	kill -9 "$HOLD_PID"
	wait "$HOLD_PID" 2>/dev/null
	HOLD_PID=
	t_wait_for 10 sh -c "[ \$(rdma res show mr dev $IBDEV | grep -c 'comm python3') = 0 ]" ||
		t_fail "the killed process's MR is still there: $(rdma res show mr dev "$IBDEV" 2>&1)"
	after=$(pins_held)
	t_wait_for 10 sh -c "echo 1 > /proc/sys/vm/stat_refresh; awk '\$1 == \"nr_foll_pin_acquired\" { a = \$2 } \$1 == \"nr_foll_pin_released\" { r = \$2 } END { exit !(a - r <= $before) }' /proc/vmstat" ||
		t_fail "pins held after the kill: $(pins_held), before: $before"
	t_log "pins held after the kill: $(pins_held) (before: $before)"
}

check_rereg() {
	local out
	out=$(mr_py rereg "$UVDEV" "$IBDEV" 2>&1) || { printf '%s\n' "$out"; t_fail "uverbs-mr.py rereg found a wrong answer"; }
	printf '%s\n' "$out"
	t_eq "user MRs after the rereg file closed" 0 "$(user_mrs)"
	if ! /usr/bin/python3 -c 'import pyverbs' 2>/dev/null; then
		t_log "python3-pyverbs is not installed: rereg's data path not checked"
		return
	fi
	out=$(/usr/bin/python3 "$WORK/uverbs-rereg.py" "$IBDEV" "$UVDEV" 2>&1) ||
		{ printf '%s\n' "$out"; t_fail "uverbs-rereg.py: RDMA WRITEs around REREG_MR went wrong"; }
	printf '%s\n' "$out"
	t_eq "user MRs after uverbs-rereg.py" 0 "$(user_mrs)"
}

check_ibv() {
	local out
	if [ ! -e /usr/lib/x86_64-linux-gnu/libibverbs.so.1 ]; then
		t_log "libibverbs is not installed: ibv_reg_mr not checked"
		return
	fi
	out=$(mr_py ibv "$IBDEV" 2>&1) || { printf '%s\n' "$out"; t_fail "ibv_reg_mr through the rxe provider failed"; }
	printf '%s\n' "$out"
}

test_run() {
	uv_rxe_add
	uv_uverbs_up
	check_abi
	check_rereg
	check_limit
	check_exit
	check_ibv
	t_run rdma link delete "$IBDEV"
	t_run modprobe -r rdma_rxe
	t_run modprobe -r ib_uverbs
}

test_cleanup() {
	[ -n "$HOLD_PID" ] && kill -9 "$HOLD_PID" 2>/dev/null
	uv_env_cleanup
	rm -rf "$WORK"
}
