"""An answer under a hypothesis: given in a world the writer says is not the problem's.

"If the problem meant the perimeter, the answer would be 42", "Had the question asked for the sum, it would be 17",
"Were the sample random, D would be right", "As if the answer were 42", "Assuming the figure is drawn to scale (not
stated), we'd read off 12", "Suppose the dice were fair (the problem doesn't say). Then the value is 42", "Without the second condition, 7 would work", "Falls die Folge arithmetisch
ist, wäre das Ergebnis 8", "B would be correct if the question asked for the mean instead". :func:`counterfactual_clause`
says when a later clause gives another problem's answer ("For the related problem the answer would be 20"). Used by
:func:`.hedging.qualified` for math answers and option letters alike; see the comment below for the rule.

Reconstructed rule (ours), not a published algorithm. Every pattern runs on a window of at most 500 characters
around the answer, so the check costs the same on any completion.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

from polyreward.verifiers.clauses import ABBREVIATION_GUARD
from polyreward.verifiers.doubt_words import CONDITIONAL_WORDS
from polyreward.verifiers.follow_ups import OFFER
from polyreward.verifiers.regex_scan import first_ends, last_ends

# "If the problem meant the perimeter, the answer would be 42", "Had the question asked for the sum, it would be 17",
# "Were the sample random, D would be right", "In a world where the triangle is right-angled, ...", "As if the answer
# were 42", "Assuming the figure is drawn to scale (not stated), we'd read off 12", "Suppose the dice were fair (the
# problem doesn't say). Then the value is 42": the answer holds in a world the writer says is not the problem's. Read
# on the answer's sentence (and the one before when the answer's opens with "then"), by structure: a subjunctive
# opener (inverted "Had" / "Were", "as if", "in a world where"), or a condition whose clause says it is counterfactual
# (meant, instead, rather than, asked) with "would" / "'d" before the answer, or a condition the writer says the
# problem does not give ("(not stated)", "which the problem doesn't say", "(it may not be)", "But nothing says it is").
# A contrast between the hypothesis and the answer ends it ("If it asked for the perimeter, it would be 30, but it asks
# for the area, which is 42").
_SENTENCE_END = re.compile(ABBREVIATION_GUARD + r"(?:(?<!\d)\.(?!\d)|\.(?=\s|$))|[!?\n]")
_LEAD = r"\A[\W_]*(?:(?:so|and|but|well|then|ok|okay|now|hmm)\W+)?"
# an inverted "Had" / "Were" takes any subject ("Had I not dropped a sign", "Were the graph linear"); "Had to ..." is a
# past tense that dropped its subject, not an inversion
_SUBJUNCTIVE = re.compile(_LEAD + r"(?:(?-i:Had|Were|Wäre|Wären|Hätte|Hätten|Fosse|Fossero|Fuera|Fueran|Fût)\s+(?!to\b)[\w']+|(?-i:Should)\s+(?!I\b|we\b|you\b)[\w']+[^,?\n]{0,80},|"
                          r"(?:in\s+a\s+world\s+where|in\s+an?\s+alternate\s+(?:world|universe)|imagine|pretend)\b)"
                          r"|\bas\s+(?:if|though)\b", re.IGNORECASE)
_CONDITION_OPENER = re.compile(_LEAD + r"(?:if|assuming|suppose|supposing|provided|given\s+that|only\s+if|in\s+(?:the\s+)?case(?:\s+(?:where|that|of))?)\b",
                               re.IGNORECASE)
# a condition that removes part of the problem ("Without the second condition", "Ignoring the overlap", "If we dropped
# the constraint"): with "would" in the answer's sentence, the answer is that of another problem
_REMOVAL_OPENER = re.compile(_LEAD + r"(?:without(?!\s+loss\b)|ignoring|neglecting|disregarding|dropping|forgetting|if\s+(?:we|you|one)\s+(?:drop|ignor|neglect|forg[eo]t|remov)\w*)\b",
                             re.IGNORECASE)
# the same in the languages a policy switches to: a condition ("falls", "wenn", "si", "se", "если") with the
# conditional or subjunctive of "to be" in the answer's clause ("wäre", "sería", "serait", "sarebbe", "было бы")
_FOREIGN_CONDITION = re.compile(r"\A[\W_]*(?:falls|wenn|si|se|если)\b", re.IGNORECASE)
_FOREIGN_WOULD = re.compile(r"\b(?:wäre|wären|würde|sería|serían|serait|seraient|sarebbe|sarebbero|seria|daria|dariam|daría|darían|donnerait|darebbe|ergäbe|ergäben|было\s+бы|был\s+бы|была\s+бы|будь)\b",
                            re.IGNORECASE)
# ("were" is not one: "If we were to pair the terms, we would get 42" is an ordinary way to state an answer; nor is
# "asked" in a relative clause that says the value is the question's own: "the total, which is what is asked"; "If
# what is asked were the perimeter" and "If the sum is what was asked" still are)
_COUNTERFACTUAL_WORDS = re.compile(r"\b(?:meant|instead|rather\s+than|intended)\b|(?<!\bwhich is what is )(?<!\bwhich is what was )(?<!\bthat is what is )(?<!\bthat is what was )\basked\b",
                                   re.IGNORECASE)
_WOULD = re.compile(r"\b(?:would|we'd|it'd|I'd|you'd|they'd)\b", re.IGNORECASE)
UNSUPPORTED_PREMISE = re.compile(
    r"\b(?:not|never)\s+(?:\w+\s+)?(?:stated|given|specified|said|mentioned|guaranteed|known)\b"
    r"|\b(?:problem|question|statement|text|figure|prompt|task)\s+(?:doesn't|does\s+not|didn't|did\s+not|never)\s+(?:\w+\s+)?"
    r"(?:say|state|specify|give|mention|tell)(?:s)?\b(?!\s+otherwise)"
    r"|\bnothing\s+(?:\w+\s+)?(?:says|indicates|suggests|guarantees|tells)\b|\b(?:it|this|that|which)\s+(?:may|might)\s+not\s+(?:be|hold)\b"
    # "... if and only if the sequence starts at n = 1, which I couldn't determine": the writer cannot say it holds
    r"|\b(?:which|that|this)\s+(?:I|we)\s+(?:couldn't|could\s+not|can't|cannot|didn't|did\s+not|don't|do\s+not)\s+(?:\w+\s+)?"
    r"(?:determine|tell|know|verify|check|confirm|establish|decide|find\s+out)\b",
    re.IGNORECASE,
)
# "only if" right after the value and its unit: the value holds under a condition, not as the answer
_ONLY_IF_AFTER = re.compile(r"[\s$*)}]*(?:[^\W\d_][\w/²³^.-]*[^\S\n]+){0,3}?only[^\S\n]+(?:if|when)\b", re.IGNORECASE)
_CONTRAST_WORD = re.compile(r"\b(?:but|however|whereas|yet|instead,)\b", re.IGNORECASE)
# a value the writer offers the reader, not states: the offer before it (:data:`.follow_ups.OFFER`) or the reader's
# wish after it ("I can change my answer to A (femur) if you prefer")
_IF_YOU_WISH = re.compile(r"\bif\s+you(?:'d|\s+would)?\s+(?:prefer|like|want|wish)\b", re.IGNORECASE)
# ... right after the value, or after its gloss in brackets ("A (femur) if you prefer"), not in a later sentence
_WISH_AFTER = re.compile(r"[\s$*)}]*(?:\([^()\n]{0,40}\)[\s*]*)?,?\s*" + _IF_YOU_WISH.pattern, re.IGNORECASE)


def _sentence_around(text: str, start: int, end: int) -> tuple[str, str, str]:
    """The sentence before the answer's, the answer's sentence up to the answer, and the rest of it plus the next."""
    window = text[max(0, start - 300):start]
    ends = last_ends(_SENTENCE_END, window, 2)  # (speed: the last two sentence ends are all that is read)
    own = window[ends[-1]:] if ends else window
    previous = window[ends[-2] if len(ends) >= 2 else 0:ends[-1]] if ends else ""
    after = text[end:end + 200]
    return previous, own, after

# (speed: compiled once, not looked up in re's cache at every call) the answer's sentence opening "then", a sentence
# closed at the end of the text, "would", a condition word, a sentence opening with a condition
_THEN_OPENING = re.compile(r"[\W_]*then\b", re.IGNORECASE)
_CLOSED_AT_END = re.compile(r"[.!?)\]}$]\s*\Z")
_WOULD_WORD = re.compile(r"\bwould\b", re.IGNORECASE)
_CONDITION_STATED = re.compile(r"\b(?:if|assum\w*|provided|conditional\s+on|contingent\s+on)\b", re.IGNORECASE)
_CONDITION_OPENING = re.compile(r"[\W_]*(?:but\s+)?(?:only\s+)?(?:if|assuming|provided|when)\b", re.IGNORECASE)


def hypothetical(text: str, start: int, end: int) -> bool:
    """Is the answer at ``text[start:end]`` given under a hypothesis the writer says is not the problem's (see above)?"""
    previous, own, after = _sentence_around(text, start, end)
    stops = first_ends(_SENTENCE_END, after, 2)
    rest = after[:stops[0]] if stops else after
    following = after[stops[0]:stops[1]] if len(stops) > 1 else after[stops[0]:] if stops else ""
    if _CONTRAST_WORD.search(own):
        return False
    clause = own.rsplit(";", 1)[-1]  # "Without the restriction there would be 48; with it, the answer is 36" is the case
    if _SUBJUNCTIVE.search(own) and (clause is own or _SUBJUNCTIVE.search(clause) or _WOULD.search(clause)):
        return True  # (a "Were ..." case closed by ";" before an indicative clause is over: "Were the time 3 hours, the
        # speed would be 60; it is 2.5 hours, so the speed is 72", holdout105's note)
    if OFFER.search(own) or _IF_YOU_WISH.search(text[start:end]) or _WISH_AFTER.match(rest):
        return True  # "Let me know if you'd like me to change my answer to A instead!", "I can switch to A if you prefer": an offer (holdout86)
    spoken = clause + text[start:end] + rest  # an option reader's match holds its own words ("the answer would be C")
    if (_REMOVAL_OPENER.search(clause) or _FOREIGN_CONDITION.search(clause)) and (_WOULD.search(spoken) or _FOREIGN_WOULD.search(spoken)):
        return True  # "Without the second condition, 7 would work", "Falls ..., wäre das Ergebnis 8"
    if _WOULD.match(rest.lstrip(" $*)}")) and _TRAILING_COUNTERFACTUAL.search(rest):
        return True  # "B would be correct if the question asked for the mean instead"
    conditioned = _CONDITION_OPENER.search(own) is not None
    if (_CASE_OPENER.search(own) or _HAN_CONDITION.search(own)) and (other := _OTHERWISE_NEXT.match(rest)) and not _restates(
            text[start:end], rest[other.end():]):
        return True  # "If x is negative, the answer is -3; otherwise there is no solution.": one case, not the answer
    if _WOULD.match(rest.lstrip(" $*)}")) and _REMOVAL_AFTER.search(rest.split(";", 1)[0]):
        return True  # "36 would be the count without the restriction": another problem's answer, stated first
    if _WOULD.search(clause) and _ONLY_IF_AFTER.match(rest):
        return True  # "it would be 67 mL/min only if actual weight is appropriate": a value under a condition left open (holdout55)
    if conditioned and _WOULD.search(clause) and _COUNTERFACTUAL_WORDS.search(own):
        return True
    if conditioned and _WOULD.search(clause) and _DENIED_IN_RELATIVE.search(clause):
        return True  # "If the triangle were right-angled, which it is not, the area would be 84" (holdout105)
    if _THEN_OPENING.match(own) and _CONDITION_OPENER.search(previous):
        own, conditioned = previous + own, True  # "Suppose ... (the problem doesn't say). Then the value is 42."
    if (conditioned or _TRIAL_OPENER.search(clause)) and _REFUTED.search(rest + following):
        return True  # "Suppose the answer is 17. Then 17^2 = 289 \\neq 300, a contradiction.": a supposition refuted
    if _TRIED.search(clause) and not following.strip() and not _CLOSED_AT_END.search(rest):
        return True  # "Next, let's try $36$ and substitute it into the original": a trial cut off before its outcome (holdout43)
    if (conditioned or _SUBJUNCTIVE.search(own)) and _WOULD.search(clause) and _PREMISE_DENIED.match(following):
        return True  # "If the triangle were equilateral, the area would be 17. It isn't equilateral."
    if _LATE_CONDITION.search(rest) and _PREMISE_FAILS.search(rest):
        return True  # "3/4, assuming independence -- which fails here"
    if _SUBJUNCTIVE.search(previous + own) and _WOULD_WORD.search(rest) and not _CONTRAST_WORD.search(previous):
        return True  # "Were the sample random, D would be right"
    if (conditioned or _CONDITION_STATED.search(own + rest)) and (
            UNSUPPORTED_PREMISE.search(own + rest) or UNSUPPORTED_PREMISE.search(following)):
        return True
    if _CONDITION_OPENING.match(following) and UNSUPPORTED_PREMISE.search(following):
        return True  # "42. (Only if the figure is drawn to scale, which the problem doesn't say.)"
    return (conditioned or _WOULD.search(own) is not None) and UNSUPPORTED_PREMISE.search(following) is not None


