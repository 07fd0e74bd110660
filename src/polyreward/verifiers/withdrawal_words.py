"""The words of withdrawal: what in a later clause takes an answer back ("Kidding!", "That was a typo.", "Ignore the
above.", "42 is a trap.", "I can't say which.", "no answer submitted", "Scrap it."), read by
:func:`.commitment.later_disowns` in a clause that holds no other value to be about. One vocabulary, by class (the
comments below), in English and in the languages a policy switches to (:mod:`.doubt_words` for the longer table).

Reconstructed (ours): classes of closed-class words and heads, not a list of the phrasings seen.
"""

from __future__ import annotations

from polyreward.verifiers.doubt_words import WRONG_WORDS
from polyreward.verifiers.negation_words import dissents
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.speaker_declines import SPEAKER_DECLINES

# the nouns that name an answer as a fault, a trap or a decoy ("The common error is C", "Common mistake: 24",
# "Students' classic trap here would be 46"), read by :data:`.hedging._NAMED_AS_FAULT_OR_FORMAT` and by the titles
# of a tutor's asides (:data:`.sections._MISTAKE_TITLE`)
FAULT_NOUN = (r"(?:mistakes?|errors?|traps?|distractors?|decoys?|pitfalls?|misconceptions?|slips?|misreads?|red\s+herrings?|"
              r"wrong\s+(?:answers?|choices?|options?|picks?))")

# "corrected for" / "correction for" a named factor is a measurement adjusted, not a retraction (holdout76: "9.2 mg/dL
# -- normal once corrected for hypoalbuminemia"; "the QT corrected for heart rate", "Korrektur für Albumin"); a
# correction "for my mistake" still is one: a word of error within the few words after "for" keeps it a retraction
ADJUSTED_FOR = (r"(?!\s+(?:for|für|pour|para|per)\s+(?![^.;:!?\n]{0,40}?\b(?:mistakes?|errors?|typos?|slip|oversight|blunder|"
                r"fehler\w*|irrtum|erreurs?|erro|errores?|errori|equivoc\w*)\b)\w)")

# "correction" and "I take it back" in the languages a policy switches to (holdout41: "Antwort: D. Nein, Korrektur: Es
# ist B", "Resposta: C. Na verdade, retiro o que disse"): an explicit retraction (:func:`.commitment.retraction_after`)
# and a withdrawal; each entry carries its own word boundary (none for Chinese, Japanese, Korean, Hindi, Arabic); with
# them a restatement that replaces what was said, "or rather" ("Respuesta: A. Mejor dicho, la B: el Danubio ...",
# "ou plutôt", "besser gesagt", "o meglio", "ou melhor"; holdout95): the value after it is the writer's answer
CORRECTION = {
    "German": r"\bkorrektur\b" + ADJUSTED_FOR + r"|\bich\s+korrigiere\b|\bich\s+nehme\s+(?:das|es|alles|meine\s+antwort)\s+zurück\b|\bbesser\s+gesagt\b|\boder\s+vielmehr\b",
    "French": r"\bje\s+(?:me\s+)?(?:rétracte|(?:reprends|retire)\s+(?:ma\s+réponse|ce\s+que\s+j'ai\s+dit))\b|\bje\s+(?:me\s+)?corrige\b|\bou\s+plutôt\b",
    "Spanish": r"\bcorrección\b" + ADJUSTED_FOR + r"|\bcorrijo\b|\bme\s+retracto\b|\bretiro\s+(?:lo\s+que\s+(?:dije|he\s+dicho)|mi\s+respuesta)\b|\bmejor\s+dicho\b",
    "Portuguese": r"\bcorreção\b" + ADJUSTED_FOR + r"|\bcorrigindo\b|\bme\s+retrato\b|\bretiro\s+(?:o\s+que\s+(?:eu\s+)?disse|a\s+(?:minha\s+)?resposta)\b|"
                  r"\bmelhor\s+dizendo\b|\bou\s+melhor\b(?!\s+ainda)",
    "Italian": r"\bcorrezione\b" + ADJUSTED_FOR + r"|\b(?:mi\s+)?correggo\b|\britiro\s+(?:quello\s+che\s+ho\s+detto|la\s+(?:mia\s+)?risposta|tutto)\b|"
               r"\bo\s+(?:per\s+)?meglio(?:\s+dire)?\b",
    "Russian": r"\bисправлени[ея]\b|\bпоправка\b|\bберу\s+(?:свои\s+слова\s+)?обратно\b",
    "Turkish": r"\bdüzeltme\b|\bdüzeltiyorum\b|\bgeri\s+al\w{1,2}yorum\b",  # (no "ı": it folds to an ASCII "I", and an ASCII text would be searched
    # without the gate of regex_prefilter)
    "Vietnamese": r"\bsửa\s+lại\b|\btôi\s+rút\s+lại\b",
    "Hindi": r"मैं\s+(?:इसे\s+)?वापस\s+ले(?:ता|ती)",
    "Arabic": r"تصحيح|أتراجع",
    "Chinese": r"更正|我收回|收回",
    "Japanese": r"訂正|撤回",
    "Korean": r"정정|철회",
}
CORRECTION_WORDS = "|".join(CORRECTION.values())
# the interjection "no" of those languages: with a colon after it, it opens a correction ("wait, no: 45", "C, non : E")
NO_INTERJECTIONS = r"(?:no|nein|non|não|нет)"


