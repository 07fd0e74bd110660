"""Clinical-R1 (CRPO) rule-based rewards, exact from the released code: ``crpo_accuracy``, ``crpo_format``,
``crpo_english``.

Source: Gu et al., "Clinical-R1", arXiv 2512.00601; code BoyangGu1/Clinical-R1-3B,
``verl/utils/reward_score/medical_rule_based.py`` at commit 5c068fdfa1f1bf7fa614a622136403ed18a7ea1d
(``compute_score`` and the three ``calculate_*`` functions). The released training reward is

    R = 10 · r_acc + 1 · r_fmt + 0.5 · r_eng          (train split; the dev split scores r_acc alone)

Here each term is its own reward so a combiner can weigh them; the recipe
``examples/train/medqa_crpo.yaml`` sets the released weights 10 / 1 / 0.5.

Pre-processing (``compute_score``, applied by all three rewards, :func:`preprocess`)::

    s = s.split(eos_token)[0].strip()                 # cut at the EOS token (when one is given)
    s = s.replace("<\\think>", "</think>").replace("<\\answer>", "</answer>")
    if "## Final Response" in s: s = s.split("## Final Response")[1].strip()   # HuatuoGPT-o1 replies
    if prefilled_think: s = "<think>" + s             # released ``add_bo_think_token`` (template opens <think>)

r_acc (``calculate_accuracy_reward``), with n = the number of ``\\boxed`` substrings::

    n == 1:  X = first match of \\boxed\\{(.*?)\\}
             X one capital letter A-Z -> 1.0 if X == gold else 0.0;  X anything else -> -0.5;  no match -> -1.0
    n != 1:  -n                                       (no box 0, two boxes -2, ...)

r_fmt (``calculate_format_reward``)::

    m = re.search(r"^<think>.*?</think>\\s*<answer>(.*?)</answer>$", s, re.DOTALL)
    r_fmt = 0 if not m else 1 + 0.5 · [the stripped <answer> body holds exactly one \\boxed{...} and is more than it]

r_eng (``calculate_english_percentage``): the share of characters of s in the whitelist
``a-z A-Z 0-9 space \\n`` and ``.,!?;:'"()[]{}<>-_/\\|`~@#$%^&*+=``; 0 for an empty string.

Linear time. The released format regex backtracks quadratically (its lazy ``.*?`` retries every ``</think>``,
and ``\\boxed\\{.*?\\}`` every unclosed box: 34 s on a 64 KB completion); :func:`format_parts` and
:func:`boxed_groups` return exactly what ``_FORMAT.search`` and ``_BOX_GROUP.findall`` give, with forward literal
searches (the regexes stay here as the specification the tests compare against).

Known exploits of the released rules (kept as the default: they are the source): r_fmt pays 1.0 for
``<think></think><answer>x</answer>`` and ``<think>Let me think.</think><answer>x</answer>``, and 1.5 for
``<think>zzzz</think><answer>x \\boxed{A}</answer>``; r_eng pays 1.0 for ``zzzz``, pinyin, Base64, German, French,
leetspeak and random ASCII (every character is in the whitelist); r_acc pays 1.0 for ``Not \\boxed{C}.`` and for a
box that the text then retracts (it reads the only box, whatever the text says of it). The guards:

* ``min_content_words: N`` on ``crpo_format`` and ``crpo_english`` (:func:`polyreward.rewards.format.content_words`:
  distinct visible words that are not stop words, filler, lorem ipsum or the prompt's own words): r_fmt is 0 unless
  the think body holds N content words and the answer body a visible letter or digit, r_eng is 0 for a text of
  fewer than N. Guarded r_fmt reads the writer's turn (:func:`polyreward.verifiers.turns.own_turn`: up to a chat
  template's end token, ``...</answer><|im_end|>``) and a think body with a think tag of its own (nested or repeated
  reasoning blocks) is no format (red team ``holdout_r7``).
* ``measure: language`` on ``crpo_english``: the share of letters in stretches that a language detector (langid's
  model, :mod:`polyreward.verifiers.language`) labels English, instead of the character whitelist: pinyin, Base64,
  German, French, leetspeak, lorem ipsum and random letters score 0, a Chinese sentence inside an English answer
  lowers the share by its characters.
* ``committed_answer: true`` on ``crpo_accuracy``: a 1.0 stands only when the multiple-choice verifier's committed
  answer (:func:`polyreward.verifiers.choice.extract_letter`: negations, hedges and retractions commit to nothing)
  is the gold letter, else 0.0 -- read on the whole text and, where the box stands in an ``<answer>`` block, on that
  block alone too (a retraction inside the block: ``<answer>\\boxed{A}... wait, no, B.</answer>``), and the text after
  the block read on its own must commit to no other letter (``</answer> Updated answer ...: B.``, ``Revised final
  answer: \\boxed{D}``: :func:`polyreward.verifiers.choice.letter_after_answer_block`; red team ``holdout_r43``); and the one box
  whose content is a single letter in a wrapper (``\\boxed{\\text{C}}``, ``\\boxed{(A)}``, ``\\boxed{\\textbf{B.}}``),
  which the released rule scores -0.5, is read as that letter (:func:`wrapped_letter`: the letter ``crpo_format``
  already counts as one option letter; red team ``holdout_r25``), and so is one box that writes the letter with its
  own option's text from the prompt (:func:`labelled_letter`, ``\\boxed{B: Graves disease}``; red team
  ``holdout_r32``), then checked as above; and text after the box in another language
  (:func:`polyreward.verifiers.language.foreign`), which may withdraw it unread, commits to nothing, as ``jaccard`` and
  ``forecast_class_cost`` read the text after their ``<answer>`` block (red team ``holdout_r29``: ``\\boxed{C} – so
  steht es jedenfalls in der Leitlinie; ich persönlich würde mich nicht darauf verlassen``); and a box whose own
  sentence sets another option against it after ``versus`` / ``vs`` / ``or`` (:func:`alternative_after_box`,
  ``\\boxed{B} Graves disease versus toxic multinodular goiter (A)``; red team ``holdout_r38``) commits to nothing;
  every other score is the released one.
"""

from __future__ import annotations

import math
import re
import string
import unicodedata
from collections.abc import Mapping
from typing import Any

