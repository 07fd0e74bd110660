"""The layers of polyreward, read from the code: every import of every module (top-level and inside functions),
checked against the layer order below. A module may import its own layer and the layers under it, never one above;
the combiners import only the vocabulary floor; nothing imports in a cycle, lazy imports (inside a function, or
``importlib.import_module("polyreward...")``) included.

The order (bottom first) is written here, not read from the docs, so a change of the architecture is a change of
this table that a reviewer sees.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src" / "polyreward"

# bottom first; a module belongs to the first entry that is it or a package above it
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("vocabulary", ("polyreward.vocabulary", "polyreward.schema", "polyreward.locking", "polyreward.io")),
    ("protocols", ("polyreward.reward", "polyreward.combiner", "polyreward.registry", "polyreward.engine")),
    ("verifiers", ("polyreward.verifiers",)),
    ("judges", ("polyreward.judges",)),
    ("rewards", ("polyreward.rewards", "polyreward.rubrics", "polyreward.process")),
    ("combiners", ("polyreward.combiners",)),
    ("contract", ("polyreward.pipeline", "polyreward.rewardset", "polyreward.config")),
    ("runners", ("polyreward.runners", "polyreward.probe")),
    ("integrations", ("polyreward.integrations",)),
    ("trainer", ("polyreward.trainer",)),
    ("commands", ("polyreward.cli", "polyreward.__main__", "polyreward")),
]
FLOOR = {"vocabulary", "protocols"}  # what "the vocabulary layer" is for the packages that may import only it
ONLY_THE_FLOOR = {"combiners"}
# within the floor the vocabulary module imports nothing of polyreward
STANDALONE = {"polyreward.vocabulary"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(SOURCE.rglob("*.py"))}


MODULES = all_modules()


def _deepest(target: str) -> str | None:
    """The longest prefix of a dotted name that is a module of the tree."""
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target or None


def imports_of(name: str, path: Path) -> set[str]:
    """Every polyreward module ``name`` imports (absolute or relative, top-level or inside a function; not those under
    ``if TYPE_CHECKING:``): ``import a.b`` is module ``a.b``; ``from a import b`` is ``a.b`` when that is a module,
    else ``a``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):  # imports for type checkers only never run: not a dependency
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str | None] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(_deepest(alias.name) for alias in node.names if alias.name.split(".")[0] == "polyreward")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            if base.split(".")[0] != "polyreward":
                continue
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else _deepest(base))
        elif (isinstance(node, ast.Call) and ast.unparse(node.func) in ("importlib.import_module", "import_module")
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and node.args[0].value.split(".")[0] == "polyreward"):  # a lazy import by name is an import too
            found.add(_deepest(node.args[0].value))
    return {target for target in found if target and target != name}


def layer_of(name: str) -> int:
    best, depth = None, -1
    for index, (_, members) in enumerate(LAYERS):
        for member in members:
            if (name == member or name.startswith(member + ".")) and len(member) > depth:
                best, depth = index, len(member)
    if best is None:
        raise AssertionError(f"{name} is in no layer of tests/test_layering.py: add it to LAYERS")
    return best


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


def test_every_module_has_a_layer():
    for name in MODULES:
        layer_of(name)


def test_no_module_imports_a_layer_above_its_own():
    upward = []
    for name, targets in GRAPH.items():
        for target in sorted(targets):
            if target == "polyreward" or name == "polyreward":
                continue
            if layer_of(target) > layer_of(name):
                upward.append(f"{name} ({LAYERS[layer_of(name)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})")
    assert not upward, "upward imports:\n" + "\n".join(upward)


@pytest.mark.parametrize("package", sorted(ONLY_THE_FLOOR))
def test_the_combiners_import_only_the_vocabulary_floor(package):
    wrong = [f"{name} imports {target}" for name, targets in GRAPH.items() if LAYERS[layer_of(name)][0] == package
             for target in sorted(targets) if LAYERS[layer_of(target)][0] not in FLOOR | {package}]
    assert not wrong, "\n".join(wrong)


def test_the_rubrics_do_not_import_the_config_or_the_scorer():
    wrong = [f"{name} imports {target}" for name, targets in GRAPH.items() if name.startswith("polyreward.rubrics")
             for target in sorted(targets) if layer_of(target) > layer_of("polyreward.rubrics")]
    assert not wrong, "\n".join(wrong)


def test_the_vocabulary_imports_nothing_of_polyreward():
    for name in STANDALONE:
        assert GRAPH[name] == set(), f"{name} imports {sorted(GRAPH[name])}"


# imports allowed to close a loop, each with its reason: (importer, imported) -> why. Empty: no module imports lazily
# to dodge a cycle (a rule grammar shared with a judge has its own module, the combiners' base imports its helpers).
ALLOWED_CYCLE_EDGES: dict[tuple[str, str], str] = {}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph`` with more than one module (each sorted)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))
                continue
            if child not in graph:
                continue
            if child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return cycles


def test_no_import_cycle():
    """Every import counts: top-level, inside a function (a lazy import) and ``importlib.import_module("polyreward...")``;
    only the edges of ALLOWED_CYCLE_EDGES are left out."""
    graph = {name: {t for t in targets if (name, t) not in ALLOWED_CYCLE_EDGES} for name, targets in GRAPH.items()}
    cycles = import_cycles(graph)
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_every_allowed_cycle_edge_is_still_an_import():
    stale = [edge for edge in ALLOWED_CYCLE_EDGES if edge[1] not in GRAPH.get(edge[0], set())]
    assert not stale, f"ALLOWED_CYCLE_EDGES names imports that no longer exist: {stale}"


def test_the_cycle_check_sees_a_loop_closed_by_a_lazy_import(tmp_path):
    """A loop closed only by an import inside a function, or by ``importlib.import_module``, is found."""
    package = tmp_path / "polyreward"
    package.mkdir()
    (package / "a.py").write_text("from polyreward.b import thing\n")
    (package / "b.py").write_text("def thing():\n    from polyreward import a\n    return a\n")
    (package / "c.py").write_text("import importlib\n\ndef load():\n    return importlib.import_module('polyreward.d')\n")
    (package / "d.py").write_text("import polyreward.c\n")
    saved = dict(MODULES)
    try:
        MODULES.update({"polyreward.a": package / "a.py", "polyreward.b": package / "b.py",
                        "polyreward.c": package / "c.py", "polyreward.d": package / "d.py"})
        graph = {name: imports_of(name, MODULES[name]) for name in ("polyreward.a", "polyreward.b", "polyreward.c", "polyreward.d")}
    finally:
        MODULES.clear()
        MODULES.update(saved)
    assert sorted(import_cycles(graph)) == [["polyreward.a", "polyreward.b"], ["polyreward.c", "polyreward.d"]]


def test_the_reader_sees_the_imports_it_should():
    """The checks above read real imports: the scorer imports the vocabulary, the TRL adapter the scorer."""
    assert "polyreward.vocabulary" in GRAPH["polyreward.pipeline"]
    assert "polyreward.pipeline" in GRAPH["polyreward.integrations.trl"]
    assert "polyreward.combiners.grouped" in GRAPH["polyreward.combiners.gdpo"]