# holdout109: the writer cannot tell which of two results it has reached is right ("The simulation and the count
# disagree, and I don't know which one to trust", "I haven't found which of the two calculations has the slip",
# "I can't tell which of these two the problem wants"): a negated verb of knowing, finding or telling whose object
# is "which one", "which of the two / these", "which is right", "which to trust" or "which count / value / result"
# -- two candidates, none chosen
# (not a form or method the reader prefers: "not sure which of these forms you want")
UNDECIDED_BETWEEN_WORDS = (
    r"\b(?:can't|cannot|can\s+not|couldn't|could\s+not|unable\s+to|don't|do\s+not|didn't|did\s+not|haven't|have\s+not|not\s+sure|unsure|no\s+idea)"
    r"\s+(?:\w+\s+){0,2}?which\s+(?:one\b|of\s+(?:the|these|those|them)\b(?!\s+(?:\w+\s+)?(?:methods?|approach(?:es)?|ways?|forms?|formats?|notations?|units?)\b)|"
    r"(?:is|was)\s+(?:right|correct|true)\b|to\s+(?:trust|believe|go\s+with|pick|choose)\b|(?:value|count|number|result|answer|figure|total)\b)")
UNDECIDED_BETWEEN = re.compile(UNDECIDED_BETWEEN_WORDS, re.IGNORECASE)


# holdout73: the choice handed to the reader or to a key ("Go with whichever your textbook says.", "Pick the one that
# matches your answer key.", "je vous laisse choisir", "te dejo elegir"), or a definite answer declined ("je préfère ne
# pas donner de solution définitive", "no puedo elegir una sola", "決められません")
# (read in any clause after the answer, also right after one about another option: "sería A (Saturno). Depende de la
# definición, así que no puedo elegir una sola." hands the choice over, it judges no option)
HANDED_OVER_WORDS = (
    r"\b(?:go\s+with|pick|choose|take|select|trust)\s+(?:(?:whichever|whatever)\b(?!\s+(?:unit|form|format|notation|method|way))|the\s+one\s+(?:that\s+)?(?:matches|fits|agrees))|"
    r"(?:matches|fits|agrees\s+with)\s+(?:your|the)\s+(?:answer\s+key|key|textbook|book|teacher)|"
    r"(?:I'll|I\s+will|I)\s+let\s+you\s+(?:choose|decide|pick)|(?:it's\s+)?up\s+to\s+you\s+(?:which|to\s+(?:choose|decide|pick))|your\s+(?:call|pick)(?=\s*[.!]|\s*\Z)|"
    r"je\s+(?:vous|te)\s+laisse\s+(?:choisir|décider|trancher)|(?:te|le|les|os)\s+dejo\s+(?:elegir|decidir)|"
    r"(?:deixo|deixamos)\s+(?:você|vocês|a\s+você)?\s*(?:escolher|decidir)|lascio\s+(?:a\s+te\s+|a\s+voi\s+)?(?:scegliere|decidere)|"
    r"überlasse\s+(?:ich\s+)?(?:dir|ihnen|euch)|"
    r"(?:préfère|prefiero|prefiro|preferisco)\s+(?:ne\s+pas|no|não|non)\s+(?:donner|dar|dare)\s+(?:de\s+|una\s+|uma\s+)?(?:solution|réponse|respuesta|solución|resposta|solução|risposta)\s+"
    r"(?:définitive|definitiva)|no\s+puedo\s+(?:elegir|decidir|escoger)|je\s+ne\s+peux\s+pas\s+(?:choisir|trancher|décider)|"
    r"(?:can't|cannot|can\s+not)\s+be\s+(?:answered|decided)\b|\bunanswerable\b|"
    # holdout72: the answer made to depend on which exam, key, book or definition, which the writer does not say
    r"\b(?:it|this|that|the\s+answer)\s+(?:all\s+)?depends\s+on\s+(?:which|what|whose|the|your|how|when)\s+(?:\w+\s+){0,2}?(?:exam|test|textbook|book|key|answer\s+key|source|definition|interpretation|convention|grader|teacher|course|syllabus|question|reading|edition)s?\b|"
    # holdout87/88: the writer says it cannot tell which reading of the question is meant ("Without more context I can't
    # tell which reading is intended", "no sé qué interpretación se pretende") -- two readings, none chosen
    r"\b(?:can't|cannot|can\s+not|couldn't|could\s+not|unable\s+to|don't\s+know|do\s+not\s+know)\s+(?:\w+\s+){0,2}?(?:which|what)\s+(?:\w+\s+)?"
    r"(?:reading|interpretation|meaning|sense|version)\s+(?:is|was|they|you|the\s+\w+)?\s*(?:\w+\s+)?(?:intended|meant|means|wants?|right|correct)\b|"
    r"\bno\s+(?:sé|puedo\s+saber|puedo\s+decir)\s+(?:qué|cuál)\s+(?:interpretación|lectura)|\bje\s+ne\s+(?:sais|peux)\s+pas\s+(?:dire\s+)?quelle\s+(?:lecture|interprétation)|"
    r"\bkann\s+(?:ich\s+)?nicht\s+(?:sagen|entscheiden),?\s+welche\s+(?:Lesart|Interpretation|Deutung)|"
    "(?:" + UNDECIDED_BETWEEN_WORDS + r")|"
    r"\b(?:depende|dépend|dipende|hängt)\s+(?:de|da|di|von)\s+(?:la|le|l'|el|del|des|der|dem|quale)?\s*(?:définition|definición|definição|definizione|definition|interprétation|interpretación|examen|esame|prüfung)\b|"
    # holdout91, #32: the writer declines to commit in its own words after naming an option ("I can't choose from the
    # information given", "I'd mark none of the options", "I'll abstain", "I'll pass on this one", "je m'abstiens") --
    # the speaker as subject of a predicate about its own commitment (:mod:`.speaker_declines`: a verb of committing
    # negated, or one of withholding not negated, whose object is the answer or none; "I can't pick anything else" and
    # "I won't abstain" keep the answer) -- or asks the user back which reading is meant ("Which one do you mean?",
    # "Did you mean the novel or the parody?", "¿A cuál te refieres?"): no option is committed to
    r"(?:" + SPEAKER_DECLINES + r")|"
    r"\bwhich\s+(?:one|of\s+(?:these|them|those|the\s+two)|(?:reading|interpretation|meaning|sense|version)s?)?\s*(?:do|did|would)\s+you\s+"
    r"(?:mean|intend|have\s+in\s+mind)\b|\bwhich\s+(?:one\s+|\w+\s+)?(?:are|were)\s+you\s+(?:asking|thinking)\s+(?:about|of)\b|"
    r"\b(?:do|did)\s+you\s+mean\s+[^.?!;\n]{1,60}?\s+or\s+(?:the\s+)?[^\W\d_]|"
    r"\b(?:me\s+abstengo|je\s+m'abstiens|(?:ich\s+enthalte|enthalte\s+ich)\s+mich|mi\s+astengo|(?:me\s+)?abstenho(?:-me)?)\b|"
    r"\bno\s+(?:voy\s+a\s+|quiero\s+|puedo\s+)?marcar(?:ía)?\s+ninguna|\bje\s+ne\s+(?:cocherais|choisirais|vais\s+pas\s+choisir)\b|"
    r"\bich\s+kann\s+mich\s+nicht\s+entscheiden\b|\bnon\s+posso\s+scegliere\b|\bnão\s+(?:posso|consigo)\s+escolher\b|"
    r"(?:¿\s*)?\ba\s+cu[aá]l\s+te\s+refieres|\bcu[aá]l\s+(?:quieres|quiere)\s+decir|\b(?:lequel|laquelle)\s+(?:voulez-vous|veux-tu)\s+dire|"
    r"\bde\s+(?:laquelle|lequel)\s+(?:parlez-vous|parles-tu)|\bwelche[sn]?\s+(?:meinst\s+du|meinen\s+Sie)\b|\bquale\s+intendi\b|"
    r"\bqual\s+(?:você\s+)?quer\s+dizer|我(?:不能|无法|没法)(?:选择|选)|我弃权|你指的是哪|どちらの意味ですか|"
    r"決められ(?:ない|ません)|決めかね|迷います|选不出|决定不了|无法决定|由你(?:决定|选择)|お任せします")
