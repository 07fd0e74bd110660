"""Which share of a text is written in English, by a language detector (not by character set).

A character whitelist calls any ASCII text English: pinyin (``Huanzhe you xiongtong``), Base64, German, French,
leetspeak and random letters all score 1.0. Here each stretch of the text is given to a real language identifier,
py3langid (a maintained fork of Lui & Baldwin's langid.py: a naive Bayes classifier over byte n-grams, 97 languages
plus ``zxx`` for text of no language, its model shipped inside the wheel; deterministic, no download, about 1 ms for
a sentence), and only the letters of the stretches it labels English count::

    text      = visible text (polyreward.verifiers.reading.visible_text: normalised, comments, code blocks and
                quotes dropped), markup tags and LaTeX command names removed
    letters of a script other than Latin (Chinese, Cyrillic, ...) are never English: they count in the total only
    stretches = the Latin-script rest cut into runs of whole words of about MIN_LETTERS (40) letters: a stretch
                closes once it holds 40 letters, or at a sentence end (. ! ? ; : and their CJK forms, line
                breaks) once it holds 20; a detector guesses at random on a few words, and a long sentence is
                judged in parts
    english_share(text) = Σ_{stretches labelled "en"} (ASCII letters of the stretch)
                          / Σ_{all stretches} (letters of any script)        (0 for a text without letters)

A stretch the detector is unsure of (probability under CONFIDENT = 0.9: a few words, or a run of technical
terms such as "Aspergillus fumigatus infection", which it calls Latin) is English when a quarter of its words are English
function words (the, is, with, ...), or the language the detector gives it when it holds more of that language's
function words (``un``, ``de``, ``y``; ``dan``; ``nella``: red team ``holdout_r17``, a one-sentence Spanish answer
after an English think) than English ones, else it takes the language the detector gives the whole text. So a Chinese
phrase inside an English sentence lowers the share by its characters, and a stretch in another language or in no
language counts nothing. Reconstructed rule (ours); the identifier is langid.py's published
model (Lui & Baldwin, ACL 2012), as shipped by py3langid.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
import base64
import binascii
import threading
from typing import Any

from polyreward.verifiers.reading import normalise, visible_text

MIN_LETTERS = 40
CONFIDENT = 0.9  # below this probability the detector is unsure of a stretch
STOP_WORD_SHARE = 0.25  # an unsure stretch with this share of English function words is English
# English function words: articles, pronouns, auxiliaries, prepositions, conjunctions, common adverbs
STOP_WORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below between both
but by can could did do does doing down during each either else etc ever every few for from further had has have
having he her here hers herself him himself his how however i if in into is it its itself just may maybe me might
mine more most must my myself neither no nor not now of off on once one only or other our ours ourselves out over
own same shall she should since so some such than that the their theirs them themselves then there these they this
those though through thus to too under until up upon us very was we were what when where whether which while who
whom whose why will with within without would yet you your yours yourself yourselves therefore hence let lets
""".split())
_WORDS = re.compile(r"[^\W\d_]+")


def stop_word_share(text: str) -> float:
    """Share of the words of ``text`` that are English function words (:data:`STOP_WORDS`)."""
    words = _WORDS.findall(text.casefold())
    return sum(w in STOP_WORDS for w in words) / len(words) if words else 0.0
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


_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)


def _plain(text: str) -> str:
    # a comment inside a word ("Ant<!-- x -->wort") leaves the word a reader sees, so it goes without a trace first,
    # read as a reader sees it: "-\u200b->" closes the comment (raw, it left the comment open and hid the rest of the
    # text: a pinyin answer then scored as English; found by tests/test_integrity_round3_rewards.py's hypothesis test)
    if "<!--" in text:
        text = _HTML_COMMENT.sub("", normalise(text, collapse_space=False))
    return _MARKUP.sub(" ", visible_text(text))