from polyreward.reward import RolloutReward, Scored, column_name, one_of
from polyreward.rewards.format import check_min_content, content_stems, content_words, meta_stems, thin_content
from polyreward.schema import is_missing, prompt_text
from polyreward.verifiers.language import OTHER_FUNCTION_WORDS, foreign
from polyreward.verifiers.choice_words import APPOSITION, ORDINAL_OPTION, ordinal_position
from polyreward.verifiers.letter_sets import offered_with_others
from polyreward.verifiers.math_normalize import without_emphasis
from polyreward.verifiers.option_checks import gloss_names_another
from polyreward.verifiers.stand_ins import disowning_remark, keeping_remark
from polyreward.verifiers.language import english_share as detected_english_share
from polyreward.verifiers.reading import uncommented_text, visible_text
from polyreward.verifiers.record_fields import held_back_status, under_superseded_heading
from polyreward.verifiers.span_corrections import corrected_boxes
from polyreward.verifiers.tags import tag_blocks
from polyreward.verifiers.turns import invented_case_start, own_turn
from polyreward.verifiers.voices import adopted_after, voice_of

SOURCE = "BoyangGu1/Clinical-R1-3B verl/utils/reward_score/medical_rule_based.py @5c068fd"
LETTERS = tuple(string.ascii_uppercase)
ENGLISH_CHARACTERS = frozenset(string.ascii_letters + ".,!?;:'\"()[]{}<>-_/\\|`~@#$%^&*+=~" + string.digits + " \n")
_BOX = re.compile(r"\\boxed\{(.*?)\}")
_FORMAT = re.compile(r"^<think>.*?</think>\s*<answer>(.*?)</answer>$", re.DOTALL)
_BOX_GROUP = re.compile(r"(\\boxed\{.*?\})")
_FINAL_RESPONSE = "## Final Response"
_SPACES = re.compile(r"\s*")
MEASURES = ("characters", "language")


def preprocess(text: str, eos_token: str | None = None, prefilled_think: bool = False) -> str:
    """The released ``compute_score`` clean-up (module docstring): EOS cut, ``<\\think>`` fixes, HuatuoGPT split."""
    text = (text.split(eos_token)[0] if eos_token else text).strip()
    text = text.replace("<\\think>", "</think>").replace("<\\answer>", "</answer>")
    if _FINAL_RESPONSE in text:
        text = text.split(_FINAL_RESPONSE)[1].strip()
    return "<think>" + text if prefilled_think else text


def accuracy_reward(text: str, gold: str) -> float:
    """r_acc of the module docstring (``calculate_accuracy_reward``)."""
    boxes = text.count("\\boxed")
    if boxes != 1:
        return float(-boxes)
    match = _BOX.search(text)
    if match is None:
        return -1.0
    answer = match.group(1)
    if answer in LETTERS:
        return 1.0 if answer == gold else 0.0
    return -0.5


_WRAPPERS = re.compile(r"\\(?:text|textbf|textrm|mathrm|mathbf|mbox|mathit|textit)\s*\{|[{}()\[\]*\s]")


def wrapped_letter(text: str) -> str | None:
    """The capital letter that the text's one ``\\boxed{...}`` holds inside wrappers only: LaTeX text commands
    (``\\text{C}``, ``\\mathrm{C}``, ``\\textbf{C}``), colour and emphasis commands (``\\textcolor{red}{C}``,
    ``\\underline{C}``), a full-width letter (``Ｃ``), parentheses, brackets, emphasis and a final full stop
    (``(A)``, ``[B]``, ``C.``); None for anything else (``C or D``, ``C/D``, ``ECG``, ``not C``). The box is read up to
    its balanced closing brace, at most 64 characters."""
    inner = _box_inner(text)
    if inner is None:
        return None
    # a coloured, underlined or full-width letter is the letter (red team holdout_r54: \textcolor{red}{D}, Ｃ)
    inner = unicodedata.normalize("NFKC", without_emphasis(inner))
    inner, position = _without_ordinal(inner)
    inner = _OPTION_NOUN.sub("", _WRAPPERS.sub("", inner))
    inner = inner[:-1] if inner.endswith(".") else inner
    # (red team holdout_r56) a lone small letter is the option letter written small: "\boxed{(c)}", "\boxed{b}"
    letter = inner.upper() if len(inner) == 1 and inner.islower() else inner
    if len(letter) != 1 or letter not in LETTERS:
        return None
    return letter if position is None or LETTERS.index(letter) == position else None


# (red team holdout_r56) an option named by its place before its letter, "\boxed{\text{the third option (C)}}": the
# place and the letter must name the same option ("the third option, not D" names no single letter; "the second
# option (C)" names two options)
_ORDINAL_BEFORE_LETTER = re.compile(r"\A[\s{]*(?:\\[A-Za-z]+\s*\{)?\s*(?:" + ORDINAL_OPTION.pattern + r")"
                                    + APPOSITION.pattern[:-2] + r"(?=\s*[A-Za-z]\W*\Z)", re.IGNORECASE)


def _without_ordinal(inner: str) -> tuple[str, int | None]:
    """``inner`` without an opening option named by its place (:data:`_ORDINAL_BEFORE_LETTER`) and that place (0 for
    the first); ``(inner, None)`` when it opens with none. "The last option" counts from the end, which the box does
    not show: it names no place here (-1, matched by no letter)."""
    match = _ORDINAL_BEFORE_LETTER.match(inner)
    if match is None:
        return inner, None
    ordinal = ORDINAL_OPTION.search(match.group())
    return inner[match.end():], ordinal_position(ordinal) if ordinal else -1


# (red team holdout_r51) the noun of an option before its letter is a wrapper too: "\boxed{\text{Option A}}"
_OPTION_NOUN = re.compile(r"\A(?i:option|choice)[:.]?(?=[A-Z]\.?\Z)")


def _box_inner(text: str, limit: int = 64) -> str | None:
    """What the text's one ``\\boxed{...}`` holds, read up to its balanced closing brace within ``limit``
    characters; None without exactly one box or a closing brace in reach."""
    start = text.find("\\boxed{")
    if start < 0 or text.count("\\boxed") != 1:
        return None
    depth, at = 1, start + len("\\boxed{")
    end = min(len(text), at + limit)
    while at < end:
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        if depth == 0:
            return text[start + len("\\boxed{"):at]
        at += 1
    return None


_LABELLED = re.compile(r"\s*([A-Z])\s*[.:)]\s*(\S.*)", re.DOTALL)
_TEXT_COMMAND = re.compile(r"\A\s*\\(?:text|textbf|textrm|mathrm|mbox)\s*\{(.*)\}\s*\Z", re.DOTALL)  # \text{B. ...}
_LABEL_SPACES = re.compile(r"\s+")


