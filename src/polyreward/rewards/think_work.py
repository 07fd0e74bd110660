"""Does a think body do work for its prompt? The structural reading the content guard adds to its word count (issue 32).

The content guard (:func:`polyreward.rewards.format.content_words`, ``min_content_words`` of ``think_format``,
``toolrl_format``, ``crpo_format`` and ``crpo_english``) counts the words of a think that are not stop words, filler
or the prompt's own words. That count alone sits on both sides of one trade-off: a terse genuine think restates the
prompt's quantities and relates them (``b=10, h=5 → 1 call``, ``15% of 40 is 6; 40 - 6 = 34.``, ``'Every day' →
repeat_daily: true.``), so it holds few words the prompt lacks and is refused, while counting the prompt's words pays a
pasted prompt, its words shuffled, or a list of the case's keywords. A word count cannot tell them apart; what the
think *adds to the prompt* can. This module reads three structures, all on the visible, case-folded text the guard
reads (no hidden text, no comments; the prompt's text normalised the same way):

Steps (what a think adds: a relation between the prompt's quantities)::

    clause   = a run of the text between , ; : ! ? a line break or a full stop before a space (not a decimal point)
    term     = a number (2.5), a number with a letter (2x) or a word or identifier (base, repeat_daily, tk-3391)
    side     = terms joined by operators (+ - * / × ÷ · ^ ⁄): "base × height / 2"; two terms side by side start a new side
    relation = sides joined by relation marks inside one clause: = → -> => ⇒ < > ≤ ≥ ≈ ≠, and a comparison in words
               before a number (over, above, exceeds, more than: >; under, below, less than: <): "INR over 8"
    link     = two neighbouring sides of a relation and their mark ("v = d / t = 150 / 3 = 50" has three links)
    a link is a STEP when
      * it is not in the prompt (spaces removed: the prompt's own "2x + 3 = 11" restated is no step), and
      * it names the case: one of its terms is a word (not a function word) or a number of the prompt, and
      * it adds something: an arrow or a comparison relates the prompt's terms in a way the prompt does not (a
        mapping, an order: "'every day' → repeat_daily", "4.6 > 4.2"; where the prompt writes that mark itself, the
        link must hold a term the prompt lacks, as its words shuffled would make one), while an equality ("=") must
        hold a term the
        prompt lacks (a derived value, 34 in "40 - 6 = 34"; a new name, "b" in "b × h / 2 = 25"), and is not a bare
        binding of one word to one number ("base = 10", "x = 4": the prompt's value named, or the answer stated --
        the binding rule of format.relations' results)

Each distinct step counts one content unit, and a think with a step reasons in the prompt's terms, so the prompt's
words it uses outside any run of three words copied from the prompt count too (before: only beside two words of its
own). Why this separates: a pasted prompt holds only the prompt's own relations (no step); the prompt's words shuffled
hold no relation mark between the prompt's terms, or one whose sides are all the prompt's with nothing derived ("2 * x
+ 3 = 11" as an SQL WHERE clause, "base = 10" bindings); a keyword list has no relation at all. Terse genuine thinks
of several styles have steps: a formula ("Area = base × height / 2 = 10 × 5 / 2"), arithmetic ("180 / 2.5 = 72"), an
abbreviation ("b=10, h=5 → 1 call"), a mapping ("'Every day' → repeat_daily: true").

Decisions (which tool fits: a tool call's think decides before it calls)::

    tools    = the "name" values of the prompt's JSON function schema
    DECISION = a tool's name as a bare word (not quoted, not followed by "(" or its arguments) beside a verb of calling
               (call, calls, calling, use, using, invoke: "Base 10, height 5: call calculate_triangle_area.", "two
               get_weather calls")

A decision counts one, as a step does, and lets the prompt's words count. It separates: a copy of the call (the name
quoted in JSON, or followed by its arguments as code) and a list of the schema's identifiers ("convert_currency amount
from_currency to_currency") decide nothing; the schema's names stand quoted in the prompt, so the prompt pasted or
shuffled holds no bare name beside "call".

Tool descriptions (what the think is about: the request, or only the tools offered)::

    schema   = the JSON values starting a line of the prompt that hold a tool's "name"
    request  = the prompt's lines after the last schema that name no markup tag (the format instruction)
    a think DESCRIBES THE TOOLS when it names a tool of the schema and shares no term with the request nor with the
    call's values, holds no number the schema lacks, and decides no call

A think that describes the tools fails the guard ("There is a function find_restaurants that takes a zip code, a
cuisine and an optional maximum number of results."; red team holdout_r23): the schema restated in prose does no
work for this request. The tool named beside a value of the request, a number of the writer's own or a verb of
calling is reasoning as before; a think that names no tool is not judged (a terse check of the fields in the schema's
words, "Needs origin, destination, date; cabin unspecified.", reads alike to a word comparison).

Keyword lists (word order: a list adds no ordered pair that reads as language)::

    words = the words of the text outside any run of three words copied from the prompt
    a KEYWORD LIST is four or more such words of which none is a function word (the, of, is, so, ...: the words
    that join other words into a clause; and, in Latin script, no word of one or two letters, the articles and
    prepositions of other languages: à, de, la, un), in one sentence (no full stop, ! or ? inside, no line break:
    "Mild cardiomegaly. Mild edema." is a terse report), with no relation or operation (no relation mark, no
    operator between two terms) but the prompt's own, in which a content word comes again (its stem: "discount ...
    discount", "minutes, minute, minutes"); a text mostly in another script is not judged

A keyword list counts 0 content words: it names the case's terms and relates none of them ("Discount percentage price
jacket sale discount percentage price.", "ECG chest pain troponin aspirin ECG crushing chest ECG pain"). A terse
genuine think without function words does not repeat itself ("Chest pain, diaphoresis, ST elevation: STEMI; cath
lab.") or holds a relation ("b=10, h=5 → 1 call").

What this does NOT read (its admitted limits): whether a step is right (a think that solves another equation has
steps: a verifier or a rubric judges correctness); a shuffle of the writer's OWN reasoning that keeps function words
("first ECG coronary pain crushing the acute is syndrome chest test suggests an" -- telling word salad from terse
prose needs a language model); real on-topic sentences that restate or plan without relating anything ("I will
carefully analyze the request and then call the appropriate function") beyond the guard's other rules (the
tool-calling instruction's words and the clinical question's frame are left out of its topic comparison, and a think
that names only the answer's words is refused: :mod:`polyreward.rewards.format`); text in a
script other than the prompt's (a translation shares no spelling, as :func:`polyreward.rewards.format.off_topic`).
The readings are linear in the text's length; a think's steps are read up to MAX_LINKS links and MAX_STEPS steps.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Callable, Collection, Sequence

# a term: a number (2.5, a thousands group 1,000 is two numbers: clauses split at commas), a number with letters (2x,
# 3.5kg) or a word or identifier (repeat_daily, better-rated, tk-3391); the rest of a token is a mark
_TOKEN = re.compile(r"\d+(?:\.\d+)?[^\W\d_]*|[^\W\d_][\w'-]*(?<![-'])|->|=>|<=|>=|[=→⇒⟶⟹<>≤≥≈≠+\-*/×÷·^⁄]")
_RELATION_MARKS = frozenset("= → ⇒ ⟶ ⟹ < > ≤ ≥ ≈ ≠ -> => <= >=".split())
_OPERATORS = frozenset("+ - * / × ÷ · ^ ⁄".split())
# clause ends: , ; : ! ? a line break, a full stop before a space or the end (a decimal point is no clause end)
_CLAUSE = re.compile(r"[,;:!?\n]|\.(?=\s|\Z)")
_SPACES = re.compile(r"\s+")
_WORD_PART = re.compile(r"[^\W_]+")
_BINDING = re.compile(r"[^\W\d_][^\W\d]*=-?\d+(?:\.\d+)?")  # base=10, x=-4: one word bound to one number
# an operation between two terms: "3 x 4", "a + b" (a bullet "- item" is none: nothing stands before it)
_OPERATION = re.compile(r"[^\W_]\s*[+\-*/×÷·^⁄]\s*[^\W_]")
# a comparison in words before a number: "INR over 8", "age above 65", "BMI less than 18.5" (read as > and <)
_WORD_COMPARISON = re.compile(r"\b(over|above|exceeds|exceeding|more than|greater than|under|below|less than|fewer than)"
                              r"\s+(?=\d)")
_BELOW = frozenset(("under", "below", "less than", "fewer than"))
_SENTENCE_END = re.compile(r"[.!?](?=\s|\Z)|\n")
LIST_LENGTH = 4
# bounds on the reading of a long think (a count far above any min_content_words; a score never depends on load)
MAX_STEPS = 64
MAX_LINKS = 2000  # a keyword list has at least this many words


def _relations(clause: str) -> list[tuple[list[list[str]], list[str]]]:
    """The relations of one clause: (sides, each its terms and the operators between them; the relation marks
    between the sides)."""
    found = []
    sides: list[list[str]] = []
    marks: list[str] = []
    side: list[str] = []
    pending_op = False

    def close() -> None:
        nonlocal sides, marks, side
        if side:
            sides.append(side)
        if len(sides) >= 2 and len(marks) >= 1 and len(sides) == len(marks) + 1:
            found.append((sides, marks))
        sides, marks, side = [], [], []

    for token in _TOKEN.findall(clause):
        if token in _RELATION_MARKS:
            if not side:  # a mark with nothing before it ("= 4" after a word run closed)
                close()
                continue
            sides.append(side)
            marks.append(token)
            side, pending_op = [], False
        elif token in _OPERATORS:
            if side:
                side.append(token)
                pending_op = True
        else:
            if side and not pending_op:  # two terms side by side: the relation so far ends, a new side starts
                if marks:  # "x = 4 apples": the relation closes at its last operand ...
                    close()
                side = []
            side.append(token)
            pending_op = False
    if pending_op:  # a dangling operator ("3 +"): the side is unfinished
        side = []
    close()
    return found


def _written(sides: Sequence[Sequence[str]], marks: Sequence[str]) -> str:
    """A relation as written without spaces ("2x+3=11"), to compare with the prompt's text (:func:`flat`)."""
    return "".join("".join(side) + (marks[i] if i < len(marks) else "") for i, side in enumerate(sides))


