# scripts/guest/umadlib.py - ib_umad's user ABI (<rdma/ib_user_mad.h>) by
# hand, for umad-loop.py and umad-errno.py: the ib_user_mad header, the
# agent ioctls, MADs, and RDMA netlink's GET_CHARDEV. No libibumad.
import fcntl
import os
import select
import socket
import struct

from abi_check import check
from abi_check import errname as ename

# _IOC(dir, 0x1b, nr, size) of the four ioctls (sizes 28 and 40)
REGISTER_AGENT = 0xC01C1B01
UNREGISTER_AGENT = 0x40041B02
ENABLE_PKEY = 0x1B03
REGISTER_AGENT2 = 0xC0281B04
HDR_NEW, HDR_OLD = 64, 56
QP1_QKEY = 0x80010000
USER_RMPP = 1
MAD_SIZE = 256

def expect_errno(what, want, fn, *args):
    """Run fn(*args); check it failed with errno @want (0: succeeded)."""
    try:
        fn(*args)
        got = 0
    except OSError as err:
        got = err.errno
    check(what, got == want, f"(want {ename(want) if want else 'success'}, "
          f"got {ename(got) if got else 'success'})")
    return got


def gid_bytes(text):
    return bytes.fromhex(text.replace(":", ""))


def ipv4_gid(addr):
    return bytes(10) + b"\xff\xff" + socket.inet_aton(addr)


def hdr(agent_id, gid=None, gid_index=1, timeout_ms=0, retries=0, qpn=1,
        lid=0xFFFF, pkey_index=0, new=True, hop_limit=64, length=0):
    """An ib_user_mad header: @new with pkey_index (64 bytes), else 56."""
    h = struct.pack("<5I", agent_id, 0, timeout_ms, retries, length)
    h += struct.pack(">IIH", qpn, QP1_QKEY, lid)
    h += struct.pack("<6B", 0, 0, 1 if gid else 0, gid_index if gid else 0,
                     hop_limit if gid else 0, 0)
    h += (gid or bytes(16)) + struct.pack(">I", 0)
    if new:
        h += struct.pack("<H6x", pkey_index)
    return h


def parse_hdr(raw):
    f = struct.unpack_from("<5I", raw)
    qpn, qkey, lid = struct.unpack_from(">IIH", raw, 20)
    sl, path_bits, grh, gid_index, hop, tclass = struct.unpack_from("<6B", raw, 30)
    return dict(id=f[0], status=f[1], timeout_ms=f[2], retries=f[3],
                length=f[4], qpn=qpn, lid=lid, grh_present=grh,
                gid_index=gid_index, hop_limit=hop, gid=raw[36:52],
                pkey_index=struct.unpack_from("<H", raw, 56)[0]
                if len(raw) >= 58 else None)


def mad(mgmt_class, method, tid, class_version=1, attr_id=0x10, body=b"",
        oui=0x001405, size=MAD_SIZE, rmpp=None):
    """A MAD of @size bytes: common header, the RMPP header (@rmpp: a tuple
    (type, flags, status, seg, paylen), else zeros), a vendor header of
    range 2 with @oui for classes 0x30-0x4f, then @body, zero padded."""
    m = struct.pack(">BBBBHHQHHI", 1, mgmt_class, class_version, method, 0,
                    0, tid, attr_id, 0, 0)
    r = rmpp or (0, 0, 0, 0, 0)
    m += struct.pack(">BBBBII", 1 if rmpp else 0, r[0], r[1], r[2], r[3], r[4])
    if 0x30 <= mgmt_class <= 0x4F:
        m += struct.pack(">I", oui)
    m += body
    return m + bytes(max(0, size - len(m)))


def mad_tid(m):
    return struct.unpack_from(">Q", m, 8)[0]


def mad_method(m):
    return m[3]


