"""The in-sandbox harness: a standalone script (standard library only) that runs the program, and its tests, inside
the jail. Run by the sandbox's interpreter as ``python -I -S -B -c <this source>`` (the launcher's last step).

It reads one JSON spec from descriptor 3 -- ``{"nonce", "program", "tests"}`` -- to its end and closes it, so nothing
of it stays readable from disk or from a descriptor. Results go to descriptor 4 as lines ``nonce<TAB>event<TAB>index
<TAB>detail``; the scorer accepts only lines that carry the nonce, which the program never sees, so output the
program writes there itself (it shares the process) cannot forge a pass:

- ``compile_error -1 <message>``: the program does not compile (nothing ran).
- stdin/stdout tests (``tests`` null): ``started``, then the program runs as ``__main__``; its stdout is the answer.
  A ``MemoryError`` it does not catch is reported as ``memory``; any other uncaught exception exits 1 with the
  usual traceback on stderr, as ``python solution.py`` would.
- assert-style tests (``tests`` a string): the tests are compiled first (before the program runs), then the program
  runs, then each top-level statement of the tests in the program's namespace: ``pass i`` / ``fail i <error>`` for
  the test statements (``assert`` or a bare call such as ``check(candidate)``); a failing setup statement (an import,
  a ``def``, an assignment) fails the rest. ``done n`` is written only after the last test, by the harness: a
  program that exits early (``sys.exit(0)``, ``os._exit(0)``) never produces it and scores as not finished.

While the program and the tests run (assert style only: the program shares the process with the tests), an audit
hook refuses frame and object-graph introspection (``sys._getframe``, ``tb_frame``/``gi_frame``, ``gc.get_objects``
/ ``get_referrers``, ``sys.settrace``/``setprofile``, ctypes), through which a program could read the compiled tests
or the nonce from this harness's frame; the process is made non-dumpable so a child it spawns cannot read its memory
either; and the tests run in a namespace of their own (:func:`run_with_tests`), so a program that rebinds ``len``
or patches this harness cannot change what the tests compute. What this does and does not stop (a returned object whose ``__eq__`` is always
true is caught: ``==`` and ``!=`` in the tests refuse to compare a plain value with one holding the program's own
objects; a function that special-cases the tests' inputs is not) is listed in docs/rewards/code.md.
"""

import ast
import builtins
import json
import os
import sys

BLOCKED_EVENTS = frozenset({
    "sys._getframe", "sys._current_frames", "sys.settrace", "sys.setprofile", "sys._getframemodulename",
    "gc.get_objects", "gc.get_referrers", "gc.get_referents", "ctypes.dlopen", "ctypes.dlsym", "ctypes.cdata",
    "ctypes.addressof", "ctypes.call_function", "ctypes.PyObj_FromPtr",
})
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})  # audited as object.__getattr__


def main(spec_text=None, result_fd=4, spec_fd=3) -> None:
    """``spec_text`` None: the spec is read from descriptor ``spec_fd`` to its end (3 in the local sandbox). A remote
    sandbox runs one source file, which it may keep on disk where the program can read it: it gets this file with
    ``main(None, 2, 0)`` appended and the spec on stdin for assert-style tests (so neither the tests nor the nonce are
    in the file), or ``main(<spec>, 2)`` for stdin/stdout tests (the spec then holds only the program and a nonce
    that can forge nothing but a failure); the results go to stderr."""
    write = os.write
    if spec_text is None:
        chunks = []
        while True:
            chunk = os.read(spec_fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        os.close(spec_fd)
        spec_text = b"".join(chunks)
        del chunks
    spec = json.loads(spec_text)
    del spec_text
    nonce = spec["nonce"]

    def report(event, index=-1, detail=""):
        line = f"{nonce}\t{event}\t{index}\t{detail}"
        write(result_fd, ("\n" + line.replace("\n", " ")[:2000] + "\n").encode("utf-8", "replace"))

    try:
        program = compile(spec["program"], "solution.py", "exec")
    except (SyntaxError, ValueError) as exc:
        where = f"line {exc.lineno}: " if getattr(exc, "lineno", None) else ""
        report("compile_error", -1, f"{type(exc).__name__}: {where}{getattr(exc, 'msg', exc)}")
        os._exit(0)
    if spec["tests"] is None:
        report("started")
        del spec
        run_as_main(program, report)
        return
    tests = compile_tests(spec["tests"], report)
    del spec
    run_with_tests(program, tests, report)


def run_as_main(program, report) -> None:
    namespace = {"__name__": "__main__", "__builtins__": builtins, "__file__": "solution.py"}
    sys.argv = ["solution.py"]
    try:
        exec(program, namespace)
    except MemoryError:
        report("memory")
        os._exit(1)
    # SystemExit and other exceptions propagate: the interpreter exits as it would for `python solution.py`


def compile_tests(source: str, report) -> list:
    """One (code, is_test, line) per top-level statement of the tests, equality made strict (:func:`strict_equal`);
    a test file that does not compile is the data's fault, reported as ``bad_tests``."""
    try:
        tree = ast.parse(source, "tests.py")
    except (SyntaxError, ValueError) as exc:
        report("bad_tests", -1, f"{type(exc).__name__}: {exc}")
        os._exit(0)
    tree = StrictEquality().visit(tree)
    ast.fix_missing_locations(tree)
    statements = []
    for node in tree.body:
        is_test = isinstance(node, ast.Assert) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call))
        statements.append((compile(ast.Module([node], []), "tests.py", "exec"), is_test, node.lineno))
    return statements