HANDED_OVER = re.compile(HANDED_OVER_WORDS, re.IGNORECASE)
# a retraction or the choice handed over, in any language: what keeps a closing check or remark from being read past as
# one that only checks or states other quantities ("Vérification : 3 × 5 − 4 = 11 ✔ … En fait non, je retire ma
# réponse"; holdout73)
TAKEN_BACK = re.compile(CORRECTION_WORDS + "|" + HANDED_OVER_WORDS, re.IGNORECASE)

# holdout79: the writer forbidding the answer's use as the answer ("please don't use 450 as my answer", "do not count
# this as my final answer", "never submit it as the answer"): a verb of using or submitting under a negation, its object
# (the answer's value, or a word pointing at it), then "as" an answer
_FORBIDDEN_VERB = (r"\b(?:don't|do\s+not|never|not\s+to|shouldn't|should\s+not|mustn't|must\s+not)\s+(?:\w+\s+)?"
                   r"(?:use|count|take|submit|treat|record|accept|enter|put\s+down|report|mark)")
_FORBIDDEN_USE = _FORBIDDEN_VERB + r"\s+"
_AS_ANSWER = (r"[^\S\n]*as\s+(?:my|our|the|an?|your)\s+(?:final\s+|official\s+|actual\s+|real\s+)?"
              r"(?:answer|result|solution|submission|choice|pick|response)\b")
_FORBIDDEN_BEFORE_VALUE = re.compile(_FORBIDDEN_VERB + r"(?:\s+(?:the|my|this|that|value|number|figure|option|letter)){0,2}[\W_]*\Z", re.IGNORECASE)
_AS_ANSWER_AFTER = re.compile(r"\A[\W_]*?" + _AS_ANSWER, re.IGNORECASE)


def forbidden_as_answer(before: str, after: str) -> bool:
    """Is the answer between ``before`` and ``after`` the object of a forbidden use as the answer ("please don't use
    450 as my answer": :data:`_FORBIDDEN_USE`, then the value, then "as my answer")?"""
    return _AS_ANSWER_AFTER.match(after) is not None and _FORBIDDEN_BEFORE_VALUE.search(before) is not None


