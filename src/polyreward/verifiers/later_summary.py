"""A summary or explanation after the answer that concludes another value of the answer (red team holdout64,
holdout25): the mirror of :mod:`.conclusions`, which reads the reasoning *before* the final answer.

    "v = 54 / 3 = \\boxed{18} km/h. ... ## Summary\\n... 54 / 3 comes to 16, so the cyclist's speed is 16 km/h."
    "**Answer:** 260\\n\\n**Explanation:** ..., so together they have 20 + 80 + 40 = 140 sheep."
    "$\\boxed{D}$\\n\\n**Summary:** ... the largest ocean is the Atlantic — option A."

A labelled section after the answer (a heading or a label that opens its line: Summary, Conclusion, TL;DR, Recap,
Explanation, Rationale, ... and their German, French, Spanish, Russian, Chinese and Japanese forms) is the writer
restating the result. Its last sentence with a value is its conclusion; when that sentence concludes (a conclusion
word -- so, thus, therefore, hence, in total, altogether, comes to -- before its last value, or, for an option,
the letter closing it) on a value other than the answer, and never names the answer itself, the completion states two
final values, and neither is committed. A genuine explanation derives the answer: its intermediate values (20, 80,
160) lead to a conclusion that names it ("so together 260 sheep"), and a check section (Check, Verification) that
substitutes other numbers is not read here. Reconstructed rule (ours): one pass over the text after the answer.
"""

from __future__ import annotations

from collections.abc import Callable

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a section that restates or explains the result, opening its line as a heading or a label
_SECTION = re.compile(
    r"^[ \t]*(?:#{1,4}[ \t]*)?(?:\*\*|__)?[ \t]*(?:Summary|In\s+summary|To\s+summari[sz]e|Conclusion|In\s+conclusion|TL;?\s?DR|Recap|"
    r"Bottom\s+line|In\s+short|Explanation|Reasoning|Justification|Rationale|Derivation|Zusammenfassung|Fazit|Erklärung|Résumé|"
    r"En\s+résumé|Explication|Resumen|En\s+resumen|Conclusión|Explicación|Итог|Вывод|Резюме|Объяснение|总结|小结|结论|解释|"
    r"まとめ|結論|説明|Errat(?:um|a)|Corrigendum|Correction|Update)[ \t]*(?:\([^()\n]{1,40}\))?[ \t]*(?:\*\*|__)?[ \t]*(?:[:：]|$)[ \t]*(?:\*\*|__)?",
    re.IGNORECASE | re.MULTILINE)
# the labels of a one-statement summary (holdout109): what such a section states is its conclusion, with or without a
# conclusion word ("**In short:** 3 × 16 × 25 = **1,500** corn plants." after \boxed{1200}); an explanation or a
# derivation lists steps, so its last equation is only a step
_SUMMARY_LABEL = re.compile(r"(?:Summary|In\s+summary|To\s+summari[sz]e|Conclusion|In\s+conclusion|TL;?\s?DR|Recap|Bottom\s+line|"
                            r"In\s+short)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<!\d)\.(?=\s|\Z)|[!?。]|\n")
_NUMBER = re.compile(r"(?<![\w.^])-?\d+(?:[.,]\d+)*(?!\w)")
# what concludes a sentence on its value: a conclusion word before it (an equals sign alone is a step: "Toulouse has
# 2 × 80 = 160." ends an explanation that lists its steps)
_CONCLUDES = re.compile(r"\b(?:so|thus|therefore|hence|which\s+means|in\s+total|altogether|comes?\s+to|"
                        r"works?\s+out\s+to|daher|folglich|donc|ainsi|por\s+lo\s+tanto|así\s+que|итак|значит|поэтому)\b|所以|因此|よって",
                        re.IGNORECASE)


def _last_section(text: str, end: int) -> str | None:
    """The text of the last labelled section after ``end`` (to the end of the text), or None."""
    last = _last_label(text, end)
    return None if last is None else text[last.end():]


def _last_label(text: str, end: int) -> re.Match | None:
    last = None
    for last in _SECTION.finditer(text, end):
        pass
    return last


def _states_one_value(label: re.Match, section: str) -> bool:
    """Is the section a one-statement summary (a summary label, one sentence with a number) whose sentence closes on
    its last value? ``TL;DR: 3 × 16 × 25 = 1,500 corn plants.`` states 1,500; ``Summary: multiply the rows, then add.``
    and ``Explanation: 16 × 25 = 400 per field.`` (a step) state no conclusion."""
    if _SUMMARY_LABEL.search(label.group()) is None:
        return False
    sentences = [s for s in _SENTENCE_END.split(section) if _NUMBER.search(s)]
    if len(sentences) != 1:
        return False
    numbers = list(_NUMBER.finditer(sentences[0]))
    return _STATED_TAIL.fullmatch(sentences[0], numbers[-1].end()) is not None


