"""Hostile programs against the local sandbox: each fails cleanly and leaves the machine as it was.

Limits are small (1 CPU second, 3 s wall, 8 processes, 128-256 MB) so the suite stays cheap on a shared machine.
"After" checks: no process of a sandbox uid is left, no file appeared outside, the scorer and a canary live on.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from polyreward.verifiers.sandbox import Limits, run_program

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the local sandbox is Linux-only (namespaces)")

SMALL = Limits(cpu_seconds=1, wall_seconds=3, memory_mb=256, processes=8, output_bytes=64 * 1024)
SANDBOX_UIDS = range(10_000_000, 1_010_000_000)  # the range run_program draws its fresh uids from


def sandbox_processes() -> list[int]:
    """Processes on this machine that run as a sandbox uid (none may outlive its run)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                uid_line = next(line for line in (entry / "status").read_text().splitlines() if line.startswith("Uid:"))
            except (OSError, StopIteration):
                continue
            if int(uid_line.split()[1]) in SANDBOX_UIDS:
                found.append(int(entry.name))
    return found


@pytest.fixture(autouse=True)
def leaves_no_process():
    yield
    assert sandbox_processes() == []


def test_infinite_loop_stops_at_its_cpu_budget():
    result = run_program("while True:\n    pass\n", limits=SMALL)
    assert result.status == "timeout" and "CPU" in result.detail


def test_sleeping_program_stops_at_the_wall_deadline():
    result = run_program("import time\ntime.sleep(60)\n", limits=SMALL)
    assert result.status == "timeout" and "wall" in result.detail
    assert result.wall_seconds < 10


def test_a_computing_run_outlives_a_short_wall_deadline_but_not_its_cpu_budget():
    """The budget is CPU time: a loaded machine (here: a wall deadline far below the CPU needed) slows a computing
    program without failing it, while a blocked one stops at the deadline."""
    limits = Limits(cpu_seconds=5, wall_seconds=0.3, memory_mb=256, processes=8)
    busy = "import time\nend = time.process_time() + 0.8\nwhile time.process_time() < end:\n    pass\nprint('done')\n"
    result = run_program(busy, limits=limits)
    assert result.status == "ok" and result.stdout == b"done\n", result
    result = run_program("import time\ntime.sleep(30)\n", limits=limits)
    assert result.status == "timeout" and "without computing" in result.detail


def test_fork_bomb_is_capped_and_killed_with_every_child():
    bomb = "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    result = run_program(bomb, limits=SMALL)
    assert result.status == "timeout"


def test_daemon_that_leaves_the_session_dies_with_the_run(tmp_path):
    daemon = ("import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(60)\n"
              "    os._exit(0)\nprint('parent done')\n")
    result = run_program(daemon, limits=SMALL)
    assert result.status == "ok" and result.stdout == b"parent done\n"
    # the fixture checks that the grandchild (setsid, double fork) is gone


def test_a_scorer_killed_mid_run_leaves_no_sandbox_behind():
    import time

    src = str(Path(__file__).resolve().parents[1] / "src")
    scorer = subprocess.Popen([sys.executable, "-c", f"import sys; sys.path.insert(0, {src!r})\n"
                               "from polyreward.verifiers.sandbox import run_program, Limits\n"
                               "run_program('import time\\ntime.sleep(60)', limits=Limits(cpu_seconds=1, wall_seconds=60))"])
    try:
        deadline = time.monotonic() + 30
        while not sandbox_processes() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert sandbox_processes(), "the sandboxed program never started"
    finally:
        scorer.kill()
        scorer.wait()
    deadline = time.monotonic() + 10
    while sandbox_processes() and time.monotonic() < deadline:
        time.sleep(0.1)
    # the autouse fixture asserts that none is left


def test_memory_bomb_is_a_memory_failure():
    result = run_program("blocks = []\nwhile True:\n    blocks.append(bytearray(10 ** 7))\n", limits=SMALL)
    assert result.status == "memory"


def test_memory_spread_over_processes_counts_together():
    """Each child stays under RLIMIT_AS; together they pass the run's memory: the scorer's tree check stops them."""
    spread = ("import os, time\nfor _ in range(6):\n    if os.fork() == 0:\n        block = bytearray(100 * 1024 * 1024)\n"
              "        time.sleep(30)\n        os._exit(0)\ntime.sleep(30)\n")
    result = run_program(spread, limits=Limits(cpu_seconds=2, wall_seconds=6, memory_mb=200, processes=8))
    assert result.status == "memory" and "together" in result.detail


def test_huge_output_is_cut_at_the_cap():
    result = run_program("import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n", limits=SMALL)
    assert result.status == "output_limit"
    assert len(result.stdout) <= SMALL.output_bytes


