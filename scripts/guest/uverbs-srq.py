#!/usr/bin/python3
# scripts/guest/uverbs-srq.py DEVFILE - the SRQ commands of ib_uverbs'
# write() ABI by hand: 6.1's errnos for a PD handle that names no PD, XRC
# and tag-matching types (no XRC domains or SRQ CQs yet), MODIFY_SRQ,
# QUERY_SRQ and DESTROY_SRQ of no SRQ (EINVAL), a request too short
# (ENOSPC); that an SRQ the driver refuses (rdma_rxe without room for its
# answer) leaves its PD free; a user SRQ of rdma_rxe: the sizes granted,
# QUERY_SRQ, its PD busy until DESTROY_SRQ.
# One line per check; exit status 0 when all held.
import errno
import importlib.util
import os
import struct
import sys

import abi_check
from abi_check import buf, check, write
from abi_check import expect_errno as want

_spec = importlib.util.spec_from_file_location(
    "uvw", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "uverbs-write.py"))
uvw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(uvw)
legacy = uvw.legacy

GET_CONTEXT, ALLOC_PD, DEALLOC_PD = 0, 3, 4
CREATE_SRQ, MODIFY_SRQ, QUERY_SRQ, DESTROY_SRQ, CREATE_XSRQ = 32, 33, 34, 35, 39
SRQT_BASIC, SRQT_XRC, SRQT_TM = 0, 1, 2
NO_HANDLE = 0x7777
RXE_SRQ_RESP = 24   # struct rxe_create_srq_resp: mminfo, srq_num, reserved


def alloc_pd(fd):
    err, pd = uvw.alloc_pd(fd)
    check("ALLOC_PD", err == 0, f"(errno {err})")
    return pd


def create_srq(fd, pd, max_wr=16, max_sge=1, limit=0, drv_out=0):
    """errno of a CREATE_SRQ with DRV_OUT bytes of room for the driver."""
    return create_srq_handle(fd, pd, max_wr, max_sge, limit, drv_out)[0]


def create_srq_handle(fd, pd, max_wr=16, max_sge=1, limit=0, drv_out=0):
    r, addr = buf(16 + drv_out)
    body = struct.pack("<QQIIII", addr, 0x5151, pd, max_wr, max_sge, limit)
    err = write(fd, legacy(CREATE_SRQ, body, 16 + drv_out))
    return err, struct.unpack("<IIII", r.raw[:16])


def create_xsrq(fd, pd, srq_type):
    r, addr = buf(16)
    body = struct.pack("<QQIIIIIIII", addr, 0x5252, srq_type, pd, 16, 1, 0,
                       0, 0, 0)
    return write(fd, legacy(CREATE_XSRQ, body, 16))


def no_srq(fd):
    body = struct.pack("<IIII", NO_HANDLE, 3, 16, 1)
    want("MODIFY_SRQ of no SRQ: EINVAL",
         write(fd, legacy(MODIFY_SRQ, body, 0)), errno.EINVAL)
    r, addr = buf(16)
    want("QUERY_SRQ of no SRQ: EINVAL",
         write(fd, legacy(QUERY_SRQ, struct.pack("<QII", addr, NO_HANDLE, 0),
                          16)), errno.EINVAL)
    r, addr = buf(4)
    want("DESTROY_SRQ of no SRQ: EINVAL",
         write(fd, legacy(DESTROY_SRQ, struct.pack("<QII", addr, NO_HANDLE, 0),
                          4)), errno.EINVAL)


def main():
    fd = os.open(sys.argv[1], os.O_RDWR)
    async_fd = uvw.open_context(fd)[0]
    pd = alloc_pd(fd)
    want("CREATE_SRQ on no PD: EINVAL", create_srq(fd, NO_HANDLE), errno.EINVAL)
    want("CREATE_XSRQ basic on no PD: EINVAL",
         create_xsrq(fd, NO_HANDLE, SRQT_BASIC), errno.EINVAL)
    want("CREATE_XSRQ XRC: EINVAL", create_xsrq(fd, pd, SRQT_XRC), errno.EINVAL)
    want("CREATE_XSRQ TM: EINVAL", create_xsrq(fd, pd, SRQT_TM), errno.EINVAL)
    r, addr = buf(16)
    want("CREATE_SRQ request too short: ENOSPC",
         write(fd, legacy(CREATE_SRQ, struct.pack("<QQ", addr, 1), 16)),
         errno.ENOSPC)
    # rdma_rxe answers a user SRQ with its ring's mmap information
    want("CREATE_SRQ without room for rdma_rxe's answer: EINVAL",
         create_srq(fd, pd), errno.EINVAL)
    err, (handle, max_wr, max_sge, _) = create_srq_handle(fd, pd, 20, 2,
                                                          drv_out=RXE_SRQ_RESP)
    want("CREATE_SRQ with room for rdma_rxe's answer", err, 0)
    check("CREATE_SRQ grants 20 WRs of 2 SGEs (a power of two less one)",
          (max_wr, max_sge) == (31, 2), f"(got {max_wr}, {max_sge})")
    want("DEALLOC_PD under an SRQ: EBUSY",
         write(fd, legacy(DEALLOC_PD, struct.pack("<I", pd), 0)), errno.EBUSY)
    r, addr = buf(16)
    want("QUERY_SRQ", write(fd, legacy(QUERY_SRQ, struct.pack("<QII", addr,
                                                             handle, 0), 16)), 0)
    check("QUERY_SRQ answers what CREATE_SRQ granted",
          struct.unpack("<III", r.raw[:12]) == (31, 2, 0))
    r, addr = buf(4)
    want("DESTROY_SRQ", write(fd, legacy(DESTROY_SRQ, struct.pack(
        "<QII", addr, handle, 0), 4)), 0)
    no_srq(fd)
    want("DEALLOC_PD after the SRQs: the PD is free",
         write(fd, legacy(DEALLOC_PD, struct.pack("<I", pd), 0)), 0)
    os.close(async_fd)
    os.close(fd)
    print("result: " + ("FAILED" if abi_check.failed else "passed"))
    return 1 if abi_check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
