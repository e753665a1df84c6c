#!/usr/bin/python3
# scripts/guest/uverbs-qp.py DEVFILE MODE [ROUNDS] - user QPs and AHs of
# rdma_rxe through ib_uverbs' write() ABI by hand, the SQ and RQ rings
# mapped and filled as rdma-core's rxe provider does (<rdma/rdma_user_rxe.h>).
#   errnos: 6.1's answers to QP and AH commands naming nothing, XRC and raw
#           packet types, extra attr_mask bits, bad ports, privileged Q_Keys
#           (the last two checks unprivileged, in a child that dropped root),
#           double destroys, PDs and CQs in use, the POST_SEND doorbell with
#           work requests in it or on a QP not ready to send, ATTACH_MCAST
#           and DETACH_MCAST (a second attach changes nothing, detaching
#           what is not attached, unicast GIDs, RC QPs, DESTROY_QP while
#           attached); ends leaving a QP, an AH and a UD QP in a multicast
#           group for the close to clean up
#   rings:  a QP connected to itself (the GID at index 1): a SEND and an RDMA
#           WRITE with their data checked, then WQEs that must be refused
#           (opcodes, SGE counts, inline lengths, UD AH numbers, a producer
#           index with garbage in its high bits, RQ WQEs with huge SGE
#           counts): each completes with LOC_QP_OP_ERR in the CQ ring, the
#           QP goes to ERR and later WQEs flush
#   random: ROUNDS random WQEs (fixed seed) written into SQ and RQ slots of
#           RC and UD QPs, the doorbell rung after each batch
# One line per check; exit status 0 when all held.
import ctypes
import errno
import importlib.util
import mmap
import os
import random
import struct
import sys
import time

import abi_check
from abi_check import buf, check, write
from abi_check import errname as name, expect_errno as want

_spec = importlib.util.spec_from_file_location(
    "uvw", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "uverbs-write.py"))
uvw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(uvw)
legacy = uvw.legacy

CREATE_AH, DESTROY_AH, REG_MR, DEREG_MR = 5, 8, 9, 13
CREATE_QP, QUERY_QP, MODIFY_QP, DESTROY_QP, POST_SEND = 24, 25, 26, 27, 28
ATTACH_MCAST, DETACH_MCAST = 30, 31
MCAST_GID = bytes.fromhex("ff0e0000000000000000000000001234")
UNICAST_GID = bytes.fromhex("00000000000000000000ffffc000020b")
QPT_RC, QPT_UC, QPT_UD, QPT_RAW, QPT_XRC_INI, QPT_XRC_TGT = 2, 3, 4, 8, 9, 10
# attr_mask bits (enum ib_qp_attr_mask)
STATE, ACCESS, PKEY, PORT, QKEY, AV, MTU = 1, 8, 16, 32, 64, 128, 256
TIMEOUT, RETRY, RNR_RETRY, RQ_PSN, RD_ATOMIC = 512, 1024, 2048, 4096, 8192
MIN_RNR, SQ_PSN, DEST_RD_ATOMIC, DEST_QPN = 1 << 15, 1 << 16, 1 << 17, 1 << 20
RESET, INIT, RTR, RTS, ERR = 0, 1, 2, 3, 6
# work request opcodes, send flags, completion status
WR_WRITE, WR_SEND, WR_LSO, WR_REG_MR = 0, 2, 10, 0x20
SIGNALED, INLINE = 2, 8
WC_SUCCESS, WC_FLUSH, WC_LOC_QP_OP = 0, 5, 2
NO_HANDLE = 0x7777
# struct rxe_send_wqe: wr (144 bytes), then dma at 184 (num_sge at +12,
# the SGE list or inline data at +24); struct rxe_recv_wqe: dma at 16
SWQE_DMA, RWQE_DMA, DMA_SGE = 184, 16, 24
HDR = 384
GID1 = bytes(10) + b"\xff\xff" + bytes([192, 0, 2, 11])
LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ = 1, 2, 4




# --- commands ------------------------------------------------------------

class Qp:
    pass


