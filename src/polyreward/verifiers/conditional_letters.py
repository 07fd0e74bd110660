"""Another option offered under a condition after the chosen one (holdout57: "The answer is A.[^1]" with the
footnote "[^1]: Unless the question intends a different definition of side, in which case D."): the writer hands
the choice between two options to whoever reads the question, which is two answers, not one.

Read on the text after the chosen letter's last mention (a footnote is already read there, at its marker:
:func:`.footnotes.inline_footnotes`). Only a consequent that stands as the answer counts: a connective that opens the
other branch ("in which case", "otherwise", "else", "failing that", "if not") and then the other letter alone at the
end of its clause ("in which case D.", "otherwise, C"). A counterfactual about another question ("If the question
had asked for the hottest layer instead, that would be D") and a reason ("otherwise B would be true") name no other
answer to this one and are not read. Reconstructed rule (ours); linear time (one bounded search).

:func:`answers_under_conditions` reads the same shape with the chosen letter itself inside a branch (holdout55: "If
the serum thiamine level is low, the answer is B. If instead the B12 level comes back low, A would be correct."): two
sentences or clauses, each opening with "If <condition>," (or "If instead", "If not", "Otherwise", "Else"), whose
consequents name two different letters (or one a letter and the other no option: "If it is a nominal rate, ... none
of the options fits"; holdout89), and no later mention of the chosen letter outside a branch settles it ("...
He is stable, so B."). One letter under both conditions ("If you mean X, it's still B — B either way") is one answer.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_OTHER_BRANCH = re.compile(
    r"\b(?:in\s+which\s+case|otherwise|else|failing\s+that|if\s+not)\b[\s,:]*"
    r"(?:(?:it(?:'s|\s+is|\s+would\s+be)|the\s+answer\s+(?:is|would\s+be)|(?:pick|choose|take|go\s+with)|answer)\s+)?"
    r"(?:(?:option|choice)\s+)?[(\[*]*(?P<letter>[A-Z])[)\]*]*(?=\s*(?:[.;!,)\n]|\Z))",
    re.IGNORECASE,
)


def conditional_other_letter(text: str, after: int, letter: str, letters: str) -> bool:
    """Does the text after ``after`` (the end of the chosen ``letter``'s last mention) offer another of ``letters``
    as the answer in another branch ("..., in which case D.", "Otherwise C.")?"""
    for found in _OTHER_BRANCH.finditer(text, after, min(len(text), after + 600)):
        other = found.group("letter")
        if other.isupper() and other != letter and other in letters:
            return True
    return False


# one branch: a sentence or clause opening with "If <condition>," / "If instead ...," / "Otherwise," / "Else," and its
# consequent up to the end of the clause (the condition itself is not read: "If the B12 level is low" names no option)
_BRANCH = re.compile(
    r"(?:^|(?<=[.!?;:\n]))[^\S\n]*\**(?:(?:and|but|so)\s+)?(?:(?:if|when)\b[^,.;!?\n]{1,120},|(?:otherwise|else|if\s+not)\b,?)"
    r"[^\S\n]*(?P<then>[^.;!?\n]{1,200})", re.IGNORECASE | re.MULTILINE)
# ... and the consequent first (holdout93: "(B) fits if the hypertension is the main driver. (C) fits if the diuretics
# have caused hypokalaemia."): a sentence or clause that opens on a letter, which a few words later holds only under
# "if" / "when" / "provided" / "assuming" (not "even if", "as if"); the letter and those words are its consequent
_LETTER_BRANCH = re.compile(
    r"(?:^|(?<=[.!?;:\n]))[^\S\n]*(?:[-*]\s+)?(?:(?:and|but|while|whereas)\s+)?(?P<then>\**[(\[]?[A-Z][)\]]?\**(?:[^\S\n]+(?!(?:even|as)\b)[\w'’]+){0,5}?)"
    r"[^\S\n]*,?[^\S\n]+(?:only\s+)?(?:if|when|provided|assuming|si|se|wenn|falls|если)\b[^.;!?\n]{1,200}", re.IGNORECASE | re.MULTILINE)
_BRANCH_LETTER = re.compile(r"(?<![A-Za-z'\\\d])\**[(\[]?(?P<letter>[A-Z])[)\]]?\**(?![A-Za-z'\d])")
# a consequent that no option answers: the branch's answer is "none", another answer than the chosen letter's
_NO_OPTION = re.compile(r"\bnone\s+of\s+(?:the\s+|these\s+)?(?:options|choices|answers|above)|\bno\s+(?:option|choice|answer)\s+"
                        r"(?:fits|matches|works|applies|is\s+(?:right|correct))", re.IGNORECASE)
_DENIED = re.compile(r"\b(?:not|n't|never|wrong|incorrect|rules?\s+out|excluded?)\b", re.IGNORECASE)


def answers_under_conditions(text: str, at: int, letter: str, letters: str) -> bool:
    """Is the chosen ``letter``, last mentioned at ``at``, the consequent of one "If ...," branch while another branch
    ("If instead ...,", "Otherwise,") names another of ``letters`` as its consequent (module docstring)?"""
    own = False
    others = False
    for found in (*_BRANCH.finditer(text, max(0, at - 600), min(len(text), at + 600)),
                  *_LETTER_BRANCH.finditer(text, max(0, at - 600), min(len(text), at + 600))):
        if _NO_OPTION.search(found.group("then")):
            others = True  # "If it is a nominal rate, the NPV is $32 and none of the options fits." (holdout89)
            continue
        if _DENIED.search(found.group("then")):
            continue
        named = {m.group("letter") for m in _BRANCH_LETTER.finditer(found.group("then"))} & set(letters)
        if letter in named and found.start("then") <= at < found.end("then"):
            own = True
        if named - {letter}:
            others = True
    return own and others


# the reader's own pick named under "if" (holdout121: a tutor's self-check "If you answered **A**: Great job!", "If you
# chose A, review the fat-soluble vitamins", "If you answered B, C or D: ..."): the letters are the student's
# hypothetical picks, neither the writer's answer nor an answer it offers; "If you chose A, you're right" commits no
# more than "If A, ..." does
_READER_PICK = re.compile(
    r"\b(?i:if\s+(?:you|the\s+student|students)(?:'d|\s+had|\s+have)?\s+(?:answered|chose|chosen|choose|picked|pick|selected|select|"
    r"went\s+with|gone\s+with|marked|circled|guessed|put(?:\s+down)?)[^\S\n]+(?:(?:option|choice|answer|letter)[^\S\n]+)?)"
    r"(?P<letters>[*_(\[]{0,3}[A-Z][*_)\]]{0,3}(?:[^\S\n]*(?:,|/|\bor\b|\band\b)[^\S\n]*[*_(\[]{0,3}[A-Z][*_)\]]{0,3})*)(?![A-Za-z'\d])")
_CAPITAL = re.compile(r"[A-Z](?=[^a-z]|$)")
_PICK_MASK = "▯"


def reader_picks_masked(text: str) -> str:
    """``text`` with the option letters the reader's hypothetical pick names ("If you answered **A**:", "if you
    chose B, C or D") masked as ``▯``, so that no later reader takes them for the writer's answer or for a second one.

    >>> reader_picks_masked("The correct answer is E. If you chose A, review chapter 2. If you answered B or C: see p. 4.")
    'The correct answer is E. If you chose ▯, review chapter 2. If you answered ▯ or ▯: see p. 4.'
    """
    if "if" not in text and "If" not in text and "IF" not in text:
        return text
    return _READER_PICK.sub(lambda found: found.group()[:found.start("letters") - found.start()]
                            + _CAPITAL.sub(_PICK_MASK, found.group("letters")), text)
