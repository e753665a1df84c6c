#!/usr/bin/env bash
# scripts/check-headers.sh TOP KDIR - fail when anything we compiled read a
# header from the target kernel's include/rdma/ instead of our own copy.
#
# Kbuild records every header a object depended on in its .<obj>.cmd file;
# include/uapi/rdma (the userspace ABI) is expected to come from the kernel.
set -euo pipefail
top=$1
kdir=$2
cmds=$(find "$top" \( -path "$top/.git" -o -path "$top/build" \) -prune -o -name '.*.o.cmd' -print)
[ -n "$cmds" ] || { echo "error: no .*.o.cmd files under $top: nothing was built?" >&2; exit 1; }
bad=$(echo "$cmds" | tr '\n' '\0' |
	xargs -0 -r grep -ho '[^ ]*/include/rdma/[^ :\\]*' |
	grep -v "^$top/include/rdma/" | sort -u || true)
if [ -n "$bad" ]; then
	echo "error: these target-kernel headers were used instead of ours:" >&2
	echo "$bad" | sed 's/^/  /' >&2
	echo "(kernel tree: $kdir)" >&2
	exit 1
fi
