# scripts/guest/nvmf.sh - an NVMe over Fabrics target (nvmet, configfs)
# and host (nvme-cli) over rdma on rxe0, for the NVMe-oF tests
# (scripts/tests/10x-nvme-*). Sourced after rxe-pair.sh, whose rxe0 holds
# IPA; the test sets OUTDIR (an existing folder for command output).
#
# The target: subsystem NQN allowing any host, namespace 1 on RAMDISK
# (brd), port 1 (rdma, ipv4, IPA:TRSVCID) with the subsystem linked.
# The host connects with a fixed host NQN and ID, so nothing depends on
# /etc/nvme.

NQN=nqn.2026-11.org.rdmaoot:nvme-rdma-test
NVMET=/sys/kernel/config/nvmet
SUBSYS=$NVMET/subsystems/$NQN
PORT=$NVMET/ports/1
TRSVCID=4420
RAMDISK=/dev/ram0
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:6c1b2a1e-0000-4000-8000-000000000101
HOSTID=6c1b2a1e-0000-4000-8000-000000000101

# nvmf_setup: skip without the tools, load brd (64 MiB), nvmet-rdma and
# nvme-rdma. rxe_pair_setup must have run. The debug kernel has brd,
# configfs and nvmet built in (its ram0 is already 64 MiB).
nvmf_setup() {
	command -v nvme >/dev/null || t_skip "nvme-cli is not installed"
	command -v fio >/dev/null || t_skip "fio is not installed"
	if [ ! -b "$RAMDISK" ]; then
		t_mod_path brd >/dev/null || t_skip "the kernel has no brd module"
		t_run modprobe brd rd_nr=1 rd_size=65536
		[ -b "$RAMDISK" ] || t_fail "brd made no $RAMDISK"
	fi
	# configfs is a module in the stock kernel: not there for the boot's
	# mount of /sys/kernel/config
	if ! grep -q "^configfs /sys/kernel/config " /proc/mounts; then
		grep -qw configfs /proc/filesystems || t_run modprobe configfs
		t_run mount -t configfs configfs /sys/kernel/config
	fi
	t_run modprobe nvmet-rdma
	t_run modprobe nvme-rdma
	[ -d "$NVMET" ] || t_fail "nvmet made no $NVMET"
}

# nvmf_cleanup: disconnect, remove the configfs objects in reverse order
# of their making, unload the ULPs and brd, whatever part was done.
nvmf_cleanup() {
	nvme disconnect -n "$NQN" >/dev/null 2>&1
	rm -f "$PORT/subsystems/$NQN" 2>/dev/null
	rmdir "$PORT" 2>/dev/null
	echo 0 > "$SUBSYS/namespaces/1/enable" 2>/dev/null
	rmdir "$SUBSYS/namespaces/1" 2>/dev/null
	rmdir "$SUBSYS" 2>/dev/null
	modprobe -r nvme-rdma 2>/dev/null
	modprobe -r nvmet-rdma 2>/dev/null
	modprobe -r brd 2>/dev/null
	true
}

# nvmf_ctrls: the host's controllers of our subsystem (nvme0 ...).
nvmf_ctrls() {
	local c n
	for c in /sys/class/nvme/nvme*; do
		[ -e "$c/subsysnqn" ] || continue
		read -r n < "$c/subsysnqn"
		[ "$n" = "$NQN" ] && echo "${c##*/}"
	done
	true
}

# nvmf_target_up: subsystem, namespace on the ramdisk, rdma port on rxe0's
# address, the subsystem linked to the port; nvmet-rdma then listens.
nvmf_target_up() {
	t_run mkdir "$SUBSYS"
	echo 1 > "$SUBSYS/attr_allow_any_host" || t_fail "cannot allow any host"
	t_run mkdir "$SUBSYS/namespaces/1"
	echo "$RAMDISK" > "$SUBSYS/namespaces/1/device_path" || t_fail "cannot set the device path"
	echo 1 > "$SUBSYS/namespaces/1/enable" || t_fail "cannot enable namespace 1"
	t_run mkdir "$PORT"
	echo rdma > "$PORT/addr_trtype" || t_fail "cannot set trtype rdma"
	echo ipv4 > "$PORT/addr_adrfam" || t_fail "cannot set adrfam ipv4"
	echo "$IPA" > "$PORT/addr_traddr" || t_fail "cannot set traddr"
	echo "$TRSVCID" > "$PORT/addr_trsvcid" || t_fail "cannot set trsvcid"
	nvmf_port_link
}

nvmf_port_link() {
	ln -s "$SUBSYS" "$PORT/subsystems/$NQN" || t_fail "cannot link the subsystem to the port"
	t_wait_for 10 nvmf_listening || t_fail "nvmet-rdma does not listen on $IPA:$TRSVCID: $(rdma res show cm_id)"
}