# a case split: the answer's sentence opens with a condition ("If", "如果", "若") and the next clause opens with the other
# case ("otherwise", "else", "否则"): the writer gives the answer of one case, not of the problem
_HAN_CONDITION = re.compile(r"\A[\W_]*(?:如果|假如|假设|若是|若|要是|倘若)")
_OTHERWISE_NEXT = re.compile(r"[\s$*)}\]]*[;,.:]?\s*(?:(?:otherwise|else|if\s+not|sinon|sonst|andernfalls|altrimenti|de\s+lo\s+contrario|en\s+caso\s+contrario)\b|否则|不然|要不然)",
                             re.IGNORECASE)
_CASE_OPENER = re.compile(_LEAD + r"(?:if|when|in\s+case)\b", re.IGNORECASE)


def _restates(answer: str, clause: str) -> bool:
    """Does the other case's clause give the same value ("otherwise, brute force also gives 42")? Then it is no split."""
    value = re.sub(r"\\boxed\s*\{|[{}$*\s]", "", answer).strip(".,;:!?")
    return bool(value) and re.search(r"(?<![\d.])" + re.escape(value) + r"(?!\.?\d)", clause) is not None


# a removal after the answer's "would": "36 would be the count without the restriction", "ignoring the overlap"
_REMOVAL_AFTER = re.compile(r"\b(?:without(?!\s+loss\b)|ignoring|neglecting|disregarding|dropping)\b", re.IGNORECASE)

