"""The options of a multiple-choice question: from a column (a dict, a JSON string, a list or ``A. ...`` lines) or
from the prompt's own option lines (one per line, or a run written on one line: ``A) 54 B) 56 C) 58``).

Used by the choice reader (:mod:`.choice`), ``choice_accuracy`` and the probe.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from polyreward.schema import is_missing
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_OPTION_LINE = re.compile(r"\(?([A-Z])[.):]")


def parse_options(value: Any) -> dict[str, str]:
    """Options as {letter: text} from a dict, a JSON string, a list, or ``"A. ...\\nB. ..."`` lines."""
    if is_missing(value):
        return {}
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("{") or stripped.startswith("["):
            try:
                return parse_options(json.loads(stripped))
            except (ValueError, RecursionError):
                pass
        options = {}
        for line in value.splitlines():
            match = _OPTION_LINE.match(line.strip())
            if match and line.strip()[match.end():].strip():
                options[match.group(1)] = line.strip()[match.end():].strip()
        return options
    if isinstance(value, Mapping):
        return {str(k).strip().upper(): str(v).strip() for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return {chr(ord("A") + i): str(v).strip() for i, v in enumerate(value)}
    raise ValueError(f"cannot read options from a {type(value).__name__}")


def options_in_prompt(prompt: str, letters: str = "ABCDE") -> dict[str, str]:
    """The options a prompt lists on lines of their own (``A. text``, ``A) text``, ``(A) text``, ``A: text``), when
    they are a run of the first option letters in order (A, B[, C ...]) — the last such run in the prompt, so an
    earlier example block does not count; ``{}`` when there is none (a line that merely starts with a capital and a
    period, such as ``I. Introduction``, is not a run from A)."""
    found: dict[str, str] = {}
    best: dict[str, str] = {}
    for line in (piece for whole in prompt.splitlines() for piece in _inline_options(whole)):
        stripped = line.strip()
        match = _OPTION_LINE.match(stripped)
        text = stripped[match.end():].strip() if match else ""
        if match and text and match.group(1) in letters:
            letter = match.group(1)
            if letter == letters[0]:
                found = {letter: text}
            elif found and letters.index(letter) == len(found) and letter not in found:
                found[letter] = text
            else:
                found = {}
            if len(found) >= 2:
                best = dict(found)
        elif stripped and found:
            found = {} if len(found) < 2 else found  # a line after a lone "A)" ends it; after two or more options
            # the run stays open (an option's text wrapped onto the next line)
    return best


# options written on one line, "A) 54 B) 56 C) 58" or "(A) 54 (B) 56": a marker after a space, with a closing bracket;
# or, three or more in a run with one mark, "A. Lyon B. Paris C. Nice", "A: 2, B: 4, C: 8"
_INLINE_OPTION = re.compile(r"(?:(?<=\s)|\A)\(?([A-Z])\)[^\S\n]")
_INLINE_DOTTED = re.compile(r"(?:(?<=\s)|\A)([A-Z])([.:])[^\S\n]")
# what separates options listed on one line, left at the end of each piece: "A. Lyon, B. Paris, or C. Nice"
_PIECE_SEPARATOR = re.compile(r"[^\S\n]*(?:[,;][^\S\n]*(?:(?:or|and)[^\S\n]*)?|(?<=[^\S\n])or[^\S\n]*)?\Z")


def _inline_options(line: str) -> list[str]:
    """``line`` cut before each option marker when it lists a run of options from the first letter in order
    ("Which is prime? A) 21 B) 27 C) 37" is the question, then one piece per option); else ``[line]``. Markers with a
    full stop or colon ("A. 21 B. 27 C. 37") count only in a run of three or more that all use the same mark, as
    "A." alone is as often an initial; the separator between options (", ", "; ", ", or ") is left out of a piece."""
    for pattern, least in ((_INLINE_OPTION, 2), (_INLINE_DOTTED, 3)):
        if (")" not in line) if pattern is _INLINE_OPTION else (". " not in line and ": " not in line):
            continue  # (speed) no marker of this kind on the line
        markers = list(pattern.finditer(line))
        start = next((i for i, m in enumerate(markers) if m.group(1) == "A"), None)
        if start is None:
            continue
        run = [markers[start]]
        for marker in markers[start + 1:]:
            if ord(marker.group(1)) == ord(run[-1].group(1)) + 1 and (pattern is _INLINE_OPTION or marker.group(2) == run[0].group(2)):
                run.append(marker)
        if len(run) < least:
            continue
        cuts = [m.start() for m in run]
        pieces = [line[a:b] for a, b in zip(cuts, cuts[1:] + [len(line)])]
        return [line[:cuts[0]]] + [piece[:_PIECE_SEPARATOR.search(piece).start()] for piece in pieces]
    return [line]