def create_qp(fd, pd, scq, rcq, qp_type=QPT_RC, srq=0, is_srq=0, send_wr=16,
              recv_wr=16, send_sge=2, recv_sge=2, inline=64):
    """errno and a Qp (handle, qpn, caps, rq_mi and sq_mi) of CREATE_QP."""
    r, addr = buf(64)
    body = struct.pack("<QQIIIIIIIIIBBBB", addr, 0x9090, pd, scq, rcq, srq,
                       send_wr, recv_wr, send_sge, recv_sge, inline, 1,
                       qp_type, is_srq, 0)
    err = write(fd, legacy(CREATE_QP, body, 64))
    q = Qp()
    (q.handle, q.qpn, q.send_wr, q.recv_wr, q.send_sge, q.recv_sge,
     q.inline) = struct.unpack_from("<7I", r.raw)
    q.rq_mi = struct.unpack_from("<QI", r.raw, 32)
    q.sq_mi = struct.unpack_from("<QI", r.raw, 48)
    q.type = qp_type
    q.sq = q.rq = None
    return err, q


def modify_qp(fd, handle, mask, qp_state=0, port=1, qkey=0, dest_qpn=0,
              access=LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ, dest_port=1,
              rnr_retry=7):
    c = bytearray(112)
    dest = GID1 + struct.pack("<IHHBBBBBBBB", 0, 0, 0, 1, 64, 0, 0, 0, 0, 1,
                              dest_port)
    c[0:32] = dest
    struct.pack_into("<IIIIIII", c, 64, handle, mask, qkey, 0, 0, dest_qpn,
                     access)
    struct.pack_into("<B", c, 96, qp_state)
    c[98] = 3                                       # IB_MTU_1024
    c[101] = c[102] = 1                             # rd_atomic
    c[103] = 12                                     # min_rnr_timer
    c[104] = port
    c[105], c[106], c[107] = 14, 7, rnr_retry       # timeout, retries
    return write(fd, legacy(MODIFY_QP, bytes(c), 0))


def query_qp(fd, handle):
    """errno, qp_state of QUERY_QP."""
    r, addr = buf(128)
    err = write(fd, legacy(QUERY_QP, struct.pack("<QII", addr, handle,
                                                 0xfffff), 128))
    return err, r.raw[108]


def destroy_qp(fd, handle):
    """errno, events_reported of DESTROY_QP."""
    r, addr = buf(4)
    err = write(fd, legacy(DESTROY_QP, struct.pack("<QII", addr, handle, 0), 4))
    return err, struct.unpack("<I", r.raw)[0]


def doorbell(fd, handle, wr_count=0, extra=b""):
    r, addr = buf(4)
    body = struct.pack("<QIIII", addr, handle, wr_count, 0, 96 if extra else 0)
    return write(fd, legacy(POST_SEND, body + extra, 4))


def create_ah(fd, pd, port=1):
    """errno, (handle, ah_num) of CREATE_AH with rxe's response."""
    r, addr = buf(12)
    attr = GID1 + struct.pack("<IBBBB", 0, 1, 64, 0, 0) + \
        struct.pack("<HBBBBBB", 0, 0, 0, 0, 1, port, 0)
    body = struct.pack("<QQII", addr, 0xa4a4, pd, 0) + attr
    err = write(fd, legacy(CREATE_AH, body, 12))
    return err, struct.unpack_from("<II", r.raw)


def mcast(fd, cmd, handle, gid=MCAST_GID, lid=0):
    """ATTACH_MCAST or DETACH_MCAST of QP @handle to (@gid, @lid)."""
    return write(fd, legacy(cmd, gid + struct.pack("<IHH", handle, lid, 0), 0))


def mcast_errnos(fd, ud, rc):
    want("ATTACH_MCAST of a UD QP", mcast(fd, ATTACH_MCAST, ud), 0)
    want("ATTACH_MCAST to the same group again: nothing changes",
         mcast(fd, ATTACH_MCAST, ud), 0)
    want("DESTROY_QP while attached: EBUSY", destroy_qp(fd, ud)[0],
         errno.EBUSY)
    want("DETACH_MCAST", mcast(fd, DETACH_MCAST, ud), 0)
    want("DETACH_MCAST again: EINVAL", mcast(fd, DETACH_MCAST, ud),
         errno.EINVAL)
    want("DETACH_MCAST of another LID: EINVAL",
         mcast(fd, DETACH_MCAST, ud, lid=7), errno.EINVAL)
    want("ATTACH_MCAST to a unicast GID: EINVAL",
         mcast(fd, ATTACH_MCAST, ud, UNICAST_GID), errno.EINVAL)
    want("ATTACH_MCAST of an RC QP: EINVAL", mcast(fd, ATTACH_MCAST, rc),
         errno.EINVAL)
    want("ATTACH_MCAST of no QP: EINVAL", mcast(fd, ATTACH_MCAST, NO_HANDLE),
         errno.EINVAL)


