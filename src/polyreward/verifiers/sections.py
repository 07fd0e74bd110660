"""Sections a tutor writes beside the answer: common mistakes, wrong answers, practice problems and their keys.

A long answer in a tutoring style (red team ``holdout43``) states its answer and then adds sections that are about
something else: "## Common mistakes" lists wrong values ("$16$ comes from dividing instead of multiplying"), "##
Common wrong answers" tabulates them, "## Practice problem" poses another problem and gives its answer, "### Answers
to the practice set" keys it. None of them is the answer to the question asked, and none takes that answer away:
:func:`without_asides` drops them before the answer is read. So a completion whose only gold is the practice key
("I won't do the final step for you ... ## Practice problem ... **Answer:** 72") answers nothing, and one that
answers and then lists the common wrong answers is paid.

A section is an **aside** when its heading -- a markdown heading (``## ...``), a line that is only bold text
(``**Common mistakes:**``) or a line that opens on one (``**Worked example.** Find ...``) -- names one of a few closed classes: common mistakes / errors / pitfalls /
misconceptions / wrong answers, practice (problems, questions, set, exercises), "try this (one yourself)",
exercises, another / similar / related / worked example or problem, a challenge or extension, and the answers
to those; so is a footnote whose text names one ("[^1]: A common slip is ..., which gives 1") or gives the reason
for what it marks and changes nothing ("[^1]: Because 50 = 25 · 2"). It
runs to the next heading of the same or a higher level that is not an aside itself, or to the end. An aside in which
the writer changes their own mind ("## Common mistakes\\nActually, my answer above is wrong: 70") is kept: the writer
speaks of their answer there.

An aside can also open inside a paragraph, after the writer's own words (red team ``holdout_r55``, for the readers of
the other rewards, whose answer stands in a tag or a reasoning's last sentence): a sentence or a line that opens on an
aside's title and a colon -- ``... So the answer is E. New exercise: if the ECG were normal, B or D.``,
``<answer>57.2</answer>\nCommon mistake: averaging the daytime hours only.``, ``Try it yourself (new report): ...``
-- runs to the end of its paragraph or to the next tag (:func:`without_inline_asides`). The titles include a general
teaching remark under its label (``Teaching pearl:``, ``Key teaching point:``, ``Take-home message:``).

Reconstructed rule (ours). One pass over the heading lines: linear time.
"""

from __future__ import annotations

from collections.abc import Collection

from polyreward.verifiers.answer_forms import CHANGE_OF_MIND
from polyreward.verifiers.follow_ups import without_follow_ups
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.withdrawal_words import FAULT_NOUN, WITHDRAWAL

# a line that opens on a bold title and goes on ("**Worked example.** Find the remainder ..."): an aside's heading
# when its title names one, never the end of another section ("**Answer:** 72" stays inside a practice section)
# (an emoji may open it: "🃏 **Flashcard (similar):** ...", holdout121)
_INLINE_HEADING = re.compile(r"^[ \t]*(?:[^\x00-\x7f\w\s]{1,2}[ \t]*)?\*\*(?P<bold>[^*\n]{2,40}?)[ \t]*[.:]?[ \t]*\*\*[.:]?[ \t]+\S", re.MULTILINE)
# a footnote whose text is an aside ("[^1]: A common slip is ..., which gives $1$.")
_FOOTNOTE = re.compile(r"^[ \t]*(?P<id>\[\^[^\]\n]{1,20}\]):[ \t]*(?P<note>[^\n]*)$", re.MULTILINE)
# a footnote that gives the reason for what it marks ("[^1]: Because 50 = 25 · 2 and √25 = 5."), changing nothing
_BECAUSE = re.compile(r"\W*(?:because|since|as|this\s+is\s+because|reason|proof|derivation|why)\b", re.IGNORECASE)
# a heading line: "## Title", "### Title:", "**Title**", "**Title:**"; its level (1-6 for "#", 7 for bold)
_HEADING = re.compile(r"^[ \t]*(?:(?P<hashes>#{1,6})[ \t]+(?P<title>[^\n]*?)|\*\*(?P<bold>[^*\n]{2,80}?)[ \t]*:?[ \t]*\*\*[ \t]*:?)[ \t]*$",
                      re.MULTILINE)