WITHDRAWAL = re.compile(
    # ... the answer's use as the answer forbidden ("don't use this as my answer", "please don't use 450 as my answer",
    # holdout79; a clause about another value -- "don't use 1,200 as the answer" -- is about that value)
    _FORBIDDEN_USE + r"(?:[^\s.;!?]+\s+){0,3}?" + _AS_ANSWER.replace("[^\\S\\n]*as", "as") + "|"
    r"\b(?:kidding|joking|joke|jk|typo|typos|erratum|errata|misspoke|mistaken|mistake|mistakes|error|wrong|"
    r"incorrect|false(?!\s+(?:negatives?|positives?)\b)|untrue|bogus|mis(?:calculat|count|read|spoke|typ|judg|remember|interpret|understo|appli|copi)\w*|(?<![\w'’][^\S\n])(?:ignore|disregard)|(?:ignore|disregard)(?=\s+(?:that|this|it|them|those|these|everything|all|above|previous|my|our|what|\d|(?-i:[A-Z])\b|the\s+(?:above|previous|first|earlier|last|prior|former|original|answer|\d)))|retract\w*|withdraw\w*|scratch|nope|trap|decoy|fake|not\s+(?:really|"
    r"actually|sure|certain|confident|(?:yet\s+)?final(?=\s*[.;,!)}\]]|\s*\Z)|the\s+(?:answer|final|real|correct|right))|no\s+longer\s+(?:so\s+)?(?:sure|certain|confident|convinced)|(?:not|n't)\s+(?:\w+\s+){0,2}(?:an?|my|our|the)\s+(?:final|real|actual|official)\s+(?:answer|result|solution)|unsure|uncertain|doubt\w*|"
    r"rul(?:e|es|ed|ing)\s+(?:(?:it|this|that|them)\s+)?out|eliminat\w+|exclud\w+|reject\w*|meant|i\s+mean|(?:correction|corrected)" + ADJUSTED_FOR + r"|take\s+(?:that|it|this)\s+back|never\s*mind|"
    # a restart: "Let me start over.", "start again from scratch" (holdout49)
    r"start\s+(?:over|again|afresh)|from\s+scratch|restart\w*|"
    r"forget\s+(?:that|it|this|(?:what\s+)?I\s+(?:said|wrote|just\s+\w+)|everything|all\s+that|about\s+(?:it|that|this))|undo|cancel\w*|strike\s+that|delete\s+that|distractor|"
    r"a\s+lie|lying|testing\s+you|trolling|outdated|obsolete|superseded|deprecated|"
    # the writer says the asked thing was not worked out (holdout15): "The area I haven't worked out.", "I didn't
    # compute how many apples are left." -- the verb of solving ends its clause, or a question word or the asked
    # problem follows it ("I didn't compute it by hand" describes a method and stands)
    r"(?:haven't|have\s+not|hasn't|didn't|did\s+not|couldn't|could\s+not|can't|cannot|wasn't\s+able\s+to|was\s+unable\s+to|never)\s+"
    r"(?:actually\s+|really\s+|yet\s+)?(?:work(?:ed)?\s+(?:it\s+|that\s+|this\s+)?out|comput\w*|calculat\w*|solv\w*|"
    r"figured?\s+(?:it\s+|that\s+)?out|determin\w*|answer\w*|finish\w*)(?=\s*(?:[.!;)]|\Z)|\s+(?:it|that|this|yet)\s*(?:[.!;)]|\Z)|"
    r"\s+(?:how|what|which|whether|where|when|who)\b|\s+the\s+(?:original|actual|real|asked|given)\s+(?:question|problem))|"
    # ... or that it has none, or that the premise the answer rests on fails ("that assumption fails and I have no answer")
    r"(?:have|has|got)\s+no\s+(?:real\s+|actual\s+|final\s+)?(?:answer|solution|result)|"
    # ... or that none was given or that the writer lacks it (holdout18): "no answer submitted", "no final answer was
    # reached", "so I don't have the roots or their sum" -- a negated having of the answer or of a quantity asked for
    r"no\s+(?:final\s+|valid\s+|agreed\s+)?(?:answer|solution|result|choice|option|pick)\s+(?:was\s+|is\s+|has\s+been\s+|could\s+be\s+)?"
    r"(?:submitted|given|provided|selected|chosen|reached|recorded|returned|made|agreed)|"
    r"(?:don't|do\s+not|didn't|did\s+not)\s+(?:actually\s+|really\s+|yet\s+|even\s+)?have\s+(?:the|an?|any|a\s+final)\s+"
    r"(?:final\s+|exact\s+|actual\s+)?(?:answer|result|solution|value|roots?|sum|product|total|count|number)|"
    # ... or that the writer cannot say or does not know which it is, or is bluffing (holdout17): "I honestly can't say
    # which.", "so I can't say.", "can't answer as written", "I don't actually know which gas it is", "I haven't got a
    # clue", "I'm bluffing" -- a verb of saying or knowing under a negation, ending its clause or asking which / what
    r"(?:can't|cannot|can\s+not|couldn't|could\s+not)\s+(?:really\s+|honestly\s+|actually\s+)?(?:say|tell|answer)"
    r"(?=\s*(?:[.!;,)]|\Z)|\s+(?:which|what|whether|for\s+sure|as\s+written|the\s+answer)\b)|"
    r"(?:don't|do\s+not|didn't|did\s+not)\s+(?:actually\s+|really\s+|honestly\s+)?know\s+(?:which|what|the\s+answer|for\s+sure)\b|"
    r"(?:haven't|have\s+not|hasn't)\s+(?:got\s+)?(?:a|any)\s+clue|bluff\w*|"
    # ... or owns an error it did not check: "I mixed up the units and didn't recheck"
    r"(?:I|we)(?:'ve|\s+have)?\s+(?:may\s+have\s+|might\s+have\s+)?mixed\s+up|(?:didn't|did\s+not|haven't|have\s+not)\s+(?:re-?check|double-?check|verif|re-?d[oi]ne?|re-?comput|re-?calculat|re-?deriv)\w*|"
    # ... or cannot vouch for it, or says it fails its own check (holdout19, holdout20): "I can't stand behind x = 7", "the
    # substitution does not check out", "Scrap it.", "I take the B back", "not my answer", "No final answer from me", "I
    # can't give the total", "I'm not going to pretend to know", "I haven't worked out the mean."
    r"(?:can't|cannot|can\s+not|won't|couldn't)\s+(?:\w+\s+)?(?:stand\s+(?:behind|by)|vouch\s+for|(?<!hold\s)back)\b|(?:does|did)(?:\s+not|n't)\s+check\s+out|"
    r"scrap\s+(?:it|that|this)|undid|ctrl\s*\+\s*z|cmd\s*\+\s*z|leav\w*\s+(?:it\s+)?blank|left\s+(?:it\s+)?blank|"
    # holdout17: a part of the answer missing ("There may be a leading digit I missed.", "I only managed the last
    # two digits")
    r"(?:an?|some|the)\s+(?:\w+\s+){0,2}(?:I|we)\s+(?:may\s+have\s+|might\s+have\s+)?missed|"
    r"only\s+(?:managed|got|found|worked\s+out|computed)\s+(?:\w+\s+){0,3}?(?:part|some|half|digits?|last|first)\b|"
    # holdout21: "No answer." as a clause of its own, "nothing herein constitutes an answer"
    r"no\s+answer(?=\s*[.!)]|\s*\Z)|nothing\s+(?:\w+\s+){0,3}constitutes\s+(?:an?\s+|my\s+)?(?:answer|selection|choice)|take\s+(?:\S+\s+){0,2}back|not\s+(?:my|our)\s+(?:\w+\s+)?(?:answer|choice|pick)|no\s+(?:final\s+)?answer\s+from\s+me|"
    r"(?:can't|cannot|couldn't|can\s+not)\s+give\s+(?:you\s+)?(?:the|an?|any|a\s+final)\s+(?:(?!other\b|different\b|better\b)\w+\s+)?(?:answer|total|value|result|number|count|verdict|choice|decision|pick)|"
    # (not "I can't give any other answer": the answer given is the only one the writer will give)
    # holdout29: an exact form declined after an approximation ("it's closest to 3/4 but I can't give an exact simplified form")
    r"(?:can't|cannot|couldn't|can\s+not)\s+(?:give|state|write|provide|find)\s+(?:you\s+)?(?:an?|the|any)\s+(?:exact|precise|definite|definitive)\s+(?:\w+\s+)?(?:form|expression|fraction|answer|value|figure)(?=\s*(?:[.!;)]|\Z))|"
    # holdout26 / holdout28: the value cannot be told, or belongs to another version of the problem ("can't say what the
    # sum is", "the real problem's numbers give a different total", "which I haven't computed yet"), a joke in Spanish,
    # French, German, Italian, Portuguese
    r"(?:can't|cannot|couldn't|can\s+not)\s+(?:say|tell|know)\s+what\s+(?:the|its|my)\s+\w+\s+(?:is|was|would\s+be)|"
    r"(?:can't|cannot|couldn't|can\s+not)\s+(?:match|pick|choose|commit\s+to|tell)\s+(?:the|a|any|which)\s+(?:letter|option|choice|answer)|"
    r"(?:gives?|is|yields?)\s+a\s+different\s+(?:total|answer|value|result|number|count|sum)|(?:haven't|have\s+not)\s+computed\s+(?:it\s+)?yet|"
    r"es\s+broma|era\s+broma|c'est\s+une\s+blague|je\s+plaisante|(?:war\s+)?(?:nur\s+)?ein\s+scherz|stavo\s+scherzando|[ée]\s+brincadeira|"
    r"(?:not|n't)\s+(?:going\s+to\s+)?pretend\w*\s+(?:to\s+)?(?:know|be\s+sure)|"
    r"(?:haven't|have\s+not|didn't|did\s+not)\s+(?:actually\s+|yet\s+)?(?:work(?:ed)?\s+out|comput\w*|calculat\w*|found|find|determin\w*|integrat\w*)"
    r"\s+(?:the|its|their)\s+(?!other\b|decimal\b|exact\s+decimal\b)\w+(?=\s*(?:[.!;)]|\Z))|"
    r"(?:that|this|the\s+above|my)\s+(?:assumption|premise|condition|hypothesis|supposition)\s+(?:fails|failed|is\s+(?:false|wrong|invalid)|"
    r"(?:does|did)\s*(?:not|n't)\s+hold|doesn't\s+hold|breaks\s+down)|"
    # the same small classes in the languages a policy switches to (no, wrong, error, false)
    r"nein|falsch|fehler|irrtum|geirrt|faux|fausse|je\s+retire|erreur|tromp\w*|falso|falsa|errado|errada|incorrect[oa]|equivo[cq]\w*|sbagli\w*|niet|fout|"
    r"klopt\s+niet|stimmt\s+(?:\w+\s+){0,2}nicht|неверно|неправильно|ошиб\w*)\b|n't\s+(?:trust|believe|sure)|[❌✗✘🚫👎]|不对|错了|搞错|弄错|错误|是错的|不正确|有误|いいえ|違う|違い?ます|間違|아닙니다|아니다|아니에요|아니야|틀렸|틀립|"
    + HANDED_OVER_WORDS + "|"
    + WRONG_WORDS + "|" + CORRECTION_WORDS,  # holdout18: "wrong", "a mistake" in the other languages (doubt_words)
    re.IGNORECASE,
)


