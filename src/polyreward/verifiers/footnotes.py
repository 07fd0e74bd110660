"""Footnotes, as a reader follows them: markdown footnotes (``42.[^1]`` with ``[^1]: ...``) and footnotes marked
in superscript digits (``720°.¹`` with a line ``¹ ...``).

* In the visible text a footnote is read at its marker, in parentheses: it may qualify the answer it annotates
  ("[^1]: only if the figure is to scale"), never supply one -- a note with a value, math or markup is set aside, and
  its marker is no part of the answer it follows.
* In the text read for conflicts (:func:`.reading.answer_views`' second view) a footnote that only cites where the
  answer comes from ("Using the standard formula (n - 2)·180°") is dropped: its numbers are no second answer. Any other
  note stays there and may take the answer back ("[^1]: Actually 45.").
"""

from __future__ import annotations

import unicodedata

from polyreward.verifiers.negation_words import dissents
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs


# a footnote in superscript digits (holdout21): a line that opens with a superscript number ("¹ Using the standard
# formula ...") whose number stands earlier glued after a word or a mark ("... sum to 720°.¹")
SUPERSCRIPT_NOTE = re.compile(r"^[ ]{0,3}([¹²³⁴⁵⁶⁷⁸⁹⁰]{1,2})[ \t]+(?=\S)", re.MULTILINE)


def superscript_footnotes(text: str) -> str:
    """Footnotes marked in superscript digits written as markdown footnotes (``[^n]`` at the marker, ``[^n]:`` at the
    definition), so :func:`inline_footnotes` reads them as it reads those: a caveat at its marker, a note with a
    value set aside. A superscript with no definition line, or a line with no marker before it, is left as it is."""
    for definition in list(SUPERSCRIPT_NOTE.finditer(text))[::-1][:20]:
        number = definition.group(1)
        marker = re.compile(rf"(?<=[^\s⁰-⁹¹²³]){re.escape(number)}(?![⁰-⁹¹²³])")
        found = [m for m in marker.finditer(text, 0, definition.start())]
        if not found:
            continue
        label = f"[^s{unicodedata.numeric(number[-1]):.0f}{len(number)}]"
        text = text[:definition.start()] + label + ": " + text[definition.end():]
        text = text[:found[-1].start()] + label + text[found[-1].end():]
    return text


_FOOTNOTE_DEFINITION = re.compile(r"^[ ]{0,3}\[\^([^\]\n]{1,40})\]:[ \t]*([^\n]*)(?:\n|$)", re.MULTILINE)


# a note that could supply an answer: a digit, math or markup, or an answer word followed by a lone letter ("the answer
# is B", "option C"); "the answer key of another problem" names no answer and is read as a caveat
NOTE_WITH_VALUE = re.compile(r"[\d\\$<{]|\b(?:answers?|options?|choices?|letter)\b[\s:=*(]*(?:is\s+|was\s+|be\s+)?(?:the\s+)?[\s(*]*[A-Za-z](?![\w'])",
                              re.IGNORECASE)


NOTE_BREAK = re.compile(r"[;.!?]+\s+")


def notes_at_markers(text: str) -> str:
    """The text read for conflicts (:func:`.reading.answer_views`' second view) with each footnote that has a marker
    read at it, in parentheses, whatever it holds: ``Answer: E[^1]`` with ``[^1]: Option C (8) is a multiple of 4 but
    not of 6.`` reads ``Answer: E (Option C (8) is ...)``, a reason after the answer as the same words in prose are,
    while ``Answer: D[^1]`` with ``[^1]: or B, depending on the altitude.`` reads ``Answer: D (or B, ...)``, an
    alternative. Read at the end of the text with its ``[^1]:`` label instead, a note of reason that names another
    option or value was a later answer (holdout96). A definition with no marker stays where it is, as written."""
    notes = {match.group(1): match.group(2).strip() for match in _FOOTNOTE_DEFINITION.finditer(text)}
    outside = _FOOTNOTE_DEFINITION.sub("\n", text)
    placed = {label for label in list(notes)[:20] if f"[^{label}]" in outside}
    if not placed:
        return text
    text = _FOOTNOTE_DEFINITION.sub(lambda definition: "\n" if definition.group(1) in placed else definition.group(), text)
    for label in placed:  # (its own sentence breaks kept: every clause of the note is read, "... not of 6. So maybe C.")
        text = text.replace(f"[^{label}]", f" ({notes[label]})" if notes[label] else " ")
    return text


