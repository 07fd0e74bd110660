"""Number conventions (locales): a completion's numerals read the way the completion itself writes them.

``1,500`` is fifteen hundred to an English reader and one and a half to a German one; ``1.500`` the other way
round; ``12,34,500`` is an Indian grouping, ``43'650`` a Swiss one, ``7{,}5`` a LaTeX decimal comma. The math reader
reads English. :func:`english_numerals` rewrites a completion's numerals into that reading (no grouping, a decimal
dot) when the completion itself shows another convention, before the answer is extracted
(:func:`polyreward.verifiers.math_answers.prepare_prediction`, the one place every math path reads a completion through).
Reconstructed rule (ours; the conventions are CLDR's decimal and grouping symbols of each language)::

    evidence, read on the whole completion:
      comma  = a decimal comma: d,d / d,dd / d,dddd+ (not a list "1,2,3", not a pair "(1,2)" "x_{1,2}" "[0,1]"),
               d{,}d / d{,}dd (LaTeX), two or more dot groups "1.234.500", "1.250,00", "12 345,60", a French
               interval with outward brackets "]2 ; 5]"
      dot    = a decimal dot: d.d / d.dd / d.dddd+, two or more comma groups "1,234,500", "1,250.00"
      label  = the language of the answer label (Antwort, Réponse, Respuesta, Resposta, Risposta, Odpowiedź,
               Ответ, Đáp số, Jawaban, Cevap, Antwoord, ...): a language that writes a decimal comma
    convention = "comma"  when comma and not dot, or neither and label
                 "dot"    otherwise (English, no evidence, or both: today's reading, unchanged)
    under "comma": a numeral d{1,3}(S ddd)+ with one separator S in . ' ’ NBSP NNBSP THIN (a plain space only
                   before a decimal comma) loses S, and its decimal comma becomes a dot: "8.575,00" -> "8575.00",
                   "1,500" -> "1.500" (one and a half), "1.500" -> "1500" (but a zero first group is no grouping:
                   "0.375" stays a decimal); numbers in brackets separated by ";"
                   are a pair, tuple or interval: "(2 ; 1,5)" -> "(2, 1.5)", "]2 ; 5]" -> "(2, 5]",
                   "[0 ; +∞[" -> "[0, +∞)"
    under either:  apostrophe groups "43'650" -> "43650" and "CHF 12.–" -> "12"; Indian groups d{1,2}(,dd)+,ddd
                   "30,00,000" -> "3000000"; "9 lakh" / "2 crore" -> x 10^5 / 10^7; Chinese "1.8 万" / "3 亿" ->
                   x 10^4 / 10^8, "四分之一" (a fraction in words) -> "1/4", "答案是四十二" -> "答案是42"; an answer
                   label followed only by a number in words of its language ("Antwort: siebenundzwanzig") -> its
                   digits (text2num)

None of the convention-free rewrites touches a numeral today's reading reads: each is a form it misread (``30,00,000``
as 30, ``43'650`` as 650, ``1.8 万`` as 1.8).

:func:`words_disagree` refuses an answer whose digits and its number in words disagree ("63 (sechsunddreißig)",
"quatre-vingt-sept (97)", "2.500 dollars (two thousand five hundred dollars)" read in English): a number in words
beside a numeral (in brackets, or after "also"/"i.e."/"soit"...) is read with ``text2num`` (alpha2digit: fr, es,
en, pt, de, nl, it; the language that turns most of the words into one number wins), a Cyrillic one against
``num2words``' Russian and Ukrainian words of 0-1000, a Chinese one by :func:`chinese_number`.

:func:`scientific` reads ``1.5 \\times 10^{9}``, ``1,5 · 10⁹`` (after the rewrite), ``2.4 × 10^5`` as one number.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from polyreward.verifiers.memo import memoized_text
from polyreward.verifiers.pattern_cache import cached_re as re
from polyreward.verifiers.regex_prefilter import prefilter_names

COMMA, DOT = "comma", "dot"
_DIGIT = re.compile(r"\d")

# answer labels of languages that write a decimal comma (CLDR), with the language text2num reads them in ("" none)
_LABEL_LANGUAGES = {
    "de": r"Antwort(?:\s+lautet)?|Lösung|Ergebnis",
    "fr": r"Réponse|Reponse|Résultat",
    "es": r"Respuesta|Resultado|Solución",
    "pt": r"Resposta|Solução",
    "it": r"Risposta|Risultato|Soluzione",
    "nl": r"Antwoord|Uitkomst",
    "": r"Odpowiedź|Wynik|Ответ|Відповідь|Đáp\s+số|Đáp\s+án|Trả\s+lời|Jawaban|Cevap|Sonuç|Svar|Vastaus|Odpověď|Răspuns|Válasz|Απάντηση",
}
# a label ends at a colon: only the few words before each colon are matched (a scan of the whole text for the
# labels' alternation at every position cost a millisecond on a 2,000-character completion)
_LABEL_BEFORE_COLON = re.compile(
    r"(?<![^\W\d_])(?:" + "|".join(f"(?P<{lang or 'xx'}>{words})" for lang, words in _LABEL_LANGUAGES.items())
    + r")\**\s*\Z", re.IGNORECASE)
_COLON = re.compile("[:：]")
MAX_COLONS = 64


@lru_cache(maxsize=8)  # (speed only: english_numerals reads the same completion twice, through _words_only_answer and convention)
def _last_label(text: str) -> tuple[int, str] | None:
    """Where the last answer label of a decimal-comma language ends (after its colon) and its language, or None."""
    colons = [m.start() for m in _COLON.finditer(text)]
    for colon in reversed(colons[-MAX_COLONS:]):  # the answer's label is among the last lines
        if not text[max(0, colon - 3):colon].rstrip(" *")[-1:].isalpha():
            continue
        found = _LABEL_BEFORE_COLON.search(text, max(0, colon - 24), colon)
        if found is not None:
            return colon + 1, next(name for name, value in found.groupdict().items() if value is not None)
    return None

# --- evidence -------------------------------------------------------------------------------------
_COMMA_DECIMAL = re.compile(r"(?<![\w.,'’])\d+,(?:\d{1,2}|\d{4,})(?![\d,]|\.\d)")
_BRACE_DECIMAL = re.compile(r"\d\{,\}(?:\d{1,2}|\d{4,})(?!\d)")
_DOT_GROUPS = re.compile(r"(?<![\w.,])\d{1,3}(?:\.\d{3}){2,}(?![\d.])|(?<![\w.,])\d{1,3}(?:\.\d{3})+,\d")
_SPACE_GROUPS_COMMA = re.compile(r"(?<![\w.,])(?<!\d[ \u00a0\u202f\u2009])\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+,\d")
_DOT_DECIMAL = re.compile(r"(?<![\w.,])\d+\.(?:\d{1,2}|\d{4,})(?![\d.])")
_COMMA_GROUPS = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3}){2,}(?![\d,])|(?<![\w.,])\d{1,3}(?:,\d{3})+\.\d")
# a digit, a dot or comma, a digit: what the five patterns above need ("5.2", "1,000"); only whether a text holds one is
# read. Written from its dot or comma (speed only, stop 61): re skips ahead to the characters of a leading literal set,
# not to a digit, and the look-behind sees the digit before: a match wherever r"\d[.,]\d" has one, one character later
# (3.3 times as fast on the fresh rows' completions, which hold none; held to r"\d[.,]\d" by tests/test_stop61_gates.py)
_SEPARATED_DIGITS = re.compile(r"[.,](?<=\d[.,])(?=\d)")


def _a_pair(match: re.Match) -> bool:
    """Is the comma of ``match`` the one of a pair, list or subscript ("(1,2)", "[0,1]", "x_{1,2}", "1,2, 3")?"""
    text = match.string
    before = text[max(0, match.start() - 12):match.start()].rstrip().rstrip("-−+").rstrip()  # "[-2,7]": a sign first
    after = text[match.end():match.end() + 12]
    return (_OPENS.search(before) is not None and _CLOSES.match(after) is not None) or after.lstrip()[:1] == "," or before[-1:] == ","


_OPENS = re.compile(r"(?:[(\[{_|]|\\left\s*[(\[{|.]|\\[{]|\\lbrace|\\langle)\s*\Z")
_CLOSES = re.compile(r"\s*(?:\\right\s*)?(?:[)\]}|,;]|\\[}]|\\rbrace|\\rangle)")


def answer_label_language(text: str) -> str | None:
    """The language of the last answer label of a decimal-comma language in ``text`` ("de", "fr", ...; "xx" for one
    text2num cannot read), or None."""
    found = _last_label(text) if (":" in text or "：" in text) else None
    return None if found is None else found[1]


def convention(text: str) -> str:
    """``"comma"`` when ``text`` writes a decimal comma (see the module docstring), else ``"dot"`` (today's reading)."""
    if _DIGIT.search(text) is None:
        return DOT
    # (speed only) every match of _DOT_DECIMAL, _COMMA_GROUPS, _COMMA_DECIMAL, _SPACE_GROUPS_COMMA and _DOT_GROUPS holds a
    # digit, a dot or comma and a digit in a row ("5.2", "1,000", "12 345,6": each pattern's separator sits between
    # two \d); a text without one (most integer answers) skips their searches, each a scan of the whole completion
    separated = _SEPARATED_DIGITS.search(text) is not None
    has_dot, has_comma = separated and "." in text, "," in text
    if (has_dot and _DOT_DECIMAL.search(text) is not None) or (separated and has_comma and _COMMA_GROUPS.search(text) is not None):
        return DOT
    comma = (has_comma and ((separated and any(not _a_pair(m) for m in _COMMA_DECIMAL.finditer(text)))
                            or ("{,}" in text and _BRACE_DECIMAL.search(text) is not None)
                            or (separated and _SPACE_GROUPS_COMMA.search(text) is not None)))
    comma = (comma or (has_dot and _DOT_GROUPS.search(text) is not None)
             or (";" in text and any(m.group("open") == "]" or m.group("close") == "[" for m in _SEMICOLON_GROUP.finditer(text))))
    if comma:
        return COMMA
    return COMMA if answer_label_language(text) is not None else DOT


# --- the rewrite ----------------------------------------------------------------------------------
# a numeral under the comma convention: groups of three after one separator, then a decimal comma
_LOCAL_NUMBER = re.compile(
    r"(?<![\w.,'’])(?P<int>\d{1,3}(?P<sep>[.'’\u00a0\u202f\u2009 ])\d{3}(?:(?P=sep)\d{3})*|\d+)"
    r"(?:(?P<mark>,|\{,\})(?P<frac>\d+))?(?![\d'’]|[.,]\d)")
_APOSTROPHE_GROUPS = re.compile(r"(?<![\w.,'’])\d{1,3}(?:['’]\d{3})+(?![\d'’\"″])")
_SWISS_DASH = re.compile(r"(?<=\d)\.[–—-](?![\d\w])")
_LAKH_GROUPS = re.compile(r"(?<![\w.,])\d{1,2}(?:,\d{2})+,\d{3}(?![\d,])")
_INDIAN_SCALE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(lakhs?|lacs?|crores?)\b", re.IGNORECASE)
_CHINESE_SCALE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*([万萬亿億])")
_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_CN_BIG = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
_CN_NUMBER = "[零〇一二两兩三四五六七八九十拾百佰千仟万萬亿億]+"
# a word that opens on 一 and is no numeral ("一共" altogether, "一起" together, "一样" the same, "一定" certainly):
# "答：一共四十二个" states 42, not 1
_YI_WORD = "一[共起样樣定直般下些切旦向同律致]"
_CN_FRACTION = re.compile(f"(?<![零〇一二两兩三四五六七八九十拾百佰千仟万萬亿億])({_CN_NUMBER})分之({_CN_NUMBER})")
# a Chinese numeral in characters stated as the answer: "答案是四十二", "答：七十二", and after the answer label the
# sentence's own copula ("答：这个数是九。", "答え：その数は九です"; holdout70): the value the answer line states, in
# words; a digit or a clause break between the label and the copula leaves the line to the other readers, and so does
# a numeral offered with an alternative in its sentence ("九或十", "七十二个或七十三个") or that an operation follows
# ("四十二减二": a term, not the answer); or, with any verb, the first numeral of two characters or more after a subject
# free of numerals ("答：小明需要四十二天读完。", holdout122; a lone "一" or "两" in prose is too often a word: "一共", "一样";
# such a word may open the subject: "答：一共四十二个。")
_CN_ANSWER = re.compile(f"((?:答案|答え|答|结果|結果)\\s*(?:是|为|為|[:：])\\s*(?:[^\\d\\s。，、,.;；:：!?！？]{{0,12}}?(?:是|为|為|等于|等於|有|は)\\s*"
                        f"|(?:{_YI_WORD}|[^\\d\\s。，、,.;；:：!?！？零〇一二两兩三四五六七八九十拾百佰千仟万萬亿億]){{1,12}}(?={_CN_NUMBER[:-1]}{{2}}))?)"
                        f"(?!{_YI_WORD})({_CN_NUMBER})(?![分之点點加减減乘除零〇一二两兩三四五六七八九十拾百佰千仟万萬亿億])(?![^。.!?！？\\n]{{0,40}}?(?:或|还是|還是|か))")  # ("九或十": alternatives stay in words)
_SCALES = {"lakh": 10**5, "lac": 10**5, "crore": 10**7, "万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}


def chinese_number(text: str) -> int | None:
    """The value of a Chinese numeral in characters (``七十二`` 72, ``一千万`` 10^7, ``三百零五`` 305), else None."""
    text = text.strip()
    if not text or any(ch not in _CN_DIGITS and ch not in _CN_UNITS and ch not in _CN_BIG for ch in text):
        return None
    yi, wan, section, digit = 0, 0, 0, None  # the parts above 10^8, 10^4..10^8, below 10^4, a digit waiting for its unit
    for ch in text:
        if ch in _CN_DIGITS:
            if digit is not None and _CN_DIGITS[ch] != 0:
                return None  # "七二": digits in a row are no numeral here
            digit = _CN_DIGITS[ch] or None
        elif ch in _CN_UNITS:
            section += (digit if digit is not None else 1) * _CN_UNITS[ch]
            digit = None
        elif _CN_BIG[ch] == 10**4:
            wan, section, digit = (section + (digit or 0)) * 10**4, 0, None
        else:
            yi, wan, section, digit = (yi + wan + section + (digit or 0)) * 10**8, 0, 0, None
    return yi + wan + section + (digit or 0)


def _plain(value: Fraction) -> str:
    """``value`` written as a plain English numeral (exact: a whole number or a terminating decimal)."""
    if value.denominator == 1:
        return str(value.numerator)
    whole, places = value, 0
    while whole.denominator != 1 and places < 30:
        whole *= 10
        places += 1
    digits = str(abs(whole.numerator)).rjust(places + 1, "0")
    return ("-" if value < 0 else "") + digits[:-places] + "." + digits[-places:]


def _scaled(match: re.Match, asked: frozenset[str] = frozenset()) -> str:
    word = match.group(2).lower().rstrip("s")
    if word in asked:
        return match.group(1)  # "答案：12万" when the question asks how many 万: 12 in the asked unit
    return _plain(Fraction(match.group(1)) * _SCALES[word])


# a question that asks for the figure in a scale word as its unit (holdout56: "用“万”作单位是多少万人？", "以万为单位",
# "how many lakh", "in crores"): the scale word after the answer's number is then that unit, not a multiplier
_SCALE_ASKED = re.compile(r"(?:用|以)\s*[“\"「『']?\s*([万萬亿億])\s*[”\"」』']?\s*(?:作|做|为|為)\s*(?:单位|單位)|(?:多少|几|幾)\s*([万萬亿億])"
                          r"|\b(?:in|into|how\s+many)\s+(lakhs?|lacs?|crores?|thousands?|millions?|billions?)\b", re.IGNORECASE)
# an English scale word after a number ("42 thousand"), read as that unit only where the question asks the figure in it
# ("What were the total sales, in thousands of dollars?": "42 thousand" is 42; holdout115)
_ENGLISH_SCALE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[^\S\n]*(thousands?|millions?|billions?)\b", re.IGNORECASE)
_ENGLISH_SCALE_WORDS = frozenset({"thousand", "million", "billion"})


def scales_asked(prompt: str) -> frozenset[str]:
    """The scale words (万, 亿, lakh, crore, thousand, million, billion) ``prompt`` asks the answer to be counted in."""
    if not prompt:
        return frozenset()
    return frozenset(word.lower().rstrip("s") for found in _SCALE_ASKED.finditer(prompt) for word in found.groups() if word)


def _local_number(match: re.Match) -> str:
    sep, mark = match.group("sep"), match.group("mark")
    if sep == " " and not mark:
        return match.group()  # "4 500" without a decimal comma: left to today's reading
    if sep and match.group("int")[0] == "0":
        return match.group()  # "Respuesta: 0.375": no grouping starts with a zero group, so its dot is a decimal one
    whole = match.group("int").replace(sep, "") if sep else match.group("int")
    return whole + ("." + match.group("frac") if mark else "")


# a pair, tuple or interval of numbers with ";" between them, as a decimal-comma language writes it, with the French
# (ISO 31-11) outward brackets: "(2 ; 1,5)", "]2 ; 5]" = (2, 5], "[0 ; +∞[" = [0, ∞)
_GROUP_ITEM = r"\s*(?:[-−+]\s*)?(?:\d+(?:\.\d+)?|∞|\\infty)\s*"
_SEMICOLON_GROUP = re.compile(rf"(?P<open>[(\[\]])(?P<items>{_GROUP_ITEM}(?:;{_GROUP_ITEM})+)(?P<close>[)\]\[])")


def _comma_group(match: re.Match) -> str:
    opening = "(" if match.group("open") == "]" else match.group("open")
    closing = ")" if match.group("close") == "[" else match.group("close")
    return opening + ", ".join(item.strip() for item in match.group("items").split(";")) + closing


def _words_only_answer(text: str) -> str:
    """"Antwort: siebenundzwanzig" -> "Antwort: 27", "Ответ: сорок два тюльпана." -> "Ответ: 42": an answer label
    followed by nothing but a number in words (and at most two words of its unit)."""
    found = _last_label(text) if (":" in text or "：" in text) else None
    if found is None:
        return text
    after, lang = found
    end = text.find("\n", after)
    end = len(text) if end < 0 else end
    rest = text[after:end]
    if lang == "xx" and _CYRILLIC.search(rest) is None or _DIGIT.search(rest) is not None:
        return text  # (a label of no text2num language: read only in Cyrillic words, "Ответ: сорок два тюльпана", holdout122)
    value = _words_value(rest.strip(" *.!"), (lang,) if lang != "xx" else ())
    return text if value is None else text[:after] + " " + _plain(value) + text[end:]


@memoized_text(max_chars=8192, maxsize=256)
def english_numerals(text: str, asked: frozenset[str] = frozenset()) -> str:
    """``text`` with its numerals rewritten into today's (English) reading, as the module docstring says; a scale
    word the question asks the answer in (``asked``: :func:`scales_asked`) is that unit and is dropped, not multiplied."""
    if _DIGIT.search(text) is None and "分之" not in text and "答" not in text and "结果" not in text and "結果" not in text and (
            answer_label_language(text) is None):
        return text  # (an answer line in Chinese numerals alone, "答：是九。", holds no digit)
    text = _words_only_answer(text)
    if "'" in text or "’" in text:
        text = _APOSTROPHE_GROUPS.sub(lambda m: m.group().replace("'", "").replace("’", ""), text)
    if ".–" in text or ".-" in text or ".—" in text:
        text = _SWISS_DASH.sub("", text)
    if convention(text) == COMMA:
        text = _LOCAL_NUMBER.sub(_local_number, text)
        if ";" in text:
            text = _SEMICOLON_GROUP.sub(_comma_group, text)
    elif "," in text and _SEPARATED_DIGITS.search(text) is not None:  # (speed only: an Indian group holds "d,d")
        text = _LAKH_GROUPS.sub(lambda m: m.group().replace(",", ""), text)
    if "la" in text or "cr" in text or "La" in text or "Cr" in text:
        text = _INDIAN_SCALE.sub(lambda m: _scaled(m, asked), text)
    if any(ch in text for ch in "万萬亿億"):
        text = _CHINESE_SCALE.sub(lambda m: _scaled(m, asked), text)
    if asked & _ENGLISH_SCALE_WORDS:  # "42 thousand" where the question asks in thousands: 42 in the asked unit
        text = _ENGLISH_SCALE.sub(lambda m: m.group(1) if m.group(2).lower().rstrip("s") in asked else m.group(), text)
    if "答" in text or "结果" in text or "結果" in text:
        text = _CN_ANSWER.sub(lambda m: m.group(1) + str(value) if (value := chinese_number(m.group(2))) is not None else m.group(), text)
    if "分之" in text:
        text = _CN_FRACTION.sub(lambda m: _cn_fraction(m), text)
    return text


def _cn_fraction(match: re.Match) -> str:
    denominator, numerator = chinese_number(match.group(1)), chinese_number(match.group(2))
    return f"{numerator}/{denominator}" if denominator and numerator is not None else match.group()


# --- numbers in words beside digits -----------------------------------------------------------------
_TEXT2NUM_LANGUAGES = ("de", "fr", "es", "it", "pt", "nl", "en")
_NUMERAL = r"(?<![\d.,])(?<!\d[ \u00a0\u202f\u2009])[-−+]?(?:\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?!\d)|\d+)(?:\.\d+)?"
# a numeral, a unit word perhaps, then a number in words in brackets: "63 (sechsunddreißig)", "27 UGM (twenty-seven)"
_WORDS_IN_BRACKETS_AFTER = (rf"(?P<num>{_NUMERAL})(?:[ \t]{{0,3}}[^\W\d_]{{1,12}}\.?)?[ \t]{{0,3}}[(（][ \t]{{0,3}}"
                            rf"(?P<words>[^()（）\d\n=:：]{{2,80}}?)[ \t]{{0,3}}[)）]")
_BESIDE = re.compile(  # (spaces bounded: the pattern runs on a window of the answer's line, in linear time)
    _WORDS_IN_BRACKETS_AFTER +
    rf"|(?P<words2>[^\W\d_][^()（）\d\n=:：,;]{{1,80}}?)[ \t]{{0,3}}[(（][ \t]{{0,3}}(?P<num2>{_NUMERAL})[ \t]{{0,3}}[^\W\d_]{{0,12}}[ \t]{{0,3}}[)）]"
    rf"|(?P<num3>{_NUMERAL})[^\n,;.()]{{0,30}}?[,;]?[ \t]{{1,3}}(?:also|d\.\s?h\.|i\.\s?e\.|that\s+is|soit|es\s+decir|cioè|ou\s+seja|то\s+есть|即)[ \t]{{1,3}}"
    rf"(?P<words3>[^\W\d_][^\n\d()]{{1,80}}?)(?=[.!;\n]|$)",
    re.IGNORECASE)
_CYRILLIC = re.compile("[\u0400-\u04ff]")
_CJK = re.compile("[\u4e00-\u9fff]")
_CYRILLIC_SCALES = ("тысяч", "тисяч", "миллион", "мільйон", "миллиард", "мільярд")
_NUMBER_IN_OUTPUT = re.compile(r"\d+(?:[.,]\d+)?")


@lru_cache(maxsize=4)
def _cyrillic_words(lang: str) -> dict[str, int]:
    from num2words import num2words  # (lazy: only a Cyrillic answer with words beside its digits needs it)

    return {num2words(n, lang=lang): n for n in range(1001)}


def _words_value(words: str, languages: tuple[str, ...] = (), small: bool = False) -> Fraction | None:
    """The one number ``words`` write in words (unit words after it allowed: "two thousand five hundred dollars"),
    or None when they write none, several, or cannot be read; ``small``: the numbers below ten too ("seven", which
    text2num leaves as a word by default: "one" is often a pronoun)."""
    words = words.strip(" .,;:!?*\"'«»“”").replace("\u00ad", "")
    if not words:
        return None
    if _CJK.search(words):
        value = chinese_number(re.sub("[个個件人名只元块塊米分秒岁歲度]+$", "", words))
        return None if value is None else Fraction(value)
    if _CYRILLIC.search(words):
        parts = words.lower().replace("ё", "е").split()
        for lang in ("ru", "uk"):
            table = _cyrillic_words(lang)
            for cut in range(len(parts), 0, -1):  # the longest run of leading words that is a number
                if " ".join(parts[:cut]) in table:
                    if len(parts) - cut > 2 or (cut < len(parts) and parts[cut].startswith(_CYRILLIC_SCALES)):
                        return None  # "шесть тысяч": past the table (0-1000); "сто яблок в ящике": a phrase
                    return Fraction(table[" ".join(parts[:cut])])
        return None
    from text_to_num import alpha2digit  # (lazy: only an answer with words beside its digits needs it)

    readings = []  # (letters turned into digits, the one value or None, the language)
    for lang in dict.fromkeys(languages + _TEXT2NUM_LANGUAGES):
        out = alpha2digit(words, lang, threshold=0) if small else alpha2digit(words, lang)
        gain = len(words) - len(out)
        if gain <= 0:
            continue
        numbers = _NUMBER_IN_OUTPUT.findall(out)
        rest = _NUMBER_IN_OUTPUT.sub(" ", out).split()
        # one number, at most two words left (units), none of them a multiplier or a number ("six sevens")
        one = len(numbers) == 1 and len(rest) <= 2 and not any(_counts(word, lang) for word in rest)
        value = Fraction(numbers[0].replace(",", ".") if lang != "en" else numbers[0].replace(",", "")) if one else None
        readings.append((gain, value, lang))
    if not readings:
        return None
    best = max(gain for gain, _, _ in readings)
    values = {value for gain, value, _ in readings if gain == best}
    return values.pop() if len(values) == 1 else None


_MULTIPLYING = frozenset("dozen dozens score scores times pairs squared cubed halves thirds quarters dutzend mal fois "
                         "douzaine douzaines veces docena docenas volte dozzina vezes dúzia keer".split())


def _counts(word: str, lang: str) -> bool:
    """Is ``word`` (left beside a number in words) a word that changes the value: a multiplier or a number word
    itself ("sevens")?"""
    from text_to_num import alpha2digit

    word = word.lower().strip(".,;:!?")
    return word in _MULTIPLYING or _DIGIT.search(alpha2digit(word.rstrip("s") or word, lang, threshold=0)) is not None


@memoized_text(max_chars=8192, maxsize=256)
def words_disagree(text: str) -> bool:
    """Does ``text`` (an answer's line, numerals already as :func:`english_numerals` writes them) write a number in
    digits beside one in words that is another number ("63 (sechsunddreißig)", "quatre-vingt-sept (97)")?"""
    if _DIGIT.search(text) is None:
        return False
    lang = answer_label_language(text)
    languages = (lang,) if lang not in (None, "xx") else ()
    for match in _BESIDE.finditer(text):
        number = match.group("num") or match.group("num2") or match.group("num3")
        words = match.group("words") or match.group("words2") or match.group("words3")
        value = _words_value(words, languages)
        if value is not None and value != Fraction(re.sub(r"\s", "", number.replace("−", "-"))):
            return True
    return False


def without_restated_words(text: str) -> str:
    """``text`` without each bracketed number in words that restates the numeral before it, the words being
    :func:`words_disagree`'s reading of the same value: ``27 (twenty-seven) µg/m³`` is ``27 µg/m³``,
    ``149（一百四十九）`` is ``149``, ``52.3 (fifty-two point three)`` is ``52.3`` (red team ``holdout_r56``: a forecast
    glossed in words is one value, not a value beside a word that may relabel it). Words of another value stay
    (``52.3 (twenty-three point five)``: two values), and so do words that are no number (``27 (provisional)``)."""
    if not any(bracket in text for bracket in "(（") or _DIGIT.search(text) is None:
        return text
    kept, last = [], 0
    for match in _RESTATED_IN_WORDS.finditer(text):
        value = _words_value(match.group("words"), small=True)  # a bracket that holds only "(seven)" names the number
        if value is None or value != Fraction(re.sub(r"\s", "", match.group("num").replace("−", "-"))):
            continue
        bracket = max(text.rfind("(", match.end("num"), match.start("words")), text.rfind("（", match.end("num"), match.start("words")))
        kept.append(text[last:bracket].rstrip(" \t"))
        last = match.end()
    return "".join(kept) + text[last:] if kept else text


_RESTATED_IN_WORDS = re.compile(_WORDS_IN_BRACKETS_AFTER)


def answer_line(text: str, answer: str) -> str:
    """The line of ``text`` that holds its last ``answer``, up to :data:`ANSWER_WINDOW` characters either side of it
    (the end of the last line when ``answer`` is not found as written)."""
    at = text.rfind(answer) if answer else -1
    if at < 0:
        lines = [line for line in text[-4 * ANSWER_WINDOW:].splitlines() if line.strip()]
        return lines[-1][-2 * ANSWER_WINDOW:] if lines else ""
    start = max(text.rfind("\n", 0, at) + 1, at - ANSWER_WINDOW)
    end = text.find("\n", at + len(answer))
    end = min(len(text) if end < 0 else end, at + len(answer) + ANSWER_WINDOW)
    return text[start:end]


ANSWER_WINDOW = 160  # characters of the answer's line read on either side of it for a number in words


# --- scientific notation --------------------------------------------------------------------------
_SCIENTIFIC = re.compile(
    r"\s*(?P<m>[-+]?\d+(?:\.\d+)?)\s*(?:\\times|\\cdot|×|·|\*|x)\s*10\s*\^\s*(?:\{\s*(?P<a>[-+]?\d{1,3})\s*\}|(?P<b>[-+]?\d{1,3}))"
    r"(?:\s*(?:\\text\{\s*)?[A-Za-z]{1,12}\}?)?\s*")  # a unit after it: "1.5 \times 10^{-3} m"


def scientific(text: str) -> Fraction | None:
    """The exact value of ``m \\times 10^{e}`` (``\\cdot``, ``×``, ``·`` too), else None."""
    match = _SCIENTIFIC.fullmatch(text)
    if match is None:
        return None
    return Fraction(match.group("m")) * Fraction(10) ** int(match.group("a") or match.group("b"))


# (speed only) a number in words beside digits needs a bracket or one of the "also"/"i.e." words: _BESIDE's search of an
# answer's line (its lazy word branch tried at every letter, ~40 µs on a 100-character line) is skipped on a line that
# holds none of them (regex_prefilter: the strings read off the pattern itself; a non-ASCII line is searched as before)
prefilter_names(globals(), "_BESIDE")
# (stop 61) the scale words of a Chinese prompt and the label before a colon, searched on texts that hold their words
prefilter_names(globals(), "_SCALE_ASKED _LABEL_BEFORE_COLON")
