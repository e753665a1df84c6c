#!/usr/bin/env bash
# scripts/splat-check.sh - the runner's kernel-log check
# (scripts/guest/splat.sh) against lines in the forms a 6.1 kernel logs
# them: each of the first table must be reported, each of the second must
# not. Prints the lines it got wrong; exits 1 if any.
set -uo pipefail
. "$(dirname "$0")/guest/splat.sh"

bad=0
while IFS= read -r line; do
	rdmaoot_splat_first "$line"
	[ -n "$RDMAOOT_SPLAT" ] || { echo "error: not reported: $line"; bad=1; }
done <<'LINES'
WARNING: CPU: 0 PID: 412 at core/device/register.c:88 ib_register_device+0x1c/0x90 [ib_core]
BUG: KASAN: slab-use-after-free in rxe_comp_queue_pkt+0x2a/0x60 [rdma_rxe]
BUG: kernel NULL pointer dereference, address: 0000000000000008
general protection fault, probably for non-canonical address 0xdffffc0000000002: 0000 [#1] PREEMPT SMP KASAN NOPTI
general protection fault: 0000 [#1] SMP NOPTI
segment-related general protection fault: 0000 [#1] SMP
UBSAN: shift-out-of-bounds in core/cm/cm_timer.c:40:12
Oops: 0000 [#1] PREEMPT SMP NOPTI
Kernel panic - not syncing: Fatal exception
INFO: task kworker/0:1:51 blocked for more than 120 seconds.
possible circular locking dependency detected
WARNING: possible recursive locking detected
inconsistent lock state
suspicious RCU usage
rcu: INFO: rcu_preempt self-detected stall on CPU
kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
refcount_t: underflow; use-after-free.
LINES

while IFS= read -r line; do
	rdmaoot_splat_first "$line"
	[ -z "$RDMAOOT_SPLAT" ] || { echo "error: reported, though not the kernel's fault: $line"; bad=1; }
done <<'LINES'
traps: ib_write_bw[297] general protection fault ip:7f0affce95a9 sp:7fffda41c370 error:0 in librdmacm.so.1.3.44.0[7f0affce3000+15000]
rping[812]: segfault at 8 ip 00007f2a1c0e12b4 sp 00007ffc3b1f0e40 error 4 in librdmacm.so.1.3.44.0[7f2a1c0dc000+15000]
rdma_rxe: loaded
rdmaoot: PASS tests/070-rxe-link
LINES
exit $bad