class StrictEquality(ast.NodeTransformer):
    """``a == b`` -> ``__polyreward_eq__(a, b)`` and ``a != b`` -> ``not __polyreward_eq__(a, b)`` in the tests."""

    def visit_Compare(self, node):  # noqa: N802 -- ast's name
        self.generic_visit(node)
        if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            return node
        call = ast.Call(ast.Name("__polyreward_eq__", ast.Load()), [node.left, node.comparators[0]], [])
        return call if isinstance(node.ops[0], ast.Eq) else ast.UnaryOp(ast.Not(), call)


def make_strict_equal():
    """A fresh ``strict_equal(left, right)``: ``left == right``, except that a plain value (built of numbers, strings,
    bytes, None, lists, tuples, dicts and sets, as a test writes its expected values) never equals a value holding
    objects of the program's own classes, so the always-equal hack (``__eq__`` returning True) passes no assert. A
    subclass that keeps its base's ``==`` and ``!=`` (a namedtuple, an IntEnum) counts as plain.

    Everything it uses is captured here, before the program runs: the builtins it calls, the plain types (compared by
    identity), and the real method order and class dictionaries read through ``type``'s own descriptors, so neither a
    rebound builtin nor a metaclass that fakes ``__eq__``, ``__hash__`` or ``__mro__`` can make a program object look
    plain."""
    plain_types = (int, float, complex, str, bytes, bool, type(None), list, tuple, dict, set, frozenset)
    iterators = {list: list.__iter__, tuple: tuple.__iter__, set: set.__iter__, frozenset: frozenset.__iter__}
    dict_items, kind_of, to_bool, all_of = dict.items, type, bool, all
    mro_of, class_dict = type.__dict__["__mro__"].__get__, type.__dict__["__dict__"].__get__  # no metaclass can fake these

    def plain_base(kind):
        """The plain type ``kind`` is, or whose ``==``/``!=`` it uses unchanged; None otherwise."""
        for klass in mro_of(kind):
            for plain_type in plain_types:
                if klass is plain_type:
                    return plain_type
            attributes = class_dict(klass)
            if "__eq__" in attributes or "__ne__" in attributes:
                return None  # a class before any plain type in the method order redefines == or !=
        return None

    def plain(value, depth):
        base = plain_base(kind_of(value))
        if base is None or depth > 100:
            return False
        if base in iterators:
            return all_of(plain(item, depth + 1) for item in iterators[base](value))
        if base is dict:
            return all_of(plain(k, depth + 1) and plain(v, depth + 1) for k, v in dict_items(value))
        return True

    def strict_equal(left, right):
        if plain(left, 0) is not plain(right, 0):
            return False
        return to_bool(left == right)

    return strict_equal


def run_with_tests(program, tests, report) -> None:
    """Run the program's top level, then each test statement (see the module docstring).

    The tests run in a namespace of their own: a copy of the program's names taken after its top level, with a private
    copy of the builtins and the strict ``==``, all reset before every statement. The program's code keeps its own
    globals, so nothing it does while a test calls it -- rebinding a builtin, a name of the tests, this harness's
    functions -- reaches the namespace the tests look names up in. Every name this function itself uses is captured
    before the program runs."""
    namespace = {"__name__": "__main__", "__builtins__": builtins, "__file__": "solution.py"}
    saved_builtins = dict(builtins.__dict__)
    exit_now, run, copy_dict, text, is_instance = os._exit, exec, dict, str, isinstance
    assertion, memory, base_exception = AssertionError, MemoryError, BaseException
    strict_equal = make_strict_equal()
    guard = {"on": False}
    blocked, frames = BLOCKED_EVENTS, FRAME_ATTRIBUTES  # locals: rebinding the module's names changes nothing here

    def audit(event, args):
        if guard["on"] and (event in blocked or (event == "object.__getattr__" and len(args) > 1 and args[1] in frames)):
            raise ValueError(f"{event} is not allowed in the sandbox")  # namedtuple, typing, logging tolerate ValueError

    try:
        import ctypes

        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: no same-uid process may read this memory
    except Exception:  # noqa: BLE001 -- no ctypes on this interpreter: the audit hook still stands
        pass
    sys.addaudithook(audit)
    guard["on"] = True
    try:
        run(program, namespace)
    except memory:
        report("memory", -1, "MemoryError")
        exit_now(0)
    except SystemExit as exc:
        report("program_exit", -1, f"the program called exit({exc.code!r}) before the tests ran")
        exit_now(0)
    except base_exception as exc:  # noqa: BLE001 -- the program's own top level failed: no test can run
        report("program_error", -1, f"{type(exc).__name__}: {exc}"[:500])
        exit_now(0)
    test_globals = copy_dict(namespace)
    number = 0
    for code, is_test, line in tests:
        test_globals["__builtins__"] = copy_dict(saved_builtins)
        test_globals["__polyreward_eq__"] = strict_equal
        try:
            run(code, test_globals)
        except memory:
            report("memory", number, f"line {line}")
            exit_now(0)
        except base_exception as exc:  # noqa: BLE001 -- an AssertionError, the program's error, or SystemExit
            kind = "fail" if is_instance(exc, assertion) else "error"
            detail = f"line {line}: {saved_builtins['type'](exc).__name__}"
            if kind == "error":
                detail += f": {text(exc)}"[:200]
            report(kind if is_test else "setup_error", number, detail[:300])
            if not is_test:
                exit_now(0)
        else:
            if is_test:
                report("pass", number)
        if is_test:
            number += 1
    guard["on"] = False
    report("done", number)
    exit_now(0)


if __name__ == "__main__":
    main()
