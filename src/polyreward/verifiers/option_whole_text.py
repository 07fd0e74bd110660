"""An option named by its whole text when that text holds option letters itself: ``Both A and B``, ``(A) and (C)
only`` (statements lettered in the stem), ``1-c, 2-d, 3-b, 4-a`` (a matching code), ``Neither A nor B``.

The choice reader's letter tiers read the letters inside such a text as options named ("A and B": two options, no
choice), so a completion that answers with the option's exact text -- the whole completion, or what its last answer
phrase commits to -- is read as that option first, before any letter is (holdout84). Only where the text is one
option's and no other's, and where it is more than a letter (options that are themselves letters, ``A) S`` ..
``D) C``, stay read by the letter, as before). A letter-free option text is read by the later tiers as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

from polyreward.verifiers.commitment import later_disowns
from polyreward.verifiers.option_letters import letter_pattern
from polyreward.verifiers.reading import MAX_TAIL_CHARS


def option_key(text: str) -> str:
    """An option's text as it is compared: lower case, words and numbers only ("(A) and (C) only" -> "a and c only"),
    a number keeping its own minus sign (:func:`signed_words`: "1 × 10^-3 M" -> "1 10 -3 m", not "1 × 10^3 M"'s key)."""
    return " ".join(signed_words(text))


def signed_words(text: str) -> list[str]:
    """The words and numbers of ``text`` (lower case, ASCII letters and digits), a number led by a minus sign of its own
    written "-3": a minus after the start, an operator or an opening mark ("-5", "10^{-3}", "(-2, 3)", "2 × −3"), not a
    binary minus or a hyphen after a word or number ("x - 3", "5-10 mg", "type-2" keep "3", "10", "2"). An option "1 ×
    10^-3 M" is not named by "1 × 10^3 M" (holdout117: the exponent's sign is the near twin's only difference)."""
    lowered = text.lower().replace("−", "-")
    return [("-" if word.group(0)[0].isdigit() and _unary_minus_before(lowered, word.start()) else "") + word.group(0)
            for word in re.finditer(r"[a-z0-9]+", lowered)]


def _unary_minus_before(text: str, at: int) -> bool:
    """Is the number at ``at`` led by a minus sign of its own (markup and spaces between them aside)?"""
    before = text[:at].rstrip(_MARKUP_BEFORE_SIGN)
    if not before.endswith("-"):
        return False
    rest = before[:-1].rstrip(_MARKUP_BEFORE_SIGN)
    return not rest or not (rest[-1].isalnum() or rest[-1] in ")]}!")


_MARKUP_BEFORE_SIGN = " \t{($"


def asks(text: str) -> bool:
    """Does ``text`` end by asking ("Both A and B?", "**Paris?**")? An option's text asked is offered, not answered."""
    return _ASKED_END.search(text) is not None


_ASKED_END = re.compile(r"\?[\s*_$]*\Z")


def lettered_options(options: Mapping[str, str], letters: str) -> set[str]:
    """The options whose text names option letters of its own (a letter standing alone, either case: "Both A and B",
    "1-c, 2-d") and is more than one letter, each text written once among the options."""
    pattern = letter_pattern(letters + letters.lower())
    keys = [option_key(option) for option in options.values()]
    return {letter for letter, option in options.items()
            if " " in option_key(option) and keys.count(option_key(option)) == 1 and pattern.search(option)}


def lettered_text_answer(text: str, letters: str, options: Mapping[str, str],
                         answer_span: Callable[[str, str, Mapping[str, str]], str | None]) -> str | None:
    """The option whose letter-holding text is the completion's answer (``text`` a view of it), or None: the whole
    text is that option's text (markup and punctuation aside), or ``answer_span`` (the choice reader's reading of
    what the last answer phrase commits to, under its own checks) names it."""
    lettered = lettered_options(options, letters) if options else set()
    if not lettered:
        return None
    whole = option_key(text)
    named = [letter for letter in lettered if option_key(options[letter]) == whole and not asks(text)]
    if named:
        return named[0]
    letter = answer_span(text, letters, options)
    return letter if letter in lettered else None



# a copula (English, Spanish, French, German, Italian, Portuguese) or sign and one short value closing the completion:
# "..., which is U.", "so 7 × 8 is **56**.", "La siguiente letra es U."
_CLOSING_VALUE = re.compile(r"(?:\b(?:is|are|equals|es|est|ist|è|é)|=|→)[^\S\n]+\**([^\s.,;:!?*()\[\]]{1,12})\**[^\S\n]*[.!]?[^\S\n]*\Z", re.IGNORECASE)


def closing_option_text(text: str, letters: str, options: Mapping[str, str]) -> tuple[str, int, int] | None:
    """``(letter, start, end)`` of the option whose whole text, however short, is the value the completion's last
    clause states with a copula ("The gaps grow by one, so the next letter is six after O, which is U." for ``C) U``),
    or None. An option's text is otherwise read from 3 characters only, so that a short number in the working names
    no option; the value that closes the completion is what it concludes. One letter of the option set is read as
    that letter, not as a text; the value must be one option's text and no other's."""
    found = _CLOSING_VALUE.search(text, max(0, len(text) - 200))
    if found is None or not options or found.group(1).upper() in letters:
        return None
    wanted = option_key(found.group(1))
    named = [letter for letter, option in options.items() if wanted and option_key(option) == wanted]
    return (named[0], found.start(1), found.end(1)) if len(named) == 1 else None


def later_option_text_disowns(text: str, end: int, letter: str, letters: str, options: Mapping[str, str],
                              mentions: Callable[[str, Mapping[str, str]], list[tuple[int, int, str]]]) -> bool:
    """Does the text after an answer given by its option text name another option by its whole text where naming it
    by its letter would take the answer away? Each other option's text after ``end`` is read as its letter, "(B)",
    under :func:`later_disowns`' rules, so "Answer: Paris. Actually: Lyon." is read as "Answer: Paris. Actually: (B).",
    and "Answer: Paris. Lyon is the third largest city." as a remark about (B). ``mentions(text, options)``: the
    ``(end, length, letter)`` of each naming of an option by its text (the choice reader's)."""
    tail = text[end:end + MAX_TAIL_CHARS]
    found = sorted((stop - length, stop, other) for stop, length, other in mentions(tail, options) if other != letter)
    if not found:
        return False
    pieces, at = [], 0
    for start, stop, other in found:
        if start >= at:  # (overlapping namings: the first one)
            pieces += [tail[at:start], f"({other})"]
            at = stop
    lettered = text[:end] + "".join(pieces) + tail[at:]
    return bool(later_disowns(lettered, end, letter, letters=letters, option_text=options[letter]))