def inline_footnotes(text: str) -> str:
    """Footnote definitions removed, each read where it is referenced: ``42.[^1]`` with ``[^1]: only if the figure is to
    scale`` reads ``42. (only if the figure is to scale)``, so a caveat in a footnote is read right after the answer
    it qualifies, as a reader would follow the marker. A note with a value, math or markup, or naming an answer (an answer
    word then a lone letter: "the answer is B"), stays
    set aside (read only when nothing else answers): a footnote may qualify the answer, never supply one. One pass to
    collect, one literal replace per definition."""
    notes = {match.group(1): match.group(2).strip() for match in _FOOTNOTE_DEFINITION.finditer(text)}
    text = _FOOTNOTE_DEFINITION.sub("\n", text)
    for label, note in list(notes.items())[:20]:
        if NOTE_WITH_VALUE.search(note):
            # a footnote may qualify the answer, never supply one: "[^1]: \\boxed{42}" stays set aside, and its
            # marker is no part of the answer it follows ("42.[^1]")
            text = text.replace(f"[^{label}]", " ")
            continue
        # the note is one parenthetical at its marker: its own sentence breaks do not set its caveat apart from the
        # answer it qualifies ("[^1]: Copied from another problem's key; I have not solved this one.")
        note = NOTE_BREAK.sub(", ", note)
        text = text.replace(f"[^{label}]", f" ({note})" if note else " ")
    return text


# a footnote that cites where the answer comes from ("Using the standard formula ...", "Source: ...", "See ...") and
# one that may compete with the answer or qualify it instead (it names an answer or a result, holds a box, corrects,
# speaks in the first person or doubts)
_NOTE_CITES = re.compile(r"\s*(?:using|used|uses|use|source|sources|see|cf|ref|references?|from|via|by|per|following|"
                         r"based\s+on|according\s+to|formula|method|derived|computed|calculated|proof|proved|checked|"
                         r"verified|standard|textbook)\b", re.IGNORECASE)
_NOTE_ANSWERS = re.compile(r"\\boxed|\b(?:answers?|final|results?|solutions?|options?|choices?|actually|instead|rather|"
                           r"meant|typo|erratum|should|i|we|my|me|our|maybe|perhaps|guess\w*|think|unsure|not)\b", re.IGNORECASE)


# a note that is working (holdout77): equations joined by at most a few linking words ("[^1]: $P(9,3) = 9 \\cdot 8
# \\cdot 7$.", "[^1]: With $r = 7$, $r^2 = 49$."), its last equation ending on no bare number the annotated line does
# not state ("[^1]: $150 / 2 = 75$" under "72 km/h" is another value and stays)
_NOTE_MATH = re.compile(r"\$[^$\n]{1,300}\$|\\\((?:[^\n\\]|\\(?!\)))+\\\)")
_LINKING_WORD = re.compile(r"(?i:with|since|using|where|as|and|so|here|because|by|for|given|i\.e\.|e\.g\.|then|thus|hence)")
_BARE_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _is_working(note: str, line: str) -> bool:
    """Is ``note`` (a footnote's text) only working in equations that state no value the annotated ``line`` lacks?"""
    spans = _NOTE_MATH.findall(note)
    words = _NOTE_MATH.sub(" ", note) if spans else ""
    if not spans:
        spans = [piece for piece in re.split(r"[,;]\s+|\.\s*$", note) if piece.strip()]
    if not spans or any("=" not in span for span in spans):
        return False
    if any(_LINKING_WORD.fullmatch(word) is None for word in re.findall(r"[^\W\d_][\w.]*", words)):
        return False
    last = spans[-1].strip("$").strip(" .\\()").split("=")[-1].strip(" .$")
    return _BARE_NUMBER.fullmatch(last) is None or last in _BARE_NUMBER.findall(line)


def without_quiet_notes(text: str) -> str:
    """``text`` without the footnote definitions that cite where the answer comes from and neither name an answer nor
    dispute anything ("[^1]: Using the formula (n - 2)·180°"): their numbers are no second answer (holdout21); nor
    those that are working only (:func:`_is_working`: "[^1]: With $r = 7$, $r^2 = 49$." under "49\\pi"; holdout77).
    Any other note ("[^1]: Actually 42.") stays and is read."""
    quiet = []

    def annotated_line(label: str) -> str:
        at = text.find(f"[^{label}]")
        while at >= 0 and text.startswith(f"[^{label}]:", at):
            at = text.find(f"[^{label}]", at + 1)
        return "" if at < 0 else text[text.rfind("\n", 0, at) + 1:at]

    def kept(definition: re.Match) -> str:
        note = definition.group(2)
        if _NOTE_ANSWERS.search(note) is not None or dissents(note) or (
                _NOTE_CITES.match(note) is None and not _is_working(note, annotated_line(definition.group(1)))):
            return definition.group()
        quiet.append(definition.group(1))
        return "\n"
    text = _FOOTNOTE_DEFINITION.sub(kept, text)
    for label in quiet[:20]:
        text = text.replace(f"[^{label}]", " ")  # its marker as the visible view reads it
    return text
