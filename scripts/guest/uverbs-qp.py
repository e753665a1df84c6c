#!/usr/bin/python3
# scripts/guest/uverbs-qp.py DEVFILE MODE - user QPs and AHs of rdma_rxe
# through ib_uverbs' write() ABI by hand.
#   errnos: 6.1's answers to QP and AH commands naming nothing, XRC and raw
#           packet types, extra attr_mask bits, bad ports, privileged Q_Keys
#           (the last two checks unprivileged, in a child that dropped root),
#           double destroys, PDs and CQs in use, the POST_SEND doorbell with
#           work requests in it or on a QP not ready to send; ends leaving a
#           QP and an AH for the close to clean up
# One line per check; exit status 0 when all held.
import errno
import importlib.util
import os
import struct
import sys

_spec = importlib.util.spec_from_file_location(
    "uvw", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "uverbs-write.py"))
uvw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(uvw)
check, write, buf, legacy = uvw.check, uvw.write, uvw.buf, uvw.legacy

CREATE_AH, DESTROY_AH, REG_MR, DEREG_MR = 5, 8, 9, 13
CREATE_QP, QUERY_QP, MODIFY_QP, DESTROY_QP, POST_SEND = 24, 25, 26, 27, 28
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


def name(err):
    return errno.errorcode.get(err, str(err))


def want(what, got, expected):
    check(what, got == expected, f"(errno {name(got)}, want {name(expected)})")


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
        os._exit(1 if uvw.failed else 0)
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
    print(f"left qpn {q.qpn}", flush=True)


# --- bringing a QP up ---------------------------------------------------

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


def main():
    fd = os.open(sys.argv[1], os.O_RDWR)
    mode = sys.argv[2]
    if mode == "errnos":
        errnos(fd, sys.argv[1])
    print("result: " + ("FAILED" if uvw.failed else "passed"), flush=True)
    return 1 if uvw.failed else 0


if __name__ == "__main__":
    sys.exit(main())
