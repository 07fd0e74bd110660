"""Which share of a text is written in English, by a language detector (not by character set).

A character whitelist calls any ASCII text English: pinyin (``Huanzhe you xiongtong``), Base64, German, French,
leetspeak and random letters all score 1.0. Here each stretch of the text is given to a real language identifier,
py3langid (a maintained fork of Lui & Baldwin's langid.py: a naive Bayes classifier over byte n-grams, 97 languages
plus ``zxx`` for text of no language, its model shipped inside the wheel; deterministic, no download, about 1 ms for
a sentence), and only the letters of the stretches it labels English count::

    text      = visible text (polyreward.verifiers.reading.visible_text: normalised, comments, code blocks and
                quotes dropped), markup tags and LaTeX command names removed
    letters of a script other than Latin (Chinese, Cyrillic, ...) are never English: they count in the total only
    sentences = (of the Latin-script rest) split after . ! ? ; : (and their CJK forms) and line breaks; consecutive sentences are joined until a stretch holds
                MIN_LETTERS (40) letters, since a detector guesses at random on a few words
    english_share(text) = Σ_{stretches labelled "en"} (ASCII letters of the stretch)
                          / Σ_{all stretches} (letters of any script)        (0 for a text without letters)

so a Chinese phrase inside an English sentence lowers the share by its characters, and a stretch in another
language or in no language counts nothing. Reconstructed rule (ours); the identifier is langid.py's published
model (Lui & Baldwin, ACL 2012), as shipped by py3langid.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from polyreward.verifiers.reading import visible_text

MIN_LETTERS = 40
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|(?<=[。！？；：])|\n+")
_MARKUP = re.compile(r"</?[A-Za-z_][\w-]{0,40}>|\\[A-Za-z]+")
# a letter of a script other than Latin: never English, so it needs no detector
_NON_LATIN_LETTER = re.compile(r"[^\W\d_a-zA-Z\u00c0-\u024f\u1e00-\u1eff]+")
_LOCK = threading.Lock()
_IDENTIFIER: Any = None


def _identifier() -> Any:
    """The langid model, loaded once per process (about 0.8 s) on first use."""
    global _IDENTIFIER
    if _IDENTIFIER is None:
        with _LOCK:
            if _IDENTIFIER is None:
                from py3langid.langid import MODEL_FILE, LanguageIdentifier

                _IDENTIFIER = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    return _IDENTIFIER


def language_of(text: str) -> str:
    """The ISO 639 code langid gives ``text`` (``zxx``: no language)."""
    return _identifier().classify(text)[0]


def _letters(text: str) -> int:
    return sum(ch.isalpha() for ch in text)


def _plain(text: str) -> str:
    return _MARKUP.sub(" ", visible_text(text))


def stretches(plain: str) -> list[str]:
    """``plain`` cut into sentence stretches of at least :data:`MIN_LETTERS` letters (a short last one is joined
    to the one before it)."""
    out: list[str] = []
    current: list[str] = []
    count = 0
    for sentence in _SENTENCE_END.split(plain):
        if not sentence.strip():
            continue
        current.append(sentence)
        count += _letters(sentence)
        if count >= MIN_LETTERS:
            out.append(" ".join(current))
            current, count = [], 0
    if current:
        if out and count < MIN_LETTERS:
            out[-1] = out[-1] + " " + " ".join(current)
        else:
            out.append(" ".join(current))
    return out


def english_share(text: str) -> float:
    """Share of the text's letters that stand in stretches a language detector labels English (module docstring)."""
    plain = _plain(text)
    total = _letters(plain)
    if not total:
        return 0.0
    english = 0
    for stretch in stretches(_NON_LATIN_LETTER.sub(" ", plain)):  # letters of other scripts count in the total only
        if _letters(stretch) and language_of(stretch) == "en":
            english += sum(ch.isascii() and ch.isalpha() for ch in stretch)
    return english / total