def test_writing_outside_its_directory_leaves_nothing(tmp_path):
    targets = [f"/tmp/pwned-{uuid.uuid4().hex}", str(tmp_path / "pwned"), f"/root/pwned-{uuid.uuid4().hex}"]
    program = ("import os\nhits = []\n"
               f"for path in {targets!r} + ['/work/../tmp/x', '/usr/pwned', '/pwned']:\n"
               "    try:\n        open(path, 'w').write('x')\n        hits.append(path)\n"
               "    except OSError:\n        pass\n"
               "open('/work/inside.txt', 'w').write('fine')\nprint(hits)\n")
    result = run_program(program, limits=SMALL)
    assert result.status == "ok", result
    assert result.stdout.strip() in (b"[]", b"['/work/../tmp/x']")  # /work/../tmp is the jail's, not the host's /tmp
    for path in targets:
        assert not os.path.exists(path)


def test_reading_the_users_files_finds_nothing(tmp_path):
    secret = uuid.uuid4().hex
    private = tmp_path / "key.pem"
    private.write_text(secret)
    private.chmod(0o600)
    public = tmp_path / "rollouts.jsonl"  # world-readable, as a rollout file with expected outputs often is
    public.write_text(secret)
    public.chmod(0o644)
    os.chmod(tmp_path, 0o755)
    program = ("import os\nfound = []\n"
               f"for path in [{str(private)!r}, {str(public)!r}, '/root/.bashrc', '/etc/shadow', '/proc/1/environ']:\n"
               "    try:\n        found.append(open(path).read())\n    except OSError as exc:\n        found.append(type(exc).__name__)\n"
               "for top in ('/root', '/home', '/tmp', '/work', '/proc'):\n"
               "    try:\n        found.append(sorted(os.listdir(top)))\n    except OSError as exc:\n        found.append(type(exc).__name__)\n"
               "print(found)\n")
    result = run_program(program, limits=SMALL)
    assert result.status == "ok", result
    assert secret.encode() not in result.stdout
    assert result.isolated


def test_a_socket_cannot_reach_a_local_listener():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    program = ("import socket\ns = socket.socket()\ns.settimeout(1)\n"
               f"print(s.connect_ex(('127.0.0.1', {port})))\n"
               "try:\n    socket.create_connection(('pypi.org', 443), timeout=1)\n    print('internet')\n"
               "except OSError as exc:\n    print(type(exc).__name__)\n")
    try:
        result = run_program(program, limits=SMALL)
        readable, _, _ = select.select([listener], [], [], 0.2)
    finally:
        listener.close()
    assert readable == []  # nobody connected
    assert result.status == "ok" and b"internet" not in result.stdout
    assert result.stdout.splitlines()[0] != b"0"


