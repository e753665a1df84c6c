#!/usr/bin/env bash
# scripts/qemu-run.sh KIND MODROOT OUTDIR JOB [TIMEOUT]
#
# Boot a guest kernel (KIND: stock | debug) under QEMU/TCG with the host's
# root read-only over 9p and run JOB (check | demo | a shell command) in it.
# MODROOT is the module tree scripts/stage-modules.sh staged for it. OUTDIR/share is exported
# writable to the guest: that is where the verdict comes back. The console
# goes to OUTDIR/console.log. Exits 0 when the guest finished its job
# (OUTDIR/share/done exists), 1 otherwise.
#
# Time limits (Documentation/testing.rst): the guest is stopped when neither
# its console nor anything in OUTDIR/share grew for RDMAOOT_GUEST_IDLE_S
# seconds (default RDMAOOT_IDLE_S + 300, so that a unit stuck in the guest
# is reported by the guest's runner first; 0: no such limit), or once it
# ran RDMAOOT_CAP_FACTOR (default 3) times TIMEOUT (the time the job is
# expected to need at most, default 1200 s). Why it was stopped goes to
# OUTDIR/stopped. RDMAOOT_IDLE_S and RDMAOOT_CAP_FACTOR are passed on to
# the guest's runner, for its units.
#
# For a guest that is one of two on a virtual wire (scripts/interop.sh):
#   RDMAOOT_NIC   QEMU -netdev options of its NIC (scripts/interop.sh gives
#                 "stream,server=on|off,addr..."), and RDMAOOT_MAC its MAC address
#   RDMAOOT_PAIR  a host folder both guests mount writable at /run/pair
#   RDMAOOT_SMP   vCPUs (default 2)
# Such a guest's QEMU also listens for QMP on OUTDIR/qmp.sock (the pair's
# wire dumps, scripts/qmp-wire-dump.py).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kind=$1 modroot=$(realpath "$2") out=$3 job=$4 tmo=${5:-1200}
mkdir -p "$out"
out=$(realpath "$out")
rm -rf "$out/share" "$out/console.log"
mkdir -p "$out/share"

append="console=ttyS0 loglevel=6 log_buf_len=8M panic=-1 oops=panic rw ${RDMAOOT_APPEND:-}"
case "$kind" in
stock)
	sdir=$("$RDMAOOT_TOP/scripts/stock-kernel.sh")
	kver=$(rdmaoot_stock_kver)
	kernel="$sdir/boot/vmlinuz-$kver"
	mem=2G
	;;
debug)
	kdir=$("$RDMAOOT_TOP/scripts/debug-kernel.sh")
	kernel="$kdir/arch/x86/boot/bzImage"
	mem=3G
	# pci=noacpi: under KASAN in TCG the AML interpreter runs the PCI
	# routing method (_PRT) into its 30 s loop timeout twice per boot
	# (with an RCU stall report); the BIOS's PIRQ table does the same job.
	append="$append panic_on_warn=1 kmemleak=on pci=noacpi"
	;;
*) rdmaoot_die "unknown kernel kind '$kind'" ;;
esac
initrd=$("$RDMAOOT_TOP/scripts/initramfs.sh" "$kind")

cat > "$out/share/env.sh" <<ENV
RDMAOOT_TOP='$RDMAOOT_TOP'
RDMAOOT_KIND='$kind'
RDMAOOT_JOB='$job'
RDMAOOT_MODROOT='$modroot'
RDMAOOT_TESTS='${RDMAOOT_TESTS:-}'
RDMAOOT_PAIRED='${RDMAOOT_PAIR:+1}'
RDMAOOT_IDLE_S='${RDMAOOT_IDLE_S:-}'
RDMAOOT_CAP_FACTOR='${RDMAOOT_CAP_FACTOR:-}'
ENV

nic=(-nic none)
[ -n "${RDMAOOT_NIC:-}" ] &&
	nic=(-netdev "$RDMAOOT_NIC,id=wire"
	     -device "virtio-net-pci,netdev=wire,mac=${RDMAOOT_MAC:?},rx_queue_size=1024")
pair=()
[ -n "${RDMAOOT_PAIR:-}" ] &&
	pair=(-virtfs "local,path=$RDMAOOT_PAIR,mount_tag=pair,security_model=none"
	      -qmp "unix:$out/qmp.sock,server=on,wait=off")

. "$RDMAOOT_TOP/scripts/guest/watch.sh"
idle=${RDMAOOT_GUEST_IDLE_S:-$((RDMAOOT_IDLE_S + 300))}
cap=$((tmo * RDMAOOT_CAP_FACTOR))
rm -f "$out/stopped"

rdmaoot_log "booting the $kind kernel (job: $job; stopped after ${idle}s without progress or at ${cap}s)"
qemu-system-x86_64 \
	-accel tcg -smp "${RDMAOOT_SMP:-2}" -m "$mem" -nographic -no-reboot \
	-kernel "$kernel" -initrd "$initrd" -append "$append" \
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
	-virtfs "local,path=$out/share,mount_tag=share,security_model=none" \
	"${nic[@]}" "${pair[@]}" -serial "file:$out/console.log" -monitor none </dev/null >/dev/null 2>"$out/qemu.err" &
qpid=$!
# Whatever ends this script ends the guest too.
trap 'kill "$qpid" 2>/dev/null' EXIT
trap 'exit 1' INT TERM HUP
set +e
watch_wait "$qpid" "$idle" "$cap" "$out/console.log" "$out/share"
rc=$?
if [ -n "$WATCH_WHY" ]; then
	unit=$(grep -o 'rdmaoot: test start: [^ ]*' "$out/console.log" | tail -n1)
	unit=${unit#rdmaoot: test start: }
	why="$WATCH_WHY (last console line: '$(watch_last_line "$out/console.log" | tr -d '\r')')"
	echo "$why" > "$out/stopped"
	rdmaoot_log "stopping the $kind guest in ${unit:-boot}: $why"
	kill -TERM "$qpid" 2>/dev/null
	for _ in $(seq 20); do
		kill -0 "$qpid" 2>/dev/null || break
		sleep 0.5
	done
	kill -KILL "$qpid" 2>/dev/null
	wait "$qpid"
	rc=$?
fi
trap - EXIT INT TERM HUP
set -e
if [ -f "$out/share/done" ]; then
	exit 0
fi
rdmaoot_log "the $kind guest did not finish its job (qemu exit $rc); console: $out/console.log"
exit 1