# A supposition tested and refuted: the answer's clause opens with a supposition ("Suppose", "Assume", "Let's test",
# "Try") and the rest of its sentence or the next one finds a contradiction or an inequality ("a contradiction",
# "17^2 = 289 \\neq 300", "absurd"): a reductio or a failed trial, not the answer
_TRIAL_OPENER = re.compile(_LEAD + r"(?:assume|let(?:'s|\s+us)\s+(?:test|try|check)|(?:we|I)\s+(?:test|try)|try(?:ing)?|test(?:ing)?|plug(?:ging)?\s+in)\b",
                           re.IGNORECASE)
# the value right after a verb of trying: "let's try $36$", "we test 8", "I'll try x = 5"
_TRIED = re.compile(r"\b(?:let(?:'s|\s+us)\s+(?:try|test|check)|(?:we|I)(?:'ll|\s+will)?\s+(?:try|test)|try(?:ing)?|test(?:ing)?)"
                    r"(?:\s+(?:x|n|it|with))?\s*(?:=\s*)?[$*\\(\s]*\Z", re.IGNORECASE)
_REFUTED = re.compile(r"\bcontradict\w*|\babsurd\w*|\\(?:neq|ne)(?![A-Za-z])|≠|!=", re.IGNORECASE)
# a hypothesis whose premise the next sentence denies: "It isn't equilateral.", "But the dice aren't fair."
_PREMISE_DENIED = re.compile(r"[\W_]*(?:but\s+)?(?:it|this|that|they|he|she|which|the\s+\w+)\s+(?:is|was|are|were|does|do|did|has|have|had)(?:n't|\s+not)\b",
                             re.IGNORECASE)