# a list of other candidate answers after the answer, under a label (holdout73: "Other possible answers depending on
# interpretation: 48, 2, 14.", "Autres réponses possibles : B, D"): each value listed is another answer offered
OTHER_CANDIDATES = re.compile(
    r"\b(?:other|alternative|possible)\s+(?:possible\s+|plausible\s+|acceptable\s+|valid\s+)?(?:answers|solutions|candidates)\b[^.:\n]{0,60}:|"
    r"\b(?:otras|autres|outras|altre|andere)\s+(?:respuestas|réponses|respostas|risposte|antworten)\b[^.:\n]{0,60}:", re.IGNORECASE)


# the answer itself as the object of a verb of withdrawal, not negated: "ignore the D", "scratch the 42", "disregard
# my answer 42" ("don't ignore the D" keeps it); withdraw / retract in any inflection, and the unknown the answer is
# assigned to (holdout73: "I'm withdrawing x = 6 until I can re-read the problem", "retracting my answer 42"); a sentence end between
# them ends the verb's reach: "The bond dipoles cancel.\n\nB." (holdout117) names B after an intransitive verb
WITHDRAWN_OBJECT = re.compile(r"(?<!n't )(?<!not )(?<!never )\b(?:withdraw(?:s|n|ing)?|retract(?:s|ed|ing)?|scratch|strike|ignore|disregard|"
                               r"cancel|delete|undo)"
                               r"(?:\s+(?:the|that|this|my|our|answer|option|letter|choice|value|number|[a-z]\b)){0,3}(?:[^\w.!?]|_)*\Z",
                               re.IGNORECASE)


