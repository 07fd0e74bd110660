"""Compiled regular expressions (and what the prefilter derives from them) kept between runs, beside the bytecode.

Speed only. The readers compile about 300 regular expressions when they are imported, several of them thousands of
characters of word lists, and :mod:`.regex_prefilter` parses about 50 of them again to derive the words a match
needs: 150-200 ms of every ``polyreward score`` run that reads a math answer, a third of a one-row run. Python keeps
a module's bytecode between runs (``__pycache__``) but not its compiled patterns. This module does, the same way:

* A reader module imports ``cached_re as re`` from here. It is the :mod:`re` module with one difference:
  ``re.compile`` called by a **module body** (the patterns a module compiles once, at import) looks the
  pattern up in a store of compiled programs and builds the pattern object from its program directly
  (``_sre.compile``, what :func:`re.compile` itself calls last), skipping the parse and the compilation
  (6-12 ms for all of them, reading the store included, against 80 ms). A pattern compiled inside a function
  (built from a call's arguments) goes to :func:`re.compile` as before and is not kept.
* A program is kept only after the pattern built from it was found **equal** to the one :func:`re.compile`
  returned in the same process (a pattern object's ``==`` compares its flags, its source and its compiled
  program), so a kept pattern is the one ``re`` would have compiled. The store is read only when it was written by
  the same Python (``sys.version`` and the regular-expression engine's ``MAGIC``); an entry that cannot be rebuilt
  is compiled the usual way. Any other store (a corrupt, foreign or older file) is ignored.
* :func:`remembered` keeps other derived values in the same store under a caller's namespace (the prefilter's
  word sets, keyed also by a hash of the prefilter's own source, so a change to how they are derived drops them).
* The store is one file in the ``__pycache__`` folder of this package (``sys.pycache_prefix`` honoured), read on the
  first cached compile and written back at exit when it gained entries -- never when Python writes no bytecode
  (``PYTHONDONTWRITEBYTECODE``, ``-B``), nor where the folder cannot be written. It holds at most
  ``MAX_ENTRIES`` entries (past that, only those this run used), and it is replaced whole, atomically, so
  concurrent runs lose entries at worst, never mix them.

A verdict cannot depend on the store: a pattern comes out the same object-for-object equal whether it was compiled
or rebuilt (``tests/test_pattern_cache.py`` holds every module-level pattern and prefilter of the readers, rebuilt
from a warm store, to a fresh compile and derivation).
"""

from __future__ import annotations

import atexit
import marshal
import os
import re
import sys
import types
from collections.abc import Callable
from typing import Any, TypeVar

import _sre

# Python's own regex compiler, op codes and parser (private modules of ``re``): imported here once for every module
# that reads or compiles a parsed pattern (this one, :mod:`.regex_scan`, :mod:`.regex_prefilter`)
try:  # Python 3.11+
    from re import _compiler as sre_compiler, _constants as sre_ops, _parser as sre_parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_compile as sre_compiler  # type: ignore[no-redef]
    import sre_constants as sre_ops  # type: ignore[no-redef]
    import sre_parse as sre_parser  # type: ignore[no-redef]

Value = TypeVar("Value")

MAX_ENTRIES = 1024  # (about 2.5 MB; the math reader and the choice reader use about 300)
_FORMAT = ("polyreward pattern store", 1, sys.version, _sre.MAGIC)
_KEEPABLE_FLAGS = int(re.IGNORECASE | re.MULTILINE | re.DOTALL | re.UNICODE | re.VERBOSE | re.ASCII)

_entries: dict[tuple, Any] | None = None  # the store as read (None: not read yet)
_used: set[tuple] = set()  # keys this process asked for
_added = False  # whether this process put an entry in (the store is written back at exit)


def store_path() -> str | None:
    """The store's file, beside this module's bytecode, or None where Python keeps no bytecode cache."""
    try:
        from importlib.util import cache_from_source

        return os.path.splitext(cache_from_source(__file__))[0] + ".patterns"
    except (NotImplementedError, ValueError, TypeError, NameError):
        return None