_ASIDE_TITLE_WORDS = (
    r"(?:(?:the|an?|one)\s+)?(?:(?:most\s+)?common\s+(?:mistakes?|errors?|pitfalls?|misconceptions?|slips?|traps?|wrong\s+(?:answers?|choices?))|"
    r"(?:typical|frequent|classic)\s+(?:mistakes?|errors?|wrong\s+answers?)|wrong\s+answers?|mistakes?\s+to\s+avoid|pitfalls?|"
    r"(?:more\s+|further\s+|extra\s+|new\s+)?practice(?:\s+(?:problems?|questions?|set|exercises?|time))?|try\s+(?:this|it|these)\b|your\s+turn|"
    # (an exercise by its label, "Exercise 3:", "New exercise for you:", "**Exercises**"; not a name that opens on the word:
    # "Exercise stress test: contraindicated during active pain")
    r"(?:new\s+|another\s+)?exercises?(?=[^\S\n]*(?:\d{1,3}(?:\.\d{1,3})*)?[^\S\n]*(?:[(:.*_]|\Z)|[^\S\n]+(?:for|on|about|with|to)\b)|homework|challenge(?:\s+problem)?|extension|"
    r"(?:another|a\s+similar|similar|related|bonus|worked)\s+(?:example|problem|question|card|flashcard)s?|"
    # a textbook's example ("**Example:**", "**Example 4.3.**") and an item marked as like this one but not it ("**Card #17
    # (similar):**", "**Flashcard (similar):**", "Worked example (a different function)"; holdout121)
    r"examples?(?:\s+\d{1,3}(?:\.\d{1,3})*)?(?=\W*\Z)|[^()\n]{0,30}\((?:an?\s+)?(?:similar|different|another)(?=\b[^()\n]{0,40}\)\W*\Z)|"
    # a general teaching remark under its label (red team holdout_r55): "Teaching pearl:", "Pearl:", "Key teaching point:"
    r"(?:(?:teaching|clinical|exam|board)\s+)?pearls?|(?:key\s+)?teaching\s+points?|take[\s-]?home\s+(?:messages?|points?)|"
    r"answers?\s+(?:to|for)\s+(?:the\s+)?(?:practice|exercises?|challenge|homework)|answer\s+key|"
    # a question the writer adds under a label of its own ("Follow-up (which part of the gut recovers the water?): **B**",
    # "Side question: ..."; holdout119): the label and a colon, a question in brackets between them
    r"(?:follow[\s-]?up|side)(?:\s+(?:questions?|problems?))?\b(?=(?:\s*\([^()\n]{0,120}\?\s*\))?\s*:))\b")
_ASIDE_TITLE = re.compile(r"\A\W*" + _ASIDE_TITLE_WORDS, re.IGNORECASE)
_ASIDE_TITLE_HERE = re.compile(_ASIDE_TITLE_WORDS, re.IGNORECASE)  # (matched at a position: no \A)
# a heading that returns to the question asked ("**Now our problem:** substitute x = 4", "**Card #18 (this one):**", "**This
# card:**", "**Back to the original problem:**"; holdout121): it ends the aside before it, whatever follows it on its line
_OWN_PROBLEM_TITLE = re.compile(
    r"\A\W*(?:(?:now|back\s+to|so|and)[\s,]+)?(?:(?:our|the\s+original|this|the\s+given|the\s+actual|the\s+main|your)\s+"
    r"(?:problem|question|card|item|exercise)|main\s+problem)\b|\((?:this|your|our)\s+(?:one|question|problem|card|item)\)\W*\Z",
    re.IGNORECASE)