# a condition after the answer that the writer then says fails: "3/4, assuming independence -- which fails here"
_LATE_CONDITION = re.compile(r"\b(?:if|assum\w*|provided|given\s+that|supposing)\b", re.IGNORECASE)
_PREMISE_FAILS = re.compile(r"\b(?:which|that|this|it)\s+(?:\w+\s+)?(?:fails|failed|does(?:n't|\s+not)\s+hold|doesn't\s+apply|"
                            r"is(?:n't|\s+not)\s+(?:true|the\s+case|so|given)|is\s+false)\b", re.IGNORECASE)
# a condition the writer denies in a relative clause of its own (holdout105): "If the triangle were right-angled,
# which it is not (...), the area would be 84", "If the dice were fair -- which they aren't -- ...", "(it isn't)"; the
# negation ends the relative clause, so "which it is not hard to check" denies nothing
_DENIED_IN_RELATIVE = re.compile(r"(?:\b(?:which|as)\s+|\(\s*)(?:it|they|this|that|he|she)\s+(?:is|are|was|were|does|do|did)(?:n't|\s+not)"
                                 r"(?=\s*(?:[,.;:)(\]\u2014\u2013-]|\Z))|\bwhich\s+(?:is|was)(?:n't|\s+not)\s+the\s+case\b", re.IGNORECASE)