def destroy_ah(fd, handle):
    return write(fd, legacy(DESTROY_AH, struct.pack("<I", handle), 0))


def reg_mr(fd, pd, addr, length):
    """errno, (handle, lkey, rkey) of REG_MR with every local and remote right."""
    r, raddr = buf(12)
    body = struct.pack("<QQQQII", raddr, addr, length, addr, pd, 0xf)
    err = write(fd, legacy(REG_MR, body, 12))
    return err, struct.unpack("<III", r.raw)


def pd_new(fd):
    err, pd = uvw.alloc_pd(fd)
    check("ALLOC_PD", err == 0, f"(errno {err})")
    return pd


def cq_new(fd, cqe=256):
    err, (h, n, off, size) = uvw.create_cq(fd, cqe)
    check("CREATE_CQ", err == 0, f"(errno {err})")
    return h, (off, size)


# --- errnos --------------------------------------------------------------

def unprivileged(path):
    """The CAP_NET_RAW checks, in a child that dropped root and opened the
    device itself (a file opened before the switch answers EACCES)."""
    mode = os.stat(path).st_mode
    os.chmod(path, 0o666)
    pid = os.fork()
    if pid == 0:
        os.setgid(65534)
        os.setuid(65534)
        fd = os.open(path, os.O_RDWR)
        uvw.open_context(fd)
        pd = pd_new(fd)
        cq, _ = cq_new(fd)
        err, _ = create_qp(fd, pd, cq, cq, QPT_RAW)
        want("CREATE_QP RAW_PACKET unprivileged: EPERM", err, errno.EPERM)
        err, q = create_qp(fd, pd, cq, cq, QPT_UD)
        want("CREATE_QP UD unprivileged", err, 0)
        want("MODIFY_QP Q_Key 0x80010000 unprivileged: EPERM",
             modify_qp(fd, q.handle, STATE | PKEY | PORT | QKEY, INIT,
                       qkey=0x80010000), errno.EPERM)
        want("MODIFY_QP Q_Key 0x00010000 unprivileged",
             modify_qp(fd, q.handle, STATE | PKEY | PORT | QKEY, INIT,
                       qkey=0x00010000), 0)
        os._exit(1 if abi_check.failed else 0)
    _, status = os.waitpid(pid, 0)
    os.chmod(path, mode & 0o7777)
    check("the unprivileged child's checks", status == 0, f"(status {status})")


