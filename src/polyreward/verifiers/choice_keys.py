"""Answer-key forms of a multiple-choice answer (red team holdout58). :mod:`.choice` reads them; reconstructed rules
(ours), each one bounded pattern on the normalised text:

* the abbreviated label of an exam's answer key, MedMCQA explanation style: "Ans. is 'a' i.e., Thiamine",
  "Ans: (b)", "Answer is 'c'" -- the letter lowercase and quoted as often as not. What "i.e." glosses the letter with
  must be its own option's text: "Ans. is 'a' i.e., Riboflavin" with Riboflavin option B labels another option's
  text and is no answer;
* lowercase option letters listed as several correct ones ("Correct options: a, b") are several picks, as capital
  ones are, when the list ends its line (the list check of :mod:`.choice`; "b, a classic sign" lists nothing);
* a final answer that names no option -- "Final answer: None of the above." when no option is "none of the above"
  -- is a different final answer, not the option the reasoning named before it (:func:`final_names_no_option`).
"""

from __future__ import annotations

from collections.abc import Mapping

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.turns import walkthrough_end


def key_label_pattern(letters: str) -> re.Pattern:
    """An answer key's label opening its line and the letter it gives: "Ans. is 'a'", "Ans: (b)", "**Ans.** c",
    "Answer is 'd'", "Ans is a i.e. Thiamine". Group 1 is the letter; the closing quote or bracket is left outside the
    match and a bare letter's "i.e." inside it, so that the gloss word is not read as the lowercase letter's own next
    word (which would make it a word, not a letter)."""
    cls = re.escape(letters) + re.escape(letters.lower())
    return re.compile(r"(?im:^[^\S\n]*(?:\*\*)?[^\S\n]*ans(?:wer)?(?![A-Za-z])\.?(?:\*\*)?[^\S\n]*(?:is\b[^\S\n]*)?(?:\*\*)?[:\-–—]?[^\S\n]*(?:\*\*)?[^\S\n]*)"
                      rf"['‘\"“(\[]?([{cls}])(?:(?=['’\"”)\]]|[^\S\n]*(?:$|[.,:;!\-–—]))|[^\S\n]+(?:i\.?[^\S\n]?e\b|viz\b)\.?[,:]?[^\S\n]*)")


_GLOSS = re.compile(r"['’\"”)\]]?[^\S\n]*[,:\-–—]?[^\S\n]*(?:i\.?[^\S\n]?e\.?|viz\.?|that\s+is)[,:\s]*([^\n;!?]{1,80})", re.IGNORECASE)


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.lower())


def glossed_as_another_option(view: str, letter: str, letters: str, options: Mapping[str, str]) -> bool:
    """Does the last answer-key label of ``letter`` in ``view`` gloss it ("i.e.", "viz.", "that is") with the text of
    another option, not its own ("Ans. is 'a' i.e., Riboflavin" with Riboflavin option B)? Reads the gloss's
    opening words against each option's words."""
    labels = [m for m in key_label_pattern(letters).finditer(view) if m.group(1).upper() == letter]
    if not labels or not options:
        return False
    gloss = _GLOSS.match(view, labels[-1].end(1))
    if gloss is None:
        return False
    said = _words(gloss.group(1))
    named = {key for key, text in options.items() if (words := _words(text)) and said[:len(words)] == words}
    return bool(named) and letter not in named


# an answer phrase whose value is no option but a verdict on all of them: "Final answer: None of the above",
# "The answer is all of these", "Correct option: none of the listed options"
_NO_OPTION_FINAL = re.compile(
    r"\b(?:final\s+answer|(?:correct|best)\s+(?:answer|option|choice)s?|answer)(?:\s+(?:is|would\s+be|will\s+be))?[\s*:=\-–—]*"
    r"(?:\*\*)?\s*((?:none|all|neither|each)\s+of\s+(?:the\s+|these\s+|those\s+)?(?:above|these|them|those|(?:listed\s+|given\s+|provided\s+)?"
    r"(?:options|choices|answers))|none|"
    # holdout88: the answer line says no option can be given ("Answer: cannot be determined", "Final answer: insufficient
    # information"), after reasoning that named a letter
    r"(?:it\s+)?(?:cannot|can't|can\s+not)\s+be\s+(?:determined|answered|decided|known|chosen|marked|said)|undetermined|indeterminate|undecidable|"
    r"(?:insufficient|not\s+enough)\s+(?:information|data|context)|no\s+(?:single\s+|valid\s+|correct\s+)?(?:answer|option|choice))\b", re.IGNORECASE)


# a record's decision or answer field put off (holdout126): "Decision: none.", "Decision: deferred to the next meeting",
# "**Outcome:** tabled", "Answer: pending" -- the minutes or the form record no choice, whatever letter a motion or a
# draft named before it
_DECISION_PUT_OFF = re.compile(r"\b(?:decision|outcome|resolution|answer)(?:[^\S\n]*\([^()\n]{1,30}\))?(?:\*\*)?[^\S\n]*[:：](?:\*\*)?[^\S\n]*(?:\*\*)?"
                               r"(?P<word>none|deferred|tabled|pending|postponed|not\s+(?:yet\s+)?(?:made|reached|taken|recorded))\b", re.IGNORECASE)


