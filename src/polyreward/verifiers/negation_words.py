"""The words that deny a value, in the languages a policy switches to: one table, read by one structural rule.

English is read by the patterns of :mod:`.commitment`; every other language's negation is here, by language, in
three positions a reader takes the same way in any of them:

* **before the value** (``BEFORE_VALUE``): the negation governs the value right after it, with at most the copula
  and markup between -- "Het antwoord is niet 42", "Svaret er ikke 42", "Jibu si 42", "Ответ не 42";
* **after a comma** (``CONTRAST``): the value after ", no" is the one denied, and the value before it is the answer
  -- "La respuesta es 42, no 24", "La réponse est 42, pas 24" (:data:`CONTRAST_WORDS`, also read as a denial before the
  value);
* **after the value** (``AFTER_VALUE``), in the languages that put the negation last -- "Cevap 42 değil", "پاسخ 42 نیست".

Each entry is a regex fragment that carries its own word boundary: ``\\b`` where the script separates words by
spaces, none for scripts that do not (Chinese, Thai) or where the particle is written joined (Arabic). A particle that
is also an everyday word of another language is only read in the form that cannot be that word: Swahili "si" after
"jibu" (the answer), Tagalog "hindi" after "ay", Romanian "nu" before the copula, Finnish "ei" alone or before "ole".
Sources: the negation of the copula in each language's reference grammar (closed-class words, a handful per
language, not a list of phrasings). Reconstructed rule (ours).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

BEFORE_VALUE = {
    "German": r"\bnicht|\bauf\s+keinen\s+fall|\bkeineswegs|\bkeinesfalls",
    "French": r"\bpas",
    "Spanish": r"\bno\s+es",
    "Italian": r"\bnon\s+[èe]|\bnon\b",
    "Portuguese": r"\bnão(?:\s+(?:é|era|seria|será))?",
    "Russian, Ukrainian, Bulgarian": r"\bне",
    "Chinese": r"不是",
    "Indonesian, Malay": r"\bbukan",
    "Vietnamese": r"\bkhông\s+phải(?:\s+là)?",
    "Arabic": r"ليس|ليست",
    "Dutch": r"\bniet",
    "Polish": r"\bnie(?:\s+jest)?",
    "Czech, Slovak": r"\bnení|\bnie\s+je",
    "Croatian, Serbian, Bosnian": r"\bnije|\bnisu",
    "Swedish": r"\binte",
    "Danish, Norwegian": r"\bikke",
    "Icelandic": r"\bekki",
    "Finnish": r"\bei(?:\s+(?:ole|ollut))?\b",
    "Hungarian": r"\bnem",
    "Romanian": r"\bnu\s+(?:este|e|era|sunt)\b",
    "Greek": r"\bδεν(?:\s+είναι)?|\bόχι",
    "Hebrew": r"\bלא|\bאינו|\bאינה",
    "Thai": r"ไม่ใช่|ไม่",
    "Swahili": r"\bjibu(?:\s+\w+)?\s+(?:si|sio|siyo)\b",
    "Tagalog": r"\bay\s+hindi",
}

# the words that, after a comma, deny the value they precede: "42, no 24" (Spanish), "42, pas 24" (French)
CONTRAST_WORDS = r"not|never|nicht|não|non|не|不是|no|pas|niet|nie|inte|ikke|ekki|nem|nu|όχι|δεν|bukan"

AFTER_VALUE = {
    "Turkish": r"değil",
    "Hindi": r"नहीं",
    "Persian": r"نیست",
}

NEGATION_BEFORE_VALUE = "|".join(BEFORE_VALUE.values())
NEGATION_AFTER_VALUE = "|".join(AFTER_VALUE.values())


# the writer's own words taking a stance against something: a negation, or a word of disagreement or error
_DISPUTING_WORD = re.compile(
    r"\b(?:not|no|never|nor|none|nothing|disagree\w*|dispute\w*|differ\w*|reject\w*|mistaken|mistake|wrong|incorrect|false|"
    r"erroneous|flawed|bogus|doubt\w*|unsure|uncertain|nein|falsch|faux|incorrecto|errado|sbagliato)\b|n't\b|"
    r"不对|不是|错|不同意", re.IGNORECASE)


def dissents(own_words: str) -> bool:
    """Do the writer's own words (the visible view) negate or dispute anything? An answer that only a quote, a code
    block or other set-aside text gives is someone else's words or an aside: it is the writer's only when the writer's
    own words, if any, do not argue with it (``> Answer: B`` then ``I disagree with it.``)."""
    return _DISPUTING_WORD.search(own_words) is not None