def errnos(fd, path):
    uvw.open_context(fd)
    pd, pd2 = pd_new(fd), pd_new(fd)
    cq, _ = cq_new(fd)
    want("CREATE_QP on no PD: EINVAL",
         create_qp(fd, NO_HANDLE, cq, cq)[0], errno.EINVAL)
    want("CREATE_QP with no send CQ: EINVAL",
         create_qp(fd, pd, NO_HANDLE, cq)[0], errno.EINVAL)
    want("CREATE_QP with no receive CQ: EINVAL",
         create_qp(fd, pd, cq, NO_HANDLE)[0], errno.EINVAL)
    want("CREATE_QP with no SRQ: EINVAL",
         create_qp(fd, pd, cq, cq, srq=NO_HANDLE, is_srq=1)[0], errno.EINVAL)
    want("CREATE_QP XRC_INI: EINVAL",
         create_qp(fd, pd, cq, cq, QPT_XRC_INI)[0], errno.EINVAL)
    want("CREATE_QP XRC_TGT: EINVAL",
         create_qp(fd, pd, cq, cq, QPT_XRC_TGT)[0], errno.EINVAL)
    want("CREATE_QP type 0x42: EINVAL",
         create_qp(fd, pd, cq, cq, 0x42)[0], errno.EINVAL)
    err, q = create_qp(fd, pd, cq, cq)
    check("CREATE_QP RC", err == 0 and q.qpn > 1 and q.send_wr >= 16,
          f"(errno {err}, qpn {q.qpn}, send_wr {q.send_wr})")
    want("MODIFY_QP attr_mask bit 21: EOPNOTSUPP",
         modify_qp(fd, q.handle, STATE | (1 << 21), INIT), errno.EOPNOTSUPP)
    want("MODIFY_QP of no QP: EINVAL",
         modify_qp(fd, NO_HANDLE, STATE, INIT), errno.EINVAL)
    for port in (0, 2):
        want(f"MODIFY_QP to INIT on port {port}: EINVAL",
             modify_qp(fd, q.handle, STATE | PKEY | PORT | ACCESS, INIT,
                       port=port), errno.EINVAL)
    want("POST_SEND doorbell in RESET: EINVAL", doorbell(fd, q.handle),
         errno.EINVAL)
    want("MODIFY_QP to INIT", modify_qp(fd, q.handle,
                                        STATE | PKEY | PORT | ACCESS, INIT), 0)
    want("POST_SEND doorbell in INIT: EINVAL", doorbell(fd, q.handle),
         errno.EINVAL)
    want("MODIFY_QP to RTR with an AV on port 2: EINVAL",
         modify_qp(fd, q.handle, STATE | AV | MTU | DEST_QPN | RQ_PSN |
                   DEST_RD_ATOMIC | MIN_RNR, RTR, dest_qpn=q.qpn,
                   dest_port=2), errno.EINVAL)
    want("POST_SEND with a work request in it: EINVAL",
         doorbell(fd, q.handle, 1, bytes(96)), errno.EINVAL)
    want("POST_SEND of no QP: EINVAL", doorbell(fd, NO_HANDLE), errno.EINVAL)
    err, ud = create_qp(fd, pd, cq, cq, QPT_UD)
    want("CREATE_QP UD", err, 0)
    unprivileged(path)
    want("MODIFY_QP UD to INIT with Q_Key 0x11111111", modify_qp(
        fd, ud.handle, STATE | PKEY | PORT | QKEY, INIT, qkey=0x11111111), 0)
    mcast_errnos(fd, ud.handle, q.handle)
    want("DEALLOC_PD under a QP: EBUSY", uvw.dealloc_pd(fd, pd), errno.EBUSY)
    want("DESTROY_CQ under a QP: EBUSY", uvw.destroy_cq(fd, cq)[0], errno.EBUSY)
    for port in (0, 2):
        want(f"CREATE_AH on port {port}: EINVAL", create_ah(fd, pd, port)[0],
             errno.EINVAL)
    want("CREATE_AH on no PD: EINVAL", create_ah(fd, NO_HANDLE)[0],
         errno.EINVAL)
    err, (ah, ah_num) = create_ah(fd, pd2)
    check("CREATE_AH", err == 0 and ah_num != 0, f"(errno {err}, ah_num {ah_num})")
    want("DESTROY_AH", destroy_ah(fd, ah), 0)
    want("DESTROY_AH twice: EINVAL", destroy_ah(fd, ah), errno.EINVAL)
    err, evs = destroy_qp(fd, q.handle)
    check("DESTROY_QP", err == 0 and evs == 0, f"(errno {err}, events {evs})")
    want("DESTROY_QP twice: EINVAL", destroy_qp(fd, q.handle)[0], errno.EINVAL)
    want("QUERY_QP of a destroyed QP: EINVAL", query_qp(fd, q.handle)[0],
         errno.EINVAL)
    err, evs = destroy_qp(fd, ud.handle)
    check("DESTROY_QP UD", err == 0 and evs == 0, f"(errno {err}, events {evs})")
    want("DEALLOC_PD after its QPs went", uvw.dealloc_pd(fd, pd), 0)
    want("DESTROY_CQ after its QPs went", uvw.destroy_cq(fd, cq)[0], 0)
    # left for the close: a QP in RTS and an AH
    cq, _ = cq_new(fd)
    err, q = create_qp(fd, pd2, cq, cq)
    want("CREATE_QP left for the close", err, 0)
    connect(fd, q)
    err, _ = create_ah(fd, pd2)
    want("CREATE_AH left for the close", err, 0)
    err, ud = create_qp(fd, pd2, cq, cq, QPT_UD)
    want("CREATE_QP UD left for the close", err, 0)
    want("MODIFY_QP UD to INIT", modify_qp(fd, ud.handle,
                                           STATE | PKEY | PORT | QKEY, INIT,
                                           qkey=0x11111111), 0)
    want("ATTACH_MCAST left for the close", mcast(fd, ATTACH_MCAST, ud.handle),
         0)
    print(f"left qpn {q.qpn}", flush=True)


