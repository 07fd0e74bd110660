"""What a comment a reader does not see may still say: a caveat on the answer it annotates, never an answer.

An HTML comment (``<!-- ... -->``) or a LaTeX ``%`` comment is dropped by :func:`.hidden_text.without_comments`; one that
follows the writer's words on its line and holds only words is read in its place in parentheses, as a footnote is
read at its marker (``\\boxed{720} <!-- TODO placeholder -->``), and one that doubts or withdraws the answer is read
the same way with its values and labels masked (``\\frac{3}{8} <!-- or 3/5? I'm not sure -->`` hedges the answer; its
3/5 is never read). A comment never supplies a value, math, markup or a label, so it can lower a score, never raise
one. Reconstructed rule (ours), issue #32.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

from polyreward.verifiers.doubt_words import MAYBE_WORDS, UNSURE_WORDS, WRONG_WORDS
from polyreward.verifiers.footnotes import NOTE_BREAK, NOTE_WITH_VALUE

# a label a yes/no reader or an option reader takes for an answer ("yes", a lone capital letter): never read out of a comment
_LABEL_WORD = re.compile(r"\b(?:yes|no|maybe|true|false)\b|(?<![\w'])(?-i:[A-HJ-Z])(?![\w'])", re.IGNORECASE)


# a value, math or markup in a comment, masked when it is read as a caveat; the words that let it be read
_COMMENT_VALUE = re.compile(r"[^\s,;.!?]*[\d\\$<>{}][^\s,;!?]*")
_COMMENT_DOUBT = re.compile(r"\b(?:not\s+(?:\w+\s+)?sure|unsure|uncertain|(?:don't|do\s+not)\s+(?:know|count|grade|use|trust)|guess\w*|maybe|perhaps|"
                            r"possibly|doubt\w*|wrong|placeholder|unverified|ignore|retract\w*|withdraw\w*|scratch|wait)\b|"
                            + UNSURE_WORDS + "|" + MAYBE_WORDS + "|" + WRONG_WORDS, re.IGNORECASE)


def doubting_comment(line: str, comment: str) -> str:
    """A comment after the writer's words on ``line`` that doubts or withdraws the answer (``\\boxed{42} % not sure,
    maybe 41``): a caveat with its values and labels masked, so it can qualify, never supply (fixhack); else ""."""
    words = comment.strip()
    if not line.strip() or not words or len(words) > 200 or not _COMMENT_DOUBT.search(words):
        return ""
    return f" ({NOTE_BREAK.sub(', ', _LABEL_WORD.sub('…', _COMMENT_VALUE.sub('…', words)))}) "


def comment_as_caveat(text: str, start: int, comment: str) -> str:
    """What an HTML comment at ``start`` leaves in the text: nothing, or -- when it follows the writer's words on the
    same line and holds only words (``\\boxed{720} <!-- TODO placeholder, replace after verifying -->``) -- those
    words in parentheses, as a footnote is read at its marker: a comment may qualify the answer it annotates, never
    supply one (a value, math, markup, an answer word with a letter, or a yes/no label keeps it unread; holdout12)."""
    line = text[text.rfind("\n", 0, start) + 1:start]
    words = comment.strip()
    if not line.strip() or not words or len(words) > 200 or NOTE_WITH_VALUE.search(words) or _LABEL_WORD.search(words):
        return doubting_comment(line, words) or " "  # "<!-- or 3/5? I'm not sure -->": masked, read as doubt
    return f" ({NOTE_BREAK.sub(', ', words)}) "
