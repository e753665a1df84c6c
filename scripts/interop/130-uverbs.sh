# interop/130-uverbs: Debian's unmodified rdma-core programs in user space
# on both guests: over our ib_uverbs, rdma_ucm and rxe user ABI here and
# over the inbox stack on the peer, each program both ways (server on the
# peer and client here, then the reverse):
#
# 1. ibv_rc_pingpong with its data check (-c) and ibv_ud_pingpong, on each
#    side's RoCE v2 GID of its IPv4 address (the index read from sysfs
#    gid_attrs/types, not assumed): both sides report every iteration.
# 2. perftest's ib_write_bw, ib_send_lat and ib_read_bw, connected over
#    TCP and through rdma_cm (-R): both sides' results tables have their
#    line for the iterations asked for, the server printed the client's
#    QP (remote address). No figure is judged.
# 3. librdmacm's rping with its data check (-V) and every ping printed
#    (-v): each side saw every ping, the client's text, in order.
#
# After each program no user QP and no user cm_id are left on our side
# ("rdma res"), and the kernel stays silent.
TEST_TIMEOUT=1500
TEST_KERNELS=stock

. "$RDMAOOT_TOP/scripts/guest/interop.sh"
. "$RDMAOOT_TOP/scripts/guest/perftest.sh"

W=/tmp/uinterop
# our background servers, one PID a line, for test_cleanup
PIDS=$W/pids
PP_ITERS=300
PERF_ITERS=100
PINGS=200
SIZE=64

test_setup() {
	local c m
	for c in ibv_rc_pingpong ibv_ud_pingpong ib_write_bw ib_send_lat \
		 ib_read_bw rping ss; do
		command -v "$c" >/dev/null || t_skip "$c is not installed (make deps)"
	done
	rm -rf "$W"
	mkdir -p "$W"
	interop_ours_up
	for m in ib_uverbs rdma_ucm; do
		t_run modprobe "$m"
		case $(t_mod_path "$m") in
		*/updates/*) ;;
		*) t_fail "$m is not ours: $(t_mod_path "$m")" ;;
		esac
	done
	t_wait_for 10 test -c /dev/infiniband/uverbs0 || t_fail "no /dev/infiniband/uverbs0"
	t_wait_for 10 test -c /dev/infiniband/rdma_cm || t_fail "no /dev/infiniband/rdma_cm"
}

test_cleanup() {
	local pid
	if [ -e "$PIDS" ]; then
		while read -r pid; do
			kill "$pid" 2>/dev/null
		done < "$PIDS"
		sleep 1
	fi
	interop_ours_down
}

# roce_v2_gid DEV IP: the index of DEV's port 1 GID that is RoCE v2 and
# IP's IPv4-mapped address, read from sysfs; false when there is none.
# (It runs on the peer too: handed over with declare -f.)
roce_v2_gid() {
	local want f i t g
	# shellcheck disable=SC2086
	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' ${2//./ })
	for f in /sys/class/infiniband/"$1"/ports/1/gid_attrs/types/*; do
		i=${f##*/}
		read -r t < "$f" 2> /dev/null || continue
		read -r g < "/sys/class/infiniband/$1/ports/1/gids/$i" 2> /dev/null || continue
		[ "$t" = "RoCE v2" ] && [ "$g" = "$want" ] && { echo "$i"; return 0; }
	done
	return 1
}

# A snippet for the peer: exits 0 once something listens on TCP port $1
# or its rdma_cm has a listener on port $1, 1 after 30 s.
PEER_READY='for i in $(seq 150); do
	ss -ltnH "sport = :$P" | grep -q . && exit 0
	rdma res show cm_id | grep -Eq "state LISTEN .*src-addr [^ ]*:$P( |\$)" && exit 0
	sleep 0.2
done
exit 1'

# peer_ready PORT: the peer's server listens on PORT.
peer_ready() {
	peer_run 60 "P=$1; $PEER_READY"
}

# local_ready PORT: our server listens on PORT (TCP, or rdma_cm).
local_ready() {
	ss -ltnH "sport = :$1" | grep -q . ||
		rdma res show cm_id | grep -Eq "state LISTEN .*src-addr [^ ]*:$1( |\$)"
}

# user_res KIND: our "rdma res show KIND" lines owned by a process (the
# kernel's owners show as "comm [name]").
user_res() { rdma res show "$1" | grep -E 'comm [^[]' || true; }

# no_user_res AFTER: no user QP or cm_id is left here after AFTER.
no_user_res() {
	local k
	for k in qp cm_id; do
		t_wait_for 10 eval "[ -z \"\$(user_res $k)\" ]" ||
			{ rdma res show "$k"; t_fail "user ${k}s left on ours after $1"; }
	done
	t_log "no user QP or cm_id left on ours after $1"
}

