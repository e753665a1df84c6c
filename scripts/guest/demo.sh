#!/bin/bash
# Guest side of `make demo`: our stack on Debian's stock kernel, doing its
# work. A soft-RoCE device made with the rdma tool, the rdma tool's view of
# it, an NVMe-oF namespace exported and connected over it (the kernel's own
# nvmet-rdma and nvme-rdma, rebuilt against our stack by make ulps) with a
# filesystem on it, a file written and read back, and a bandwidth figure
# from ib_kperf. Every command is shown before its output.
. "$RDMAOOT_TOP/scripts/guest/testlib.sh"
. "$RDMAOOT_TOP/scripts/guest/rxe-pair.sh"
. "$RDMAOOT_TOP/scripts/guest/nvmf.sh"

OUTDIR=/tmp/demo
MNT=$OUTDIR/mnt
mkdir -p "$MNT"

step() { printf '\n### %s\n\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

cleanup() {
	umount "$MNT" 2>/dev/null
	nvmf_cleanup
	rxe_pair_cleanup
}
trap cleanup EXIT

step "The kernel: Debian's own, unmodified"
run uname -r

step "modprobe finds our modules in updates/, the rebuilt ULPs among them"
for m in ib_core rdma_cm rdma_rxe nvme-rdma nvmet-rdma; do
	printf '%-11s %s\n' "$m" "$(modinfo -F filename "$m")"
done

step "Two soft-RoCE devices on a veth pair (rxe1's end in a namespace)"
rxe_pair_setup > "$OUTDIR/setup.log" 2>&1 || { cat "$OUTDIR/setup.log"; exit 1; }
echo "\$ rdma link add rxe0 type rxe netdev $VA"
echo "\$ ip netns exec $NS rdma link add rxe1 type rxe netdev $VB"
run rdma link show
run rdma dev show rxe0
run cat /sys/class/infiniband/rxe0/ports/1/gids/1

step "NVMe over Fabrics over rxe0: a 64 MiB ramdisk exported and connected"
nvmf_setup > "$OUTDIR/nvmf.log" 2>&1 || { cat "$OUTDIR/nvmf.log"; exit 1; }
nvmf_target_up >> "$OUTDIR/nvmf.log" 2>&1 || { cat "$OUTDIR/nvmf.log"; exit 1; }
echo "nvmet port 1: trtype $(cat "$PORT/addr_trtype"), $(cat "$PORT/addr_traddr"):$(cat "$PORT/addr_trsvcid"), subsystem $NQN"
echo "\$ nvme connect -t rdma -a $IPA -s $TRSVCID -n $NQN -i 2"
nvmf_connect
echo "connected in $CONNECT_TIME s: $DEV"
run nvme list
echo "\$ rdma res show cm_id | grep $TRSVCID"
rdma res show cm_id | grep ":$TRSVCID"

step "A filesystem on it: a file written, read back after a remount"
run mkfs.ext4 -q -F "$DEV"
run mount "$DEV" "$MNT"
run dd if=/dev/urandom of="$MNT/data" bs=1M count=16 status=none
sum1=$(sha256sum < "$MNT/data")
run umount "$MNT"
run mount "$DEV" "$MNT"
sum2=$(sha256sum < "$MNT/data")
echo "written:   $sum1"
echo "read back: $sum2"
[ "$sum1" = "$sum2" ] || { echo "the file differs after the remount"; exit 1; }
echo "the same 16 MiB, through ext4, nvme-rdma, rdma_cm, our verbs and rxe0"
run umount "$MNT"
echo "\$ nvme disconnect -n $NQN"
nvmf_disconnect

step "Bandwidth: RDMA WRITE of 64 KiB, rxe0 to rxe1 across the veth"
echo "\$ kperf dev=rxe0 peer=rxe1 qp=rc op=write size=65536 iters=2000"
"$KPERF" dev=rxe0 peer=rxe1 qp=rc op=write size=65536 iters=2000 > "$OUTDIR/kperf.out" 2>&1
mbps=$(sed -n 's/^result .* mbps=\([0-9.]*\).*/\1/p' "$OUTDIR/kperf.out")
[ -n "$mbps" ] || { cat "$OUTDIR/kperf.out"; exit 1; }
echo "ib_kperf: $mbps MB/s (QEMU without KVM: a figure of this machine, not of the stack)"

step "Unloading everything"
cleanup
trap - EXIT
echo "modules of ours still loaded: $(grep -cE '^(ib_core|ib_cm|iw_cm|rdma_cm|rdma_rxe|nvme_rdma|nvmet_rdma) ' /proc/modules)"
echo "demo: done"
