"""Does a completion commit to the answer found in it? The words around an answer, read like a grader would.

An answer reader (:mod:`.answer_extraction` for math, :mod:`.choice` for options and labels) finds a candidate
and where it sits, ``text[start:end]``; these checks read a bounded window on either side of it and say why the
candidate is not a committed answer, or nothing:

    negated    "The answer is not \\boxed{42}."  "It can't be 42."  "Not C."  "(C) is wrong"  "42 is not the answer"
    hedged     "\\boxed{42} or 43"  "**41** or **42**"  "Either option A or option C."  "C if ..., otherwise B"
               "\\boxed{42}. Alternatively, \\boxed{43}"
               "\\boxed{42 \\text{ (or 43)}}" (an "or" inside the answer, :func:`hedged_inside`)
    qualified  "The answer might be 42."  "\\boxed{42} (just a guess)"  "C? Not sure."  "42 \u2260 answer"
               "\\boxed{42}, if memory serves"  "My friend says 42"  "\\boxed{42}. Or not." (a soft hedge or a
               second-hand answer attached to the answer's own clause or the next one: :mod:`.hedging`)
    case split "For even n: 45. For odd n: 42." (:mod:`.alternative_branches`)

:func:`retraction_after` finds where a completion withdraws what it said ("42... wait, no, 45", "scratch that",
"I made a mistake"); the reader then takes the answer stated after that point, and when there is none the
withdrawn answer is no answer when the retraction is explicit ("wait, no", "that's wrong") and stays when it is
only a pause ("wait, let me double-check"). :func:`later_disowns` reads every clause after the answer for another
value, a withdrawal or a denial. The words these rules read (negators, words of withdrawal, in English and the
languages a policy switches to) are the small word classes below; the clause splitting is :mod:`.clauses`.

Why: a reward that pays for an answer the text denies, hedges or takes back teaches a policy to deny, hedge
and take back (list both candidates, negate the wrong one, say "or"). Reconstructed from how such completions
read; not a published algorithm. Every pattern runs on a window of at most :data:`WINDOW` characters (or the
reader's already capped tail), so the checks cost the same on any completion.
"""

from __future__ import annotations

from itertools import islice

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

from polyreward.verifiers.answer_forms import affirms_other
from polyreward.verifiers.clauses import CLAUSE_END as _CLAUSE_END
from polyreward.verifiers.clauses import MARKUP_START as _MARKUP_START
from polyreward.verifiers.clauses import WINDOW
from polyreward.verifiers.clauses import before_value as _before
from polyreward.verifiers.clauses import WRITER as _WRITER
from polyreward.verifiers.clauses import clauses as _clauses
from polyreward.verifiers.clauses import denies_by_reference, offered_together, offers_alternative, ranks_a_runner_up
from polyreward.verifiers.hedging import MODAL_WORDS, qualified, qualified_after, qualified_before  # noqa: F401 (public here too)
from polyreward.verifiers.closing_remarks import rounds_answer
from polyreward.verifiers.double_negation import cancelled, kept_open
from polyreward.verifiers.doubt_words import CONDITIONAL_WORDS, OR_UNSPACED, OR_WORDS, OTHERWISE_WORDS, WAIT_WORDS
from polyreward.verifiers.withdrawal_words import WITHDRAWAL as _WITHDRAWAL, judges_own_subject, reason_denied, teaching_remark, without_denied_errors
from polyreward.verifiers.withdrawal_words import UNDECIDED_BETWEEN
from polyreward.verifiers.withdrawal_words import (ADJUSTED_FOR, CORRECTION_WORDS, HANDED_OVER, NO_INTERJECTIONS, OTHER_CANDIDATES, OWN_ANSWER_WITHDRAWN,
                                                   WITHDRAWN_OBJECT, forbidden_as_answer, without_avoided)
from polyreward.verifiers.glossed_alternatives import glossed_alternative
from polyreward.verifiers.hypothetical import consequent_value, counterfactual_clause
from polyreward.verifiers.later_values import TICKED_CHECK, confirming_check_start, degree_of_belief, explains_denied, lead_ins_only, unasked_lines
from polyreward.verifiers.later_values import (CORRECTING, EXPLANATION_LABEL, IN_WORDS_TAIL, OPTION_TEXT_AFTER, OTHER_VALUE_CLAUSE, POINTER, REJECTED,
                                               STANDS_BY_AFTER,
                                               STRONG_POINTER, VERIFYING, CHECK_OPENER, confirmed_check_end, fractions_as_values, names_a_part, of_a_denied_quantity, without_apology)
from polyreward.verifiers.math_normalize import number_from_words, same_number
from polyreward.verifiers.number_keys import _VALUE, value_key, answer_keys
from polyreward.verifiers.fault_verdicts import FAULT_AFTER
from polyreward.verifiers.negation_words import CONTRAST_WORDS, NEGATION_AFTER_VALUE, NEGATION_BEFORE_VALUE
from polyreward.verifiers.option_letters import _CLAUSE_END_LETTERS, label_pattern, letter_pattern
from polyreward.verifiers.not_a_value import FRACTIONAL_DECIMAL as _FRACTIONAL_DECIMAL
from polyreward.verifiers.not_a_value import approximate_not_value, bound_not_value, measured_from, percent_base  # noqa: F401 (public here too)
from polyreward.verifiers.reading import MAX_TAIL_CHARS
from polyreward.verifiers.remark_values import STATED_AS_ASKED, states_other_quantities
from polyreward.verifiers.reaffirmation import wavers
from polyreward.verifiers.speaker_declines import declined_in, declines_mention
from polyreward.verifiers.disowned_answers import below_even_belief, called_no_answer, scoped_away
from polyreward.verifiers.reaffirmation import unchanged_lines
from polyreward.verifiers.reading_memo import per_text
from polyreward.verifiers.regex_prefilter import prefiltered
from polyreward.verifiers.units import measure_closes

