# scripts/lib.sh - shared paths and helpers for the build and test scripts.
# Sourced, never run. Everything cached lives under $RDMAOOT_CACHE.

RDMAOOT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RDMAOOT_CACHE=${RDMAOOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdmaoot}
export RDMAOOT_TOP RDMAOOT_CACHE

rdmaoot_log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
rdmaoot_die() { rdmaoot_log "error: $*"; exit 1; }

# Release string of Debian's stock kernel, resolved through the meta-package
# linux-headers-amd64 (so it follows security updates, never hard-coded).
rdmaoot_stock_kver() {
	local dep
	if [ -n "${STOCK_KVER:-}" ]; then echo "$STOCK_KVER"; return; fi
	dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	      grep -o 'linux-headers-[0-9][^ ,]*-amd64' | head -n1)
	[ -n "$dep" ] || dep=$(apt-cache depends linux-headers-amd64 2>/dev/null |
	      grep -o 'linux-headers-[0-9][^ ,]*-amd64' | head -n1)
	[ -n "$dep" ] || return 1
	echo "${dep#linux-headers-}"
}

# Where the extracted stock kernel image and its modules live.
rdmaoot_stock_dir() { echo "$RDMAOOT_CACHE/stock-$(rdmaoot_stock_kver)"; }

# Debug kernel: the cache key is the linux-source-6.1 version plus a hash
# of the config fragment, so editing the fragment rebuilds it.
rdmaoot_source_version() {
	apt-cache policy linux-source-6.1 2>/dev/null | awk '/Candidate:/ {print $2; exit}'
}
rdmaoot_debug_dir() {
	local ver frag
	ver=$(rdmaoot_source_version)
	frag=$(sha256sum "$RDMAOOT_TOP/scripts/debug-kernel.config" | cut -c1-12)
	echo "$RDMAOOT_CACHE/debug-${ver}-${frag}"
}

# rdmaoot_sync_src KIND: mirror the work tree into build/KIND/src (mtimes
# kept, so rebuilds stay incremental) and print that folder. Building in a
# copy lets the stock and debug kernels' objects live side by side. What
# .gitignore names (the objects of the last build) is neither copied nor
# deleted from the copy: --delete alone would remove every object and
# make each run a full rebuild.
rdmaoot_sync_src() {
	local src="$RDMAOOT_TOP/build/$1/src"
	mkdir -p "$src"
	rsync -a --delete --exclude=/build --exclude=/.git \
		--exclude-from="$RDMAOOT_TOP/.gitignore" \
		"$RDMAOOT_TOP/" "$src/"
	echo "$src"
}
