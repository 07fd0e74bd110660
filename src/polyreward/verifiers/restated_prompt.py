"""A completion that only restates the question (fixhack): most of its words, at its end, are a verbatim copy of the
prompt, cut off or not ("The question asks: ... if pens come in packs of 1" for a prompt that ends "... in packs of
12?"). A number read there is the question's own, not an answer. Read by :func:`.verdict_rereadings.in_asked_unit` with the prompt.

Reconstructed rule (ours): the longest run of the completion's last words that the prompt holds word for word (its
last word may be cut short), when it is at least 6 words, holds the value read, and at most 6 words come before it,
none a number or an answer word ("boxed", "answer", "so"). Linear in the completion's words times their count in the prompt, both bounded.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_WORD = re.compile(r"[^\W_]+")
_MAX_WORDS = 400
_MIN_COPY = 6
_MAX_LEAD = 6
_ANSWERING = frozenset({"boxed", "answer", "fbox", "so", "therefore", "thus", "hence", "result"})


def _words(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text)][-_MAX_WORDS:]


def _not_in_prompt(wanted: list[str], prompt: str) -> bool:
    """True only where no copy of ``prompt`` can hold the value's words ``wanted`` (speed only): each word of a copy is
    a word of the prompt, the last possibly cut short, so each of the value's words would lie inside one of the
    prompt's lowered words; those of an ASCII prompt are pieces of its lowered text (another prompt: False, read the long
    way)."""
    if not prompt.isascii():
        return False
    lowered = prompt.lower()
    return not all(word in lowered for word in wanted)


def restates_only(value: str, completion: str, prompt: str) -> str:
    """A reason when ``completion`` (its visible text) is mostly a verbatim copy of ``prompt`` ending the completion,
    and ``value`` (the answer read) is among the copy's words; "" otherwise."""
    wanted = _words(value)
    if _not_in_prompt(wanted, prompt):
        return ""  # (speed: the completion's words are not split)
    said, asked = _words(completion), _words(prompt)
    if len(said) < _MIN_COPY or not asked or not wanted:
        return ""
    joined = " " + " ".join(asked) + " "
    copied = 0
    for count in range(1, len(said) + 1):  # the run of last words the prompt holds, the last one possibly cut short
        tail = said[-count:]
        probe = " " + " ".join(tail)  # (no space after: "1" is the start of "12")
        if probe not in joined:
            break
        copied = count
    lead = said[:len(said) - copied]  # "The question asks:": at most a few words of lead-in, no value, no answer
    if copied < _MIN_COPY or len(lead) > _MAX_LEAD or any(word.isdigit() or word in _ANSWERING for word in lead):
        return ""
    copy = said[-copied:]
    if any(copy[i:i + len(wanted)] == wanted for i in range(len(copy) - len(wanted) + 1)):
        return "the completion only restates the question"
    return ""