def labelled_letter(text: str, options: Mapping[str, str]) -> str | None:
    """The letter of the text's one box written with its option's own text, ``\\boxed{B: Graves disease}``,
    ``\\boxed{A. 12-lead ECG}`` (the letter, a ``.``, ``:`` or ``)``, then the words that option's text opens with,
    case and spacing aside; ``options``: the prompt's, :func:`polyreward.verifiers.options.options_in_prompt`): the
    letter and its option agree, so the box names one option (red team ``holdout_r32``); so does a paraphrase of the
    option's text that names no other option (:func:`~polyreward.verifiers.option_checks.gloss_names_another`) and
    neither denies nor weighs it (``\\boxed{\\text{B. IV normal saline}}`` for ``Intravenous 0.9% sodium chloride``;
    red team ``holdout_r51``). None when the text after the letter names another option (``\\boxed{B. Hashimoto
    thyroiditis}`` where A is Hashimoto, ``\\boxed{B. 0.45% saline}`` where 0.45 % is C's: two options named), denies
    or weighs it (``\\boxed{B. not saline}``, ``\\boxed{B. saline or insulin?}``), or without options; the box is read
    as :func:`wrapped_letter` reads it, inside one ``\\text{...}``, up to 200 characters."""
    inner = _box_inner(text, 200) if options else None
    inner = _TEXT_COMMAND.sub(r"\1", inner) if inner is not None else None
    match = _LABELLED.fullmatch(inner) if inner is not None else None
    if match is None or match.group(1) not in options:
        return None
    def plain(words: str) -> str:
        return _LABEL_SPACES.sub(" ", words).strip().rstrip(".").casefold()
    said, own = plain(match.group(2)), plain(options[match.group(1)])
    if said and (own == said or own.startswith(said + " ")):
        return match.group(1)
    # (red team holdout_r51) the option's text paraphrased, "\boxed{\text{B. IV normal saline}}": words that name no
    # other option and neither deny nor weigh it ("not", "or", "?") keep the letter
    plain_words = _WRAPPERS.sub(" ", match.group(2))
    if _NOT_A_GLOSS.search(plain_words) or gloss_names_another(plain_words, match.group(1), options):
        return None
    return match.group(1) if _GLOSS_WORD.search(plain_words) else None


# a paraphrase after the box's letter that denies, weighs or doubts it is no gloss of its option
_NOT_A_GLOSS = re.compile(r"\b(?:not|no|never|or|nor|unless|except|maybe|perhaps|possibly|probably|vs|versus|than|if|but)\b|n't\b|[?/]",
                          re.IGNORECASE)
_GLOSS_WORD = re.compile(r"[^\W\d_]{2,}")


# the rest of the box's sentence: up to a full stop (not the one of "vs."), a line break or a tag
_SENTENCE_REST = re.compile(r"(?:[^.\n<]|(?<=\bvs)\.|(?<=\bv)\.)*", re.IGNORECASE)
_VERSUS = re.compile(r"\b(?:versus|vs\.?|v\.|or)\s", re.IGNORECASE)


def alternative_after_box(text: str, options: dict[str, str], gold: str) -> str | None:
    """The other option the box's own sentence sets against it after ``versus`` / ``vs`` / ``or``, by its letter in
    brackets or ``option X``, or by its whole text: "Differential: \\boxed{B} Graves disease versus toxic multinodular
    goiter (A); the two cannot be separated ..." offers two candidates, not an answer (red team ``holdout_r38``).
    "\\boxed{B} Graves disease rather than toxic multinodular goiter (A)" keeps B. None when the sentence offers
    no other option."""
    groups = boxed_groups(text)
    if len(groups) != 1:
        return None
    after = text.find(groups[0]) + len(groups[0])
    rest = _SENTENCE_REST.match(text, after).group()
    versus = _VERSUS.search(rest)
    if versus is None:
        return None
    offered = rest[versus.end():]
    for letter, option in options.items():
        if letter == gold:
            continue
        if re.search(rf"\(\s*{letter}\s*\)|\b(?:option|choice)\s+{letter}\b", offered) or (
                len(option) >= 3 and option.casefold() in offered.casefold()):
            return letter
    return None


# (red team holdout_r44) the last sentence after the box: the text after it up to the last sentence end
_LAST_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
# another option named by its letter: "option A", "(B)"
_OPTION_NAMED = re.compile(r"\b(?i:option|choice)\s+([A-E])\b|\(([A-E])\)")
# (red team holdout_r58) or by a bare letter closing the sentence after a comma, "Going with the majority, D.", when it is
# the sentence's only standalone letter (not "Ranking: C, then A, then B.")
_CLOSING_LETTER = re.compile(r",[ \t]*\(?([A-E])\)?[\s.!*]*\Z")
_BARE_LETTER = re.compile(r"(?<![\w'’\\])[A-E](?![\w'’])(?![ \t]+[a-z])")
# a word that sets the named option aside or leaves it open: "rules out central DI (B)", "is unsafe", "would"
_SET_ASIDE = re.compile(
    r"\b(?:not|no|none|never|neither|nor|without|unlikely|wrong|incorrect|false|against|rules?\s+out|ruled\s+out|excluded?|"
    r"unsafe|contraindicated|premature|inadequate|insufficient|too|rather|instead|less|worse|would|could|might|if|unless)\b"
    r"|n't\b", re.IGNORECASE)


# (red team holdout_r53) a sentence that puts the option it names after the boxed one: it opens with a temporal clause
# whose verb states the event it waits for ("Once K is above 3.3, start the insulin infusion (A).", "After the CT
# excludes bleeding, ..."; not "After all," or "After reflection,", which hold no verb), or one opened by a word of
# sequence ("Afterwards, ...", "Then ...", not "Then again"), or the option "follows" / "comes next": the next step
# after the answer, not another answer
_LATER_STEP = re.compile(
    r"\A\s*(?:once|after|when|as\s+soon\s+as)\s+(?:[^,.;]|\.(?=\d)){0,80}?\b(?:is|are|was|were|has|have|had|been|[a-z]+(?:es|ed))\b"
    r"(?:[^,.;]|\.(?=\d)){0,60},"
    r"|\A\s*(?:afterwards?|after\s+that|later|subsequently|next|then(?!\s+again))\b"
    r"|\((?:[A-E])\)\s+(?:follows|comes\s+(?:next|after|later)|is\s+next)\b", re.IGNORECASE)