def reg_agent2(fd, mgmt_class=0, methods=(), qpn=1, oui=0x001405,
               rmpp_version=0, flags=0, class_version=1):
    mask = 0
    for m in methods:
        mask |= 1 << m
    buf = bytearray(struct.pack("<IIBBHIQQIB3x", 0, qpn, mgmt_class,
                                class_version, 0, flags, mask & (2**64 - 1),
                                mask >> 64, oui if mgmt_class else 0,
                                rmpp_version))
    fcntl.ioctl(fd, REGISTER_AGENT2, buf)
    return struct.unpack_from("<I", buf)[0], struct.unpack_from("<I", buf, 12)[0]


def reg_agent(fd, mgmt_class=0, methods=(), qpn=1, oui=b"\x00\x14\x05",
              rmpp_version=0, class_version=1):
    mask = 0
    for m in methods:
        mask |= 1 << m
    buf = bytearray(struct.pack("<I", 0) + mask.to_bytes(16, "little") +
                    struct.pack("<BBB3sB", qpn, mgmt_class, class_version,
                                oui, rmpp_version) + bytes(1))
    fcntl.ioctl(fd, REGISTER_AGENT, buf)
    return struct.unpack_from("<I", buf)[0]


def unreg_agent(fd, agent_id):
    fcntl.ioctl(fd, UNREGISTER_AGENT, struct.pack("<I", agent_id))


def enable_pkey(fd):
    fcntl.ioctl(fd, ENABLE_PKEY)


def open_umad(path, pkey=True, nonblock=False):
    fd = os.open(path, os.O_RDWR | (os.O_NONBLOCK if nonblock else 0))
    if pkey:
        enable_pkey(fd)
    return fd


def recv(fd, timeout=5.0, size=HDR_NEW + MAD_SIZE, hsize=HDR_NEW):
    """The next packet of @fd within @timeout seconds: (header, MAD), or
    None."""
    p = select.poll()
    p.register(fd, select.POLLIN)
    if not p.poll(int(timeout * 1000)):
        return None
    raw = os.read(fd, size)
    return parse_hdr(raw[:hsize]), raw[hsize:]


def send(fd, header, m):
    return os.write(fd, header + m)


def get_chardev(dev_index, port, kind):
    """RDMA netlink GET_CHARDEV: (dev_t, abi, name) of @kind for
    @dev_index/@port, or raises OSError with the kernel's errno."""
    NETLINK_RDMA, NLDEV, CMD = 20, 5, 15
    A_DEV_INDEX, A_PORT_INDEX, A_TYPE, A_NAME, A_ABI, A_CHARDEV = 1, 3, 69, 70, 71, 72

    def attr(t, payload):
        ln = 4 + len(payload)
        return struct.pack("<HH", ln, t) + payload + bytes((4 - ln % 4) % 4)

    body = attr(A_DEV_INDEX, struct.pack("<I", dev_index))
    if port:
        body += attr(A_PORT_INDEX, struct.pack("<I", port))
    body += attr(A_TYPE, kind.encode() + b"\0")
    msg = struct.pack("<IHHII", 16 + len(body), (NLDEV << 10) + CMD, 1, 1, 0) + body
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_RDMA)
    try:
        s.sendto(msg, (0, 0))
        data = s.recv(8192)
    finally:
        s.close()
    ln, typ = struct.unpack_from("<IH", data)
    if typ == 2:  # NLMSG_ERROR
        err = struct.unpack_from("<i", data, 16)[0]
        if err:
            raise OSError(-err, os.strerror(-err))
    out, off = {}, 16
    while off + 4 <= ln:
        alen, atype = struct.unpack_from("<HH", data, off)
        out[atype & 0x3FFF] = data[off + 4:off + alen]
        off += (alen + 3) & ~3
    dev = struct.unpack("<Q", out[A_CHARDEV])[0]
    abi = struct.unpack("<Q", out[A_ABI])[0]
    return dev, abi, out[A_NAME].rstrip(b"\0").decode()
