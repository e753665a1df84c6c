#!/usr/bin/env bash
# scripts/stock-kernel.sh - fetch Debian's stock kernel image (never installed
# on the host): apt-get download + dpkg -x into the cache, then depmod the
# unpacked module tree. Prints the unpacked root (boot/, lib/modules/<kver>).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kver=$(rdmaoot_stock_kver) || rdmaoot_die "cannot resolve the stock kernel (is linux-headers-amd64 installed?)"
dir="$RDMAOOT_CACHE/stock-$kver"
mkdir -p "$RDMAOOT_CACHE"
exec 9>"$RDMAOOT_CACHE/.stock-kernel.lock"
flock 9
if [ -f "$dir/.unpacked" ]; then
	echo "$dir"
	exit 0
fi
dl="$RDMAOOT_CACHE/dl"
mkdir -p "$dl"
if ! ls "$dl"/linux-image-"$kver"_*.deb >/dev/null 2>&1; then
	rdmaoot_log "downloading linux-image-$kver"
	(cd "$dl" && apt-get download "linux-image-$kver" >/dev/null 2>&1) ||
		rdmaoot_die "apt-get download linux-image-$kver failed"
fi
rm -rf "$dir"
mkdir -p "$dir"
dpkg -x "$(ls "$dl"/linux-image-"$kver"_*.deb | head -n1)" "$dir"
# Debian ships no modules.dep; usr-merge may put modules under usr/lib.
[ -d "$dir/lib/modules/$kver" ] || { mkdir -p "$dir/lib"; ln -s ../usr/lib/modules "$dir/lib/modules"; }
depmod -b "$dir" "$kver"
touch "$dir/.unpacked"
echo "$dir"