def stretches(plain: str) -> list[str]:
    """``plain`` cut into stretches of whole words, each closed at the first sentence end or word boundary once it
    holds :data:`MIN_LETTERS` letters (a short last one is joined to the one before it): a long sentence is judged in
    parts, so English words around a foreign passage do not carry it."""
    out: list[str] = []
    current: list[str] = []
    count = 0
    for sentence in _SENTENCE_END.split(plain):
        for word in sentence.split():
            current.append(word)
            count += _letters(word)
            if count >= MIN_LETTERS:
                out.append(" ".join(current))
                current, count = [], 0
        if count >= MIN_LETTERS // 2:  # a sentence end closes a stretch that is not too short to judge
            out.append(" ".join(current))
            current, count = [], 0
    if current:
        if out and count < MIN_LETTERS // 2:
            out[-1] = out[-1] + " " + " ".join(current)
        else:
            out.append(" ".join(current))
    return out


# a lone Greek letter (no Greek letter beside it) is a symbol of English technical prose, not a word of Greek: the micro
# sign of "5 µg/kg" (NFKC makes it Greek mu), "β-blocker", "TNF-α", "α = 0.05"
_SYMBOL_GREEK = re.compile(r"(?<![\u0370-\u03ff\u1f00-\u1fff])[\u0370-\u03ff](?![\u0370-\u03ff\u1f00-\u1fff])")


# a word of 3+ letters without a vowel, in lower case or capitalised (an abbreviation in capitals, ECG, or a unit in
# mixed case, mmHg, is no such word): "Crshng chst pn", English spelled without its vowels; a two-letter word ("vs",
# "mg", "ng") is no such word, as it is not one of the words of 3+ letters it is counted against (red team holdout_r3)
_VOWELLESS = re.compile(r"(?<![^\W\d_])(?:[B-DF-HJ-NP-TV-XZ][b-df-hj-np-tv-xz]{2,}|[b-df-hj-np-tv-xz]{3,})(?![^\W\d_])")
_LONG_WORD = re.compile(r"(?<![^\W\d_])[^\W\d_]{3,}(?![^\W\d_])")
VOWELLESS_SHARE = 1 / 3  # a stretch with this share of vowelless words is no English (a few units, hrs or bpm, are)


def _hidden_foreign_letters(text: str, plain: str) -> int:
    """Letters of a script other than Latin that a reader sees in a code block or a block quote (which the language
    reading sets aside, as code or as someone else's words): still text of the answer in another language."""
    from polyreward.verifiers.hidden_text import without_comments

    if text.isascii():
        return 0
    shown = _SYMBOL_GREEK.sub("", without_comments(normalise(text)))
    count = lambda t: sum(_letters(m.group()) for m in _NON_LATIN_LETTER.finditer(t))  # noqa: E731
    return max(0, count(shown) - count(plain))


def _quoted_foreign_letters(text: str) -> int:
    """Latin-script letters of the block quotes (``> ...``) that the detector labels another language with confidence
    (:data:`CONFIDENT`): a quoted passage is set aside as someone else's words, but it is text of the answer, and a
    German paragraph in a quote is German (red team ``holdout_r8``: a drug label quoted in German beside a one-line
    English answer scored 100 %). An English quote, or one the detector is unsure of, counts nothing either way."""
    from polyreward.verifiers.hidden_text import without_comments
    from polyreward.verifiers.reading import block_quotes, normalise

    if ">" not in text:
        return 0
    quoted = _NON_LATIN_LETTER.sub(" ", _SYMBOL_GREEK.sub("", _MARKUP.sub(" ", block_quotes(without_comments(normalise(text))))))
    foreign = 0
    for stretch in stretches(quoted):
        language, confidence = _identifier().classify(stretch)
        if language != "en" and confidence >= CONFIDENT:
            foreign += _letters(stretch)
    return foreign