def _known(term: str, prompt_words: Collection[str], prompt_numbers: Collection[str]) -> bool:
    """A term of the prompt: its number, or a word (an identifier: each part) the prompt holds."""
    if term[0].isdigit():
        number = re.match(r"\d+(?:\.\d+)?", term)
        return number is not None and number.group() in prompt_numbers
    parts = _WORD_PART.findall(term)
    return bool(parts) and all(p in prompt_words for p in parts)


def _compared(text: str) -> str:
    """``text`` with its comparisons in words before a number written as marks ("inr over 8" is "inr > 8")."""
    if not _WORD_COMPARISON.search(text):
        return text
    return _WORD_COMPARISON.sub(lambda m: " < " if m.group(1) in _BELOW else " > ", text)


def steps(visible: str, prompt_visible: str, prompt_words: Collection[str]) -> set[str]:
    """The distinct steps of a think (module docstring): relations that are not the prompt's, name one of its terms
    and add a derived term, a new name, a mapping or an order. ``visible`` and ``prompt_visible`` are the case-folded
    visible texts the content guard reads; ``prompt_words`` the prompt's words. Without a prompt nothing is a step (a
    step relates the prompt's quantities)."""
    if not prompt_visible:
        return set()
    visible = _compared(visible)
    if not any(m in visible for m in "=→⇒⟶⟹<>≤≥≈≠"):
        return set()
    from polyreward.verifiers.language import STOP_WORDS

    prompt_visible = _compared(prompt_visible)
    prompt_flat = flat(prompt_visible)
    prompt_numbers = set(re.findall(r"\d+(?:\.\d+)?", prompt_visible))
    prompt_marks = {t for t in _TOKEN.findall(prompt_visible) if t in _RELATION_MARKS}
    found: set[str] = set()
    examined = 0
    for clause in _CLAUSE.split(visible):
        for sides, marks in _relations(clause):
            for left, mark, right in zip(sides, marks, sides[1:]):  # each link of a chain: "v = d / t = 150 / 3 = 50"
                examined += 1
                if examined > MAX_LINKS or len(found) >= MAX_STEPS:
                    return found
                written = _written([left, right], [mark])
                if written in prompt_flat or _BINDING.fullmatch(written):
                    continue
                if not all(any(t not in _OPERATORS and t not in STOP_WORDS for t in side) for side in (left, right)):
                    continue  # a function word names no quantity: "put = in" of a shuffled prompt relates nothing
                known = [_known(t, prompt_words, prompt_numbers) for t in (*left, *right)
                         if t not in _OPERATORS and t not in STOP_WORDS]
                if not any(known):
                    continue
                if all(known) and (mark == "=" or mark in prompt_marks):
                    # an equation of the prompt's terms only derives nothing ("2 * x + 3 = 11"); an arrow or order of
                    # them is the writer's only where the prompt writes no such mark (else its words shuffled make one)
                    continue
                found.add(written)
    return found


