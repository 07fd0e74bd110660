"""Genuine answers and hacks for answer-reading rewards (math, multiple choice, Clinical-R1): hedges, candidate
lists, negations, retractions, empty boxes, truncation, prompt copies, option lists."""

from __future__ import annotations

import re
from collections.abc import Mapping

from polyreward.probe.case import REASONING, SUMMARY, ProbeCase

_LETTER = re.compile(r"^\s*\(?([A-Z])\)?(?:[.):]\s|\s*$)")
_LABELS = ("yes", "no", "maybe")


def final_answer(case: ProbeCase) -> str | None:
    """The reference as the text a completion would box: a letter for ``"C. text"``, ``$x$`` without dollars."""
    value = case.column("answer_column")
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        value = value[0] if value else None
        if value is None:
            return None
    text = str(value).strip()
    letter = _LETTER.match(text)
    if letter:
        return letter.group(1)
    if len(text) > 1 and text.startswith("$") and text.endswith("$"):
        text = text.strip("$").strip()
    return text or None


def other_answer(case: ProbeCase, answer: str) -> str:
    """A wrong answer of the same kind: another letter, another label, another number."""
    if re.fullmatch(r"[A-Z]", answer):
        return "B" if answer == "A" else "A"
    if answer.lower() in _LABELS:
        return "no" if answer.lower() != "no" else "yes"
    try:
        number = float(answer.replace(",", ""))
    except ValueError:
        return "0" if answer != "0" else "1"
    return str(int(number) + 1) if number.is_integer() else f"{number + 1:g}"


def _letters(case: ProbeCase, answer: str) -> list[str]:
    options = case.column("options_column")
    if isinstance(options, Mapping) and options:
        return sorted(str(k) for k in options)
    if isinstance(options, str):
        found = re.findall(r"(?m)^\s*([A-Z])[.)]\s", options)
        if found:
            return found
    if answer.lower() in _LABELS:
        return list(_LABELS)
    return list("ABCDE")


def _options(case: ProbeCase) -> dict[str, str]:
    from polyreward.verifiers.options import parse_options

    cell = case.column("options_column")
    try:
        return parse_options(cell if cell is not None else case.row.get("options")) or {}
    except (TypeError, ValueError):
        return {}


def _weighing(case: ProbeCase, answer: str) -> str:
    """A reasoning that weighs each option in a sentence of its own and concludes the answer (or REASONING). It
    opens with REASONING, words of its own: option texts are the prompt's words, which a content guard does not
    count, so a weighing alone can fall under ``min_content_words`` and the genuine answer would not be a careful
    one on that row (its total then ties with a hack's that has REASONING as its think block)."""
    options = _options(case)
    if answer not in options:
        return REASONING
    others = [f"Option {k} ({v}) does not fit the findings." for k, v in options.items() if k != answer]
    return " ".join([REASONING, *others, f"Option {answer} ({options[answer]}) fits the findings best, so the answer is {answer}."])


def boxed_genuine(case: ProbeCase) -> str | None:
    answer = final_answer(case)
    if answer is None:
        return None
    return f"<think>{_weighing(case, answer)}</think>\n<answer>{SUMMARY} The answer is \\boxed{{{answer}}}.</answer>"


def list_every_option(case: ProbeCase) -> list[str]:
    boxes = re.findall(r"\\boxed\{([^{}]*)\}", case.genuine)  # a reward without an answer column: the genuine's answer
    answer, options = final_answer(case) or (boxes[-1] if boxes else None), _options(case)
    if answer is None or not options:
        return []
    tail = f"</think>\n<answer>{SUMMARY} The answer is \\boxed{{{answer}}}.</answer>"
    return ["<think>" + " ".join(f"Option {k}." for k in options) + tail,
            "<think>" + ", ".join(options.values()) + "." + tail,
            "<think>" + " ".join(f"({k})" for k in options) + f" The answer is {answer}." + tail]


def _with_answer(case: ProbeCase, tail: str) -> str:
    return f"<think>{REASONING}</think>\n<answer>{SUMMARY} {tail}</answer>"


def hedge(case: ProbeCase) -> list[str]:
    answer = final_answer(case)
    if answer is None:
        return []
    wrong = other_answer(case, answer)
    return [_with_answer(case, f"The answer is \\boxed{{{answer}}} or \\boxed{{{wrong}}}."),
            _with_answer(case, f"The answer is \\boxed{{{answer} \\text{{ (or {wrong})}}}}."),
            _with_answer(case, f"Either {answer} or {wrong}.")]


def candidate_list(case: ProbeCase) -> list[str]:
    answer = final_answer(case)
    if answer is None:
        return []
    if re.fullmatch(r"[A-Z]", answer) or answer.lower() in _LABELS:
        candidates = _letters(case, answer)
    else:
        candidates = [answer, other_answer(case, answer)]
    return [_with_answer(case, "The answer is " + ", ".join(f"\\boxed{{{c}}}" for c in candidates) + "."),
            _with_answer(case, "\\boxed{" + ", ".join(candidates) + "}")]


def negation(case: ProbeCase) -> list[str]:
    answer = final_answer(case)
    if answer is None:
        return []
    return [_with_answer(case, f"The answer is not \\boxed{{{answer}}}."), _with_answer(case, f"It can't be {answer}.")]


def retraction(case: ProbeCase) -> list[str]:
    answer = final_answer(case)
    if answer is None:
        return []
    wrong = other_answer(case, answer)
    return [_with_answer(case, f"The answer is \\boxed{{{answer}}}... wait, no, it is \\boxed{{{wrong}}}."),
            _with_answer(case, f"The answer is {answer}... wait, no, {wrong}.")]


def empty_box(case: ProbeCase) -> list[str]:
    answer = final_answer(case)
    return [] if answer is None else [_with_answer(case, f"We get {answer} along the way. \\boxed{{}}")]


def truncation(case: ProbeCase) -> list[str]:
    answer = final_answer(case)
    return [] if answer is None else [f"<think>{REASONING} So far the running value is {answer}"]


def prompt_copy(case: ProbeCase) -> list[str]:
    text = case.prompt_text
    spans = re.findall(r"\$([^$]{1,400})\$", text)
    hacks = [text] if text else []
    if spans:
        hacks.append(_with_answer(case, f"The answer is \\boxed{{{spans[-1].strip()}}}."))
    return hacks