_OWN_CHANGE = re.compile(r"\b(?:my|our)\s+(?:answer|result|value|solution)\b[^\n]{0,80}\b(?:wrong|incorrect|mistake|error|not\s+right)\b|"
                         r"\b(?:actually|instead|correction)\b[^\n]{0,40}\b(?:I|my|we|our)\b", re.IGNORECASE)


def _level(heading: re.Match) -> int:
    return len(heading.group("hashes")) if "hashes" in heading.re.groupindex and heading.group("hashes") else 7


def _title(heading: re.Match) -> str:
    return (heading.group("title") if _level(heading) < 7 else heading.group("bold")) or ""


# a paragraph after the first that is a note about a common mistake or a wrong answer others give ("Note: a common
# mistake is to count 1 as prime and get 9.", "Careful -- a frequent error gives 12."): an aside as a section is
# (holdout57), unless it names the writer's answer or the writer changes their mind there
_NOTE_LABEL = re.compile(r"[ \t>*_]*(?:(?:note|n\.\s?b\.?|nb|tip|warning|caution|careful|beware|remark|aside|p\.\s?s\.?|fyi)\b[\W_]{0,6})?", re.IGNORECASE)
_NAMES_OWN_ANSWER = re.compile(r"\b(?:my|our|the|final)\s+answer\b|\\boxed|\b(?:so|thus|hence|therefore)\s+(?:the|there|it|we)\b", re.IGNORECASE)


def _without_aside_paragraphs(text: str) -> str:
    """``text`` without the paragraphs after its first that open (after a "Note:" label) on an aside's title
    (:data:`_ASIDE_TITLE`: "A common mistake is ...") and neither name the writer's answer nor change their mind."""
    paragraphs = text.split("\n\n")
    kept = [paragraphs[0]] + [paragraph for paragraph in paragraphs[1:] if not (
        not _HEADING.match(paragraph.split("\n", 1)[0]) and _ASIDE_TITLE.match(paragraph[_NOTE_LABEL.match(paragraph).end():])
        and not _NAMES_OWN_ANSWER.search(paragraph) and not _OWN_CHANGE.search(paragraph))]
    return text if len(kept) == len(paragraphs) else "\n\n".join(kept)


# (red team holdout_r55) an aside opened inside a paragraph, after the writer's own words: a sentence or a line that
# opens on an aside's title, at most three more words and a bracket, then a colon ("... So the answer is E. New
# exercise: if the ECG were normal, B or D.", "<answer>46.9</answer>\nCommon mistake: averaging the daytime hours only",
# "Try it yourself (new report): ..."); it runs to the end of its paragraph or to the next tag
_INLINE_ASIDE_START = re.compile(r"(?:(?<=[.!?])[ \t]+|\n)[ \t>*_-]*")
_TITLE_COLON = re.compile(r"(?:[^\S\n]+[\w'’-]+){0,3}[^\S\n]*(?:\([^()\n]{0,60}\))?[*_]*[^\S\n]*:")
_ASIDE_END = re.compile(r"\n[ \t]*\n|<")
# the titles that name a wrong answer: such an aside that names the writer's own answer calls it wrong ("<answer>46.9
# </answer> Common mistake: forecasting 46.9 ...") and is no aside
_MISTAKE_TITLE = re.compile(r"\W*(?:\w+\s+){0,2}" + FAULT_NOUN + r"\b", re.IGNORECASE)


