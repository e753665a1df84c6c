#!/usr/bin/python3
"""interop-cm.py - an rdma_cm consumer on the inbox side of the interop tests.

Runs in the peer guest, on the stock kernel's own rdma_cm through
rdma-core's librdmacm (Debian's python3-pyverbs), for what rping cannot do:

    interop-cm.py reject ADDR PORT HEX
        listen on ADDR:PORT (RDMA_PS_TCP), take the first connection
        request and reject it with the bytes HEX as private data (a
        consumer reject: reason 28 on the wire); prints "rejected".

    interop-cm.py hangup ADDR PORT
        connect an RC QP to ADDR:PORT, then disconnect at once, before
        anything is sent (the inbox side's DREQ); prints "disconnected".

    interop-cm.py accept-late ADDR PORT SECS
        listen on ADDR:PORT (RDMA_PS_TCP), take the first connection
        request, accept it only SECS seconds later (the active side's REQ
        is resent meanwhile, which the inbox CM answers with an MRA),
        then wait a second and disconnect (a DREP when the peer's DREQ
        came first); prints "accepted", then "disconnected".

Run it with /usr/bin/python3: the Debian package installs for that one.
"""
import sys
import time

from pyverbs.cmid import AddrInfo, CMID, ConnParam
from pyverbs.qp import QPCap, QPInitAttr
import pyverbs.cm_enums as ce
import pyverbs.enums as ve


def reject(addr, port, data):
    info = AddrInfo(src=addr, src_service=port, port_space=ce.RDMA_PS_TCP,
                    flags=ce.RAI_PASSIVE)
    listener = CMID(creator=info)
    listener.listen()
    print('listening', flush=True)
    req = listener.get_request()
    req.reject(private_data=data)
    print('rejected', flush=True)
    req.close()
    listener.close()


def hangup(addr, port):
    info = AddrInfo(dst=addr, dst_service=port, port_space=ce.RDMA_PS_TCP)
    cap = QPCap(max_send_wr=1, max_recv_wr=1, max_send_sge=1, max_recv_sge=1)
    conn = CMID(creator=info,
                qp_init_attr=QPInitAttr(qp_type=ve.IBV_QPT_RC, cap=cap))
    conn.connect(ConnParam(resources=1, depth=1, retry=7, rnr_retry=7))
    print('connected', flush=True)
    conn.disconnect()
    print('disconnected', flush=True)
    conn.close()


def accept_late(addr, port, secs):
    info = AddrInfo(src=addr, src_service=port, port_space=ce.RDMA_PS_TCP,
                    flags=ce.RAI_PASSIVE)
    cap = QPCap(max_send_wr=1, max_recv_wr=1, max_send_sge=1, max_recv_sge=1)
    listener = CMID(creator=info,
                    qp_init_attr=QPInitAttr(qp_type=ve.IBV_QPT_RC, cap=cap))
    listener.listen()
    print('listening', flush=True)
    conn = listener.get_request()
    time.sleep(secs)
    conn.accept(ConnParam(resources=1, depth=1, retry=7, rnr_retry=7))
    print('accepted', flush=True)
    time.sleep(1)
    conn.disconnect()
    print('disconnected', flush=True)
    conn.close()
    listener.close()


def main(argv):
    if len(argv) == 5 and argv[1] == 'reject':
        reject(argv[2], argv[3], bytes.fromhex(argv[4]))
        return 0
    if len(argv) == 4 and argv[1] == 'hangup':
        hangup(argv[2], argv[3])
        return 0
    if len(argv) == 5 and argv[1] == 'accept-late':
        accept_late(argv[2], argv[3], float(argv[4]))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