_NEGATED_BEFORE = re.compile(
    r"(?:\bnot|n't|\bnever|"
    # other languages' negation before the value, and a denial after a comma ("42, no 24"): .negation_words
    + NEGATION_BEFORE_VALUE + r"|[,;][^\S\n]*(?:" + CONTRAST_WORDS + r")\b|"
    # a totality with an exception ("anything but 42", "all but C", "everything save B") and the logical not ("¬C",
    # "\\neg C": holdout16)
    # and another option named by its place next to this one ("the option after C", "the one right before (B)")
    r"\bno\s+longer|\b(?:anything|everything|all|any|every|each)(?:\s+(?:of\s+the\s+)?\w+)?\s+(?:but|save)|¬|\\(?:neg|lnot)(?![A-Za-z])|\b(?:rule|rules|ruled|ruling)\s+out|"
    r"\b(?:option|choice|letter|one)\s+(?:(?:right|just|immediately|directly)\s+)?(?:after|before|following|preceding|next\s+to|below|above|past|beyond)|\bexclud\w*|\beliminat\w*|"
    r"\bother\s+than|\bnon-(?=\Z)|\bexcept(?:\s+for)?|\binstead\s+of|\brather\s+than|\bnor|\bneither|\bagainst|\breject\w*|\b(?:false|untrue)(?=\s+that\b))"
    # "It is not true that the answer is 24", "It is not the case that ...": the negation governs the whole that-clause
    r"(?:\s+(?:be|equal|equals|equal\s+to|to|the|correct|right|answer|option|choice|is|simply|just|true|case|that|say|claim|think|believe|"
    r"stand\s+(?:behind|by)|vouch\s+for|trust|vouch|rely\s+on|count\s+on))*\Z",  # "I can't stand behind x = 7" (holdout19), "don't rely on E" (holdout21)
    re.IGNORECASE,
)
_NEGATED_AFTER = re.compile(
    r"\A[\s.,:;]*(?:(?:is|was|are|would\s+be|seems|looks)\s+(?:not|n't)|isn't|wasn't|aren't|can't\s+be|cannot\s+be)\s+"
    # (red team holdout_r48) "the exception": what an EXCEPT stem asks for ("\\boxed{D} is not the exception; the
    # exception is E"); (holdout114) "5 isn't my final answer"
    r"(?:the\s+|a\s+|an\s+|my\s+|our\s+)?(?:correct\s+|right\s+|final\s+|best\s+)?(?:answer|option|choice|solution|exception|it|true|valid|right|correct|possible)\b"
    # "so B is out": eliminated (holdout116; "is out of" is a range or a total, "out of the question" is read too)
    # the same verdict elliptical, after a comma or a dash: "silver is Ag, not ours", "Sirius -- not the one" (holdout123)
    r"|\A[^\S\n]*(?:,|[—–]|--)[^\S\n]*not[^\S\n]+(?:ours|mine|this\s+one|the\s+one|(?:my|our|the)\s+(?:answer|pick|choice))\b"
    r"|\A[\s.,:;]*(?:is|was|are|would\s+be|seems|looks)\s+(?:wrong|incorrect|false|a\s+mistake|ruled\s+out|eliminated|excluded|impossible|"
    r"out(?!\s+of\b)|out\s+of\s+the\s+question)\b"
    # "45 works; 42 does not.", "Checked 42: invalid.", "| 42 | rejected |": a verdict on the value in its own clause or cell
    r"|\A\s*(?:does|do|did|will|would)(?:\s+not|n't)(?:\s+(?:work|hold|fit|apply|satisfy\s+\w+))?\s*(?:[.;!,|]|\Z)"
    # "(Amoxicillin, option A, doesn't work because ...)": the verdict with its reason (holdout20)
    r"|\A[\s,]*(?:does|do|did|will|would)(?:\s+not|n't)\s+(?:work|hold|fit|apply)\s+(?:because|since|as|here|for|in)\b"
    r"|\A\s*(?:[:|\-–—]\s*)?(?:invalid|wrong|incorrect|false|rejected|fails?|failed|not\s+valid|ruled\s+out|contradiction|impossible)\b"
    r"|(?:" + FAULT_AFTER + r")"  # "(B) has the direction wrong" (fault_verdicts, holdout102)
    r"|\A\s*[:|\-–—]\s*no\b(?!\s+(?:other|further|more|additional|acute|new|doubt|question)\b)"
    # Japanese: "48 ではありません" (is not 48), with a counter or unit between ("540度ではありません")
    r"|\A\s*(?:[^\s\d.,;:!?。、]{1,3}?\s*)?(?:では|じゃ)(?:ありません|ない|なく)"
    r"|\A\s*(?:[^\s\d.,;:!?]{1,8}\s+)?(?:" + NEGATION_AFTER_VALUE + ")"  # the negation after the value ("64 değil", "2 नहीं है")
    r"|\A\s*(?:이|가|은|는)?\s*아니",  # Korean: "144이 아닙니다" (is not 144)  # "42 | no |", not "</answer> No other findings"
    re.IGNORECASE,
)
# "41 or 42", "A or option C", "x = 2 or x = 3", "A/C": another candidate joined to this one
_CANDIDATE = r"[\s$*(\[{]*(?:\\(?:boxed|text|textbf|mathbf|frac|sqrt|dfrac)\b|[-−+]?\.?\d|(?:option\s+|choice\s+|(?:la|el|le|die|a|o)\s+(?=(?-i:[A-Z])(?![A-Za-z])))?[A-Za-z](?![A-Za-z])|yes\b|no\b|maybe\b)"  # "o tal vez la C" (an article)
# ("It can't be anything else: 42": "else" after "anything" / "nothing" offers no other candidate)
_HEDGED_BEFORE = re.compile(
    r"(?:\b(?:" + OR_WORDS + r"|either|otherwise|(?<!\banything\s)(?<!\bnothing\s)else|alternatively)|/|" + OR_UNSPACED + "|" + OTHERWISE_WORDS + r")(?:\s+(?:maybe|possibly|perhaps|option|choice|answer|[A-Za-z](?:\s*=)?))*[,:]?\s*\Z",
    re.IGNORECASE,
)
# ... and "or" in the languages a policy switches to: "B... o tal vez D", "42 ou 45", "C oder vielleicht D", "7 или 8" (after the answer not glued to a bracket: "D: O(n^2)" is no Spanish "o")
# ... and an arrow to another candidate: "C → D", "42 ⇒ 48" replace the answer with the other one (holdout16)
# (a short gloss and an ellipsis may come between: "C (Ottawa)… ou peut-être A", "C（0.505）かA（0.5）か迷います"; holdout73)
_HEDGED_AFTER = re.compile(r"\A(?:[^\S\n]*\([^()\n]{1,40}\))?[\s.,;:(\-–—…]*(?:(?:hmm+|um+|uh|er|well)\W+)?(?:\b(?:" + OR_WORDS + r")\b(?![(\[{^_])|/|" + OR_UNSPACED
                           + r"|か(?=[(\[]?[A-Z](?![A-Za-z]))|[→⟶⇒⟹➔➜➝➡⇨⮕]|-+>|=+>)\s*"
                           r"(?:(?:maybe|possibly|perhaps|even|tal\s+vez|quiz[aá]s|forse|peut-[eê]tre|vielleicht|auch|может\s+быть|talvez)\s+)*"
                           + _CANDIDATE
                           # an open bound right after the value: "$18 a day, possibly more", "42 or so", "12, maybe fewer" (holdout28)
                           + r"|\A[^\n.;]{0,30}?,?\s*(?:possibly|maybe|perhaps|probably|or|if\s+not|likely)\s+(?:more|less|fewer|higher|lower|so)\b"
                           # an error bar after the value: "C ± one option", "B ± 1", "42 +/- 3" (holdout29, holdout30)
                           r"|\A[\s$*)}]*(?:±|\+/-|\\pm(?![A-Za-z]))"
                           # a second candidate after a break and a modal of possibility, with no "or": "(c), maybe (e)",
                           # "C; perhaps E", "42 -- possibly 44", "B. Maybe D." (holdout84)
                           # (after a full stop only a letter: "42. Maybe 3 steps were needed." counts steps)
                           r"|\A(?:(?P<stop>\.)|[,;]|[^\S\n]*(?:[\u2014\u2013]|--?)(?=\s))[^\S\n]*(?:" + MODAL_WORDS + r")[,:]?[^\S\n]+"
                           r"(?:(?:even|also|option|choice)[^\S\n]+)?(?:[(\[](?-i:[A-Z])[)\]]|(?-i:[A-Z])(?![\w'])(?![^\S\n]+[a-z])|(?(stop)(?!)|[-−+]?\$?\d))",
                           re.IGNORECASE)
_CONDITIONAL_AFTER = re.compile(r"\A(?:[^\S\n]+(?:[^\W\d_]{1,5}(?:/[^\W\d_]{1,3})?|[$€£¥₹])(?=[\s.,;:]))?[\s.,;:$*}]*(?:if|unless|when|provided|assuming|depending|" + CONDITIONAL_WORDS + r")\b", re.IGNORECASE)  # "**28** unless", "3,75 € if"
_OTHERWISE_CLOSES = re.compile(r"\A(?:[^\S\n]*[^\W\d_]{1,5}(?:/[^\W\d_]{1,3})?)?[^\S\n]*,?[^\S\n]*(?:\b(?:otherwise|else|if\s+not)\b|" + OTHERWISE_WORDS + r")[^\S\n]*(?:[.;!]|\Z)", re.IGNORECASE)
_OTHERWISE = re.compile(r"\b(?:otherwise|else|if\s+not|or)\b|" + OTHERWISE_WORDS, re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<!\d)\.(?!\d)|[!?\n]")
_INSIDE_OR = re.compile(
    r"\b(?:or(?!\s*,?\s*(?:equivalently|equally|in\s+other\s+words|simply)\b)|either|and/or|possibly|maybe|perhaps|probably|"
    r"likely|alternatively|otherwise|else|unsure|guess|vs|versus)\b|\?|\\(?:lor|vee)(?![A-Za-z])|\|\|",
    re.IGNORECASE,
)