# --- rings ---------------------------------------------------------------

class Ring:
    """One of rxe's mapped rings (struct rxe_queue_buf)."""

    def __init__(self, fd, mi, what):
        err, self.m = uvw.map_ring(fd, mi[0], mi[1])
        check(f"mmap {what}", err == 0, f"(offset {mi[0]:#x}, errno {err})")
        if err:
            raise SystemExit(1)
        self.log2, self.mask, _, _ = uvw.ring_header(self.m)

    def prod(self):
        return struct.unpack_from("<I", self.m, 128)[0]

    def cons(self):
        return struct.unpack_from("<I", self.m, 256)[0]

    def set_prod(self, v):
        struct.pack_into("<I", self.m, 128, v)

    def set_cons(self, v):
        struct.pack_into("<I", self.m, 256, v)

    def slot(self, i):
        return HDR + ((i & self.mask) << self.log2)

    def put(self, wqe):
        """Write @wqe into the next free slot and publish it."""
        p = self.prod() & self.mask
        off = self.slot(p)
        self.m[off:off + (1 << self.log2)] = bytes(1 << self.log2)
        self.m[off:off + len(wqe)] = wqe
        self.set_prod((p + 1) & self.mask)


def cq_poll(cq, n, secs=10):
    """Up to @n completions (wr_id, status, opcode, byte_len) from a CQ ring."""
    got, end = [], time.monotonic() + secs
    while len(got) < n and time.monotonic() < end:
        c = cq.cons()
        if c == cq.prod():
            time.sleep(0.01)
            continue
        wr_id, status, opcode, _, blen = struct.unpack_from("<QIIII", cq.m,
                                                            cq.slot(c))
        got.append((wr_id, status, opcode, blen))
        cq.set_cons((c + 1) & cq.mask)
    return got


def send_wqe(wr_id, opcode, sges=(), flags=SIGNALED, remote=(0, 0),
             num_sge=None, inline=b"", inline_len=None, ah_num=0,
             remote_qpn=0, qkey=0):
    w = bytearray(SWQE_DMA + DMA_SGE)
    struct.pack_into("<QIII", w, 0, wr_id, 0, opcode, flags)
    if opcode == WR_WRITE:
        struct.pack_into("<QI", w, 24, remote[0], remote[1])
    if ah_num or remote_qpn:
        struct.pack_into("<II", w, 24, remote_qpn, qkey)
        struct.pack_into("<I", w, 36, ah_num)
    length = sum(s[1] for s in sges) if not inline else len(inline)
    if inline_len is not None:
        length = inline_len
    nsge = len(sges) if num_sge is None else num_sge
    struct.pack_into("<IIII", w, SWQE_DMA, length, length, 0, nsge)
    for a, ln, lkey in sges:
        w += struct.pack("<QII", a, ln, lkey)
    return bytes(w + inline)


def recv_wqe(wr_id, sges, num_sge=None):
    w = bytearray(RWQE_DMA + DMA_SGE)
    struct.pack_into("<Q", w, 0, wr_id)
    length = sum(s[1] for s in sges)
    nsge = len(sges) if num_sge is None else num_sge
    struct.pack_into("<IIII", w, RWQE_DMA, length, length, 0, nsge)
    for a, ln, lkey in sges:
        w += struct.pack("<QII", a, ln, lkey)
    return bytes(w)