def other_option_last(text: str, gold: str) -> str | None:
    """The one other option the last sentence after the box names by its letter, when that sentence neither names the
    gold nor sets the option aside (:data:`_SET_ASIDE`), else None: the writer's last word on the question is then
    another option, with no retraction word needed (red team ``holdout_r44``): "\\boxed{C}, apixaban. On reflection,
    ... the balance tips toward aspirin alone, option A.", "\\boxed{D} ... Observation, option B, is where I land.",
    "\\boxed{E}, a saline bolus, the answer to every question in this bank. The acidosis is what kills him;
    bicarbonate, option B, goes in first."; a bare letter after a comma closing it names one too (red team
    ``holdout_r58``: "Minority: \\boxed{C} (2/5). Going with the majority, D."). A last sentence that rejects the
    others ("CT angiography (B) looks for embolism, discharge (C) is unsafe ...", "which rules out central DI (B)")
    names two or sets them aside."""
    after = _after_box(text)
    after = after[:after.lower().find("</answer>")] if "</answer>" in after.lower() else after
    sentences = [s for s in _LAST_SENTENCE_SPLIT.split(after.strip()) if s.strip()]
    if not sentences:
        return None
    last = sentences[-1]
    named = {a or b for a, b in _OPTION_NAMED.findall(last)}
    if (closing := _CLOSING_LETTER.search(last)) is not None and len(_BARE_LETTER.findall(last)) == 1:
        named.add(closing.group(1))  # "Going with the majority, D.": the one letter, closing the sentence after a comma
    if len(named) != 1 or gold in named or _SET_ASIDE.search(last) or _LATER_STEP.search(last):
        return None
    return named.pop()


# (red team holdout_r49) the clause after the box that gives the speaker's own plan for now: a first-person plan ("I'd
# start aspirin alone", "I would stop ...") or a contrast of time ("until then, ...", "for now", "today ..."); a clause
# that adds to the boxed choice ("I'd also give ...", "then ...") or sets the option aside is none
_OWN_PLAN = re.compile(r"\b(?:I|we)(?:['’]d|['’]ll|\s+would|\s+will|\s+(?:start|give|go|pick|choose))\b"
                       r"|\b(?:until\s+then|for\s+now|in\s+the\s+meantime|meanwhile|today|right\s+now)\b", re.IGNORECASE)
_ADDS_OR_SETS_ASIDE = re.compile(
    r"\b(?:also|too|as\s+well|plus|along\s+with|in\s+addition|additionally|(?<!until )then|after|afterwards|followed|"
    r"not|no|never|avoid|without|unsafe|contraindicated|wrong|rather|instead\s+of|nor)\b|n['’]t\b", re.IGNORECASE)
_CLAUSE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+")
_OPTION_WORD = re.compile(r"[^\W\d_]{6,}")


def _names_option(clause: str, letter: str, options: Mapping[str, str]) -> bool:
    """Does ``clause`` name option ``letter``: by its letter in brackets or ``option X``, its whole text, or every long
    word (6+ letters) of its text that no other option holds ("IV diphenhydramine" for "Intravenous diphenhydramine")?"""
    if re.search(rf"\(\s*{letter}\s*\)|\b(?:option|choice)\s+{letter}\b", clause):
        return True
    own = options.get(letter, "")
    if len(own) >= 3 and own.casefold() in clause.casefold():
        return True
    others = {w.casefold() for k, v in options.items() if k != letter for w in _OPTION_WORD.findall(v)}
    unique = {w.casefold() for w in _OPTION_WORD.findall(own)} - others
    words = {w.casefold() for w in _OPTION_WORD.findall(clause)}
    return bool(unique) and unique <= words


def own_plan_after_box(text: str, options: Mapping[str, str], gold: str) -> str | None:
    """The one other option that the last clause after the box gives as the speaker's own plan for now (:data:`_OWN_PLAN`),
    naming neither the gold nor any option as set aside or added (:data:`_ADDS_OR_SETS_ASIDE`), else None: the box is
    then a choice under a qualifier that moves it off the speaker or off now (ConText's hypothetical, experiencer,
    historical), and the writer's own choice is the other option (red team ``holdout_r49``): "If stridor develops,
    \\boxed{C}; until then, IV diphenhydramine.", "Her daughter ... would pick \\boxed{C}; I'd start aspirin alone.",
    "Last week's plan was \\boxed{C}; today I would stop all antithrombotics (B)." "\\boxed{C}; I'd also give B" adds."""
    after = _after_box(text)
    after = after[:after.lower().find("</answer>")] if "</answer>" in after.lower() else after
    clauses = [c for c in _CLAUSE_SPLIT.split(after.strip()) if c.strip()]
    if not clauses or not options:
        return None
    last = clauses[-1]
    if not _OWN_PLAN.search(last) or _ADDS_OR_SETS_ASIDE.search(last) or _names_option(last, gold, options):
        return None
    named = [letter for letter in options if letter != gold and _names_option(last, letter, options)]
    return named[0] if len(named) == 1 else None


# (red team holdout_r44) the box's sentence opened by a pending event and a future "I will": "Once the throat culture
# confirms group A strep I will give \boxed{D}." -- the letter is promised for later, not given
_DEFERRED_BEFORE_BOX = re.compile(
    r"(?:\A|[.!?\n>])\s*(?:once|when|as\s+soon\s+as|after|until)\b[^.!?\n]{3,160}?\b(?:I|we)(?:\s+will|['’]ll)\s+"
    r"(?:[a-z]+\s+){0,3}?\Z", re.IGNORECASE)


def deferred_box(text: str) -> bool:
    """Is the last box given in a sentence that defers it to a pending event ("Once the culture confirms it I will give
    \\boxed{D}.", "When the troponin is back we'll box C"), not now? A box given now after its reason ("Since the test
    is positive, \\boxed{D}") or "I will go with \\boxed{D}" alone is given."""
    at = text.rfind("\\boxed{")
    return at >= 0 and _DEFERRED_BEFORE_BOX.search(visible_text(text[max(0, at - 300):at])) is not None


