"""When two answers an answer reader found are one answer: the comparisons it makes between two answers.

* :func:`written_alike`: the same text once normalised and squeezed ("2 sqrt(3)" and "2\\sqrt{3}", "$36$" and "36").
* :func:`same_value`: written alike, or the same number ("0.5" and "1/2", "3/4" and "75%").
* :func:`same_final_value`: written alike, or chains of steps ending in values written alike ("3 * 12 = 36" and "36").
* :func:`chain_end`: the value a chain of steps ends in ("\\sqrt{8} = 2\\sqrt{2}" ends in "2\\sqrt{2}").

Each reader picks the comparison its rule needs; none is written again elsewhere. Linear time in the two answers.
"""

from __future__ import annotations

from polyreward.verifiers.math_normalize import normalize_answer, same_number
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.work_avoidance import squeeze

# a step of a chain: "=" or "\approx" ("3 * 12 = 36", "\sqrt{8} \approx 2.83")
_CHAIN_STEP = re.compile(r"=|\\approx(?![A-Za-z])")


def _squashed(text: str) -> str:
    return squeeze(normalize_answer(text))


def written_alike(one: str, other: str) -> bool:
    """Are two answers the same text once normalised and squeezed (spacing, ``$``, braces, notation: "2 sqrt(3)" and
    "2\\sqrt{3}")? The comparison of two answers a completion states, where another notation is no other answer."""
    return _squashed(one) == _squashed(other)


def chain_end(text: str) -> str:
    """The value a chain of steps ends in: "3 * 12 = 36" ends in "36", "\\sqrt{8} \\approx 2.83" in "2.83"."""
    return _CHAIN_STEP.split(text)[-1].strip()


def same_value(one: str, other: str) -> bool:
    """Do two answers state the same value: written alike (:func:`written_alike`) or the same number ("0.5" and
    "1/2", "3/4" and "75%")?"""
    return written_alike(one, other) or same_number(one, other)


def same_final_value(one: str, other: str) -> bool:
    """Do two answers end in the same value: written alike, or the last steps of their chains written alike ("3 * 12 =
    36" and "36", "2 sqrt(3)" and "2\\sqrt{3}": a fenced record that restates the prose; holdout38)?"""
    if written_alike(one, other):
        return True
    ends = [normalize_answer(chain_end(text).rstrip(".")) for text in (one, other)]
    return bool(ends[0]) and written_alike(ends[0], ends[1])