# explicit retractions, and pauses that only withdraw an answer when a different one follows
_RETRACTION = re.compile(
    r"\b(?:(?:no|nein|non|não|нет)[\s,.!]+(?:wait|hold\s+on|espera|aspetta|warte|attendez|attends|подожд\w*|actually|en\s+realidad|en\s+fait|"
    r"eigentlich|in\s+realt[àa]|na\s+verdade|на\s+самом\s+деле)|"
    r"espera|aspetta|warte|attendez|attends|подожд\w*|wait|hold\s+on|hmm|actually|oops|scratch\s+that|correction" + ADJUSTED_FOR + r"|on\s+second\s+thought|"
    r"en\s+realidad|en\s+fait|eigentlich|in\s+realt[àa]|na\s+verdade|на\s+самом\s+деле|"
    r"i\s+made\s+(?:a|an)\s+(?:mistake|error)|that(?:'s|\s+is|\s+was)\s+(?:wrong|incorrect|not\s+right))\b|" + CORRECTION_WORDS,
    re.IGNORECASE,
)
_EXPLICIT = re.compile(
    r"(?:(?:no|nein|non|não|нет)[\s,.!]+(?:wait|hold\s+on|espera|aspetta|warte|attendez|attends|подожд\w*|actually|en\s+realidad|en\s+fait|"
    r"eigentlich|in\s+realt[àa]|na\s+verdade|на\s+самом\s+деле)\b|(?:wait|hold\s+on|hmm|actually)[\s,.!]*(?:no\b|that(?:'s|\s+is|\s+was)\s+(?:wrong|incorrect|not\s+right)|"
    r"i\s+(?:was\s+wrong|made\s+(?:a|an)\s+(?:mistake|error)))|oops|scratch\s+that|correction" + ADJUSTED_FOR + r"|on\s+second\s+thought|"
    r"i\s+made\s+(?:a|an)\s+(?:mistake|error)|that(?:'s|\s+is|\s+was)\s+(?:wrong|incorrect|not\s+right)|" + CORRECTION_WORDS + ")",
    re.IGNORECASE,
)
_PUNCTUATION_RUN = re.compile(r"(?:[\s,.;:!–—]|-(?![\d.]))*")  # "wait, no, -1": the minus stays


@per_text
def _after(text: str, end: int) -> str:
    window = text[end:end + WINDOW]
    return window[_MARKUP_START.match(window).end():]


# "not quite 42", "not really \\boxed{42}": a negation two words before the answer, unless the words turn it around
_NEGATED_NEAR = re.compile(r"(?:\bnot|n't|\bnever)(?:\s+(?:(?!only\b|early\b)[A-Za-z]+ly|quite|even|yet|exactly)){1,2}\Z", re.IGNORECASE)
_TIGHT_MARKUP_END = re.compile(r"(?:[\s$*(\[{]|\\(?:boxed|fbox|framebox|text|textbf|mathbf|mathrm)\s*\{?|\\[(\[])*\Z")


# "answer != 21", "x \\neq \\boxed{8}": the value is what the answer is not (":"/"=" end _before's window, so read raw)
_NOT_EQUAL_BEFORE = re.compile(r"(?:≠|!=|=/=|\\neq?(?![A-Za-z]))[\s$*({]*(?:\\boxed\s*\{)?\s*\Z")
# a label or a bracket right before the value that says it is not the answer: "Scratch value (not the answer):",
# "Not my final answer --", "(this is not the result):" (holdout114); "not the answer 41 but 42" has no label mark
_NOT_THE_ANSWER_LABEL = re.compile(r"(?:\bnot|n't)\s+(?:(?:the|my|our|a|an)\s+)?(?:(?:final|real|actual|correct|right)\s+)?"
                                   r"(?:answer|result|solution)\s*(?:[)\]]\s*[:=\-–—]?|[:=\-–—])\s*\Z", re.IGNORECASE)
_APPROXIMATE_INSIDE = re.compile(r"\A[\s$]*(?:≈|\\(?:approx|sim|simeq)(?![A-Za-z]))")


# "wait, no: 45", "No: Lyon": "no" with a colon after it is the interjection that opens a correction -- it takes back
# what came before and states the value after it -- not the determiner that denies the value ("no 45")
_CORRECTING_NO = re.compile(r"(?<![\w'])" + NO_INTERJECTIONS + r"[^\S\n]*:[^\w\n]*\Z", re.IGNORECASE)  # (holdout93: "C, non : E")


# "not Lyon or Nice", "isn't 45 or 42", "not A, B or C": the value is the last item of a list a negation opens, denied
# with the first (up to four items of up to four words each, joined by commas and a closing "or")
_LIST_ITEM = r"(?:[^\s,.;:!?()]+\s*){1,4}"  # an item of such a list: up to four words, no clause mark
_LIST_OPENS = r"(?:\bnot|n't|\bnever)\s+" + _LIST_ITEM  # the negation and the list's first item
_NEGATED_LIST = re.compile(_LIST_OPENS + r"(?:,\s*" + _LIST_ITEM + r"){0,3},?\s*\bor\s*\Z", re.IGNORECASE)
# ... and an item inside it: "not Lyon, Nice or Marseille" denies Nice (a comma before it, the list's "or" after it)
_NEGATED_LIST_OPEN = re.compile(_LIST_OPENS + r"(?:,\s*" + _LIST_ITEM + r"){0,2},\s*\Z", re.IGNORECASE)
_LIST_GOES_ON = re.compile(r"(?:\s*,\s*" + _LIST_ITEM + r"){0,2},?\s*\bor\s+[^\s,.;:!?()]", re.IGNORECASE)


# what joins a value to the denied value before it, in one denied list: "not 41 or 43", "not 41, 43 or 45"
_DENIED_LIST_GAP = re.compile(r"[^\S\n]*(?:,[^\S\n]*(?:(?:or|nor)\b)?|\b(?:or|nor)\b|/)[^\S\n]*\Z", re.IGNORECASE)


def negated(text: str, start: int, end: int) -> bool:
    """Does the text deny the answer at ``text[start:end]`` ("not 42", "not quite 42", "can't be C", "C is wrong")?
    A "no:" right before it opens a correction to it and denies nothing (:data:`_CORRECTING_NO`)."""
    if text.find(":", max(0, start - 40), start) >= 0 and (correcting := _CORRECTING_NO.search(text, max(0, start - 40), start)) is not None:
        text = text[:correcting.start()] + " " * (start - correcting.start()) + text[start:]
    window = text[max(0, start - WINDOW):start]
    if _NOT_EQUAL_BEFORE.search(window):
        return True
    if _NOT_THE_ANSWER_LABEL.search(window[:_TIGHT_MARKUP_END.search(window).start()]):
        return True  # "Scratch value (not the answer): \\boxed{24}" (holdout114)
    tight = window[:_TIGHT_MARKUP_END.search(window).start()]  # "not quite \\boxed{8}", but "not hard: \\boxed{42}" is fine
    before, after = _before(text, start), _after(text, end)  # (speed: the window after the answer cut once, read twice)
    return bool(_NEGATED_BEFORE.search(before) and not cancelled(before) or _NEGATED_NEAR.search(tight) or _NEGATED_AFTER.match(after)
                or (before[-3:].lower().rstrip().endswith("or") and _NEGATED_LIST.search(before))
                or (before.rstrip().endswith(",") and _NEGATED_LIST_OPEN.search(before) and _LIST_GOES_ON.match(text, end))
                or WITHDRAWN_OBJECT.search(before) or forbidden_as_answer(before, after)  # "Ignore the 42."
                or declines_mention(before))  # "I'm not actually picking C" (holdout103)


def hedged(text: str, start: int, end: int) -> bool:
    """Is the answer at ``text[start:end]`` one of several candidates ("41 or 42", "Either A or C", "C if ...,
    otherwise B", "42 or 45, probably 42")?"""
    tail = _after(text, end)  # (speed: cut once, read twice)
    if _HEDGED_BEFORE.search(_before(text, start)) or _HEDGED_AFTER.match(tail) or _OTHERWISE_CLOSES.match(tail) or glossed_alternative(text, start):
        return True  # (the third: "..., 60 km/h sinon.", "..., 60 otherwise.": the value of the other case; the last: "14 (A) or 11 (B)")
    if lean_between_alternatives(text, start, end):
        return True
    after = text[end:end + 2 * WINDOW]
    if _CONDITIONAL_AFTER.match(after):
        stop = _SENTENCE_END.search(after)
        sentence = after[:stop.start()] if stop else after
        # "C, if X means ...; if it means ..., then A": a second case with its own answer (holdout29)
        return bool(_OTHERWISE.search(sentence) or re.search(r"[;,]\s*(?:but\s+|and\s+)?(?:if|" + CONDITIONAL_WORDS + r")\b", sentence[3:], re.IGNORECASE)
                    or consequent_value(sentence))  # "28 unless baker's dozens, then 31": a consequent value (holdout50)
    return False


