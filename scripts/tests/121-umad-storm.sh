# ib_umad under a write storm on rxe0 (scripts/guest/umad-storm.py, which
# says what each part asserts): several processes and threads writing
# requests with timeouts and retries to one umad file and to several, far
# faster than they are answered, to an agent that answers, one that never
# does and a class nobody holds, with reads interleaved (every write
# succeeds, every request ends once: its answer or ETIMEDOUT); files
# closed with sends outstanding and an agent unregistered with sends
# outstanding (both quick, nothing read for them after); then "rdma link
# delete" while two processes write, 400 requests each in flight (writes
# then fail with EIO, 6.1's errno for a file whose agents are dead; reads
# too; a request whose class lost its agent first is answered by the MAD
# layer with status 0x000c). After: umad0 goes, ib_umad and rdma_rxe
# unload, the kernel log holds nothing from the MAD layer or umad (nor
# from rxe before the removal), and on the debug kernel a kmemleak scan
# finds no object of ours (the runner's splat checks and final scan run
# as for every unit). The debug kernel (KASAN under TCG) gets a third of
# the requests.
TEST_TIMEOUT=600
[ "${RDMAOOT_KIND:-stock}" = debug ] && TEST_TIMEOUT=1200

. "$RDMAOOT_TOP/scripts/guest/uverbs-env.sh"

G=$RDMAOOT_TOP/scripts/guest
PY=/usr/bin/python3
KMEMLEAK=/sys/kernel/debug/kmemleak

test_setup() {
	uv_env_setup
	t_mod_path ib_umad >/dev/null || t_skip "ib_umad is not built"
}

# counters: rxe0's packet counters that move (or say why packets went), on
# one line.
counters() {
	local f v line=
	for f in /sys/class/infiniband/"$IBDEV"/ports/1/hw_counters/*; do
		read -r v < "$f" 2> /dev/null || continue
		[ "$v" = 0 ] || line="$line ${f##*/}=$v"
	done
	echo "# $IBDEV counters:$line"
}

# watch_start: every 20 s for 5 minutes the counters in the log, then the
# blocked tasks in the kernel log, so that a storm that hangs says where
# (and then the log stays still, for the runner to see no progress).
watch_start() {
	(
		for _ in $(seq 15); do
			sleep 20
			counters
		done
		echo w > /proc/sysrq-trigger
	) &
	WATCH_PID=$!
}

watch_stop() {
	[ -z "$WATCH_PID" ] || kill "$WATCH_PID" 2> /dev/null
	WATCH_PID=
}

# storm PART...: umad-storm.py's PARTs on umad0, its output in the log as
# it comes.
storm() {
	local t0=$EPOCHREALTIME rc=0
	echo "+ umad-storm.py /dev/infiniband/umad0 $IP4_GID --scale $SCALE $*"
	watch_start
	"$PY" "$G/umad-storm.py" /dev/infiniband/umad0 "$IP4_GID" --scale "$SCALE" "$@" 2>&1 || rc=$?
	watch_stop
	[ "$rc" = 0 ] || t_fail "umad-storm.py $*: a check failed"
	t_log "umad-storm.py $*: $(t_elapsed "$t0") s"
}

# no_leak: a kmemleak scan (debug kernel) finds nothing allocated by the
# MAD layer, ib_umad or rxe; objects younger than 5 s are not reported.
no_leak() {
	local report
	[ -w "$KMEMLEAK" ] || return 0
	sleep 6
	echo scan > "$KMEMLEAK"
	report=$(cat "$KMEMLEAK")
	if printf '%s\n' "$report" | grep -Eq 'umad|_mad|mad_|rxe'; then
		printf '%s\n' "$report" | head -n 60
		t_fail "kmemleak: objects of ours leaked"
	fi
	t_log "kmemleak: nothing of the MAD layer, ib_umad or rxe"
}

test_run() {
	SCALE=3
	[ "${RDMAOOT_KIND:-stock}" = debug ] && SCALE=1
	uv_rxe_add
	uv_log_mark
	t_run modprobe ib_umad
	t_wait_for 10 test -c /dev/infiniband/umad0 || t_fail "no /dev/infiniband/umad0"
	t_eq "umad0 ibdev" "$IBDEV" "$(cat /sys/class/infiniband_mad/umad0/ibdev)"

	counters
	storm warmup volume storm close unregister
	counters
	uv_log_quiet "the storm" "warn|bug|kasan|leak|error|umad|mad|rxe"

	storm removal "$IBDEV"
	t_wait_for 10 sh -c '! test -e /dev/infiniband/umad0' || t_fail "umad0 outlived $IBDEV"
	t_run modprobe -r ib_umad
	t_run modprobe -r rdma_rxe
	uv_log_quiet "the storm and the removal" "warn|bug|kasan|leak|error|umad|mad"
	no_leak
}

test_cleanup() {
	watch_stop
	uv_env_cleanup
}