# "would ... if the question asked for the mean instead": a condition after the answer that says it is counterfactual
_TRAILING_COUNTERFACTUAL = re.compile(r"\b(?:if|had|were|unless)\b[^.;!?\n]{0,120}?" + _COUNTERFACTUAL_WORDS.pattern, re.IGNORECASE)
# a clause in the conditional mood under a condition that names the problem ("For the related problem with n = 5 the
# answer would be 20", "Without the restriction it would be 48", "If the rate were 10%, it would be 40"): it gives the
# answer of another problem, never another answer to this one
_CONDITION_WORD = re.compile(r"\b(?:if|for|with|without|had|were|ignoring|in\s+case|under|assuming|provided|unless)\b", re.IGNORECASE)
_NAMES_PROBLEM = re.compile(r"\b(?:the|a|an|this|that|each|every|its|no)\b|[\d=<>\\^$%]", re.IGNORECASE)
# ... and that the writer marks as not this problem: "related", "different", "were", "without", "instead" ("Under the
# stated conditions the answer would be 45" is this problem's, so another answer)
_OTHER_PROBLEM = re.compile(r"\bwith\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s+[a-z]+|"  # "with 4 books it would be 24" (holdout20)
                            r"\b(?:related|different|other|another|similar|modified|variant|version|instead|rather\s+than|were|had|"
                            r"without|ignoring|neglecting|dropping|asked|meant|intended|hypothetically)\b", re.IGNORECASE)