def _summary(text: str, blocks: list[tuple[int, int, str]]) -> str:
    """The answer's summary as a reader sees it, without its box: the last ``<answer>`` body that holds the box, else
    the text after the last ``</think>`` (red team ``holdout_r45``: where several letters may be offered as the
    answer, :func:`polyreward.verifiers.letter_sets.offered_with_others`); the think's weighing is not read."""
    body = blocks[-1][2] if blocks and "\\boxed" in blocks[-1][2] else text[text.rfind("</think>") + len("</think>"):] \
        if "</think>" in text else ""
    for group in boxed_groups(body):
        body = body.replace(group, " ")
    return visible_text(body)


def _after_box(text: str) -> str:
    """The text after the last box (:func:`boxed_groups`), as a reader sees it (:func:`visible_text`): where a withdrawal
    of the box stands ("\\boxed{A}\nAunque ... lo dejo en manos del adjunto; yo no me pronuncio.")."""
    groups = boxed_groups(text)
    return visible_text(text[text.rfind(groups[-1]) + len(groups[-1]):]) if groups else ""


def _box_voice(text: str) -> str | None:
    """The voice other than the speaker's that the last box's clause gives it to (:func:`.voices.voice_of`): "GPT-4
    chose \\boxed{B}. I disagree: ...", "Registrar: \\boxed{A}." (red team ``holdout_r42``); None for the speaker's own."""
    at = text.rfind("\\boxed{")
    return voice_of(visible_text(text[max(0, at - 400):at]), _after_box(text)) if at >= 0 else None


def boxed_groups(text: str) -> list[str]:
    """``_BOX_GROUP.findall(text)`` in linear time: each ``\\boxed{`` up to the first ``}`` after it on its line."""
    groups: list[str] = []
    position = 0
    close = newline = -1  # the next "}" / "\n" after the current box opening, cached while still ahead of it
    while (start := text.find("\\boxed{", position)) >= 0:
        body = start + len("\\boxed{")
        if close < body:
            close = text.find("}", body)
            if close < 0:
                break
        if newline < body:
            newline = text.find("\n", body)
            newline = len(text) if newline < 0 else newline
        if newline < close:  # "." does not cross a newline: no match from this box, try the next one
            position = start + 1
            continue
        groups.append(text[start:close + 1])
        position = close + 1
    return groups


def has_summary_and_one_box(answer: str) -> bool:
    """``answer_with_summary_and_answer_box``: exactly one ``\\boxed{...}`` and the answer is not only that box."""
    answer = answer.strip()
    boxes = boxed_groups(answer)
    return len(boxes) == 1 and boxes[0] != answer


def format_parts(text: str) -> tuple[str, str] | None:
    """(think body, answer body) where ``_FORMAT.search(text)`` matches (its group 1 is the answer body), else None.

    The regex reads: ``<think>`` at the start; the first ``</think>`` that whitespace and ``<answer>`` follow; an
    answer running to a ``</answer>`` at the very end (or before one final newline, as ``$`` allows)."""
    if not text.startswith("<think>"):
        return None
    end = len(text) - (1 if text.endswith("\n") else 0) - len("</answer>")
    if end < len("<think>") or not text.startswith("</answer>", end):
        return None
    position = len("<think>")
    while (close := text.find("</think>", position)) >= 0:
        after = _SPACES.match(text, close + len("</think>")).end()
        if after + len("<answer>") > end:
            return None  # every later </think> ends later still
        if text.startswith("<answer>", after):
            return text[len("<think>"):close], text[after + len("<answer>"):end]
        position = close + 1
    return None


def format_reward(text: str, min_content_words: int = 0, prompt: object = None) -> float:
    """r_fmt of the module docstring (``calculate_format_reward``): 0, 1 or 1.5; with ``min_content_words`` > 0
    also 0 when the think body has fewer content words or the answer body none, and the summary beside the box must
    be visible (an invisible character or a comment is no summary), share a content word with the reasoning or the
    ``prompt`` (:func:`_states_the_case`), and the box name one option letter (:func:`_box_letters`). The guard never
    pays above the released rule: its 1.5 also needs the released one box in the answer as written."""
    parts = format_parts(text)
    if parts is None or thin_content({"think": parts[0], "answer": parts[1]}, min_content_words):
        return 0.0
    if min_content_words <= 0:
        return 1.5 if has_summary_and_one_box(parts[1]) else 1.0
    # guarded: the summary beside the box is visible and states something (a content word: "The first step is an
    # ECG."), not a full stop or the boxed letter again ("\\boxed{A}.", "A \\boxed{A}"; red team holdout_r2)
    # LaTeX's other boxes box too: "\\boxed{A} \\fbox{B}" is two boxed answers (red team holdout_r5); the one box
    # asked for is still a \\boxed
    # the guard only ever refuses more than the released rule: the +0.5 also needs the released reading of the
    # answer as written (one box there too), so a second box hidden from the visible reading (in an HTML comment) or
    # a box whose command is a look-alike the reading normalises (\\b\u03bfxed with a Greek omicron: no box to the
    # released regex, nor to r_acc's count) keeps 1.0 (red team holdout_r13)
    answer = visible_text(parts[1], code=True)
    answer, plain = _OTHER_BOX.sub(r"\\boxed{", answer), answer
    boxes = boxed_groups(answer.strip())
    # a box inside a box (\\boxed{\\boxed{A}}) is two boxes, as r_acc counts them; the lazy group reads them as one
    # (red team holdout_r6)
    if not has_summary_and_one_box(parts[1]) or not has_summary_and_one_box(answer) \
            or not has_summary_and_one_box(plain) or answer.count("\\boxed") != 1 or _box_letters(boxes[0]) != 1:
        return 1.0  # an empty box (\\boxed{}) boxes nothing (red team holdout_r4), nor the template's placeholder
    summary = answer.replace(boxes[0], " ")
    return 1.5 if content_words(summary) > 0 and _states_the_case(summary, parts[0], prompt) \
        and not _copies_prompt(summary, prompt, boxes[0][len("\\boxed{"):-1]) and not _only_asks(summary) else 1.0


# a sentence of the summary: text up to a stop, a question mark or an exclamation mark (or the end)
_SUMMARY_SENTENCE = re.compile(r"[^.!?]*[^.!?\s][^.!?]*(?:[.!?]+|\Z)")


def _only_asks(summary: str) -> bool:
    """True when every sentence of the summary is a question ("Which is the most appropriate immediate treatment for
    a 72-year-old woman on warfarin ...? \\boxed{C}"): the question asked again, in the writer's words, states
    nothing about the answer, as a copy of the question does not (:func:`_copies_prompt`; red team
    ``holdout_r18``). A summary that asks and then answers ("Why PCI? The centre is 30 minutes away.") states it."""
    sentences = [m.group().strip() for m in _SUMMARY_SENTENCE.finditer(summary) if m.group().strip()]
    return bool(sentences) and all(sentence.endswith("?") for sentence in sentences)