def connect(fd, q, rnr_retry=7):
    """RESET -> RTS, an RC or UC QP aimed at itself, a UD QP with Q_Key 0x11."""
    if q.type == QPT_UD:
        steps = [(STATE | PKEY | PORT | QKEY, INIT), (STATE, RTR),
                 (STATE | SQ_PSN, RTS)]
    elif q.type == QPT_UC:
        steps = [(STATE | PKEY | PORT | ACCESS, INIT),
                 (STATE | AV | MTU | DEST_QPN | RQ_PSN, RTR),
                 (STATE | SQ_PSN, RTS)]
    else:
        steps = [(STATE | PKEY | PORT | ACCESS, INIT),
                 (STATE | AV | MTU | DEST_QPN | RQ_PSN | DEST_RD_ATOMIC |
                  MIN_RNR, RTR),
                 (STATE | TIMEOUT | RETRY | RNR_RETRY | SQ_PSN | RD_ATOMIC,
                  RTS)]
    for mask, st in steps:
        err = modify_qp(fd, q.handle, mask, st, qkey=0x11, dest_qpn=q.qpn,
                        rnr_retry=rnr_retry)
        if err:
            check(f"MODIFY_QP {q.qpn} to state {st}", False, f"(errno {name(err)})")
            return False
    return True


def qp_up(fd, pd, cq, qp_type=QPT_RC, rnr_retry=7, **caps):
    err, q = create_qp(fd, pd, cq.h, cq.h, qp_type, **caps)
    if err:
        check("CREATE_QP for the ring checks", False, f"(errno {name(err)})")
        raise SystemExit(1)
    q.sq = Ring(fd, q.sq_mi, "SQ ring")
    q.rq = Ring(fd, q.rq_mi, "RQ ring")
    connect(fd, q, rnr_retry)
    return q


def qp_down(fd, q):
    err, _ = destroy_qp(fd, q.handle)
    want(f"DESTROY_QP {q.qpn}", err, 0)
    q.sq.m.close()
    q.rq.m.close()


class Mem:
    """An anonymous mapping registered as one MR."""

    def __init__(self, fd, pd, size=1 << 16):
        self.m = mmap.mmap(-1, size)
        self.addr = ctypes.addressof(ctypes.c_char.from_buffer(self.m))
        err, (self.handle, self.lkey, self.rkey) = reg_mr(fd, pd, self.addr,
                                                          size)
        check("REG_MR", err == 0, f"(errno {err})")


def good_traffic(fd, pd, cq, mem):
    """A SEND and an RDMA WRITE on a QP aimed at itself, data checked."""
    q = qp_up(fd, pd, cq)
    rng = random.Random(116)
    data = bytes(rng.getrandbits(8) for _ in range(3000))
    mem.m[0:3000] = data
    mem.m[8192:16384] = bytes(8192)
    q.rq.put(recv_wqe(11, [(mem.addr + 8192, 4096, mem.lkey)]))
    q.sq.put(send_wqe(21, WR_SEND, [(mem.addr, 1000, mem.lkey),
                                    (mem.addr + 1000, 2000, mem.lkey)]))
    q.sq.put(send_wqe(22, WR_WRITE, [(mem.addr, 3000, mem.lkey)],
                      remote=(mem.addr + 12288, mem.rkey)))
    want("POST_SEND doorbell", doorbell(fd, q.handle), 0)
    wcs = sorted(cq_poll(cq, 3))
    check("SEND and RDMA WRITE complete", [(w[0], w[1]) for w in wcs] ==
          [(11, 0), (21, 0), (22, 0)], f"({wcs})")
    check("SEND data arrived", mem.m[8192:11192] == data and
          any(w[0] == 11 and w[3] == 3000 for w in wcs))
    check("RDMA WRITE data arrived", mem.m[12288:15288] == data)
    check("the SQ ring's consumer caught up with its producer",
          q.sq.cons() == q.sq.prod(), f"({q.sq.cons()}, {q.sq.prod()})")
    err, st = query_qp(fd, q.handle)
    check("QP still in RTS", err == 0 and st == RTS, f"(state {st})")
    # the producer index with garbage above the mask: masked, not trusted
    q.sq.put(send_wqe(23, WR_WRITE, [(mem.addr, 64, mem.lkey)],
                      remote=(mem.addr + 12288, mem.rkey)))
    q.sq.set_prod(q.sq.prod() | 0xdead0000)
    want("POST_SEND doorbell, producer with high garbage", doorbell(fd, q.handle), 0)
    wcs = cq_poll(cq, 1)
    check("the WQE under a masked producer completes", [w[:2] for w in wcs] ==
          [(23, 0)], f"({wcs})")
    qp_down(fd, q)


