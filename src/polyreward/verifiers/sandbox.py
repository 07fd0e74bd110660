"""A local sandbox for running untrusted Python programs (the ``code_execution`` reward's runner).

Threat model
------------
The program is written by the policy being trained, which is paid for whatever makes the reward pay: it is hostile
and adaptive. It may loop forever, fork without end, allocate without end, fill the disk or the output pipe, open
sockets, read the machine's files (the user's keys, the project, the rollout file with the expected outputs), write
outside its directory, spawn a shell, signal or kill the scorer, leave processes behind, read the tests from the
harness and print the expected answers, or exit "successfully" before the tests run. Each of these must end the run
cleanly with a distinct reason, score nothing it did not earn, and leave the machine as it was. Out of scope: kernel
exploits (the sandbox shares the host kernel) and side channels (CPU timing, the machine's load).

Mechanism (each run, :func:`run_program`)
-----------------------------------------
* A fresh process tree: the scorer starts :mod:`~polyreward.verifiers.sandbox_launcher` with the host interpreter
  (``-I -S``: no site-packages, no ``PYTHON*`` variables, no user directories on ``sys.path``) in a new session with
  a cleared environment, and the whole process group is killed at the wall deadline.
* Namespaces: new network (only a down loopback: no connection leaves, none reaches a local service), mount, PID,
  IPC and UTS namespaces; a user namespace too when the scorer is not root. When the kernel refuses them the run is
  refused with reason ``sandbox_unavailable``, unless ``network_isolation: best_effort`` accepts a run without them
  (then only the limits, the cleared environment, the temporary directory and, as root, the separate uid below hold;
  the network and the file system are the host's).
* File system: the root is a read-only tmpfs holding read-only, nosuid bind mounts of ``/usr``, ``/bin``, ``/lib*``
  and the interpreter's prefix, ``/dev/{null,zero,urandom}``, and ``/work``, an empty size-capped tmpfs that is the
  working directory, ``HOME`` and ``TMPDIR``. The old root is detached: home directories, the project, the rollout
  files, ``/tmp`` and ``/proc`` of the host do not exist inside. Nothing the program writes survives the run.
* Identity: as root the program runs as a fresh random uid (no capabilities, no ``/etc/passwd`` entry, a process
  count of its own, no other process it may signal), with ``PR_SET_NO_NEW_PRIVS`` so no setuid binary lifts it;
  as an ordinary user it runs as the user's own uid, seen as 1000 in its user namespace, without capabilities.
* Limits (``setrlimit`` in the program's process before ``exec``): CPU seconds (``RLIMIT_CPU``: SIGXCPU, then
  SIGKILL a second later), address space (``RLIMIT_AS``), file size, process count (``RLIMIT_NPROC``), open files,
  no core files. The scorer sums the CPU time and resident memory of the run's process tree every quarter second
  and kills the group when they pass the budget; the wall deadline stops runs that block, not runs a loaded machine slows (:func:`_wait`). stdout and
  stderr are read up to a cap, after which the pipe is closed.
* No leftovers: the program's process is a child of PID 1 of its own PID namespace; when the program ends (or the
  launcher is killed) PID 1 exits and the kernel kills everything else in the namespace, including daemons that
  called ``setsid``. The mounts and tmpfs exist only inside the namespace.
* Tests: for stdin/stdout tests only the input enters the sandbox; the expected output never does and is compared
  by the scorer. Assert-style tests must run in the program's process; they reach it through a pipe (never a file),
  are compiled before the program runs and executed after its top level, under an audit hook that refuses frame
  and object-graph introspection, and a pass counts only when the harness writes ``done`` with a per-run nonce the
  program never sees (:mod:`~polyreward.verifiers.sandbox_harness`).

Not isolated, and what a multi-tenant deployment should add: the kernel is shared (a kernel bug is an escape:
use gVisor, a microVM such as Firecracker, or nsjail with a seccomp policy); there is no seccomp filter, so every
system call the kernel allows an unprivileged user is available; there is no cgroup, so the kernel limits CPU time
and memory per process and the per-run totals are the scorer's quarter-second checks (a shorter burst can hold up to
``RLIMIT_NPROC`` times the per-process memory); the read-only system directories are visible. For many users' code on one machine run a dedicated
service (SandboxFusion, nsjail, containers with cgroups) and point the reward at it (``sandbox: {url: ...}``).
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from polyreward.verifiers.sandbox_pipes import CappedReader as _Reader
from polyreward.verifiers.sandbox_pipes import PipeWriter as _Writer

ISOLATION = ("required", "best_effort")
_HERE = Path(__file__).resolve().parent
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc/alternatives", "/etc/ld.so.cache")
_DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom")
_STDERR_CAP = 64 * 1024
_RESULT_CAP = 1 << 20


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run. ``cpu_seconds`` is the program's CPU time (whole seconds, rounded up);
    ``wall_seconds`` the scorer's deadline for the whole run; sizes in MB; ``processes`` the program's own processes."""

    cpu_seconds: float = 5.0
    wall_seconds: float | None = None  # default: 3 x cpu_seconds + 2
    memory_mb: int = 512
    file_mb: int = 16
    disk_mb: int = 32
    processes: int = 16
    open_files: int = 64
    output_bytes: int = 1 << 20

    def wall(self) -> float:
        return self.wall_seconds if self.wall_seconds is not None else 3 * self.cpu_seconds + 2

    def rlimits(self) -> dict[str, int]:
        mb = 1024 * 1024
        return {"RLIMIT_CPU": max(1, int(-(-self.cpu_seconds // 1))), "RLIMIT_AS": self.memory_mb * mb,
                "RLIMIT_FSIZE": self.file_mb * mb, "RLIMIT_NPROC": self.processes, "RLIMIT_NOFILE": self.open_files,
                "RLIMIT_CORE": 0}


@dataclass
class RunResult:
    """How one run ended. ``status``: ``ok`` (ran to its end), ``compile_error``, ``timeout``, ``memory``, ``crash``
    (non-zero exit or a signal), ``unavailable`` (no sandbox could be made: nothing ran)."""

    status: str
    stdout: bytes = b""
    stderr: bytes = b""
    exit_code: int | None = None
    signal: int | None = None
    detail: str = ""
    events: list[tuple[str, int, str]] = field(default_factory=list)  # the harness's lines (assert-style tests)
    output_truncated: bool = False
    isolated: bool = False
    cpu_seconds: float | None = None
    wall_seconds: float = 0.0


@functools.lru_cache(maxsize=None)
def _source(name: str) -> str:
    """The text of a sibling script run with ``-c`` (read once per process)."""
    return (_HERE / name).read_text()


def sandbox_python() -> str:
    """The interpreter programs run with: this process's own (its real path; its prefix is bound into the jail)."""
    return os.path.realpath(sys.executable)


def _world_usable(path: str) -> bool:
    """Whether any user may run ``path``: every directory on the way searchable and the file readable by others."""
    real = os.path.realpath(path)
    try:
        if os.stat(real).st_mode & 0o005 != 0o005:
            return False
        parent = os.path.dirname(real)
        while True:
            if os.stat(parent).st_mode & 0o001 == 0:
                return False
            if parent == "/":
                return True
            parent = os.path.dirname(parent)
    except OSError:
        return False


def fallback_python() -> str | None:
    """Without a mount namespace (best_effort) the program runs as another uid on the host's file tree, so the
    interpreter must be one every user may run: this one if it is, else the system's ``python3``."""
    for candidate in (sandbox_python(), "/usr/bin/python3", "/usr/local/bin/python3"):
        if os.path.exists(candidate) and _world_usable(candidate):
            return os.path.realpath(candidate)
    return None


def _binds(python: str) -> list[str]:
    prefix = os.path.realpath(sys.base_prefix)
    paths = [p for p in _SYSTEM_DIRS if os.path.lexists(p)] + [p for p in _DEVICES if os.path.exists(p)]
    if not any(prefix == d or prefix.startswith(d + "/") for d in _SYSTEM_DIRS):
        paths.append(prefix)
    directory = os.path.dirname(python)
    if not any(directory == p or directory.startswith(p + "/") for p in paths if os.path.isdir(p)):
        paths.append(directory)
    return paths


def run_program(program: str, tests: str | None = None, stdin: bytes | str = b"", limits: Limits = Limits(),
                network_isolation: str = "required") -> RunResult:
    """Run ``program`` once in a fresh sandbox (see the module docstring) and say how it ended.

    ``tests`` None: a stdin/stdout run, ``stdin`` fed to the program, its stdout returned for the caller to compare.
    ``tests`` a string of assert-style Python: run after the program in its namespace; :attr:`RunResult.events` holds
    the harness's ``pass``/``fail``/``error``/``done`` lines (only those carrying this run's nonce)."""
    if network_isolation not in ISOLATION:
        raise ValueError(f"network_isolation must be one of {', '.join(ISOLATION)}, got {network_isolation!r}")
    if sys.platform != "linux":
        return RunResult("unavailable", detail=f"the local sandbox needs Linux namespaces; this is {sys.platform}")
    stdin_bytes = stdin.encode() if isinstance(stdin, str) else stdin
    nonce = secrets.token_hex(16)
    spec = json.dumps({"nonce": nonce, "program": program, "tests": tests}).encode()
    python = sandbox_python()
    uid = 10_000_000 + secrets.randbelow(1_000_000_000)  # a uid no account and no other run has
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="polyreward-sandbox-") as scratch:
        root = os.path.join(scratch, "root")
        work = os.path.join(scratch, "work")  # used only without namespaces (best_effort)
        os.mkdir(root, 0o700)
        os.mkdir(work, 0o700)
        if os.getuid() == 0:
            os.chown(work, uid, uid)
            os.chmod(scratch, 0o711)
        status_r, status_w = os.pipe()
        spec_r, spec_w = os.pipe()
        result_r, result_w = os.pipe()
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        stderr_r, stderr_w = os.pipe()
        settings = {"status_fd": status_w, "program_fds": [spec_r, result_w], "root": root, "work": work, "uid": uid,
                    "binds": _binds(python), "disk_mb": limits.disk_mb, "limits": limits.rlimits(), "python": python,
                    "fallback_python": fallback_python() if os.getuid() == 0 else python,
                    "network_isolation": network_isolation, "scorer_pid": os.getpid(),
                    "harness": _source("sandbox_harness.py")}
        launcher = _source("sandbox_launcher.py")
        try:
            process = subprocess.Popen([python, "-I", "-S", "-B", "-c", launcher, json.dumps(settings)],
                                       stdin=stdin_r, stdout=stdout_w, stderr=stderr_w,
                                       pass_fds=(status_w, spec_r, result_w), env={}, cwd=scratch,
                                       start_new_session=True)
        except BaseException:
            for fd in (status_r, spec_w, result_r, stdin_w, stdout_r, stderr_r):
                os.close(fd)
            raise
        finally:
            for fd in (status_w, spec_r, result_w, stdin_r, stdout_w, stderr_w):
                os.close(fd)
        readers = [_Reader(stdout_r, limits.output_bytes), _Reader(stderr_r, _STDERR_CAP),
                   _Reader(status_r, 64 * 1024), _Reader(result_r, _RESULT_CAP)]
        writers = [_Writer(spec_w, spec), _Writer(stdin_w, stdin_bytes)]
        stopped = _wait(process, started, limits)
        _kill_group(process)
        # every process that held the pipes' other ends is dead now (the PID namespace went with the reaper), so the
        # threads end at EOF or EPIPE; one that does not (a leftover outside any namespace, best_effort) keeps its
        # descriptor rather than have a number another run may reuse closed under it
        for pipe_end in readers + writers:
            pipe_end.thread.join(5.0)
    result = _classify(readers, nonce, stopped, limits)
    result.wall_seconds = time.monotonic() - started
    return result


COMPUTING_SHARE = 0.02  # a run that got at least this share of a core since the last check is computing, not blocked
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if "SC_CLK_TCK" in os.sysconf_names else 100


_PAGE = os.sysconf("SC_PAGE_SIZE") if "SC_PAGE_SIZE" in os.sysconf_names else 4096


def tree_usage(pid: int) -> tuple[float, int] | None:
    """(CPU seconds, resident bytes) of process ``pid`` and every live descendant; the CPU includes the children each
    has reaped (``/proc/<pid>/stat``: utime, stime, cutime, cstime, rss; proc(5)); None where ``/proc`` cannot tell."""
    cpu, rss, todo, seen = 0.0, 0, [pid], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            with open(f"/proc/{current}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            cpu += sum(int(v) for v in fields[11:15]) / _CLOCK_TICKS
            rss += int(fields[21]) * _PAGE
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", "rb") as f:
                    todo.extend(int(child) for child in f.read().split())
        except (OSError, ValueError, IndexError):
            if current == pid:
                return None
    return cpu, rss


def _wait(process: subprocess.Popen, started: float, limits: Limits) -> dict:
    """Wait for the launcher to end; ``{}`` when it did, else why it was stopped.

    The run's budgets are CPU time and resident memory, summed over its whole process tree (a fork bomb's processes
    share them; each process also has ``RLIMIT_CPU`` and ``RLIMIT_AS``), checked every quarter second; CPU time, so a loaded machine slows a run without failing it. The wall deadline stops runs
    that block (sleep, a read that never returns); one that is still computing at the deadline, only slowed by the
    load, gets another wall period while its CPU budget lasts, as the engine's worker pool does for its items."""
    deadline = started + limits.wall()
    window_start, window_cpu = started, 0.0
    while True:
        try:
            process.wait(timeout=max(0.0, min(deadline - time.monotonic(), 0.25)))
            return {}
        except subprocess.TimeoutExpired:
            pass
        now = time.monotonic()
        usage = tree_usage(process.pid)
        cpu = usage[0] if usage is not None else None
        if cpu is not None and cpu >= limits.cpu_seconds + 0.25:  # the launcher and reaper use a few hundredths
            return {"timed_out": True, "cpu": cpu}
        if usage is not None and usage[1] > (limits.memory_mb + 64) * 1024 * 1024:  # + the launcher's and reaper's own
            return {"memory": True, "cpu": cpu}
        if now < deadline:
            continue
        if cpu is not None and cpu - window_cpu >= COMPUTING_SHARE * (now - window_start):
            window_start, window_cpu, deadline = now, cpu, now + limits.wall()
            continue
        return {"timed_out": True, "wall": True, "cpu": cpu}


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


def _status_events(raw: bytes) -> list[dict]:
    events = []
    for line in raw.decode("utf-8", "replace").splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            continue
    return events


def _harness_events(raw: bytes, nonce: str) -> list[tuple[str, int, str]]:
    events = []
    for line in raw.decode("utf-8", "replace").splitlines():
        parts = line.split("\t", 3)
        if len(parts) == 4 and parts[0] == nonce:
            try:
                events.append((parts[1], int(parts[2]), parts[3]))
            except ValueError:
                continue
    return events


def _classify(readers: list[_Reader], nonce: str, stopped: dict, limits: Limits) -> RunResult:
    stdout, stderr, status, results = readers
    statuses = _status_events(status.data)
    isolated = any(e.get("event") == "isolation" and e.get("isolated") for e in statuses)
    unavailable = next((e for e in statuses if e.get("event") == "unavailable"), None)
    if unavailable is not None:
        return RunResult("unavailable", detail=f"no isolated sandbox: {unavailable.get('detail', '')}")
    if not any(e.get("event") == "isolation" for e in statuses):
        tail = stderr.data.decode("utf-8", "replace").strip().splitlines()
        return RunResult("unavailable", detail="the sandbox launcher failed: " + (tail[-1][:200] if tail else "no output"))
    ended = dict(next((e for e in statuses if e.get("event") == "ended"), {}))
    if stopped.get("memory"):
        ended["tree_memory"] = True
    elif stopped:
        ended.update(timed_out=True, cpu=max(ended.get("cpu") or 0.0, stopped.get("cpu") or 0.0), wall=stopped.get("wall"))
    return classify_harness(stdout.data, stderr.data, results.data, nonce, ended, limits, isolated, stdout.truncated)


def classify_harness(stdout: bytes, stderr: bytes, results: bytes, nonce: str, ended: dict, limits: Limits,
                     isolated: bool, output_truncated: bool) -> RunResult:
    """A :class:`RunResult` from what a run left: its output, the harness's lines (``results``, only those carrying
    ``nonce`` count) and how the process ended (``ended``: ``exit`` or ``signal``, ``cpu`` seconds, ``timed_out``
    when the wall deadline or the remote service's time limit stopped it). Shared by the local and remote runners."""
    events = _harness_events(results, nonce)
    stderr = b"\n".join(line for line in stderr.split(b"\n") if not line.startswith(nonce.encode()))
    result = RunResult("ok", stdout[:limits.output_bytes], stderr, exit_code=ended.get("exit"), signal=ended.get("signal"),
                       events=events, output_truncated=output_truncated, isolated=isolated, cpu_seconds=ended.get("cpu"))
    compile_error = next((e for e in events if e[0] == "compile_error"), None)
    if compile_error is not None:
        result.status, result.detail = "compile_error", compile_error[2]
        return result
    if ended.get("tree_memory") or any(e[0] == "memory" for e in events) or b"MemoryError" in stderr[-2000:]:
        result.status = "memory"
        result.detail = ("its processes together held more than the memory limit" if ended.get("tree_memory")
                         else "memory limit exceeded")
        return result
    cpu_limit = limits.rlimits()["RLIMIT_CPU"]
    used = result.cpu_seconds or 0.0
    killed = result.signal == signal.SIGXCPU or (result.signal == signal.SIGKILL and used >= cpu_limit - 0.05)
    if ended.get("timed_out") or killed:
        result.status = "timeout"
        result.detail = (f"ran past the wall deadline of {limits.wall():.3g} s without computing" if ended.get("wall")
                         else f"used its {limits.cpu_seconds:g} s of CPU time")
        return result
    if output_truncated:
        result.status, result.detail = "output_limit", f"wrote more than {limits.output_bytes} bytes to stdout"
        return result
    if result.signal is not None:
        known = result.signal in signal.Signals._value2member_map_
        result.status, result.detail = "crash", f"killed by {signal.Signals(result.signal).name if known else result.signal}"
        return result
    if result.exit_code is None:
        result.status, result.detail = "crash", "ended without an exit status"
        return result
    if result.exit_code == 126 and stderr.startswith(b"sandbox: cannot start the program"):
        result.status, result.detail = "unavailable", stderr.decode("utf-8", "replace").strip()[:300]
        return result
    if result.exit_code != 0:
        lines = stderr.decode("utf-8", "replace").strip().splitlines()
        result.status, result.detail = "crash", f"exit code {result.exit_code}" + (f": {lines[-1][:200]}" if lines else "")
    return result
