"""The sandbox launcher: a standalone script (standard library only) that builds the jail and starts the program.

It is not imported by polyreward: :mod:`polyreward.verifiers.sandbox` reads this file's text and runs it with the host
interpreter as ``python -I -S -c <this source> <settings JSON>`` in a fresh, single-threaded process (so, unlike a
``preexec_fn``, it cannot deadlock on a lock another thread of the scorer held at fork time). The design, threat model
and what is and is not isolated are in the docstring of :mod:`polyreward.verifiers.sandbox`; this file is the mechanism:

1. ``unshare`` new network, mount, PID, IPC and UTS namespaces (and a user namespace when not root). No namespace:
   with ``network_isolation: required`` report ``unavailable`` and stop; with ``best_effort`` go on without them.
2. In the new mount namespace (changes stay private to it): a small read-only tmpfs as the new root holding read-only,
   nosuid bind mounts of the system directories and the interpreter's prefix, the ``/dev`` nodes null/zero/urandom,
   and a size-capped tmpfs ``/work`` owned by the sandbox user; ``pivot_root`` into it and detach the old root, so
   nothing of the host's file tree (home directories, the project, the rollout files, the tests) is reachable.
3. Fork: the child is PID 1 of the new PID namespace (the *reaper*); when it exits the kernel kills every process left
   in the namespace, so a fork bomb or a daemon that called ``setsid`` cannot outlive the run. It dies with this
   launcher (``PR_SET_PDEATHSIG``), which the scorer kills with its whole process group at the wall deadline.
4. The reaper forks the program's process, which drops to the sandbox user (as root: a fresh uid nobody else has, so
   the per-user process limit is its own and it can signal no other process; else the user's own uid, seen as 1000
   inside the user namespace, whose capabilities the ``execve`` drops), sets ``PR_SET_NO_NEW_PRIVS`` and the resource limits, and execs the interpreter with the harness.
5. The reaper reports how the program ended (exit code or signal, CPU seconds) on the status pipe, then exits.
"""

import ctypes
import fcntl
import json
import os
import resource
import signal
import sys

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 32, 4096, 16384, 1 << 18
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 1, 4, 38
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}.get(os.uname().machine)
STATVFS_LOCKED = ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV), (os.ST_NOEXEC, MS_NOEXEC))


def main() -> None:
    settings = json.loads(sys.argv[1])
    status_fd = settings["status_fd"]
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # a scorer killed mid-run takes its sandboxes with it
    if os.getppid() != settings["scorer_pid"]:
        return  # the scorer died before the line above

    def report(**fields) -> None:
        os.write(status_fd, (json.dumps(fields) + "\n").encode())

    def check(result: int, what: str) -> None:
        if result != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, f"{what}: {os.strerror(errno)}")

    os.umask(0o022)
    settings["host_root"] = os.getuid() == 0
    isolated = False
    try:
        build_jail(settings, libc, check)
        isolated = True
    except OSError as exc:
        if settings["network_isolation"] == "required":
            report(event="unavailable", detail=str(exc))
            return
        report(event="degraded", detail=str(exc))
    report(event="isolation", isolated=isolated)
    reaper = os.fork()
    if reaper == 0:
        run_reaper(settings, libc, status_fd, isolated)
    os.close(status_fd)
    for fd in settings["program_fds"]:
        os.close(fd)
    while True:  # this launcher only waits: its death (the scorer's group kill) takes the reaper and the namespace
        try:
            os.waitpid(reaper, 0)
            return
        except ChildProcessError:
            return
        except InterruptedError:
            continue


def build_jail(settings: dict, libc, check) -> None:
    root_user = settings["host_root"]
    flags = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS
    if not root_user:
        flags |= CLONE_NEWUSER
        uid, gid = os.getuid(), os.getgid()
    check(libc.unshare(flags), "unshare(network, mount, pid namespaces)")
    if not root_user:
        write_file("/proc/self/setgroups", "deny")
        # the user is uid 1000 inside, not 0: the capabilities unshare gave this process build the jail, and the
        # program's execve, as a non-zero uid, drops them all
        write_file("/proc/self/uid_map", f"1000 {uid} 1")
        write_file("/proc/self/gid_map", f"1000 {gid} 1")
    mount = libc.mount
    mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    check(mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "make / private")
    new_root = settings["root"].encode()
    check(mount(b"tmpfs", new_root, b"tmpfs", MS_NOSUID | MS_NODEV, b"size=1m,mode=0755"), "mount the new root")
    for path in settings["binds"]:
        bind_read_only(path, settings["root"], mount, check)
    work = os.path.join(settings["root"], "work")
    os.mkdir(work)
    owner = f",uid={settings['uid']},gid={settings['uid']}" if root_user else ""
    check(mount(b"tmpfs", work.encode(), b"tmpfs", MS_NOSUID | MS_NODEV,
                f"size={settings['disk_mb']}m,nr_inodes=4096,mode=0700{owner}".encode()), "mount /work")
    check(mount(None, new_root, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, b"size=1m,mode=0755"),
          "make the new root read-only")
    if SYS_PIVOT_ROOT is None:
        raise OSError(0, f"pivot_root: unknown syscall number on {os.uname().machine}")
    os.chdir(settings["root"])
    check(libc.syscall(SYS_PIVOT_ROOT, b".", b"."), "pivot_root")
    check(libc.umount2(b".", MNT_DETACH), "detach the old root")
    os.chdir("/")


