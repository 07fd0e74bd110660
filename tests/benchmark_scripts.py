"""Load a script of ``benchmarks/`` as a module, for the tests that check its tables or call its functions (the
scripts are run from the command line and are no package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def load_benchmark(name: str, module_name: str | None = None) -> ModuleType:
    """``benchmarks/<name>.py`` loaded once under ``module_name`` (default ``name``), registered in ``sys.modules``
    so its dataclasses can look their module up."""
    module_name = module_name or name
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