# a lean on one of two alternatives the writer has just offered: "42 or 45, probably 42", "Final: A/B, leaning B",
# "Is it C or D? Likely D." -- the two values joined by "or" or a slash, a clause mark, then a word of belief and the
# answer. A belief word commits a lone answer ("probably 42", MedQA's "most likely D"); right after two candidates
# it ranks them, and the other is left open. A decision ("42 or 45 -- definitely 42", "I'll go with 42") and a pick
# with its reason ("42 or 45; 45 fails the check, so 42") are not leans (stop 63; reconstructed, ours).
_LEAN_CANDIDATE = r"(?:\$?[A-Za-z][^\S\n]*=[^\S\n]*)?[^\s,;:?!/]{1,24}"  # "42", "C", "$x = 42$"
_BELIEF = (r"(?:probably|likely|most[^\S\n]+likely|more[^\S\n]+likely|leaning(?:[^\S\n]+(?:towards?|to))?|"
           r"I(?:'m)?[^\S\n]+lean(?:ing)?(?:[^\S\n]+(?:towards?|to))?|I[^\S\n]+(?:think|guess|suspect|believe|reckon|feel)|"
           r"I(?:'d|[^\S\n]+would)[^\S\n]+(?:say|guess|lean(?:[^\S\n]+towards?)?)|my[^\S\n]+(?:guess|bet|hunch|money)(?:[^\S\n]+is|'s)?(?:[^\S\n]+on)?|"
           r"favou?ring|preferably|if[^\S\n]+(?:forced|pressed)|if[^\S\n]+I[^\S\n]+(?:had|have)[^\S\n]+to[^\S\n]+(?:pick|choose|guess))")
_LEAN_BETWEEN = re.compile(
    r"(?P<first>" + _LEAN_CANDIDATE + r")[^\S\n]*(?:/|\b(?:" + OR_WORDS + r")\b)[^\S\n]*(?P<second>" + _LEAN_CANDIDATE + r")[^\S\n]*"
    r"[,;:?.!\u2013\u2014-]+[^\S\n]*(?:(?:it's|it[^\S\n]+is|so|but|and)[^\S\n]+)?" + _BELIEF
    + r"(?:[^\S\n]+(?:it's|it[^\S\n]+is|that's))?[^\S\n]*[:,\u2013\u2014-]?[^\S\n]*(?:\\boxed\{|\\\(|\$|\*\*|\(|option[^\S\n]+|choice[^\S\n]+)*\Z",
    re.IGNORECASE)
_CANDIDATE_MARKUP = re.compile(r"[\s$*(){}\[\]\\]+")


def _candidate(part: str) -> str:
    """A lean's candidate as compared: without markup, a closing full stop or an ``x =``, case folded."""
    return re.sub(r"\A[a-z]=", "", _CANDIDATE_MARKUP.sub("", part).casefold()).rstrip(".")


def _same_candidate(one: str, other: str) -> bool:
    """The same alternative: the same text, or the same number written otherwise ("42" and "42.0", "0.5" and "50%")."""
    return one == other or same_number(one, other)


def lean_between_alternatives(text: str, start: int, end: int) -> bool:
    """Is the answer at ``text[start:end]`` a lean on one of two alternatives offered right before it (comment
    above)?

    >>> lean_between_alternatives("42 or 45, probably 42.", 19, 21)
    True
    >>> lean_between_alternatives("Final: A/B, leaning B", 20, 21)
    True
    >>> lean_between_alternatives("42 or 45 -- definitely 42.", 23, 25)
    False
    >>> lean_between_alternatives("It's 3/4, probably 0.75.", 19, 23)
    False
    >>> lean_between_alternatives("42 or 42.0, probably 42.", 21, 23)  # one value written twice: no alternative
    False
    >>> lean_between_alternatives("4.2 or 42, probably 4.2.", 20, 23)
    True
    """
    if not text.count("or", max(0, start - 120), start) and "/" not in text[max(0, start - 120):start]:
        return False
    lean = _LEAN_BETWEEN.search(text, max(0, start - 120), start)
    if lean is None:
        return False
    first, second, answer = (_candidate(part) for part in (lean.group("first"), lean.group("second"), text[start:end]))
    return not _same_candidate(first, second) and (_same_candidate(answer, first) or _same_candidate(answer, second))


# an "or" that offers an unnamed other answer, a few words on (holdout105): "... whether it still rounds to B or moves
# toward another option", "42, or some other value", "C or a different letter" -- the answer is one of several
_OR_UNNAMED_OTHER = re.compile(r"[^\S\n]*[)*$}\]]*[^\S\n]*,?[^\S\n]*or(?:[^\S\n]+[\w'-]+){0,4}?[^\S\n]+(?:another|some[^\S\n]+other|any[^\S\n]+other|other|a[^\S\n]+different)"
                               r"[^\S\n]+(?:option|answer|letter|choice|value|number|result)s?\b", re.IGNORECASE)


def offers_unnamed_other(text: str, end: int) -> bool:
    """Does an "or" right after the answer at ``text[:end]`` offer another answer it does not name ("rounds to B or
    moves toward another option", "42, or some other value")? ("B, or any other answer naming ..." is read the same.)

    >>> offers_unnamed_other("It still rounds to B or moves toward another option.", 20)
    True
    >>> offers_unnamed_other("It is B, or in other words the second option.", 7)
    False
    """
    return _OR_UNNAMED_OTHER.match(text, end) is not None


def hedged_inside(answer: str) -> bool:
    """An answer that names alternatives itself: ``42 \\text{ (or 43)}``, ``2 or 3``."""
    return bool(_INSIDE_OR.search(answer)) or (_APPROXIMATE_INSIDE.match(answer) is not None and not _FRACTIONAL_DECIMAL.search(answer))


def uncommitted(text: str, start: int, end: int) -> str:
    """``"negated"``, ``"hedged"`` or ``""`` for the answer at ``text[start:end]``."""
    if negated(text, start, end):
        return "negated"
    if hedged(text, start, end) or qualified(text, start, end) or bound_not_value(text, start) or approximate_not_value(text, start, end):
        return "hedged"
    return ""


def retraction_after(text: str, end: int) -> tuple[int, bool] | None:
    """Where the last retraction after ``text[:end]`` ends and whether it is explicit (it takes the answer back
    even when no new answer follows); None when the text never takes anything back after ``end``.

    A pause after an explicit retraction does not undo it: "\\boxed{5}. That is wrong -- it should give 8, hmm, let
    me redo it." is read from the explicit one, so what the writer says after it decides (holdout107):

    >>> text = "The value is 5. That is wrong, it should give 8, hmm, let me redo it."
    >>> resume, explicit = retraction_after(text, 14)
    >>> text[resume:], explicit
    ('it should give 8, hmm, let me redo it.', True)
    """
    last = explicit = None
    for last in _RETRACTION.finditer(text, end):
        explicit = _EXPLICIT.match(text, last.start()) or explicit  # (the last explicit one, if any, is read from)
    if last is None:
        return None
    resume = _PUNCTUATION_RUN.match(text, explicit.end() if explicit else last.end()).end()
    return resume, explicit is not None


# --- what the text says after its answer --------------------------------------------------------------------------
# The answer a reader takes is the last one the writer stands by. After the answer is found, the rest of the text is
# read clause by clause (a clause ends at . ! ? ; or a line break) and the answer is no answer when a later clause
#   * states a different value ("\\boxed{42} -- kidding! It's 45.", "(typo, I meant 45)", "Erratum: 45",
#     "final guess 45", "Actually, it is 73."): a value that closes its clause and either is the whole clause or
#     follows a word that points at it (is, 's, =, :, meant, be, was, guess, answer ...). A value that closes a clause
#     which also states the answer is checking it ("6 \\times 7 = 42."), a value followed by a word is a count
#     ("to 2 decimal places"), a value after a negation is denied ("not 18"), a power or index is not a value;
#   * withdraws it ("Kidding!", "That was a typo.", "Ignore the above.", "42 is a trap."): a clause holding a
#     word of withdrawal and no other value to be about;
#   * denies it ("42 is wrong", "rule out 42", "anything but 42").
# A structural rule: no list of the phrases around the value, only of the small words that point or deny.
_NEGATION_BEFORE = re.compile(
    r"(?:\b(?:not|never|no(?!\s*[,.!;:])|nor|except|than|without|exclude|excluding|rule\s+out|ruled\s+out|rules\s+out|"
    r"eliminate|eliminated|instead\s+of|rather\s+than|other\s+than|anything\s+but|neither|nicht|pas|не)|n't|不是|不)\W*\Z",
    re.IGNORECASE,
)


def _denied_before(before: str) -> bool:
    """Do the words of a later clause up to a value deny it ("rule out 42", "anything but 42"), a denial itself
    denied excepted ("it can't be anything other than 42", "no way it isn't 42": :mod:`.double_negation`)?"""
    return _NEGATION_BEFORE.search(before) is not None and not cancelled(before)


