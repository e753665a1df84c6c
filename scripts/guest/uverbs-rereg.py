#!/usr/bin/python3
# scripts/guest/uverbs-rereg.py IBDEV DEVFILE - REREG_MR as the data path
# sees it: an RC QP looped back to itself (pyverbs) RDMA-writes into an MR
# that is reregistered by hand between the writes (REREG_MR through
# write() on the context's own file: rdma-core 44's rxe provider has no
# ibv_rereg_mr). After a new translation the new rkey writes into the new
# buffer and the old rkey is refused; access and PD changed in place are
# honoured by the very next write. Prints one line per check; exit status
# 0 when all held.
import ctypes
import mmap
import os
import struct
import sys
import time

import pyverbs.enums as e
from pyverbs.addr import AHAttr, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import SGE, SendWR

import abi_check
from abi_check import buf, check, write
from abi_check import errname as name

REREG_MR = 11
TRANS, NEWPD, ACCESS = 1, 2, 4
LW, RW = e.IBV_ACCESS_LOCAL_WRITE, e.IBV_ACCESS_REMOTE_WRITE
GID_INDEX = 1   # the IPv4 GID uverbs-env.sh waits for
N = 256


def uverbs_fd(devfile):
    """The context's own file: the one fd of this process on DEVFILE."""
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}") == devfile:
                return int(fd)
        except OSError:
            pass
    raise OSError(f"no fd on {devfile}")


def rereg(fd, handle, flags, start=0, length=0, pd=0, access=0):
    """(errno, lkey, rkey) of a REREG_MR written by hand."""
    r, addr = buf(8)
    body = struct.pack("<QIIQQQII", addr, handle, flags, start, length,
                       start, pd, access)
    hdr = struct.pack("<IHH", REREG_MR, (8 + len(body)) // 4, 2)
    err = write(fd, hdr + body)
    return (err,) + struct.unpack("<II", r.raw)


def loop_qp(ctx, pd, cq):
    """An RC QP connected to itself, ready to send."""
    cap = QPCap(max_send_wr=4, max_recv_wr=4, max_send_sge=1, max_recv_sge=1)
    qp = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=cap))
    attr = QPAttr()
    attr.port_num = 1
    attr.qp_access_flags = LW | RW
    attr.path_mtu = e.IBV_MTU_1024
    attr.dest_qp_num = qp.qp_num
    attr.rq_psn = attr.sq_psn = 0
    attr.max_rd_atomic = attr.max_dest_rd_atomic = 1
    attr.min_rnr_timer = 12
    attr.timeout = 14
    attr.retry_cnt = attr.rnr_retry = 7
    gr = GlobalRoute(dgid=ctx.query_gid(1, GID_INDEX), sgid_index=GID_INDEX)
    attr.ah_attr = AHAttr(gr=gr, is_global=1, port_num=1)
    qp.to_rts(attr)
    return qp


def rdma_write(qp, cq, src, rkey, addr):
    """The status of one signalled RDMA WRITE of src's first N bytes."""
    wr = SendWR(opcode=e.IBV_WR_RDMA_WRITE, num_sge=1,
                sg=[SGE(src.buf, N, src.lkey)],
                send_flags=e.IBV_SEND_SIGNALED)
    wr.set_wr_rdma(rkey, addr)
    qp.post_send(wr)
    end = time.time() + 5
    while time.time() < end:
        n, wcs = cq.poll()
        if n:
            return wcs[0].status
        time.sleep(0.001)
    return "no completion"


def main():
    ibdev, devfile = sys.argv[1], sys.argv[2]
    ctx = Context(name=ibdev)
    fd = uverbs_fd(devfile)
    pd, pd2 = PD(ctx), PD(ctx)
    cq = CQ(ctx, 16)
    src = MR(pd, 4096, LW)
    dst = MR(pd, 4096, LW | RW)
    m = mmap.mmap(-1, 2 * mmap.PAGESIZE)
    nb = ctypes.addressof(ctypes.c_char.from_buffer(m)) + 64
    ok_ = e.IBV_WC_SUCCESS
    # the QP is its own responder: the responder's access error puts it in
    # the error state, so the write completes flushed (or with the NAK)
    refused = (e.IBV_WC_REM_ACCESS_ERR, e.IBV_WC_WR_FLUSH_ERR)

    qps = [loop_qp(ctx, pd, cq)]
    qp = qps[-1]
    src.write(b"A" * N, N)
    st = rdma_write(qp, cq, src, dst.rkey, dst.buf)
    check("RDMA WRITE into the MR", st == ok_ and dst.read(N, 0) == b"A" * N,
          f"(status {st})")

    err, lk, rk = rereg(fd, dst.handle, TRANS, nb, N)
    check("REREG_MR TRANS to a new buffer: new keys",
          err == 0 and rk != dst.rkey, f"({name(err)}, rkey {dst.rkey:#x} -> {rk:#x})")
    src.write(b"B" * N, N)
    st = rdma_write(qp, cq, src, rk, nb)
    check("RDMA WRITE through the new rkey lands in the new buffer",
          st == ok_ and ctypes.string_at(nb, N) == b"B" * N, f"(status {st})")
    check("the old buffer kept its bytes", dst.read(N, 0) == b"A" * N)
    st = rdma_write(qp, cq, src, dst.rkey, dst.buf)
    check("RDMA WRITE through the old rkey refused",
          st in refused and dst.read(N, 0) == b"A" * N, f"(status {st})")

    qps.append(loop_qp(ctx, pd, cq))
    qp = qps[-1]
    err, lk2, rk2 = rereg(fd, dst.handle, ACCESS, access=LW)
    check("REREG_MR ACCESS without remote write: same keys",
          err == 0 and (lk2, rk2) == (lk, rk), f"({name(err)})")
    src.write(b"C" * N, N)
    st = rdma_write(qp, cq, src, rk, nb)
    check("RDMA WRITE after remote write was taken away refused",
          st in refused and ctypes.string_at(nb, N) == b"B" * N,
          f"(status {st})")

    qps.append(loop_qp(ctx, pd, cq))
    qp = qps[-1]
    err = rereg(fd, dst.handle, ACCESS, access=LW | RW)[0]
    st = rdma_write(qp, cq, src, rk, nb)
    check("REREG_MR ACCESS with remote write again: RDMA WRITE works",
          err == 0 and st == ok_ and ctypes.string_at(nb, N) == b"C" * N,
          f"({name(err)}, status {st})")
    err = rereg(fd, dst.handle, NEWPD, pd=pd2.handle)[0]
    src.write(b"D" * N, N)
    st = rdma_write(qp, cq, src, rk, nb)
    check("REREG_MR to another PD: the QP's RDMA WRITE refused",
          err == 0 and st in refused and ctypes.string_at(nb, N) == b"C" * N,
          f"({name(err)}, status {st})")
    # children first: the MR now on pd2 goes before pd2 does
    for obj in qps + [dst, src, cq, pd, pd2, ctx]:
        obj.close()
    check("closed", True)
    return abi_check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