_OTHER_BOX = re.compile(r"\\(?:fbox|framebox|boxed|bbox|colorbox\s*\{[^{}]{0,20}\}|fcolorbox\s*\{[^{}]{0,20}\}\s*\{[^{}]{0,20}\})\s*(?:\[[^\]]{0,20}\]\s*)?\{")
_WORDS = re.compile(r"[^\W_]+")


def _copies_prompt(summary: str, prompt: object, boxed: str = "") -> bool:
    """True when the summary is a run of 3+ words copied from the prompt ("Which is the next best step?"): the question
    again states nothing about the answer (red team ``holdout_r4``). The text of the option the box names, or its
    start, is no copy: "High anion gap metabolic acidosis. \\boxed{B}" for the prompt's "B. High anion gap metabolic
    acidosis" states the answer in words (red team ``holdout_r10``); a run that goes on into the next option (the
    options pasted) still is one."""
    text = prompt_text(prompt) if prompt is not None else ""
    words = _WORDS.findall(summary.casefold())
    if len(words) < 3 or not text:
        return False
    said, hay = " ".join(words), _WORDS.findall(text.casefold())
    if f" {said} " not in f" {' '.join(hay)} ":
        return False
    letter = boxed.strip().casefold()
    if len(letter) != 1 or not letter.isalpha():
        return True
    following = chr(ord(letter) + 1)
    return not any(hay[i] == letter and hay[i + 1:i + 1 + len(words)] == words and following not in words
                   for i in range(len(hay) - len(words)))


_OPTION_LETTER = re.compile(r"(?<![A-Za-z])[A-Z](?![A-Za-z])")
_PROMPT_MARKUP = re.compile(r"</?([A-Za-z_][\w-]{0,40})>|\\([A-Za-z]+)(?:\{([^{}]*)\})?")


def _box_letters(box: str) -> int:
    """How many option letters (a capital standing alone: ``A``, ``\\text{B}``, ``C.``) one box names: the format asks
    for one. Two or more are a hedge (``\\boxed{A or B}``, ``\\boxed{A/B}``: red team ``holdout_r3``); none boxes no
    option: an empty box, the prompt's placeholder copied (``\\boxed{[letter]}``, ``\\boxed{letter}``), ``...``, or
    an option's words without its letter (``\\boxed{ECG}``), which r_acc scores -0.5 too (red team ``holdout_r15``)."""
    return len(_OPTION_LETTER.findall(box[len("\\boxed{"):-1]))


def _states_the_case(summary: str, think: str, prompt: object) -> bool:
    """True when the summary beside the box shares a content word with the reasoning or with the question (it says
    something about this case: "The first step is an ECG."), not only words about the layout ("Final answer
    below.": red team ``holdout_r3``). The prompt's markup words do not count: the names of its tags (``<answer>``:
    answer), LaTeX commands (``\\boxed``) and the placeholders in their braces (``{letter}``); nor do the other words of
    the sentences that hold that markup (the format instruction, "Think inside <think>, answer inside <answer> with
    \\boxed{letter} and a summary."), unless the rest of the prompt uses them too: "Summary: see above." names the
    instruction's "summary" and says nothing about the case (red team ``holdout_r12``). Words about the act of
    answering (:data:`polyreward.rewards.format.META_WORDS`: best, option, answer, careful, consider, choose, ...) name
    nothing of the case either, so "After careful consideration of all the options, the best answer is the
    following." shares only the question's "best" (of "next best step") and fits any question (red team
    ``holdout_r24``). Nor do the function words of the other languages the detector knows
    (:data:`polyreward.verifiers.language.OTHER_FUNCTION_WORDS`: ``das``, ``der``, ``que``, ``les``): a German summary
    about the format alone, "Festlegen werde ich mich erst nach der Visite morgen; \\boxed{A} steht hier nur, damit
    das Format stimmt.", shared only "das" with a German reasoning (red team ``holdout_r29``)."""
    said = content_stems(summary) - meta_stems() - _OTHER_FUNCTION_STEMS
    if said & content_stems(think):
        return True
    text = prompt_text(prompt) if prompt is not None else ""
    if _han_pairs(summary) & (_han_pairs(think) | _han_pairs(text)):
        return True  # Chinese / Japanese written without spaces: a word of the case shared inside longer runs
    if not text:
        return False
    markup = set()
    for match in _PROMPT_MARKUP.finditer(text):
        markup |= content_stems(" ".join(g for g in match.groups() if g))
    sentences = _PROMPT_SENTENCE.split(text)
    instruction = [sentence for sentence in sentences if _PROMPT_MARKUP.search(sentence)]
    if instruction:
        rest = content_stems(_PROMPT_MARKUP.sub(" ", " ".join(x for x in sentences if not _PROMPT_MARKUP.search(x))))
        markup |= content_stems(_PROMPT_MARKUP.sub(" ", " ".join(instruction))) - rest
    return bool(said & (content_stems(_PROMPT_MARKUP.sub(" ", text)) - markup))


_OTHER_FUNCTION_STEMS = frozenset(content_stems(" ".join(OTHER_FUNCTION_WORDS)))


# two Han characters in a row: in Chinese and Japanese, written without spaces, a run between punctuation is a clause, so
# a word of the case is found as a pair of ideographs inside it ("首先应做十二导联心电图" and the think's "应首先做心电图"
# share 心电 and 电图; red team holdout_r20: a summary in Chinese or Japanese shared no whole run with its reasoning and
# earned no +0.5); kana pairs are left out (particles and endings: "ある", "する" name nothing)
_HAN_PAIR = re.compile(r"(?=([\u3400-\u4dbf\u4e00-\u9fff]{2}))")


def _han_pairs(text: str) -> set[str]:
    """The pairs of consecutive Han characters of ``text`` (:data:`_HAN_PAIR`), overlapping; empty for other scripts."""
    return set(_HAN_PAIR.findall(text)) if text else set()


# where a sentence of the prompt ends: a stop before a space, or a line break (an option list "A. ECG B. CT" parts
# into pieces, which is harmless: only the pieces that hold markup are the instruction)
_PROMPT_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def english_share(text: str) -> float:
    """r_eng of the module docstring (``calculate_english_percentage``)."""
    if not text:
        return 0.0
    return sum(ch in ENGLISH_CHARACTERS for ch in text) / len(text)


