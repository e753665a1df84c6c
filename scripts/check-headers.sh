#!/usr/bin/env bash
# scripts/check-headers.sh TOP KDIR - fail when anything we compiled read a
# header from the target kernel's include/rdma/ instead of our own copy.
#
# Kbuild records every header a object depended on in its .<obj>.cmd file;
# include/uapi/rdma (the userspace ABI) is expected to come from the kernel.
set -euo pipefail
top=$1
kdir=$2
bad=$(find "$top" -path "$top/.git" -prune -o -name '.*.o.cmd' -print0 |
	xargs -0 -r grep -ho '[^ ]*/include/rdma/[^ :\\]*' |
	grep -v "^$top/include/rdma/" | sort -u || true)
if [ -n "$bad" ]; then
	echo "error: these target-kernel headers were used instead of ours:" >&2
	echo "$bad" | sed 's/^/  /' >&2
	echo "(kernel tree: $kdir)" >&2
	exit 1
fi