nvmf_listening() { rdma res show cm_id 2>/dev/null | grep -q "state LISTEN .*src-addr $IPA:$TRSVCID"; }

# nvmf_blk: the block device of namespace 1 of our subsystem on the host
# (nvme0n1 with or without native multipath; the hidden per-path disks
# nvmeXcYnZ are skipped). Empty when there is none with a size yet.
nvmf_blk() {
	local d n s
	for d in /sys/block/nvme*n*; do
		n=${d##*/}
		case "$n" in nvme*c*n*) continue ;; esac
		[ -e "$d/device/subsysnqn" ] || continue
		read -r s < "$d/device/subsysnqn"
		[ "$s" = "$NQN" ] || continue
		read -r s < "$d/size"
		[ "$s" -gt 0 ] && [ -b "/dev/$n" ] && echo "$n" && return 0
	done
	return 1
}

# nvmf_connect [ARGS...]: nvme connect over rdma to the port, wait for the
# block device; sets DEV (/dev/nvmeXnY). Two I/O queues unless ARGS say.
nvmf_connect() {
	local t0=$EPOCHREALTIME n
	nvme connect -t rdma -a "$IPA" -s "$TRSVCID" -n "$NQN" \
		-q "$HOSTNQN" -I "$HOSTID" -i 2 "$@" > "$OUTDIR/connect.out" 2>&1 ||
		t_fail "nvme connect failed: $(cat "$OUTDIR/connect.out")"
	t_wait_for 30 nvmf_blk >/dev/null || t_fail "no block device for $NQN after connect"
	n=$(nvmf_blk)
	DEV=/dev/$n
	CONNECT_TIME=$(t_elapsed "$t0")
}

# nvmf_disconnect: nvme disconnect, wait for the block device to go.
nvmf_disconnect() {
	local out
	out=$(nvme disconnect -n "$NQN" 2>&1) || t_fail "nvme disconnect failed: $out"
	case "$out" in *"disconnected 1 controller"*) ;;
	*) t_fail "nvme disconnect: '$out', expected 1 controller" ;; esac
	t_wait_for 30 nvmf_no_blk || t_fail "$(nvmf_blk) still there after disconnect"
	[ -z "$(nvmf_ctrls)" ] || t_fail "controllers left after disconnect: $(nvmf_ctrls)"
}

nvmf_no_blk() { ! nvmf_blk >/dev/null; }

# nvmf_host_check: one controller of ours over rdma to the port, 2 I/O
# queues (one on a guest with one CPU).
nvmf_host_check() {
	local c v q
	c=$(nvmf_ctrls)
	[ "$(echo "$c" | wc -w)" = 1 ] || t_fail "expected one controller of $NQN, have '$c'"
	read -r v < "/sys/class/nvme/$c/transport"
	t_eq "$c transport" rdma "$v"
	read -r v < "/sys/class/nvme/$c/address"
	case "$v" in *"traddr=$IPA,trsvcid=$TRSVCID"*) ;;
	*) t_fail "$c address '$v', expected traddr=$IPA,trsvcid=$TRSVCID" ;; esac
	# nvme-rdma makes no more I/O queues than there are CPUs
	q=$(nproc)
	[ "$q" -le 2 ] || q=2
	read -r v < "/sys/class/nvme/$c/queue_count"
	t_eq "$c queue_count (admin + $q I/O)" $((q + 1)) "$v"
	read -r v < "/sys/class/nvme/$c/state"
	t_eq "$c state" live "$v"
}


# nvmf_port_unlink: unlink the subsystem from the port (nvmet deletes the
# port's controllers of it and, the port left with no subsystem, stops
# listening).
nvmf_port_unlink() {
	rm "$PORT/subsystems/$NQN" || t_fail "cannot unlink the subsystem from the port"
	t_wait_for 10 nvmf_not_listening || t_fail "nvmet-rdma still listens: $(rdma res show cm_id)"
}

nvmf_not_listening() { ! nvmf_listening; }

# nvmf_state: the state of the host's one controller of our subsystem
# (live, resetting, connecting, deleting, ...), empty without one.
nvmf_state() {
	local c v
	c=$(nvmf_ctrls)
	[ -n "$c" ] && read -r v < "/sys/class/nvme/$c/state" 2>/dev/null && echo "$v"
	true
}

nvmf_state_is() { [ "$(nvmf_state)" = "$1" ]; }
nvmf_state_not() { [ "$(nvmf_state)" != "$1" ]; }

# nvmf_moved_at_least N: rxe0 has sent N packets since counters_mark
# rxe0 (a MiB of I/O is at least 256; the block devices' own counters
# stay at 0 on the multipath disk of 6.1).
nvmf_moved_at_least() {
	counter_delta rxe0 sent_pkts
	[ "$DELTA" -ge "$1" ]
}

nvmf_no_ctrls() { [ -z "$(nvmf_ctrls)" ]; }