def refused(fd, pd, cq, mem, what, wqe, qp_type=QPT_RC, ah_num=0):
    """@wqe must complete LOC_QP_OP_ERR, a valid WQE after it flush."""
    q = qp_up(fd, pd, cq, qp_type)
    q.sq.put(wqe)
    q.sq.put(send_wqe(2, WR_SEND, [(mem.addr, 16, mem.lkey)], ah_num=ah_num,
                      remote_qpn=q.qpn, qkey=0x11)
             if qp_type == QPT_UD else
             send_wqe(2, WR_WRITE, [(mem.addr, 16, mem.lkey)],
                      remote=(mem.addr + 12288, mem.rkey)))
    err = doorbell(fd, q.handle)
    wcs = cq_poll(cq, 2)
    _, st = query_qp(fd, q.handle)
    check(f"{what}: LOC_QP_OP_ERR, then a flush, QP in ERR",
          err == 0 and [w[:2] for w in wcs] == [(1, WC_LOC_QP_OP), (2, WC_FLUSH)]
          and st == ERR, f"(doorbell {name(err)}, wcs {wcs}, state {st})")
    qp_down(fd, q)


def rings(fd):
    uvw.open_context(fd)
    pd, pd2 = pd_new(fd), pd_new(fd)
    cq_h, cq_mi = cq_new(fd, 1023)
    cq = Ring(fd, cq_mi, "CQ ring")
    cq.h = cq_h
    mem = Mem(fd, pd)
    good_traffic(fd, pd, cq, mem)
    sge = [(mem.addr, 16, mem.lkey)]
    err, probe = create_qp(fd, pd, cq_h, cq_h)
    destroy_qp(fd, probe.handle)
    for op in (0xff, WR_REG_MR, WR_LSO, 0x80000002):
        refused(fd, pd, cq, mem, f"opcode {op:#x}", send_wqe(1, op, sge))
    refused(fd, pd, cq, mem, f"num_sge {probe.send_sge + 1}",
            send_wqe(1, WR_SEND, sge * (probe.send_sge + 1)))
    refused(fd, pd, cq, mem, "num_sge 0xffffffff",
            send_wqe(1, WR_SEND, sge, num_sge=0xffffffff))
    refused(fd, pd, cq, mem, f"inline length {probe.inline + 1}",
            send_wqe(1, WR_SEND, flags=SIGNALED | INLINE, inline=b"x" * 16,
                     inline_len=probe.inline + 1))
    refused(fd, pd, cq, mem, "inline length 0xffffffff",
            send_wqe(1, WR_SEND, flags=SIGNALED | INLINE, inline=b"x" * 16,
                     inline_len=0xffffffff))
    _, (ah_other, num_other) = create_ah(fd, pd2)
    _, (ah_own, num_own) = create_ah(fd, pd)
    for what, num in (("ah_num 0", 0), ("ah_num of no AH", 0x7ffffff0),
                      ("ah_num of another PD's AH", num_other)):
        refused(fd, pd, cq, mem, f"UD {what}",
                send_wqe(1, WR_SEND, sge, ah_num=num, remote_qpn=1, qkey=0x11),
                QPT_UD, num_own)
    destroy_ah(fd, ah_other)
    destroy_ah(fd, ah_own)
    # a receive WQE with a huge SGE count: its message fails, nothing more
    q = qp_up(fd, pd, cq, rnr_retry=0)
    q.rq.put(recv_wqe(31, [(mem.addr + 8192, 64, mem.lkey)], num_sge=0xffffffff))
    q.sq.put(send_wqe(32, WR_SEND, sge))
    want("POST_SEND doorbell", doorbell(fd, q.handle), 0)
    wcs = sorted(cq_poll(cq, 2))
    check("RQ WQE with num_sge 0xffffffff: its receive fails, the send too",
          len(wcs) == 2 and wcs[0][0] == 31 and wcs[0][1] != 0 and
          wcs[1][0] == 32 and wcs[1][1] != 0, f"({wcs})")
    qp_down(fd, q)
    # a working QP once more after all that
    good_traffic(fd, pd, cq, mem)
    print("left nothing", flush=True)