# a tool the prompt offers: the "name" of a function in its JSON schema (Hermes, Qwen, ToolRL layouts)
_TOOL_NAME = re.compile(r'"name"\s*:\s*"([^"\s]{1,80})"')
_CALL_VERBS = r"call|calls|calling|use|using|invoke"


def offered_tools(prompt_visible: str) -> set[str]:
    """The tools a prompt offers: the ``"name"`` values of its JSON function schema (Hermes, Qwen, ToolRL layouts), as
    written in ``prompt_visible`` (case-folded by the callers); empty for a prompt without such a schema."""
    return set(_TOOL_NAME.findall(prompt_visible)) if '"name"' in prompt_visible else set()


def decisions(visible: str, prompt_visible: str) -> set[str]:
    """The tools of the prompt's schema the think decides to call, in prose: a tool's name as a bare word beside a verb
    of calling ("call calculate_triangle_area", "two get_weather calls", "use get_weather", "one call to get_weather";
    not the name quoted or
    followed by its arguments, which copies a call, and not a list of names, which decides nothing). ``visible``
    and ``prompt_visible`` are case-folded; without a schema there is no decision."""
    names = offered_tools(prompt_visible)
    if not names:
        return set()
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    bare = rf"(?<![\w\"'`])({alternatives})(?![\w\"'`(])"
    found = set()
    # "call get_weather", "one call to get_weather" (a noun of calling and its target), "two get_weather calls"
    for m in re.finditer(rf"\b(?:{_CALL_VERBS})\s+(?:to\s+)?(?:(?:the|one|a|an)\s+)?{bare}|{bare}\s+(?:{_CALL_VERBS})\b", visible):
        found.add("call " + (m.group(1) or m.group(2)))
    return found


