#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen-cm-vectors.py - turn CM MADs captured from the inbox stack into
kunit/cm/cm_vectors.h, the known answers of the ib_cm_msg KUnit suite
(the captures: kunit/cm/vectors/, made by scripts/record-cm-vectors.sh).

Every RoCEv2 UD SEND_ONLY to QP1 whose MAD is of the CM class (0x07) in
the given captures becomes one entry: the capture, the packet number, the
IPv4 source and destination and the 256 bytes of the MAD. Only the Python
standard library is used.

    scripts/gen-cm-vectors.py [OUTPUT] PCAP...
    scripts/gen-cm-vectors.py --list PCAP...

--list prints one line per CM MAD instead: the capture, the packet
number, source > destination, the message and what tells its kind of
exchange apart (REJ reason, MRA's message, SIDR REP status), e.g.

    mra.pcap 4 10.88.0.1 > 10.88.0.2 MRA mraed=0 timeout=24
"""
import os
import struct
import sys

DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           '..', 'kunit', 'cm', 'cm_vectors.h')
UD_SEND_ONLY = 0x64
ROCE_PORT = 4791


def packets(path):
    """(number, frame) of each Ethernet frame of a classic pcap file."""
    data = open(path, 'rb').read()
    magic = struct.unpack('<I', data[:4])[0]
    endian = '<' if magic == 0xa1b2c3d4 else '>'
    if struct.unpack(endian + 'I', data[20:24])[0] != 1:
        sys.exit('%s: not an Ethernet capture' % path)
    off, n = 24, 0
    while off + 16 <= len(data):
        incl = struct.unpack(endian + 'I', data[off + 8:off + 12])[0]
        off += 16
        n += 1
        yield n, data[off:off + incl]
        off += incl


def cm_mad(frame):
    """(src, dst, mad) when @frame carries a CM MAD to QP1, else None."""
    if len(frame) < 14 + 20 or frame[12:14] != b'\x08\x00':
        return None
    ip = frame[14:]
    ihl = (ip[0] & 15) * 4
    if ip[9] != 17:
        return None
    udp = ip[ihl:]
    if struct.unpack('>H', udp[2:4])[0] != ROCE_PORT:
        return None
    bth = udp[8:]
    if bth[0] != UD_SEND_ONLY or bth[5:8] != b'\x00\x00\x01':
        return None
    mad = bth[12 + 8:12 + 8 + 256]
    if len(mad) != 256 or mad[1] != 0x07:
        return None
    return ip[12:16], ip[16:20], mad


KINDS = ['REQ', 'MRA', 'REJ', 'REP', 'RTU', 'DREQ', 'DREP', 'SIDR_REQ',
         'SIDR_REP', 'LAP', 'APR']


def describe(mad):
    """The message kind of @mad and its telling fields, as text."""
    attr = struct.unpack('>H', mad[16:18])[0]
    if not 0x10 <= attr <= 0x1a:
        return 'attr=0x%x' % attr
    kind = KINDS[attr - 0x10]
    body = mad[24:]
    if kind == 'REJ':
        return 'REJ rejected=%d reason=%d' % (
            body[8] >> 6, struct.unpack('>H', body[10:12])[0])
    if kind == 'MRA':
        return 'MRA mraed=%d timeout=%d' % (body[8] >> 6, body[9] >> 3)
    if kind == 'SIDR_REP':
        return 'SIDR_REP status=%d' % body[4]
    return kind


def list_mads(paths):
    for path in paths:
        for n, frame in packets(path):
            got = cm_mad(frame)
            if got:
                src, dst, mad = got
                print('%s %d %s > %s %s' % (
                    os.path.basename(path), n, '.'.join(map(str, src)),
                    '.'.join(map(str, dst)), describe(mad)))


def main():
    args = sys.argv[1:]
    if args and args[0] == '--list':
        list_mads(args[1:])
        return
    out = DEFAULT_OUT
    if args and not args[0].endswith('.pcap'):
        out = args.pop(0)
    if not args:
        sys.exit(__doc__)
    rows = []
    for path in args:
        for n, frame in packets(path):
            got = cm_mad(frame)
            if got:
                rows.append((os.path.basename(path), n) + got)
    with open(out, 'w') as f:
        f.write('/* SPDX-License-Identifier: GPL-2.0-only */\n')
        f.write('/*\n * cm_vectors.h - CM MADs recorded from the inbox RDMA stack\n')
        f.write(' * (Debian 6.1 stock kernel, rdma_cm over the inbox soft-RoCE).\n *\n')
        f.write(' * GENERATED FILE, do not edit. Made by\n')
        f.write(' *     scripts/gen-cm-vectors.py %s\n' %
                ' '.join(os.path.basename(a) for a in args))
        f.write(' * (%d MADs; the captures are in kunit/cm/vectors/, its README.md\n'
                ' * says how each was made).\n */\n' % len(rows))
        f.write('#ifndef RDMAOOT_KUNIT_CM_CM_VECTORS_H\n#define RDMAOOT_KUNIT_CM_CM_VECTORS_H\n\n')
        f.write('#include <linux/types.h>\n\n')
        f.write('struct cm_vec {\n\tconst char *file;\t/* capture file name */\n'
                '\tu16 index;\t\t/* packet number in the file, from 1 */\n'
                '\tu8 src_ip[4];\t\t/* IPv4 source of the packet */\n'
                '\tu8 dst_ip[4];\n\tu8 mad[256];\n};\n\n')
        f.write('static const struct cm_vec cm_vecs[] = {\n')
        for name, n, src, dst, mad in rows:
            f.write('\t{\n\t\t.file = "%s", .index = %d,\n' % (name, n))
            f.write('\t\t.src_ip = { %s },\n' % ', '.join('%d' % b for b in src))
            f.write('\t\t.dst_ip = { %s },\n' % ', '.join('%d' % b for b in dst))
            f.write('\t\t.mad = {\n')
            for i in range(0, 256, 12):
                f.write('\t\t\t' + ' '.join('0x%02x,' % b for b in mad[i:i + 12]) + '\n')
            f.write('\t\t},\n\t},\n')
        f.write('};\n\n#endif /* RDMAOOT_KUNIT_CM_CM_VECTORS_H */\n')


if __name__ == '__main__':
    main()