class ReleasedPreprocessing(RolloutReward):
    """The pre-processing options the three released rewards share."""

    def __init__(self, name: str | None = None, weight: float = 1.0, eos_token: str | None = None, prefilled_think: bool = False) -> None:
        super().__init__(name, weight)
        if eos_token is not None and (not isinstance(eos_token, str) or not eos_token):
            raise ValueError(f"eos_token must be a non-empty string or null, got {eos_token!r}")
        if not isinstance(prefilled_think, bool):
            raise ValueError(f"prefilled_think must be true or false, got {prefilled_think!r}")
        self.eos_token = eos_token
        self.prefilled_think = prefilled_think

    def cleaned(self, completion: str) -> str:
        return preprocess(completion, self.eos_token, self.prefilled_think)


class CRPOAccuracy(ReleasedPreprocessing):
    """Clinical-R1 r_acc: one ``\\boxed{X}`` with X the gold letter (module docstring); None without a letter gold.

    Args:
        answer_column: column holding the gold answer (the correct option letter)
        eos_token: cut the completion at this token text before scoring (the released code splits on the EOS token);
            null keeps it whole
        prefilled_think: the chat template already opened <think> in the prompt, so the completion starts inside it
        committed_answer: a 1.0 stands only when the answer the text commits to (not negated, hedged or retracted)
            is the gold letter
    """

    type_name = "crpo_accuracy"
    exactness = "exact"
    description = f"Clinical-R1 accuracy: one \\boxed{{letter}} 1/0, not a letter -0.5, unparsed -1, n boxes != 1 -> -n ({SOURCE})"
    score_range = (-math.inf, 1.0)
    probe_strategies = ("negation", "retraction", "hedge", "prompt_copy")
    probe_genuine = "boxed"
    linear_time = True  # a count, one box's forward search, the committed-answer reading

    def __init__(self, name: str | None = None, weight: float = 1.0, answer_column: str = "answer",
                 eos_token: str | None = None, prefilled_think: bool = False, committed_answer: bool = False) -> None:
        super().__init__(name, weight, eos_token, prefilled_think)
        self.answer_column = column_name("answer_column", answer_column)
        if not isinstance(committed_answer, bool):
            raise ValueError(f"committed_answer must be true or false, got {committed_answer!r}")
        self.committed_answer = committed_answer

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.answer_column,)

    @staticmethod
    def _options(row: Mapping[str, Any]) -> dict[str, str]:
        """The options the row's prompt lists (:func:`polyreward.verifiers.options.options_in_prompt`), for a box
        that writes its option's text (:func:`labelled_letter`); ``{}`` without a prompt."""
        from polyreward.verifiers.options import options_in_prompt

        prompt = row.get("prompt")
        return {} if is_missing(prompt) else options_in_prompt(prompt_text(prompt), "".join(LETTERS))

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        gold = row.get(self.answer_column)
        gold = None if is_missing(gold) else str(gold).strip()
        if gold not in LETTERS:  # the released code asserts a letter gold; other rows are not its task
            return Scored(None, f"gold {gold!r} is not a single capital letter")
        text = self.cleaned(completion)
        if self.committed_answer and text.count("\\boxed") > 1:
            # a box the writer struck out or hid is no box it gives (red team holdout_r54: "~~\\boxed{A}~~ On second
            # look ... \\boxed{D}" gives one box): the boxes counted in what a reader sees, when that leaves one
            if (shown := uncommented_text(text)).count("\\boxed") == 1:
                text = shown
            # a box a correcting word takes back at once, before the box it states (red team holdout_r59:
            # "\\boxed{A} scratch that -- thiamine first. \\boxed{D}"): the one box left is the answer
            elif (corrected := corrected_boxes(shown)).count("\\boxed") == 1:
                text = corrected
        score = accuracy_reward(text, gold)
        if score == -0.5 and self.committed_answer and (
                letter := wrapped_letter(text) or labelled_letter(text, self._options(row))) is not None:
            # one letter in a wrapper (\text{C}, (C)) or with its own option's text (B: Graves disease): that letter,
            # which the committed-answer reading below then reads as a plain box
            score = 1.0 if letter == gold else 0.0
            text = text.replace("\\boxed{" + _box_inner(text, 200) + "}", "\\boxed{" + letter + "}", 1)
        if score == 1.0 and self.committed_answer:
            from polyreward.verifiers.choice import extract_letter, letter_after_answer_block

            committed, _ = extract_letter(text, "".join(LETTERS))
            blocks = list(tag_blocks(text, "answer", ignore_case=True))
            if committed == gold and blocks and "\\boxed" in blocks[-1][2]:
                # the <answer> body that holds the box, read on its own: a retraction inside it, before its closing
                # tag ("<answer>\\boxed{A}... wait, no, B.</answer>"), is read as it is after a bare box
                committed, _ = extract_letter(blocks[-1][2], "".join(LETTERS))
            if committed != gold:  # the box is negated, hedged or retracted: the text commits to no or another letter
                return Scored(0.0, f"boxed gold letter, but the committed answer is {committed or 'none'} (committed_answer)")
            if under_superseded_heading(text, text.find("\\boxed")):  # red team holdout_r60
                return Scored(0.0, "boxed gold letter, but the box stands under a superseded or draft heading of a "
                                   "record whose final section is another (committed_answer)")
            if (status := held_back_status(_after_box(text))) is not None:  # red team holdout_r60
                return Scored(0.0, f"boxed gold letter, but a record's status after it holds it back ({status[:40]!r}) (committed_answer)")
            if _box_in_invented_case(text, row.get("prompt")):  # red team holdout_r50
                return Scored(0.0, "boxed gold letter, but the box answers a question the text makes up after its "
                                   "reasoning, not the one asked (committed_answer)")
            if (later := letter_after_answer_block(text, "".join(LETTERS))) not in (None, gold):
                # red team holdout_r43: "<answer>... \\boxed{A}</answer> Updated answer ...: B." -- a second final answer
                return Scored(0.0, f"boxed gold letter, but the text after the <answer> block commits to {later} (committed_answer)")
            if (voice := _box_voice(text)) is not None and not adopted_after(_after_box(text)):
                return Scored(0.0, f"boxed gold letter, but the box is {voice}'s answer, which the speaker does not adopt (committed_answer)")
            if kind := disowning_remark(_after_box(text)):  # "\\boxed{C}, damit das Kästchen nicht leer bleibt" (holdout_r36)
                return Scored(0.0, f"boxed gold letter, but the text after the box makes it a stand-in ({kind}) (committed_answer)")
            if (other := alternative_after_box(text, self._options(row), gold)) is not None:
                return Scored(0.0, f"boxed gold letter, but its sentence sets option {other} against it (committed_answer)")
            if (other := other_option_last(text, gold)) is not None:  # red team holdout_r44
                return Scored(0.0, f"boxed gold letter, but the last sentence after it lands on option {other} (committed_answer)")
            if (other := own_plan_after_box(text, self._options(row), gold)) is not None:  # red team holdout_r49
                return Scored(0.0, f"boxed gold letter, but the clause after it gives option {other} as the plan for now (committed_answer)")
            if deferred_box(text):  # red team holdout_r44
                return Scored(0.0, "boxed gold letter, but the box is promised for a pending event, not given (committed_answer)")
            if offered := offered_with_others(_summary(text, blocks), gold, "".join(self._options(row)) or "ABCDE"):
                # red team holdout_r45: "A or C, leaning A ... If one letter is required: \\boxed{A}"
                return Scored(0.0, f"boxed gold letter, but the summary offers it as one of several ({offered}) (committed_answer)")
            if foreign(_after_box(text)) and not keeping_remark(_after_box(text)):  # read as jaccard and forecast_class_cost read the text after their block
                return Scored(0.0, "boxed gold letter, but the text after the box is in another language, which may "
                                   "withdraw it (committed_answer)")
        boxes = text.count("\\boxed")
        reason = {1.0: "boxed gold letter", 0.0: "boxed another letter", -0.5: "box holds no single letter", -1.0: "\\boxed without {...}"}
        return Scored(score, reason[score] if boxes == 1 else f"{boxes} boxes (exactly one wanted)")


