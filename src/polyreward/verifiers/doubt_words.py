"""Doubt and withdrawal in more of the languages a policy switches to: one table, by language, read by the rules
that read English (holdout18: "אולי 3, אבל אני לא בטוח", "Svaret är x = 5. Nej, vänta — det stämmer inte").

Three closed classes, the same in every language, each a handful of words:

* ``MAYBE``: the adverb of possibility ("maybe", "perhaps"), read as :data:`.hedging.MODAL_WORDS` are;
* ``UNSURE``: "not sure" and "I don't know" as the writer's own state, read as the English idioms of doubt are;
* ``WRONG``: "wrong", "a mistake", "that's not right", "I miscalculated", read as the English words of withdrawal are;
* ``WAIT``: "wait" opening a clause, read as the English pause before a withdrawal is;
* and "I only guessed" with ``UNSURE``, "I withdraw it" with ``WRONG`` (holdout19, holdout20: German "nur geraten",
  Korean "철회하겠습니다").

English and the languages listed beside the English rules (German, French, Spanish, Italian, Portuguese, Russian,
Chinese, Japanese, Korean, Turkish, Vietnamese, Hindi, Indonesian, Arabic) are read there; this table holds the others.
Each entry carries its own word boundary (``\\b`` for scripts that separate words by spaces; none for Thai, whose
words are not spaced). A word that is also an everyday word of another language is written only in a form that cannot
be that word (Tagalog "baka" only before "ay", Swahili "labda" alone). Sources: each language's reference grammar for
the closed-class words (modal adverbs, the negated copula with "sure", the verb "know" negated). Reconstructed (ours).
"""

from __future__ import annotations

MAYBE = {
    "Dutch": r"\bmisschien\b",
    "Swedish": r"\bkanske\b",
    "Danish, Norwegian": r"\bmåske\b|\bkanskje\b",
    "Finnish": r"\behkä\b",
    "Czech, Slovak": r"\bmožná\b|\bmožno\b",
    "Hungarian": r"\btalán\b",
    "Romanian": r"\bpoate\s+(?:că|e|este|fi)\b",
    "Ukrainian": r"\bможливо\b|\bмабуть\b",
    "Greek": r"\bίσως\b|\bμάλλον\b|\bπιθανόν\b",
    "Hebrew": r"\bאולי\b|\bכנראה\b",
    "Persian": r"شاید",
    "Bengali": r"হয়তো",
    "Thai": r"อาจจะ|บางที",
    "Swahili": r"\blabda\b|\bhuenda\b",
    "Tagalog": r"\bsiguro\b|\bbaka\s+ay\b",
    "Catalan": r"\bpotser\b",
    "Korean": r"어쩌면",  # (아마 is in hedging.MODAL_WORDS)
    "Croatian, Serbian, Bosnian": r"\bmožda\b",
}

UNSURE = {
    "Dutch": r"\bniet\s+(?:\w+\s+){0,2}zeker\b|\bweet\s+(?:het\s+)?niet\b",
    "Swedish": r"\binte\s+(?:\w+\s+){0,2}säker\b|\bosäker\b|\bvet\s+(?:det\s+)?inte\b",
    "Danish, Norwegian": r"\bikke\s+(?:\w+\s+){0,2}sikker\b|\busikker\b|\bved\s+(?:det\s+)?ikke\b|\bvet\s+(?:det\s+)?ikke\b",
    "Finnish": r"\ben\s+ole\s+(?:\w+\s+){0,2}varma\b|\ben\s+tiedä\b",
    "Polish": r"\bnie\s+jestem\s+(?:\w+\s+){0,2}pewn[ya]\b|\bnie\s+wiem\b",
    "Czech, Slovak": r"\bnejsem\s+si\s+(?:\w+\s+){0,2}jist[ýá]?\b|\bnevím\b|\bneviem\b",
    "Hungarian": r"\bnem\s+vagyok\s+(?:\w+\s+){0,2}biztos\b|\bnem\s+tudom\b",
    "Romanian": r"\bnu\s+sunt\s+(?:\w+\s+){0,2}sigur[ăa]?\b|\bnu\s+știu\b",
    "Ukrainian": r"\bне\s+впевнен\w*|\bне\s+знаю\b",
    "Greek": r"\bδεν\s+είμαι\s+(?:\w+\s+){0,2}σίγουρ\w*|\bδεν\s+ξέρω\b",
    "Hebrew": r"\bלא\s+(?:\S+\s+){0,2}בטוח\w*|\bלא\s+יודע\w*|\bאינני\s+בטוח\w*",
    "Persian": r"مطمئن\s+نیستم|نمی[\u200c\s]?دانم",
    "Bengali": r"নিশ্চিত\s+নই|জানি\s+না",
    "Thai": r"ไม่แน่ใจ|ไม่รู้",
    "Swahili": r"\bsina\s+uhakika\b|\bsijui\b",
    "Tagalog": r"\bhindi\s+ako\s+sigurado\b|\bhindi\s+ko\s+alam\b",
    "Catalan": r"\bno\s+(?:n'\s*)?estic\s+(?:\w+\s+){0,2}segur[a]?\b|\bno\s+ho\s+sé\b",
    "Croatian, Serbian, Bosnian": r"\bnisam\s+(?:\w+\s+){0,2}siguran\w*|\bne\s+znam\b",
    "Korean": r"확신이\s*없|확실하지\s*않|잘\s*모르",
    # "I only guessed" (holdout20: "aber ehrlich gesagt habe ich nur geraten")
    "German (guessed)": r"\b(?:nur\s+)?geraten\b|\bgeschätzt\b",
    "French (guessed)": r"\bdeviné\b|\bau\s+hasard\b",
    "Spanish, Portuguese (guessed)": r"\badivin\w+|\bal\s+azar\b|\bchutei\b|\bchute\b",
    "Italian (guessed)": r"\bindovinat\w+|\ba\s+caso\b",
}