_DENIAL_AFTER = re.compile(
    # ... or a negative contraction or "cannot" before a word of correctness: "42 isn't right", "42 can't be right",
    # "42 cannot be correct", "42 doesn't work" ("42 isn't a coincidence", "42 couldn't be more right" deny nothing)
    r"\A\W{0,3}(?:(?:is|was|are|were|does|do|did|ca|could|must|should|would)n't|cannot)\s+(?:be\s+)?"
    r"(?:(?:the\s+)?(?:right|correct|true|valid|possible|answer)\b|work\b|hold\b|fit\b|check\s+out\b)|"
    r"\A\W{0,3}(?:(?:is|was|are|were|would\s+be|seems|looks)\s+)?(?:not\b|n't|never\b|wrong\b|incorrect\b|false\b|"
    r"a\s+(?:trap|decoy|typo|mistake|red\s+herring)\b|ruled\s+out\b|eliminated\b|excluded\b|impossible\b)|\A\W{0,3}[❌✗✘🚫]",
    re.IGNORECASE,
)

# a clause that opens on "or" and another option: "Or A — used cars count too", "Or maybe (B), given ..." offers it
_OR_OPENS = re.compile(r"[\s*(]*(?:or|oder|ou|o)\s+(?:(?:maybe|perhaps|possibly|probably)\s+)?(?:(?:option|choice)\s+)?[\s*(]*", re.IGNORECASE)
# "Or A. Not sure.": "not" before a word of certainty doubts the writer's pick, it denies no other value (holdout89)
_DOUBT_AFTER = re.compile(r"\W{0,3}not\s+(?:(?:so|too|entirely|completely|quite|really|100%)\s+)?(?:sure|certain|confident|positive|convinced)\b", re.IGNORECASE)

_MY_ANSWER = r"(?:my|our)\s+(?:(?:final|new|real|actual|updated|corrected)\s+)?(?:answer|choice|pick|selection)"
_AFFIRMED_AFTER = re.compile(
    # (an adverb of degree or likelihood may stand after the copula: "26 is probably the intended answer", holdout109)
    r"[\s)*$}]*(?:(?:seems|looks|sounds|feels|is|was|must\s+be|should\s+be|would\s+be|appears)\s+(?:(?:probably|likely|most\s+likely|surely|clearly|really)\s+)?(?:to\s+be\s+)?)?"
    r"(?:(?:more\s+)?(?:right|correct|true|better|likely|accurate|valid)|the\s+(?:(?:intended|expected)\s+)?(?:answer|one|solution|result)|it\s+is|it|instead"
    # "48 is the actual original price", "45 is the real total" (holdout24): the value named as what is truly asked
    r"|the\s+(?:actual|real|true|correct|right)\s+[a-z]+"
    # "45 is my final answer", "B becomes my answer" (holdout100): the value named the speaker's answer
    r"|(?:is|becomes|will\s+be|would\s+be)\s+" + _MY_ANSWER +
    # "so I now think E is what they want" (holdout100): the value named as what the question asks for
    r"|(?:is|'s)\s+what\s+(?:they|the\s+(?:question|problem|examiner|grader))\s+(?:wants?|(?:is|are|'re)\s+(?:looking\s+for|asking\s+for|after)|asks?\s+for)(?!\s+(?:you|us)\b)"
    # "But 264 is what is left.", "265 is what we end up with" (stop 61): the value identified with what the problem
    # counts (a pseudo-cleft whose own clause is the quantity), not a mistake under a condition ("264 is what we'd
    # get if we forgot ...", "what you get by ...": another subject or mood)
    r"|(?:is|'s|was)\s+what\s+(?:(?:is|was)\s+(?:left|remaining)|remains|(?:we|she|he|they|I)\s+(?:have|has|had|get|got|end\s+up\s+with)(?:\s+left)?)"
    r"(?![^.;!?\n]{0,80}\b(?:if|unless|when|had|were)\b))\b",
    re.IGNORECASE,
)
# "please treat B as my answer instead", "use 45 as my final answer" (holdout100): a verb of taking right before the
# value, "as my answer" right after it ("Earlier I wrote 45 as my answer by mistake" reports, it takes nothing)
_AS_MY_ANSWER = re.compile(r"[\s)*$}]*as\s+" + _MY_ANSWER + r"\b", re.IGNORECASE)
_TAKE_AS = re.compile(r"\b(?:treat|take|use|count|consider|mark|record|enter|submit|read)[\s*($\\{]*\Z", re.IGNORECASE)
_MENTION = re.compile(r"(?<![\w.])[-+]?(?:\d+(?:\.\d+)?(?:\s*/\s*\d+)?|\.\d+)%?")


_CORRECTING_TAIL = re.compile(r"[\s,)*$]*(?:actually|instead|rather|after\s+all|in\s+fact)[\s.!)*]*\Z", re.IGNORECASE)


def _stated(clause: str, match: re.Match, strong_only: bool) -> bool:
    """Does the value ``match`` close ``clause`` as a statement: the whole clause after at most two words ("45.",
    "Hmm, 45.", "Erratum: 45"), or after a word that points at it ("it is 73", "I meant 45")? With
    ``strong_only`` (the answer is not one number) only the whole clause or a strong pointer ("meant", "answer") counts."""
    after = without_apology(clause[match.end():])  # "EDIT: 45, sorry.": the apology closes nothing (holdout12)
    if re.match(r"[\s)*$]*(?:if|unless|when|otherwise|depending)\b", after, re.IGNORECASE):
        return True  # "(45 if rounded)": an alternative answer under a condition
    if _AFFIRMED_AFTER.match(after) or _AS_MY_ANSWER.match(after) and _TAKE_AS.search(clause[:match.start()]):
        return True  # "45 seems right", "45 is correct", "45 it is", "treat B as my answer"
    if STANDS_BY_AFTER.match(after):
        return True  # "my own calculation gives 24, and I believe mine": the writer's own value, vouched for
    if _CORRECTING_TAIL.match(after):
        return True  # "Erm, 45 actually.", "45 instead.": the value with an adverb that puts it in place of the answer
    if re.search(r"[A-Za-z0-9]", re.sub(r"\\[a-zA-Z]+|[*$()\[\]{}\"'`,]", "", after)):
        # a word or value follows: "2 decimal places", "45 + 1"; but a letter pointed at may carry its option's text
        # ("the best answer is actually **D. Repeat troponin**": holdout44)
        return bool(match.group().strip("*() ").isalpha() and OPTION_TEXT_AFTER.match(after)
                    and STRONG_POINTER.search(re.sub(r"[\s*(]+\Z", "", clause[:match.start()])))
    before = re.sub(r"(?:\\(?:boxed|fbox|text|textbf|mathbf|mathrm)\s*\{|[\s$*(\[{])+\Z", "", clause[:match.start()])  # "it's \\boxed{"
    before = re.sub(r"</?[A-Za-z][\w-]*>", " ", before)  # "<answer>A</answer> Actually, C.": a tag is markup, no word nor comparison
    words = re.findall(r"[A-Za-z']+", before)
    if (len(words) <= (0 if strong_only else 2) or not strong_only and lead_ins_only(before)) and not re.search(r"[=<>]", before):
        return True
    return bool((STRONG_POINTER if strong_only else POINTER).search(before))


_NUMBER_WORD_RUN = re.compile(r"((?:[A-Za-z]+[\s-]+){0,5}[A-Za-z]+)[\s.!?)*$]*\Z")


def _spelled_value(clause: str) -> int | None:
    """A value written in words that closes ``clause`` after a word pointing at it ("it's actually forty-five",
    "No, wait: nine"), or the whole clause ("Forty-five.", "-- forty-five in words"; holdout26), or None. Without a
    pointer ("Step one.") it is not a statement of a value."""
    clause = IN_WORDS_TAIL.sub("", clause)
    run = _NUMBER_WORD_RUN.search(clause)
    if run is None:
        return None
    words = run.group(1).split()
    for size in range(len(words), 0, -1):  # the longest tail of the run that is a number
        tail = " ".join(words[-size:])
        value = number_from_words(tail)
        if value is not None:
            before = clause[:run.start(1)] + " ".join(words[:-size])
            pointed = POINTER.search(before.rstrip() + " ") or STRONG_POINTER.search(before.rstrip() + " ")
            dashed = re.search(r"(?:[—–]|--)\s*\Z", before)  # "square centimetres — forty-five in words"
            return value if pointed or dashed or not re.search(r"[^\W\d_]", before) else None
    return None


def _states_option(clause: str, option_text: str) -> bool:
    if option_text:
        return _option_text_end(clause, option_text) > 0
    words = re.findall(r"[^\W_]+(?:'[^\W_]+)?", clause)  # words of any script ("stämmer" is one word, not two)
    return len(words) >= 4 and not clause.lstrip(" .:").startswith("(")  # "C (this is probably not right)" is no option text


