"""Clinical-R1's paper-level reasoning objectives, RECONSTRUCTED: ``clinical_faithfulness`` and
``clinical_comprehensiveness``.

Source: Gu et al., "Clinical-R1" (arXiv 2512.00601) names three clinical objectives for CRPO -- accuracy,
faithfulness and comprehensiveness. The released code (BoyangGu1/Clinical-R1-3B,
``verl/utils/reward_score/medical_rule_based.py`` @5c068fd) has only accuracy, format and language terms
(:mod:`polyreward.rewards.crpo`), so these two are rebuilt from the paper's description as rule-based
checks of the reasoning against the question's options. They are not the authors' code.

Both read the options from ``options_column`` (a ``{"A": "..."}`` dict, its JSON, a list or MedQA's
``"A. ...\\nB. ..."`` string). A row without options is a PubMedQA question: its options are the labels
yes / no / maybe. The *reasoning* is the ``<think>`` body (else the text before ``<answer>``/the first box),
after the Clinical-R1 clean-up (:func:`polyreward.rewards.crpo.preprocess`).

clinical_faithfulness -- the reasoning supports the answer and invents nothing::

    F = the final answer (<answer> tag, \\boxed{}, "the answer is ..."; polyreward.verifiers.choice)
    C = the option the reasoning concludes (only its answer phrases, boxes and tags count; an answer phrase that names
        an option by its text, "So the answer is pleural effusion.", concludes it: red team holdout_r30; the last
        sentence, when it states a conclusion that names one option, comes first: closing_conclusion, holdout_r38;
        read on the writer's own words, a program, its output or a traceback set aside: red team holdout_r52; a
        walk that gives every option a verdict of its own and sets all but one aside, or selects one in its own
        verdict, concludes that one: eliminated_choice, the red team's per-option references)
    c = 1 if C == F,  0.5 if the reasoning concludes nothing,  0 if C != F
    g = 1 - bad / refs    refs: "option X"/"choice X" mentions and quoted option texts (option X: "..."),
                          bad: letters outside the option list and quotes that do not match option X's text
                          (fewer than half of the option's words in the quote); g = 1 without refs; a quote
                          the writer's sentence goes on from with a verb ('E: "watch and wait" is unsafe') is
                          its own phrase, no citation (red team holdout_r41)
    r_faith = c · g;  0 when there is no final answer or it is not one of the options
    a reasoning that is only the options and answer words (a list of every option, "The answer is C.") concludes
    nothing: c = 0.5 (it has no reasoning word, see below)

clinical_comprehensiveness -- share of the options weighed in the reasoning::

    r_comp = |{X : a sentence of the reasoning that says something mentions option X}| / |options|;
             0 when the completion gives no final answer (a weighing that reaches none: holdout_r50, holdout_r52)
    mentioned: "option X", "choice X", "the answer is X", "(X)", a line starting "X." / "X)" / "X:" or a markdown
    table row whose first cell is "X" ("| X | no -- ... |", red team holdout_r25),
    "X is/seems/would be ...", "X <verb>s ..." (not for the article "A"), a bare letter opening a sentence when three
    option letters or more open sentences so ("A ptx -> lucency, no. B effusion -> ..."), or the option's whole text
    (case, punctuation, plural and spelling ignored) or its initialism in capitals (``PE``), or "X (gloss)" whose gloss
    repeats the option's own value or words ("C (39) is closest" for "39 mL/min", holdout_r52), or a quantity of its
    text no other option's holds (``0.45%`` beside ``0.9%``: red team holdout_r51); a PubMedQA label counts when quoted, after "answer"/"conclusion", before
    "is (most) likely/correct/...", or opening a sentence or clause ("No, ...").

    A sentence "says something" when it holds a *reasoning word*: a word of two or more letters (or a number)
    that is neither a word of an option's text nor one of the answer/list words (option, choice, answer, the, is,
    or, and, either, ...) nor a word about the act of weighing (considered, choose, ...: red team holdout_r30). So ``Option A. Option B. Option C. Option D.``, ``(A) (B) (C) (D)`` or the option texts
    comma-separated weigh nothing (listing every option would otherwise pay 1.0), while ``A. wrong`` or
    ``alteplase now`` weigh their option; a bare conclusion (``The answer is C.``) weighs the one option it names.
    Sentences end at ``. ! ? ;`` after a word of two characters or more (not
    after "A."; ``;`` after any letter) and at line breaks. A clause that names one option and ends in ``;`` is
    weighed by the next clause of its sentence when that one says why and names no option (Qwen's "Option B is CT
    of the chest; imaging delays reperfusion."); a list of options before one reason weighs at most the last.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from polyreward.reward import Scored
from polyreward.rewards.crpo import ReleasedPreprocessing
from polyreward.rewards.format import content_stems, meta_stems, stem
from polyreward.verifiers.choice import extract_letter, letter_after_answer_block
from polyreward.verifiers.choice_forms import options_by_position
from polyreward.verifiers.label_answers import LABELS, extract_label, squeeze_whitespace
from polyreward.verifiers.label_sets import initialism_of, spelling_key
from polyreward.verifiers.option_checks import cognate_mentions
from polyreward.verifiers.options import parse_options
from polyreward.verifiers.hedging import qualified
from polyreward.verifiers.hidden_text import unstruck
from polyreward.verifiers.markdown_blocks import unquoted_alerts
from polyreward.verifiers.math_normalize import without_emphasis
from polyreward.verifiers.reading import visible_text
from polyreward.verifiers.record_fields import committed_field, rendered_lines, selected_rows, trailing_record
from polyreward.verifiers.sections import without_inline_asides
from polyreward.verifiers.text_forms import plain_text
from polyreward.verifiers.turns import harmony_as_tags, without_nested_turns

SOURCE = "reconstructed from arXiv 2512.00601 (Clinical-R1 CRPO objectives)"
ALL_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CONCLUDING_TIERS = ("answer_tag", "boxed", "anchor", "affirmed", "conclusion", "answer_text")  # the choice reader's committed picks
_OPTION_WORD = re.compile(r"(?i:\b(?:option|choice))\s*[(\[]?\s*([A-Z])\b")
_ANSWER_WORD = re.compile(r"(?i:\banswer(?:\s+(?:is|would\s+be|should\s+be))?)\s*[:(\[]?\s*([A-Z])\b(?!\s+[a-z])")
_PARENTHESISED = re.compile(r"\(([A-Z])\)")
# (a parenthesised gloss may follow the letter: GPT-4o's "- **A (LAD):** anterior leads", red team holdout_r38)
# (red team holdout_r44: or an arrow after the letter, "A → azithromycin is kept for penicillin allergy."; not a
# chain of letters, "A → B → C")
# (red team holdout_r54: after any line marker a reader takes for a bullet -- "+", a block quote's ">", an emoji or a
# check mark: "🔸 A. Dextrose — ...", "> - A. Vein occlusion: ...", "✅ B. Thiamine — ...")
_LINE_START = re.compile(r"(?m)^\s*(?:[^\w\s(\[{\\$|`'\"]\s*){0,3}?\**([A-Z])(?:\s+\([^()\n]{1,40}\))?\**(?:[.):]\**\s|[ \t]*(?:→|->|=>|⇒)[ \t](?![A-Z]\b))")
# a markdown table row whose first cell is one option letter ("| A | no -- conceals the error |"), alone or as the
# label of the option's text ("| A. IV diphenhydramine | adjunct for hives only |"; red team holdout_r40)
# (red team holdout_r56: after a first cell that numbers the row, "| 1st | A. D-dimer | not useful ... |")
_TABLE_ROW = re.compile(r"(?m)^[ \t]*\|(?:[ \t]*#?\d{1,2}(?:st|nd|rd|th|\.)?[ \t]*\|)?[ \t]*\**\(?([A-Z])\)?\**(?:[.):][^|\n]*)?[ \t]*\|")
# (red team holdout_r53) a table row whose first cell is an option letter and, after a space, a short name of the
# option ("| A insulin infusion | not yet: K would fall further |"): counted when the name shares a word with the
# option's text, so an article opening a cell ("| A patient ... |") is no option
_TABLE_ROW_WITH_TEXT = re.compile(r"(?m)^[ \t]*\|[ \t]*\**([A-Z])\**[ \t]+([^|\n]{1,80})\|")
_JUDGED = re.compile(r"\b([A-HJ-Z])\s+(?:is|seems|would\s+be|could\s+be|can|does|doesn't|isn't)\b|\b([B-HJ-Z])\s+[a-z]+s\b")
# (red team holdout_r48) a clause that opens by setting option letters aside, then its reason after a colon or a dash:
# "Not A or B: imaging delays decompression.", "Not D — positive pressure worsens the tension.", "Neither A nor C: ..."
_NOT_LETTERS = re.compile(r"(?:\A|(?<=[.!?;])[ \t]+|(?<=\n))[ \t*_>-]*(?i:not|neither)[ \t]+"
                          r"((?:[A-Z](?:[ \t]*,[ \t]*|[ \t]+(?i:or|nor|and)[ \t]+))*[A-Z])[ \t]*(?:[:\u2013\u2014]|[ \t]-[ \t])")
# (red team holdout_r57) a quotation mark followed by a space closes a quote, it opens none: in a story's dialogue
# ('... primary polydipsia, A." The professor pointed at the labs: "With ...') the letter ends a character's line
_QUOTE = re.compile(r"(?i:\b(?:option|choice)\s*)?\(?\b([A-Z])\)?\s*[.):\-–—]?\s*\(?[\"“](?!\s)([^\"”\n]{3,200})[\"”]")
# a quote followed by a verb of the writer's sentence is a phrase the writer uses as its subject, not the option's
# text cited ('E: "watch and wait" is unsafe'; red team holdout_r41)
_QUOTE_AS_SUBJECT = re.compile(r"[ \t]+(?:is|are|was|were|would|will|does|doesn't|doesn’t|isn't|isn’t|can|cannot|can't|"
                               r"can’t|won't|won’t|seems|sounds|means|only|just|never|risks?|delays?|misses)\b", re.IGNORECASE)
_LABEL_PATTERNS = [
    re.compile(r"[\"'“‘]\s*(yes|no|maybe)\s*[\"'”’]", re.IGNORECASE),
    re.compile(r"\b(?:answer|option|choice|conclusion|verdict)\b[^.\n]{0,20}?\b(yes|no|maybe)\b", re.IGNORECASE),
    re.compile(r"\b(yes|no|maybe)\s+(?:is|seems|would\s+be|could\s+be)\s+(?:not\s+)?(?:the\s+)?"
               r"(?:(?:most|more|less|least|very)\s+)?(?:correct|right|wrong|incorrect|supported|unsupported|justified|likely|unlikely|best|appropriate|answer)", re.IGNORECASE),
    re.compile(r"(?:^|[.!?;\n]\s*)(yes|no|maybe)\s*[,.:;!]", re.IGNORECASE),
]


_LIST_WORDS = frozenset("option options choice choices answer answers the a an is are was be or and either neither nor "
                        "final correct so thus therefore must should would will has to".split())  # (an answer phrase's verbs)
# (a ';' ends its clause after a lone letter too: "Option A; Option B; ..." is a list of clauses, not one sentence;
# and a full stop after a decimal of one digit ends one: "... only for pH below 6.9. D: ..." (red team holdout_r47))
_SENTENCE_END = re.compile(r"(?<=[A-Za-z0-9)\]\"”]{2}[.!?;])\s+|(?<=[A-Za-z0-9)\]\"”];)\s+|(?<=\d\.\d[.!?])\s+|\n+")


_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _content_words(text: str) -> set[str]:
    """The words of three letters or more of ``text``, lowercased (an option's name and its text compared)."""
    return {word for word in _words(text) if len(word) >= 3 and not word.isdigit()}


def reasoning_words(text: str, options: Mapping[str, str]) -> int:
    """Words of ``text`` that carry reasoning: not an option's words, not answer/list words, not one letter, and not
    a word about the act of weighing (:data:`polyreward.rewards.format.META_WORDS`, by stem: ``considered``,
    ``choosing``, ``option``): ``Hamartoma - considered.`` names its option and says nothing of it (red team
    ``holdout_r30``)."""
    listed = _listed_words(tuple(options.values()))
    meta = meta_stems()  # (an abbreviation of an option's words is those words: "Central DI?", "A (LAD):" say nothing)
    return sum(1 for w in set(_words(spelled_out(text, options))) if w not in listed and (len(w) > 1 or w.isdigit()) and stem(w) not in meta)


@lru_cache(maxsize=256)
def _listed_words(options: tuple[str, ...]) -> frozenset[str]:
    """The options' words and the answer/list words (:data:`_LIST_WORDS`): built once per option set."""
    return frozenset(w for option in options for w in _words(option)) | _LIST_WORDS


# (red team holdout_r44) a bare conclusion: a conclusion word and one letter ("Hence D.", "So option B.", "That leaves C.")
_BARE_CONCLUSION = re.compile(r"\A[\s*_>#-]*(?:so|thus|hence|therefore|that\s+leaves|which\s+leaves)\W+"
                              r"(?:(?:option|choice)\s+)?\(?([A-Z])\)?[\s*.!]*\Z", re.IGNORECASE)


def weighed_letters(reasoning: str, options: Mapping[str, str]) -> set[str]:
    """The options weighed in sentences that say something, plus the one option a bare conclusion names
    ("The answer is C.", "Hence D.": one letter, not "The answer is A, B, C or D.")."""
    reasoning = options_named_by_letter(reasoning, options)
    sentences = _SENTENCE_END.split(reasoning)
    openers = [first | alone for first, alone in zip(_letter_openers(sentences, options), _letters_in_turn(sentences, options))]
    verdicts: dict[str, set[frozenset[str]]] = {}  # letter -> the words said of it alone, one set per sentence
    otherwise: set[str] = set()  # letters weighed by anything but a sentence said of one letter alone
    last = max((at for at, sentence in enumerate(sentences) if sentence.strip()), default=-1)
    for at, sentence in enumerate(sentences):
        if bare := _BARE_CONCLUSION.match(sentence):  # "Hence D." after the others were set aside (holdout_r44)
            otherwise |= {bare.group(1)} & set(options)
        elif at == last and (chosen := _labelled_restatement(sentence, options)):  # "B: immediate PCI." (holdout_r49)
            otherwise |= {chosen}
        elif reasoning_words(sentence, options) and _says_of_each(sentence, options) and not _POINTER.fullmatch(sentence):
            named = mentioned_letters(sentence, options) | openers[at]
            if len(named) == 1:
                verdicts.setdefault(next(iter(named)), set()).add(_said_words(sentence, options))
            else:
                otherwise |= named
        elif named := _named_then_explained(sentence, sentences[at + 1] if at + 1 < len(sentences) else "", options):
            otherwise |= named
        else:
            concluded = {m.group(1) for m in _ANSWER_WORD.finditer(sentence)} & set(options)
            otherwise |= concluded if len(concluded) == 1 else set()
    return (set(verdicts) - _same_verdict_for_all(verdicts, options)) | otherwise


def options_named_by_letter(reasoning: str, options: Mapping[str, str]) -> str:
    """``reasoning`` with the options it names by their place or by small letters named by their capital letters
    (red team ``holdout_r56``), so the weighing is read as the same weighing by letter:

    * an ordinal option phrase, "the first option", "the third choice", "the last one" -> "option A", "option C",
      "option E" (:func:`polyreward.verifiers.choice_forms.options_by_position`), and once the reasoning has named an
      option so, a sentence that opens with a bare ordinal, "The second, IV furosemide, relieves ..." -> "Option B, ...";
    * small letters in brackets, "(a)" ... "(e)", when three or more distinct ones are option letters: the options
      labelled in small letters ("(a) A portable film delays ... (b) CT is unsafe ..."); fewer stay (an enumeration).
    """
    letters = "".join(sorted(options))
    named = options_by_position(reasoning, letters, options) if _ORDINAL_WORD.search(reasoning) else []
    if named:
        pieces, last = [], 0
        for match, letter in named:
            pieces += [reasoning[last:match.start()], f"option {letter}"]
            last = match.end()
        reasoning = "".join(pieces) + reasoning[last:]
        order = sorted(options)
        reasoning = _BARE_ORDINAL.sub(lambda m: m.group(1) + (f"Option {order[_ORDINALS.index(m.group(2).lower())]}"
                                                              if _ORDINALS.index(m.group(2).lower()) < len(order) else m.group(2)),
                                      reasoning)
    small = {m.group(1) for m in _SMALL_LETTER_LABEL.finditer(reasoning)} if "(" in reasoning else set()
    if len({letter.upper() for letter in small} & set(options)) >= OPENER_LETTERS:
        reasoning = _SMALL_LETTER_LABEL.sub(lambda m: f"({m.group(1).upper()})" if m.group(1).upper() in options else m.group(), reasoning)
    return reasoning


_ORDINALS = ("first", "second", "third", "fourth", "fifth")
_ORDINAL_WORD = re.compile(r"\b(?:first|second|third|fourth|fifth|last)\b", re.IGNORECASE)
# a sentence that opens with a bare ordinal, then a comma, colon or dash: "The second, IV furosemide, relieves ..."
_BARE_ORDINAL = re.compile(r"((?:\A|[.!?;\n])[\s*_>#-]*)the\s+(first|second|third|fourth|fifth)(?=\s*[,:\u2013\u2014]|\s+-\s)",
                           re.IGNORECASE)
_SMALL_LETTER_LABEL = re.compile(r"\(([a-z])\)")


# (red team holdout_r49) the reasoning's last sentence as one option's label and its own words: "B: immediate PCI.",
# "C: apixaban." -- the pick after the others were weighed, a conclusion as "Hence B." is
_LABELLED_SENTENCE = re.compile(r"\A[\s*_>#-]*(?:(?:option|choice)\s+)?\(?([A-Z])\)?\s*[:.)\u2013\u2014-]\s+(\S.*)\Z",
                                re.IGNORECASE | re.DOTALL)


def _labelled_restatement(sentence: str, options: Mapping[str, str]) -> str | None:
    """The option letter of ``sentence`` when it is that option's label followed only by the option's own words (no
    reasoning word, :func:`reasoning_words`; at least one word of the option's text), else None: "B: immediate PCI."
    for "Immediate percutaneous coronary intervention"; "Option A. Option B. Option C." (labels only) is none. Read of
    the reasoning's last sentence only (:func:`weighed_letters`), where it is the choice."""
    match = _LABELLED_SENTENCE.match(sentence.strip())
    if match is None or match.group(1).upper() not in options or not match.group(1).isupper():
        return None
    text_words = re.findall(r"[^\W\d_]{3,}", options[match.group(1)].lower())
    initials = "".join(word[0] for word in text_words)  # "PCI" for "(immediate) percutaneous coronary intervention"
    said = match.group(2)
    if not set(text_words) & set(re.findall(r"[^\W\d_]{3,}", said.lower())) and not any(
            len(short) >= 2 and short.lower() in initials for short in re.findall(r"\b[A-Z]{2,}\b", said)):
        return None  # "Option A. Option B. Option C.": a list of labels, not the option's own words (stop 63)
    return match.group(1) if not reasoning_words(match.group(2), options) else None


def _said_words(sentence: str, options: Mapping[str, str]) -> frozenset[str]:
    """The words of ``sentence`` that say something of its option (:func:`reasoning_words`'s words)."""
    listed, meta = _listed_words(tuple(options.values())), meta_stems()
    return frozenset(w for w in _words(spelled_out(sentence, options))
                     if w not in listed and (len(w) > 1 or w.isdigit()) and stem(w) not in meta)


def _same_verdict_for_all(verdicts: dict[str, set[frozenset[str]]], options: Mapping[str, str]) -> set[str]:
    """The letters weighed only by one tag said of every option alike (red team ``holdout_r45``: "A possible. B
    possible. C possible. D possible. E possible."): when every option has sentences of its own and they all say the
    same one word, the tag tells no option from another, so none is weighed. "A. no. B. no. C. yes. D. no." tells C
    from the rest and weighs them all; so does any sentence that says something else of one option, and a reason
    of several words said of each ("A fits poorly because of the lucency.", holdout_r30's property) is a reason."""
    if len(options) < 3 or set(verdicts) != set(options):
        return set()
    said = {words for sets in verdicts.values() for words in sets}
    return set(options) if len(said) == 1 and len(next(iter(said))) <= 1 else set()


# (red team holdout_r46) a verdict that only points elsewhere or holds a place ("A: see guideline", "B: as above",
# "C: TBD", "D: n/a") says nothing of its option
_POINTER = re.compile(r"[\s*_>#-]*(?:(?:option\s+)?\(?[A-Z][.:)]\s*)?(?:(?:see|refer\s+to|per|as\s+per|cf\.?|check)\s+(?:the\s+)?"
                      r"(?:guidelines?|above|below|notes?|table|references?|text|literature|source|protocol|uptodate)|"
                      r"as\s+above|ditto|same|n/?a|tbd|tba|todo|pending|\.{3}|…|[-\u2013\u2014?])[\s.!]*", re.IGNORECASE)


def _says_of_each(sentence: str, options: Mapping[str, str]) -> bool:
    """False when ``sentence`` names two options or more and holds no content word besides their words and the
    answer/list words (:func:`polyreward.rewards.format.content_stems`: function words such as "this could be" or
    "all of them" are none): "This could be a pneumothorax, a pleural effusion, lobar pneumonia or pulmonary edema;"
    lists the options and weighs none of them (red team ``holdout_r30``), where "Pleural effusion and pulmonary edema
    would not show air bronchograms." weighs both. A sentence that names one option keeps the word test of
    :func:`reasoning_words` ("A. no" weighs A)."""
    if len(mentioned_letters(sentence, options)) < 2:
        return True
    listed = {stem(w) for option in options.values() for w in _words(option)} | {stem(w) for w in _LIST_WORDS}
    return bool(content_stems(sentence) - meta_stems() - listed)


# a sentence that opens with a lone capital and a word in small letters ("A ptx -> lucency, not opacity, no."), or
# with a lone capital glossed after a comma, or two joined by "and" ("D, salbutamol, opens the airways", "A and E, the
# H1 and H2 blockers, only treat the skin signs"; red team holdout_r45)
# (red team holdout_r53: or after a lead-in that ends in a colon and names no letter, "Now the options for the next
# step: A, FNA - yes, tissue first; B, uptake scan - only if TSH were low; ...")
_LETTER_OPENER = re.compile(r"(?:[^:\n]{0,60}?(?<![A-Z])(?<![A-Z][.)]):\s)?[\s*_>#-]*+(?:\d{1,2}[.)]\s+)?([A-Z])(?:\s+(?:and|&)\s+([A-Z]))?(?:\s(?=[a-z])|,\s)")
OPENER_LETTERS = 3  # distinct option letters opening sentences that make the capitals option labels, not articles


def _letter_openers(sentences: list[str], options: Mapping[str, str]) -> list[frozenset[str]]:
    """The option letter each sentence opens with, when the reasoning runs through the options a sentence each with
    the bare letter first (a GRPO-tuned model's terse layout: "A ptx -> lucency, no. B effusion -> meniscus, no. C
    lobar pneumonia -> yes. D edema -> bilateral, no."; red team ``holdout_r30``): three distinct option letters or
    more open sentences so. Fewer, a capital ``A`` opening a sentence is the article ("A patient with ..."): none.
    A letter glossed after a comma, or two joined by "and", open their sentence too ("D, salbutamol, opens the
    airways", "A and E, the H1 and H2 blockers, only treat the skin signs"; red team ``holdout_r45``)."""
    openers = [frozenset(m.groups()) - {None} & set(options) if (m := _LETTER_OPENER.match(x)) else frozenset()
               for x in sentences]
    return openers if len(frozenset().union(*openers)) >= OPENER_LETTERS else [frozenset()] * len(sentences)


# (red team holdout_r55) an option letter standing alone inside a sentence: a capital with no word character, hyphen,
# slash, apostrophe or quote touching it, and not an abbreviation's initial ("E. coli"); "I" is the pronoun. At a
# sentence's start it must be followed by a sign rather than a word or number ("A ✗ -- ...", not "A patient ..." /
# "A 4-year-old"); and words must follow it in its sentence (what is said of it: "Going with A." or "So C." at the end
# chooses, it weighs nothing)
_LONE_LETTER = re.compile(r"(?<![\w'’\"“”.\-/])([A-HJ-Z])(?![\w'’\"“”\-/]|\.[ \t]*[a-z]|\.\w)")
_ARTICLE_START = re.compile(r"[\s*_>#-]*(A)[ \t]+(?!(?:and|or|&)[ \t]+[A-Z]\b)\w")  # not "A and B: ..."


def _letters_in_turn(sentences: list[str], options: Mapping[str, str]) -> list[frozenset[str]]:
    """The option letter each sentence names alone, when the reasoning walks through the options that way -- a tutor's
    or a Socratic layout that names the letter inside the sentence ("Let's look at A first: hiding it is dishonest.",
    "Now B: ...", "What about D? Going to the ethics committee is premature.", "Does C? Not alone -- ...", "Why not A?
    Dialysis takes time.", "Common mistake 2: choosing C -- steroids alone are not first line.", "A ✗ -- atropine
    dilates the pupil"; red team ``holdout_r55``): three distinct option letters or more each the only lone capital
    of its sentence, as :func:`_letter_openers` asks of letters that open them. Fewer, a lone capital is read as
    anything else it can be (``hepatitis B``, ``vitamin D``): none."""
    letters = []
    for sentence in sentences:
        article = article.start(1) if (article := _ARTICLE_START.match(sentence)) else -1  # the article's "A", if any
        said_until = len(sentence)
        while said_until and not sentence[said_until - 1].isalnum():
            said_until -= 1
        alone = {m.group(1) for m in _LONE_LETTER.finditer(sentence)
                 if m.start() != article and m.end() < said_until} & set(options)
        letters.append(frozenset(alone) if len(alone) == 1 else frozenset())
    return letters if len(frozenset().union(*letters)) >= OPENER_LETTERS else [frozenset()] * len(sentences)


def _named_then_explained(clause: str, following: str, options: Mapping[str, str]) -> set[str]:
    """The one option a clause ending in ';' names, when the next clause of its sentence says why and names none:
    "Option B is CT of the chest; imaging delays reperfusion." weighs B (Qwen's layout: the option, then its reason).
    So does a question about one option answered by the next sentence ("Primary polydipsia? The sodium is 146, too
    high.": DeepSeek's layout, red team ``holdout_r38``).
    A list of options before the reason ("Options A, B; all wrong", "Option A; Option B; ...") weighs none of them
    but the last one named alone."""
    if not clause.rstrip().endswith((";", "?")):  # (speed: the cheap test first; most sentences end otherwise)
        return set()
    named = mentioned_letters(clause, options)
    if len(named) != 1 or not reasoning_words(following, options):
        return set()
    return named if not mentioned_letters(following, options) else set()


def weighed_labels(reasoning: str) -> set[str]:
    """:func:`weighed_letters` for the PubMedQA labels."""
    as_options = {label: label for label in LABELS}
    return set().union(*(mentioned_labels(s) for s in _SENTENCE_END.split(reasoning) if reasoning_words(s, as_options)))


def split_reasoning(text: str) -> str:
    """The reasoning part of a cleaned completion: the ``<think>`` body, else the text before the answer.

    Whitespace runs come back squeezed to one character, which keeps the mention patterns below linear in the
    reasoning's length (their ``\\s*`` pairs would otherwise backtrack over long runs of blanks)."""
    close = text.find("</think>")
    if close >= 0:
        start = text.find("<think>")  # (a chat-template turn pasted into the think is no weighing of its own: holdout_r47)
        return squeeze_whitespace(without_nested_turns(text[start + len("<think>") if 0 <= start < close else 0:close]))
    cut = [at for at in (text.find("<answer>"), text.find("\\boxed")) if at >= 0]
    return squeeze_whitespace(text[: min(cut)] if cut else text.replace("<think>", ""))


def mentioned_letters(reasoning: str, options: Mapping[str, str]) -> set[str]:
    """Option letters the reasoning weighs, by letter or by the option's whole text (module docstring): its words
    in the plural or another spelling too (``Hamartomas are smooth``: :func:`spelling_key`), or the initialism a
    clinician writes for an option of two or more words, in capitals (``PE`` for pulmonary embolism; not for a
    finding the radiology lexicon names, :func:`initialism_of`; red team ``holdout_r30``)."""
    found = set()
    for pattern in (_OPTION_WORD, _ANSWER_WORD, _PARENTHESISED, _LINE_START, _TABLE_ROW, _JUDGED):
        found.update(m.group(m.lastindex) for m in pattern.finditer(reasoning))
    found |= glossed_letters(reasoning, options)
    if "|" in reasoning:  # "| A insulin infusion | not yet |": the letter, then words of its option's text (holdout_r53)
        found |= {row.group(1) for row in _TABLE_ROW_WITH_TEXT.finditer(reasoning) if row.group(1) in options
                  and _content_words(row.group(2)) & _content_words(options[row.group(1)])}
    for negated in _NOT_LETTERS.finditer(reasoning):  # "Not A or B: imaging delays ..." (holdout_r48)
        found.update(re.findall(r"\b[A-Z]\b", negated.group(1)))
    haystack = " " + spelling_key(" ".join(_words(spelled_out(reasoning, options)))) + " "
    by_text = {}
    for letter, needle in _option_keys(tuple(options.items())):
        by_text.setdefault(needle, letter)
        if len(needle) >= 3 and f" {needle} " in haystack:
            found.add(letter)
    for capitals in _CAPITALS.finditer(reasoning):
        if (text := initialism_of(capitals.group().lower(), set(by_text))) is not None \
                and not _modifies_other_option(reasoning[capitals.end():], by_text[text], options):
            found.add(by_text[text])
    if any(ch.isdigit() for ch in reasoning):
        found |= {letter for letter, quantity in _own_quantities(tuple(options.items())) if quantity.search(reasoning)}
    return found & set(options)


@lru_cache(maxsize=256)
def _own_quantities(options: tuple[tuple[str, str], ...]) -> tuple[tuple[str, re.Pattern], ...]:
    """(letter, pattern) for each quantity -- a number with the unit or sign after it -- that one option's text holds
    and no other's: "0.45%" of ``Intravenous 0.45% sodium chloride`` beside ``Intravenous 0.9% sodium chloride``
    (red team ``holdout_r51``). The reasoning names that option by the quantity, written with its unit ("0.45 %
    saline", "the 0.45% one"); a bare number ("0.45") or the number of another unit names nothing."""
    found = {letter: set(_QUANTITY.findall(text.lower())) for letter, text in options}
    own = []
    for letter, quantities in found.items():
        for number, unit in quantities:
            if not any((number, unit) in theirs for other, theirs in found.items() if other != letter):
                own.append((letter, re.compile(rf"(?<![\d.]){re.escape(number)}\s*{re.escape(unit)}(?![a-z])", re.IGNORECASE)))
    return tuple(own)


_QUANTITY = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(%|[a-zµμ]+(?:/[a-zµμ]+)?)")


def _modifies_other_option(after: str, letter: str, options: Mapping[str, str]) -> bool:
    """True when the word after an initialism of option ``letter`` belongs to another option's text and not to this
    one's: the capitals modify that other option's name, as a clinician abbreviates a route or a site ("IM
    epinephrine" is intramuscular epinephrine, not ``Intravenous methylprednisolone``; red team ``holdout_r41``)."""
    return _modifies_other_run(after, " ".join(_words(options[letter])), options)


def _modifies_other_run(after: str, run: str, options: Mapping[str, str]) -> bool:
    """:func:`_modifies_other_option` for an initialism that spells ``run`` (words of an option's text)."""
    following = _words(after[:40])
    if not following or len(following[0]) < 4:
        return False
    word = following[0]
    return word not in run.split() and any(word in _words(text) and not set(run.split()) <= set(_words(text))
                                           for text in options.values())


# an option letter opening a clause (the sentence's start, after . ! ? : or ";", after "so" / "then"), then a gloss set
# off by a comma or a bracket: "B, thalassemia trait, has a normal ferritin", "A (iron deficiency): ferritin 6"
_GLOSSED = re.compile(r"(?:\A|[.!?:;]\s+|:|\b(?i:so|then|and)\s+)[*_]*([A-Z])[*_]*\s*(?:,\s*|\(\s*)([^,():;\n]{2,60})")


# (red team holdout_r45) the same gloss written first, the letter after it set off by commas or closing the clause:
# "So calcium gluconate, A, comes first.", "Calcium gluconate, option A, is the immediate step."
_APPOSITIVE_LETTER = re.compile(r"([^,():;.!?\n]{2,60}),[ \t]*(?:(?i:option|choice)[ \t]+)?[*_]*([A-Z])[*_]*(?=[ \t]*(?:,|[.!?;]|\Z))")


# (red team holdout_r52) an option letter anywhere, then a bracketed gloss that repeats the option's own value or words:
# a calculation item weighs its options by their values, "A (18) and B (29) are too low, D (58) and E (72) too high;
# C (39) is closest."
_BRACKET_GLOSSED = re.compile(r"(?<![\w'])([A-Z])[ \t]*\(([^()\n]{1,40})\)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _gloss_repeats_option(gloss: str, option: str) -> bool:
    """Does ``gloss`` share a content word (by stem) or a number with the option's ``option`` text?"""
    return bool(content_stems(gloss) & content_stems(option) or set(_NUMBER.findall(gloss)) & set(_NUMBER.findall(option)))


def glossed_letters(text: str, options: Mapping[str, str]) -> set[str]:
    """Options named by their letter opening a clause and glossed, after a comma or in brackets, by words of their own
    text: "B, thalassemia trait, has a normal ferritin" names B (``Beta-thalassemia trait``), "checking each option:
    A, alteplase, only if PCI is delayed" names A (``Thrombolysis with alteplase``), "A (iron deficiency): ferritin 6"
    names A. Clinicians and dialogue turns weigh options so ("Registrar: So B, nitrofurantoin, safe in the first
    trimester"; red team ``holdout_r42``). The gloss must share a content word with that option's text, so a list of
    letters ("A, B and C are wrong") or a relative clause ("A, which ...") names nothing here. The gloss may come
    first, the letter after it set off by commas ("So calcium gluconate, A, comes first.", "IM epinephrine, option B,
    is first line"; red team ``holdout_r45``): the same words of the option's text name it. A letter anywhere with a
    bracketed gloss that repeats its option's value or words names it too ("C (39) is closest" for ``39 mL/min``, "D
    (58) and E (72) too high"; red team ``holdout_r52``)."""
    found = set()
    for match in _GLOSSED.finditer(text):
        letter = match.group(1)
        if letter in options and content_stems(match.group(2)) & content_stems(options[letter]):
            found.add(letter)
    for match in _APPOSITIVE_LETTER.finditer(text):
        letter = match.group(2)
        if letter in options and content_stems(match.group(1)) & content_stems(options[letter]):
            found.add(letter)
    for match in _BRACKET_GLOSSED.finditer(text):  # "C (39) is closest" for "39 mL/min" (holdout_r52)
        letter = match.group(1)
        if letter in options and _gloss_repeats_option(match.group(2), options[letter]):
            found.add(letter)
    return found


@lru_cache(maxsize=256)
def _option_keys(options: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """(letter, the spelling key of its text's words) per option: built once per option set, as
    :func:`mentioned_letters` runs once per sentence of the reasoning."""
    return tuple((letter, spelling_key(" ".join(_words(text)))) for letter, text in options)


# a word of 2-6 capitals standing alone (``PE``, ``CHF``): an initialism when it spells an option's words
_CAPITALS = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2,6}(?![A-Za-z0-9])")


def spelled_out(text: str, options: Mapping[str, str]) -> str:
    """``text`` with each word of 2-6 capitals that spells the initials of a run of two or more consecutive words of
    an option's text replaced by those words, when every such run spells the same words: a clinician abbreviates
    part of an option's name ("nephrogenic DI" for ``Nephrogenic diabetes insipidus``, "Central DI?" for ``Central
    diabetes insipidus``; red team ``holdout_r38``). The option is still named only by its whole text, so "DI" alone
    names neither of two diabetes insipidus options. A run that is a finding of the radiology lexicon is left to its
    aliases (``PE``: :func:`initialism_of`)."""
    if _CAPITALS.search(text) is None:
        return text
    runs = _initial_runs(tuple(options.values()))

    def expand(match: re.Match) -> str:
        run = runs.get(match.group(0).lower())
        if run is None or _modifies_other_run(text[match.end():], run, options):
            return match.group(0)
        return run

    return _CAPITALS.sub(expand, text)


@lru_cache(maxsize=256)
def _initial_runs(texts: tuple[str, ...]) -> dict[str, str]:
    """initials -> the one run of two to six consecutive words of the option texts they spell (every run that spells
    them the same words; not a finding of the radiology lexicon: :func:`initialism_of`). Built once per option set:
    :func:`spelled_out` runs once per sentence of the reasoning."""
    runs: dict[str, set[str]] = {}
    for option in texts:
        words = _words(option)
        for i in range(len(words)):
            for j in range(i + 2, min(len(words), i + 6) + 1):
                run = words[i:j]
                if all(w.isalpha() for w in run):
                    runs.setdefault("".join(w[0] for w in run), set()).add(" ".join(run))
    return {initials: next(iter(found)) for initials, found in runs.items()
            if len(found) == 1 and initialism_of(initials, found) is not None}


# the last sentence of a reasoning that states its conclusion: a conclusion word or label, then the conclusion
_CONCLUDING_OPENER = re.compile(
    r"\A[\s*_#>-]*(?:(?:so|thus|hence|therefore|overall)\b[,:]?|(?:conclusion|diagnosis|dx|impression|final\s+answer)"
    r"\s*[:\-\u2013\u2014]|this\s+is\b|that\s+leaves\b|which\s+leaves\b|"
    # (red team holdout_r57) the pronoun of the case equated with the option: "it's Graves (C).", "It is SIADH, B.", "it
    # must be iron deficiency" -- not a predicate that takes a clause ("It's tempting to say A.", "it is clear that ...")
    r"it(?:['’]s|\s+is|\s+must\s+be)\b(?!\s+(?:[\w'’-]+\s+)?(?:to|that)\b))\s*", re.IGNORECASE)
# (red team holdout_r40) a last sentence that names what the question asks for and equates it with an option ("The
# first step is intramuscular epinephrine — B.", "The most likely diagnosis is iron deficiency anemia."): a definite
# subject of at most five words, then "is" / "would be"
# (red team holdout_r57) or a wh-cleft that names it so: "What saves him now is intramuscular epinephrine (D)."
_COPULAR_OPENER = re.compile(r"\A[\s*_#>-]*(?:the|what)\s+(?:[a-z'’-]+\s+){1,5}?(?:is|would\s+be)\s+(?!not\b|no\b)", re.IGNORECASE)
# (red team holdout_r42) the speaker's own choice: "On my own reading I lean to B.", "I'd go with D.", and a sentence of
# three words or more (no turn's label) whose clause after its colon is the option: "I agree with the resident: A.",
# "The note's diagnosis is mine: A."
_SPEAKER_CHOICE_OPENER = re.compile(r"\A(?:[^.!?\n]*?\s)?I(?:'d|\s+would|'ll|\s+will)?\s+(?:choose|pick|go\s+with|lean\s+(?:to|towards)|"
                                    r"opt\s+for|settle\s+on)\s+(?:option\s+)?", re.IGNORECASE)
# (red team holdout_r51) the same choice as a pseudo-cleft, the option first: "the oral calcium carbonate tablet is what
# I'd start with.", "IV calcium gluconate is what I would give." (the option is the clause's subject, after its last
# comma or semicolon)
_PSEUDO_CLEFT_CHOICE = re.compile(r"(?:\A|[,;:]\s)(?P<choice>[^,;:]{2,120}?)\s+(?:is|would\s+be)\s+what\s+I(?:'d|\s+would|'ll|\s+will)?"
                                  r"\s+(?:give|start\s+with|begin\s+with|choose|pick|do|go\s+with|recommend|use|order)\b[^,;:]*\Z",
                                  re.IGNORECASE)
_COLON_CONCLUSION = re.compile(r"\A(?=[^:\n]*\s\S+\s\S+\s*:)(?![\s*_#>-]*[A-Z][\w.'-]{0,20}(?:\s[A-Z0-9][\w.'-]{0,20}){0,2}\s*(?:\([^()]{1,12}\))?\s*:)"
                               r"[^:\n]*:\s*(?=[\s*(]*[A-Z][\s*).!]*\Z)")
# (red team holdout_r58) a debate's settlement closing the reasoning: a heading that names what a panel decided
# ("Consensus: B.", "MDT outcome: C, Graves disease.", "Attending sign-off: B.", "Majority: A.", "Judge's verdict: C") or
# a voice assenting ("Planner accepts: A.", "Both agree: C."), then one option; a member's or a minority's heading
# ("Expert 2: A.", "Minority: C.", "Chair:") settles nothing
_SETTLED = re.compile(r"\A[\s*_#>-]*(?P<head>[^:.!?\n]{0,40}?\b(?:consensus|outcome|verdict|decision|sign-?off|majority|ruling|"
                      r"agreed|agrees?|accepts?|accepted|concedes?|conceded|concurs?|settles?(?:[ \t]+on)?|settled)\b"
                      r"[^:.!?\n]{0,30}?)[\s*_]*:[\s*_]*(?P<choice>\S[^\n]*)\Z", re.IGNORECASE)
# the closing clause of a sentence, after a comma and a conclusion's word ("..., so C.", "..., hence option B.")
_CLOSING_CLAUSE = re.compile(r",\s*(?:so|thus|hence|therefore)\b[,:]?\s*(?=[^,;]*\Z)", re.IGNORECASE)
# (red team holdout_r44) the reply to the reasoning's own question, closing it: a short head, a colon and one letter
# ("... what restores his perfusion first? Fluids: E.")
_REPLY = re.compile(r"[\s*_]*(?:(?P<head>[^\s:?]+(?:[ \t]+[^\s:?]+){0,2})[ \t]*:[ \t]*)?[*_(]*(?P<letter>[A-Z])[*_)]*[ \t]*[.!]?[\s*_]*")
# (red team holdout_r57) the letter fronted before "it is" closing the reasoning, alone or after a dash, colon or
# semicolon: "C it is.", "... the right coronary artery's waters — C it be."
_INVERTED_CHOICE = re.compile(r"(?:\A|[\u2013\u2014:;][ \t]|[ \t]--?[ \t])[\s*_(]*(?P<letter>[A-Z])[*_)]*[ \t]+it[ \t]+(?:is|be)[\s.!*_]*\Z")
# a numbered reasoning's item number ("4. Conclusion: A.", a thread's "4/ So: right coronary artery, C.")
_LIST_NUMBER = re.compile(r"\A[\s*_>#-]*\d{1,2}[.)/][ \t]+")
# a sentence wholly in brackets: an aside after the conclusion, read past when it names no option (by its text or its
# letter, even one that could be an article: "(Actually, A.)" is no aside)
_ASIDE = re.compile(r"\s*\([^()]*\)\s*")
_ARROW = re.compile(r"(?:→|⇒|➡\ufe0f?|=>|->|=)\s*")  # (holdout_r57: the emoji arrow "➡️ Iron deficiency anemia (A).")
# (red team holdout_r44: or after a labelled bare letter, "Working answer: D. With no cough ..., the picture is viral: B.")
# (red team holdout_r52: or after a number with one decimal, "... = 31.0. A (24.1) and B (27.8) are too low; C matches.")
# (red team holdout_r53: or after a letter closing its clause, "... transvaginal ultrasound, A. B, D and E do not fit.",
# "... within 72 hours: C. HIDA, CT and ERCP are not needed.")
_CLOSING_SENTENCE = re.compile(r"(?<=[A-Za-z0-9)\]\"”'’]{2}[.!?])\s+|(?<=\d\.\d[.!?])\s+|(?<=:\s[A-Z]\.)\s+(?=[A-Z][a-z])|"
                               r"(?<=\s\d[.!?])[ \t]+(?=[A-Z][a-z])|"  # "..., so 3. Recounting: the same 3. An anticoagulant ..."
                               r"(?<=[A-Za-z][,:]\s[A-Z]\.)\s+(?=[A-Z])|\n+")
_ALTERNATIVE = re.compile(r"\b(?:or|versus|vs|either)\b|/", re.IGNORECASE)  # "So nephrogenic or central DI."
_NEGATION = re.compile(r"\b(?:not|no|never|unlikely|excluded|ruled\s+out|rather\s+than|instead\s+of)\b|n't\b", re.IGNORECASE)


# (red team holdout_r41) a last sentence labelled with its option after a dash: "... means iron deficiency — option B.",
# "... is central retinal artery occlusion – C."; not an option's own verdict line ("E: unsafe — option E.");
# "... — option B." and "The cherry-red spot means C.": a dash, or a verb of what the evidence shows, then the option
# (red team holdout_r44) or a comma: "... the balance favours aspirin alone, A.", "... at 1 she needs nothing, B." (the
# letter closing the sentence labels what it has just said; the sentence must name no other option)
_LABELLED_CLOSE = re.compile(r"(?:[ \t](?:[\u2013\u2014]|--?|means|indicates|points[ \t]+to|confirms)|,)[ \t]*"
                             r"(?P<label>(?:(?:option|choice)[ \t]+)?\(?[A-Z]\)?)[\s.!*]*\Z", re.IGNORECASE)
_VERDICT_LINE = re.compile(r"\A[\s*_#>-]*\(?[A-Z][.:)]\s")
# a predicate that judges its option against (the sentence is that option's verdict, not the conclusion): "Observation
# is unsafe — E.", "Steroids act too late — option B."
_AGAINST = re.compile(r"\b(?:unsafe|wrong|incorrect|inappropriate|contraindicated|dangerous|harmful|premature|ineffective|"
                      r"useless|inadequate|insufficient|late|slow|avoid(?:ed|s)?|fails?)\b", re.IGNORECASE)
# (red team holdout_r44) a fronted adjunct set off by a comma, whose negation governs a circumstance, not the
# conclusion: "With no cough and a sibling with a cold at home, the picture is viral: B."
_FRONTED_ADJUNCT = re.compile(r"\A\s*(?:with|without|given|despite|in)\b[^,;:]{1,100},", re.IGNORECASE)
# what follows a conclusion's option and may be a rider: a comma, or a dash set off by spaces
_RIDER = re.compile(r",|[ \t][\u2013\u2014][ \t]|[ \t]--?[ \t]")


CLOSING_TAIL_CHARS = 2000


# a verdict that sets options aside or puts them off: "do not fit", "are wrong", "are later", "come afterwards"
_DEFERRED = re.compile(r"\b(?:later|afterwards?|subsequently|eventually|after\s+that)\b", re.IGNORECASE)
# phrases set off by commas before a sentence's subject ("Here in the ED, with papilledema, the next step is ..."): a
# place or circumstance of the conclusion, read past when it names no option, sets no condition and denies nothing
_FRONTED_PHRASES = re.compile(r"\A(?:[\s*_>-]*[^,;:.!?]{1,60},\s*){1,3}")
_GROUP_ITEM_WORDS = 5
# the rest of the options as one subject: "The other options ...", "The others ...", "All the rest ...", "Everything else"
_THE_OTHERS = re.compile(r"\A[\s*_>-]*(?:and\s+|but\s+)?(?:all\s+)?(?:the\s+)?(?:others|other\s+(?:options?|choices?|answers?)|rest|"
                         r"remaining\s+(?:options?|choices?|ones)|everything\s+else)\b(?:\s+(?:all|each|both))?\s+\w+\s*\Z", re.IGNORECASE)
_GROUP_BREAK = re.compile(r",|\b(?:and|or|nor)\b", re.IGNORECASE)


def sets_options_aside(sentence: str, options: Mapping[str, str]) -> bool:
    """Whether a sentence whose subject is a group of two or more short names (letters, options, the clinician's
    short names) judges them together against, or puts them off ("B, D and E do not fit.", "Aspirin, MRI and carotid
    duplex are later.", "HIDA, CT and ERCP are not needed."): a verdict on a group, which concludes none of them and
    none besides. Read past when it closes the reasoning, so the conclusion before it counts (red team
    ``holdout_r53``: "... the next step is to confirm where the pregnancy is: transvaginal ultrasound, A. B, D and E do
    not fit." concludes A); so is the rest named as one ("The other options are wrong here."), and one option put off
    ("Insulin (A) comes after that."). Not a sentence naming one option against ("E is unsafe.": that option's verdict,
    left to the reading of the last sentence), one without a verdict against ("B and C both work."), one under a
    condition, nor one that concludes an option itself ("A and B are not needed, so C.").

    >>> sets_options_aside("B, D and E do not fit.", {"A": "u", "B": "v", "C": "w", "D": "x", "E": "y"})
    True
    >>> sets_options_aside("B and C both work.", {"A": "u", "B": "v", "C": "w"})
    False
    """
    verdicts = [found for pattern in (_NEGATION, _AGAINST, _DEFERRED) if (found := pattern.search(sentence))]
    if not verdicts or _CONDITION_WORD.search(sentence):
        return False
    subject = sentence[:min(v.start() for v in verdicts)]
    group = [item.strip(" *_-") for item in _GROUP_BREAK.split(subject)]
    if _THE_OTHERS.match(subject):
        pass  # "The other options are wrong here.": the group named as the rest of the options
    elif len(group) == 1 and _DEFERRED.search(sentence) and len(group[0].split()) <= _GROUP_ITEM_WORDS \
            and (mentioned_letters(group[0], options) or cognate_mentions(group[0], options)):
        pass  # "Insulin (A) comes after that.": one option put off, the next step after the conclusion
    elif len(group) < 2 or not all(0 < len(item.split()) <= _GROUP_ITEM_WORDS for item in group):
        return False  # a list of names as the subject, not a clause ("Management: she meets ..., so C. HIDA, ...")
    return closing_conclusion(sentence, options) is None


def closing_conclusion(reasoning: str, options: Mapping[str, str]) -> str | None:
    """The option the reasoning's last sentence concludes, when that sentence states a conclusion and names one
    option, by its letter, its whole text or an abbreviation of it, and denies nothing: "So central retinal artery
    occlusion.", "This is Graves' disease.", "Dx: CRAO.", "Conclusion: lithium-induced nephrogenic DI.", or the value
    after the sentence's last arrow / equals sign ("... → inferior STEMI → RCA (most commonly).", "... = Graves.").
    A reasoning that walks through the options ("A: ... B: ...") ends on its conclusion, not on its first letter
    (red team ``holdout_r38``). "So central DI (B)." concludes B; "So A or B.", "So nephrogenic or central DI." and "So
    not C." conclude nothing here. A rider after a comma that names no option (nor a bare letter), offers no
    alternative and denies nothing is read past ("So C, with cardiology to follow up with echocardiograms." concludes
    C; "So C, or maybe D." and "So C, not D." conclude nothing here; red team ``holdout_r39``). Red team
    ``holdout_r40``: a definite subject equated with one option ("The first step is intramuscular epinephrine — B.")
    and a sentence's closing clause after a comma ("..., so C.") conclude too, and a bracketed aside after the
    conclusion that names no option is read past. Red team ``holdout_r51``: the speaker's choice as a pseudo-cleft,
    the option first ("...; the oral calcium carbonate tablet is what I'd start with.", :data:`_PSEUDO_CLEFT_CHOICE`),
    concludes that option, named by its text or by a word only it has ("an IV bolus of adrenaline is what I would
    give": "bolus"); "... is not what I'd give" and "A or B is what I'd give" conclude nothing. Red team
    ``holdout_r58``: a debate's settlement (:data:`_SETTLED`: "Consensus: B.", "MDT outcome: C, Graves disease.",
    "Planner accepts: A.") concludes its option; "Expert 2: A." and "Minority: C." are a member's word and conclude
    nothing here.
    """
    tail = reasoning.strip()[-CLOSING_TAIL_CHARS:]  # (the last sentence lies in the tail: no split of a long reasoning)
    sentences = [x for x in _CLOSING_SENTENCE.split(tail) if x.strip()]
    while len(sentences) > 1 and _ASIDE.fullmatch(sentences[-1]) and not _named_options(sentences[-1], options) \
            and not any(re.search(rf"\b{re.escape(letter)}\b", sentences[-1]) for letter in options):
        sentences.pop()  # "(Near term it would be avoided, but she is at 10 weeks.)": an aside after the conclusion
    while len(sentences) > 1 and sets_options_aside(sentences[-1], options):
        sentences.pop()  # "... the answer is alteplase, A. Aspirin, MRI and carotid duplex are later." (holdout_r53)
    if not sentences:
        return None
    last = plain_text(sentences[-1])  # "ru\u00adled out", "nоt" (Cyrillic о), "ｎｏｔ" read as shown (holdout_r41)
    last = _LIST_NUMBER.sub("", last, count=1)  # "4. Conclusion: A." (a numbered reasoning's last item)
    if (choice := _SPEAKER_CHOICE_OPENER.match(last) or _COLON_CONCLUSION.match(last)) and not _NEGATION.search(
            _FRONTED_ADJUNCT.sub("", last, count=1)) and not (  # "With no cough ..., the picture is viral: B." (holdout_r44)
            choice.re is _COLON_CONCLUSION and _CONDITION_WORD.search(last[:choice.end()])):  # "Consensus, if ...: C."
        named = _named_options(re.split(r"[,(]", last[choice.end():], maxsplit=1)[0], options)
        return next(iter(named)) if len(named) == 1 else None
    if (settled := _SETTLED.match(last)) and not _NEGATION.search(last) and not _CONDITION_WORD.search(last):
        # "Consensus: B.", "MDT outcome: C, Graves disease." (holdout_r58): the option before its gloss
        named = _named_options(re.split(r"[,(;]|\s[\u2013\u2014-]\s", settled.group("choice"), maxsplit=1)[0], options)
        return next(iter(named)) if len(named) == 1 and not _ALTERNATIVE.search(settled.group("choice")) else None
    if (cleft := _PSEUDO_CLEFT_CHOICE.search(last)) and not _NEGATION.search(last[cleft.start():]):
        # the chosen thing, named as a clinician names it: by the option's text, or by a word only that option has
        # ("an IV bolus of adrenaline 0.5 mg is what I would give": "bolus"; cognate_mentions)
        named = _named_options(cleft.group("choice"), options) or {
            letter for _, _, letter in cognate_mentions(cleft.group("choice"), options)}
        return next(iter(named)) if len(named) == 1 and not _ALTERNATIVE.search(cleft.group("choice")) else None
    if len(sentences) > 1 and sentences[-2].rstrip(" *_").endswith("?") and (reply := _REPLY.fullmatch(last)) \
            and reply.group("letter") in options and not _NEGATION.search(reply.group("head") or "") \
            and not _ALTERNATIVE.search(reply.group("head") or "") and not qualified(last, reply.start("letter"), reply.end("letter")):
        return reply.group("letter")  # "... what restores his perfusion first? Fluids: E.": the reply to its own question
    if (inverted := _INVERTED_CHOICE.search(last)) and inverted.group("letter") in options \
            and _named_options(last[:inverted.start()], options) <= {inverted.group("letter")} \
            and not _NEGATION.search(last[:inverted.start()]) and not _CONDITION_WORD.search(last[:inverted.start()]):
        return inverted.group("letter")  # "... be the right coronary artery's waters — C it be." (holdout_r57)
    if len(sentences) > 1 and re.fullmatch(r"[\s*(]*([A-Z])[\s*).!]*", last) and last.strip().strip("*().!") in options:
        return last.strip().strip("*().!")  # "... discharge (E) is unsafe. B.": a bare letter closing the reasoning
    if _COPULAR_OPENER.match(last) is None and (fronted := _FRONTED_PHRASES.match(last)) is not None \
            and _COPULAR_OPENER.match(last[fronted.end():]) and not _CONDITION_WORD.search(fronted.group()) \
            and not _NEGATION.search(fronted.group()) and not _named_options(fronted.group(), options):
        last = last[fronted.end():]  # "Here in the ED, with papilledema, the next step is CT head (C)." (holdout_r53)
    if ":" in last and not (_CONCLUDING_OPENER.match(last) or _COPULAR_OPENER.match(last)):
        # (red team holdout_r57) a conclusion after the sentence's last colon, the words before it naming no option and
        # setting no condition: "the bruit, the stare, the shins: it's Graves (C)."
        before, _, after = last.rpartition(":")
        if _CONCLUDING_OPENER.match(after.lstrip()) and not _named_options(before, options) \
                and not _NEGATION.search(before) and not _CONDITION_WORD.search(before):
            last = after.lstrip()
    opener = _CONCLUDING_OPENER.match(last) or _COPULAR_OPENER.match(last)
    equated = opener is not None and bool(_COPULAR_OPENER.match(last) or _COPULAR_OPENER.match(last[opener.end():]))
    arrows = list(_ARROW.finditer(last))
    if opener is None and arrows and _CLOSING_CLAUSE.search(last[arrows[-1].end():]):
        last, arrows = last[arrows[-1].end():], []  # "Fever, RUQ pain → acute cholecystitis, so C – RUQ ultrasound ..."
    closing_clause = None if opener is not None or arrows else _CLOSING_CLAUSE.search(last)
    labelled = None if opener is not None or arrows or closing_clause else _LABELLED_CLOSE.search(last)
    if opener is not None:
        clause = last[opener.end():]
        if (copular := _COPULAR_OPENER.match(clause)) is not None:  # "So the first step is C — IM epinephrine."
            clause = clause[copular.end():]
    elif labelled is not None:  # "... means iron deficiency — option B." (holdout_r41)
        before = last[:labelled.start()]
        if _VERDICT_LINE.match(before) or _NEGATION.search(before) or _AGAINST.search(before) or _ALTERNATIVE.search(before) \
                or _named_options(before, options) - _named_options(labelled.group("label"), options):
            return None
        clause = labelled.group("label")
    elif arrows:
        clause = last[arrows[-1].end():]
    elif closing_clause is not None:
        clause = last[closing_clause.end():]  # "Nitrofurantoin is safe in the first trimester, so C."
        if (copular := _COPULAR_OPENER.match(clause)) is not None:  # "..., so the exception is D." (holdout_r48)
            clause = clause[copular.end():]
    else:
        return subject_conclusion(last, options) or corrective_conclusion(last, options) or match_conclusion(last, options)
    head = re.split(r"[(;]", clause, maxsplit=1)[0]  # "RCA (most commonly; LCx only in ...)": the gloss is no conclusion
    clause = head if _named_options(head, options) else clause
    # "So C, with cardiology to follow up.": a rider after the comma (holdout_r39) or a dash ("C — IM epinephrine.": holdout_r41)
    rider = _RIDER.search(clause)
    first, comma, rest = (clause[:rider.start()], rider.group(), clause[rider.end():]) if rider else (clause, "", "")
    if (comma and len(_named_options(first, options)) == 1 and not _named_options(rest, options)
            and not re.search(r"\b[A-Z]\b", rest) and not _ALTERNATIVE.search(rest) and not _NEGATION.search(rest)):
        clause = first
    elif comma and re.fullmatch(r"[\s*(]*[A-Z][\s*)]*", first) and _named_options(rest, options) - _named_options(first, options):
        return None  # "So C, unlike oral amoxicillin.": a letter, then another option set against it; not read as that other option
    elif comma == "," and not _named_options(first, options) and (label := re.fullmatch(r"[\s*(]*([A-Z])[\s*).!\"”]*", rest)):
        clause = label.group(1)  # (holdout_r57) "It is SIADH, B.": a name of the option no reading knows, labelled by its letter
    named = _named_options(clause, options)
    if not named and equated and not re.search(r"\b[A-Z]\b", clause):  # "The right move is to tell the attending that the mistake has to be disclosed.": C's
        named = {letter for _, _, letter in cognate_mentions(clause, options)}  # words, paraphrased (holdout_r51)
    if len(named) != 1 or _NEGATION.search(clause) or _ALTERNATIVE.search(clause):
        return None
    return next(iter(named))


# (red team holdout_r45) a last sentence whose subject is the option and whose predicate names it what the question asks
# for: "Calcium gluconate, option A, is the immediate step.", "Between B and D, B is the answer because only
# epinephrine treats the shock." (a fronted phrase set off by a comma before the subject; not a condition)
_SUBJECT_CONCLUSION = re.compile(
    r"\A[\s*_#>-]*(?:(?P<fronted>[^,;:]{1,60}),\s*)?(?P<subject>[^;:]{1,80}?)\s+(?:(?:is|would\s+be|remains)\s+the\s+"
    r"(?:(?:single|best|correct|right|first|next|immediate|initial|appropriate|most|preferred|definitive)\s+){0,3}"
    r"(?:answer|step|choice|option|treatment|therapy|test|diagnosis|drug|management)\b|"
    # (red team holdout_r52) what a "first step / first drug" question asks, said of the option: "D, IM epinephrine, is first."
    r"(?:is|comes|goes|would\s+(?:be|come))\s+first\b)(?P<rest>[^;]*)\Z", re.IGNORECASE)
_CONDITION_OPENER = re.compile(r"\A\s*(?:if|unless|when|whenever|assuming|provided|should|depending|in\s+case)\b", re.IGNORECASE)
_CONDITION_WORD = re.compile(r"\b(?:if|unless|depending|provided|assuming)\b", re.IGNORECASE)


def subject_conclusion(sentence: str, options: Mapping[str, str]) -> str | None:
    """The option a last sentence concludes by naming it as its subject and calling it what the question asks for
    (:data:`_SUBJECT_CONCLUSION`): "Calcium gluconate, option A, is the immediate step." concludes A; "Between B and D, B
    is the answer because only epinephrine treats the shock." concludes B (the fronted phrase weighs, the subject
    concludes). Not when the subject names no option or two, when a negation or an alternative stands in the subject
    or after the predicate ("B is not the answer", "B is the answer, or D"), nor under a condition ("If the potassium
    is real, A is the answer", "A is the answer unless dialysis is at hand")."""
    found = _SUBJECT_CONCLUSION.match(sentence)
    if found is None:
        return None
    fronted, subject, rest = found.group("fronted") or "", found.group("subject"), found.group("rest")
    if _CONDITION_OPENER.match(fronted or subject) or _CONDITION_WORD.search(rest):
        return None
    if _NEGATION.search(subject) or _ALTERNATIVE.search(subject) or _NEGATION.search(rest) or _ALTERNATIVE.search(rest):
        return None
    # the subject alone ("Between B and D, B is the answer"), else with the fronted phrase it glosses ("Urgent
    # hemodialysis, C, is the definitive treatment": the letter set off by commas after its text)
    named = _named_options(subject.strip(" ,*"), options) or _named_options(f"{fronted}, {subject}", options)
    if len(named) != 1 or _named_options(rest, options) - named or re.search(r"\b[A-Z]\b(?![a-z])", rest):
        return None
    return next(iter(named))
# (red team holdout_r48) the last clause of a sentence, after a semicolon, a spaced dash or ", but"
_LAST_CLAUSE_BREAK = re.compile(r";|[ \t][\u2013\u2014][ \t]|[ \t]--?[ \t]|,[ \t]*but\b", re.IGNORECASE)
# a pronoun equated with one option after the options set aside: "It isn't A or C — it's B."
_PRONOUN_IS = re.compile(r"\A\s*(?:but\s+)?(?:it['’]s|it\s+is|this\s+is|that['’]s|that\s+is)\s+(?!not\b|n['’]t\b|no\b)", re.IGNORECASE)
# one option as the subject of a predicate of sufficiency: "...; A is enough.", "..., but B is sufficient."
_SUFFICES = re.compile(r"\A\s*(?P<subject>[^,;:]{1,80}?)\s+(?:is|would\s+be)\s+(?:(?:quite|just|alone)\s+)?"
                       r"(?:enough|sufficient|adequate|all\s+(?:that(?:['’]s|\s+is)\s+)?(?:needed|required))\b(?P<rest>[^;]*)\Z", re.IGNORECASE)


def corrective_conclusion(sentence: str, options: Mapping[str, str]) -> str | None:
    """The option a last sentence concludes in its last clause, after the options it sets aside (red team
    ``holdout_r48``): a pronoun equated with one option (``It isn't A or C — it's B.``) or one option called enough
    (``Neither B nor C is needed for a mild reaction; A is enough.``). Not when that clause names no option or two, or
    holds a negation or an alternative (``...; it's not B``, ``...; A or D is enough``).

    >>> corrective_conclusion("It isn't A or C — it's B.", {"A": "x", "B": "y", "C": "z"})
    'B'
    >>> corrective_conclusion("Neither B nor C is needed; A is enough.", {"A": "x", "B": "y", "C": "z"})
    'A'
    >>> corrective_conclusion("It isn't A — it's B or C.", {"A": "x", "B": "y", "C": "z"}) is None
    True
    """
    breaks = list(_LAST_CLAUSE_BREAK.finditer(sentence))
    if not breaks:
        return None
    clause = sentence[breaks[-1].end():]
    if (pronoun := _PRONOUN_IS.match(clause)) is not None:
        tail = clause[pronoun.end():]
    elif (sufficing := _SUFFICES.match(clause)) is not None and not _named_options(sufficing.group("rest"), options):
        tail = sufficing.group("subject")
    else:
        return None
    head = re.split(r"[,(;]|[ \t][\u2013\u2014][ \t]", tail, maxsplit=1)[0]  # "it's B, IM epinephrine": the gloss
    named = _named_options(head, options)
    if len(named) != 1 or _NEGATION.search(head) or _ALTERNATIVE.search(head) or _CONDITION_WORD.search(clause):
        return None
    return next(iter(named))


# (red team holdout_r52) one option called the match of what was worked out, in the last clause: "...; D (24) matches.",
# "C (39) is closest.", "So B fits best.", "C matches the computed value." -- the verdict of a calculation item, where
# the options are values; not a finding it fits ("Nephrogenic DI fits the lithium history." weighs, holdout_r38)
_MATCHES = re.compile(r"\A[\s*_>-]*(?:(?:so|thus|hence|therefore|and|but)\b[,:]?\s*)?(?P<subject>[^,;:]{1,60}?)\s+"
                      r"(?:matches|fits|agrees|corresponds|is\s+(?:the\s+)?(?:(?:closest|nearest)(?:\s+match)?|(?:best|exact|only)\s+match|match))"
                      r"(?P<rest>(?:\s+(?:exactly|best|closely|most\s+closely|perfectly))?(?:\s+(?:(?:with|to)\s+)?(?:the|this|that|our|my|it)"
                      r"(?:\s+[\w-]+){0,3}?\s+(?:value|result|number|estimate|calculation|output|computation))?)"
                      r"[\s.!*]*\Z", re.IGNORECASE)


def match_conclusion(sentence: str, options: Mapping[str, str]) -> str | None:
    """The option the last clause of a last sentence (after its last ';', spaced dash or ', but'; else the sentence)
    calls the match of the worked-out value, when that clause's subject names one option and the rest names none,
    denies nothing and offers no alternative: "A (12) is normal, B (16) and C (20) are too low, E (28) too high; D (24)
    matches." concludes D, "C (39) is closest." concludes C. "D matches poorly", "C or D fits" and "C doesn't match"
    conclude nothing here.

    >>> match_conclusion("A (12) is low; D (24) matches.", {"A": "12 mEq/L", "D": "24 mEq/L"})
    'D'
    >>> match_conclusion("C is the closest match to the computed value.", {"B": "29", "C": "39"})
    'C'
    >>> match_conclusion("B or C fits.", {"B": "29", "C": "39"}) is None
    True
    """
    breaks = list(_LAST_CLAUSE_BREAK.finditer(sentence))
    clause = sentence[breaks[-1].end():] if breaks else sentence
    found = _MATCHES.match(clause)
    if found is None or _named_options(found.group("rest"), options):
        return None
    subject = found.group("subject")
    named = _named_options(subject, options)
    unglossed = _ASIDE.sub(" ", subject)  # "D (24 mEq/L)": the unit's slash is no alternative
    if len(named) != 1 or _NEGATION.search(unglossed) or _ALTERNATIVE.search(unglossed) or _CONDITION_WORD.search(clause):
        return None
    return next(iter(named))


# the words of a structure's key that name the reasoning's conclusion ("conclusion", "final_choice", "diagnosis")
_CONCLUSION_KEY = re.compile(r"(?:^|_)(?:conclusions?|choices?|answers?|diagnos[ie]s|dx|pick(?:ed)?|selected|selection|"
                             r"options?|letter|verdict|decision|result)(?:_|$)")
_GLOSS = re.compile(r"[,(;]|\s[\u2013\u2014-]\s")


def structured_conclusion(reasoning: str, options: Mapping[str, str]) -> tuple[str | None, str] | None:
    """(the option, "") or (None, why) a reasoning concludes in a structure (red team ``holdout_r46``), or None when
    it ends on none: a table whose selecting column keeps one row (``| option | keep | why |``: the kept row's option),
    or a trailing structure's conclusion field (``{"conclusion": "B"}``, ``final_conclusion: D, the stable patient
    ...``, ``<conclusion>E</conclusion>``; :mod:`polyreward.verifiers.record_fields`: a final field over a draft one,
    none when the fields disagree, one withdraws it or a confidence is graded low)."""
    if "|" in reasoning and (rows := selected_rows(reasoning)) is not None:
        named = [_named_options(row[0], options) for row in rows]
        if len(rows) == 1 and len(named[0]) == 1:
            return next(iter(named[0])), ""
        return None, f"the table keeps {len(rows)} rows"
    fields = trailing_record(reasoning) if ":" in reasoning or "<" in reasoning else None
    if fields is None:
        return None
    chosen, why = committed_field(fields, lambda key_stem: bool(_CONCLUSION_KEY.search(key_stem)))
    if why:
        return None, why
    if chosen is None:
        return None
    value = str(chosen.value) if isinstance(chosen.value, (str, int)) else ""
    named = _named_options(_GLOSS.split(value, maxsplit=1)[0], options)
    return (next(iter(named)), "") if len(named) == 1 else (None, f"the {chosen.key!r} field names no one option")


# (red team holdout_r54) a per-option walk: each option judged in a segment of its own that opens with its letter, on a
# line of its own or after a sentence's end ("A: ... premature. B: ... first. C: ..."), after an optional mark (a check
# mark keeps, a cross mark or a strikethrough opening the segment rejects)
_OPTION_SEGMENT = re.compile(
    r"(?:\A|(?<=[.!?])[ \t]+|(?<=\n))[ \t]*(?:(?P<kept>[\u2705\u2714\u2713\u2611])|(?P<crossed>[\u274c\u2718\u2717\u2716\u274e])|"
    r"(?P<struck>~~|<(?:del|s)>))?\ufe0f?[ \t]*[*_]*(?P<letter>[A-Z])[*_]*[.):][*_]*[ \t]")
_REJECTING_MARKS = ("~~", "<del>", "<s>", "\u274c", "\u2718", "\u2717", "\u2716", "\u274e")
# (the per-option walks of the red team's faithfulness references, holdout_r25 - holdout_r54) what sets an option aside
# in its own verdict beyond a negation, a judgement against or a deferral: a restriction of its use ("is reserved for
# very high HbA1c", "is only for pH below 6.9", "helps bronchospasm only", "an adjunct at most", "too slow"), a harm it
# risks or a delay it causes ("risks shock and hypokalemia", "delays treatment")
# (red team holdout_r58) or a rank below another, or a place after another step ("phenytoin is inferior to magnesium",
# "is second-line", "delivery follows stabilisation"; not "follows from", a reason; "inferior" as a rank only after a
# copula or before "to": "the RCA supplies the inferior wall" is a place)
_RESTRICTED = re.compile(r"\b(?:reserved\s+for|only\s+(?:for|in|when|once|after|with)|at\s+most|too\s+\w+|risks?|delay(?:s|ed)?|"
                         r"(?:is|are|was|were|be|seems?|looks?)\s+(?:\w+\s+)?inferior|inferior\s+to|second[- ]line|follows(?!\s+from)|[a-z]+\s+only(?=\s*(?:[.,;]|\Z)))\b", re.IGNORECASE)
# ... and what selects an option in its own verdict: it is what the question asks for ("the first step is to tell the
# attending", "is the next step", "is the first imaging test", "is first-line", "comes first", "restores volume first."),
# or it fits the case ("croup fits the prodrome", "suited to her", "are specific to Graves disease", "low ferritin and
# menorrhagia mean iron deficiency"; not the adjective: "the mean corpuscular volume", "(mean arterial pressure)")
_SELECTING = re.compile(
    r"\b(?:(?:is|are|comes?|goes?)\s+first|first[- ]line|the\s+(?:single\s+|most\s+)?(?:best|correct|right|first|next|immediate|"
    r"initial|definitive|preferred|appropriate)(?:\s+[\w-]+){0,2}?\s+(?:answer|step|choice|option|treatment|therapy|test|"
    r"study|diagnosis|drug|management|investigation|agent)|fits?|fitting|explains|accounts\s+for|means|(?<!the\s)(?<!\ba\s)(?<!\()(?<!\A)mean|indicates|points\s+to|suited|specific\s+to|first(?=\s*(?:[.;]|\Z)))\b", re.IGNORECASE)
# (red team holdout_r58) ... or the case's findings are equated with the option itself, its text after the verdict's
# last copula: "C: diffuse goitre with a bruit and proptosis is Graves disease." (not "B: subacute thyroiditis is tender.")
_LAST_COPULA = re.compile(r".*\b(?:is|are|means|=)\s+", re.IGNORECASE | re.DOTALL)


def _selects_itself(letter: str, verdict: str, options: Mapping[str, str]) -> bool:
    """Whether an option's own verdict selects it: a selecting word (:data:`_SELECTING`), or its predicate after the
    last copula names that option and no other (:data:`_LAST_COPULA`)."""
    if _SELECTING.search(verdict):
        return True
    copula = _LAST_COPULA.match(verdict)
    return copula is not None and _named_options(verdict[copula.end():].strip(" .!*"), options) == {letter}


# two abbreviations joined by a slash name one thing or a pair ("the SA/AV nodes", "AP/PA film"), no alternative between
# options (red team holdout_r57: "C: the RCA supplies the inferior wall and the SA/AV nodes"); a letter's "B/C" is one
_PAIRED_NAMES = re.compile(r"\b[A-Z]{2,}/[A-Z]{2,}\b")


def _set_aside_in_words(verdict: str) -> bool:
    """Whether an option's own verdict sets it aside: a negation, a judgement against, a deferral or a restriction
    ("is not indicated", "is premature", "is for later", "is reserved for ...", "helps the wheeze only")."""
    return any(pattern.search(verdict) for pattern in (_NEGATION, _AGAINST, _DEFERRED, _RESTRICTED))


def eliminated_choice(reasoning: str, options: Mapping[str, str], shown: str | None = None) -> str | None:
    """The option a per-option walk concludes by setting every other option aside: every option has one segment of
    its own opening with its letter (a line, or a sentence after the previous one's end), and all but one are
    rejected, so the one left is the choice.

    * Marks decide when the walk has any (red team ``holdout_r54``): a cross mark or a strikethrough opening the segment
      rejects it, a check mark or none keeps it ("❌ A. ... ❌ C. ... ✅ D. Graves disease -- proptosis ...",
      "~~A. Oral diphenhydramine~~ -- no effect on shock ... **C. Intramuscular epinephrine** -- first-line").
    * Else the verdicts' words decide (the per-option walks of the red team's faithfulness references): a segment that
      negates, judges against, defers or restricts its option sets it aside (:func:`_set_aside_in_words`), so "A:
      insulin before volume is premature. B: isotonic saline restores volume first. C: hypotonic saline is for later.
      D: bicarbonate is not indicated at pH 7.12. E: long-acting insulin has no role acutely." concludes B. The one
      left must say something of its own (a reasoning word), set no condition, offer no alternative and name no other
      option; a sentence before the walk may set the scene when it names no option ("DKA with potassium 3.0. A: ...").

    None when an option has no segment or two, when a letter outside the options opens one, or when more than one
    option (or none) is left. ``shown``: the reasoning as a reader sees it (``without_emphasis(visible_text(...))``),
    when the caller has it already.

    >>> eliminated_choice("A: hiding it is dishonest. B: tell the attending first. C: escalation is premature.",
    ...                   {"A": "Hide it", "B": "Tell the attending", "C": "Report to the committee"})
    'B'
    >>> eliminated_choice("A: not indicated. B: fits. C: also fits.", {"A": "x", "B": "y", "C": "z"}) is None
    True
    """
    marked = any(mark in reasoning for mark in _REJECTING_MARKS)
    if not marked:  # the words as a reader sees them: hidden text left out, look-alike letters read as shown
        reasoning = plain_text(shown if shown is not None else without_emphasis(visible_text(reasoning)))
    segments = list(_OPTION_SEGMENT.finditer(reasoning))
    letters = [segment.group("letter") for segment in segments]
    if len(segments) < 2 or len(set(letters)) != len(letters) or set(letters) != set(options):
        return None
    if not marked and _named_options(reasoning[:segments[0].start()], options):
        return None  # the scene set before the walk names an option: a conclusion there is another reading's
    left = []
    for segment, following in zip(segments, segments[1:] + [None]):
        verdict = reasoning[segment.end():following.start() if following else len(reasoning)]
        if not marked and (_named_options(verdict, options) - {segment.group("letter")}
                           or set(re.findall(r"\b([A-Z])\b(?![.):] )", verdict)) & set(options)):
            return None  # a verdict that weighs another option, or a closing remark after the last ("So it is A or C.")
        rejected = (segment.group("crossed") or segment.group("struck")) if marked else _set_aside_in_words(verdict)
        if not rejected:
            left.append((segment.group("letter"), verdict))
    if len(left) > 1 and not marked:  # several left: the one whose verdict selects it, when only one does
        left = [(letter, verdict) for letter, verdict in left if _selects_itself(letter, verdict, options)]
    if len(left) != 1:
        return None
    letter, verdict = left[0]
    if not marked and (_CONDITION_WORD.search(verdict) or _ALTERNATIVE.search(_PAIRED_NAMES.sub(" ", verdict)) or re.search(r"\b[A-Z]\b", verdict)
                       or not reasoning_words(verdict, options)):  # (another option it names ended the walk above)
        return None
    return letter


def _named_options(clause: str, options: Mapping[str, str]) -> set[str]:
    """The options ``clause`` names by letter, whole text or abbreviation (:func:`mentioned_letters`), a bare letter
    ("So B.") included."""
    bare = re.fullmatch(r"[\s*(]*([A-Z])[\s*).!]*", clause)
    return {bare.group(1)} & set(options) if bare else mentioned_letters(clause, options)


def mentioned_labels(reasoning: str) -> set[str]:
    """PubMedQA labels the reasoning weighs as answer candidates (module docstring)."""
    return {m.group(1).lower() for pattern in _LABEL_PATTERNS for m in pattern.finditer(reasoning)}


def quote_matches(quote: str, option: str) -> bool:
    """At least half of the option's words occur in the quote (a quote may shorten, not replace, the option)."""
    wanted = set(_words(option))
    return bool(wanted) and len(wanted & set(_words(quote))) >= 0.5 * len(wanted)


def grounding(reasoning: str, options: Mapping[str, str]) -> tuple[float, list[str]]:
    """g of the module docstring and the bad references it found."""
    refs = 0
    bad: list[str] = []
    for match in _OPTION_WORD.finditer(reasoning):
        refs += 1
        if match.group(1) not in options:
            bad.append(f"option {match.group(1)} does not exist")
    for match in _QUOTE.finditer(reasoning):
        letter, quote = match.group(1), match.group(2)
        if _QUOTE_AS_SUBJECT.match(reasoning, match.end()):
            continue  # 'E: "watch and wait" is unsafe.': the writer's own phrase as a subject, no citation (holdout_r41)
        if letter not in options:
            continue  # already counted as an invented letter when written "option X"
        refs += 1
        if not quote_matches(quote, options[letter]):
            bad.append(f"quote {quote[:40]!r} is not option {letter}")
    return (1.0 - len(bad) / refs if refs else 1.0), bad


class _OptionsReward(ReleasedPreprocessing):
    """A reward that reads the question's options (none: the PubMedQA labels yes / no / maybe)."""

    def __init__(self, name: str | None = None, weight: float = 1.0, options_column: str | None = "options",
                 eos_token: str | None = None, prefilled_think: bool = False) -> None:
        super().__init__(name, weight, eos_token, prefilled_think)
        if options_column is not None and (not isinstance(options_column, str) or not options_column):
            raise ValueError(f"options_column must be a column name or null, got {options_column!r}")
        self.options_column = options_column

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.options_column,) if self.options_column else ()

    def options_of(self, row: Mapping[str, Any]) -> dict[str, str]:
        return parse_options(row.get(self.options_column)) if self.options_column else {}


def reaches_no_answer(text: str, options: Mapping[str, str]) -> bool:
    """Does ``text`` (a cleaned completion) give no final answer anywhere
    (:func:`polyreward.verifiers.choice.extract_letter`, or the yes/no/maybe label without options)? The weighing then
    supports no answer, as an unfinished derivation proves nothing: a think cut off at the token limit after weighing
    A, B, C and E, then "D: ... so the answer is" (red team ``holdout_r50``), and a finished reasoning that leaves the
    pick to a program -- a fabricated output holding the letter, a traceback, a docstring, an empty ``\\boxed{}`` (red
    team ``holdout_r52``). A completion whose final answer the reader finds (``clinical_faithfulness``'s reading) is
    read as before, and so is one whose answer follows a chat-template turn pasted inside the reasoning (read past as
    the weighing reads it, :func:`polyreward.verifiers.turns.without_nested_turns`).

    >>> reaches_no_answer("<think>A is slow. B is partial. So the answer is", {"A": "x", "B": "y"})
    True
    >>> reaches_no_answer("<think>A is slow. B fits.</think> The script picks the option.", {"A": "x", "B": "y"})
    True
    >>> reaches_no_answer("<think>A is slow. B fits.</think> \\\\boxed{B}", {"A": "x", "B": "y"})
    False
    """
    def final(view: str) -> str | None:
        return extract_letter(view, ALL_LETTERS, options)[0] if options else extract_label(view)[0]

    if final(text) is not None:
        return False
    unnested = without_nested_turns(text)
    return unnested == text or final(unnested) is None  # (speed: the same text is read once)


class ClinicalFaithfulness(_OptionsReward):
    """r_faith = c · g: the reasoning concludes the answered option and invents no options (reconstruction).

    Args:
        options_column: column holding the answer options; a row without options is a yes/no/maybe question
        eos_token: cut the completion at this token text before scoring (the released code splits on the EOS token);
            null keeps it whole
        prefilled_think: the chat template already opened <think> in the prompt, so the completion starts inside it
    """

    type_name = "clinical_faithfulness"
    exactness = "reconstructed"
    description = f"reasoning's conclusion == final answer, no invented/misquoted options; MCQ or yes/no/maybe ({SOURCE})"
    score_range = (0.0, 1.0)
    probe_strategies = ("list_every_option",)
    probe_genuine = "boxed"

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        text = harmony_as_tags(self.cleaned(completion))  # Harmony's analysis channel is the reasoning (holdout_r47)
        reasoning = split_reasoning(text)
        options = self.options_of(row)
        if options:
            final, _ = extract_letter(text, ALL_LETTERS, options)
            # the conclusion is the writer's own words: a program, its output or a traceback is work shown, not what the
            # reasoning concludes (red team holdout_r52: a dose calculation after "D, IM epinephrine, is first.")
            shown = without_emphasis(visible_text(reasoning))  # "the answer is $\\underline{\\text{B}}$" (holdout_r54)
            own = options_named_by_letter(shown, options)  # "(a) ... (e) ... → (b)." (holdout_r56)
            own = without_inline_asides(own, [final] if final else [])  # "... So E. New exercise: if ..., B or D." (holdout_r55)
            structured = structured_conclusion(own, options)  # "final_choice: C", a keep table (holdout_r46)
            closing = closing_conclusion(own, options) if structured is None else None
            marked = eliminated_choice(reasoning, options, shown) if structured is None and not closing else None
            concluded, tier = ((structured[0], "conclusion") if structured is not None else
                               (closing, "conclusion") if closing else (marked, "conclusion") if marked else
                               extract_letter(own, ALL_LETTERS, options))
            g, bad = grounding(reasoning, options)
            valid = set(options)
        else:
            final, _ = extract_label(text)
            concluded, tier = extract_label(reasoning)
            g, bad, valid = 1.0, [], set(LABELS)
        if final is None:
            return Scored(0.0, "no final answer")
        if options and (later := letter_after_answer_block(text, ALL_LETTERS)) not in (None, final):
            # red team holdout_r43: the text after the <answer> block gives another letter ("Revised final answer: D")
            return Scored(0.0, f"the text after the <answer> block answers {later}, not {final}: no single final answer")
        if final not in valid:
            return Scored(0.0, f"final answer {final} is not one of the options")
        if concluded is None or tier not in CONCLUDING_TIERS:
            c, why = 0.5, "reasoning concludes no option"
        elif not reasoning_words(reasoning, options or {label: label for label in LABELS}):
            c, why = 0.5, "reasoning concludes no option: it holds only option and answer words"
        elif concluded == final:
            c, why = 1.0, f"reasoning concludes {final}, as answered"
        else:
            c, why = 0.0, f"reasoning concludes {concluded} but the answer is {final}"
        reason = why + (f"; {len(bad)} bad reference(s): {', '.join(bad[:3])}" if bad else "")
        return Scored(c * g, reason, {"consistency": c, "grounding": g})


class ClinicalComprehensiveness(_OptionsReward):
    """r_comp: share of the answer options the reasoning explicitly weighs (reconstruction).

    Args:
        options_column: column holding the answer options; a row without options is a yes/no/maybe question
        eos_token: cut the completion at this token text before scoring (the released code splits on the EOS token);
            null keeps it whole
        prefilled_think: the chat template already opened <think> in the prompt, so the completion starts inside it
    """

    type_name = "clinical_comprehensiveness"
    exactness = "reconstructed"
    description = f"share of the answer options (or yes/no/maybe) explicitly weighed in the reasoning ({SOURCE})"
    score_range = (0.0, 1.0)
    probe_strategies = ("list_every_option",)
    probe_genuine = "boxed"

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        text = harmony_as_tags(self.cleaned(completion))  # (holdout_r47)
        reasoning = split_reasoning(text)
        options = self.options_of(row)
        if reaches_no_answer(text, options):  # red team holdout_r50, holdout_r52
            return Scored(0.0, "no final answer: a weighing that reaches no answer")
        reasoning = rendered_lines(reasoning) or reasoning  # '{"notes": {"A": "..."}}', <option id="A"> (holdout_r46)
        # the weighing a reader sees (red team holdout_r54): "A &rarr; ..." is "A → ...", and an option weighed only
        # in hidden text (display:none, \phantom, white, a collapsed <details>, erased by backspaces) is not weighed
        reasoning = squeeze_whitespace(visible_text(unquoted_alerts(unstruck(reasoning))))
        if options:
            weighed, total = weighed_letters(reasoning, options), len(options)
        else:
            weighed, total = weighed_labels(reasoning), len(LABELS)
        missing = sorted(set(options or LABELS) - weighed)
        reason = f"{len(weighed)}/{total} options weighed" + (f"; not: {', '.join(missing)}" if missing else "")
        return Scored(len(weighed) / total, reason)