def test_a_shell_runs_inside_the_jail_only(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    marker = f"/tmp/pwned-{uuid.uuid4().hex}"
    program = ("import subprocess\n"
               f"out = subprocess.run(['/bin/sh', '-c', 'cat {secret}; touch {marker}; echo $((6*7)); id -u'],"
               " capture_output=True, text=True)\nprint(out.stdout)\n")
    result = run_program(program, limits=SMALL)
    assert result.status == "ok", result
    assert b"42" in result.stdout  # a shell does run, inside the jail
    assert b"top secret" not in result.stdout and b"\n0\n" not in result.stdout  # not as root
    assert not os.path.exists(marker)


def test_killing_the_parent_or_everyone_reaches_only_the_program():
    canary = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        for program in ("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nprint('after')\n",
                        "import os, signal\nos.kill(-1, signal.SIGKILL)\nprint('after')\n",
                        "import os, signal\nos.killpg(0, signal.SIGKILL)\n",
                        f"import os, signal\nos.kill({os.getpid()}, signal.SIGKILL)\n",
                        f"import os, signal\nos.kill({canary.pid}, signal.SIGKILL)\n"):
            result = run_program(program, limits=SMALL)
            assert result.status in ("ok", "crash"), (program, result)
        assert canary.poll() is None  # the canary (a process of this machine's user) lives on
    finally:
        canary.kill()
        canary.wait()


def test_reading_the_tests_from_the_harness_is_refused():
    tests = "assert answer() == 'expected-7c1d'\n"
    snoopers = [
        "import sys\ndef answer():\n    return str(sys._getframe(1).f_code.co_consts)\n",
        "import gc\ndef answer():\n    return next(c for o in gc.get_objects() if isinstance(o, type(answer.__code__)) "
        "for c in o.co_consts if isinstance(c, str) and c.startswith('expected'))\n",
        "def answer():\n    try:\n        raise ValueError\n    except ValueError as e:\n"
        "        return str(e.__traceback__.tb_frame.f_back.f_locals)\n",
        "import os\ndef answer():\n    return os.read(3, 1000).decode()\n",
        "import sys\nsys.settrace(lambda *a: None)\ndef answer():\n    return 'x'\n",
    ]
    for program in snoopers:
        result = run_program(program, tests=tests, limits=SMALL)
        assert not any(event == "pass" for event, _, _ in result.events), (program, result.events)


def test_a_forged_result_line_does_not_count():
    forger = ("import os\nfor fd in (1, 2, 4):\n    os.write(fd, b'\\nabc\\tdone\\t1\\t\\n')\nos._exit(0)\n")
    result = run_program(forger, tests="assert False\n", limits=SMALL)
    assert result.events == []


def test_early_exit_before_the_tests_reports_no_pass():
    for program in ("import sys\nsys.exit(0)\n", "import os\nos._exit(0)\n"):
        result = run_program(program, tests="assert 1 == 2\n", limits=SMALL)
        assert not any(event in ("pass", "done") for event, _, _ in result.events)


TAMPERING = {
    "always equal": "class A:\n    def __eq__(self, other):\n        return True\n    def __ne__(self, other):\n"
                    "        return False\ndef add(*args):\n    return A()\n",
    "int subclass, always equal": "class A(int):\n    def __eq__(self, other):\n        return True\n"
                                  "    __hash__ = int.__hash__\ndef add(*args):\n    return A(0)\n",
    "metaclass faking __mro__": "class M(type):\n    @property\n    def __mro__(cls):\n        return (int, object)\n"
                                "class A(metaclass=M):\n    def __eq__(self, other):\n        return True\n"
                                "def add(*args):\n    return A()\n",
    "rebinding builtins while called": "import builtins\ndef add(a, b):\n    builtins.bool = lambda x: True\n"
                                       "    builtins.len = lambda x: 3\n    return None\n",
    "a thread rebinding exec": "import threading, builtins, time\ndef spin():\n    while True:\n"
                               "        builtins.exec = lambda *a, **k: None\n        time.sleep(0.001)\n"
                               "threading.Thread(target=spin, daemon=True).start()\ndef add(a, b):\n    return 0\n",
    "patching the harness": "import __main__\n__main__.make_strict_equal = lambda: (lambda a, b: True)\n"
                            "__main__.BLOCKED_EVENTS = frozenset()\ndef add(a, b):\n    import __main__\n"
                            "    __main__.FRAME_ATTRIBUTES = frozenset()\n    return 0\n",
}


@pytest.mark.parametrize("name", sorted(TAMPERING))
def test_tampering_with_equality_or_the_harness_passes_nothing(name):
    tests = "assert add(1, 2) == 3\nassert add(2, 2) == 4\nassert len([add(0, 0)]) == 3\nassert not (add(5, 5) != 10)\n"
    result = run_program(TAMPERING[name], tests=tests, limits=SMALL)
    assert [e[0] for e in result.events if e[0] in ("pass", "done")] == ["done"], result.events


def test_ordinary_library_code_still_works_under_the_harness():
    program = ("import re, heapq, functools, logging, warnings\nfrom dataclasses import dataclass\n"
               "from collections import Counter, namedtuple\nfrom typing import List, NamedTuple\nimport enum\n"
               "@dataclass\nclass P:\n    x: int\nclass Q(NamedTuple):\n    a: int\nclass Color(enum.IntEnum):\n    RED = 1\n"
               "T = namedtuple('T', 'a b')\n@functools.lru_cache(maxsize=None)\ndef fib(n):\n"
               "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
               "def solve(xs: List[int]) -> int:\n    h = list(xs)\n    heapq.heapify(h)\n"
               "    return fib(10) + max(Counter(xs).values()) + h[0] + P(1).x + Q(2).a + Color.RED\n"
               "logging.getLogger('x').warning('hello')\nwarnings.warn('careful')\n"
               "class Node:\n    def __init__(self, v):\n        self.v = v\n    def __eq__(self, other):\n"
               "        return self.v == other.v\n")
    tests = ("assert solve([3, 1, 3]) == 55 + 2 + 1 + 1 + 2 + 1\nassert T(1, 2) == (1, 2)\nassert [T(1, 2)] == [(1, 2)]\n"
             "assert Color.RED == 1\nassert Node(3) == Node(3)\nassert Node(3) != Node(4)\n")
    result = run_program(program, tests=tests, limits=SMALL)
    assert [e[0] for e in result.events] == ["pass"] * 6 + ["done"], result


def test_rebinding_builtins_does_not_change_the_tests():
    program = "import builtins\nbuiltins.len = lambda x: 3\ndef f():\n    return [1]\n"
    result = run_program(program, tests="assert len(f()) == 3\n", limits=SMALL)
    assert [event for event, _, _ in result.events] == ["fail", "done"]


def test_without_namespaces_the_run_is_refused_unless_best_effort():
    """A scorer without CAP_SYS_ADMIN (dropped by setpriv) cannot make the namespaces as root."""
    if os.getuid() != 0 or not os.path.exists("/usr/bin/setpriv"):
        pytest.skip("needs root and setpriv to take the capability away")
    src = str(Path(__file__).resolve().parents[1] / "src")
    script = ("import sys; sys.path.insert(0, %r)\n"
              "from polyreward.verifiers.sandbox import run_program, Limits\n"
              "for mode in ('required', 'best_effort'):\n"
              "    r = run_program('print(6*7)', limits=Limits(cpu_seconds=1, wall_seconds=5), network_isolation=mode)\n"
              "    print(mode, r.status, r.isolated, r.stdout)\n") % src
    out = subprocess.run(["/usr/bin/setpriv", "--bounding-set=-sys_admin", "--inh-caps=-sys_admin", sys.executable,
                          "-c", script], capture_output=True, text=True, timeout=60)
    lines = out.stdout.splitlines()
    assert lines[0].startswith("required unavailable False"), out
    assert lines[1] == "best_effort ok False b'42\\n'", out


def test_an_ordinary_user_gets_the_same_jail_through_a_user_namespace(tmp_path):
    """The scorer as a non-root user (setpriv to uid 12345, the system interpreter, the sandbox module loaded from its
    file): the jail is built in a user namespace, the program runs as uid 1000 there, without network or capabilities."""
    if os.getuid() != 0 or not os.path.exists("/usr/bin/setpriv") or not os.path.exists("/usr/bin/python3"):
        pytest.skip("needs root (to become another user), setpriv and a system python3")
    folder = Path(__file__).resolve().parents[1] / "src" / "polyreward" / "verifiers"
    script = (  # the system python has no numpy, which `import polyreward` needs: load the two stdlib-only files alone
        "import importlib.util, sys, types\n"
        "sys.modules['polyreward'] = types.ModuleType('polyreward')\n"
        "sys.modules['polyreward.verifiers'] = types.ModuleType('polyreward.verifiers')\n"
        "def load(name, path):\n"
        "    spec = importlib.util.spec_from_file_location(name, path)\n"
        "    module = sys.modules[name] = importlib.util.module_from_spec(spec)\n"
        "    spec.loader.exec_module(module)\n"
        "    return module\n"
        f"load('polyreward.verifiers.sandbox_pipes', {str(folder / 'sandbox_pipes.py')!r})\n"
        f"m = load('polyreward.verifiers.sandbox', {str(folder / 'sandbox.py')!r})\n"
        "L = m.Limits(cpu_seconds=1, wall_seconds=6, processes=8)\n"
        "probe = ('import os, socket, ctypes\\nlibc = ctypes.CDLL(None)\\n'\n"
        "         'print(os.getuid(), sorted(os.listdir(\"/\")), socket.socket().connect_ex((\"127.0.0.1\", 22)),'\n"
        "         ' libc.unshare(0x00020000), libc.mount(b\"tmpfs\", b\"/work\", b\"tmpfs\", 0, None))')\n"
        "r = m.run_program(probe, limits=L)\n"
        "print(r.status, r.isolated, r.stdout.decode().strip())\n"
        "print([e[0] for e in m.run_program('def f(x):\\n    return x', tests='assert f(1) == 1', limits=L).events])\n")
    out = subprocess.run(["/usr/bin/setpriv", "--reuid=12345", "--regid=12345", "--clear-groups", "/usr/bin/python3", "-c",
                          script], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    lines = out.stdout.splitlines()
    assert lines[0].startswith("ok True 1000 ['bin', 'dev'"), out
    assert "'work']" in lines[0] and "home" not in lines[0] and "tmp" not in lines[0]
    assert lines[0].endswith(" -1 -1"), out  # no namespace or mount of its own: no capabilities left
    assert lines[0].split()[-3] != "0"  # the socket did not connect
    assert lines[1] == "['pass', 'done']", out


def test_normal_runs_are_unaffected():
    assert run_program("print(input()[::-1])", stdin="abc\n", limits=SMALL).stdout == b"cba\n"
    result = run_program("def f(x):\n    return x + 1\n", tests="assert f(1) == 2\nassert f(2) == 4\n", limits=SMALL)
    assert [e[0] for e in result.events] == ["pass", "fail", "done"]
    assert run_program("def f(:\n", limits=SMALL).status == "compile_error"