def _gloss_own_words_masked(text: str, end: int, option_text: str) -> str:
    """``text`` with the gloss right after an option's letter at ``end`` ("B (type II / β error)", "B -- a beta error.")
    holding the option's own words of four letters or more blanked where a modifier of its own leads them: a word of
    withdrawal that is the option's subject (the "error" of "Type II error", the "wrong" of "Wrong-site surgery") names
    it again and withdraws nothing (holdout117). The writer's "(my error)", "(error, it is A)" and every other word of
    the gloss are read as before. A gloss: a bracket, or a dash, colon or comma to the end of its sentence."""
    gloss = _GLOSS_AFTER_LETTER.match(text, end)
    if gloss is None or _option_text_end(gloss.group(), option_text):
        return text  # (the option's whole text, "B: Disclose the error ...", is read as that text)
    own = {word for word in re.findall(r"[^\W_]+", option_text.lower()) if len(word) >= 4}
    masked = re.sub(r"(?<=[^\W_])([^\S\n]+)([^\W_]+)",
                    lambda pair: pair.group(1) + " " * len(pair.group(2)) if pair.group(2).lower() in own
                    and not _WRITERS_DETERMINER.search(gloss.group(), 0, pair.start()) else pair.group(), gloss.group())
    return text[:end] + masked + text[gloss.end():]


_GLOSS_AFTER_LETTER = re.compile(r"[)\]*]*[^\S\n]*(?:[(\[][^()\[\]\n]{1,160}[)\]]|(?:[:,\u2013\u2014]|--?\s)[^.;!?\n]{1,160})")
_WRITERS_DETERMINER = re.compile(r"(?<![^\W_])(?:my|our|the|this|that|an?|i|its)\Z", re.IGNORECASE)


def _option_text_end(clause: str, option_text: str) -> int:
    """Where the option's text ends when ``clause`` opens with all its words in order ("(B) vitamin D" after the
    letter: the clause " vitamin D"), else 0. The letters inside it ("vitamin D", "Both A and B") are the option's own
    words, no other option stated after the answer (holdout84)."""
    wanted = re.findall(r"[^\W_]+(?:'[^\W_]+)?", option_text.lower())
    words = list(islice(re.finditer(r"[^\W_]+(?:'[^\W_]+)?", clause), len(wanted)))  # words of any script
    return words[-1].end() if wanted and [w.group().lower() for w in words] == wanted else 0


_WORLD_DOUBT = re.compile(r"(?:(?:not|no\s+longer)\s+(?:sure|certain|confident)|unsure|uncertain|doubt\w*|n't\s+sure)", re.IGNORECASE)


# a word of withdrawal whose subject is something else the text names ("The other root is rejected", "the negative
# solution is extraneous and rejected", "Why the others are wrong:") judges that, not the answer; "corrected" after a
# determiner describes the corrected version ("compare the naive count vs. the corrected one above"), the answer itself
_OTHER_SUBJECT = re.compile(r"\b(?:the|a|an|any|all)\s+(?:\w+\s+)?(?:others?|another|remaining|rest|extraneous|spurious|alternative|second|"
                            r"negative|positive|larger|smaller|naive)\b|\b(?:other|another)\s+\w+", re.IGNORECASE)
_EARLIER_ATTEMPT = re.compile(r"\b(?:the\s+first\s+time|at\s+first|initially|originally|(?:in\s+)?my\s+(?:first|earlier|previous)\s+"
                             r"(?:attempt|try|pass|draft|answer))\b", re.IGNORECASE)
_DETERMINED = re.compile(r"\b(?:the|a|an|my|our|this|its)\s+\Z", re.IGNORECASE)


def _withdraws(clause: str) -> bool:
    """A word of withdrawal in ``clause``; a word of doubt only when it is the writer's ("I'm not sure", "(unsure)"),
    not when it describes the world ("Answer: maybe. The evidence is uncertain."); not when it judges another subject
    the clause names ("The other root is rejected") or describes a corrected version ("the corrected one")."""
    for word in _WITHDRAWAL.finditer(without_avoided(without_denied_errors(clause))):  # ("to avoid misreading", "no mistakes")
        before = clause[:word.start()]
        if word.group().lower() in ("corrected", "correction") and _DETERMINED.search(before):
            continue
        if _OTHER_SUBJECT.search(before) and not _WRITER.search(before) or judges_own_subject(before, word.group()):
            continue  # ("Used goods, transfers and stock purchases are excluded.": their verdict, holdout89)
        if reason_denied(before):
            continue  # "I can't see any reason to doubt it": a reaffirmation (#32)
        if teaching_remark(clause, word):
            continue  # "A common mistake is to ...", "Tip: eliminate the options that ...": advice, no verdict (#32)
        if _EARLIER_ATTEMPT.search(clause):
            continue  # "I misread the axis the first time": the error was in an earlier attempt, not in this answer
        if not _WORLD_DOUBT.fullmatch(word.group()) or _WRITER.search(before):
            return True
    return False


def _operates_on(value: str, keys: set[str]) -> bool:
    """Is ``value`` a quotient one of whose terms is the answer ("42 / 6", "126/42"): the answer checked, not replaced?"""
    return "/" in value and any(value_key(part) in keys for part in value.split("/"))


# the last operand of a product or sum right before it: '"explanation": "6 * 7"', "6 \\times 7"
_OPERATION_BEFORE = re.compile(r"(?<![\d.])(\d{1,9}(?:\.\d{1,6})?)\s*([*×·+]|\\times|\\cdot)\s*\Z")


def _computes_answer(clause: str, value: re.Match, keys: set[str]) -> bool:
    """Is ``value`` the last operand of a product or sum of two numbers that equals the answer ('"explanation":
    "6 * 7"' after 42): a computation of the answer, not another value? ("Hmm, 6 * 8." after 42 is another value.)"""
    found = _OPERATION_BEFORE.search(clause, max(0, value.start() - 24), value.start())
    if found is None or not re.fullmatch(r"\d{1,9}(?:\.\d{1,6})?", value.group()):
        return False
    left, right = float(found.group(1)), float(value.group())
    result = left + right if found.group(2) == "+" else left * right
    return value_key(f"{result:g}" if result != int(result) else str(int(result))) in keys


_PAUSE_OPENER = re.compile(r"\A[\W_]*(?:(?:no|nej|nee|nein|non|nie|ne|ei|όχι|לא)[\W_]+)?(?:wait|hold\s+on|hmm+|moment|momento|attends|attendez|warte|aspetta|espera|oops|"
                           r"actually|on\s+second\s+thought|" + WAIT_WORDS + r")\b", re.IGNORECASE)
_CANDIDATE_ASSIGNED = re.compile(r"[A-Za-z]\s*=\s*\$?\s*\Z")


def _rejects_after_values(clause: str, mentions: list[re.Match], others: list[re.Match], options: bool) -> bool:
    """Does ``clause``, which mentions the answer, end after its last value by pointing back and rejecting ("substituting
    x = 12 gives 3 but -3, so this root is extraneous")? When the clause assigns another value to an unknown ("Check x = -2: ..., so this root is extraneous"), the
    rejection is of that candidate, not of the answer."""
    last = max(mentions + others, key=lambda v: v.end())
    if not denies_by_reference(clause[last.end():]):
        return False
    return options or not any(_CANDIDATE_ASSIGNED.search(clause[:v.start()]) for v in others)
_BRACES_DOLLARS_SPACES = re.compile(r"[{}$\s]")  # (speed: compiled once)