# (red team holdout_r19) a run of the Base64 alphabet with no space, 16 characters or more: "T2J0YWluIGEgMTItbGVhZCBF..."
_BASE64_RUN = re.compile(r"(?<![\w+/=-])[A-Za-z0-9+/_-]{16,}={0,2}(?![\w+/=-])")


def _decodes_to_text(run: str) -> bool:
    """Whether ``run`` is Base64 (standard or URL-safe, padded or not) of readable text: it decodes to UTF-8 whose
    characters are all printable or whitespace and at least half of them letters. A long English word, a drug or gene
    name or an identifier decodes to bytes, not text, so only an encoding of text is one."""
    if not any(ch.isdigit() or ch.isupper() for ch in run[1:]) or not any(ch.islower() for ch in run):
        return False  # one case and no digit after the first letter: a word ("Pneumonoultramicroscopic"), not Base64
    body = run.rstrip("=")
    try:
        raw = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_" if ("-" in body or "_" in body) else None,
                               validate=True)
        decoded = raw.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    letters = sum(ch.isalpha() for ch in decoded)
    return len(decoded) >= 8 and all(ch.isprintable() or ch.isspace() for ch in decoded) and letters * 2 >= len(decoded)


def _without_encodings(text: str) -> str:
    """``text`` with each Base64 run of readable text blanked (:func:`_decodes_to_text`): its letters are an encoding,
    no language a reader reads, so they count in the total and never as English (red team ``holdout_r19``: an answer
    in Base64 after an English think was 100 % English)."""
    return _BASE64_RUN.sub(lambda m: " " * len(m.group()) if _decodes_to_text(m.group()) else m.group(), text)


def english_share(text: str) -> float:
    """Share of the text's letters that stand in stretches a language detector labels English (module docstring); a
    lone Greek letter (``µg``, ``β-blocker``) is a symbol and counts in neither. Red team ``holdout_r2``: letters of
    another script inside a code block or a block quote count in the total (a Chinese paragraph in a code fence is
    still Chinese; red team ``holdout_r8``: so do the letters of a block quote the detector confidently labels another
    language, :func:`_quoted_foreign_letters`), accented Latin letters of an English stretch are English (``Ménière``, ``Guillain–Barré``), and a
    stretch in which a third of the words of 3+ letters have no vowel (``Crshng chst pn``) is no English; red team
    ``holdout_r4``: nor is a language game (:func:`_language_game`) or foreign words padded with English function
    words (:func:`_padded`)."""
    plain = _SYMBOL_GREEK.sub("", _plain(text))
    total = _letters(plain) + _hidden_foreign_letters(text, plain) + _quoted_foreign_letters(text)
    if not total:
        return 0.0
    latin = _NON_LATIN_LETTER.sub(" ", plain)  # letters of other scripts count in the total only
    latin = _without_encodings(latin) if len(latin) >= 16 else latin  # and so do an encoding's (holdout_r19)
    parts = stretches(latin)
    whole = language_of(" ".join(parts)) if len(parts) > 1 else None
    english = 0
    for stretch in parts:
        if not _letters(stretch):
            continue
        language, confidence = _identifier().classify(stretch)
        if confidence < CONFIDENT:  # unsure (short, or full of technical terms): its function words, else the whole
            if stop_word_share(stretch) >= STOP_WORD_SHARE:
                language = "en"
            elif not _in_own_language(stretch, language):  # a sentence of Spanish keeps its language (holdout_r17)
                language = whole or language
        if language == "en" and not _without_vowels(stretch) and not _language_game(stretch, latin) and not _padded(stretch, latin):
            english += _letters(stretch)
    return english / total


