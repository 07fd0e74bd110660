"""Options lettered in another script (holdout56: a Russian prompt's options "А) Лион", "Б) Марсель", "В) Париж",
"Г) Ницца", answered "Ответ: В) Париж" or "Ответ: Г", the gold the Latin letter of the same position, C or D).

When -- and only when -- the prompt letters its options in order with the letters of another alphabet, a letter
of that alphabet standing alone (not inside a word) in the prompt and the completion names the option at its
position, and is rewritten to the Latin letter of that position before either is read: Cyrillic В is then C, not
the Latin B it looks like. Where the prompt letters its options in Latin, nothing is rewritten (the reading's own
look-alike folding reads a stray Cyrillic В as B, as before). Reconstructed rule (ours); one pass per text.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# the alphabets whose letters label options in order (Russian and Ukrainian tests letter them А, Б, В, Г, Д, Е)
ALPHABETS = ("АБВГДЕЖ", "АБВГҐДЕ")
_OPTION_LINE = re.compile(r"^[ \t]*[(\[]?([^\W\d_])[)\].:][ \t]+\S", re.MULTILINE)


def option_alphabet(prompt: str) -> str | None:
    """The alphabet ``prompt``'s option lines are lettered in, when it is not Latin: at least two option lines whose
    letters are that alphabet's first letters, in order ("А) ...", "Б) ...", "В) ..."); None otherwise."""
    if not prompt or not any("\u0400" <= ch <= "\u04ff" for ch in prompt):
        return None
    labels = [line.group(1) for line in _OPTION_LINE.finditer(prompt)]
    for alphabet in ALPHABETS:
        run = [label for label in labels if label in alphabet]
        if len(run) >= 2 and "".join(run) == alphabet[:len(run)]:
            return alphabet
    return None


def in_latin_letters(text: str, alphabet: str) -> str:
    """``text`` with each letter of ``alphabet`` that stands alone (no letter on either side: "В)", "Ответ: Г",
    "Б или В") rewritten to the Latin letter of its position (В -> C); letters inside words are left alone."""
    standalone = re.compile(r"(?<![^\W\d_])([" + alphabet + r"])(?![^\W\d_])")
    return standalone.sub(lambda letter: "ABCDEFGHIJ"[alphabet.index(letter.group(1))], text)
