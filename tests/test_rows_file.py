"""The part store's one rows file (:mod:`polyreward.runners.parts`): chunks stored in any order give the bytes of an
in-order run; chunks in order are written once (the rows file becomes the output, no copy); a resumed run appends
after the kept chunks; with a combiner or a CSV output the output is written from the chunks' byte ranges."""

from __future__ import annotations

import json

import pytest

from polyreward.config import load_config
from polyreward.runners.parts import PartStore
from polyreward.runners.score_file import ChunkScorer, score_file
from test_io_faults import CONFIG, rollouts, write_jsonl


@pytest.fixture()
def cfg(tmp_path):
    path = tmp_path / "cfg.yaml"
    path.write_text(CONFIG)
    return path


def watch_outputs(monkeypatch) -> list[bool]:
    """For each JSONL output made: True when it was the rows file itself (written once), False when copied."""
    made = []
    real = PartStore._write_jsonl

    def watched(self, tmp, *args):
        written = real(self, tmp, *args)
        made.append(written == self.rows_file)
        return written

    monkeypatch.setattr(PartStore, "_write_jsonl", watched)
    return made


def test_chunks_in_order_are_written_once_and_out_of_order_are_joined_alike(tmp_path, cfg, monkeypatch):
    src = write_jsonl(tmp_path / "in.jsonl", rollouts(60))
    made = watch_outputs(monkeypatch)
    in_order = tmp_path / "in_order.jsonl"
    score_file(src, in_order, load_config(cfg), chunk_size=8)
    assert made == [True]

    config = load_config(cfg)

    def reversed_scorer(jobs):  # the Ray backend hands chunks back in the order they finished: here, last first
        scorer = ChunkScorer(config.build_scorer(0))
        return [(job, scorer(job.records)) for job in reversed(list(jobs))]

    shuffled = tmp_path / "shuffled.jsonl"
    score_file(src, shuffled, config, chunk_size=8, chunk_scorer=reversed_scorer)
    assert made == [True, False]  # the rows file holds the chunks last first: the output is copied from its ranges
    assert shuffled.read_bytes() == in_order.read_bytes()


def test_a_resumed_run_appends_after_the_kept_chunks_and_a_csv_reads_the_ranges(tmp_path, cfg):
    lines = [json.dumps(row) for row in rollouts(48)]
    src = tmp_path / "in.jsonl"
    for suffix in (".jsonl", ".csv"):
        out = tmp_path / f"out{suffix}"
        src.write_text("\n".join([*lines[:30], "{broken", *lines[30:]]) + "\n")
        with pytest.raises(Exception, match="malformed JSON line"):
            score_file(src, out, load_config(cfg), chunk_size=8)
        store = PartStore(out)
        kept = sorted(store.folder.glob("part-*.meta.json"))
        ends = [json.loads(path.read_text())["offset"] + json.loads(path.read_text())["bytes"] for path in kept]
        assert kept and max(ends) == store.rows_file.stat().st_size  # the chunks lie one after the other
        src.write_text("\n".join(lines) + "\n")
        score_file(src, out, load_config(cfg), chunk_size=8, resume=True)
        reference = tmp_path / f"reference{suffix}"
        score_file(src, reference, load_config(cfg), chunk_size=8)
        assert out.read_bytes() == reference.read_bytes() and not store.folder.exists()


def test_keep_freed_memory_sets_glibc_and_changes_nothing_elsewhere():
    import platform

    from polyreward.runners.allocator import SCORE_MMAP_BYTES, SCORE_TRIM_BYTES, keep_freed_memory

    assert keep_freed_memory(SCORE_MMAP_BYTES, SCORE_TRIM_BYTES) is (platform.libc_ver()[0] == "glibc")


def test_cheap_rewards_take_larger_chunks_by_default_with_the_same_bytes(tmp_path):
    """Every reward linear-time (think_format, the character lengths): CHEAP_CHUNK_ROWS rows a chunk by default, else
    CHUNK_ROWS (a toy reward, math, a tokenizer length); the output is the same bytes as with any other chunk size."""
    from polyreward.runners.score_file import CHEAP_CHUNK_ROWS, CHUNK_ROWS, default_chunk_size

    cheap = tmp_path / "cheap.yaml"
    cheap.write_text("columns: {prompt: question, completion: output, group: qid}\n"
                     "rewards:\n  - {name: format, type: think_format}\n  - {name: long, type: overlong_penalty, max_completion_len: 20, soft_punish_cache: 5}\n")
    assert default_chunk_size(load_config(cheap).build_scorer(0).rewards) == CHEAP_CHUNK_ROWS
    mixed = tmp_path / "mixed.yaml"
    mixed.write_text(CONFIG + "  - {name: format, type: think_format}\n")
    assert default_chunk_size(load_config(mixed).build_scorer(0).rewards) == CHUNK_ROWS
    assert default_chunk_size([]) == CHUNK_ROWS
    src = write_jsonl(tmp_path / "in.jsonl", [{**row, "output": f"<think>{row['k']}</think>{row['output']}"} for row in rollouts(40)])
    score_file(src, tmp_path / "default.jsonl", load_config(cheap))
    score_file(src, tmp_path / "small.jsonl", load_config(cheap), chunk_size=3)
    assert (tmp_path / "default.jsonl").read_bytes() == (tmp_path / "small.jsonl").read_bytes()