def _store() -> dict[tuple, Any]:
    global _entries
    if _entries is None:
        _entries = {}
        path = store_path()
        try:
            with open(path, "rb") as source:  # type: ignore[arg-type]
                header, entries = marshal.loads(source.read())  # (marshal.load reads a file in small pieces: 10x slower)
            if header == _FORMAT and type(entries) is dict:
                _entries = entries
        except Exception:  # no store yet, or one this Python did not write: compile the usual way
            pass
        atexit.register(_save)
    return _entries


def _save() -> None:
    """Write the store back when this run added entries (atomically: a temporary file, then a rename)."""
    if not _added or sys.dont_write_bytecode or _entries is None:
        return
    path = store_path()
    if path is None:
        return
    entries = _entries if len(_entries) <= MAX_ENTRIES else {key: _entries[key] for key in _used if key in _entries}
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as out:
            marshal.dump((_FORMAT, entries), out)
        os.replace(temporary, path)
    except (OSError, ValueError):  # a read-only install, a full disk: next run compiles as before
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _put(key: tuple, value: Any) -> None:
    global _added
    try:
        marshal.dumps(value)
    except ValueError:  # not plain data: never kept
        return
    _store()[key] = value
    _used.add(key)
    _added = True


def _program(pattern: str, flags: int) -> tuple:
    """What :func:`re.compile` hands ``_sre.compile`` for ``pattern``: (source, flags, program, groups, group index,
    index group) -- the steps of the standard library's ``compile`` (``re._compiler.compile``), taken one by one."""
    parsed = sre_parser.parse(pattern, flags)
    program = [int(code) for code in sre_compiler._code(parsed, flags)]
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (pattern, int(flags | parsed.state.flags), program, parsed.state.groups - 1, groupindex, tuple(indexgroup))


def compile(pattern: Any, flags: Any = 0) -> re.Pattern:  # noqa: A001 (the name re's users call)
    """:func:`re.compile`, from the store when a module body compiles a ``str`` pattern (see the module's docstring)."""
    if type(pattern) is not str or int(flags) & ~_KEEPABLE_FLAGS or sys._getframe(1).f_code.co_name != "<module>":
        return re.compile(pattern, flags)
    return kept_compile(pattern, flags)


def kept_compile(pattern: str, flags: int = 0) -> re.Pattern:
    """:func:`re.compile` through the store, whoever calls it: for a pattern derived once per module-level pattern
    (:mod:`.regex_scan`'s rewrites), never for one built from a call's arguments (the store would only grow)."""
    if type(pattern) is not str or int(flags) & ~_KEEPABLE_FLAGS:
        return re.compile(pattern, flags)
    key = ("re", pattern, int(flags))
    program = _store().get(key)
    if program is not None:
        try:
            built = _sre.compile(*program)
        except Exception:  # an entry this Python cannot build: compile it the usual way
            pass
        else:
            _used.add(key)
            return built
    compiled = re.compile(pattern, flags)
    try:
        program = _program(pattern, int(flags))
        built = _sre.compile(*program)
    except Exception:  # the standard library's steps changed: nothing is kept
        return compiled
    if built == compiled and built.groupindex == compiled.groupindex:
        _put(key, program)
    return compiled


def source_fingerprint(path: str, label: str) -> str | None:
    """``label`` and a hash of the source file at ``path``: the namespace a module keeps its derived values under in
    :func:`remembered`, so that a change to the code deriving them drops the kept ones (None: no source, keep none)."""
    try:
        from importlib.util import source_hash

        with open(path, "rb") as source:
            return f"{label} {source_hash(source.read()).hex()}"
    except Exception:  # no source to hash: nothing is kept
        return None


def remembered(namespace: str, pattern: str, flags: int, derive: Callable[[], Value]) -> Value:
    """``derive()``, a value that depends only on ``pattern``, ``flags`` and the code named by ``namespace`` (which
    must change when that code does), kept in the store; a value that is not plain data is derived every time."""
    key = (namespace, pattern, int(flags))
    store = _store()
    if key in store:
        _used.add(key)
        return store[key]
    value = derive()
    _put(key, value)
    return value


class _CachedRe(types.ModuleType):
    """The :mod:`re` module whose ``compile`` is :func:`compile` (see the module's docstring)."""


cached_re = _CachedRe("re", re.__doc__)
vars(cached_re).update({name: value for name, value in vars(re).items() if not name.startswith("__")})
cached_re.compile = compile  # type: ignore[attr-defined]