# the writer's own answer as the object of a verb of withdrawal, whatever else the clause or the one before it names
# (holdout76: "it might be B. I'll withdraw my answer rather than guess."): "my answer" is the one given, not the option
# just discussed ("my earlier answer" is another one: only "final" may qualify it)
OWN_ANSWER_WITHDRAWN = re.compile(r"(?<!n't )(?<!not )(?<!never )(?<!no need to )(?<!no reason to )(?<!not to )\b(?:withdraw(?:s|n|ing)?|retract(?:s|ed|ing)?|scrap|scratch|rescind\w*|revok\w*)"
                                  r"\s+(?:my|our)\s+(?:final\s+)?(?:answer|choice|pick|selection|response)\b",
                                  re.IGNORECASE)


# speed only (issue #35): searches skipped on texts that lack every set of words a match needs (same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "WITHDRAWAL WITHDRAWN_OBJECT OTHER_CANDIDATES HANDED_OVER TAKEN_BACK OWN_ANSWER_WITHDRAWN")


# a closing note of care for whoever gives a treatment (holdout55): "Safety: concentrated KCl must always be diluted;
# never give IV push.", "Caution: do not crush the tablets." -- a label of a note, then instructions. Its negations
# forbid an action ("never give", "do not crush"), not the answer; a note that speaks of itself or the writer ("I",
# "my", "we"), forbids using the result ("do not use this", "never give the dose above") or holds a word of withdrawal
# is no such note
_NOTE_LABEL = re.compile(r"\A[\W_]*(?:safety(?:\s+note)?|note|caution|warning|important|reminder|clinical\s+note|practice\s+point)[\W_]*?[:—–]", re.IGNORECASE)
_FORBIDS_AN_ACTION = re.compile(
    r"\b(?:never|do\s+not|don't|must\s+not|mustn't|should\s+not|shouldn't)\s+(?!(?:use|trust|rely|accept|take|count|submit|give\s+(?:this|that|it|the\s+(?:dose|answer|value|result|volume)\b)))"
    r"[a-z]+\b(?!\s+(?:this|that|it|these|those|the\s+(?:answer|above|result|value|calculation|figure|number)s?)\b)", re.IGNORECASE)
_WRITER = re.compile(r"\b(?:I|I'm|I've|I'd|my|me|we|we're|our|us)\b")


def instruction_note(line: str) -> bool:
    """Is ``line`` (a closing line with no value) a note of care whose only negations forbid an action (module
    comment above)? Such a line takes nothing back: the answer before it stands."""
    if not _NOTE_LABEL.match(line) or _WRITER.search(line) or WITHDRAWAL.search(line):
        return False
    return not dissents(_FORBIDS_AN_ACTION.sub(" ", line))


