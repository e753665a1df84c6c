#!/bin/bash
# Guest side of `make demo`: load our stack on the stock kernel and show it.
step() { printf '\n### %s\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

step "kernel"
run uname -r
step "modprobe resolves ib_core to our build, not the inbox one"
run modinfo -F filename ib_core
run modprobe -v ib_core
run grep -E '^ib_core ' /proc/modules
step "what ib_core exports today"
sed -n 's/^alias symbol:\(.*\) ib_core$/  \1/p' "/lib/modules/$(uname -r)/modules.symbols" | sort
step "kernel log"
dmesg | grep -iE 'ib_core|rdma' | tail -n 5
step "unload"
run modprobe -r ib_core
echo "ib_core loaded: $([ -d /sys/module/ib_core ] && echo yes || echo no)"
