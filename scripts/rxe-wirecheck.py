#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""rxe-wirecheck.py - check RoCEv2 captures of our rdma_rxe against the wire
format, independently of the driver's own code.

    scripts/rxe-wirecheck.py [--allow-empty] [-v] PCAP...

For every UDP/4791 packet of each capture (classic pcap or pcapng; Ethernet,
optionally VLAN-tagged, or Linux cooked capture v1/v2; IPv4 or IPv6) the
invariant CRC is recomputed here (zlib's CRC-32 is the ICRC's CRC) and
compared with the packet's last four bytes. When tshark is installed, it
dissects the file too and any packet it calls malformed is a failure
(RPC-over-RDMA's heuristic dissector is disabled: it misreads tiny SEND
payloads). One summary line is printed per file; the exit status is 1 if
any file has a bad ICRC, a malformed or truncated packet, no RoCEv2 packet
at all (unless --allow-empty) or cannot be read, else 0.
Only the Python standard library is needed.
"""
import argparse
import shutil
import struct
import subprocess
import sys
import zlib

ROCE_PORT = 4791
BTH_LEN = 12
ICRC_LEN = 4

LINK_ETHERNET = 1
LINK_LINUX_SLL = 113
LINK_LINUX_SLL2 = 276

ETH_IPV4 = 0x0800
ETH_IPV6 = 0x86dd
ETH_VLANS = (0x8100, 0x88a8)


class CaptureError(Exception):
    pass


# --- reading captures ----------------------------------------------------

def classic_pcap(data):
    """Yield (number, linktype, frame, truncated) of a classic pcap."""
    end = '<' if data[:4] in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1') else '>'
    if len(data) < 24:
        raise CaptureError('short pcap file header')
    linktype = struct.unpack(end + 'I', data[20:24])[0] & 0x0fffffff
    off, n = 24, 0
    while off + 16 <= len(data):
        caplen, origlen = struct.unpack(end + 'II', data[off + 8:off + 16])
        off += 16
        if off + caplen > len(data):
            raise CaptureError('record %d runs past the end of the file' % (n + 1))
        n += 1
        yield n, linktype, data[off:off + caplen], caplen < origlen
        off += caplen
    if off != len(data):
        raise CaptureError('file cut short after record %d' % n)


def pcapng(data):
    """Yield (number, linktype, frame, truncated) of a pcapng file."""
    off, n, end, links = 0, 0, '<', []
    while off + 12 <= len(data):
        btype = struct.unpack(end + 'I', data[off:off + 4])[0]
        if btype == 0x0a0d0d0a:
            end = '<' if data[off + 8:off + 12] == b'\x4d\x3c\x2b\x1a' else '>'
            links = []
        blen = struct.unpack(end + 'I', data[off + 4:off + 8])[0]
        if blen < 12 or off + blen > len(data):
            raise CaptureError('bad pcapng block at offset %d' % off)
        body = data[off + 8:off + blen - 4]
        off += blen
        if btype == 1:			# interface description
            links.append(struct.unpack(end + 'H', body[0:2])[0])
        elif btype in (2, 6):		# (obsolete) enhanced packet
            ifc = struct.unpack(end + 'H' if btype == 2 else end + 'I',
                                body[0:2] if btype == 2 else body[0:4])[0]
            caplen, origlen = struct.unpack(end + 'II', body[12:20])
            n += 1
            yield n, links[ifc], body[20:20 + caplen], caplen < origlen
        elif btype == 3:		# simple packet
            origlen = struct.unpack(end + 'I', body[0:4])[0]
            frame = body[4:4 + origlen]
            n += 1
            yield n, links[0], frame, len(frame) < origlen
    if off != len(data):
        raise CaptureError('file cut short after record %d' % n)


def read_capture(path):
    with open(path, 'rb') as fh:
        data = fh.read()
    if data[:4] == b'\x0a\x0d\x0d\x0a':
        records = pcapng
    elif data[:4] in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1',
                      b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
        records = classic_pcap
    else:
        raise CaptureError('neither pcap nor pcapng')
    try:
        return list(records(data))
    except (IndexError, struct.error) as err:
        raise CaptureError('damaged capture: %s' % err)


# --- dissecting ----------------------------------------------------------

def network_layer(linktype, frame):
    """(ethertype, bytes from the network header on)."""
    if linktype == LINK_ETHERNET:
        proto, off = struct.unpack('>H', frame[12:14])[0], 14
        while proto in ETH_VLANS:
            proto = struct.unpack('>H', frame[off + 2:off + 4])[0]
            off += 4
    elif linktype == LINK_LINUX_SLL:
        proto, off = struct.unpack('>H', frame[14:16])[0], 16
    elif linktype == LINK_LINUX_SLL2:
        proto, off = struct.unpack('>H', frame[0:2])[0], 20
    else:
        raise CaptureError('link type %d not supported' % linktype)
    return proto, frame[off:]


def roce_datagram(linktype, frame):
    """(IP header length, IP packet trimmed to its length) of a UDP/4791
    packet, or None for anything else. Raises ValueError on a RoCEv2
    packet that cannot be checked."""
    proto, ip = network_layer(linktype, frame)
    if proto == ETH_IPV4 and len(ip) >= 20 and ip[0] >> 4 == 4:
        ihl = (ip[0] & 0xf) * 4
        if ip[9] != 17 or len(ip) < ihl + 8:
            return None
        total = struct.unpack('>H', ip[2:4])[0]
        fragmented = struct.unpack('>H', ip[6:8])[0] & 0x3fff
    elif proto == ETH_IPV6 and len(ip) >= 48 and ip[0] >> 4 == 6:
        ihl = 40
        if ip[6] != 17:
            return None
        total = 40 + struct.unpack('>H', ip[4:6])[0]
        fragmented = 0
    else:
        return None
    if struct.unpack('>H', ip[ihl + 2:ihl + 4])[0] != ROCE_PORT:
        return None
    if fragmented:
        raise ValueError('IP fragment')
    if len(ip) < total:
        raise ValueError('captured %d of %d IP bytes' % (len(ip), total))
    udp_len = struct.unpack('>H', ip[ihl + 4:ihl + 6])[0]
    if udp_len != total - ihl:
        raise ValueError('UDP length %d, IP says %d' % (udp_len, total - ihl))
    if udp_len < 8 + BTH_LEN + ICRC_LEN:
        raise ValueError('UDP payload of %d bytes cannot hold BTH and ICRC'
                         % (udp_len - 8))
    return ihl, ip[:total]


def icrc_of(ihl, ip):
    """The ICRC the datagram should carry (IP header through payload)."""
    iphdr = bytearray(ip[:ihl])
    if ihl == 40 and iphdr[0] >> 4 == 6:
        iphdr[0] |= 0x0f			# traffic class (high nibble)
        iphdr[1:4] = b'\xff\xff\xff'	# traffic class, flow label
        iphdr[7] = 0xff			# hop limit
    else:
        iphdr[1] = 0xff			# TOS
        iphdr[8] = 0xff			# TTL
        iphdr[10:12] = b'\xff\xff'	# header checksum
    udp = bytearray(ip[ihl:ihl + 8])
    udp[6:8] = b'\xff\xff'		# UDP checksum
    bth = bytearray(ip[ihl + 8:ihl + 8 + BTH_LEN])
    bth[4] = 0xff			# FECN, BECN, reserved
    crc = zlib.crc32(b'\xff' * 8)
    for part in (iphdr, udp, bth, ip[ihl + 8 + BTH_LEN:-ICRC_LEN]):
        crc = zlib.crc32(part, crc)
    return crc & 0xffffffff


# --- checking ------------------------------------------------------------

def check_icrc(path, verbose):
    """(RoCEv2 packets, ICRC good, problems as strings)."""
    total, good, problems = 0, 0, []
    for n, linktype, frame, truncated in read_capture(path):
        try:
            dgram = roce_datagram(linktype, frame)
            if dgram and truncated:
                raise ValueError('truncated by the capture snap length')
        except (ValueError, IndexError, struct.error) as err:
            total += 1
            problems.append('frame %d: %s' % (n, err))
            continue
        if not dgram:
            continue
        total += 1
        ihl, ip = dgram
        want = icrc_of(ihl, ip)
        got = struct.unpack('<I', ip[-ICRC_LEN:])[0]
        if got == want:
            good += 1
        else:
            problems.append('frame %d: opcode 0x%02x ICRC 0x%08x, expected 0x%08x'
                            % (n, ip[ihl + 8], got, want))
        if verbose:
            print('  frame %d: opcode 0x%02x %d bytes ICRC %s'
                  % (n, ip[ihl + 8], len(ip), 'ok' if got == want else 'BAD'))
    return total, good, problems


def check_tshark(path, tshark):
    """(malformed frames, problems as strings), or None without tshark."""
    if not tshark:
        return None
    cmd = [tshark, '-r', path, '--disable-protocol', 'rpcordma', '-T', 'fields',
           '-e', 'frame.number', '-e', '_ws.malformed',
           '-e', '_ws.expert.message']
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True)
    if res.returncode != 0:
        why = [l for l in res.stderr.splitlines() if 'Running as' not in l]
        return 1, ['tshark failed (%d): %s' % (res.returncode,
                                               ' '.join(why)[:200])]
    bad = []
    for line in res.stdout.splitlines():
        cols = line.split('\t') + ['', '']
        if cols[1] or 'malformed' in cols[2].lower():
            bad.append('frame %s: tshark: %s' % (cols[0], cols[2] or 'malformed'))
    return len(bad), bad


def check_file(path, tshark, args):
    try:
        total, good, problems = check_icrc(path, args.verbose)
    except (OSError, CaptureError) as err:
        print('%s: cannot read: %s' % (path, err))
        return False
    ts = check_tshark(path, tshark)
    malformed = 'n/a (no tshark)' if ts is None else str(ts[0])
    if ts:
        problems += ts[1]
    if total == 0 and not args.allow_empty:
        problems.append('no RoCEv2 (UDP/%d) packets' % ROCE_PORT)
    ok = not problems
    print('%s: packets=%d icrc_ok=%d malformed=%s %s'
          % (path, total, good, malformed, 'PASS' if ok else 'FAIL'))
    for p in problems[:20]:
        print('  ' + p)
    if len(problems) > 20:
        print('  ... %d more' % (len(problems) - 20))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--allow-empty', action='store_true',
                    help='a capture without RoCEv2 packets is not a failure')
    ap.add_argument('-v', '--verbose', action='store_true',
                    help='one line per RoCEv2 packet')
    ap.add_argument('pcaps', nargs='+', metavar='PCAP')
    args = ap.parse_args()
    tshark = shutil.which('tshark')
    results = [check_file(p, tshark, args) for p in args.pcaps]
    sys.exit(0 if all(results) else 1)


if __name__ == '__main__':
    main()