def later_disowns(text: str, end: int, answer: str, letters: str | None = None, option_text: str = "",
                  labels: tuple[str, ...] | None = None) -> str:
    """Why the text after its answer (``text[end:]``, the answer being ``answer``) takes the answer away:
    ``"conflicting"`` (a later clause states another value), ``"retracted"`` (a clause withdraws it),
    ``"negated"`` (a later mention denies it), or ``""``. See the comment above for the rule. With ``letters``
    the answer is an option letter and the values read are option letters ("(B)", "B"); the clause right after the
    letter that gives the option's text (``option_text``, or 4+ words when the options are unknown) is the answer
    itself ("C. Tell the attending ... mistake"), not a withdrawal. With ``labels`` the answer is one of those words
    (PubMedQA's yes/no/maybe) and the values read are those words."""
    stop = min(len(text), end + MAX_TAIL_CHARS)
    if letters and option_text:
        text = _gloss_own_words_masked(text, end, option_text)  # "B (type II / β error)": B's own "error" (holdout117)
    if labels:
        value_pattern = mention_pattern = label_pattern(labels)
        keys, one_value = {answer.lower()}, True

        def key(match: re.Match) -> str:
            return match.group(1).lower()
    elif letters:
        value_pattern = mention_pattern = letter_pattern(letters)
        keys, one_value = {answer.upper()}, True

        def key(match: re.Match) -> str:
            return match.group(1)
    else:
        value_pattern, mention_pattern = _VALUE, _MENTION
        keys = answer_keys(answer)
        one_value = _VALUE.fullmatch(_BRACES_DOLLARS_SPACES.sub("", answer)) is not None

        def key(match: re.Match) -> str:
            return value_key(match.group())
    about_other, checked_to = False, -1  # the clause before named another value or option without stating it as the answer
    kept: list[tuple[int, int]] | None = None  # the lines that declare the answer unchanged (read once, when a clause comes)
    unasked: list[tuple[int, int]] | None = None  # the lines labelled as beyond the question (read once, when a clause comes)
    confirming_from: int | None = -1  # where a check section that confirms the answer starts (read once, when a value comes)
    parts = list(_clauses(text, end, stop, _CLAUSE_END_LETTERS if letters else _CLAUSE_END))
    parts = _split_at_contrast(text, parts, lambda said: any(key(v) in keys for v in mention_pattern.finditer(said)))
    if letters and len(parts) > 1 and parts[0] == (end, end) and text[end - 1:end].isupper():
        del parts[0]  # "is C. Warfarin ...": a sentence ended by the letter's own period; the clause after it is the first (holdout97)
    for number, (first, last) in enumerate(parts):
        if last <= checked_to:
            continue  # inside a check that confirms the answer (later_values.confirmed_check_end; holdout52)
        clause, follows_other, about_other = text[first:last], about_other, False
        if kept is None:
            kept = unchanged_lines(text, end, stop)
        if kept and any(a <= first and last <= b for a, b in kept) and all(key(v) in keys for v in value_pattern.finditer(clause)):
            continue  # "Edit: fixed a typo in the year; answer unchanged.": a note about another edit (holdout100)
        if unasked is None:
            unasked = [] if letters or labels else unasked_lines(text, end, stop)
        if unasked and any(a <= first and last <= b for a, b in unasked) and not _withdraws(clause):
            continue  # "Bonus (not part of the question): their sum is 124.": another quantity (holdout109)
        if not letters and not labels:  # "EDIT: \\frac{2}{3}" states 2/3 (holdout12)
            clause = fractions_as_values(clause)
            if (label := EXPLANATION_LABEL.match(clause)) is not None:
                clause = " " * label.end() + clause[label.end():]  # "Justification: Perimeter = 30": read as under its heading
        is_option_text = bool(letters) and number == 0 and _states_option(clause, option_text)
        if is_option_text and option_text:  # the option's own words are the answer ("(B) vitamin D": its D names no
            own_end = _option_text_end(clause, option_text)  # other option; holdout84), and what follows them follows
            if _HEDGED_AFTER.match(clause[own_end:]):  # the answer: "B) Paris or C) Nice", "vitamin D. Hmm, actually (A)."
                return "conflicting"
            clause = " " * own_end + clause[own_end:]  # (the rest of its clause stays the option's: "C. Warfarin: a common mistake ...")
        if not clause.strip():
            continue
        if not is_option_text and UNDECIDED_BETWEEN.search(clause) and not any(key(v) in keys for v in mention_pattern.finditer(clause)):
            return "retracted"  # "That is 10 off ..., and I haven't found which of the two calculations has the slip" (holdout109):
            # read in any clause, beside other values and after one about another value, since it names both
        if not is_option_text and scoped_away(clause, keys):
            return "retracted"  # "That is the count for the problem as I first misread it", "4 is an upper estimate" (holdout105)
        if counterfactual_clause(clause) or (not letters and not labels and (
                OTHER_VALUE_CLAUSE.match(clause) or states_other_quantities(clause, answer, text[:end], text[end:end + 40]))
                                             and not ranks_a_runner_up(clause)):
            continue  # "For the related problem the answer would be 20", "That is 16 more than Ben's 8.", "(the quotient is 14)"
        if not letters and not labels and TICKED_CHECK.match(clause):
            continue  # "Sanity check: perimeter 2(9 + 6) = 30 ✓": a check done, not another answer (holdout11)
        others = [v for v in value_pattern.finditer(clause) if key(v) not in keys]
        if not letters and not labels:  # "wrong, I messed up step 2": the numeral names a step, no value (holdout12)
            others = [v for v in others if not names_a_part(clause, v.start()) and not rounds_answer(clause, v, answer)
                      and not of_a_denied_quantity(clause, v.start()) and not percent_base(clause, v, answer)]
        mentions = [v for v in mention_pattern.finditer(clause) if key(v) in keys]  # "5^2 = 25" checks 5
        if not letters and not labels:
            operated = [v for v in others if _operates_on(v.group(), keys) or _computes_answer(clause, v, keys)]  # "42 / 6 = 7": the answer divided, a check
            if operated:
                others = [v for v in others if v not in operated]
                mentions = sorted(mentions + operated, key=lambda v: v.start())
            if others and confirming_from == -1:
                confirming_from = confirming_check_start(text, end, stop, lambda said: [key(v) in keys for v in value_pattern.finditer(said)],
                                                         answer)
            if others and confirming_from is not None and first >= confirming_from:
                others = []  # "Second method: ... 100 + 80 + 72 = 252, the same.": a confirming check's work (later_values; #32)
        if mentions and _rejects_after_values(clause, mentions, others, bool(letters or labels)):
            return "retracted"  # "substituting x = 12 gives 3 but -3, so this root is extraneous"
        for mention in mentions:
            if _denied_before(clause[:mention.start()]) or _DENIAL_AFTER.match(clause[mention.end():]) and not kept_open(clause, mention.start(), mention.end()):
                return "negated"  # "42 is wrong", "anything but 42"
            if WITHDRAWN_OBJECT.search(clause[:mention.start()]):
                return "retracted"  # "D. ... ignore the D.", "42; scratch the 42" (holdout20)
            if declines_mention(clause[:mention.start()]):
                return "retracted"  # "**C**. ... I'm not actually picking C" (holdout103)
        if (not letters and not labels and CHECK_OPENER.match(clause) and not CORRECTING.search(clause) and not _withdraws(clause)
                and not REJECTED.search(clause) and not affirms_other(clause, lambda said: value_key(said) in keys)):
            checked_to = confirmed_check_end(_clauses(text, first, stop), text, lambda said: [key(v) in keys for v in value_pattern.finditer(said)]) or -1
            if checked_to > 0 or VERIFYING.match(clause):  # a check confirmed at its end (later_values; holdout52), or
                continue  # "Let me verify: LHS = 36 - 7 = 29, RHS = 24 + 5 = 29.": the sides of a check (holdout31)
        if (not is_option_text or option_text) and declined_in(clause, mentions[-1].end() if mentions else 0, others):
            return "retracted"  # the speaker declines to commit, in the letter's own clause too: "**D** (elastic), so I'll abstain" (#32)
        if not is_option_text and (below_even_belief(clause, keys) or called_no_answer(clause)):
            return "retracted"  # "Confidence: 0.2", "I'd put maybe 30 % on 72", "that box is decoration" (holdout103)
        if mentions and others and offered_together(clause, [m.span() for m in mentions], [v.span() for v in others]):
            return "conflicting"  # "42 and 48 both work", "Either B or D is correct" (clauses.offered_together; stop 65)
        if mentions and not _withdraws(clause[:mentions[-1].start()]):
            continue  # the clause restates or checks the answer: "6 \\times 7 = 42", "so 42 it is"
        if others and OTHER_CANDIDATES.search(clause):
            return "conflicting"  # "Other possible answers depending on interpretation: 48, 2, 14." (holdout73)
        if not mentions and OWN_ANSWER_WITHDRAWN.search(clause):
            return "retracted"  # "it might be B. I'll withdraw my answer rather than guess." (holdout76)
        denied: list[re.Match] = []
        denied_aside = None  # the parenthesis right after a denied value explains that value: "not 120 (that would be 150%)"
        for value in others:
            if denied_aside is not None and denied_aside[0] <= value.start() < denied_aside[1]:
                continue
            if (_denied_before(clause[:value.start()]) or _DENIAL_AFTER.match(clause[value.end():]) and not _DOUBT_AFTER.match(clause, value.end())
                    and not kept_open(clause, value.start(), value.end())  # "48 is not wrong" leaves it open (.double_negation)
                    or denied and _DENIED_LIST_GAP.match(clause, denied[-1].end(), value.start())):  # "(not 41 or 43)"
                denied.append(value)
                aside = _ASIDE_AFTER.match(clause, value.end())
                denied_aside = (aside.start(), aside.end()) if aside is not None else None
                continue  # "(not 18)": another value denied
            if not letters and not labels and explains_denied(clause, value, denied):
                continue  # "(not 8: 2^8 = 256)": why the denied value is wrong, no answer of its own (holdout11)
            share = None if letters or labels else degree_of_belief(clause, value)
            if share is not None and share > 0.5:
                continue  # "\\boxed{84} [confidence 0.95]": how sure the writer is (one half or less stays a conflict)
            if (_stated(clause, value, strong_only=not one_value) or offers_alternative(clause, value.end(), value.start())
                    or letters and _OR_OPENS.fullmatch(clause, 0, value.start())  # "C. New machinery? Or A — used cars ..." (holdout89)
                    or (not letters and not labels and STATED_AS_ASKED.search(clause, value.end()))
                    or (not letters and not labels and measure_closes(clause, value.end()) and _withdraws(clause[:value.start()]))):
                return "conflicting"  # "It's 73.", "I meant 45", "45 also works.", "No, I was wrong: it is 39 cm."
        if not letters and not labels and not others and not mentions:
            spelled = _spelled_value(clause)  # "... oh wait, it's actually forty-five."
            if spelled is not None and value_key(str(spelled)) not in keys:
                return "conflicting"
        # a clause that opens by pausing ("Moment, das stimmt nicht.", "Wait, that's wrong.") is no option's own text
        if is_option_text and _PAUSE_OPENER.match(clause):
            is_option_text = False
        if not others and not is_option_text and (not follows_other and (_withdraws(clause) or denies_by_reference(clause) or wavers(clause))
                                                  or HANDED_OVER.search(clause)):
            return "retracted"  # "Kidding!", "That was a typo.", "Ignore the above.", "This answer is not correct."; the
            # speaker wavering on it in any later clause, not only the next ("42. Seven sixes. I'm not committing to it.")
        # a clause of judgement right after one about another option goes on about that option: "(Amoxicillin, option A,
        # doesn't work ...; a classic exam trap.)" (holdout20)
        # (a count in a description, "the practice version with 16 eggs", is about no other value: holdout28)
        about_other = not mentions and any(not re.match(r"\s*[^\W\d_]", clause[v.end():]) for v in others)
    return ""


