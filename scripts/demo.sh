#!/usr/bin/env bash
# scripts/demo.sh - the main job: build our stack and the kernel's RDMA ULPs
# for Debian's stock kernel, boot that kernel in QEMU with the host's root
# and show the stack at work (scripts/guest/demo.sh): soft-RoCE, the rdma
# tool, NVMe over Fabrics with a filesystem, an ib_kperf bandwidth figure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$RDMAOOT_TOP/scripts/deps.sh"
kver=$(rdmaoot_stock_kver)
src=$(rdmaoot_sync_src stock)
rdmaoot_log "building for $kver"
make -s -C "$src" KDIR="/lib/modules/$kver/build" modules ulps
"$RDMAOOT_TOP/scripts/stage-modules.sh" stock "$RDMAOOT_TOP/build/stock" >/dev/null
out=$RDMAOOT_TOP/build/out-demo
"$RDMAOOT_TOP/scripts/qemu-run.sh" stock "$RDMAOOT_TOP/build/stock/modroot" "$out" demo 600 ||
	{ cat "$out/share/demo.log" 2>/dev/null; rdmaoot_die "the demo guest did not finish"; }
cat "$out/share/demo.log"
tail -n1 "$out/share/demo.log" | grep -q '^demo: done' || rdmaoot_die "the demo did not finish"