# (red team holdout_r17) the function words of the languages the detector gives, unsure, a short sentence of a Romance,
# Germanic or Malay language (keyed by its codes and its close neighbours'): articles, conjunctions, prepositions,
# "is" / "are", none of them an English word ("die", "was", "do", "no", "as", "a", "per", "also" are left out, and so
# are "et" of "et al." and "von" / "van", which name people in English prose)
_FUNCTION_WORDS_OF = {
    ("es", "gl", "an", "ext", "ca"): "el la los las un una unos unas y o de del al en con por para que se su sus es "
                                     "está están son lo como pero más muy sin luego después",
    ("pt", "gl"): "os um uma e o da das dos na nas nos em com para por que se pois está estão são é ao à pelo pela mas "
                  "muito",
    ("it", "lij", "vec"): "il lo la gli le un una uno e di del della dei delle nel nella nei nelle con che è sono al "
                          "alla dal dalla ma",
    ("fr", "oc", "wa"): "le la les un une des du de est avec pour dans sur au aux en que qui ou mais pas ce cette il "
                        "elle sont",
    ("de", "lb"): "der das und mit nach zu ist ein eine einen einem dem den des im auf für nicht oder aber bei sind wird "
                  "werden danach dann",
    ("nl", "af", "fy"): "het een en van met voor niet zijn wordt bij naar",
    ("id", "ms", "jv", "ace"): "dan yang di dengan untuk ini itu atau dari ke pada adalah tidak akan dalam oleh",
    ("ro",): "și cu pentru este în sau la din pe",
    # Latin, which no model reasons in and the detector gives runs of Latinate English words ("maximum returns there
    # maximum"): its own grammar words, none of them English ("in", "ad", "per", "non" left out)
    ("la",): "est sunt sed ut quod quae atque enim cum ex nec autem",
}
_FUNCTION_WORDS: dict[str, frozenset[str]] = {}
for _codes, _words in _FUNCTION_WORDS_OF.items():  # a code in two rows (gl) reads both
    for _code in _codes:
        _FUNCTION_WORDS[_code] = _FUNCTION_WORDS.get(_code, frozenset()) | frozenset(_words.split())
_TITLE_WORD = re.compile(r"[A-ZÀ-Þ][a-zß-ÿ]")
# every listed language's function words together: a word of grammar in one of them names nothing of a case
OTHER_FUNCTION_WORDS = frozenset().union(*_FUNCTION_WORDS.values())


def _in_own_language(stretch: str, language: str, minimum: int = 1) -> bool:
    """Whether an unsure stretch the detector gives ``language`` (not English) holds more function words of that
    language (:data:`_FUNCTION_WORDS_OF`, written in lower case as words of their own) than English function words: a
    sentence of Spanish, Italian or Indonesian ("Obtenga un ECG de 12 derivaciones de inmediato y luego administre
    aspirina.", "Berikan deksametason oral dosis tunggal dan epinefrin nebulisasi.") is that language, however English
    the rest of the text is (red team ``holdout_r17``: an English think carried a one-sentence Spanish answer to 100 %).
    A run of technical terms holds no such word ("Aspergillus fumigatus infection", "Torsades de pointes" given Latin),
    and a particle before a name ("de Quervain", "la Peyronie") is the name's. ``minimum``: the fewest such words
    that make a sentence (:func:`foreign` asks two: a term's one particle, "Torsades de pointes", "café au lait", makes
    no sentence of French)."""
    own = _FUNCTION_WORDS.get(language)
    if not own:
        return False
    words = stretch.split()
    found = english = 0
    for i, raw in enumerate(words):
        word = raw.strip(".,;:!?()[]\"'")
        if word.casefold() in STOP_WORDS:
            english += 1
        elif word in own and not (i + 1 < len(words) and _TITLE_WORD.match(words[i + 1])):
            found += 1
    return found > english and found >= minimum


GAME_SHARE = 0.5  # a syllable or ending in this share of a stretch's words marks a language game (red team holdout_r4)
GAME_MIN_WORDS = 5