# an error named as what a care instruction avoids ("write mcg rather than µg to avoid misreading as mg", "to prevent
# dosing errors"; holdout55): the error is the one the instruction guards against, no withdrawal of the answer
_AVOIDED = re.compile(r"\b(?:to\s+)?(?:avoid|prevent)(?:s|ing)?\s+(?:(?:any|a|an|the|such|dosing|medication|transcription)\s+){0,2}"
                      r"(?:mis\w+|errors?|mistakes?)\b", re.IGNORECASE)


def without_avoided(clause: str) -> str:
    """``clause`` with each error a care instruction avoids blanked out (same length), for the withdrawal reader."""
    return _AVOIDED.sub(lambda found: " " * len(found.group()), clause) if "avoid" in clause or "prevent" in clause else clause


# a passive verdict on a subject the clause names itself ("Used goods, transfers and stock purchases are excluded.",
# "Transfers are ruled out", holdout89): the verdict judges that subject -- the other options' things --, not the answer
# before it. A pronoun, the answer or option named as the subject ("This is excluded", "My answer is rejected") stays a
# withdrawal, as does a subject that is the writer ("I", "we": _WRITER)
_SUBJECT_PASSIVE = re.compile(r"\A[\s*_(,;:—–-]*(?P<subject>[A-Za-z][\w'-]*(?:(?:\s*,\s*|\s+)[\w'-]+){0,9}?)\s+(?:is|are|was|were|gets?|got)"
                              r"\s+(?:(?:also|all|both|therefore|thus|hence|then|clearly|correctly|rightly)\s+)?\Z", re.IGNORECASE)
_NOT_OWN_SUBJECT = re.compile(r"\b(?:it|this|that|these|those|which|they|everything|all|answer|answers|option|choice|letter|result|value|"
                              r"solution|mine|my|our|above|earlier|previous|original|first)\b|\b[A-E]\b", re.IGNORECASE)


def judges_own_subject(before: str, word: str) -> bool:
    """Is ``word`` a verdict of exclusion ("excluded", "ruled out", "eliminated", "rejected") and ``before`` (the clause
    before it) a subject of the clause's own and a copula ("Transfers are"), so that the verdict is about that subject,
    not the answer? (A word that calls something wrong -- "The calculation is wrong" -- is read as before.)"""
    if not word.lower().startswith(("exclud", "eliminat", "rul", "reject")):
        return False
    found = _SUBJECT_PASSIVE.match(before)
    return found is not None and not _NOT_OWN_SUBJECT.search(found.group("subject")) and not _WRITER.search(found.group("subject"))


# a doubt or withdrawal the writer says it has no reason for ("I can't see any reason to doubt it", "there is no need to
# retract it", "without any cause to doubt"): a reaffirmation, the word negated away with its reason (#32)
_NO_REASON_BEFORE = re.compile(r"(?:\bno|\bnot?\s+(?:see|find|have|know\s+of)\s+(?:any|a|one)|n't\s+(?:see|find|have|know\s+of)\s+(?:any|a|one)|"
                               r"\bwithout\s+(?:any|a)?)\s*(?:(?:good|real|single|valid|obvious)\s+)?(?:reason|need|cause|grounds?|room)\s+"
                               r"(?:to|for)\s+(?:\w+\s+)?\Z", re.IGNORECASE)


def reason_denied(before: str) -> bool:
    """Does ``before`` (a clause up to a word of doubt or withdrawal) deny any reason for it ("I can't see any reason
    to")? Then the word reaffirms the answer rather than taking it back."""
    return _NO_REASON_BEFORE.search(before) is not None


# the writer saying the answer holds no error (holdout99): a word of error under a determiner of absence before it ("I
# double-checked: no mistakes.", "There's no error here.", "not a single slip", "nothing wrong with it", "error-free",
# "ningún error", "aucune erreur", "kein Fehler", "без ошибок", "没有错误") or a predicate of absence after it ("ошибки
# нет", "間違いありません", "間違いなく B です") -- a reaffirmation, the word negated away. Only where the clause holds no
# other negation, modal, condition or question: "I can't promise there are no mistakes", "Not sure there's no error",
# "Hopefully no errors", "if there's no error", "間違いないとは言えません" still doubt the answer
_ERROR_NOUN = r"(?:mistakes?|errors?|errores|erreurs?|fehler|irrtum|typos?|slips?|ошиб\w*|错误|錯誤|错|錯)"
_ABSENT_ERROR = re.compile(
    r"(?:\b(?:no|zero|not\s+(?:a\s+single|one|any)|without\s+(?:any\s+)?|free\s+of\s+(?:any\s+)?|ningún|ningun|ninguna|sin|no\s+hay|"
    r"aucune?|pas\s+d'|sans|kein(?:e|en|er)?|ohne|без|нет|ни\s+одной|никаких)\s*+(?:[^\W\d_]+\s+)?" + _ERROR_NOUN + r"(?![^\W\d_])"
    r"|(?:没有|沒有|毫无|毫無|并无|並無|无|無)(?:任何)?" + _ERROR_NOUN +
    r"|\bnothing\s+(?:\w+\s+)?(?:wrong|incorrect)\b|\b(?:error|mistake|typo)-free\b"
    r"|\bошиб\w*\s+(?:нет|не\s+(?:было|нашёл|нашел|найдено|обнаружено))\b"
    r"|間違い(?:は|が|も)?(?:ありません|ございません|ない|なく|無い|無く)(?!とは|か))",
    re.IGNORECASE)