# serve_here OUT CMD...: our server CMD in the background, its output in
# OUT and its errors in OUT.err, its PID in SRV_PID (and in PIDS for the
# cleanup).
serve_here() {
	local out=$1
	shift
	echo "+ (ours, in the background) $*"
	"$@" > "$out" 2> "$out.err" &
	SRV_PID=$!
	echo "$SRV_PID" >> "$PIDS"
}

# served_here WHAT: our server SRV_PID ended within 60 s; its status in SRV_RC.
served_here() {
	t_wait_for 60 eval '! kill -0 $SRV_PID 2>/dev/null' || t_fail "our $1 server did not end"
	SRV_RC=0
	wait "$SRV_PID" || SRV_RC=$?
}

# run_dir DIR NAME PORT SERVER CLIENT: with DIR "peer" the SERVER command
# line runs on the peer (GID index $PG) and CLIENT here (GID index $OG)
# against PEER_IP; with DIR "ours" the reverse. "@GID@" in a command line
# is replaced by its side's GID index. The outputs land in
# $W/NAME-DIR.server and $W/NAME-DIR.client, each program's errors after
# its output (never merged into it: a buffered stdout would be split by
# them); RUN_RC is the first nonzero exit status of the two (0 when both
# exited 0).
run_dir() {
	local dir=$1 name=$2 port=$3 scmd=$4 ccmd=$5 srv f=$W/$2-$1 rc=0
	if [ "$dir" = peer ]; then
		peer_start "timeout 300 ${scmd//@GID@/$PG}"
		srv=$PEER_N
		peer_ready "$port" || t_fail "$name: the peer's server does not listen on $port"
		echo "+ ${ccmd//@GID@/$OG} $PEER_IP"
		# shellcheck disable=SC2086
		timeout 300 ${ccmd//@GID@/$OG} "$PEER_IP" > "$f.client" 2> "$f.client.err" || rc=$?
		cat "$f.client.err" >> "$f.client"
		# a server whose client failed may wait for it until its timeout
		if [ "$rc" = 0 ]; then peer_wait "$srv" 330; else peer_wait "$srv" 20; fi > /dev/null
		[ "$rc" != 0 ] || rc=$PEER_RC
		printf '%s\n' "$PEER_OUT" "$PEER_ERR" > "$f.server"
	else
		# shellcheck disable=SC2086
		serve_here "$f.server" ${scmd//@GID@/$OG}
		t_wait_for 30 local_ready "$port" || { cat "$f.server"; t_fail "$name: our server does not listen on $port"; }
		[ -n "$LIVE_CHECK" ] && live_check "$name"
		peer_start "timeout 300 ${ccmd//@GID@/$PG} $OUR_IP"
		peer_wait "$PEER_N" 330 > /dev/null
		rc=$PEER_RC
		printf '%s\n' "$PEER_OUT" "$PEER_ERR" > "$f.client"
		if [ "$rc" != 0 ] && ! t_wait_for 10 eval '! kill -0 $SRV_PID 2>/dev/null'; then
			kill "$SRV_PID" 2>/dev/null
		fi
		served_here "$name"
		cat "$f.server.err" >> "$f.server"
		[ "$rc" != 0 ] || rc=$SRV_RC
	fi
	echo "--- $name, server on the $dir side:"
	cat "$f.server"
	echo "--- $name, client:"
	cat "$f.client"
	RUN_RC=$rc
}

# live_check NAME: our waiting server's QP is in "rdma res" with its
# process, so no_user_res can see what it looks for.
LIVE_CHECK=
live_check() {
	[ -n "$(user_res qp)" ] || { rdma res show qp; t_fail "$1: rdma res shows no QP of our waiting server"; }
	t_log "$1: our waiting server's QP shows in rdma res: $(user_res qp | head -n1)"
	LIVE_CHECK=
}

# pingpong NAME PORT ARGS...: ibv_NAME_pingpong with ARGS both ways; both
# sides must report PP_ITERS iterations.
pingpong() {
	local name=$1 port=$2 dir cmd f
	shift 2
	for dir in peer ours; do
		cmd="ibv_${name}_pingpong -d rxe0 -g @GID@ -p $port -n $PP_ITERS $*"
		f=$W/$name-pp-$dir
		run_dir "$dir" "$name-pp" "$port" "$cmd" "$cmd"
		[ "$RUN_RC" = 0 ] || t_fail "ibv_${name}_pingpong $*, server on the $dir side, exited $RUN_RC"
		grep -q "^$PP_ITERS iters in" "$f.server" || t_fail "ibv_${name}_pingpong: the server ($dir side) did not report $PP_ITERS iterations"
		grep -q "^$PP_ITERS iters in" "$f.client" || t_fail "ibv_${name}_pingpong: the client (server on the $dir side) did not report $PP_ITERS iterations"
		t_log "ibv_${name}_pingpong $*, server on the $dir side: $PP_ITERS iterations on both sides"
		no_user_res "ibv_${name}_pingpong (server on the $dir side)"
		port=$((port + 1))
	done
}

# perf PROGRAM PORT ARGS...: perftest's PROGRAM both ways with ARGS and
# PERF_ITERS iterations. A run that failed for one of perftest's own
# reasons (pt_rerun_reason) is repeated, at most three times; a server of
# the peer's that such a run left waiting is killed first.
perf() {
	local prog=$1 port=$2 dir try f cmd why
	shift 2
	for dir in peer ours; do
		for try in 1 2 3; do
			cmd="$prog -d rxe0 -x @GID@ -p $port -n $PERF_ITERS $*"
			f=$W/$prog-$port-$dir
			run_dir "$dir" "$prog-$port" "$port" "$cmd" "$cmd"
			port=$((port + 1))
			[ "$RUN_RC" = 0 ] && pt_has_results "$f.client" "$PERF_ITERS" && break
			why=$(pt_rerun_reason "$f.server" "$f.client") || break
			t_log "$prog $*, server on the $dir side: $why (run $try), again"
			[ "$dir" = ours ] || peer_run 20 "pkill -x $prog; true"
		done
		[ "$RUN_RC" = 0 ] || t_fail "$prog $*, server on the $dir side, exited $RUN_RC"
		pt_has_results "$f.client" "$PERF_ITERS" ||
			t_fail "$prog $*, server on the $dir side: the client printed no result line for $PERF_ITERS iterations"
		grep -q "remote address" "$f.server" ||
			t_fail "$prog $*, server on the $dir side: the server printed no remote address"
		pt_has_results "$f.server" "$PERF_ITERS" ||
			t_fail "$prog $*, server on the $dir side: the server printed no result line for $PERF_ITERS iterations"
		t_log "$prog $*, server on the $dir side: both sides' result line for $PERF_ITERS iterations"
		no_user_res "$prog $* (server on the $dir side)"
	done
}

# rping_both PORT: rping -V -v both ways, PINGS pings of SIZE bytes.
rping_both() {
	local port=$1 dir f addr
	for dir in peer ours; do
		[ "$dir" = peer ] && addr=$PEER_IP || addr=$OUR_IP
		f=$W/rping-$dir
		run_dir "$dir" rping "$port" \
			"rping -s -a $addr -p $port -C $PINGS -S $SIZE -V -v" \
			"rping -c -p $port -C $PINGS -S $SIZE -V -v -a"
		[ "$RUN_RC" = 0 ] || t_fail "rping, server on the $dir side, exited $RUN_RC"
		expect_pings "rping's server on the $dir side" "server ping data: " "$(< "$f.server")"
		expect_pings "rping's client (server on the $dir side)" "ping data: " "$(< "$f.client")"
		no_user_res "rping (server on the $dir side)"
		port=$((port + 1))
	done
}

test_run() {
	local t0=$EPOCHREALTIME t noise
	t_wait_for 10 roce_v2_gid rxe0 "$OUR_IP" > /dev/null || t_fail "our rxe0 has no RoCE v2 GID of $OUR_IP"
	OG=$(roce_v2_gid rxe0 "$OUR_IP")
	peer_run 60 "$(declare -f roce_v2_gid)
for i in \$(seq 50); do roce_v2_gid rxe0 $PEER_IP && exit 0; sleep 0.2; done; exit 1"
	PG=$PEER_OUT
	[[ $PG =~ ^[0-9]+$ ]] || t_fail "the peer's GID index of $PEER_IP: '$PG'"
	t_log "RoCE v2 GID of the IPv4 address: index $OG here, $PG on the peer"
	LOG_MARK=$(dmesg | wc -l)

	t=$EPOCHREALTIME
	LIVE_CHECK=1
	pingpong rc 18515 -c
	pingpong ud 18517 -s 512 -c
	t_log "pingpongs: $(t_elapsed "$t") s"

	t=$EPOCHREALTIME
	perf ib_write_bw 18600
	perf ib_write_bw 18610 -R
	perf ib_send_lat 18620
	perf ib_read_bw 18630 -R
	t_log "perftest: $(t_elapsed "$t") s"

	t=$EPOCHREALTIME
	rping_both 7180
	t_log "rping: $(t_elapsed "$t") s"

	noise=$(dmesg | tail -n +"$((LOG_MARK + 1))" | grep -Ei 'warn|bug|kasan|leak|error|rxe|uverbs|ucma|rdma_cm' || true)
	[ -z "$noise" ] || t_fail "the kernel spoke during the programs: $noise"
	t_log "all: $(t_elapsed "$t0") s"
}