def _language_game(stretch: str, whole: str = "") -> bool:
    """True when one letter trigram stands inside, or one two-letter ending closes, :data:`GAME_SHARE` or more of the
    stretch's distinct content words of 4+ letters (at least :data:`GAME_MIN_WORDS` of them): a syllable inserted into every
    word (Ubbi Dubbi's ``ubb``: "Crubbushubbing chubbest pubbain") or appended to it (pig Latin's ``ay``: "estchay
    ainpay") keeps English's letter statistics for the detector, but is no English to a reader (red team
    ``holdout_r4``)."""
    words = {w for w in _WORDS.findall(stretch.casefold()) if len(w) >= 4 and w not in STOP_WORDS}  # distinct words
    if len(words) < GAME_MIN_WORDS:
        return False
    endings, inner = _markers(words)
    need = GAME_SHARE * len(words)
    marks = [e for e, n in endings.items() if n >= need], [g for g, n in inner.items() if n >= need]
    if not (marks[0] or marks[1]) or not whole:
        return bool(marks[0] or marks[1])
    # a game marks the whole text's words, not one list's: three Latin words share "-or" by nature ("rubor, calor,
    # dolor and tumor", red team holdout_r5), while Ubbi Dubbi's "ubb" stands in most of its words
    all_words = {w for w in _WORDS.findall(whole.casefold()) if len(w) >= 4 and w not in STOP_WORDS}
    all_endings, all_inner = _markers(all_words)
    floor = max(GAME_SHARE / 2 * len(all_words), GAME_MIN_WORDS)
    return any(all_endings[e] >= floor for e in marks[0]) or any(all_inner[g] >= floor for g in marks[1])


def _markers(words: set[str]) -> tuple[dict[str, int], dict[str, int]]:
    """(words per two-letter ending, words per letter trigram inside a word: not its first or last letters)."""
    endings: dict[str, int] = {}
    inner: dict[str, int] = {}
    for word in words:
        endings[word[-2:]] = endings.get(word[-2:], 0) + 1
        for gram in {word[i:i + 3] for i in range(1, len(word) - 3)}:
            inner[gram] = inner.get(gram, 0) + 1
    return endings, inner


def _without_function_words(text: str) -> str:
    return " ".join(w for w in text.split() if w.casefold().strip(".,;:!?()") not in STOP_WORDS)


PADDING_SHARE = 0.3  # one function word this common (and 3+ times) pads a stretch (English spreads over many)


def _padded(stretch: str, whole: str = "") -> bool:
    """True when one English function word makes :data:`PADDING_SHARE` or more of the stretch's words and the
    stretch (or, for a stretch too short to judge, the whole text ``whole``) without its function words is more
    likely another language than not: foreign words with ``the`` between each ("the dolor the torácico the
    opresivo") are no English (red team ``holdout_r4``). English prose spreads its function words over many (by,
    or, so, the, ...), so a sentence naming Latin binomials is not padded."""
    words = [w.casefold().strip(".,;:!?()") for w in stretch.split()]
    counts: dict[str, int] = {}
    for word in words:
        if word in STOP_WORDS:
            counts[word] = counts.get(word, 0) + 1
    top = max(counts.values(), default=0)
    if top < 3 or top < PADDING_SHARE * len(words):
        return False
    for text in (stretch, whole) if whole else (stretch,):
        content = _without_function_words(text)
        if _letters(content) >= FOREIGN_MIN_LETTERS:
            language, confidence = _identifier().classify(content)
            if language != "en" and confidence >= 0.5:
                return True
    return False


def _without_vowels(stretch: str) -> bool:
    """True when :data:`VOWELLESS_SHARE` or more of the stretch's words of 3+ letters have no vowel."""
    words = len(_LONG_WORD.findall(stretch))
    return bool(words) and len(_VOWELLESS.findall(stretch)) >= VOWELLESS_SHARE * words


FOREIGN_MIN_LETTERS = 12  # fewer Latin letters than this are too few for the detector to name a language