_JSON_START = re.compile(r"^[ \t]*[\[{]", re.MULTILINE)
_MARKUP_TAG = re.compile(r"</?[a-z_][\w-]{0,40}>")


@functools.lru_cache(maxsize=256)
def schema_and_request(prompt_visible: str) -> tuple[str, str] | None:
    """(the prompt's function schema, its request), or None when the prompt offers no tool (:data:`_TOOL_NAME`) or
    its schema is not JSON starting a line. The schema is every JSON value that starts a line (``Available functions
    (JSON):\\n[{"name": ...}]``, pretty-printed or not) and holds a tool's ``"name"``; the request is the text after
    the last schema without the lines that name a markup tag (the format instruction), or, where that leaves nothing,
    every line outside the schema. ``prompt_visible`` is the case-folded visible prompt. One decoding attempt a line (cached per prompt:
    a group's rollouts share it)."""
    if not _TOOL_NAME.search(prompt_visible):
        return None
    decoder = json.JSONDecoder()
    schema, rest, at = [], [], 0
    for m in _JSON_START.finditer(prompt_visible):
        if m.start() < at:
            continue  # inside a schema already read
        start = m.end() - 1
        try:
            _, end = decoder.raw_decode(prompt_visible, start)
        except ValueError:
            continue
        if _TOOL_NAME.search(prompt_visible, start, end):
            rest.append(prompt_visible[at:start])
            schema.append(prompt_visible[start:end])
            at = end
    if not schema:
        return None
    # the request: the lines after the last schema that hold no markup tag (the format instruction names its tags,
    # "reason inside <think>...</think>"); the text before the schema introduces it ("available functions (json):")
    after = "\n".join(line for line in prompt_visible[at:].splitlines() if not _MARKUP_TAG.search(line))
    rest.append(prompt_visible[at:])
    return " ".join(schema), after if after.strip() else " ".join(rest)


