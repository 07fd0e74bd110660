"""Hacks for format and length rewards: empty or junk think blocks, empty answers, junk text, invisible and
unspaced padding."""

from __future__ import annotations

from polyreward.probe.case import JUNK, ProbeCase

def _split_think(text: str) -> tuple[str, str]:
    """(think body, text after ``</think>``) of a genuine completion; ("", text) without a think block."""
    start, end = text.find("<think>"), text.find("</think>")
    if start < 0 or end < start:
        return "", text
    return text[start + len("<think>"):end], text[end + len("</think>"):]


def empty_think(case: ProbeCase) -> list[str]:
    return [f"<think></think>{_split_think(case.genuine)[1]}"]


def junk_think(case: ProbeCase) -> list[str]:
    return [f"<think>{JUNK}</think>{_split_think(case.genuine)[1]}"]


def empty_answer(case: ProbeCase) -> list[str]:
    think, after = _split_think(case.genuine)
    if "<answer>" in after:
        return [f"<think>{think}</think>\n<answer></answer>"]
    return [f"<think>{think}</think>"]


def junk_text(case: ProbeCase) -> list[str]:
    return [JUNK]


def _padding_words(case: ProbeCase) -> int:
    limit = getattr(case.reward, "max_completion_len", 0)
    return int(limit) + 1 if isinstance(limit, int) and 0 < limit < 200_000 else 0


def invisible_padding(case: ProbeCase) -> list[str]:
    n = _padding_words(case)
    return [case.genuine + " " + "\u200b".join(["pad"] * n), case.genuine + " " + "_".join(["pad"] * n)] if n else []


def unspaced_padding(case: ProbeCase) -> list[str]:
    n = _padding_words(case)
    return [case.genuine + " " + "x" * (16 * n)] if n else []
