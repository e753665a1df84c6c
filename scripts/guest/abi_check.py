# scripts/guest/abi_check.py - what the guest scripts that speak a kernel
# ABI by hand (uverbs-*.py, ucma-errno.py, ...) share: one output line per
# check with a count of those that failed, the errno of a raw write(), and
# buffers whose address goes into a command. Imported by name: a script
# run as scripts/guest/X.py finds it beside itself.
import ctypes
import errno
import os

failed = 0


def check(what, ok, detail=""):
    """Print one check's verdict; count it when it did not hold."""
    global failed
    print(f"{'ok  ' if ok else 'FAIL'} {what} {detail}", flush=True)
    failed += not ok


def errname(e):
    """errno @e by its name (EINVAL), or the number when it has none."""
    return errno.errorcode.get(e, str(e))


def write(fd, data):
    """The errno of a write(), 0 when it took all of @data, -1 if part."""
    try:
        n = os.write(fd, data)
        return 0 if n == len(data) else -1
    except OSError as err:
        return err.errno


def expect_errno(what, got, want, detail=""):
    """Check that an operation's errno @got is @want (0: it succeeded)."""
    check(what, got == want,
          f"(errno {errname(got)}, want {errname(want)}) {detail}".rstrip())


def buf(n):
    """A zeroed n-byte buffer and its address, for a command's pointer."""
    b = ctypes.create_string_buffer(n)
    return b, ctypes.addressof(b)


def exit_status():
    """0 when every check held, 1 otherwise."""
    return 1 if failed else 0
