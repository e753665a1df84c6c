# perftest on user QPs of rdma_rxe, Debian's unmodified binaries: ib_send,
# ib_write, ib_read and ib_atomic, _bw and _lat, between two processes on
# rxe0, connected by their exchange over TCP and, with -R, through
# rdma_cm (rdma_ucm). Each pair
# must finish on both sides with its results table (a line for the
# iterations asked for) and the kernel stays silent. No figure is
# judged here: those are for make bench. On the debug kernel each program
# runs 100 iterations of small messages only. A run that failed for one
# of perftest's own reasons (scripts/guest/perftest.sh) is repeated, at
# most three times.
TEST_TIMEOUT=900

. "$RDMAOOT_TOP/scripts/guest/uverbs-env.sh"
. "$RDMAOOT_TOP/scripts/guest/perftest.sh"

OUT=/tmp/uverbs-perftest
PORT=18600

test_setup() {
	local p
	uv_env_setup ss
	for p in ib_send_bw ib_write_bw ib_read_bw ib_atomic_bw \
		 ib_send_lat ib_write_lat ib_read_lat ib_atomic_lat; do
		command -v "$p" >/dev/null || t_skip "$p is not installed (perftest; make deps)"
	done
	rm -rf "$OUT"
	mkdir -p "$OUT"
}

port_open() { ss -ltnH "sport = :$1" | grep -q .; }
# server_ready PROGRAM PORT: its TCP port open, or with -R (rdma_cm) its
# id listening, which rdma res shows with the process name.
server_ready() {
	port_open "$2" ||
		rdma res show cm_id | grep "comm $1" | grep -q 'state LISTEN'
}

# perf_once PROGRAM N ARGS...: a server and a client of PROGRAM running N
# iterations; 0 when both finished with the client's results, 2 when the
# failure was perftest's own (pt_rerun_reason, the reason in RERUN_WHY),
# 1 otherwise. A server whose client failed is given 10 s, then killed
# (it may wait for a connection that will not come).
perf_once() {
	local prog=$1 n=$2 spid rc=0 f
	shift 2
	PORT=$((PORT + 1))
	f="$OUT/$prog-$PORT"
	"$prog" -d "$IBDEV" -x 1 -p "$PORT" -n "$n" "$@" > "$f.server" 2>&1 &
	spid=$!
	t_wait_for 30 server_ready "$prog" "$PORT" || { cat "$f.server"; t_fail "$prog server did not listen"; }
	timeout 300 "$prog" -d "$IBDEV" -x 1 -p "$PORT" -n "$n" "$@" "$IP4" > "$f.client" 2>&1 || rc=$?
	if [ "$rc" != 0 ] && ! t_wait_for 10 eval '! kill -0 $spid 2>/dev/null'; then
		kill "$spid" 2>/dev/null
	fi
	wait "$spid" || rc=$((rc ? rc : $?))
	cat "$f.server" "$f.client"
	[ "$rc" = 0 ] && pt_has_results "$f.client" "$n" && return 0
	RERUN_WHY=$(pt_rerun_reason "$f.server" "$f.client") && return 2
	FAIL_GIST="client exit $rc; $(pt_failure_gist "$f.server" "$f.client")"
	return 1
}

# perf PROGRAM N ARGS...: perf_once, repeated (at most 3 runs) only when
# the failure was perftest's own. Anything else fails at once, with what
# the failed pair said in the verdict (FAIL_GIST).
perf() {
	local try rc
	for try in 1 2 3; do
		rc=0
		perf_once "$@" || rc=$?
		[ "$rc" = 2 ] || break
		t_log "$*: $RERUN_WHY (run $try), again"
	done
	[ "$rc" = 0 ] || t_fail "$* failed on rxe ($FAIL_GIST; all of it above)"
}

test_run() {
	uv_rxe_add
	uv_uverbs_up
	uv_log_mark
	if [ "$RDMAOOT_KIND" = debug ]; then
		# there for its checkers: every program, a few small messages
		# (busy-polling perftest moves ~1 MB/s on this kernel in TCG)
		perf ib_send_bw 100 -s 4096
		perf ib_write_bw 100 -s 4096
		perf ib_read_bw 100 -s 4096
		perf ib_atomic_bw 100
		perf ib_send_lat 100
		perf ib_write_lat 100
		perf ib_read_lat 100
		perf ib_atomic_lat 100
		perf ib_send_bw 100 -s 4096 -R
		perf ib_read_lat 100 -R
	else
		perf ib_send_bw 2000
		perf ib_write_bw 2000
		perf ib_read_bw 2000
		perf ib_atomic_bw 2000
		perf ib_send_lat 500
		perf ib_write_lat 500
		perf ib_read_lat 500
		perf ib_atomic_lat 500
		perf ib_write_bw 200 -a
		# connected through rdma_cm (rdma_ucm) instead of a TCP exchange
		perf ib_send_bw 1000 -R
		perf ib_write_bw 1000 -R
		perf ib_read_lat 300 -R
		perf ib_atomic_bw 1000 -R
	fi
	uv_log_quiet "perftest"
	uv_teardown
}

test_cleanup() {
	uv_env_cleanup
}
