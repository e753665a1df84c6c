#!/usr/bin/env bash
# scripts/stock-kver.sh - print the release of Debian's stock kernel
# (linux-headers-amd64's current dependency), e.g. 6.1.0-56-amd64.
. "$(dirname "$0")/lib.sh"
rdmaoot_stock_kver