def bind_read_only(path: str, root: str, mount, check) -> None:
    """``path`` at the same place under ``root``: a symlink stays a symlink, a directory or file becomes a read-only,
    nosuid bind mount (keeping the flags the source mount has locked, which a user namespace may not clear)."""
    target = root + path
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if os.path.islink(path):
        os.symlink(os.readlink(path), target)
        return
    if os.path.isdir(path):
        os.makedirs(target, exist_ok=True)
    else:
        open(target, "w").close()
    check(mount(path.encode(), target.encode(), None, MS_BIND | MS_REC, None), f"bind {path}")
    locked = sum(flag for st_flag, flag in STATVFS_LOCKED if os.statvfs(path).f_flag & st_flag)
    if path.startswith("/dev/"):
        locked &= ~MS_NODEV
    check(mount(None, target.encode(), None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | locked, None),
          f"make {path} read-only")


def write_file(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def run_reaper(settings: dict, libc, status_fd: int, isolated: bool) -> None:
    """PID 1 of the new namespace (or a plain child without one): start the program, reap every process, report."""
    try:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() == 1 and not isolated:  # the launcher is already gone: nothing to report to
            os._exit(0)
        program = os.fork()
        if program == 0:
            exec_program(settings, libc, status_fd, isolated)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while True:
            try:
                pid, status, usage = os.wait4(-1, 0)
            except ChildProcessError:
                break
            except InterruptedError:
                continue
            if pid == program:
                cpu = usage.ru_utime + usage.ru_stime
                if os.WIFSIGNALED(status):
                    os.write(status_fd, (json.dumps({"event": "ended", "signal": os.WTERMSIG(status), "cpu": cpu}) + "\n").encode())
                else:
                    os.write(status_fd, (json.dumps({"event": "ended", "exit": os.WEXITSTATUS(status), "cpu": cpu}) + "\n").encode())
                if isolated:
                    break  # leaving PID 1 ends every other process of the namespace
                try:
                    os.killpg(program, signal.SIGKILL)  # no namespace: the program's group's leftovers go now
                except OSError:
                    pass
    finally:
        os._exit(0)


def exec_program(settings: dict, libc, status_fd: int, isolated: bool) -> None:
    try:
        os.close(status_fd)
        if not isolated:
            os.setsid()  # its own group, which the reaper kills when the program ends
        os.chdir("/work" if isolated else settings["work"])
        if settings["host_root"]:
            uid = settings["uid"]
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)  # a uid of its own: no capabilities, a process count of its own, no one else to signal
        # else: the user's own uid (1000 inside the user namespace); execve of a non-zero uid drops every capability
        libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # cleared by the uid change: set again
        fds = settings["program_fds"]  # spec (read), result (write) -> 3 and 4; every other descriptor closed
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 100) for fd in fds]  # out of the way of 3 and 4 first
        os.dup2(high[0], 3)
        os.dup2(high[1], 4)
        os.closerange(5, 65536)
        limits = settings["limits"]
        for name, value in limits.items():
            resource.setrlimit(getattr(resource, name), (value, value) if name != "RLIMIT_CPU" else (value, value + 1))
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/work" if isolated else settings["work"],
               "TMPDIR": "/work" if isolated else settings["work"], "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        python = settings["python"] if isolated else settings["fallback_python"]
        if python is None:
            raise OSError(0, "no interpreter the sandbox user may run outside a mount namespace")
        os.execve(python, [python, "-I", "-S", "-B", "-c", settings["harness"]], env)
    except BaseException as exc:  # noqa: BLE001 -- whatever stopped the exec: the program never ran
        try:
            os.write(2, f"sandbox: cannot start the program: {exc!r}\n".encode())
        finally:
            os._exit(126)


if __name__ == "__main__":
    main()
