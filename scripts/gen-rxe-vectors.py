#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen-rxe-vectors.py - turn the recorded upstream soft-RoCE captures into
kunit/rxe/rxe_vectors.h, the known-answer packets of the rxe_icrc KUnit suite.

Every RoCEv2 packet of every pcap in the vector directory becomes one entry:
its bytes from the IP header to the ICRC and the fields this script's own
decode finds in it (its own opcode knowledge, not the driver's table). One
synthetic IPv6 packet, whose ICRC this script computes, is appended, since
no IPv6 capture exists. Only the Python standard library is used.

    scripts/gen-rxe-vectors.py [VECTOR_DIR [OUTPUT]]
"""
import glob
import os
import struct
import sys
import zlib

DEFAULT_DIR = '/work/shared/vectors/upstream-rxe'
DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           '..', 'kunit', 'rxe', 'rxe_vectors.h')

LINK_ETHERNET = 1
LINK_LINUX_SLL = 113
LINK_LINUX_SLL2 = 276

# Extension headers in wire order: name, size, bit in rxe_vec.hdrs.
HEADERS = [('RETH', 16), ('AETH', 4), ('ATMETH', 28), ('ATMACK', 8),
           ('DETH', 8), ('IMMDT', 4), ('IETH', 4)]

# Low five opcode bits (RC/UC/RD/UD share them) -> extension headers.
OP_HEADERS = {
    0x00: (), 0x01: (), 0x02: (), 0x03: ('IMMDT',), 0x04: (),
    0x05: ('IMMDT',),
    0x06: ('RETH',), 0x07: (), 0x08: (), 0x09: ('IMMDT',),
    0x0a: ('RETH',), 0x0b: ('RETH', 'IMMDT'),
    0x0c: ('RETH',), 0x0d: ('AETH',), 0x0e: (), 0x0f: ('AETH',),
    0x10: ('AETH',), 0x11: ('AETH',), 0x12: ('AETH', 'ATMACK'),
    0x13: ('ATMETH',), 0x14: ('ATMETH',),
    0x16: ('IETH',), 0x17: ('IETH',),
}
TRANSPORT_UD = 3


def pcap_records(path):
    """Yield (linktype, frame bytes) of a classic pcap file."""
    data = open(path, 'rb').read()
    magic = data[:4]
    if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
        end = '<'
    elif magic in (b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
        end = '>'
    else:
        raise ValueError('%s: not a classic pcap file' % path)
    linktype = struct.unpack(end + 'I', data[20:24])[0] & 0x0fffffff
    off = 24
    while off + 16 <= len(data):
        caplen, origlen = struct.unpack(end + 'II', data[off + 8:off + 16])
        off += 16
        if caplen != origlen:
            raise ValueError('%s: truncated capture' % path)
        yield linktype, data[off:off + caplen]
        off += caplen


def ip_of_frame(linktype, frame):
    """The bytes from the IP header on, or None when not IP."""
    if linktype == LINK_ETHERNET:
        proto, off = struct.unpack('>H', frame[12:14])[0], 14
        while proto == 0x8100:
            proto, off = struct.unpack('>H', frame[off + 2:off + 4])[0], off + 4
    elif linktype == LINK_LINUX_SLL:
        proto, off = struct.unpack('>H', frame[14:16])[0], 16
    elif linktype == LINK_LINUX_SLL2:
        proto, off = struct.unpack('>H', frame[0:2])[0], 20
    else:
        raise ValueError('link type %d not supported' % linktype)
    if proto not in (0x0800, 0x86dd):
        return None
    return frame[off:]


def udp_of_ip(ip):
    """(IP header length, IP bytes trimmed to the datagram) or None."""
    if ip[0] >> 4 == 4:
        ihl = (ip[0] & 0xf) * 4
        total = struct.unpack('>H', ip[2:4])[0]
        if ip[9] != 17:
            return None
        return ihl, ip[:total]
    if ip[0] >> 4 == 6 and ip[6] == 17:
        return 40, ip[:40 + struct.unpack('>H', ip[4:6])[0]]
    return None


def icrc(ip, ihl):
    """Invariant CRC of a RoCEv2 datagram (IP header on), CPU-order value."""
    hdr = bytearray(ip[:ihl])
    if hdr[0] >> 4 == 4:
        hdr[1] = 0xff
        hdr[8] = 0xff
        hdr[10:12] = b'\xff\xff'
    else:
        hdr[0] |= 0x0f
        hdr[1:4] = b'\xff\xff\xff'
        hdr[7] = 0xff
    udp = bytearray(ip[ihl:ihl + 8])
    udp[6:8] = b'\xff\xff'
    rest = bytearray(ip[ihl + 8:-4])
    rest[4] = 0xff
    return zlib.crc32(b'\xff' * 8 + bytes(hdr) + bytes(udp) + bytes(rest))


def be(b):
    return int.from_bytes(b, 'big')


def decode(ip, ihl):
    """The fields of one RoCEv2 packet, as a dict."""
    bth = ip[ihl + 8:]
    op = bth[0]
    f = {'opcode': op, 'pad': (bth[1] >> 4) & 3, 'tver': bth[1] & 0xf,
         'qpn': be(bth[5:8]), 'ackreq': bth[8] >> 7, 'psn': be(bth[9:12]),
         'hdrs': [], 'icrc': struct.unpack('<I', ip[-4:])[0]}
    names = list(OP_HEADERS[op & 0x1f])
    if op >> 5 == TRANSPORT_UD:
        names.append('DETH')
    off = 12
    for name, size in HEADERS:
        if name not in names:
            continue
        f['hdrs'].append(name)
        h = bth[off:off + size]
        off += size
        if name == 'RETH':
            f['reth_va'], f['reth_rkey'], f['reth_len'] = \
                be(h[0:8]), be(h[8:12]), be(h[12:16])
        elif name == 'AETH':
            f['aeth_syn'], f['aeth_msn'] = h[0], be(h[1:4])
        elif name == 'ATMETH':
            f['atm_va'], f['atm_rkey'], f['atm_swap_add'], f['atm_comp'] = \
                be(h[0:8]), be(h[8:12]), be(h[12:20]), be(h[20:28])
        elif name == 'ATMACK':
            f['atmack_orig'] = be(h)
        elif name == 'DETH':
            f['deth_qkey'], f['deth_sqp'] = be(h[0:4]), be(h[5:8])
        elif name == 'IMMDT':
            f['imm'] = be(h)
        elif name == 'IETH':
            f['ieth_rkey'] = be(h)
    udp_len = struct.unpack('>H', ip[ihl + 4:ihl + 6])[0]
    f['bth_len'] = udp_len - 8
    f['payload_len'] = f['bth_len'] - off - f['pad'] - 4
    return f


def synthetic_ipv6():
    """An RC SEND_ONLY with immediate over IPv6 with non-trivial masked
    fields (traffic class 0xa4, flow label 0x5b3c1, hop limit 17)."""
    payload = bytes((5 * i + 3) & 0xff for i in range(37))
    pad = (-len(payload)) % 4
    bth = bytes([0x05, pad << 4, 0xff, 0xff, 0x40, 0x00, 0x01, 0x23,
                 0x80, 0xab, 0xcd, 0xef])
    body = bth + b'\x12\x34\x56\x78' + payload + bytes(pad)
    udp_len = 8 + len(body) + 4
    udp = struct.pack('>HHHH', 0xc123, 4791, udp_len, 0x1d2e)
    vtcfl = (6 << 28) | (0xa4 << 20) | 0x5b3c1
    src = bytes.fromhex('fd000000000000000000000000000001')
    dst = bytes.fromhex('fd000000000000000000000000000002')
    ip6 = struct.pack('>IHBB', vtcfl, udp_len, 17, 17) + src + dst
    pkt = ip6 + udp + body + b'\0\0\0\0'
    return pkt[:-4] + struct.pack('<I', icrc(pkt, 40))


def collect(vdir):
    out = []
    for path in sorted(glob.glob(os.path.join(vdir, '*.pcap'))):
        name = os.path.basename(path)
        for n, (linktype, frame) in enumerate(pcap_records(path), 1):
            ip = ip_of_frame(linktype, frame)
            u = ip and udp_of_ip(ip)
            if not u or struct.unpack('>H', u[1][u[0] + 2:u[0] + 4])[0] != 4791:
                continue
            ihl, ip = u
            f = decode(ip, ihl)
            if f['icrc'] != icrc(ip, ihl):
                raise ValueError('%s #%d: bad ICRC in a vector' % (name, n))
            out.append((name, n, ip, f))
    ip6 = synthetic_ipv6()
    out.append(('synthetic-ipv6', 1, ip6, decode(ip6, 40)))
    return out


HEADER_TOP = '''\
/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe_vectors.h - RoCEv2 packets recorded from the upstream soft-RoCE driver
 * (Debian 6.1 stock kernel), with the fields an independent decode found.
 *
 * GENERATED FILE, do not edit. Made by
 *     scripts/gen-rxe-vectors.py %(vdir)s
 * from the %(nfiles)d captures in that directory (%(npkts)d packets; see its
 * README.md), plus one synthetic IPv6 packet whose ICRC the script
 * computed (file "synthetic-ipv6"). @frame starts at the IP header and ends
 * with the ICRC; every ICRC was verified by the script before writing.
 */
#ifndef RXE_VECTORS_H
#define RXE_VECTORS_H

#include <linux/types.h>

/* Bits of rxe_vec.hdrs: the extension headers the decode found. */
%(hdr_bits)s

struct rxe_vec {
	const char *file;	/* capture file name */
	u16 index;		/* packet number in the file, from 1 */
	u16 len;		/* bytes of @frame */
	const u8 *frame;	/* IP header .. ICRC */
	u8 opcode;
	u8 ackreq;
	u8 pad;
	u8 aeth_syn;
	u32 hdrs;		/* RXE_VEC_* */
	u32 qpn;
	u32 psn;
	u32 bth_len;		/* BTH .. ICRC, from the UDP length */
	u32 payload_len;
	u64 reth_va;
	u32 reth_rkey;
	u32 reth_len;
	u32 aeth_msn;
	u32 deth_qkey;
	u32 deth_sqp;
	u32 imm;		/* ImmDt as a big-endian number */
	u32 ieth_rkey;
	u64 atm_va;
	u32 atm_rkey;
	u64 atm_swap_add;
	u64 atm_comp;
	u64 atmack_orig;
	u32 icrc;		/* the stored ICRC, as a number */
};
'''

FIELDS = ['opcode', 'ackreq', 'pad', 'aeth_syn', 'qpn', 'psn', 'bth_len',
          'payload_len', 'reth_va', 'reth_rkey', 'reth_len', 'aeth_msn',
          'deth_qkey', 'deth_sqp', 'imm', 'ieth_rkey', 'atm_va', 'atm_rkey',
          'atm_swap_add', 'atm_comp', 'atmack_orig', 'icrc']
U64 = {'reth_va', 'atm_va', 'atm_swap_add', 'atm_comp', 'atmack_orig'}


def c_bytes(data):
    lines = []
    for i in range(0, len(data), 16):
        lines.append('\t"' + ''.join('\\x%02x' % b for b in data[i:i + 16]) + '"')
    return '\n'.join(lines) if lines else '\t""'


def render(vdir, vecs):
    files = {v[0] for v in vecs if v[0] != 'synthetic-ipv6'}
    bits = '\n'.join('#define RXE_VEC_%-8s 0x%02x' % (name, 1 << i)
                     for i, (name, _) in enumerate(HEADERS))
    out = [HEADER_TOP % {'vdir': vdir, 'nfiles': len(files),
                         'npkts': len(vecs) - 1, 'hdr_bits': bits}]
    for i, (_, _, ip, _) in enumerate(vecs):
        out.append('\nstatic const u8 rxe_vec_frame_%d[] =\n%s;\n'
                   % (i, c_bytes(ip)))
    out.append('\nstatic const struct rxe_vec rxe_vectors[] = {\n')
    for i, (name, n, ip, f) in enumerate(vecs):
        hdrs = ' | '.join('RXE_VEC_' + h for h in f['hdrs']) or '0'
        vals = ''.join('\t\t.%s = 0x%x%s,\n' % (k, f[k], 'ULL' if k in U64 else '')
                       for k in FIELDS if f.get(k))
        out.append('\t{\n\t\t.file = "%s", .index = %d, .len = %d,\n'
                   '\t\t.frame = rxe_vec_frame_%d,\n\t\t.hdrs = %s,\n%s\t},\n'
                   % (name, n, len(ip), i, hdrs, vals))
    out.append('};\n\n#endif /* RXE_VECTORS_H */\n')
    return ''.join(out)


def main():
    vdir = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_DIR
    dest = sys.argv[2] if len(sys.argv) > 2 else DEFAULT_OUT
    vecs = collect(vdir)
    if len(vecs) < 2:
        sys.exit('%s: no RoCEv2 packets found' % vdir)
    with open(dest, 'w') as fh:
        fh.write(render(vdir, vecs))
    print('%s: %d packets' % (os.path.normpath(dest), len(vecs)))


if __name__ == '__main__':
    main()