def _last_sentence_with(section: str, pattern: re.Pattern) -> str | None:
    sentences = [s for s in _SENTENCE_END.split(section) if pattern.search(s)]
    return sentences[-1] if sentences else None


# an answer that is one number, perhaps with its unit ("18", "18 km/h", "260 sheep"): a closed form ("5\\sqrt{2}", "x^2+1")
# is not compared number by number
_PLAIN_NUMBER = re.compile(r"[\s$*]*-?\d+(?:[.,]\d+)*[\s$*]*(?:[A-Za-z%°²³/][A-Za-z%°²³/ .^{}]*)?")


def summary_concludes_other(text: str, end: int, answer: str, same: Callable[[str], bool]) -> bool:
    """Does a labelled section after ``answer`` (one number, perhaps with its unit), ending at ``end``, conclude, in its
    last sentence with a number, on a value other than the answer (``same`` says whether a number is the answer),
    without naming the answer there?"""
    if _PLAIN_NUMBER.fullmatch(answer) is None:
        return False
    label = _last_label(text, end)
    if label is None:
        return False
    section = text[label.end():]
    sentence = _last_sentence_with(section, _NUMBER)
    if sentence is None:
        return False
    numbers = list(_NUMBER.finditer(sentence))
    if any(same(number.group()) for number in numbers):
        return False  # the conclusion names the answer: "so together 20 + 80 + 160 = 260 sheep"
    return _CONCLUDES.search(sentence, 0, numbers[-1].start()) is not None or _states_one_value(label, section)


def summary_names_other_letter(text: str, end: int, letter: str, letters: str) -> bool:
    """Does a labelled section after the letter's last mention (ending at ``end``) close its last sentence on another
    option's letter ("... the largest ocean is the Atlantic — option A.") and never name ``letter``?"""
    section = _last_section(text, end)
    if section is None or re.search(rf"(?<![\w'’]){re.escape(letter)}(?![\w'’])", section):
        return False
    cls = re.escape(letters)
    closing = re.search(rf"(?:\b(?i:option|choice|answer|letter)\s*|[(\[])\s*([{cls}])\b[)\]]?[^\w]*\Z", section.rstrip())
    return closing is not None and closing.group(1) != letter


# a one-line summary that opens the completion's answer before the work (holdout100): "TL;DR: $f'(2) = 4$." ... "so
# $f'(2) = 12 - 4 = 8$": the writer states one value up front and concludes another, two final values
_UP_FRONT = re.compile(
    r"^[ \t]*(?:#{1,4}[ \t]*)?(?:\*\*|__)?[ \t]*(?:TL;?\s?DR|Short\s+answer|Quick\s+answer|Bottom\s+line|In\s+short|Kurz\s+gesagt|"
    r"En\s+bref|En\s+resumen|Resumiendo|简而言之|简答)[ \t]*(?:\*\*|__)?[ \t]*[:：—–-][ \t]*(?P<line>[^\n]*)", re.IGNORECASE | re.MULTILINE)


def summary_before_other(text: str, end: int, answer: str, same: Callable[[str], bool]) -> bool:
    """Does a one-line summary label (TL;DR, Short answer, Bottom line, In short, ...) before the answer ``answer``
    (one number, perhaps with its unit; it ends at ``end``) state values none of which is the answer? The summary is
    the writer's answer given up front, so a different value concluded later makes two final answers; a summary that
    names the answer ("TL;DR: 12.") or states no value ("TL;DR: use the ratio test") agrees or says nothing."""
    final = answer.rpartition("=")[2]  # "f'(2) = 12 - 4 = 8": the value the answer's chain ends on
    if _PLAIN_NUMBER.fullmatch(final) is None or ":" not in text[:end] and "—" not in text[:end]:
        return False
    value = _NUMBER.search(final)
    for found in _UP_FRONT.finditer(text, 0, end):
        if found.end() >= end:
            continue  # the answer stands in the summary line itself
        numbers = list(_NUMBER.finditer(found.group("line")))
        if not numbers or _STATED_TAIL.fullmatch(found.group("line"), numbers[-1].end()) is None:
            continue  # "TL;DR: plug x = 2 into the derivative.": a method, no value stated
        if not any(same(number.group()) or value is not None and number.group() == value.group() for number in numbers):
            return True
    return False


# what may follow the value a summary line ends on: markup, a unit of a word or two, a full stop
_STATED_TAIL = re.compile(r"[\s$*_}]*(?:[A-Za-z°%/²³]+[ \t]*){0,2}[.!]?[\s$*_]*")