def describes_tools(think_terms: set[str], prompt_visible: str, others: str, visible: str,
                    terms_of: Callable[[str], set[str]]) -> bool:
    """True when a think body only describes the prompt's tools (red team ``holdout_r23``: "There is a function
    find_restaurants that takes a zip code, a cuisine and an optional maximum number of results." for "Show me 5
    Thai places near 02139."): its terms (``think_terms``, stems and numbers as ``terms_of`` reads them, the reward's
    format words left out) share none with the request (the prompt outside its function schema,
    :func:`schema_and_request`) nor with the call's values (``others``' terms the schema lacks), it holds no number of
    its own (a count of calls, a converted value: one the schema does not hold), it names a tool of the schema and
    decides no call (:func:`decisions`). A think that reasons about this request names one of its words or values,
    derives a number or decides a call; the schema restated in prose (a tool and what it takes, or its names and keys
    listed) does none of them. A body that names no tool is not judged: "Needs origin, destination, date; cabin
    unspecified." (holdout_r15) checks the request's fields in the schema's words alone, which a word comparison cannot
    tell from a description. Without a schema in the prompt nothing is judged."""
    split = schema_and_request(prompt_visible)
    if split is None or not think_terms:
        return False
    if not any(re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", visible) for name in set(_TOOL_NAME.findall(prompt_visible))):
        return False  # names no tool: a terse check of the fields ("Needs origin, destination, date; cabin unspecified.")
    schema, request = split
    schema_terms = terms_of(schema)
    if think_terms & (terms_of(request) | (terms_of(others) - schema_terms)):
        return False
    if any(t.isdigit() and t not in schema_terms for t in think_terms):
        return False
    return not decisions(visible, prompt_visible)
# the prompt named as the one who asks ("the question is asking", "the user wants", "this problem asks"): a frame that
# reports the prompt, not a word about the case (red team holdout_r21: "Okay, so the question is asking how many
# minutes there are in 3.5 hours. Let me figure that out." counted question and asking as two words of its own)
_TASK_SUBJECTS = frozenset("question questions problem prompt task user exercise query".split())
_ASKING = frozenset("ask asks asking asked want wants wanting wanted".split())
_FRAME_GAP = frozenset("is are was also just really simply basically here now clearly".split())


def task_frames(words: Sequence[str]) -> set[int]:
    """The positions in ``words`` (a think's case-folded words) of each frame that reports the prompt: a task subject
    (question, problem, prompt, task, user, exercise, query) and, after at most two light words ("is", "also"), a verb
    of asking or wanting ("the question is asking", "the user wants"). Both words describe who asks, not the case, so
    the content guard counts neither; what the frame reports is the prompt's words, which count as before."""
    found: set[int] = set()
    for i, word in enumerate(words):
        if word not in _TASK_SUBJECTS:
            continue
        j = i + 1
        while j < len(words) and j - i <= 2 and words[j] in _FRAME_GAP:
            j += 1
        if j < len(words) and words[j] in _ASKING:
            found.update((i, j))
    return found


def flat(text: str) -> str:
    """``text`` without white space: how a relation is compared with the prompt's ("2x + 3 = 11" is "2x+3=11")."""
    return _SPACES.sub("", text)


def keyword_list(words: Sequence[str], copied: Collection[int], visible: str, prompt_visible: str,
                 stop_words: Collection[str], stem_of: Callable[[str], str], is_content: Callable[[str], bool]) -> bool:
    """True when the words outside the copied positions (``copied``: indices of words in runs copied from the
    prompt; ``words`` are ``visible``'s runs of letters and digits) are a keyword list (module docstring): four or more
    in one sentence, no function word, no relation or operation between two terms in ``visible`` but the prompt's own
    (``prompt_visible``: a pasted equation makes no list a clause), and
    a content word (``is_content``) whose stem (``stem_of``) comes again. The function words are English ones
    (``stop_words``), so the rule reads Latin-script text without a word of one or two letters (the articles and
    prepositions of other Latin-script languages: à, de, la, el, un, en): a French or Spanish sentence is no list,
    and a text mostly in another script (Chinese, Thai) is not judged."""
    own = [w for i, w in enumerate(words) if i not in copied]
    if len(own) < LIST_LENGTH or any(w in stop_words or (w.isalpha() and len(w) <= 2) for w in own):
        return False
    ends = [m.start() for m in _SENTENCE_END.finditer(visible)]
    sentences = {bisect.bisect(ends, m.start()) for i, m in enumerate(_WORD_PART.finditer(visible)) if i not in copied}
    if len(sentences) > 1:
        return False  # sentences: "Mild cardiomegaly. Mild edema." is a terse report, not one run of keywords
    letters = [ch for w in own for ch in w if ch.isalpha()]
    if sum(ch.isascii() for ch in letters) * 2 < len(letters):
        return False
    stems = [stem_of(w) for w in own if not w.isdigit() and is_content(w)]
    if len(set(stems)) == len(stems):
        return False
    prompt_flat = flat(prompt_visible)
    for clause in _CLAUSE.split(visible):
        if any(_written(sides, marks) not in prompt_flat for sides, marks in _relations(clause)):
            return False
        if any(flat(m.group()) not in prompt_flat for m in _OPERATION.finditer(clause)):
            return False
    return True


# a think that repeats itself: padding a length or a word count buys without adding a word (red team holdout_r32:
# "Count the divisors of the number." written eight times). A sentence counts as repeated from its third copy, when
# its copies are at least half of the body's sentences ("Wait." twice in a long derivation is no padding)
REPEATED_COPIES = 3


def repeats_one_sentence(visible: str) -> bool:
    """True when one sentence (its case-folded words, :data:`_SENTENCE_END` closing it) makes up at least half of the
    sentences of ``visible`` (a think's visible, case-folded text) and is written :data:`REPEATED_COPIES` times or
    more: one statement said again and again is padding, not reasoning, whatever its words (they count once in the
    content guard, so a sentence of three words of its own passes by itself; eight copies add no work). Linear."""
    counts: dict[tuple[str, ...], int] = {}
    total = 0
    for sentence in _SENTENCE_END.split(visible):
        words = tuple(_WORD_PART.findall(sentence))
        if words:
            counts[words] = counts.get(words, 0) + 1
            total += 1
    most = max(counts.values(), default=0)
    return most >= REPEATED_COPIES and most * 2 >= total


# a think of token soup: a degenerate sampler writes each token again right after itself (red team holdout_r50:
# "divisors divisors of of 36 36 36 the the the number number 9 9 9 count count count count"); from this many words a
# think where at least half the words repeat the word right before them is soup, not reasoning (a prose "had had" or a
# "9 9" of a table is one repeat among many words)
STUTTER_MIN_WORDS = 8


def stutters(visible: str) -> bool:
    """True when ``visible`` (a think's visible, case-folded text) has :data:`STUTTER_MIN_WORDS` words or more and at
    least half of them repeat the word right before them: a run of doubled and tripled tokens is degenerate output,
    whatever words it holds. Linear.

    >>> stutters("divisors divisors of of 36 36 36 the the the number number 9 9 9 count count")
    True
    >>> stutters("36 has divisors 1, 2, 3, 4, 6, 9, 12, 18 and 36, so 9 9 is not a typo")
    False
    """
    words = _WORD_PART.findall(visible)
    if len(words) < STUTTER_MIN_WORDS:
        return False
    repeats = sum(1 for before, word in zip(words, words[1:]) if word == before)
    return repeats * 2 >= len(words)


def copies_a_block(visible: str, blocks: Sequence[str]) -> bool:
    """True when the words of ``visible`` (a think's visible, case-folded text) are, in order, a run of the words of
    one of ``blocks`` (the other blocks' visible, case-folded texts: the answer, the tool call): the think restates
    what the answer or the call already says and relates it to nothing (red team holdout_r32: the think body is the
    call's JSON, ``{"name": "convert_currency", "parameters": {...}}``, before the same call). A think that reasons
    writes words of its own around the values it passes on. Linear: one substring search per block."""
    words = _WORD_PART.findall(visible)
    if not words:
        return False
    run = " " + " ".join(words) + " "
    return any(run in " " + " ".join(_WORD_PART.findall(block)) + " " for block in blocks)