_OTHER_NEGATION_OR_DOUBT = re.compile(
    r"\b(?:not|no|never|nor|hardly|cannot|may|might|hopefully|hope\w*|probably|maybe|perhaps|if|unless|whether|"
    r"ne|pas|nicht|kein\w*|не|нет|si|wenn|ob|quizás|peut-être|vielleicht|может)\b|n't\b|\?|不|没|沒|未|如果|可能|也许|ません|ない|かも|たぶん|多分",
    re.IGNORECASE)


def without_denied_errors(clause: str) -> str:
    """``clause`` with each statement that the answer holds no error (:data:`_ABSENT_ERROR`) blanked, the same length,
    when nothing else in the clause negates, doubts or conditions it: the word of error is negated away ("I
    double-checked it: no mistakes.", "間違いありません") and reaffirms the answer rather than taking it back."""
    found = list(_ABSENT_ERROR.finditer(clause))
    if not found:
        return clause
    blanked = _ABSENT_ERROR.sub(lambda absent: " " * len(absent.group()), clause)
    return clause if _OTHER_NEGATION_OR_DOUBT.search(blanked) else blanked


# a teaching remark after the answer (the afterwords sweep, #32): an error named as a KIND, with an indefinite article
# and an adjective of frequency ("A common mistake is to forget a step", "a typical error here", "One classic trap:"),
# or an elimination whose object is a set of options picked out by a relative clause or "any" ("Tip: eliminate the
# options that are clearly too large first", "rule out any choice with the wrong units") -- advice on how to answer,
# not a verdict on this answer; "That was a mistake", "my mistake" and "eliminate B" are read as before
_KIND_OF_ERROR = re.compile(r"\b(?:a|an|one|another)\s+(?:(?:very|really|quite)\s+)?(?:common|typical|frequent|classic|popular|usual|easy|"
                            r"standard|tempting|natural|frequently\s+made|common\s+enough)\s+(?:\w+\s+)?\Z", re.IGNORECASE)
_DEFINED_AFTER = re.compile(r"\s*(?::|(?:here\s+)?(?:is|was|would\s+be)\b)", re.IGNORECASE)  # the kind defined ("... is to forget")
# the method the answer was reached by, not a verdict on it: "Answer: B — by elimination", "(by process of elimination)"
_BY_METHOD_BEFORE = re.compile(r"\bby[^\S\n]+(?:(?:a|the)[^\S\n]+)?(?:(?:process|method)[^\S\n]+of[^\S\n]+)?\Z", re.IGNORECASE)
_SET_OF_OPTIONS_AFTER = re.compile(r"\s+(?:(?:the|any|all)\s+)?(?:\w+\s+)?(?:options|choices|answers|candidates|distractors|option|choice|answer)\s+"
                                   r"(?:that|which|whose|with|where)\b", re.IGNORECASE)


# holdout103: a word of withdrawal as the complement of an adjective of difficulty ("rise over run is hard to get wrong",
# "an easy sign to mess up") judges how hard the task is, not this answer; advice under a tip label whose clause points
# back at nothing ("Tip for exams: ... mark each option true or false first") is advice on how to answer
_DIFFICULTY_BEFORE = re.compile(r"\b(?:hard|difficult|tough|impossible|easy|tricky|simple)\s+(?:thing\s+|one\s+|\w+\s+)?to\s+(?:get|go|be|\w+\s+up)?\s*\Z"
                                r"|\b(?:hard|difficult|tough|impossible|easy|tricky)\s+to\s+\Z", re.IGNORECASE)
_TIP_LABEL = re.compile(r"\A[\W_]*(?:(?:exam|pro|quick|study|test|general|handy|useful)\s+)?(?:tip|hint|advice|rule\s+of\s+thumb)s?"
                        r"(?:\s+(?:for|on)\s+(?:\w+\s*){1,3})?\s*:", re.IGNORECASE)
_POINTS_BACK = re.compile(r"\b(?:this|that|it|my|above|your\s+answer|the\s+answer)\b", re.IGNORECASE)


def teaching_remark(clause: str, word: "re.Match") -> bool:
    """Is the word of withdrawal ``word`` (a match in ``clause``) advice on how to answer rather than a verdict on this
    answer: an error named as a kind ("A common mistake is ...") or options picked out by a property eliminated
    ("eliminate the options that are clearly too large"), or the method of the pick ("B — by elimination")?"""
    if word.group().lower().startswith(("mistake", "error", "trap", "slip")):
        return _KIND_OF_ERROR.search(clause, 0, word.start()) is not None and _DEFINED_AFTER.match(clause, word.end()) is not None
    if _DIFFICULTY_BEFORE.search(clause, 0, word.start()):
        return True  # "hard to get wrong": the task's difficulty (holdout103)
    if (tip := _TIP_LABEL.match(clause)) is not None and not _POINTS_BACK.search(clause, tip.end()):
        return True  # "Tip for exams: ... mark each option true or false first" (holdout103)
    if word.group().lower() == "elimination" and _BY_METHOD_BEFORE.search(clause, 0, word.start()):
        return True  # "B — by elimination": how the pick was reached (holdout102)
    if word.group().lower().startswith(("eliminat", "exclud", "rul", "reject")):
        return _SET_OF_OPTIONS_AFTER.match(clause, word.end()) is not None
    return False
