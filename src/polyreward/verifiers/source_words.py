""""According to someone" in the languages the reader reads hedges in (holdout56: "Respuesta: según mi compañero,
81"): an answer the writer gives as another's report is no answer of theirs, read as
:func:`.hedging._attributed_before` reads English "According to my classmate, 81".

One closed class, the same in every language: the preposition or postposition of source ("según", "selon",
"laut", "segundo", "secondo", "согласно", "menurut", "theo", "göre", "によると", "에 따르면", "के अनुसार", "据",
"وفقا ل"), with the words that name the source. A source that is the writer's own work (a formula, a theorem, the
calculation, the table: "según el teorema de Pitágoras, c = 5") is no second-hand answer, as in English.
Reconstructed (ours): the closed-class words from each language's reference grammar.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a preposition of source before its source's words (at most four), the clause ending after them
_BEFORE_SOURCE = {
    "Spanish": r"\bseg[uú]n\b",
    "French": r"\bselon\b|\bd['’]apr[eè]s\b",
    "German": r"\blaut\b|\bgem[aä]ß\b|\bzufolge\b",
    "Portuguese": r"\bsegundo\s+(?=(?:o|a|os|as|meu|minha|meus|minhas|seu|sua|nosso|nossa)\b)|\bde\s+acordo\s+com\b",
    "Italian": r"\bsecondo\s+(?=(?:il|lo|la|i|gli|le|l['’]|mio|mia|miei|mie|suo|sua)\b)",
    "Russian": r"(?<![^\W\d_])(?:согласно|по\s+словам|по\s+мнению)(?![^\W\d_])",
    "Indonesian": r"\bmenurut\b",
    "Vietnamese": r"\btheo\s+(?=(?:lời|ý|bạn|thầy|cô|anh|chị|sách|đáp)\b)",
    "Chinese": r"据|根据|按照",
    "Arabic": r"(?:وفقا|وفقًا|طبقا|حسب|بحسب)",
}
# a postposition of source after its source's words (Turkish "arkadaşıma göre", Japanese "友達によると",
# Korean "친구에 따르면", Hindi "मेरे दोस्त के अनुसार")
_AFTER_SOURCE = {
    "Turkish": r"\s+göre\b",
    "Japanese": r"(?:によると|によれば|の話では)",
    "Korean": r"\s*에\s*(?:따르면|의하면)",
    "Hindi": r"\s+के\s+(?:अनुसार|मुताबिक)",
}
# the writer's own work named as the source (a formula, theorem, rule, definition, calculation, table, the problem)
_OWN_WORK = re.compile(
    r"f[oó]rmul|formel|теорем|формул|правил|определен|вычислен|расчёт|расчет|rumus|teorema|théorème|theorem|satz|"
    r"regla|règle|regel|regra|regola|definici|définition|definition|definiç|definizion|c[aá]lcul|rechnung|calcol|"
    r"tabla|tableau|tabelle|tabela|tabell|enunciado|énoncé|problema|problème|aufgabe|ecuaci|équation|gleichung|equaç|"
    r"equazion|công\s+thức|định\s+lý|định\s+nghĩa|quy\s+tắc|đề\s+bài|公式|定理|定义|定義|计算|計算|题意|題意|"
    r"formül|teorem|kural|tanım|hesap|공식|정리|정의|계산|सूत्र|प्रमेय|परिभाषा|गणना|قاعدة|نظرية|معادلة|تعريف|حساب",
    re.IGNORECASE,
)
# the copula after the source, plain or conditional, with its subject ("es", "c'est", "ce serait", "sería", "wäre es",
# "sarebbe", "seria"; holdout70: "Selon le corrigé, ce serait 20, mais moi je trouve 25")
_COPULA = r"(?:=|es|est|ist|é|è|serait|sera|sería|seria|será|sarebbe|sarà|wäre|wird)"
_BEFORE = re.compile(r"(?:" + "|".join(_BEFORE_SOURCE.values()) + r")\s*(?P<source>[^\W\d_][^\W\d_'’-]*(?:\s+[^\W\d_][^\W\d_'’-]*){0,3})"
                     r"\s*[,:،、，]?\s*(?:(?:[^\W\d_]+['’]?\s*)?" + _COPULA + r"(?:\s+(?:es|das|ello|isso))?\s*)?\Z", re.IGNORECASE)
_AFTER = re.compile(r"(?P<source>(?:[^\W\d_]+\s+){0,3}[^\W\d_]+?)(?:" + "|".join(_AFTER_SOURCE.values()) + r")\s*[,:،、，]?\s*\Z",
                    re.IGNORECASE)


def reported_by_another(statement: str) -> bool:
    """Does ``statement`` (the answer's own clause, up to the answer) end by naming the answer's source in another
    language ("según mi compañero,", "selon mon prof :", "arkadaşıma göre", "友達によると")? A source that is the
    writer's own work ("según la fórmula,") is not another's."""
    tail = statement[-120:]
    found = _BEFORE.search(tail) or _AFTER.search(tail)
    return found is not None and _OWN_WORK.search(found.group("source")) is None