def foreign(text: str) -> bool:
    """True when ``text`` is written (in part) in a language other than English, so that an English reading of what
    it says (a withdrawal, a denial, a bound) cannot be trusted: it holds a letter of a script other than Latin (a
    lone Greek letter is a symbol, ``µg``), or at least :data:`FOREIGN_MIN_LETTERS` Latin letters that the detector
    gives to another language with probability :data:`CONFIDENT` or more. Short English notes ("No pneumothorax.",
    "Mild bibasilar atelectasis.") are never given confidently to another language (red team ``holdout_r2``: a
    retraction after an answer in German, Spanish, Portuguese, Korean or Chinese), nor is a run of technical terms the
    detector is unsure of; a sentence it is unsure of that holds more function words of the language it names than
    English ones is that language (red team ``holdout_r29``), and Latin, which the detector names for runs of Latinate
    English words, only on that evidence."""
    plain = _SYMBOL_GREEK.sub("", _plain(text))
    if _NON_LATIN_LETTER.search(plain):
        return True
    if _letters(plain) < FOREIGN_MIN_LETTERS:
        return False
    language, confidence = _identifier().classify(plain)
    if language == "en":
        return False
    if language == "la":  # Latin only with its grammar: a shuffle of English schema words is no Latin (holdout_r23)
        return _in_own_language(plain, language, minimum=2)
    # an unsure detector (a short sentence) is believed when the text holds more of the named language's function
    # words than English ones (:func:`_in_own_language`): "¿Definitivamente presentes? Ni de broma; son solo sospechas
    # mías." after a label list is Spanish at 0.47 (red team holdout_r29)
    return confidence >= CONFIDENT or _in_own_language(plain, language, minimum=2)


CIPHER_MIN_LETTERS = 20  # fewer letters than this are too few to tell a cipher from terse notes
CIPHER_WINDOW = 2000  # characters of a long text that the decodings read
_LEET = str.maketrans("01345789@$", "oieastbgas")
_MIXED_TOKEN = re.compile(r"[^\W_]*(?:\d[^\W\d_]|[^\W\d_]\d)[^\W_]*")  # letters and digits in one token: 7h3, c4ll
_LATIN_WORD = re.compile(r"[a-zA-Z]+")
_CONSONANTS = frozenset("bcdfghjklmnpqrstvwxz")


def _rotate(text: str, shift: int) -> str:
    """``text`` with each ASCII letter moved ``shift`` places along the alphabet, case kept (ROT13 is 13)."""
    def turn(match: Any) -> str:
        return "".join(chr((ord(ch) - base + shift) % 26 + base) for ch in match.group() for base in (ord("a") if ch.islower() else ord("A"),))
    return _LATIN_WORD.sub(turn, text)


def _unpig(word: str) -> str:
    """A pig-Latin word read back (``ethay`` is ``the``, ``andway`` is ``and``): the ``ay`` dropped, then the ``w`` of
    a word that began with a vowel, or the consonants moved to the end put back in front (the split that gives an
    English function word when one does, else one consonant)."""
    low = word.lower()
    if len(low) < 4 or not low.endswith("ay"):
        return word
    stem = low[:-2]
    candidates = [stem[:-1]] if stem.endswith(("w", "y")) else []
    candidates += [stem[-k:] + stem[:-k] for k in (1, 2, 3) if k < len(stem) and set(stem[-k:]) <= _CONSONANTS]
    return next((c for c in candidates if c in STOP_WORDS), candidates[0] if candidates else word)