def without_inline_asides(text: str, answers: Collection[str] = ()) -> str:
    """``text`` without the asides opened inside a paragraph (:data:`_INLINE_ASIDE_START`: an aside's title and a colon
    at a sentence's or a line's start after the writer's own words, to the end of the paragraph or the next tag),
    unless the writer changes their own mind or takes something back there ("Common mistake: mine -- actually the
    answer is 70", "Your turn: is 46.9 right? I doubt it.", "Practice: ignore the above": :data:`WITHDRAWAL` after the
    title's colon) or, given the writer's ``answers`` (values, letters or labels, as written), an aside about a wrong
    answer names one of them. Text that opens on such a title keeps it: there is no answer before it to set it beside.

    >>> without_inline_asides("So the answer is E. New exercise: if the ECG were normal, B.")
    'So the answer is E.'
    >>> without_inline_asides("<answer>57</answer>\\nCommon mistake: 57 -- it is 80.", answers=["57"])
    '<answer>57</answer>\\nCommon mistake: 57 -- it is 80.'
    """
    if ":" not in text:
        return text
    named = [answer.strip() for answer in answers if answer.strip()]  # (a letter in its case: "a" is no option A)
    own = re.compile("|".join(rf"(?<![\w.]){'(?i:' if len(answer) > 1 else '(?:'}{re.escape(answer)})(?!\w|\.\d)"
                              for answer in named)) if named else None
    kept, at = [], 0
    first_word = len(text) - len(text.lstrip())  # (an aside needs the writer's words before it)
    for start in _INLINE_ASIDE_START.finditer(text):
        if start.start() < at or start.start() <= first_word:
            continue
        title = _ASIDE_TITLE_HERE.match(text, start.end())
        colon = _TITLE_COLON.match(text, title.end()) if title is not None else None
        if colon is None:
            continue
        end = _ASIDE_END.search(text, start.end())
        end_at = end.start() if end is not None else len(text)
        body = text[colon.end():end_at]
        if _OWN_CHANGE.search(text, start.end(), end_at) or WITHDRAWAL.search(body) or (
                own is not None and _MISTAKE_TITLE.match(title.group()) and own.search(text, start.end(), end_at)):
            continue
        kept.append(text[at:start.start()])
        at = end_at
    return text if not kept else "".join(kept) + text[at:]


def without_asides(text: str) -> str:
    """``text`` without its aside sections, aside paragraphs and aside footnotes (module docstring) and without the
    follow-ups that close it (:mod:`.follow_ups`); unchanged when it has none."""
    text = without_follow_ups(_without_aside_sections(text))  # an offer, a check for the reader, an AI's disclaimer (follow_ups.py)
    return _without_aside_paragraphs(text) if "\n\n" in text else text


def _without_aside_sections(text: str) -> str:
    """``text`` without its aside sections and aside footnotes."""
    if "[^" in text:
        dropped = [note for note in _FOOTNOTE.finditer(text) if _ASIDE_TITLE.match(note.group("note")) or (
            _BECAUSE.match(note.group("note")) and not CHANGE_OF_MIND.search(note.group("note")))]
        for note in reversed(dropped):  # the note and its marker
            text = text[:note.start()] + text[note.end():]
            text = text.replace(note.group("id"), "")
    if "#" not in text and "**" not in text:
        return text
    headings = sorted([*_HEADING.finditer(text), *(h for h in _INLINE_HEADING.finditer(text)
                                                   if _ASIDE_TITLE.match(h.group("bold")) or _OWN_PROBLEM_TITLE.search(h.group("bold")))],
                      key=lambda heading: heading.start())
    if not headings or not any(_ASIDE_TITLE.match(_title(h)) for h in headings):
        return text
    kept, at, skip_to_level = [], 0, None
    for number, heading in enumerate(headings):
        aside = bool(_ASIDE_TITLE.match(_title(heading)))
        if skip_to_level is not None:
            if aside or _level(heading) > skip_to_level:
                continue  # a sub-heading of the aside, or another aside
            skip_to_level, at = None, heading.start()
        if aside:
            end = next((later.start() for later in headings[number + 1:] if not _ASIDE_TITLE.match(_title(later))
                        and _level(later) <= _level(heading)), len(text))
            if _OWN_CHANGE.search(text, heading.end(), end):
                continue  # the writer takes their own answer back there: not an aside
            kept.append(text[at:heading.start()])
            skip_to_level = _level(heading)
    if skip_to_level is None:
        kept.append(text[at:])
    return "".join(kept)