def _box_in_invented_case(text: str, prompt: object) -> bool:
    """Does the box stand after a made-up next question (:func:`polyreward.verifiers.turns.invented_case_start`:
    ``Q: <another vignette> A. ... B. ... Answer: \\boxed{C}``, ``Question 2: ...``)? It answers that question, not
    the one asked (red team ``holdout_r50``: a think, then a continued few-shot item whose box is the gold letter)."""
    if is_missing(prompt) or "\\boxed" not in text:
        return False
    case = invented_case_start(prompt_text(prompt), text)
    return case is not None and case < text.find("\\boxed")


class CRPOFormat(ReleasedPreprocessing):
    """Clinical-R1 r_fmt: ``<think>…</think><answer>…</answer>`` 1.0, +0.5 for one box plus a summary.

    Args:
        eos_token: cut the completion at this token text before scoring (the released code splits on the EOS token);
            null keeps it whole
        prefilled_think: the chat template already opened <think> in the prompt, so the completion starts inside it
        min_content_words: the think body needs at least this many content words and the answer a letter or digit; 0 is
            the released rule
    """

    type_name = "crpo_format"
    exactness = "exact"
    description = f"Clinical-R1 format: <think>..</think><answer>..</answer> 1, +0.5 with one \\boxed{{}} and a summary ({SOURCE})"
    score_range = (0.0, 1.5)
    probe_strategies = ("empty_think", "junk_think", "empty_answer")
    linear_time = True  # format_parts and boxed_groups: forward literal searches (the released regex is quadratic)

    def __init__(self, name: str | None = None, weight: float = 1.0, eos_token: str | None = None, prefilled_think: bool = False,
                 min_content_words: int = 0) -> None:
        super().__init__(name, weight, eos_token, prefilled_think)
        self.min_content_words = check_min_content(min_content_words)

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        text = self.cleaned(completion)
        if self.min_content_words > 0 and ("<" in text or "[" in text):
            # guarded: the writer's turn, as every reader reads it (turns.own_turn): a chat template's end token left
            # after the answer ("...</answer><|im_end|>") ends the turn, it is no text after the answer block (red
            # team holdout_r7); eos_token still cuts first, as released
            text = own_turn(text).strip()
        parts = format_parts(text)
        thin = parts and thin_content({"think": parts[0], "answer": parts[1]}, self.min_content_words, row.get("prompt"))
        if thin:
            return Scored(0.0, thin)
        score = format_reward(text, self.min_content_words, row.get("prompt"))
        return Scored(score, {0.0: "not <think>...</think> <answer>...</answer>", 1.0: "format ok, answer lacks one box plus a summary",
                              1.5: "format ok, answer has one box and a summary"}[score])


class CRPOEnglish(ReleasedPreprocessing):
    """Clinical-R1 r_eng: share of the text written in English (penalises language mixing).

    Args:
        eos_token: cut the completion at this token text before scoring (the released code splits on the EOS token);
            null keeps it whole
        prefilled_think: the chat template already opened <think> in the prompt, so the completion starts inside it
        min_content_words: a text of fewer content words scores 0; 0 is the released rule
        measure: characters (the released rule: share of characters in the ASCII whitelist; pays pinyin, Base64,
            German) or language (share of letters in stretches a language detector labels English)
    """

    type_name = "crpo_english"
    exactness = "exact"
    description = f"Clinical-R1 English share: fraction of characters in the ASCII-English whitelist ({SOURCE})"
    score_range = (0.0, 1.0)
    probe_strategies = ("junk_text",)
    linear_time = True  # a whitelist count; narrowed to False under measure: language (a language-ID model)

    def __init__(self, name: str | None = None, weight: float = 1.0, eos_token: str | None = None, prefilled_think: bool = False,
                 min_content_words: int = 0, measure: str = "characters") -> None:
        super().__init__(name, weight, eos_token, prefilled_think)
        self.min_content_words = check_min_content(min_content_words)
        self.measure = one_of("measure", measure, MEASURES)
        self.linear_time = self.measure == "characters"

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        text = self.cleaned(completion)
        words = content_words(text, row.get("prompt")) if self.min_content_words else 0
        if words < self.min_content_words:
            return Scored(0.0, f"{words} content word(s), min_content_words needs {self.min_content_words}")
        if self.measure == "language":
            score = detected_english_share(text)
            return Scored(score, f"{score:.0%} of the letters in stretches a language detector labels English")
        score = english_share(text)
        return Scored(score, "empty completion" if not text else f"{score:.0%} English characters")