def _decodings(text: str) -> list[tuple[str, str]]:
    """(name, decoded text) of the letter games that keep English's words recoverable: the characters reversed, each
    word reversed, each of the 25 letter rotations (ROT13, a Caesar shift), leet digits read as the letters they stand
    for inside tokens that mix letters and digits (``7h3`` is ``the``; ``50`` or ``SpO2`` stay), pig Latin read back
    (:func:`_unpig`) and a syllable inserted into most words removed (Ubbi Dubbi's ``ubb``)."""
    out = [("reversed text", text[::-1]), ("reversed words", " ".join(w[::-1] for w in text.split()))]
    out += [(f"letters rotated by {n}", _rotate(text, n)) for n in range(1, 26)]
    if any(ch.isdigit() for ch in text):
        out.append(("leetspeak", _MIXED_TOKEN.sub(lambda m: m.group().translate(_LEET), text)))
    out.append(("pig Latin", _LATIN_WORD.sub(lambda m: _unpig(m.group()), text)))
    words = {w for w in _WORDS.findall(text.casefold()) if len(w) >= 4}
    inner = _markers(words)[1] if len(words) >= GAME_MIN_WORDS else {}
    common = max(inner, key=lambda g: (inner[g], g), default=None)
    if common is not None and inner[common] >= GAME_SHARE * len(words):
        out.append((f"'{common}' inserted", re.sub(re.escape(common), "", text, flags=re.IGNORECASE)))
    return [(name, decoded) for name, decoded in out if decoded != text]


def _function_words(text: str) -> tuple[float, int]:
    """(share of the words of 2+ letters that are English function words, how many distinct ones): a one-letter word
    is left out, as a variable (``x``) rotates into ``a`` or ``i``, and a token of letters and digits (``7h3``,
    ``2x``) is one word that is no function word."""
    words = [w for w in _WORDS.findall(_MIXED_TOKEN.sub(" zz ", text).casefold()) if len(w) >= 2]
    found = [w for w in words if w in STOP_WORDS]
    return (len(found) / len(words) if words else 0.0), len(set(found))


def enciphered(text: str) -> str | None:
    """How ``text`` hides English from a reader, or None: a Latin-script text of :data:`CIPHER_MIN_LETTERS` letters or
    more (read as leet digits would spell them) with few English function words, that the detector gives no language
    confidently (probability under :data:`CONFIDENT`, or its ``zxx``: no language), and that reads as English once
    decoded (:func:`_decodings`: reversed, letters rotated, leetspeak, pig Latin, an inserted syllable removed): the
    decoded text holds a greater share of English function words of 2+ letters than the text, two distinct ones at
    least, and that share reaches :data:`STOP_WORD_SHARE` or the detector calls the decoded text English confidently.
    Words of a real language, even terse notes without function words ("Chest pain, diaphoresis, ST elevation: STEMI;
    cath lab."), decode to no English, and text in another language is given that language; so only a cipher of English
    is one (red team ``holdout_r6``: a ``<think>`` body in ROT13, written backwards, in leetspeak or in pig Latin
    reasons nothing a reader reads, where the format guard counted its letters as words). At most 30 detector calls on
    the first :data:`CIPHER_WINDOW` characters, only for a text the detector is unsure of."""
    plain = _SYMBOL_GREEK.sub("", _plain(text))
    if _NON_LATIN_LETTER.search(plain):
        return None
    raw = _MARKUP.sub(" ", text)
    if _MIXED_TOKEN.search(raw):  # the shared reading reads some leet words back ("fr0m"): judge the text as written
        plain = raw
    if _function_words(plain)[0] >= STOP_WORD_SHARE:
        return None
    if max(_letters(plain), _letters(plain.translate(_LEET))) < CIPHER_MIN_LETTERS:
        return None
    plain = plain[:CIPHER_WINDOW]  # a cipher's opening is a cipher: the decodings read a bounded prefix (linear time)
    language, confidence = _identifier().classify(plain)
    if language != "zxx" and confidence >= CONFIDENT:  # a language, confidently (zxx, "no language", is decoded)
        return None
    share = _function_words(plain)[0]
    for name, decoded in _decodings(plain):
        decoded_share, distinct = _function_words(decoded)
        if decoded_share <= share or distinct < 2:
            continue  # a decoding that finds no more English function words reads no English
        if decoded_share >= STOP_WORD_SHARE:
            return name
        language, confidence = _identifier().classify(decoded)
        if language == "en" and confidence >= CONFIDENT:
            return name
    return None
