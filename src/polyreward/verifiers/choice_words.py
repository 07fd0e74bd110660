"""The words of a multiple-choice answer in the languages a policy switches to: one table by language, read by the
rules that read English (:mod:`.choice`, :mod:`.choice_forms`; holdout18, holdout41).

Three closed classes, a handful of words each, the same in every language:

* ``ORDINALS``: the ordinal numbers first to fifth and "last", each with the nouns that name an option ("the second
  option", "la segunda opción", "die erste Option", "первый вариант", "lựa chọn thứ hai", "üçüncü şık", "세 번째
  보기", "第四个选项"), in the order the language puts them (the noun first in Vietnamese and Arabic);
* ``APPOSITION``: the words that join an option named by its position to its letter, "that is" ("the second option,
  i.e. C", "die erste Option, also E", "lựa chọn thứ hai, tức D", "第四个选项，即D");
* :data:`FOREIGN_ANCHOR`: the answer phrase, with its copula and article, or a colon, before the letter ("Die
  richtige Antwort ist D", "Respuesta: (C)", "Alternativa correta: D)", "Resposta: letra A", "Doğru cevap: A şıkkı",
  "正解は D です"), and, in the languages that put the copula last, the answer noun with the letter and its copula
  ("सही उत्तर (C) है", "इसलिए सही विकल्प D है").

Each entry carries its own word boundary (``\\b`` for scripts that separate words by spaces, none for Chinese,
Japanese, Korean and the joined Arabic article). Sources: each language's reference grammar for the ordinal numerals
and the copula; the nouns are those of exam sheets in that language (option, alternative, letter). Reconstructed (ours).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# per language: (first, second, third, fourth, fifth, last), the nouns of an option, and whether the noun comes first
ORDINALS: dict[str, tuple[tuple[str, str, str, str, str, str], str, bool]] = {
    "English": ((r"first", r"second", r"third", r"fourth", r"fifth", r"last"),
                r"option|choice|answer|one", False),
    "Spanish": ((r"primer[oa]?", r"segund[oa]", r"tercer[oa]?", r"cuart[oa]", r"quint[oa]", r"últim[oa]"),
                r"opción|alternativa|respuesta|opcion", False),
    "Portuguese": ((r"primeir[oa]", r"segund[oa]", r"terceir[oa]", r"quart[oa]", r"quint[oa]", r"últim[oa]"),
                   r"opção|alternativa|resposta|letra", False),
    "French": ((r"premi(?:er|ère)", r"deuxième|seconde?", r"troisième", r"quatrième", r"cinquième", r"derni(?:er|ère)"),
               r"option|proposition|réponse|choix|alternative", False),
    "Italian": ((r"prim[ao]", r"second[ao]", r"terz[ao]", r"quart[ao]", r"quint[ao]", r"ultim[ao]"),
                r"opzione|risposta|alternativa|scelta", False),
    "German": ((r"erste[nrs]?", r"zweite[nrs]?", r"dritte[nrs]?", r"vierte[nrs]?", r"fünfte[nrs]?", r"letzte[nrs]?"),
               r"option|antwort|möglichkeit|alternative|auswahl|wahl", False),
    "Russian, Ukrainian": ((r"перв\w*", r"втор\w*", r"трет\w*", r"четв[её]рт\w*", r"пят\w*", r"последн\w*|остан\w*"),
                           r"вариант\w*|ответ\w*|опци\w*|пункт\w*", False),
    "Turkish": ((r"birinci|ilk", r"ikinci", r"üçüncü", r"dördüncü", r"beşinci", r"son(?:uncu)?"),
                r"şık\w*|seçenek\w*|cevap\w*", False),
    "Hindi": ((r"पहल[ाीे]", r"दूसर[ाीे]", r"तीसर[ाीे]", r"चौथ[ाीे]", r"पा[ँं]चव[ाीे][ँं]?", r"अंतिम|आखिरी"),
              r"विकल्प|उत्तर", False),
    "Vietnamese": ((r"thứ\s+nhất", r"thứ\s+hai", r"thứ\s+ba", r"thứ\s+tư", r"thứ\s+năm", r"cuối(?:\s+cùng)?"),
                   r"lựa\s+chọn|phương\s+án|đáp\s+án|câu", True),
    "Arabic": ((r"الأول|الاول", r"الثاني", r"الثالث", r"الرابع", r"الخامس", r"الأخير"),
               r"الخيار|الاختيار|البديل", True),
}
# the scripts that do not separate words by spaces, or attach the particle: no word boundary, a counter between
ORDINALS_JOINED: dict[str, tuple[tuple[str, str, str, str, str, str], str]] = {
    "Chinese": ((r"第一", r"第二", r"第三", r"第四", r"第五", r"最后一?"), r"(?:个|項|项)?\s*(?:选项|選項|答案|项|個)"),
    "Japanese": ((r"(?:一|1|１)番目", r"(?:二|2|２)番目", r"(?:三|3|３)番目", r"(?:四|4|４)番目", r"(?:五|5|５)番目", r"最後"),
                 r"の?\s*(?:選択肢|選択|オプション|答え)"),
    "Korean": ((r"첫\s*번째", r"두\s*번째", r"세\s*번째", r"네\s*번째", r"다섯\s*번째", r"마지막"), r"\s*(?:보기|선택지|옵션|답)(?:인|이|가)?"),
}

def _alternatives() -> list[str]:
    """One pattern per language; the ordinal in a group ``p<position>_<language index>`` (position 5 is "last")."""
    patterns = []
    for index, (language, (words, nouns, noun_first)) in enumerate(ORDINALS.items()):
        ordinal = "(?:" + "|".join(rf"(?P<p{position}_{index}>{word})" for position, word in enumerate(words)) + ")"
        if language == "English":
            # (not after a possessive: "my second choice", "our first pick" rank the writer's preferences, they name no
            # option by its place; stop 65)
            patterns.append(rf"\b(?<!my )(?<!our )(?<!your )(?<!their )(?<!his )(?<!her )(?:the\s+)?(?:very\s+)?{ordinal}\s+(?:{nouns})"
                            r"(?:\s+(?:listed|given|shown|above|below|offered))?\b")
        elif noun_first:
            patterns.append(rf"(?:\b|(?<=\s)|^)(?:{nouns})\s+{ordinal}(?!\w)")
        else:
            patterns.append(rf"(?<!\w){ordinal}\s+(?:{nouns})(?!\w)")
    for index, (words, nouns) in enumerate(ORDINALS_JOINED.values(), start=len(ORDINALS)):
        ordinal = "(?:" + "|".join(rf"(?P<p{position}_{index}>{word})" for position, word in enumerate(words)) + ")"
        patterns.append(ordinal + nouns)
    return patterns


ORDINAL_OPTION = re.compile("|".join(_alternatives()), re.IGNORECASE)
# the same phrases without groups, for an answer phrase that names the option by its position before its letter
ORDINAL_PHRASE = re.sub(r"\(\?P<p\d_\d+>", "(?:", ORDINAL_OPTION.pattern)


def ordinal_position(match: re.Match) -> int:
    """The position an :data:`ORDINAL_OPTION` match names: 0 for the first ... 4 for the fifth, -1 for the last."""
    name = next(name for name, value in match.groupdict().items() if value is not None)
    position = int(name[1])
    return -1 if position == 5 else position


# an option named by its number, where the options are numbered too ("B, i.e. option 4", "choice #2", "option (3)";
# holdout62): not a count or an ordinal suffix ("option 2nd", "choice 1.5")
NUMBERED_OPTION = re.compile(r"\b(?:option|choice)[^\S\n]*(?:#|no\.[^\S\n]*|number[^\S\n]+)?\(?([1-9])\)?(?![\d.,]\d|\w)", re.IGNORECASE)
# the options a sentence picks from before naming one by its position ("Between A and D, the second option",
# "Of B, C and E, the last one", "out of A or C, the first"; holdout62): the position counts in that list
LISTED_LETTERS = re.compile(r"\b(?i:between|of|from|among|out\s+of)\s+(?i:(?:the\s+)?(?:options?|choices?)\s+)?"
                            r"(?P<list>[A-J](?:\s*,\s*[A-J])*,?\s+(?i:and|or|&)\s+[A-J])(?![\w])[^.!?\n]*\Z")


# "that is" between an option named by its position and its letter: "the second option (C)", "die erste Option, also
# E", "первый вариант — C", "lựa chọn thứ hai, tức D", "üçüncü şık, B", "二番目の選択肢、D", "세 번째 보기인 C"
APPOSITION = re.compile(
    r"[\s,:(\[—–\-、，：]*(?:(?:also|so|i\.\s?e\.|that\s+is|namely|which\s+is|es\s+decir|o\s+sea|ou\s+seja|isto\s+é|cioè|ossia|"
    r"c'est-à-dire|soit|d\.\s?h\.|то\s+есть|т\.\s?е\.|tức(?:\s+là)?|nghĩa\s+là|yani|अर्थात|यानी|أي|即|也就是|つまり)[\s,:(\[—–\-、，：]*)?(?:\*\*)?\(?\Z",
    re.IGNORECASE)


# the answer phrase in other languages, with its copula and article: "Die richtige Antwort ist D", "La bonne
# réponse est la C", "La respuesta correcta es la opción C", "正解は D です" (normalise spaces a Latin letter from kana), or
# with a colon as the English "Answer:": "Respuesta: (C) Mitocondria", "Réponse finale : B", "Antwort: D"; a noun of
# the option may stand before the letter ("Resposta: letra A", "Alternativa correta: D)", holdout41), and an option
# named by its position with its apposition ("Respuesta: la segunda opción (C)": :mod:`.choice_forms` checks the two)
_OPTION_NOUN = r"(?i:(?:(?:la|el|le|a|o|die|l')\s*)?(?:letra|lettre|buchstabe|opción|opzione|opção|option|alternativa|вариант|şık|seçenek)\s+)?"
FOREIGN_ANCHOR = (
    r"(?:(?i:\b(?:antwort|lösung|r[ée]ponse|respuesta|risposta|resposta|ответ|alternativa|cevap|yanıt)(?:\s+(?:correcte|juste|bonne|correcta|"
    r"correta|corretta|giusta|richtige|korrekte|правильный|finale?|definitiva))?(?:\s+(?:ist|est|es|è|é|lautet)(?:\s+(?:la|le|l'|die|el|a|o))?"
    r"(?:\s+(?:option|opción|opzione|opção|antwort))?\s*|\s*:[\s*]*" + _OPTION_NOUN + r")|(?:正解|答え|答案|解答)\s*(?:は|是|为|:)\s*|(?:정답|답)\s*(?:은|는|:)\s*)"
    # holdout18: the answer phrase in more languages (Indonesian / Malay, Dutch, Swedish / Norwegian / Danish, Finnish,
    # Polish, Czech, Hungarian, Romanian, Tagalog, Swahili, Vietnamese, Greek, Hebrew, Arabic, Hindi)
    r"|(?i:\b(?:jawaban(?:nya)?(?:\s+yang\s+(?:benar|tepat))?\s+(?:adalah|ialah)|(?:het\s+)?(?:juiste\s+)?antwoord\s+is|svaret\s+(?:är|er)|"
    r"vastaus\s+on|odpowied[źz]\s+(?:to|brzmi)|odpověď\s+je|a\s+(?:helyes\s+)?válasz|răspunsul\s+(?:corect\s+)?(?:este|e)|ang\s+sagot\s+ay|"
    r"jibu\s+(?:sahihi\s+)?ni|đáp\s+án\s+(?:đúng\s+)?là)\s*:?\s*)"
    r"|(?:η\s+(?:σωστή\s+)?απάντηση\s+είναι|התשובה(?:\s+הנכונה)?\s+(?:היא|:)|الإجابة(?:\s+الصحيحة)?\s+(?:هي|:)|उत्तर\s*(?:है|[:ः]))\s*"
    # holdout41: the copula last -- "सही उत्तर (C) है", "सही विकल्प D है"
    r"|(?:उत्तर|विकल्प)\s*(?=[(\[]?[A-Za-z][)\]]?\s*है))"
    r"(?i:(?:(?:the|la|el|le|die|der|das|il|lo|a|o)\s+)?(?:" + ORDINAL_PHRASE + r")" + APPOSITION.pattern[:-2] + r")?"
)



# a correction pair closing the answer: the letter, then the other letter it replaces denied ("Correction: B, not E.",
# "B (not E)", "B rather than E", "B, nicht E", "B, pas E", "B, no E", "B, а не E"; holdout64): the first letter is the
# choice, the denied one no mention to read last. Read right after a line-final letter (:mod:`.choice`); the negation
# words of the languages a policy switches to, one each
DENIED_OTHER_TAIL = (r"(?:,?[^\S\n]*\(?[^\S\n]*(?i:not|rather[^\S\n]+than|instead[^\S\n]+of|nicht|statt|pas|plutôt[^\S\n]+que|non|no|"
                     r"en[^\S\n]+(?:lugar|vez)[^\S\n]+de|а[^\S\n]+не|не|而不是|不是)[^\S\n]*[(\[]?[A-Z][)\]]?\)?)?")


# the letter called correct in the languages a policy switches to, as "B is correct" is read in English (:mod:`.choice`'s
# "affirmed" tier; holdout101): the copula and the word "correct" right after the letter, nothing between but an
# article, an option noun (CJK) or a dash -- "Antwort B ist richtig", "La B es correcta", "La réponse B est la bonne",
# "A alternativa B está correta", "Вариант B — правильный", "B项正确", "Bが正解です", "B가 정답입니다". A negation
# between ("B ist nicht richtig", "B неправильный", "B不正确", "B가 아닙니다") is no match, and a question or a
# hedge after it is left to the rules that read the letter's clause
FOREIGN_AFFIRMED = (
    r"(?i:[^\S\n]+(?:ist|wäre)[^\S\n]+(?:die[^\S\n]+)?(?:richtig|korrekt)e?\b"
    r"|[^\S\n]+es[^\S\n]+(?:la[^\S\n]+|el[^\S\n]+)?(?:correct[ao]|respuesta[^\S\n]+correcta)\b"
    r"|[^\S\n]+(?:est|serait)[^\S\n]+(?:la[^\S\n]+)?(?:bonne|correcte?|juste)\b"
    r"|[^\S\n]+(?:está|é)[^\S\n]+(?:a[^\S\n]+|o[^\S\n]+)?(?:corret[ao]|cert[ao])\b"
    r"|[^\S\n]+è[^\S\n]+(?:la[^\S\n]+)?(?:corrett[ao]|giust[ao])\b"
    r"|[^\S\n]*(?:[—–-][^\S\n]*)?(?:правильн|верн)\w*"
    r"|[^\S\n]*(?:项|項|选项|選項)?[^\S\n]*(?:是[^\S\n]*)?(?:正确|正確)(?![^\S\n]*(?:吗|嗎|与否|與否))"
    r"|[^\S\n]*(?:が|は)[^\S\n]*(?:正しい|正解)(?![^\S\n]*(?:です)?[^\S\n]*(?:か|かも|でしょう))"
    r"|[^\S\n]*(?:가|이)[^\S\n]+(?:정답|맞)(?!\w*(?:나요|까|수도|지도|듯)))"
)
