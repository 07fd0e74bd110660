"""Soft hedges and second-hand answers: an answer the writer offers without vouching for it.

"The answer might be 42.", "\\boxed{42} (just a guess)", "42, though I could be wrong", "C? Not sure.", "42 ≠ answer",
"\\boxed{42}, if memory serves", "My friend says 42", "\\boxed{42}. Or not.": a remark attached to the answer itself
makes it a possibility or somebody else's answer, not the writer's. Read structurally, in two places only:

* **the answer's own clause, before it**: an epistemic modal ("might be", "maybe", "perhaps", "my guess"), the
  writer's own doubt ("I can't be certain, but"), a weak belief of the writer's ("I reckon", "I suspect", "I'd
  wager"), a condition on the writer rather than on the problem ("If I had to pick,", "As far as I can tell,"), or the
  answer given as what *someone else* says, thinks or claims ("My friend says", "Reddit thinks", "According to
  the answer key");
* **the rest of that clause and the one clause right after it**: a word of doubt ("(unverified)", "I haven't
  double-checked this", "(low confidence)"), a "?" closing a short clause or a question about the answer ("Is that
  right?", "Or is it?"), "≠" right after the value, a bare modal ("(possibly)", "Then again, maybe not"), a bare
  negation ("Not!"), an "or" that offers no other value ("Or not.", "or thereabouts"), a condition on the writer
  ("if memory serves", "unless I messed up", "assuming I didn't slip up"), a disclaimer with the writer as object
  ("don't quote me"), a confidence under one half ("I'm only 30% confident"), or the answer attributed to someone
  else ("said no one ever", "is what a careless student would write").

Not hedges: a degree of belief that still commits ("probably", "likely", "most likely X" -- MedQA's own phrasing;
"I think", "I believe"), a modal in an earlier clause (reasoning before the final statement), a modal or a
second-hand answer before a contrast ("B could be considered, but the answer is C", "My friend said 45, but the
answer is 42"), a condition on the problem ("assuming the coin is fair", "if we count the empty set"), a clause that
is a check (a computation "6 \\times 7 = 42", or the words check / verify / confirm), a question to the reader
("Does that help?"), and anything before an answer block or an "Answer:" / "Final answer:" heading, or before "final answer is"
after a contrast ("Not 100 % sure, but my final answer is C"), and doubt resolved in the answer's clause or the next by
the writer's certainty about it ("I rather think it's C -- and on reflection, I'm quite sure of it"; :mod:`.registers`).

**The vocabulary.** Which words express doubt cannot be read off the structure, so the few word classes the rules
need live here, in one place: the epistemic modals (with their French, German, Spanish, Italian, Polish, Russian,
Chinese and Japanese forms, since a policy switches language as readily as it changes words), the verbs of weak
belief and of reporting, words of doubt and a short list of idioms of approximation and luck ("ballpark", "give or
take", "fingers crossed", "a shot in the dark", "a grain of salt") that no structure gives away. Everything else is
structure: whose condition, whose words, what stands alone in a clause.

Reconstructed from how such completions read; not a published algorithm. Every pattern runs on a window of at most
two :data:`~.clauses.WINDOW` lengths, so the checks cost the same on any completion.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

from polyreward.verifiers.clauses import CHECK, MARKUP_START, OWN_CLAUSE_END, WINDOW, WORDS, WRITER, clause_before, clauses, window_last_end
from polyreward.verifiers.hypothetical import hypothetical
from polyreward.verifiers.memo import memoized_text
from polyreward.verifiers.source_words import reported_by_another
from polyreward.verifiers.doubt_words import MAYBE_WORDS, UNSURE_WORDS
from polyreward.verifiers.reaffirmation import wavers, without_reaffirmed
from polyreward.verifiers.registers import certainty_end, note_section
from polyreward.verifiers.withdrawal_words import FAULT_NOUN
from polyreward.verifiers.unasserted import asked_or_disowned_source, low_confidence, names_chance, unasserted_before, without_restated_chance

# --- the vocabulary (the only word lists of the soft-hedge rules; see the module docstring) --------------------------
MODAL_WORDS = (
    r"maybe|perhaps|possibly|peut-[eê]tre|vielleicht|eventuell|quiz[aá]s?|tal\s+vez|talvez|forse|mo[zż]e|"
    r"может\s+быть|возможно|наверное|可能|也许|或许|大概|たぶん|多分|かもしれ\w*|"
    # the conditional of "can" as "could be": "potrebbe essere 5", "podría ser", "pourrait être", "könnte", "poderia"; Korean 아마
    r"potrebbe|podr[ií]a|pourrait|k[öo]nnte|poderia|아마|"
    # holdout10: "maybe" in Turkish, Indonesian / Malay, Vietnamese ("có thể là", could be), Hindi and Arabic
    r"belki|mungkin|barangkali|có\s+thể\s+là|शायद|ربما|"
    + MAYBE_WORDS  # holdout18: the other languages' "maybe" (doubt_words)
)
# "I reckon 42", "I'd wager 42": a belief the writer calls weak (belief that commits -- think, believe -- is not here)
# (holdout103) "I'd bet on it", "I'd bet my lunch on it", "I'd bet a good amount on that one": a stake put on the answer
# already given is confidence, not a weak belief -- unless the stake is small or a share ("I'd bet a little on it",
# "I'd bet 30 % on that", read by disowned_answers)
_STAKED = r"(?!\s+(?:(?!(?:a\s+)?(?:little|bit|small|tiny|few|couple|penny|cent|dime|nickel)\b)[^\W\d]['\w]*\s+){0,4}on\s+(?:it|that|this)\b)"
_WEAK_BELIEF = r"\b(?:I|I'd|we|we'd)\s+(?:[\w']+\s+)?(?:reckon|suspect|wager|bet" + _STAKED + r"|surmise|presume|gather|imagine)\b"
# "My friend says 42", "Reddit thinks it's C": a verb that reports someone's answer
_REPORTING = (r"(?:says?|said|claims?|claimed|thinks?|thought|believes?|believed|reckons?|suggests?|suggested|insists?|"
              r"insisted|answered|writes?|wrote|votes?|voted|swears?|swore|returns?|returned|lists|listed|states|stated|reports|reported|"
              r"told|tells|assured|assures|informed|informs|contends?|contended|alleges?|alleged|maintains?|maintained|argues?|"
              r"argued|asserts?|asserted|posits?|posited|hints?|hinted|impl(?:y|ies|ied))")
# whose report is the writer's own work, not a second-hand answer: "I'd say", "the formula says", "the table shows"
_OWN_SOURCE = re.compile(
    r"\A(?:I|I'd|I'll|we|we'd|we'll|us|you'd|so|then|thus|hence|therefore|and|but|or|which|that|this|it|who|let's|"
    r"formula|formulas|theorem|lemma|rule|identity|definition|equation|equations|calculation|computation|arithmetic|math|"
    r"work|derivation|proof|check|table|result|answer|problem|question|statement|hint|the|a|an|my|our|final|correct|right|best|"
    r"no|not|do|don't|to|will|would|should|must|can|could|may|might|also|here|now|just|really|i'll)\Z",
    re.IGNORECASE,
)
_DOUBT = re.compile(
    r"\b(?:(?<!\bno\s)(?<!\bno\ssecond-)(?<!\bno\ssecond\s)(?<!without\s)(?<!without\ssecond-)(?<!\bnot\sa\s)guess\w*|(?<!\bnot\s)(?<!n't\s)(?:unsure|uncertain)|unverified|not\s+(?:verified|checked|confirmed)|unconfirmed|speculat\w*|"
    r"no\s+idea|don't\s+know|idk|dunno|no\s+clue|not\s+a\s+clue|tentativ\w*|supposedly|allegedly|presumably|apparently|"
    r"ballpark|give\s+or\s+take|thereabouts|fingers\s+crossed|shot\s+in\s+the\s+dark|grain\s+of\s+salt|something\s+like|"
    r"(?:don't|do\s+not|doubt|no\s+longer|can't|cannot|never)\s+(?:\w+\s+)?(?:think|believe|trust|buy)\s+(?:so|it|that|this)|out\s+of\s+my\s+depth|"
    # "(which I doubt)", "I seriously doubt it": the writer doubts; "unproven", "untested": the answer is not established
    r"(?:I|we)\s+(?:\w+\s+)?doubt(?:\s+(?:it|that|this))?(?=\s*[).,;!?]|\s*\Z)|unprov(?:en|ed)|untested|unsubstantiated|"
    # "I may have inverted the ratio", "might have mixed up the speeds": the writer's possible error, by its head verb
    r"(?:might|may|could)\s+have\s+(?:\w+\s+)?(?:invert\w*|mix\w*|swap\w*|switch\w*|confus\w*|mis\w+|dropp\w*|forg[eo]t\w*|"
    r"miss\w*|botch\w*|mess\w*|flipp\w*|reversed|overlook\w*|double[\s-]count\w*)|"
    # "the compounding could push it up or down": the value itself may move either way
    r"(?:could|might|may|can)\s+(?:\w+\s+){0,3}?(?:up\s+or\s+down|either\s+way|higher\s+or\s+lower|more\s+or\s+less)|"
    r"(?:might|may|could)(?:\s+\w+){0,2}?\s+(?:be\s+)?(?:wrong|off|incorrect|mistaken|inaccurate|misremembering)|"
    # "hard to say", "a coin flip", "provisional", "the sanity check failed": the same class, said another way
    r"(?:hard|difficult|impossible|tough)\s+to\s+(?:say|tell|know|call|be\s+sure)|coin[\s-]?(?:flip|toss)|toss-?up|"
    r"fifty-fifty|provisional\w*|check\w*\s+(?:failed|fails)|failed\s+(?:the\s+|my\s+)?(?:sanity\s+)?check)\b"
    r"|(?:\bnot|\bcannot|\b[a-z]+n't|\bnever|\bno\s+longer)\s+(?:(?!(?:more|any)\b)\S+\s+){0,2}(?:sure|certain|confident|convinced|persuaded)\b|" + _WEAK_BELIEF + r"|[🤷🤔❓❔⁉‽🤞😬ツ]",
    re.IGNORECASE,
)
# doubt that is about the answer whoever says it; the other words of doubt are the writer's only with "I" / "we" or
# with no subject of their own ("(not sure)"): "the evidence is uncertain, so the answer is maybe" stays an answer
_ANSWER_DOUBT = re.compile(
    r"guess|unverified|unconfirmed|speculat|unprov|untested|unsubstantiated|(?:could|might|may|can)\s+(?:\w+\s+){0,3}?(?:up\s+or|either|higher)|not\s+(?:verified|checked|confirmed)|(?:might|may|could)\b|idk|dunno|no\s+clue|"
    r"not\s+a\s+clue|tentativ|supposedly|allegedly|presumably|apparently|ballpark|give\s+or|thereabouts|fingers|shot\s+in|grain\s+of|something|"
    r"hard\s+to|difficult\s+to|impossible\s+to|tough\s+to|coin|toss|fifty|provisional|check\w*\s+fail|failed\s+|"
    r"no\s+idea(?!\s+(?:why|how|what|where|who|whether|if)\b)|I\b|I'd\b|we\b|we'd\b|[🤷🤔❓❔⁉‽🤞😬ツ]",
    re.IGNORECASE,
)
# Idioms and word classes that doubt an answer whoever utters them, so no subject is needed (each is a *class*, named
# by its head words, not a list of whole sentences; a new idiom built on one of these heads is read too):
#   hearsay        "reportedly", "rumour has it", "it's just hearsay" (the noun as a source, not the legal term)
#   intuition      "call it a hunch", "my gut says", "instinct tells me", "in my bones", "I have a feeling"
#   chance         "a shot / stab / swing in the dark", "a wild swing", "a Hail Mary", "on a wing and a prayer",
#                  "out on a limb", "see if it sticks", "if the stars align", "knock on wood", "a long shot", "a leap of faith"
#   approximation  "more or less", "roughly speaking", "\\boxed{42}, roughly." ("roughly 76" is a forecast's style and
#                  commits, "roughly twice the estimate" compares)
#   risk           "at your own risk", "buyer beware", "caveat emptor", "a pinch of salt", "for what it's worth",
#                  "no guarantees", "no promises", "can't promise", "without warranty"
#   provisional    "draft / placeholder / preliminary / interim answer", "for now", "will revisit", "pending a check",
#                  "to be checked", "previous attempt"
#   unfinished     "I couldn't finish / reproduce / prove it", "inconclusive", "undetermined", "ran out of time",
#                  "can't decide", "torn between"
#   sarcasm        "yeah, right", "and pigs fly", "said no one ever" (the last one is read as a report)
#   other tongues  "pas sûr", "nicht sicher", "no estoy seguro", "não tenho certeza", "non sono sicuro", "не уверен",
#                  "不确定", "没把握", "自信がない", and "I don't know": "no lo sé", "je ne sais pas", "weiß nicht", "не знаю"
# the public whose consensus is hearsay, not the writer's panel ("Forum consensus: 120")
PUBLIC_SOURCES = ("forum", "online", "internet", "web", "reddit", "community", "public", "popular", "crowd")
# a consensus label that is the writer's own: not after one of PUBLIC_SOURCES (for a reader with no clause to search)
OWN_CONSENSUS = "".join(rf"(?<!{word}\s)" for word in PUBLIC_SOURCES) + "consensus"
# what follows "consensus" when it labels the settled answer: an optional noun of what it settles (_SETTLED_NOUN:
# "answer", "verdict", "forecast", ...) and a short count in brackets, then a colon ("Consensus:", "Consensus answer
# (2 of 3):", "**Consensus:**") -- a heading, the writer's conclusion of the panel, agents or samples it wrote out (holdout124); "the consensus is C" stays others' vote, and so
# does a public's consensus under any form ("Forum consensus: 120", "the online consensus")
_SETTLED_NOUN = r"(?:\s+(?:answer|verdict|decision|pick|choice|forecast|prediction|estimate|value|result|diagnosis|findings?|labels?|report))?"
CONSENSUS_LABEL_AFTER = (_SETTLED_NOUN + r"(?:\s*\([^()\n]{1,30}\))?\s*(?:\*\*)?\s*[:：]"
                         # (a clause cut at the label's own word: "Consensus answer", or "Consensus " before the
                         # "answer:" an option reader anchors on)
                         r"|" + _SETTLED_NOUN + r"\s*(?<=\s)\Z")
IDIOM_DOUBT = re.compile(
    r"\b(?:reportedly|purportedly|ostensibly|rumou?r(?:s|ed)?\b(?:\s+has\s+it)?|hypothetical\w*|"
    # "hearsay" as the answer's source ("it's just hearsay", "(hearsay)", "based on hearsay"), not the legal term a
    # clause defines or applies ("FRE 801(c) defines hearsay as ...", "the definition of hearsay."; holdout68): alone it
    # doubts only opening its clause or bracketed
    r"(?:just|only|mere|pure|all|based\s+on|from|by|it's|that's|it\s+is|this\s+is)\s+hearsay|(?<![^\W\d_]\s)hearsay(?=\s*(?:[),;:!?\u2014\u2013]|\Z))|"
    r"hunch\w*|(?:my|a|the)\s+gut\b|gut[\s-]+(?:feeling|says|tells|instinct|check)|instincts?\s+(?:say|tell)\w*|(?:my|an?)\s+instinct\w*|"
    r"instinctively|intuition\s+(?:says|tells)|(?:my|an?)\s+intuition|in\s+my\s+bones|(?:I\s+have|I've\s+got|I\s+get)\s+(?:a|the)\s+(?:\w+\s+)?feeling|my\s+feeling\s+is|"
    r"(?:shot|stab\w*|shoot\w*|swing\w*|guess\w*)\s+in\s+the\s+dark|wild\s+(?:swing|stab|shot|guess)|(?:stab|swing|shot|punt)\s+at\b|"
    r"(?:my\s+)?(?:best|lucky)\s+(?:stab|swing|punt)|hail\s+mary|prayer|praying|on\s+a\s+limb|see\s+(?:if|whether)\s+(?:it|this|that)\s+sticks|"
    r"stars\s+align|knock\s+on\s+wood|touch\s+wood|long\s+shot|leap\s+of\s+faith|roll\s+of\s+the\s+dice|crystal\s+ball|"
    r"(?:your|my|one's)\s+own\s+risk|"
    r"(?:on|of)\s+the\s+order\s+of|(?:only|just|merely|roughly)\s+estimat\w*|buyer\s+beware|caveat\s+emptor|(?:pinch|grain|shaker|handful|spoonful|bucket|truckload)\s+of\s+salt|as\s+far\s+as\s+(?:I|you|one)\s+could\s+throw|(?:as\s+much|as\s+little|no\s+more)\s+weight\s+(?:\w+\s+){0,4}?as\s+(?:on|in|to)\b|weather\s+forecast|coin\s+(?:flip|toss)|(?:only|just|merely)\s+(?:guessed|guessing)|running\s+on\s+fumes|half-remembered|"
    r"for\s+what(?:ever)?\s+(?:it|that)(?:'s|\s+is)\s+worth|(?:no|not|without|can't|cannot|won't|couldn't)\s+(?:\w+\s+){0,3}?(?:guarantee\w*|promis\w*|warrant\w*|assurances?)|"
    r"(?:draft|placeholder|preliminary|interim|intermediate|partial|tentative|provisional|temporary)\s*(?:answer|result|value|guess|solution|pick)|"
    r"todo|fixme|tbd|remains?\s+to\s+be\s+(?:shown|prov\w+|checked|verified|seen|determined|confirmed|established)|"
    r"(?:previous|earlier|first|old|last)\s+(?:attempt|try|draft)\s*:|(?<!all\s)for\s+now|(?:will|I'll|to|must|should)\s+revisit|pending|"
    r"to\s+be\s+(?:checked|confirmed|verified|determined|revisited)|"
    r"inconclusive|undetermined|unresolved|incomplete|unfinished|ran\s+out\s+of\s+time|(?:can't|cannot|couldn't|unable\s+to)\s+(?:decide|separate|distinguish|choose|pick|tell\s+(?:\w+\s+)?apart)|undecided|torn\s+between|"
    r"yeah,?\s+right|pigs\s+(?:might\s+|can\s+|will\s+|do\s+)?fly|"
    r"take\s+it\s+or\s+leave\s+it|who\s+(?:knows|can\s+say)|bet\s+(?:the\s+(?:farm|house)|(?:your|my)\s+life)|mileage\s+may\s+vary|ymmv|"
    r"off\s+the\s+top\s+of\s+my\s+head|offhand|more\s+or\s+less|roughly(?=\s*(?:speaking\b|[.,;!?)]))|(?<=,\s)roughly(?=\s*\Z)|if\s+(?:that|this|it)\s+makes\s+(?:any\s+)?sense|"
    # "consensus" as others' vote ("the consensus is C"), not a named body's consensus cited as a source ("As the ADA
    # consensus puts it, ...", "the consensus statement recommends ..."; red team holdout_r40), nor the label heading the
    # settled answer of a panel the writer ran ("Consensus: B", "Panel consensus: the maximum is $3$", "Consensus answer
    # (2 of 3): 42": CONSENSUS_LABEL_AFTER, holdout124)
    r"meh|(?<!(?-i:[A-Z]{2})\s)consensus(?!\s+(?:statements?|guidelines?|reports?|documents?|recommendations?|criteria|definitions?|conference)\b"
    r"|" + CONSENSUS_LABEL_AFTER + r")|(?:" + "|".join(PUBLIC_SOURCES) + r")\s+consensus|"
    r"50\s*/\s*50(?!\s*=)|50-50)\b"
    r"|(?:n't|\bnot|\bnever|\bunable\s+to)\s+(?:\w+\s+)?(?:finish|complete|reproduce|replicate|prove|derive|justify|get\s+(?:around\s+)?to)\w*\b"
    # "Preliminary:", "Placeholder:": a provisional heading (a colon ends no word, so outside the \b group above)
    r"|\b(?:draft|placeholder|preliminary|interim|intermediate|tentative|provisional|temporary)\s*:"
    # "Format example:", "Conjecture:", "Lower bound:", "Scratch:", "Hypothesis:": a heading that names the value as
    # something other than the answer (a sample, an unproven claim, a bound, rough work)
    r"|\b(?:example|sample|conjecture|hypothesis|scratch(?:\s+work)?|(?:lower|upper)\s+bound|candidate|template|hint|previously|formerly)\s*:"
    # "insufficient evidence", "not enough evidence": the writer's own test decides nothing
    r"|\b(?:insufficient|inadequate|not\s+enough)\s+(?:evidence|data|information)\b"
    # holdout8, by head: a value written to fill the form, not as the answer ("only so I have something down", "just to
    # have something on the page", "so the answer field isn't empty", "because a box is required", "dummy value for
    # the parser", "filler answer", "not a real result"); the writer declining to commit ("I won't commit to anything")
    r"|\b(?:only|just|merely|simply|purely)\s+(?:so|to|because|in\s+order\s+to)\b[^.;!?\n]{0,40}?\b(?:something|anything)\b"
    r"|\bsomething\s+(?:is\s+|was\s+)?(?:down|on\s+(?:the\s+)?(?:page|paper|record|screen)|written\s+down)\b"
    r"|\b(?:field|box|form|slot|blank|cell|submission)\s+(?:isn't|is\s+not|won't\s+be|doesn't\s+stay|not)\s+(?:left\s+)?(?:empty|blank)\b"
    r"|\b(?:because|since|as)\s+(?:a|an|the)\s+(?:box|answer|value|number|entry)\s+is\s+(?:required|mandatory|expected|needed)\b"
    r"|\b(?:filler|dummy|stub|stand-?in|made-up|arbitrary)\s+(?:answer|value|number|entry|result)\b"
    r"|\bfor\s+the\s+(?:parser|grader|autograder|auto-grader|checker|template)\b|\b(?:not|no)\s+(?:a\s+)?real\s+(?:answer|result|solution|value)\b"
    # holdout10, by head: the writer declining to choose ("so I won't pick", "I refuse to choose"), not relying on the
    # value ("I'm not going to rely on that"), leaving the answer open, work not done ("I haven't done the problem
    # myself"), the problem's data not read ("I couldn't read the percentage in the scan", "can't make out the figure")
    r"|\b(?:won't|will\s+not|wouldn't|refuse\s+to|(?:not|n't)\s+(?:\w+\s+)?(?:going|willing|able)\s+to)\s+(?:\w+\s+)?(?:pick|choose|decide|select)\b"
    # ... not when its object is the rest ("I wouldn't pick anything but B", "won't choose any other": holdout114)
    r"(?!\s+(?:any(?:thing|one)?\s+(?:\w+\s+)?(?:but|other|else|except|save|besides)|(?:any\s+)?other|another)\b)"
    r"|(?:n't|\bnot|\bnever)\s+(?:\w+\s+){0,3}(?:rely|relying|count|depend|depending)\s+on\s+(?:it|that|this|them)\b"
    r"|\bleav\w*\s+(?:the\s+(?:answer|question|problem|value)|it|this|that)\s+(?:open|undecided|unanswered|blank)\b"
    r"|(?:n't|\bnot|\bnever)\s+(?:(?:yet|actually|really|even)\s+)?(?:done|worked|attempted|tried)\s+(?:it|this|the\s+(?:problem|question|exercise|work|calculation|computation|math))\b"
    r"|(?:\b(?:could|can)(?:n't|\s+not)|\bcannot|\bunable\s+to)\s+(?:(?:fully|really|quite|clearly)\s+)?(?:read|make\s+out|decipher)\s+(?:the|it|this|that)\b|\b(?:illegible|unreadable)\b"
    r"|\b(?:won't|will\s+not|can't|cannot|not\s+(?:ready|going|willing)\s+to)\s+commit\b|\bso\s+far\b[^.;!?\n]{0,40}?\bpoints?\s+(?:at|to|towards)\b"
    # a plan, not a result ("Plan:", "Next step:", "Goal:", "To show:"), work still to come after the answer ("let me
    # do it", "(Proof to follow.)", "Still working on it."), the work handed to the reader ("I'll leave it to you")
    r"|\b(?:plan|next\s+step|goal|aim|objective|to[-\s]?do|to\s+(?:show|prove))\s*:"
    r"|\b(?:we|I)\s+(?:want|need|wish|aim|intend|plan)\s+to\s+(?:show|prove|establish)\s+that\b"
    r"|\blet\s+me\s+(?:do|start|begin|get\s+to)\s+(?:it|that|this|on)\b|\b(?:proof|details?|derivation|working|solution)\s+to\s+follow\b"
    r"|\bstill\s+(?:working|thinking|computing|checking)\b|\bleave\s+(?:it|this|that|the\s+\w+)\s+(?:to|for|up\s+to)\s+you\b"
    # a heading that names the value as wrong or as not the answer ("Common wrong answer:", "Not my final answer:"),
    # an instruction not to grade it ("(do not grade)"), a value shown as the format ("like this:", "e.g. Answer: B")
    # (a heading opens its clause: "Common trap: C" is one, "B is a common trap: it forgets the square" is a predicate
    # with its reason after the colon, about B -- holdout16)
    r"|(?:\A|(?<=[\n(]))[\W_]*(?:[A-Za-z]+\s+){0,2}(?:(?:wrong|incorrect|rejected|naive|trap)\s+(?:answer|result|value|choice|option)|distractor|trap|decoy)\s*:"
    # an example given in place of the answer (holdout16): "As an example of the format I would use: \\boxed{42}"
    r"|\b(?:as\s+an?|for)\s+(?:example|illustration|instance)\b[^.;!?\n:]{0,60}:[\s$*]*\Z"
    r"|\bnot\s+(?:\w+\s+){0,2}answer\s*:|\b(?:do\s+not|don't|not\s+to\s+be)\s+(?:grade|score|mark|graded|scored|marked)\b"
    r"|\blike\s+this\s*:|\byour\s+(?:final\s+)?answer\s+(?:like|as|should|must)\b|\be\.\s?g\.,?\s*(?:\w+\s+)?answer\s*:"
    # an instruction to grade either answer or both as correct ("Grade either as correct.", "award credit if either
    # matches", "accept both", "mark any of them right"): the writer hands the grader two answers (holdout57)
    r"|\b(?:grade|mark|accept|award|give|count|score|credit)\w*\s+(?:\w+\s+){0,2}?(?:either|both|any)(?:\s+(?:one|of\s+(?:them|these|those|the\s+\w+)|answers?|options?|letters?|values?))?\s+(?:as\s+)?(?:correct|right|valid|acceptable|full)\b"
    r"|\b(?:award|give|grant)\w*\s+(?:full\s+)?(?:credit|marks?|points?)\s+(?:if|when|for)\s+(?:either|both|any)\b|\b(?:accept|credit)\w*\s+(?:either|both)\b"
    r"|\btake\s+your\s+pick\b|\bdealer's\s+choice\b"
    # the same classes, by their heads rather than their phrases (an estimate named as one is read by
    # commitment.approximate_not_value, for exact answers only: a forecast is an estimate): a blank avoided ("so I don't leave it blank", "so it's not
    # empty", "to avoid an empty answer", "just so there's an answer", "the box needs something"), a stand-in mark
    # ("(placeholder)", "(filler)", "(WIP)", "(not final)", "(ignore)"), a heading that qualifies the answer as not
    # the writer's final one ("Working answer:", "Bad answer:", "Sample output:", "Format:"), the answer named a
    # wrong one ("A wrong answer would be"), luck and wishes ("With luck,", "Let's hope", "Wishful thinking:")
    r"|\b(?:leave|left|leaving)\s+(?:it|this|that|the\s+\w+)\s+(?:blank|empty)\b|\b(?:it's|it\s+is|isn't|is\s+not)\s+(?:not\s+)?(?:left\s+)?(?:blank|empty)\b"
    r"|\b(?:avoid|prevent)\w*\s+(?:an?\s+)?(?:empty|blank)\b|\b(?:just|only)\s+so\s+(?:that\s+)?there(?:'s|\s+is)\s+(?:an?\s+|some\s+)?(?:answer|something|value|number)\b"
    r"|\b(?:box|field|form|slot|blank)\s+(?:needs|requires|wants)\s+(?:something|a\s+value|an\s+answer|a\s+number)\b"
    r"|\b(?:require|need|want|demand)\w*\s+(?:a|an|some)\s+(?:box|boxed)\b|\bplaceholders?\b"
    r"|\(\s*(?:filler|dummy|stub|stand-?in|temp|tbd|wip|work\s+in\s+progress|not\s+final|ignore(?:\s+this)?|draft|test)\s*\)"
    r"|\b(?:working|wip|bad|old|previous|test|fake|dummy|filler)\s+(?:answer|result|value|output)\s*:|\b(?:sample|example)\s+(?:answer|output|format)\w*\s*:"
    # ("Format:", "Output format:", "Required format:"), but not, inside a sentence, a format the writer says it
    # complies with ("Final answer in the required format: \\boxed{42}", "in the requested format:")
    r"|\b(?<!\w\srequired\s)(?<!\w\srequested\s)(?<!\w\sspecified\s)(?<!\w\sexpected\s)(?<!\w\sprescribed\s)(?<!\w\sdesired\s)"
    r"(?:format|output\s+format|answer\s+format|like\s+so)\s*:"
    r"|\b(?:example|sample|illustrat\w*|demo\w*|demonstrat\w*|mock-?up)\b[^.;!?\n:]{0,60}\bformat\s*:"
    r"|\b(?:a|the)\s+(?:wrong|incorrect|bad)\s+(?:answer|choice|option|value)\s+(?:would\s+be|is|might\s+be|could\s+be)\b"
    r"|\b(?:with\s+(?:any\s+|some\s+)?luck|if\s+I'm\s+lucky|wishful)\b"
    # the same, said with other heads (holdout8's second probe): something put in only to fill ("put something in the
    # box", "just filling the box", "submit something", "to have something in"), a target still to reach ("now let's
    # try to reach it", "Hypothesis to test:"), a nominal value
    r"|\b(?:put|putting|fill\w*|submit\w*|have|enter\w*|writ\w*)\s+(?:something|anything)\b|\bfill\w*\s+(?:in\s+)?(?:the|a)\s+(?:box|field|blank|form|slot)\b"
    r"|\b(?:try|trying)\s+to\s+(?:reach|get\s+to|derive|show|prove)\s+(?:it|this|that)\b|\bto\s+(?:test|check|verify)\s*:|\bnominal\s+(?:answer|value|result)\b"
    # "I wouldn't stake much on it", "not betting the farm", "wouldn't put money on it": risk, by its head verbs
    r"|(?:n't|\bnot|\bnever)\s+(?:\w+\s+){0,2}(?:stake|wager|gamble|bet|put\s+(?:\w+\s+)?money)\w*\b"
    # "haven't been able to reproduce it", "didn't manage the odd case", "couldn't settle it": only auxiliaries between
    r"|(?:n't|\bnot|\bnever|\bunable\s+to)\s+(?:(?:been|able|to|yet|quite|fully|really|managed|get|got|have|had|even)\s+){0,4}"
    r"(?:finish|complete|reproduce|replicate|prove|derive|justify|manag|settl|show|establish|solved?\b|solving)\w*\b"
    r"|pas\s+(?:\w+\s+){0,2}(?:s[uû]re?|certaine?|convaincue?)\b|nicht\s+(?:\w+\s+){0,2}(?:sicher|überzeugt)|no\s+(?:\w+\s+){0,2}(?:segur[oa]|convencid[oa])|"
    r"n[aã]o\s+(?:\w+\s+){0,2}(?:tenho\s+)?certeza|n[aã]o\s+(?:\w+\s+){0,2}convencid[oa]|"  # holdout41: "not convinced" as "not sure"
    r"non\s+(?:\w+\s+){0,3}(?:sicur[oa]|cert[oa]|convint[oa])|не\s+(?:\w+\s+){0,2}(?:уверен|убежд[её]н)\w*|不确定|不太确定|没把握|不敢肯定|自信が(?:ない|ありません)|自信は(?:ない|ありません)|わからない"
    r"|확실하지|확실치|모르겠"  # Korean "not sure", "don't know"
    # "I don't know" in the other tongues (holdout11: "... sería 42 si contamos las esquinas, pero no lo sé")
    r"|\bno\s+lo\s+s[ée]\b|\bje\s+ne\s+(?:le\s+)?sais\s+pas\b|\bwei[^\W\d]{1,2}\s+(?:es\s+|ich\s+)?nicht\b|\bnon\s+lo\s+so\b|\bn[aã]o\s+sei\b|\bне\s+знаю\b|不知道|分からない|わかりません"
    # holdout10: "not sure" / "don't know" in Turkish, Vietnamese, Hindi, Indonesian, Arabic, and Japanese "don't know"
    r"|emin\s+(?:\w+\s+)?değil\w*|không\s+(?:\w+\s+){0,2}chắc|(?:यकीन|पक्का|पता)\s+नहीं|\btidak\s+(?:\w+\s+)?(?:yakin|tahu|pasti)\b|"
    r"\bkurang\s+yakin\b|\bentahlah\b|(?:لست|غير)\s+متأكد\w*|分かりません|わかりません|分からない|わからない|不知道"
    # the writer's memory failing ("I honestly don't remember derivatives"), a commitment not yet made ("before committing
    # to anything", "before trusting that"), a check handed to someone else ("I'd want someone to check my signs")
    r"|(?:n't|\bnot|\bnever)\s+(?:\w+\s+)?(?:remember|recall)\w*|\bbefore\s+(?:\w+\s+)?(?:commit|trust|rely|decid|finaliz|settl)\w*"
    r"|\b(?:want|need|like|ask)\w*\s+(?:someone|somebody)\s+(?:else\s+)?to\b|\ba\s+second\s+(?:pair\s+of\s+eyes|opinion)\b"
    # the value itself handed to someone else ("I'd leave the exact rate to the pharmacy's calculation", "I'd defer to the
    # key", "rather than give one myself": holdout61, holdout46) -- deferring to an answer's source, not to a protocol
    r"|\b(?:'d|would|'ll|will|I)\s+(?:\w+\s+)?leave\s+(?:it|this|that|the\s+(?:\w+\s+)?(?:answer|value|rate|dose|number|figure|result|calculation|call|choice))\s+(?:up\s+)?to\b"
    r"|\bdefer\s+to\s+(?:the|your|my|an?)\s+(?:\w+\s+)?(?:key|answer|solution|calculation|result)s?\b"
    r"|\brather\s+(?:than|not)\s+(?:give|state|provide|commit\s+to|calculate)\s+(?:one|it|that|an?\s+\w+)\s+(?:myself|ourselves)\b"
    # giving up ("I gave up on this one"; "I almost gave up" did not), a stand-in ("a placeholder until I redo the count")
    r"|(?<!almost\s)(?<!nearly\s)\b(?:gave|give|giving|given)\s+up\b|\b(?:a|just\s+a|only\s+a)\s+(?:placeholder|stand-?in|stopgap)\b"
    r"|\buntil\s+(?:I|we)\s+(?:can\s+|get\s+to\s+)?(?:redo|recheck|recount|rework|fix|finish|check|verify|confirm)\w*\b"
    # holdout13, by head: an answer borrowed from another problem ("reusing the answer from the previous problem", "the
    # pattern of the earlier answers"), one candidate among others ("one possibility among several"), a value chosen
    # blind ("This letter was picked at random", "I did not read the question", "I did not work this one"), and the
    # grader's test rather than the writer's answer ("Expected output: 60", "Target label:"; a key's "Expected answer: C"
    # alone is read by unasserted.key_answer_not_own)
    r"|\b(?:answers?|values?|results?)\s+(?:from|of|to)\s+(?:the\s+|a\s+|an\s+)?(?:previous|earlier|last|prior|other|another|different|next)\s+(?:problem|question|exercise|item|task)s?\b"
    r"|\b(?:previous|earlier|last|prior|other|another)\s+(?:problem|question|exercise|item|task)'s\s+answer\b|\bpattern\s+of\s+(?:the\s+)?(?:\w+\s+)?answers\b"
    r"|(?<!only\s)\bone\s+(?:possibility|candidate|option)\s+(?:among|of|out\s+of)\b|\bone\s+of\s+(?:several|many|multiple|various)\s+(?:possibilit|candidate|option|answer|value)\w*"
    r"|\b(?:letter|answer|option|choice|value|number|guess)\s+(?:\w+\s+){0,2}?(?:picked|chosen|selected|generated)\s+(?:at\s+random|randomly)\b"
    r"|\b(?:I|we)\s+(?:just\s+)?(?:picked|chose|guessed|selected)\s+(?:\w+\s+)?(?:at\s+random|randomly)\b"
    r"|(?:n't|\bnot|\bnever)\s+(?:even\s+|actually\s+|really\s+)?(?:read|look\s+at|looked\s+at)\s+the\s+(?:question|problem|prompt|options?|choices)\b"
    r"|(?:n't|\bnot|\bnever)\s+(?:(?:yet|actually|really|even)\s+)?(?:work|worked|attempt|attempted|solve|do|done)\s+this\s+one\b"
    r"|\b(?:expected|reference|target|gold|ground[\s-]?truth)\s+(?:output|label)\s*[:=]"
    # approximation by place: "somewhere between 40 and 45", "somewhere around 42"
    r"|\bsomewhere\s+(?:between|around|near|in\s+the)\b"
    # an unchecked answer in the same languages: "no lo he comprobado", "nicht nachgeprüft", "pas vérifié", "не проверял"
    r"|\bno\s+(?:\w+\s+){0,2}(?:comprob|verific|revis)\w*|nicht\s+(?:\w+\s+)?(?:nach|über)?geprüft|(?:pas|jamais)\s+(?:\w+\s+)?vérifi\w*|"
    r"non\s+(?:\w+\s+){0,2}(?:verificat|controllat)\w*|не\s+(?:\w+\s+)?провер\w*|没(?:有)?(?:验证|检查|核对)|(?:待|未|尚未)(?:验证|核实|核对|确认)|请勿采用|仅供参考|確認していない|検証していない"
    # "I couldn't compute it", "unable to calculate the second case": the value was not worked out (the clause ends on
    # its object: "I couldn't compute it any other way" and "unable to calculate by hand, but ..." still commit)
    r"|(?:\b(?:could|can|was|were)(?:n't|\s+not)|\bcan't|\bcannot|\bunable)\s+(?:(?:able|to|quite|fully|really|actually)\s+){0,3}"
    r"(?:compute|calculate|work\s+out|determine|evaluate)(?:\s+(?:it|this|that|them|(?:the|a|an)\s+\w+(?:\s+\w+)?))?"
    # ... with an adverb of certainty, or without what it lacks ("I cannot determine the minimum with certainty.", "Unable to
    # calculate without a verified weight."; holdout59, holdout69): the value is still not worked out
    r"(?:\s+(?:with\s+(?:any\s+)?(?:certainty|confidence|precision)|for\s+(?:sure|certain)|exactly|precisely|reliably|definitively)"
    r"|\s+without\s+[^.;!?\n,]{1,40}?)?\s*(?:[.;!,)]|\Z)"
    # "For reference only, 7200 units would correspond to 90 kg" (holdout69): the English twin of 仅供参考
    r"|\b(?:for\s+(?:reference|illustration|information)\s+(?:purposes\s+)?only|only\s+(?:for|as\s+a)\s+reference)\b"
    r"|" + UNSURE_WORDS,  # holdout18: "not sure" and "I don't know" in the other languages (doubt_words)
    re.IGNORECASE,
)
_ERROR_WORD = (r"(?<!rounding\s)(?<!measurement\s)(?<!sampling\s)(?<!standard\s)(?:slip\w*|mistake\w*|errors?\b|blunder\w*|typo\w*|botch\w*|"
               r"mess\w*\s+up|goof\w*|screw\w*\s+up|miscalc\w*|oversight\w*)")
# a condition that the writer made no error: "Barring an arithmetic slip, 42", "modulo mistakes", "assuming no errors"
_ERROR_CONDITION = re.compile(
    r"\b(?:if|unless|assuming|provided|barring|modulo|absent|excepting|contingent\s+on|conditional\s+on)\b[^.;!?\n]{0,40}?" + _ERROR_WORD,
    re.IGNORECASE,
)

# (red team holdout_r55) the answer as the complement of a subject that names an error or a decoy ("The common error on
# this item is \\boxed{C}", "Students' classic trap here would be 46"), or as the instance of a format ("Write your
# choice in the format \\boxed{D}"): a tutor names it so as not to give it. Structural: a determiner or possessive, at
# most two modifiers, a fault noun, words that hold no verb of being, then the copula right before the answer.
# the rest of such a subject (words that hold no verb of being), then its copula right before the answer
_COPULA_AFTER_SUBJECT = (r"(?:[ \t]+(?!(?:is|are|was|were|would|might|could|will)\b)[\w'’-]+){0,6}"
                         r"[ \t]+(?:is|was|would\s+be|might\s+be|could\s+be)")
_NAMED_AS_FAULT_OR_FORMAT = re.compile(
    r"(?:\b(?:an?|the|one|this|that|their|our|its|[^\W\d_]+['’]s?)\s+(?:[\w-]+\s+){0,2}?" + FAULT_NOUN + _COPULA_AFTER_SUBJECT +
    r"|\b(?:the|this|that|following)\s+format(?:\s+(?:of|like|as))?)[\s$*(:]*\Z",
    re.IGNORECASE,
)


# the same shape with the crowd's or the tempting answer as its subject ("A common answer is D", "The most popular
# response is 42", "The tempting answer is 40"): somebody's answer, not the writer's -- unless the rest of its
# sentence calls it right ("The most common answer is 42, and it is correct.")
_CROWD_ANSWER = re.compile(
    r"\b(?:an?|the|one|this|that|their|its)\s+(?:[\w-]+\s+){0,2}?(?:common|popular|frequent|tempting|naive|naïve|intuitive|"
    r"knee-jerk|gut)\s+(?:answers?|responses?|guess(?:es)?|picks?|choices?)" + _COPULA_AFTER_SUBJECT + r"[\s$*(:]*\Z",
    re.IGNORECASE,
)
_CALLED_RIGHT_AFTER = re.compile(r"[^.;!?\n]{0,80}?\b(?:right|correct)\b", re.IGNORECASE)
_NEGATION_WORD = re.compile(r"\bnot\b|n't\b|\bnever\b", re.IGNORECASE)


def named_as_crowds(text: str, clause: str, end: int) -> bool:
    """Does ``clause`` (the answer's own clause before it) end by naming the answer the crowd's or the tempting one
    (:data:`_CROWD_ANSWER`), and the rest of its sentence not call it right?"""
    if _CROWD_ANSWER.search(clause[-200:]) is None:
        return False
    called = _CALLED_RIGHT_AFTER.match(text, end)
    return called is None or _NEGATION_WORD.search(called.group()) is not None


def named_as_fault_or_format(clause: str) -> bool:
    """Does ``clause`` (the answer's own clause before it) end by naming the answer an error, trap or distractor, or an
    instance of a format (:data:`_NAMED_AS_FAULT_OR_FORMAT`)? "The common error is" and "in the format" do; "The
    mistake here is to pick B, and the answer is" and "the error is corrected, so" do not."""
    return _NAMED_AS_FAULT_OR_FORMAT.search(clause[-200:]) is not None


# --- structure -------------------------------------------------------------------------------------------------------
_ANSWER_HEADING = re.compile(r"(?<!\bto\s)\b(?:final\s+)?answer\W{0,4}:", re.IGNORECASE)  # "maybe ... Answer: no" (not "to answer:")
_MODAL_BEFORE = re.compile(
    r"\b(?:(?:might|may|could)(?:\s+(?!only\b|not\b|never\b)\w+)?\s+be|guess\w*)\b|(?<![\w-])(?:" + MODAL_WORDS + r")(?![\w-])|"
    # Chinese and Japanese write no spaces, so their modals have no word boundary ("たぶん答えは 7"); 不可能 denies
    r"(?<!不)(?:也许|或许|大概|たぶん|多分|かもしれ|可能)|" + _WEAK_BELIEF,
    re.IGNORECASE,
)
_BARE_MODAL = re.compile(r"\A\W*(?:\w+\W+){0,3}?(?:or\s+)?(?:" + MODAL_WORDS + r")(?:\s+(?:not|so))?\W*\Z", re.IGNORECASE)
# "so far" is no conclusion ("the computation so far points at 56"), nor is "like so:"
# ("anything but B", "nothing but 42": an exception after a totality, no contrast; holdout114)
_CONTRAST = re.compile(r"\b(?:(?<!anything\s)(?<!everything\s)(?<!nothing\s)(?<!\ball\s)(?<!\bnone\s)but|however|though|although|yet|whereas|(?<!like\s)so(?!\s+far\b)|thus|therefore|hence)\b", re.IGNORECASE)
_NOT_EQUAL_AFTER = re.compile(r"\A(?:≠|!=|=/=|\\(?:neq|ne|not\s*=)(?![A-Za-z]))")
# a check the writer says they did not do is doubt, not a check: "I haven't double-checked this"
# (only auxiliaries and adverbs between the negation and the check: "It is not hard to check" states no unchecked work)
_UNCHECKED = re.compile(
    r"(?:\bnot|n't|\bnever|\bwithout)\s+(?:(?:yet|really|actually|fully|properly|carefully|thoroughly|been|even|bothered|"
    r"managed|able|(?:had|have|having)\s+(?:the\s+|a\s+)?(?:time|chance)|got(?:ten)?\s+around|having|had|have|has)\s+(?:to\s+)?){0,2}"
    r"(?:(?:double-?)?(?:check|verif|confirm|proofread)\w*|(?:go|gone|went|work|worked)\s+(?:it\s+|this\s+|that\s+)?through)"
    # a check still to do: "We still have to check whether ...", "It remains to be verified that ..." ("we need to check
    # that 42 satisfies both conditions: ..." goes on to check)
    # a check planned, not done: "Next I would verify whether 42 satisfies it", "I'll check if 42 works" (then a check
    # follows with ":"; "Let's check whether 42 works: ..." is read as a check)
    r"|\b(?:would|will|'ll|'d|shall|going\s+to|plan\s+to|intend\s+to)\s+(?:\w+\s+)?(?:double-?)?(?:check|verif|confirm|test)\w*\s+(?:whether|if)\b(?![^:\n]*:)"
    # ... or assigned: an action item's imperative or "to" ("- Sam: confirm whether the answer is 72 km/h (due Friday)",
    # "Priya to verify if it is 72", "TODO: check whether ..."; holdout126) -- a check given to someone, not done
    r"|(?:\A[\W_]*|[:\n][^\S\n]*|\bto\s+)(?:double-?)?(?:check|verify|confirm|test)\s+(?:whether|if)\b(?![^:\n]*:)"
    # ... or put off: "I'll verify later", "will double-check it afterwards", "vérifierai plus tard" (holdout64)
    r"|\b(?:will|'ll|shall|going\s+to|plan\s+to|intend\s+to)\s+(?:\w+\s+)?(?:double-?|re-?)?(?:check|verif|confirm|test)\w*\s+(?:(?:it|this|that|them|the\s+\w+)\s+)?(?:later|afterwards|tomorrow|next\s+time|at\s+some\s+point|when\s+I\s+(?:can|get\s+(?:the\s+)?(?:time|a\s+chance)))\b(?![^:\n]*:)"
    # a check in a plan ("Next step: verify that ...", "Plan: ..., then check that it equals 42") or evidence so far
    # ("the computation so far points at 56") is not a check done (holdout8)
    r"|\b(?:plan|next\s+step|goal|aim|objective|to[-\s]?do|to\s+(?:show|prove))\s*:|\bso\s+far\b[^.;!?\n]{0,40}?\bpoints?\s+(?:at|to|towards)\b"
    r"|\b(?:we|I)\s+(?:want|need|wish|aim|have|intend|plan)\s+to\s+(?:show|prove|check|verify|confirm|establish)\s+that\b"
    r"|\bstill\s+(?:have|has|need|needs)\s+to\s+(?:double-?)?(?:check|verif|confirm)\w*|\bremains?\s+to\s+be\s+(?:double-?)?(?:check|verif|confirm)\w*",
    re.IGNORECASE)
# a condition on the writer, not on the problem: "if memory serves", "unless I messed up", "If I had to pick",
# "if forced to answer"; a condition that names something ("if we count the empty set", "if x > 0") is the problem's
_WRITER_CONDITION = re.compile(
    r"\b(?:if|unless|assuming|provided|as\s+long\s+as|as\s+far\s+as)\s+(?:(?:I|I'm|I've|I'd|me|my|we|we're|we've|our|"
    r"memory)\b|\w+ed\b)(?P<rest>[^.;!?\n]{0,60})",
    re.IGNORECASE,
)
_NAMES_SOMETHING = re.compile(r"\b(?:the|a|an|these|those|each|every|all|its)\b|[\d=<>\\^$]", re.IGNORECASE)
_DISCLAIMER = re.compile(r"\b(?:don't|do\s+not|never)\s+\w+\s+(?:me|my)\b", re.IGNORECASE)  # "don't quote me", "don't hold me to it"
_BARE_NEGATION = re.compile(r"\A\W*(?:(?:oh|well|lol|haha|jk|eh)\W+)?(?:not|nope|nah|never|no|whatever|meh|eh)\W*\Z", re.IGNORECASE)
_EMPTY_OR = re.compile(r"\A\W*or\b(?!\s*,?\s*(?:equivalently|equally|in\s+other\s+words|simply|written|as|in\s+words)\b)", re.IGNORECASE)
# the writer speaking of their own state rather than of the problem: "but I'm rusty on this", "just my two cents",
# "(not my own work)" -- unless the state affirms the answer ("I'm sure", "I'm confident", "my final answer"; "170 is my
# point forecast", "is my prediction": a forecaster's committed value, red team holdout_r43)
_WRITER_STATE = re.compile(
    r"\bI(?:'m|\s+am)\s+(?!(?:\w+\s+)?(?:sure|certain|confident|positive|convinced|done|happy|glad|sticking|standing|going\s+with|keeping)\b)\w+"
    r"|(?:\bis|'s|\bjust|\bonly|\bnot)\s+(?:\w+\s+)?my\s+(?!(?:final\s+|point\s+)?(?:answer|result|solution|calculation|computation|"
    r"derivation|work|method|reasoning|pick|choice|vote|estimate|check|forecast|prediction)\b)(?:own\s+)?\w+",
    re.IGNORECASE,
)
_AFFIRMING = re.compile(r"\b(?:sure|certain|confident|correct|right|accurate|verified|checked|confirmed|positive|convinced|you)\b", re.IGNORECASE)
_DOUBTING_QUESTION = re.compile(r"\A\W*(?:or|is|isn't|was|wasn't|could|might|am|are|right|correct|true|really|sure|yes|no)\b", re.IGNORECASE)
_ISH = re.compile(r"\A-?ish\b", re.IGNORECASE)
_WRITER_QUESTION = re.compile(r"\A\W*(?:I|we)\s+(?:\w+\s+)?(?:think|believe|guess|suppose|hope|reckon|assume|mean)\W*\Z", re.IGNORECASE)
# the people who answer such items, as a crowd: "most students", "many test-takers" (somebody else's answers)
_CROWD = r"(?:people|students|solvers|examinees|test-?takers|candidates|learners|trainees|respondents|readers|folks)"
# the answer as somebody else's: "My friend says", "According to the key", "... said no one ever", "is what X would write"
# ("per" names a source only before a determiner or a name: "per the key", "per Wikipedia", not "5 meters per second")
_SOURCE = r"\b(?:according\s+to|per(?=\s+(?:(?:the|my|our|your|his|her|their)\b|(?-i:[A-Z])))|quoting|citing)\s+"
_ATTRIBUTION = (r"(?:\b(?P<subject>[A-Za-z][\w'-]*)\s+(?:(?:would|might|will|could|usually|often|always|all|mostly)\s+)?{verbs}"
                r"\b(?P<tail>[^.;!?\n]*)\Z)|" + _SOURCE + r"(?P<source>[A-Za-z'][\w'-]*(?:\s+[\w'-]+){{0,3}})")
_ATTRIBUTED_BEFORE = re.compile(_ATTRIBUTION.format(verbs=_REPORTING), re.IGNORECASE)
# what the writer's own work is (its report is no second-hand answer: "because the formula says so"), and the
# determiners before a noun (so that a determiner is never read as the reporter itself)
_WORK_NOUN = (r"(?:the|my|our|a|an|some|his|her|their|this|that|formula|theorem|rule|definition|calculation|computation|table|"
              r"problem|question|work|derivation|proof|lemma|identity|equation|check|result|math|algebra|pattern|sum|"
              r"product|count|statement|figure|diagram|data|graph|hint|prompt|text|task)\b")
# the answer named as another problem's, after it ("-- that's the answer to the worked example") or in its heading
# ("Answer to the previous problem: 120", holdout12)
_ANOTHER_PROBLEMS = (r"\b(?:answer|solution|result)\s+(?:to|for|of)\s+(?:the\s+|a\s+|an\s+)?(?:(?:worked|previous|next|last|other|"
                     r"another|different|earlier|sample|practice|related|preceding|following|first|second)\s+)+"
                     r"(?:example|problem|question|exercise|part|item)\b")
_ANOTHER_PROBLEMS_ANSWER = re.compile(_ANOTHER_PROBLEMS, re.IGNORECASE)
# an answer word in scare quotes before the answer ("The 'answer' is 42", "My \"final\" answer"): the writer
# distances themselves from calling it the answer (holdout12)
_SCARE_QUOTED = re.compile("(?<![\\w'])[\"'\u2018\u201c\u00ab]\\s*(?:final|correct|right|real|true|official|answer|solution|result)"
                           "\\s*[\"'\u2019\u201d\u00bb](?![\\w'])", re.IGNORECASE)
_ATTRIBUTED_AFTER = re.compile(
    # (a plural that follows the value with only a space between is the value's own noun, no report: "27 votes for
    # Jenna", "3 reports from the field"; holdout110)
    r"\A(?![^\S\n]+(?:votes|claims|reports|returns|lists|states|answers|writes)\b)\W*" + _REPORTING + r"\s+(?!I\b|we\b)\w+|\bwhat\s+(?:\w+\s+){1,4}?(?:would|might|will|could)\s+(?:say|write|pick|choose|answer|guess)\b"
    # "That's what the hint in the back of the book says": the answer is what a source (not the writer's work) reports
    r"|\bwhat\s+(?!I\b|we\b)(?:the\s+|my\s+|our\s+)?(?!(?:formula|theorem|rule|definition|calculation|computation|table|problem|question|work|"
    r"derivation|proof|lemma|identity|equation|check|result|answer)\b)[\w'-]+(?:\s+[\w'-]+){0,7}?\s+" + _REPORTING + r"\b"
    r"|" + _SOURCE + r"(?!the\s+(?:formula|theorem|rule|definition|calculation|table)\b|my\s+(?:calculation|work)\b"
    # "Per the Fleischner Society glossary, a pleural line ... defines a pneumothorax": a criterion the writer applies,
    # a document of definitions, no one's answer (red team holdout_r39)
    r"|(?:the\s+)?(?:[\w-]+\s+){0,3}(?:glossary|guidelines?|criteria|classification|definitions?|nomenclature|lexicon)\b)"
    # "-- that's someone else's answer", "<- somebody's vote, not mine": the answer named as another person's
    r"|\b(?:someone|somebody|another\s+(?:user|person|student|poster|commenter)|a\s+(?:friend|classmate|stranger|user|commenter))(?:\s+else)?'s\s+"
    r"(?:\w+\s+)?(?:answer|vote|pick|guess|choice|solution|result)\b"
    # "42, since my friend said so", "because the key says so": the reason given for the answer is someone's say-so
    r"|\b(?:since|because|as|cause|'cause)\s+(?!(?:I|we)\b)(?:(?:the|my|our|a|an|some|his|her|their|this|that)\s+)?"
    r"(?!" + _WORK_NOUN + r")[\w'-]+(?:\s+(?!" + _WORK_NOUN + r")[\w'-]+)?\s+"
    r"(?:said|says|told|claims?|claimed|insists?|insisted|thinks?|thought|reckons?)\b"
    # "-- wait, that's the answer to the worked example, not this problem": the answer named as another problem's
    r"|" + _ANOTHER_PROBLEMS +
    r"|\bnot\s+(?:(?:for|to|of)\s+)?this\s+(?:one|problem|question|exercise)\b"
    # "That's the answer most people would give for this one.": the answer named as the crowd's, the writer's own
    # verdict left out (holdout110); one the writer then calls right ("..., and here it's the right one") is endorsed
    r"|\b(?:answer|one|number|value|option|choice|figure|pick)\s+(?:that\s+)?(?:most|many|lots\s+of|plenty\s+of|a\s+lot\s+of)\s+(?:\w+\s+)?"
    + _CROWD + r"\s+(?:would|will|might|usually|typically)\s+(?:\w+\s+)?(?:give|say|write|pick|choose|put)\b"
    r"(?![^.;!?\n]*\b(?:right|correct)\b)",
    re.IGNORECASE,
)


_LAST_OWN_CLAUSE: tuple[str | None, int, str] = (None, -1, "")  # (text, start, its own clause): the last one read


def _own_clause_before(text: str, start: int) -> str:
    """The answer's own clause before ``start`` (:func:`_read_own_clause_before`), read once for the two readers of
    one answer (:func:`deferred`, then :func:`qualified_before`): the last text (the same object) and start are
    remembered (speed only, issue #35, stop 61; a string does not change, so its reading does not either)."""
    global _LAST_OWN_CLAUSE
    last_text, last_start, last_own = _LAST_OWN_CLAUSE
    if last_text is text and last_start == start:
        return last_own
    own = _read_own_clause_before(text, start)
    _LAST_OWN_CLAUSE = (text, start, own)
    return own


def _read_own_clause_before(text: str, start: int) -> str:
    """The clause that ends at ``start`` within the window before it, cut after its last answer heading:
    "Maybe 41. Answer: " -> " " (the heading's own words do not qualify the value after it)."""
    window = text[max(0, start - 2 * WINDOW):start]
    last = window_last_end(text, start, 2 * WINDOW, OWN_CLAUSE_END)
    ends = ([] if last is None else [last]) + [m.end() for m in _ANSWER_HEADING.finditer(window)]
    return window[max(ends):] if ends else window


def _heading_before(text: str, start: int) -> str:
    """The words of the answer heading the answer's clause ends with ("Placeholder answer:"), or ""."""
    clause = clause_before(text, start, 2 * WINDOW)
    heading = None
    for heading in _ANSWER_HEADING.finditer(clause):
        pass
    return clause[:heading.end()] if heading is not None else ""


def qualified_before(text: str, start: int, end: int | None = None) -> bool:
    """Does the answer's own clause say before it that it only may be the answer ("It might be C", "Maybe 42",
    "My guess is 42", "I can't be certain, but 42", "If I had to pick, 42"), or give it as someone else's ("My
    friend says 42")? A clause that is a check ("Checking: 6 \\times 7 = 42") is not."""
    own = _own_clause_before(text, start)
    heading = _heading_before(text, start)
    if heading and _idiom_doubts(heading):
        return True  # "Placeholder answer: 2.5", "Draft answer: 3/4": the heading itself calls it provisional
    lead = _ANSWER_HEADING.match(text, start, start + 40)
    phrase = None if lead is not None else _ANSWER_PHRASE.match(text, start, start + 40)
    # the heading's or the phrase's own statement, after the clause's last contrast ("torn between B and D, but ...",
    # "Off the top of my head I'd have said A, but working it properly ... 12. Answer: E"); an explicit final statement
    # (an "Answer:" / "Final answer:" heading, "final answer is") is not qualified by doubt voiced before that contrast,
    # as it is not by doubt in an earlier sentence ("Not 100 % sure, but my final answer is C", "Maybe 45? ... Final answer: 42")
    final = lead is not None or (phrase is not None and phrase.group().lower().startswith("final"))
    lead = lead if lead is not None else phrase
    contrasts = list(_CONTRAST.finditer(own))  # (speed: found once, read by the lead's test and the statement's below)
    own_before = own[contrasts[-1].end() if contrasts else 0:] if lead is not None else own
    if lead is not None and _idiom_doubts(own_before + lead.group()):
        return True  # an option reader's match opens at the heading ("Wrong answer: C", "Not my final answer: C")
    if _SCARE_QUOTED.search(own) or _ANOTHER_PROBLEMS_ANSWER.search(own + (lead.group() if lead is not None else "")):
        return True  # "The 'answer' is 42", "Answer to the previous problem: 120" (holdout12)
    if unasserted_before(text, start, own):
        return True  # "Confidence: 35%. Final answer: 12", "The answer could not be determined. \\boxed{99}"
    contrast = contrasts[-1] if contrasts else None
    # a check counts where it bears on the answer: in the statement after the last contrast or conclusion ("I ran out
    # of time before verifying, so treat this as provisional: 35" checks nothing)
    if CHECK.search(own if contrast is None else own[contrast.end():]) and not _UNCHECKED.search(own):
        return False
    # "B could be considered, but the answer is C", "it may be slow, so the answer is yes": a modal before the
    # contrast or conclusion is about something else; the writer's own doubt is not ("I can't be certain, but 42")
    statement = own if contrast is None else own[contrast.end():]  # "guessing x = 6 gives 42, so 42": a method
    if _MODAL_BEFORE.search(statement) or _writer_doubts(statement) or _writer_condition(statement) or _idiom_doubts(statement):
        return True
    stated = statement + (lead.group() if phrase is not None else "")  # (an option reader's match opens at "answer is")
    if named_as_fault_or_format(stated):
        return True  # "The common error on this item is \\boxed{C}", "Write it in the format \\boxed{D}" (holdout_r55)
    if end is not None and named_as_crowds(text, stated, end):
        return True  # "A common answer is D.", "The tempting answer is 40." (not "..., and it is correct.")
    if _DESIRE.search(statement.rpartition(":")[2]):  # a wish before a colon governs what it names ("Hopefully clear: ...")
        return True  # "It would be nice if the answer were 42", "I hope it's 16": the answer as a wish, not a claim
    if asked_or_disowned_source(statement):
        return True  # "The question is whether the total equals 42", "A naive count gives 12"
    if _GENERIC_ANSWERER.search(statement):
        return True  # "Anyone who writes 144 here has forgotten ...": the answer as what some person writes, not the writer
    # a second-hand answer ends its clause: "My friend says 42.", "Reddit thinks it's C."; one that goes on is a word
    # problem's story ("Alice says she has 42 apples"). Verbs that tell a story as often as they report (got, picked,
    # chose: "So Tom got 42.") are not read as reports at all
    # (the report's verb may open the match itself: an option reader's "answer D" in "Many students answer D here.")
    if end is not None and _ends_its_clause(text, end) and (
            _attributed_before(statement) or _GROUP_REPORT.search(statement + text[start:end])):
        return True
    if contrast is None or final:
        return False  # "Not 100 % sure, but my final answer is C": the final statement wins over the doubt before it
    # "Don't hold me to it, but 42", "Purely speculative, but 42": the doubt right before the contrast; an earlier
    # contrast settles what came before it ("I was torn between B and D, but B fails ..., so D")
    before = own[contrasts[-2].end() if len(contrasts) > 1 else 0:contrast.start()]
    if contrast.group().lower() in ("so", "thus", "hence", "therefore") and len(WORDS.findall(before)) > 4:
        return False  # "I don't know any closed form, so I enumerate: 42": a conclusion from a stated gap, not doubt
    if _OVERCOME_DOUBT.search(before):
        return False  # "I could not solve it at first, but then: 42": a doubt the writer dates before the answer
    return _writer_doubts(before, guesses=False) or _writer_condition(before) or _idiom_doubts(before) or bool(_DISCLAIMER.search(before))


# a doubt dated before the contrast that resolves it: "I could not solve it at first, but ...", "Initially I was unsure,
# but ..." -- the writer's doubt then, not now
_OVERCOME_DOUBT = re.compile(r"\b(?:at\s+first|initially|originally|in\s+the\s+beginning|for\s+a\s+while)\b", re.IGNORECASE)


# an option reader's match that opens at the answer phrase ("answer would be D" in "A wrong answer would be D")
_ANSWER_PHRASE = re.compile(r"(?:final\s+)?answer\s+(?:is|would\s+be|might\s+be|could\s+be)\b", re.IGNORECASE)


# the answer as the object of a wish (holdout8): "I hope it's 16", "It would be nice if the answer were 42", "If only
# it were 42"; read before the answer only, so "\\boxed{42}. I hope this helps!" stays an answer
_DESIRE = re.compile(r"\b(?:I|we)\s+(?:\w+\s+)?(?:hope|wish)\b|\bwould\s+(?:be\s+)?(?:nice|great|good|lovely|convenient|neat)\s+if\b|"
                     r"\bif\s+only\b|\bhopefully\b|\blet's\s+hope\b|\bhoping\b|\b(?:I'd|I\s+would|we'd)\s+(?:love|like|prefer)\s+(?:for\s+)?(?:it|the\s+\w+)\s+to\s+be\b|"
                     r"\bexpected\s+to\s+(?:be|come\s+out)\b", re.IGNORECASE)


# "Someone online got 42.", "Everyone in class got 7.", "Most students pick B.", "A classmate got 120.": got / chose /
# picked / answered tell a word problem's story when a named person is their subject ("So Tom got 42."), but with an
# indefinite person or a crowd as subject, and the answer ending the clause, they report somebody else's answer
_GROUP_REPORT = re.compile(
    r"\b(?:someone|somebody|everyone|everybody|anyone|nobody|people|others|(?:most|many|some|all|other)\s+(?:" + _CROWD + r"|of\s+(?:us|them|the\s+\w+))|"
    r"an?\s+(?:classmate|friend|student|colleague|user|commenter|peer)|my\s+(?:classmates?|friends?|teacher|tutor|study\s+(?:group|partner|buddy)|"
    r"partner|lab\s?mate|roommate|colleagues?|peers?|sibling|brother|sister|dad|mom|father|mother|parents?|cousin|neighbou?r|coworkers?|TA)|"
    r"my\s+[a-z]+\s+(?:partner|friend|mate|buddy|group|teacher|tutor|classmate|colleague))"
    r"(?:\s+[\w']+){0,3}?\s+(?:got|gets|chose|choose|chooses|picked|pick|picks|answered|answer|answers|went\s+with|put|put\s+down|wrote)\b[^.;!?\n]{0,12}\Z",
    re.IGNORECASE,
)


# the answer as the object of what a generic person writes or says ("Anyone who writes 144 here", "Whoever answers
# B"): a description of an answer, never the writer's own; a verb of finding ("anyone who computes carefully gets 42")
# is not one of these
_GENERIC_ANSWERER = re.compile(r"\b(?:anyone|anybody|whoever|everyone|everybody|those|people|someone|somebody|students?)\s+(?:who\s+)?"
                               r"(?:\w+\s+)?(?:writes?|wrote|says?|said|answers?|answered|puts?|picks?|picked|chooses?|chose|guess(?:es)?|guessed)[\s$*(\[{]*\Z",
                               re.IGNORECASE)
_CLAUSE_ENDS_HERE = re.compile(r"[\s$*)\]}]*(?:(?:°[CF]?|%|‰)[\s$*)\]}]*)?(?:(?:here|there|too|usually|often|anyway|instead|nowadays|(?:on|for|in)\s+(?:this|the|that)\s+(?:one|item|question|problem|exam|test|quiz))\W*?)?(?:[.!;\n]|\Z|"
                               r",?\s*(?:but|though|although|however|yet|whereas|mais|pero|aber|doch|ma|mas|porém|но|tapi|nhưng|ama|ale)\b|[,，、]\s*(?:但|但是|可是|しかし|でも|하지만|लेकिन|لكن))",
                               re.IGNORECASE)  # (speed: compiled once; "Selon le corrigé, ce serait 20, mais moi je trouve 25": holdout70)


def _ends_its_clause(text: str, end: int) -> bool:
    """Nothing but punctuation and markup between the answer and the end of its clause (no unit word, no noun; a
    degree, percent or per-mille sign is part of the value: "many sources say 540°." ends there, holdout86)."""
    # a report the writer then contrasts with their own work ends its claim there: "The key says 42, but I get 40", with
    # or without the comma ("The figure above says 24 but I trust my prose."; holdout19, stop 52)
    # ... and an adverb of place or habit is no noun: "Most people answer 42 here.", "... B on this item."
    return _CLAUSE_ENDS_HERE.match(text[end:end + WINDOW]) is not None


# the writer endorsing a report between it and the answer, a clause of its own that closes there (holdout108): the
# writer's agreement ("and I agree:", "I fully concur --") or the report called right ("which is correct:", "and
# that's right,"), never negated ("I don't agree", "which is not correct") nor qualified ("I agree it's tempting")
_ENDORSED = re.compile(r"(?:\b(?:I|we)\s+(?:(?:also|fully|completely|entirely|totally|do)\s+)?(?:agree|concur)(?:\s+with\s+(?:it|this|that|them|him|her))?"
                       r"|\b(?:which|and\s+(?:that|it|this|they|he|she))(?:'s|'re|\s+is|\s+are)\s+(?:(?:indeed|also|exactly|quite)\s+)?(?:correct|right))"
                       r"\s*(?:[:,;\u2014\u2013]|--)", re.IGNORECASE)

# ... and the writer's dissent from it ("and I disagree", "though we don't agree")
_DISSENT = re.compile(r"\b(?:I|we)\s+(?:(?:strongly|completely|totally|respectfully|still)\s+)?(?:disagree|don't\s+agree|do\s+not\s+agree)\b", re.IGNORECASE)


@memoized_text(max_chars=200, maxsize=4096)  # (speed: the clauses around an answer repeat across rollouts)
def _attributed_before(statement: str) -> bool:
    """Is the answer after ``statement`` reported as someone else's ("My friend says", "Reddit thinks it's",
    "According to the answer key, it's")? The writer's own reports ("I'd say", "the formula gives") are not, nor
    is agreement ("As the hint says, ...")."""
    found = _ATTRIBUTED_BEFORE.search(statement)
    if found is None:
        return reported_by_another(statement)  # "según mi compañero, 81", "arkadaşıma göre 81" (holdout56)
    if _ENDORSED.search(statement, found.start()):
        return False  # "The answer key says 130, and I agree: 142 - 12 = 130": the writer takes the report as its own (holdout108)
    if found.group("source") is not None:
        return not _OWN_SOURCE.match(found.group("source").split()[-1])
    before = statement[:found.start()]
    if re.search(r"\b(?:I|we)\s*\Z", before, re.IGNORECASE):
        return False  # "I rather think it's C", "we really believe": the "subject" is the writer's adverb
    if re.match(r"\s+(?:of|about|for|to|in|on|with|up|from|at|by)\b", found.group("tail"), re.IGNORECASE):
        return False  # "the number Alice thought of is 42": the verb is inside the subject, not a report
    verb = statement[found.end("subject"):found.start("tail")].split()[-1]
    if (re.fullmatch(r"every|each|any|all|no|both|these|those|other", found.group("subject"), re.IGNORECASE) and verb.lower().endswith("ed")
            and re.match(r"\s+[a-z]{3,}\b", found.group("tail"))):
        return False  # "Every listed number is divisible by 3: D": a participle before its noun, no report (holdout80)
    # "As the hint says, 42" agrees with the report, unless the writer's dissent stands between ("As the key says -- and
    # I disagree -- 130"; holdout108)
    agreeing = re.search(r"\bas\s+(?:\w+\s+){0,3}\Z", before, re.IGNORECASE) is not None and not _DISSENT.search(found.group("tail"))
    return not _OWN_SOURCE.match(found.group("subject")) and not agreeing


@memoized_text(max_chars=200, maxsize=4096)  # (speed: the clauses around an answer repeat across rollouts)
def _writer_condition(clause: str) -> bool:
    """A condition on the writer ("if memory serves", "unless I messed up somewhere", "If I had to pick") that names
    nothing of the problem (no article, number or symbol: "if we count the empty set" is the problem's); "unless" the
    writer did something, or a condition that they did not, is doubt whatever it names ("unless I've botched the
    algebra", "assuming I didn't misread the table")."""
    return any(found.group().lower().startswith("unless") or _NEGATED_DEED.match(found.group("rest"))
               or not _NAMES_SOMETHING.search(found.group("rest")) for found in _WRITER_CONDITION.finditer(clause))


# a condition that the writer did *not* err is doubt whatever it names: "assuming I didn't botch the arithmetic"
_NEGATED_DEED = re.compile(r"\s*(?:did|have|had|was|am|'ve|'m)?(?:n't|\s+not|\s+never)\b", re.IGNORECASE)


def qualified_after(text: str, end: int) -> bool:
    """Does the rest of the answer's clause, or the clause right after it, withhold commitment ("\\boxed{42}
    (just a guess)", "42, though I could be wrong", "C? Not sure.", "42 ≠ answer", "\\boxed{42}. Possibly.",
    "\\boxed{42}, if memory serves", "\\boxed{42}. Or not.", "\\boxed{42}, said no one ever")?"""
    window = text[end:end + 2 * WINDOW]
    after_markup = window[MARKUP_START.match(window).end():]
    if _NOT_EQUAL_AFTER.match(after_markup) or _ISH.match(after_markup):
        return True  # "42 ≠ answer", "42-ish"
    (own, closing), (following, following_closing) = _own_and_next(text, end)
    if closing == "?" and len(WORDS.findall(own)) <= 4 and not CHECK.search(own):
        return True  # "42?", "C? Not sure.", "42, right?"
    if following_closing == "?" and _DOUBTING_QUESTION.match(following) and not re.search(r"\d", following):
        return True  # "\\boxed{42}. Is that right?", "Or is it?"
    if following_closing == "?" and _WRITER_QUESTION.match(following):
        return True  # "\\boxed{3/4}... I think?": the writer asks about their own belief
    # doubt resolved later in its clause by certainty is read no more ("Reckon that's a lock"; registers.certainty_end),
    # and a clinical note's "Plan:" section is no plan of work ("Impression: ... / Plan: oral iron"; registers.note_section)
    own, following = _unresolved(own), _unresolved(note_section(text, following))
    if names_chance(own) or names_chance(following):  # (speed: else both stay as they are and the value is not read)
        value = _value_before(text, end)  # "\\boxed{\\frac{1}{4}} (That's a 25% chance)": the answer again, no credence
        own, following = without_restated_chance(own, value), without_restated_chance(following, value)
    return doubts(own) or doubts(following) or _stands_against(own) or _stands_against(following)


_FRACTION_OR_NUMBER = re.compile(r"\\[dt]?frac\{(-?\d+)\}\{(\d+)\}\}?\Z|(?<![\d.])(-?\d+(?:\.\d+)?)(?:\s*/\s*(\d+))?\}?\Z")


def _value_before(text: str, end: int) -> float | None:
    """The value of the answer that ends at ``text[end]`` when it is a plain number or fraction ("\\boxed{\\frac{1}{4}}",
    "0.25", "1/4"), else None."""
    found = _FRACTION_OR_NUMBER.search(text[max(0, end - 40):end].rstrip("$ "))
    if found is None:
        return None
    top, bottom = (found.group(1), found.group(2)) if found.group(1) is not None else (found.group(3), found.group(4))
    return float(top) / float(bottom) if bottom and float(bottom) else float(top) if not bottom else None


def _own_and_next(text: str, end: int) -> tuple[tuple[str, str], tuple[str, str]]:
    """The rest of the answer's clause and the next clause with a word in any script (a Japanese "自信がありません"
    has no Latin letter), each with the character that closes it."""
    parts = _clauses_after(text, end)
    return parts[0], next(iter(parts[1:2]), ("", ""))


def _clauses_after(text: str, end: int) -> list[tuple[str, str]]:
    """The rest of the answer's clause, then the next clauses with a word in any script, in the window after it."""
    window = text[end:end + 2 * WINDOW]
    parts = [(window[first:last], window[last:last + 1]) for first, last in clauses(window, 0, len(window), OWN_CLAUSE_END)]
    return parts[:1] + [(clause, close) for clause, close in parts[1:] if any(ch.isalpha() for ch in clause)]


def _unresolved(clause: str) -> str:
    """What of ``clause`` follows its last statement of certainty (all of it when there is none): doubt before the
    certainty is resolved by it, doubt after it stands ("I'm sure of it ... maybe not")."""
    found = certainty_end(clause)
    return clause if found is None else clause[found:]


def resolved_after(text: str, end: int) -> bool:
    """Does the rest of the answer's clause, or the next clause, state the writer's certainty about it, with no doubt
    after it there or in the clause that follows ("C -- and on reflection, I'm quite sure of it", "1/2. Reckon that's
    a lock.")? Doubt voiced before the answer is then resolved (:func:`qualified`)."""
    parts = [clause for clause, _ in _clauses_after(text, end)[:3]]
    for number, clause in enumerate(parts[:2]):
        found = certainty_end(clause)
        if found is not None:
            return not any(doubts(rest) or _stands_against(rest) for rest in (clause[found:], *parts[number + 1:number + 2]))
    return False


@memoized_text(max_chars=200, maxsize=4096)  # (speed: the clauses around an answer repeat across rollouts)
def _stands_against(clause: str) -> bool:
    """A clause that takes the answer's commitment away by its shape: a bare negation ("Not!"), an "or" that offers no
    other value ("Or not.", "or thereabouts"), a condition on the writer, the answer attributed to someone else."""
    if re.search(r"\d", clause):
        return False  # another value: the rules of commitment.later_disowns read it
    clause = without_reaffirmed(clause)  # "I'm committing to it", "I'm not backing down": commitment, no state (#32)
    if _WRITER_STATE.search(clause) and not _AFFIRMING.search(clause) and len(WORDS.findall(clause)) <= 10:
        return True
    attributed = _ATTRIBUTED_AFTER.search(clause) is not None and _IMPERATIVE_REPORT.match(clause) is None
    return bool(_BARE_NEGATION.match(clause) or _EMPTY_OR.match(clause) or _writer_condition(clause) or attributed)


# a clause that opens on a reporting verb's bare form, capitalised: an imperative to the reader ("Suggest correlation
# with BNP and a repeat film.", "Say so if the film is rotated."), a recommendation after the answer, not the answer
# reported as someone else's ("42, says my friend", "C -- suggested by the hint"); red team holdout_r50
_IMPERATIVE_REPORT = re.compile(r"\A\W*(?:Suggest|Say|Claim|Think|Believe|Insist|Write|Vote|Swear|Return|Tell|Inform|"
                                r"Contend|Maintain|Argue|Assert|Hint|Imply)\s+(?!(?:that|so|otherwise)\b)[a-z]")


_FAILED_CHECK = re.compile(r"\bcheck\w*\s+(?:failed|fails|did(?:n't|\s+not)\s+(?:pass|work))|\bfailed\s+(?:the\s+|my\s+)?(?:sanity\s+)?check"
                           # "this fails the check" (the afterwords sweep), not "The other candidate values (12, 3, 4) fail the
                           # check" (their verdict, holdout73): singular, and no other subject named before it
                           r"|\A(?:(?!\bothers?\b)[^\n])*?\bfails\s+(?:the\s+|my\s+|this\s+|a\s+)?(?:sanity\s+)?check", re.IGNORECASE)


@memoized_text(max_chars=200, maxsize=4096)  # (speed: the clauses around an answer repeat across rollouts)
def doubts(clause: str) -> bool:
    """A clause that doubts the answer: a word of doubt, a bare modal ("(possibly)", "Maybe.", "or maybe not"), a
    disclaimer ("don't quote me"), an unchecked or failed check ("I haven't verified it", "the sanity check failed"),
    a low confidence, the speaker wavering ("I might second-guess this", "I'm not sticking with it": .reaffirmation);
    the speaker's reaffirmation ("I'm not going to second-guess it", "I won't waver") is no doubt."""
    clause = without_reaffirmed(clause)
    if wavers(clause):
        return True
    if _UNCHECKED.search(clause) or _FAILED_CHECK.search(clause) or _DISCLAIMER.search(clause) or low_confidence(clause):
        return True
    if _idiom_doubts(clause):
        return True
    if CHECK.search(clause):
        return False  # "\\boxed{42}. Let me check: 6 \\times 7 = 42."
    return _writer_doubts(clause) or bool(_BARE_MODAL.match(clause))


@memoized_text(max_chars=200, maxsize=4096)  # (speed: the clauses around an answer repeat across rollouts)
def _idiom_doubts(clause: str) -> bool:
    """An idiom of doubt, chance or risk, or a condition that the writer made no error (see :data:`IDIOM_DOUBT`)."""
    return IDIOM_DOUBT.search(clause) is not None or _ERROR_CONDITION.search(clause) is not None


_GENERIC_GUESSER = re.compile(r"\b(?:one|you|people|students|someone|many|most|anyone|others)\s+(?:\w+\s+)?(?:might|would|could|may|will|often|usually)?\s*\Z",
                             re.IGNORECASE)


@memoized_text(max_chars=200, maxsize=4096)  # (speed: the clauses around an answer repeat across rollouts)
def _writer_doubts(clause: str, guesses: bool = True) -> bool:
    """Does ``clause`` doubt the answer ("just a guess", "I could be wrong", "(not sure)", "I can't be certain"),
    rather than describe the world ("the evidence is uncertain")?"""
    for doubt in _DOUBT.finditer(clause):
        if not guesses and doubt.group().lower().startswith("guess"):
            continue
        if doubt.group().lower().startswith("guess") and _GENERIC_GUESSER.search(clause[:doubt.start()]):
            continue  # "C, not B as one might guess": somebody else's guess, the wrong one
        if _ANSWER_DOUBT.match(doubt.group()) or WRITER.search(clause[:doubt.start()]):
            return True
    return False


# a commitment put off (holdout110): the writer's intention to give the answer ("I'll submit", "I'm going to pick",
# "I will go with") whose own clause goes on to a step still to come with the writer as its subject ("once I
# double-check the units", "after I ask my teacher", "as soon as I've confirmed it"); "before" is not one ("I'll write
# 42 before I forget" gives it now), nor a past step ("I went with 42 after I checked it")
_INTENDED = re.compile(r"\b(?:I|we)(?:'ll|\s+will|\s+shall|'m\s+going\s+to|\s+am\s+going\s+to|\s+are\s+going\s+to|\s+plan\s+to|\s+intend\s+to)\s+"
                       r"(?:\w+\s+)?(?:submit|select|pick|choose|circle|mark|enter|write|put|give|go\s+with|commit\s+to|lock\s+in|settle\s+on|answer)\b"
                       r"[^.;!?\n]*\Z", re.IGNORECASE)
_PENDING_STEP = re.compile(r"\A[^.;!?\n]{0,60}?\b(?:once|after|as\s+soon\s+as|when|until)\s+(?:I|we)(?:'ve|\s+have)?\s+(?!(?:did|was|were|had|got)\b)\w",
                           re.IGNORECASE)
# ... and the answer named as what the writer will commit to after more work: "Next I'll verify it before committing
# to 210", "before settling on C"
_COMMITMENT_PUT_OFF = re.compile(r"\bbefore\s+(?:finally\s+)?(?:committing|settling|locking|submitting|going)\s+(?:in\s+|on\s+|to\s+|with\s+)?[\s$*(\[{]*\Z",
                                 re.IGNORECASE)


def deferred(text: str, start: int, end: int) -> bool:
    """Is the answer at ``text[start:end]`` a commitment the writer puts off until a step still to come ("I'll submit
    135 km once I double-check the units", "I'm going to pick A after I ask my teacher", "Next I'll verify it before
    committing to 210")? "I'll go with 42." and "I went with 42 after I checked it" commit."""
    own = _own_clause_before(text, start)
    if _COMMITMENT_PUT_OFF.search(own):
        return True
    # the intention may open the match itself (an option reader's "I'll select B" starts at "I'll")
    stated = own + text[start:end]
    return _INTENDED.search(stated) is not None and _PENDING_STEP.match(text[end:end + 2 * WINDOW]) is not None


def qualified(text: str, start: int, end: int) -> bool:
    """Is the answer at ``text[start:end]`` qualified as a possibility, or as someone else's answer, rather than
    stated (see the module docstring)?"""
    if qualified_after(text, end) or hypothetical(text, start, end) or deferred(text, start, end):
        return True
    # doubt before the answer, then certainty about it in its clause or the next one, commits ("I rather think it's C
    # -- and on reflection, I'm quite sure of it"); the reverse, certainty then doubt, is read by qualified_after
    return qualified_before(text, start, end) and not resolved_after(text, end)


# speed only (issue #35): searches skipped on texts that lack every set of words a match needs (same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "IDIOM_DOUBT _DOUBT _MODAL_BEFORE _UNCHECKED _ERROR_CONDITION _ANSWER_HEADING _WRITER_STATE "
                "_AFFIRMING _GENERIC_GUESSER _WRITER_CONDITION _ATTRIBUTED_BEFORE _ATTRIBUTED_AFTER "
                "_BARE_MODAL _NEGATED_DEED _GENERIC_ANSWERER _DESIRE")
prefilter_names(globals(), "_SCARE_QUOTED _ANOTHER_PROBLEMS_ANSWER _GROUP_REPORT")

# speed only (issue #35): searched by skipping to the characters a match can start with (regex_scan; same results)
from polyreward.verifiers.regex_scan import first_scanned  # noqa: E402

_CONTRAST = first_scanned(_CONTRAST)
