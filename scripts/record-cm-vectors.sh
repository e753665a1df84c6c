#!/usr/bin/env bash
# scripts/record-cm-vectors.sh [--trim-only] - record the inbox stack's CM
# MADs again and rebuild the ib_cm_msg suite's known answers from them.
#
#   1. runs the interop pair with only interop/record/cm-vectors (never part
#      of a plain `make check`): both guests on the inbox stack, one capture
#      per exchange (scripts/interop/record/cm-vectors.sh says which);
#   2. keeps only the CM MADs of each capture (RoCE v2 UD to QP1, checked
#      with tshark's InfiniBand dissector) in kunit/cm/vectors/NAME.pcap, and
#      the versions the guests ran in kunit/cm/vectors/versions.txt;
#   3. regenerates kunit/cm/cm_vectors.h (scripts/gen-cm-vectors.py).
# --trim-only skips step 1 and takes what the last run left in
# build/out-pair/ours/share/logs/. The recordings differ from run to run in
# their per-connection values (comm IDs, QPNs, PSNs, TIDs, ports), which
# kunit/cm/cm_msg_test.c states: update it with the new ones.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$RDMAOOT_TOP"

LOGS=build/out-pair/ours/share/logs
DEST=kunit/cm/vectors
NAMES="rping rej-nolistener rej-consumer mra sidr sidr-nolistener"

if [ "${1:-}" != --trim-only ]; then
	rm -f "$LOGS"/cmvec-*
	t0=$(date +%s)
	RDMAOOT_KINDS=pair RDMAOOT_TESTS=interop/record/cm-vectors make check || true
	echo "recording run: $(($(date +%s) - t0)) s"
	grep -q '^PASS interop/record/cm-vectors ' build/out-pair/ours/share/units.txt ||
		rdmaoot_die "the recording failed, see $LOGS/record-cm-vectors.log"
fi

command -v tshark > /dev/null || rdmaoot_die "tshark is needed to trim the captures"
mkdir -p "$DEST"
for n in $NAMES; do
	[ -s "$LOGS/cmvec-$n.pcap" ] || rdmaoot_die "no $LOGS/cmvec-$n.pcap"
	tshark -r "$LOGS/cmvec-$n.pcap" -F pcap -w "$DEST/$n.pcap" \
		-Y 'udp.port == 4791 && infiniband.bth.destqp == 1 && infiniband.mad.mgmtclass == 0x07'
	python3 scripts/gen-cm-vectors.py --list "$DEST/$n.pcap"
done
cp "$LOGS/cmvec-versions.txt" "$DEST/versions.txt"
# rping-3.pcap, an older recording of the same kind (its README entry),
# stays among them.
# shellcheck disable=SC2046
python3 scripts/gen-cm-vectors.py $(for n in rping-3 $NAMES; do echo "$DEST/$n.pcap"; done)
echo "regenerated kunit/cm/cm_vectors.h"
