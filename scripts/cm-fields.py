#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""cm-fields.py - compare the CM MADs of two captures field by field.

    scripts/cm-fields.py REFERENCE.pcap OURS.pcap

Both captures hold one rdma_cm exchange over RoCE v2 (REQ, REP, RTU, DREQ,
DREP, or a REQ and its REJ), the reference made between two inbox stacks,
the other with ours at one end. tshark decodes every CM MAD; the first
MAD of each kind from each sender is compared with its counterpart, every
MAD header and CM field (the CMA header in the private data included),
except those that differ from one connection to the next by design:
communication IDs, transaction IDs, QP numbers, starting PSNs and the
client's ephemeral port (with the raw private data that holds it).

tshark splits a REQ path's word of flow label (20 bits), reserved (6) and
packet rate (6) at the wrong bits, so that word is read from the MAD
itself: the packet rate is compared, and the flow label must be the one
rdma_cm derives from the ports, (source * 31 + destination) mod 2^20, in
both captures.

tshark does not decode SIDR REQ and SIDR REP (6.1's UD ids: udaddy), so
their fields are read from the MAD here: a SIDR REQ's P_Key, service ID
and CMA header (version, IP version, both addresses; the client's port is
new in every exchange), a SIDR REP's status, additional information,
service ID, Q_Key and private data, with the BTH and DETH they came in
(P_Key, destination and source QP, Q_Key). Their request IDs are new in
every exchange too: a SIDR REP must carry its SIDR REQ's. Its QPN is the
answering UD QP's, new in every exchange: it must not be 0 when the
status is 0, and the script prints it ("SIDR_REP qpn ...") for the caller
to check against the QP it expects.

Prints one line per message ("same" or the fields that differ) and exits
1 when any field differs or the two exchanges are not the same messages.
"""
import subprocess
import sys
import xml.etree.ElementTree as ET

# Fields (by the end of tshark's name) that are new in every connection.
PER_CONNECTION = (
    '.transactionid', '.localcommid', '.remotecommid', '.localqpn',
    '.remoteqpn', '.remoteqpneecn', '.startpsn', '.ip_cm.sport', '.ip_cm',
    '.private',
)
# Misread by tshark (above): replaced by REQ words of our own reading.
MISREAD = ('.prim_flowlabel', '.prim_reserved0', '.prim_pktrate',
           '.alt_flowlabel', '.alt_reserved0', '.alt_pktrate')
# Byte offsets in a REQ (after the 24-byte MAD header): the primary and
# alternate paths' flow label word, and the private data.
REQ_PATH_WORDS = {'primary': 88, 'alternate': 132}
REQ_PRIVATE = 140
# SIDR fields, byte offsets after the MAD header (IBTA 12.11.1, 12.11.2).
SIDR_REQ_PRIVATE = 16
SIDR_REP_PRIVATE = 96
# The packet headers a SIDR message is compared with, too.
SIDR_TRANSPORT = ('infiniband.bth.p_key', 'infiniband.bth.destqp',
                  'infiniband.deth.q_key', 'infiniband.deth.srcqp')
# tshark names the communication ID after the message: "infiniband.cm.req".
MESSAGES = {
    '0x0010': 'REQ', '0x0011': 'MRA', '0x0012': 'REJ', '0x0013': 'REP',
    '0x0014': 'RTU', '0x0015': 'DREQ', '0x0016': 'DREP',
    '0x0017': 'SIDR_REQ', '0x0018': 'SIDR_REP',
}


def compared(name):
    if not name.startswith(('infiniband.mad.', 'infiniband.cm.')):
        return False
    if name.count('.') == 2 and name.startswith('infiniband.cm.'):
        return False  # the communication ID
    if name in ('infiniband.mad.data',):
        return False
    return not name.endswith(PER_CONNECTION + MISREAD)


def req_words(data, service_port):
    """Our reading of a REQ's path words: (name, value) pairs."""
    out = []
    sport = int.from_bytes(data[REQ_PRIVATE + 2:REQ_PRIVATE + 4], 'big')
    for path, off in REQ_PATH_WORDS.items():
        word = int.from_bytes(data[off:off + 4], 'big')
        label = word >> 12
        out.append((f'req.{path}.packet_rate', str(word & 0x3f)))
        out.append((f'req.{path}.reserved', str((word >> 6) & 0x3f)))
        if path == 'primary':
            want = (sport * 31 + service_port) & 0xfffff
            out.append((f'req.{path}.flow_label_from_ports',
                        'yes' if label == want else f'no: {label:#x}, ports give {want:#x}'))
    return out


def cma_header(pd):
    """The CMA header at the start of @pd, but for the client's port."""
    return [('cma.version', str(pd[0])), ('cma.ip_version', str(pd[1] >> 4)),
            ('cma.src_addr', pd[4:20].hex()), ('cma.dst_addr', pd[20:36].hex()),
            ('cma.rest', pd[36:].hex())]


def sidr_words(kind, data, named):
    """Our reading of a SIDR REQ or REP: (name, value) pairs, and its request ID and QPN."""
    out = [(n, named.get(n)) for n in SIDR_TRANSPORT]
    req_id = data[0:4].hex()
    if kind == 'SIDR_REQ':
        out += [('sidr_req.pkey', data[4:6].hex()),
                ('sidr_req.reserved', data[6:8].hex()),
                ('sidr_req.serviceid', data[8:16].hex())]
        out += [('sidr_req.' + n, v) for n, v in cma_header(data[SIDR_REQ_PRIVATE:])]
        return out, req_id, None
    qpn = int.from_bytes(data[8:11], 'big')
    out += [('sidr_rep.status', str(data[4])),
            ('sidr_rep.addl_info_len', str(data[5])),
            ('sidr_rep.reserved', data[6:8].hex() + data[11:12].hex()),
            ('sidr_rep.qpn_given', 'yes' if qpn or data[4] else 'no'),
            ('sidr_rep.serviceid', data[12:20].hex()),
            ('sidr_rep.qkey', data[20:24].hex()),
            ('sidr_rep.addl_info', data[24:SIDR_REP_PRIVATE].hex()),
            ('sidr_rep.private', data[SIDR_REP_PRIVATE:].hex())]
    return out, req_id, qpn


def messages(path):
    """{(kind, sender): [(field, value)...]} of the first of each kind."""
    xml = subprocess.run(['tshark', '-r', path, '-T', 'pdml', '-Y',
                          'infiniband.mad.mgmtclass == 0x07'],
                         capture_output=True, check=True).stdout
    found = {}
    order = []
    sidr = {}
    for pkt in ET.fromstring(xml).iter('packet'):
        fields = [(f.get('name'), f.get('show')) for f in pkt.iter('field')]
        named = dict(fields)
        kind = MESSAGES.get(named.get('infiniband.mad.attributeid'), '?')
        key = (kind, named.get('ip.src'))
        if key in found:
            continue  # a resend
        found[key] = [(n, v) for n, v in fields if compared(n)]
        if kind == 'REQ':
            data = bytes.fromhex(named['infiniband.mad.data'].replace(':', ''))
            dport = int(named['infiniband.cm.req.serviceid.dport'], 16)
            found[key] += req_words(data, dport)
        if kind.startswith('SIDR_'):
            data = bytes.fromhex(named['infiniband.mad.data'].replace(':', ''))
            words, req_id, qpn = sidr_words(kind, data, named)
            found[key] += words
            sidr[kind] = (req_id, qpn)
        order.append(key)
    if 'SIDR_REP' in sidr:
        rep_key = next(k for k in order if k[0] == 'SIDR_REP')
        same = sidr.get('SIDR_REQ', (None,))[0] == sidr['SIDR_REP'][0]
        found[rep_key].append(('sidr_rep.request_id_is_the_req_s',
                               'yes' if same else 'no'))
        found[rep_key + ('qpn',)] = sidr['SIDR_REP'][1]
    return order, found


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    ref_order, ref = messages(argv[1])
    our_order, ours = messages(argv[2])
    bad = 0
    ref_kinds = [k for k, _ in ref_order]
    our_kinds = [k for k, _ in our_order]
    if ref_kinds != our_kinds:
        print(f'messages differ: reference {" ".join(ref_kinds)}, ours {" ".join(our_kinds)}')
        bad = 1
    if not ref_order:
        print('the reference capture has no CM MAD')
        return 1
    for (kind, rsrc), (_, osrc) in zip(ref_order, our_order):
        a, b = ref[(kind, rsrc)], ours.get((kind, osrc), [])
        diff = [f'{n}: reference {v}, ours {w}'
                for (n, v), (m, w) in zip(a, b) if n == m and v != w]
        if [n for n, _ in a] != [n for n, _ in b]:
            diff.append('not the same fields: '
                        f'{sorted(set(n for n, _ in a) ^ set(n for n, _ in b))}')
        if diff:
            bad = 1
            print(f'{kind} from {osrc}: {len(diff)} fields differ')
            for d in diff:
                print(f'    {d}')
        else:
            print(f'{kind} from {osrc}: same ({len(a)} fields)')
        if kind == 'SIDR_REP':
            print(f'SIDR_REP qpn reference={ref.get((kind, rsrc, "qpn")):#x} '
                  f'ours={ours.get((kind, osrc, "qpn"), 0):#x}')
    return bad


if __name__ == '__main__':
    sys.exit(main(sys.argv))
