"""Several option letters written as one word after an answer phrase (holdout88: "**Answer: BC**", "The answer is
ACD.", "答案：BD"): a policy paid for any one letter learns to glue the candidates together, and the reader's letter
tiers, which need a break after a letter, then fall through to an option's text named in the reasoning. A run of two to
five different capital option letters that fills the answer phrase's span, up to a break, is several options offered,
not one chosen -- unless the run is a word of an option's own text ("Answer: ACE" where an option is "ACE inhibitor").
Read by :func:`.choice._letter_in_view` before its tiers; reconstructed rule (ours), one bounded pattern."""

from __future__ import annotations

from collections.abc import Mapping

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# after the answer phrase: markup and separators, an optional bracket, the run, an optional bracket, then a break
_RUN = r"[\s*:=\-–—]*[(\[]?(?P<run>[A-Z]{2,5})[)\]]?(?=\**[^\S\n]*(?:[.!;,)]|\n|\Z|\*))"


def glued_letters(text: str, anchor: str, letters: str, options: Mapping[str, str]) -> bool:
    """Does the last answer phrase of ``text`` (``anchor``, the reader's answer-phrase pattern) state a run of two or
    more different option letters written as one word (module docstring)?"""
    phrases = list(re.compile(anchor).finditer(text))
    if not phrases:
        return False
    found = re.compile(_RUN).match(text, phrases[-1].end())
    if found is None:
        return False
    run = found.group("run")
    if len(set(run)) != len(run) or not set(run) <= set(letters):
        return False
    return not any(re.search(rf"(?<![\w]){run}(?![\w])", option) for option in options.values())
