#!/usr/bin/env bash
# scripts/deps.sh - install the Debian packages that building and testing
# need, if any is missing. Safe to run repeatedly; does nothing when all
# are present. Needs root (or sudo).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkgs=(
	build-essential bc bison flex libelf-dev libssl-dev dwarves rsync
	xz-utils cpio kmod sparse python3
	linux-headers-amd64
	qemu-system-x86 busybox-static
	iproute2 procps tshark
	rdmacm-utils ibverbs-providers ibverbs-utils python3-pyverbs perftest
	infiniband-diags
	tcpdump strace
	nfs-kernel-server nfs-common rpcbind
	nvme-cli fio open-iscsi
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
rdmaoot_log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