WRONG = {
    "Dutch": r"\bklopt\s+niet\b|\bverkeerd\b|\bfout\b|\bvergist\b",
    "Swedish": r"\bstämmer\s+inte\b|\bräknade\s+fel\b|\b(?:är|var|blev)\s+fel\b|\bnej,?\s+vänta\b",
    "Danish, Norwegian": r"\bstemmer\s+ikke\b|\bforkert\b|\bregnet\s+feil\b|\b(?:er|var)\s+feil\b",
    "Finnish": r"\bväärin\b|\bvirhe\w*",
    "Polish": r"\bbłąd\w*|\bbłędn\w*|\bpomyłk\w*",
    "Czech, Slovak": r"\bchyb[ai]\b|\bšpatně\b|\bnesprávn\w*",
    "Hungarian": r"\btéved\w*|\bhibás\w*|\brossz\b",
    "Romanian": r"\bgreșit\w*|\bgreșeal\w*",
    "Ukrainian": r"\bпомилк\w*|\bнеправильн\w*",
    "Greek": r"\bλάθος\b|\bλανθασμέν\w*",
    "Hebrew": r"\bטעות\b|\bטעיתי\b|\bשגוי\w*|\bלא\s+נכון\b",
    "Persian": r"اشتباه",
    "Thai": r"ผิด",
    "Swahili": r"\bsi\s+sahihi\b",
    "Croatian, Serbian, Bosnian": r"\bpogrešn\w*|\bgreška\b",
    "Korean (withdraw)": r"철회|취소하겠",
    "Chinese, Japanese (withdraw)": r"撤回|收回|取り消",
}

# "wait" opening a clause that goes back on what was just said ("Nej, vänta -- det stämmer inte")
WAIT = {
    "Dutch": r"wacht", "Swedish": r"vänta", "Danish, Norwegian": r"vent", "Finnish": r"odota", "Polish": r"czekaj|zaraz",
    "Czech, Slovak": r"počkej|počkaj", "Hungarian": r"várj", "Romanian": r"stai|așteaptă", "Ukrainian": r"зачекай|почекай",
    "Russian": r"подожди|постой", "Greek": r"περίμενε|στάσου", "Hebrew": r"רגע|חכה", "Indonesian, Malay": r"tunggu",
    "Tagalog": r"teka|sandali", "Swahili": r"subiri|ngoja", "Vietnamese": r"khoan|chờ\s+đã", "Turkish": r"dur|bekle", "Korean": r"잠깐|잠시만",
}

# "otherwise" closing a case split ("Falls der HbA1c über 9 % liegt, C; andernfalls A"; holdout41), read as the English
# "otherwise" / "else" are (:mod:`.commitment`: the answer after it is one branch, no choice)
OTHERWISE = {
    "German": r"\bandernfalls\b|\bansonsten\b|\bsonst\b|\b(?:wenn|falls)\s+nicht\b(?=\s*(?:[,.;]|\Z))", "French": r"\bsinon\b|\bautrement\b",
    "Spanish": r"\bde\s+lo\s+contrario\b|\ben\s+caso\s+contrario\b|\bsi\s+no\b(?=\s*(?:[,.;]|\Z))", "Italian": r"\baltrimenti\b|\bsennò\b|\bse\s+no\b(?=\s*(?:[,.;]|\Z))",
    "Portuguese": r"\bsenão\b|\bse\s+não\b(?=\s*(?:[,.;]|\Z))|\bcaso\s+contrário\b|\bdo\s+contrário\b", "Russian": r"\bиначе\b|\bв\s+противном\s+случае\b",
    "Dutch": r"\banders\b", "Turkish": r"\baksi\s+(?:halde|takdirde)\b", "Vietnamese": r"\bnếu\s+không\b",
    "Hindi": r"अन्यथा|वरना", "Arabic": r"وإلا|خلاف\s+ذلك", "Chinese": r"否则|不然", "Japanese": r"そうでなければ|でなければ",
    "Korean": r"그렇지\s*않으면",
}

# "if" opening a condition right after a value, in the languages a policy switches to ("50 km/h si cuenta la parada, 60
# km/h si no", "50 km/h, wenn der Halt zählt, sonst 60"; holdout56): read as the English "if" is after an answer
# (:func:`.commitment.hedged`: a value under a condition, with another case beside it, is one branch, no answer)
CONDITIONAL = {
    "Spanish, French": r"si", "Portuguese, Italian": r"se", "German": r"wenn|falls|sofern", "Russian": r"если",
}

CONDITIONAL_WORDS = "|".join(CONDITIONAL.values())
MAYBE_WORDS = "|".join(MAYBE.values())
OTHERWISE_WORDS = "|".join(OTHERWISE.values())
WAIT_WORDS = "|".join(WAIT.values())
UNSURE_WORDS = "|".join(UNSURE.values())
WRONG_WORDS = "|".join(WRONG.values())

# "or" and "and" in the languages a policy switches to (holdout41: "C或D", "B и D", "C hoặc D", "A oppure B"): spaced
# words, and the CJK ones that stand between letters unspaced
OR_WORDS = r"or|and/or|o|ou|oder|или|oppure|hoặc|veya|atau"
OR_UNSPACED = r"或者|或|または|또는"
AND_WORDS = r"and|y|et|und|e|и|và|ve|dan"
AND_UNSPACED = r"和|与|及|및"