# --- random WQEs ---------------------------------------------------------

def random_wqe(rng, mem, q, size):
    kind = rng.random()
    w = bytearray(rng.randbytes(size))
    if kind < 0.5:
        # plausible: an allowed opcode, few SGEs, keys of the MR or close
        struct.pack_into("<I", w, 12, rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 9)))
        struct.pack_into("<I", w, 16, rng.choice((0, SIGNALED, INLINE,
                                                 SIGNALED | INLINE)))
        n = rng.randrange(0, 4)
        struct.pack_into("<I", w, SWQE_DMA + 12, n)
        for i in range(min(n, (size - SWQE_DMA - DMA_SGE) // 16)):
            struct.pack_into("<QII", w, SWQE_DMA + DMA_SGE + 16 * i,
                             mem.addr + rng.randrange(0, 1 << 17),
                             rng.randrange(0, 1 << 13),
                             rng.choice((mem.lkey, mem.lkey + 1,
                                         rng.getrandbits(32))))
        if q.type == QPT_UD:
            struct.pack_into("<III", w, 24, q.qpn, 0x11, 0)
            struct.pack_into("<I", w, 36, rng.choice((0, 1, 2, 3, 0xffffffff)))
        else:
            struct.pack_into("<QI", w, 24, mem.addr + rng.randrange(0, 1 << 16),
                             rng.choice((mem.rkey, rng.getrandbits(32))))
    return bytes(w)


def random_recv(rng, mem, size):
    w = bytearray(rng.randbytes(size))
    if rng.random() < 0.5:
        n = rng.randrange(0, 3)
        struct.pack_into("<I", w, RWQE_DMA + 12, n)
        for i in range(n):
            struct.pack_into("<QII", w, RWQE_DMA + DMA_SGE + 16 * i,
                             mem.addr + rng.randrange(0, 1 << 16),
                             rng.randrange(0, 1 << 12), mem.lkey)
    return bytes(w)


def random_share(fd, rounds):
    uvw.open_context(fd)
    pd = pd_new(fd)
    cq_h, cq_mi = cq_new(fd, 4095)
    cq = Ring(fd, cq_mi, "CQ ring")
    cq.h = cq_h
    mem = Mem(fd, pd)
    _, ah = create_ah(fd, pd)
    rng = random.Random(1116)
    done, batches, wcs = 0, 0, 0
    while done < rounds:
        q = qp_up(fd, pd, cq, rng.choice((QPT_RC, QPT_UC, QPT_UD)), rnr_retry=0,
                  send_wr=32, recv_wr=32)
        for _ in range(rng.randrange(1, 32)):
            q.rq.put(random_recv(rng, mem, 1 << q.rq.log2))
        for _ in range(rng.randrange(8, 32)):
            q.sq.put(random_wqe(rng, mem, q, 1 << q.sq.log2))
            done += 1
        if rng.random() < 0.2:
            q.sq.set_prod(rng.getrandbits(32))
        if rng.random() < 0.1:
            q.rq.set_prod(rng.getrandbits(32))
        err = doorbell(fd, q.handle)
        if err not in (0, errno.EINVAL):
            check(f"batch {batches}: doorbell", False, f"(errno {name(err)})")
        wcs += len(cq_poll(cq, 64, 0.3))
        qp_down(fd, q)
        wcs += len(cq_poll(cq, 4096, 0.05))
        batches += 1
    # most WQEs and receive WQEs come back as completions of some status
    check(f"{done} random WQEs in {batches} batches: completions came back",
          wcs >= done // 2, f"({wcs} completions read)")
    err, evs = uvw.destroy_cq(fd, cq_h)
    check("DESTROY_CQ after the random WQEs", err == 0, f"(errno {name(err)})")
    destroy_ah(fd, ah[0])


def main():
    fd = os.open(sys.argv[1], os.O_RDWR)
    mode = sys.argv[2]
    if mode == "errnos":
        errnos(fd, sys.argv[1])
    elif mode == "rings":
        rings(fd)
    elif mode == "random":
        random_share(fd, int(sys.argv[3]) if len(sys.argv) > 3 else 2000)
    print("result: " + ("FAILED" if abi_check.failed else "passed"), flush=True)
    return 1 if abi_check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