def final_names_no_option(view: str, after: int, options: Mapping[str, str]) -> bool:
    """Does an answer phrase after ``after`` (the last place the letter read is named) give "none of the above",
    "all of the above" or "none" as the answer, when no option's text is such a verdict? Then the writer's final answer
    is no option, and the letter its reasoning named before is not what it answers. With the options unknown
    (``options`` empty) no option is taken to be such a verdict. So does a decision field put off after it
    (``_DECISION_PUT_OFF``; "none" there only when no option's text says "none")."""
    # (speed: both searched from ``after`` only -- a match starting before it never counts -- and the options'
    # texts read only when a match needs them)
    if any(m.group("word").lower() != "none" or not any(re.search(r"\bnone\b", text, re.IGNORECASE) for text in options.values())
           for m in _DECISION_PUT_OFF.finditer(view, after)):
        return True
    if _NO_OPTION_FINAL.search(view, after) is None:
        return False
    return not any(re.search(r"\b(?:none|all|neither|both|determin\w*|insufficient|enough)\b", text, re.IGNORECASE)
                   for text in options.values())  # an option that is "None of the above" is chosen by its own text


# a flashcard's answer label (holdout76: "Q: Monitored by aPTT?\nA: Unfractionated heparin (C)."): "A:" opening the
# line after a "Q:" question (or after its question mark on the same line) labels the answer, it names no option A --
# unless a "B:" line follows it, which makes the lines a list of options
_FLASHCARD_ANSWER = re.compile(
    r"(?im)(^[^\S\n]*(?:[*_]{1,2})?Q(?:[*_]{1,2})?[^\S\n]*[:：](?:[^\n]*\n(?:[^\S\n]*\n)?[^\S\n]*|[^\n]*\?[^\S\n]+)(?:[*_]{1,2})?)"
    r"A((?:[*_]{1,2})?[^\S\n]*[:：])(?![^\n]*\n(?:[^\S\n]*\n)?[^\S\n]*(?:[*_]{1,2})?B(?:[*_]{1,2})?[^\S\n]*[:：.)])")


def flashcard_answer(text: str) -> str:
    """``text`` with a flashcard's "A:" answer label written "Answer:" (see ``_FLASHCARD_ANSWER``), so that its letter
    is not read as option A beside the option it names. In a Socratic walk-through that the writer concludes after its
    last "A:" line (:func:`.turns.walkthrough_end`: "Q: What carries the force? A: A gauge boson. Q: So which option?
    A: C." then "Answer: C"), the "A:" lines answer the writer's own steps: each is written "Reply:", a label of no
    answer, so a step's words ("a gauge boson") are neither option A nor a second answer (holdout121)."""
    if "Q" not in text and "q" not in text:
        return text
    return _FLASHCARD_ANSWER.sub(r"\1Reply\2" if walkthrough_end(text, 0, len(text)) >= 0 else r"\1Answer\2", text)


# a SOAP note's section labels (holdout126): "S:", "O:", "A:", "P:" opening lines in that order -- its "A:" line is the
# Assessment, no option A beside the option its Plan commits to ("A: Anterior STEMI ...\nP: ... primary PCI (B).")
_SOAP_LABEL = re.compile(r"^([ \t]*(?:\*\*|__)?)([SOAP])((?:\*\*|__)?[ \t]*[:：])", re.MULTILINE)


def soap_assessment(text: str) -> str:
    """``text`` with a SOAP note's "A:" label written "Assessment:" where an "S:" and an "O:" line come before it and a
    "P:" line after it (any other "A:" line stays a letter)."""
    if "O" not in text or "P" not in text:
        return text
    labels = list(_SOAP_LABEL.finditer(text))
    plans = [m.start() for m in labels if m.group(2) == "P"]
    seen: set[str] = set()
    pieces, last = [], 0
    for label in labels:
        name = label.group(2)
        if name == "A" and {"S", "O"} <= seen and plans and plans[-1] > label.start():
            pieces += [text[last:label.start(2)], "Assessment"]
            last = label.end(2)
        seen.add(name)
    return "".join(pieces) + text[last:] if pieces else text


# options offered as alternatives by their key letters, MedMCQA style (holdout76: "So option b or a+b depending on
# whether 'combined' counts", "options (c) or (d)", "option B/D"): the word "option" (or an answer key's label), then
# two letters or letter combinations ("a+b", "a & c") joined by "or" / "/" -- no one option chosen
_KEY = r"['‘\"“(\[]?[{cls}]['’\"”)\]]?(?:[^\S\n]*[+&][^\S\n]*['‘\"“(\[]?[{cls}]['’\"”)\]]?)*"
_KEY_ALTERNATIVES = (r"(?i:\b(?:options?|choices?|ans(?:wer)?\.?(?:[^\S\n]+is)?)[^\S\n]*[:\-–—]?[^\S\n]*)(?P<first>" + _KEY + r")"
                     r"[^\S\n]*(?:\b(?:or|and/or|either)\b|/)[^\S\n]*(?i:(?:options?|choices?)[^\S\n]*)?(?P<second>" + _KEY + r")(?![\w'])")


def key_alternatives(text: str, letters: str) -> bool:
    """Does ``text`` offer two different options (or combinations) by their key letters joined by "or" / "/" after the
    word "option" or an answer key's label ("option b or a+b", "options (c) or (d)")? Letters are read in either case
    there: after "option" a lowercase "b" is a key, not a word."""
    cls = re.escape(letters.upper() + letters.lower())
    pattern = re.compile(_KEY_ALTERNATIVES.replace("{cls}", cls))
    for found in pattern.finditer(text):
        first, second = (re.sub(r"[^A-Za-z]", "", found.group(name)).upper() for name in ("first", "second"))
        if first != second:
            return True
    return False
