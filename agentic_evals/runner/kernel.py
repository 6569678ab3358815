"""The Linux calls that Python 3.11 lacks, through ctypes on libc.

``unshare``, ``setns``, ``mount`` and ``umount2`` (namespaces and mounts for
private trial views, :mod:`agentic_evals.runner.isolation`), ``inotify_init1``
and ``inotify_add_watch`` (:mod:`agentic_evals.runner.fresh_files`), ``prctl``
(the subreaper), and bringing up the loopback interface of a fresh network
namespace. Every call raises :class:`OSError` with the kernel's errno, so
that callers can fall back; on other platforms they raise ``ENOSYS``.
Namespace changes made here apply to the calling thread only (``CLONE_NEWNS``
implies ``CLONE_FS``), which is how each trial worker gets a mount namespace
of its own.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import functools
import os
import socket
import struct
import sys
from typing import Any

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000

MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_REMOUNT = 0x20
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
MS_SLAVE = 1 << 19
MNT_DETACH = 0x2

_CAP_SYS_ADMIN = 21
_SIOCSIFFLAGS = 0x8914
_IFF_UP_LOOPBACK_RUNNING = 0x1 | 0x8 | 0x40


@functools.cache
def _libc() -> Any:
    if not sys.platform.startswith("linux"):
        raise OSError(errno.ENOSYS, "namespaces and mounts need Linux")
    libc = ctypes.CDLL(None, use_errno=True)
    libc.unshare.argtypes = [ctypes.c_int]
    libc.setns.argtypes = [ctypes.c_int, ctypes.c_int]
    libc.mount.argtypes = [ctypes.c_char_p] * 3 + [ctypes.c_ulong, ctypes.c_char_p]
    libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
    libc.inotify_init1.argtypes = [ctypes.c_int]
    libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
    libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
    return libc


def _check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"{what}: {os.strerror(number)}")


def _bytes(value: str | os.PathLike[str] | None) -> bytes | None:
    return None if value is None else os.fsencode(value)


def unshare(flags: int) -> None:
    """Move the calling thread into new namespaces (``unshare(2)``)."""
    _check(_libc().unshare(flags), "unshare")


def setns(fd: int, nstype: int) -> None:
    """Move the calling thread into the namespace ``fd`` refers to (``setns(2)``)."""
    _check(_libc().setns(fd, nstype), "setns")


def mount(
    source: str | os.PathLike[str] | None,
    target: str | os.PathLike[str],
    fstype: str | None,
    flags: int = 0,
    data: str | None = None,
) -> None:
    """Mount ``source`` on ``target`` (``mount(2)``), in the thread's mount namespace."""
    result = _libc().mount(_bytes(source), _bytes(target), _bytes(fstype), flags, _bytes(data))
    _check(result, f"mount {fstype or 'bind'} on {os.fsdecode(target)}")


def umount(target: str | os.PathLike[str], flags: int = MNT_DETACH) -> None:
    """Unmount ``target`` (``umount2(2)``), detached by default."""
    _check(_libc().umount2(_bytes(target), flags), f"umount {os.fsdecode(target)}")


def inotify_init(flags: int) -> int:
    """A new inotify instance's descriptor (``inotify_init1(2)``)."""
    fd = int(_libc().inotify_init1(flags))
    if fd < 0:
        _check(fd, "inotify_init1")
    return fd


def inotify_add_watch(fd: int, path: str | os.PathLike[str], mask: int) -> int:
    """Watch ``path`` on inotify instance ``fd`` (``inotify_add_watch(2)``); the watch's number."""
    wd = int(_libc().inotify_add_watch(fd, os.fsencode(path), mask))
    if wd < 0:
        _check(wd, f"inotify_add_watch {os.fsdecode(path)}")
    return wd


def open_namespace(kind: str) -> int:
    """Return a descriptor of the calling thread's namespace of ``kind`` (``mnt``, ``net``)."""
    return os.open(f"/proc/thread-self/ns/{kind}", os.O_RDONLY | os.O_CLOEXEC)


def namespace_of(pid: int, kind: str = "mnt") -> str | None:
    """The namespace of ``kind`` process ``pid`` is in (``mnt:[inode]``), None when unreadable."""
    try:
        return os.readlink(f"/proc/{pid}/ns/{kind}")
    except OSError:
        return None


def capable_sys_admin() -> bool:
    """Whether this process holds CAP_SYS_ADMIN in its user namespace."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("CapEff:"):
                    return bool(int(line.split()[1], 16) >> _CAP_SYS_ADMIN & 1)
    except (OSError, ValueError):
        pass
    return False


def loopback_up() -> None:
    """Bring up ``lo`` in the calling thread's network namespace."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14x", b"lo", _IFF_UP_LOOPBACK_RUNNING)
        fcntl.ioctl(sock.fileno(), _SIOCSIFFLAGS, request)


def single_threaded() -> bool:
    """Whether this process has one thread (``CLONE_NEWUSER`` requires it)."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def enter_user_namespace() -> None:
    """Move this (single-threaded) process into a user namespace of its own.

    The user and group map to themselves, so files keep their owner and the
    trials run as the same user, without capabilities; the runner itself
    gains CAP_SYS_ADMIN over namespaces it creates from now on, which lets an
    unprivileged runner mount trial views.

    The namespace is tried first in a forked child: once this process has
    left its user namespace it cannot come back, and a namespace whose maps
    the kernel refuses would leave it an unmapped user who can no longer
    create files. Root without CAP_SYS_ADMIN (a container's) is always
    refused: mapping root needs CAP_SETFCAP in the parent namespace (Linux
    5.12 and later), which a process writing its own map from inside lacks.

    Raises:
        OSError: The kernel refused the namespace or its maps; this process
            is where it was.
    """
    refused = _user_namespace_refused()
    if refused is not None:
        raise refused
    unshare(CLONE_NEWUSER)
    _map_to_self()


def _map_to_self() -> None:
    uid, gid = os.getuid(), os.getgid()
    # setgroups must be denied before an unprivileged process may write its gid map.
    maps = (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1"))
    for name, text in maps:
        with open(f"/proc/self/{name}", "w", encoding="ascii") as handle:
            handle.write(text)


def _user_namespace_refused() -> OSError | None:
    """Why a user namespace mapped to this process's user fails, tried in a child; None if not."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports by its exit status only
        code = 0
        try:
            unshare(CLONE_NEWUSER)
            _map_to_self()
        except OSError as error:
            code = error.errno or errno.EPERM
        except BaseException:
            code = errno.EPERM
        os._exit(code)
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if status == 0:
        return None
    number = status if status > 0 else errno.EPERM
    if os.getuid() == 0 and number == errno.EPERM:
        why = "the kernel does not let root map itself into one from inside (CAP_SETFCAP)"
        return OSError(number, why)
    return OSError(number, os.strerror(number))


def prctl(option: int, value: int) -> None:
    """Set a property of this process (``prctl(2)`` with one argument)."""
    _check(_libc().prctl(option, value, 0, 0, 0), "prctl")