_ASIDE_AFTER = re.compile(r"\s*\([^()]{0,120}\)")

# A spaced dash before a contrast: "360 ✓ -- but the second line is wrong, 264 is right", "— yet 45 is what it asks".
_CONTRAST_DASH = re.compile(r"\s(?:--?|[\u2013\u2014])\s*(?=(?:but|yet|however|though|although)\b)", re.IGNORECASE)


def _split_at_contrast(text: str, parts: list[tuple[int, int]], names_answer) -> list[tuple[int, int]]:
    """``parts`` (clauses after the answer) with each clause cut at a spaced dash before a contrast whose second half
    does not name the answer (``names_answer(said)``): "Double-check: 263 + 97 = 360 ✓ -- but the second line is
    wrong, 264 is right." holds a check and a second statement, each read on its own (stop 61; as a full stop
    before "But" is). A contrast that names the answer ("a 6% rate would give $530 -- but at the stated 5% the
    balance is $525") turns back to it, and the sentence stays one clause that restates it."""
    split: list[tuple[int, int]] = []
    for first, last in parts:
        for dash in _CONTRAST_DASH.finditer(text, first, last):
            if not names_answer(text[dash.end():last]):
                split.append((first, dash.start()))
                first = dash.end()
        split.append((first, last))
    return split


_CLAUSE_LEAD = re.compile(r"[\s,.;:!?\-–—*>]*")


def retraction_opening(text: str, start: int = 0) -> tuple[int, bool] | None:
    """A retraction that opens the clause at ``text[start:]`` (after spaces and punctuation): where it ends and
    whether it is explicit, as :func:`retraction_after`; None when the clause opens otherwise. For free text (a
    report, an explanation after a program), where a retraction word inside a sentence ("after correction for
    rotation", "error correction") takes nothing back."""
    at = _CLAUSE_LEAD.match(text, start).end()
    opening = _RETRACTION.match(text, at)
    if opening is None:
        return None
    explicit = _EXPLICIT.match(text, at)
    return _PUNCTUATION_RUN.match(text, explicit.end() if explicit else opening.end()).end(), explicit is not None


# a clause that disowns what came before it without naming it: "cannot be right.", "? Wrong.", "That is false.",
# "Kidding!", "Hmm, I retract that": no subject of its own, or only a pronoun / the writer, then a denial or a word of
# withdrawal. A clause with its own subject ("Waiting is a mistake") judges that subject, not the text before it.
_DISOWNING_LEAD = re.compile(
    r"\A\W*(?:(?:hmm+|oh|well|sorry|okay|ok|so|but)\W+)*"
    r"(?:(?:that|this|it|which|all\s+(?:of\s+)?(?:that|this)|the\s+above|everything(?:\s+above)?|i)(?:'s|'m|\s+am|\s+is|\s+was|\s+are)?\W+)?",
    re.IGNORECASE,
)
_BARE_DENIAL = re.compile(
    r"\A(?:(?:can(?:'t|not)|could(?:n't|\s+not)|must(?:n't|\s+not))\s+be\s+(?:right|true|correct|it)|"
    r"(?:(?:is|was|are|were)(?:n't|\s+not)\s+|not\s+)(?:right|true|correct)|"
    r"(?:(?:is|was|are|were)\s+)?(?:wrong|incorrect|false|untrue|nope|(?:a|my)\s+(?:mistake|error|typo|trap|decoy|joke))|"
    r"made\s+(?:a|an)\s+(?:mistake|error|typo))\W*\Z",
    re.IGNORECASE,
)
# a word of withdrawal with no object or only a pronoun / "the above" as its object: "Kidding!", "I retract that"
_BARE_WITHDRAWAL = re.compile(
    r"\A(?:just\s+)?[A-Za-z']+(?:\s+(?:back|out))?(?:\s+(?:that|this|it|all\s+(?:of\s+)?(?:that|this)|the\s+above|"
    r"everything(?:\s+above)?|what\s+i\s+(?:said|wrote))(?:\s+(?:back|out))?)?\W*\Z",
    re.IGNORECASE,
)
_DISOWNING_WORDS = 8


def disowns_before(clause: str) -> bool:
    """Does ``clause`` (one clause of free text) take back the text before it without naming anything: a short
    clause whose subject is absent, a pronoun or the writer, then a denial ("cannot be right", "Wrong.", "That was a
    mistake") or a word of withdrawal with no object but a pronoun ("I retract that", "Kidding!", "Ignore the
    above")? A clause with a subject or object of its own ("Waiting is a mistake", "Ignore the pain") judges that,
    not the text before it."""
    if len(clause.split()) > _DISOWNING_WORDS:
        return False
    rest = clause[_DISOWNING_LEAD.match(clause).end():].strip()
    return bool(rest) and bool(_BARE_DENIAL.match(rest) or _BARE_WITHDRAWAL.match(rest) and _withdraws(rest))


# speed only: these searches end where the answer starts and are tried at every position of their window; a window
# without any word they need is not searched (regex_prefilter derives the words from each pattern; same results)
_NEGATED_BEFORE, _NEGATED_NEAR, _HEDGED_BEFORE = (prefiltered(p, remember=True) for p in (_NEGATED_BEFORE, _NEGATED_NEAR, _HEDGED_BEFORE))


# speed only (issue #35): searches skipped on texts that lack every set of words a match needs (same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "_WORLD_DOUBT _RETRACTION _EXPLICIT _NEGATION_BEFORE _NOT_EQUAL_BEFORE "
                "_DENIAL_AFTER _PAUSE_OPENER _EARLIER_ATTEMPT")

# speed only (issue #35): clause ends searched by skipping to the characters they consume (regex_scan; same results)
from polyreward.verifiers.regex_scan import scan_names  # noqa: E402

scan_names(globals(), "_SENTENCE_END")

# speed only (issue #35): the markup before an answer searched from the tail it can consume (regex_scan; same results)
from polyreward.verifiers.regex_scan import tail_scanned  # noqa: E402

_TIGHT_MARKUP_END = tail_scanned(_TIGHT_MARKUP_END)