def counterfactual_clause(clause: str) -> bool:
    """Does ``clause`` state a value under a condition in the conditional mood, a condition that names something
    of the problem rather than the writer ("if you count correctly" names nothing): another problem's answer?"""
    would = _WOULD.search(clause)
    if would is None or _OTHER_PROBLEM.search(clause) is None:
        return False
    for condition in _CONDITION_WORD.finditer(clause):
        named = clause[condition.end():condition.end() + 60] if condition.start() > would.start() else clause[condition.end():would.start()]
        if _NAMES_PROBLEM.search(named) and not re.match(r"\s+(?:I|I'm|I've|my|me)\b", named):
            return True
    return False


# a condition after the answer that goes on to its own consequent value is a second, conditional answer: "28 unless
# they are baker's dozens, then 31", "C unless the patient is unstable, in which case D" (holdout50) -- as "28 if plain
# dozens, 31 if baker's dozens" and "28, or 31 if ..." are; a condition with no value of its own ("28 unless the
# dozens are baker's dozens") gives none (a condition on the writer, "unless I misread", is doubt: hedging.py)
_CONSEQUENT_VALUE = re.compile(
    r"(?:[,;:\-–—]\s*|\s+)(?:then|in\s+(?:which|that|this)\s+case|whereupon)[\s,:]*"
    r"(?:(?:it|that|the\s+(?:answer|result|total|count|value))\s*(?:'s|is|would\s+be|will\s+be|becomes)\s+)?(?:[*$(\s]|\\boxed\{)*"
    r"(?:[-−+]?\.?\d|\\(?:frac|dfrac|sqrt)\b|(?:option\s+|choice\s+)?(?-i:[A-Z])(?![\w'’])(?!(?<=[AI])\s+[a-z]))",
    re.IGNORECASE)


# ... and a second case with its value before its own condition, the value's unit between: "180 km if km/h, 290 km if
# mph" (holdout95), "3,75 € si ..., 4 € si ..." -- as "28 if plain dozens, 31 if baker's dozens" is without a unit
_SECOND_CASE = re.compile(r"[,;]\s*(?:or\s+|and\s+|but\s+)?(?:[$€£¥₹]\s*)?[-−+]?\.?\d[\d.,]*(?:[^\S\n]*(?:[^\W\d_][\w/°%²³]*|[$€£¥₹])){0,2}[^\S\n]+"
                          r"(?:if|when|unless|for|" + CONDITIONAL_WORDS + r")\b", re.IGNORECASE)


def consequent_value(sentence: str) -> bool:
    """Does ``sentence`` -- the rest of the answer's sentence, opening with a condition ("unless ...", "if ...") --
    go on to a value of its own ("..., then 31", "..., in which case D", "..., 290 km if mph"): another answer under
    another condition?"""
    return _CONSEQUENT_VALUE.search(sentence) is not None or _SECOND_CASE.search(sentence) is not None


# speed only (issue #35): searches skipped on texts that lack every set of words a match needs (same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "_FOREIGN_WOULD _COUNTERFACTUAL_WORDS _WOULD UNSUPPORTED_PREMISE _CONTRAST_WORD _REFUTED _LATE_CONDITION _PREMISE_FAILS "
                "_TRAILING_COUNTERFACTUAL _OTHER_PROBLEM _TRIED")

# speed only (issue #35): clause ends searched by skipping to the characters they consume (regex_scan; same results)
from polyreward.verifiers.regex_scan import scan_names  # noqa: E402

scan_names(globals(), "_SENTENCE_END")

# speed only (issue #35): the opening branch is matched at the start only, "as if" searched where its words are (same results)
from polyreward.verifiers.regex_prefilter import lead_anchored  # noqa: E402

_SUBJUNCTIVE = lead_anchored(_SUBJUNCTIVE)
