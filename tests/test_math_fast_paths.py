"""The math reader's speed shortcuts give exactly what the long way gives (issue #35).

Each shortcut is held to the path it skips, on realistic rollouts and hostile text:

* ``reading.normalise`` skips substitutions that provably change nothing (no ASCII character is invisible, a leet
  word needs a letter beside a digit, single spaces need no collapsing): against the substitutions always run;
* ``answer_extraction._extract_view`` is memoised on its view text: a cached answer against a fresh reading;
* ``math._compare_remembered`` remembers ``compare_cheap``'s verdict without a prompt and squeezes the prompt only
  when the answer could be read in it (``work_avoidance.copy_candidates``, the another-variable check): against
  ``compare_cheap`` with the squeezed prompt given, first call and remembered call alike;
* ``math_normalize.numerals_equal`` compares two whole numbers (same percent flag) by equality: against the formula;
* ``math_normalize.unicode_roots`` returns an ASCII text as it is: the long path on ASCII text changes nothing;
* ``math._lazy_prompt_form``: a whole batch decided with the prompt squeezed lazily against it squeezed up front.
"""

from __future__ import annotations

import json
import sys
import tempfile
import unicodedata
from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reader_probes import fresh_and_red_team_batch, fresh_verdicts

from polyreward.verifiers import answer_extraction, broken_markup, math_normalize, reading, speech_transcripts
from polyreward.verifiers import math as verifier
from polyreward.verifiers import math_answers
from polyreward.verifiers.work_avoidance import copy_candidates, prompt_form, work_avoided

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def normalise_long(text: str, collapse_space: bool = True) -> str:
    """``reading.normalise`` with every substitution run, in its order (the path without the shortcuts)."""
    text = reading.overprinted(text)  # backspaces and carriage returns applied (holdout_r54)
    text = reading.ascii_word_marks(text)  # look-alike apostrophes and hyphens inside a word (stop 68)
    if collapse_space:  # prose: an HTML entity is the character it shows, an HTML superscript the one it shows
        text = reading.rendered_superscripts(reading.rendered_entities(text))
    text = reading._RIGHT_TO_LEFT_RUN.sub(reading._shown_order, text)
    text = reading._STRUCK_CHARACTER.sub("", text)
    text = reading._BLANK_LETTER.sub(" ", text)
    text = reading._DECORATED_WORD.sub(reading._undecorated, text)
    text = reading._TURNED_RUN.sub(reading._upright, text)
    text = "".join(ch for ch in text if ch.isascii() or unicodedata.category(ch) != "Cf")
    # a vector's angle brackets read as LaTeX's before NFKC (holdout85), a subscript base read (holdout96)
    # a circled letter is a bracketed label (holdout_r56), a negative enclosed capital its letter (holdout122)
    text = text.translate(reading.CIRCLED_LETTERS).translate(reading.ANGLE_BRACKETS).translate(reading._ENCLOSED_CAPITALS)
    text = reading._INVISIBLE.sub("", reading._nfkc_keeping_math(reading.subscript_bases(text)))
    text = reading._spaced_cjk(text)
    text = reading._WORD.sub(reading._map_lookalikes, text)
    text = reading._TRUE_MINUS.sub("-", reading._MINUS_BEFORE_DIGIT.sub("-", text))
    text = reading._QUESTION_MARK.sub("?", text)  # "⸮", "؟" (stop 68)
    text = reading._ascii_digits(text)
    if collapse_space:  # prose: markup splitting a guard word, emphasis on a phrase of commitment (stop 68)
        text = reading._SPLIT_WORD.sub(reading._joined_word, text)
        text = reading._EMPHASISED_WORDS.sub(reading._unemphasised, text)
    text = reading._SPACED_LETTERS.sub(reading._spelled_word, text)  # "w r o n g" (holdout107)
    text = reading._STRETCHED_WORD.sub(reading._unstretched, text)  # "Maaaybe" (stop 68)
    text = reading._LEET_WORD.sub(reading._unleet, text)
    text = reading._LEET_I.sub("I", text)
    text = reading._BARE_CONTRACTION.sub(r"\1n't", text)
    if collapse_space:  # prose: escaped markdown marks and "\\box{..}" read through (broken_markup.py, holdout82)
        text = broken_markup.spelled_boxes(broken_markup.unescaped_markdown(text))
        text = speech_transcripts.spoken_as_meant(text)  # a transcript as its speaker meant it (holdout_r59)
    return reading._HORIZONTAL_SPACE.sub(" ", text) if collapse_space else text


# characters that drive the shortcuts: leet digits and letters, every kind of space, invisible and look-alike
# characters, superscripts, non-ASCII digits and dashes
HOSTILE = st.text(alphabet=st.sampled_from(list("orntwa0134579 2x.,\n\t\r\x0b\x0c\x1c\u00a0\u2003\u200b\u00ad\ufe0f"
                                                "\u0430\u043e\u0391\u00b2\u00bd\u0663\u2212\u2013\u3002\u7b54\\{}$"
                                                # turned letters, blank letters, an override and its pop, a combining
                                                # underline, Cherokee and Lisu look-alikes
                                                "\u01dd\u0287\u0279\u3164\u2800\u202e\u202c\u0332\u13aa\ua4f3"
                                                # look-alike apostrophes and hyphens, small capitals, an accent, markup
                                                # marks, question-mark look-alikes (stop 68)
                                                "\u2019\u02bc\u2010\u1d0f\u0280\u00f3*_`<>~\u2e2e\u061f")), max_size=60)
WORDS = ["0r", "n0t", "w41t", "wr0ng", "4ctually", "x2", "2x", "b0x", "1s", "or", "not", "42", "4.5", "  ", "\t", "\u00a0",
         "can\u2019t", "n**o**t", "*not*", "Maaaybe", "n\u00f3t", "\u0274\u1d0f\u1d1b", "x*y*z", "**B**", "<b>o</b>"]


@FAST
@given(st.one_of(HOSTILE, st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join), st.text(max_size=80)),
       st.booleans())
@example("The answer is n0t 42,  0r  maybe 43", True)
@example("w41t\u00a0\u00a0no\tit is 5", True)
@example("\u200bn\u200b0t 42", False)
@example("\u01dd\u0287", True)  # turned letters, read upright (found by hypothesis after the holdout12 rules)
@example("ok \u202eton\u202c 1 dont", True)
@example("\\*", True)  # an escaped markdown mark (broken_markup, holdout82): the long path reads it too
@example("\u2329 3, 4 \u232a", True)  # angle brackets (holdout85): the long path lacked their step until stop 59
@example("101\u2082 &amp; 7 \u3008x\u3009", True)  # a subscript base (holdout96), an entity, CJK brackets
@example("\U0001f170 \u24b8 x<sup>2</sup>", True)  # enclosed and circled letters, a superscript (found by CI, stop 67)
@example("\U0001f170", False)
@example("I\u2019m n**o**t *sure*, Maaaybe n\u00f3t \u1d0f\u0280 42\u2e2e", True)  # this stop's steps
def test_normalise_shortcuts_equal_the_long_path(text, collapse_space):
    assert reading.normalise(text, collapse_space) == normalise_long(text, collapse_space)


@FAST
@given(st.one_of(st.text(alphabet=st.characters(max_codepoint=127), max_size=120), st.lists(st.sampled_from(
    ["\\sqrt", "{", "}", "(", ")", "/", "pi", "12", "1/2", "7/8", "x", " ", "\n", "+"]), max_size=20).map("".join)))
@example("The area is 4pi, or 1/2 of 7/8 and sqrt(12).")
def test_unicode_roots_leaves_an_ascii_text_alone(text):
    # the shortcut returns an ASCII text as it is: the long path must too (every form it rewrites is non-ASCII)
    assert math_normalize._unicode_roots(text) == text == math_normalize.unicode_roots(text)


def numerals_equal_long(gold, pred, rel_tol=1e-3):
    """``math_normalize.numerals_equal`` without its shortcut for two whole numbers (its docstring's formula)."""
    candidates = [gold.value] + ([gold.value / 100 if gold.percent else gold.value * 100] if gold.percent != pred.percent else [])
    return any(value == pred.value or (round(value, 6) == round(pred.value, 6) and abs(value - pred.value) <= rel_tol * max(abs(value), abs(pred.value)))
               for value in candidates)


@FAST
@given(st.integers(-10**20, 10**20), st.one_of(st.integers(-3, 3), st.integers(-10**20, 10**20)), st.booleans(), st.booleans(),
       st.sampled_from([1e-3, 0.0, 0.5, 1.0, 3.0]))
@example(42, 0, False, False, 1e-3)
@example(75, -74, True, False, 1e-3)
def test_whole_numbers_compare_as_the_long_path(value, offset, gold_percent, pred_percent, rel_tol):
    from fractions import Fraction

    gold, pred = math_normalize.Numeral(Fraction(value), gold_percent), math_normalize.Numeral(Fraction(value + offset), pred_percent)
    assert math_normalize.numerals_equal(gold, pred, rel_tol) is numerals_equal_long(gold, pred, rel_tol)


ANSWERS = ["42", "-7", "0.25", "\\frac{1}{4}", "1/4", "\\frac{84}{2}", "2 \\times 21", "y = 42", "x = 5", "x=5, x=6",
           "\\sqrt{17}", "4!", "(1, 2)", "2^{10}", "\\pi", "42 \\text{ (or 43)}", "43 = 42", "12\\text{ cm}^2", "Paris",
           "infinitely many", "", "\\text{C}", "(7.0 + 4.0i) - (4.0 + 6.0i)", "x^2 - 1", "10,\\!000", "3 \\cdot 14"]
GOLDS = ["42", "-7", "0.25", "\\frac{1}{4}", "1/4", "21", "x = 5", "\\sqrt{17}", "3 + 6i", "x^2-1", "Paris", "C",
         "\\infty", "(1,2)", "10000", "nan", "", "1024", "42 \\text{ or } 43"]
TEMPLATES = ["The answer is \\boxed{{{a}}}.", "<think>try {a} and check</think>\nSo \\boxed{{{a}}}", "Answer: {a}",
             "It is not {a}.", "\\boxed{{{a}}} or 43", "{a}", "Maybe {a}? Not sure.", "\\boxed{{{a}}} -- wait, no, 45.",
             "<answer>{a}</answer>", "$${a}$$", "The final answer is ${a}$. I hope it is correct."]
PROMPTS = ["", "Compute 2 \\times 21.", "Solve for x: 2x = 84.", "Find y if y - 2 = 40.", "Simplify \\frac{84}{2}.",
           "Subtract (7.0 + 4.0i) - (4.0 + 6.0i).", "What is 1/4 as a decimal?", "Expand (x-1)(x+1): x^2 - 1",
           "Evaluate 4! and 2^{10}.", "Question 3: combine 1 and 4."]


def _rollouts():
    answer = st.one_of(st.sampled_from(ANSWERS), HOSTILE)
    completion = st.builds(lambda template, a: template.format(a=a), st.sampled_from(TEMPLATES), answer)
    prompt = st.one_of(st.sampled_from(PROMPTS), st.builds(lambda a, p: f"{p} Is it {a}?", answer, st.sampled_from(PROMPTS)), HOSTILE)
    return st.tuples(completion, st.one_of(st.sampled_from(GOLDS), HOSTILE), prompt)


@FAST
@given(_rollouts(), st.booleans(), st.sampled_from(["punctuation", "factorial"]))
@example(("The answer is \\boxed{2 \\times 21}.", "42", "Compute 2 \\times 21."), True, "punctuation")
@example(("The answer is \\boxed{y = 42}.", "42", "Solve for x: 2x = 84."), True, "punctuation")
@example(("\\boxed{(7.0 + 4.0i) - (4.0 + 6.0i)}", "3 - 2i", "Subtract (7.0 + 4.0i) - (4.0 + 6.0i)."), True, "punctuation")
def test_remembered_verdicts_equal_the_long_path(rollout, guard, final_bang):
    completion, gold, prompt = rollout
    form = prompt_form(prompt)
    reference = math_answers.prepare_reference(gold) if gold.strip() else None
    if reference is None:
        return
    prediction = math_answers.prepare_prediction(completion, final_bang)
    for avoidance in (form, None):
        expected = _outcome(verifier.compare_cheap, reference, completion, prediction, guard, True, avoidance)
        lazy = (lambda: form) if avoidance is not None else None
        for _ in range(2):  # the first call fills the memory, the second reads it
            assert _outcome(verifier._compare_remembered, reference, completion, prediction, guard, True, lazy) == expected
            assert _outcome(verifier._compare_remembered, reference, completion, prediction, guard, True, avoidance) == expected


def _outcome(function, *args):
    """The result of ``function(*args)``, or the type and text of what it raised (a batch turns that into the row's
    NaN and reason, so the shortcut must raise alike)."""
    try:
        return function(*args)
    except Exception as exc:  # noqa: BLE001
        return (type(exc), str(exc))


@FAST
@given(_rollouts())
def test_no_copy_candidate_in_the_prompt_means_no_prompt_reason(rollout):
    completion, gold, prompt = rollout
    reference, prediction = math_answers.prepare_reference(gold or "0"), math_answers.prepare_prediction(completion)
    if prediction is None or not prediction.text or reference.kind == "invalid":
        return
    form = prompt_form(prompt)
    if not any(needle in form for needle in copy_candidates(reference, prediction)):
        assert work_avoided(reference, prediction, form) == work_avoided(reference, prediction, "")


@FAST
@given(st.one_of(_rollouts().map(lambda r: r[0]), HOSTILE, st.text(max_size=200)), st.sampled_from(["punctuation", "factorial"]))
def test_memoised_answer_reading_equals_a_fresh_one(completion, final_bang):
    for view in reading.answer_views(completion):
        text = answer_extraction.unicode_roots(answer_extraction.strip_thinking(view)[-answer_extraction.MAX_TAIL_CHARS:])
        fresh = answer_extraction._extract_view.__wrapped__(text, final_bang)
        assert answer_extraction._extract_view(text, final_bang) == fresh
        assert answer_extraction._extract_view(text, final_bang) == fresh  # from the memory


@FAST
@given(st.lists(_rollouts(), min_size=1, max_size=12))
def test_a_batch_with_lazy_prompts_equals_prompts_squeezed_up_front(rollouts):
    forms: dict[str, str] = {}
    for completion, gold, prompt in rollouts:
        eager = _outcome(verifier._decide_cheaply, completion, gold, True, True, prompt_form(prompt))
        lazy = _outcome(verifier._decide_cheaply, completion, gold, True, True, verifier._lazy_prompt_form(prompt, forms))
        assert lazy == eager


def test_the_benchmark_rows_score_as_before():
    """The scoring-floor rows (think block, int / decimal / fraction answers, 1 in 5 wrong): the batch path with its
    memories against each row decided alone the long way (compare_cheap with the squeezed prompt)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from scoring_floor import write_rows

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rows.jsonl"
        write_rows(path, 600)
        rows = [json.loads(line) for line in path.read_text().splitlines()]
    completions, golds, prompts = ([r[k] for r in rows] for k in ("completion", "answer", "prompt"))
    batch = verifier.verify_batch(completions, golds, prompts=prompts, work_avoidance=True)
    for verdict, completion, gold, prompt in zip(batch, completions, golds, prompts):
        long_way = verifier.compare_cheap(math_answers.prepare_reference(gold), completion,
                                          math_answers.prepare_prediction.__wrapped__(completion), True, True, prompt_form(prompt))
        assert verdict == long_way
    assert {v.score for v in batch} == {0.0, 1.0}


# --- regex_prefilter: a pattern's search is skipped only where it cannot match ---------------------------------------

def _reader_patterns():
    import re

    from polyreward.verifiers import choice, clauses, commitment, denial, hedging, hypothetical, not_a_value, number_locale, unasserted
    from polyreward.verifiers import alternative_branches, follow_ups, hidden_text, number_keys, option_letters, units
    from polyreward.verifiers import speaker_declines

    seen = {}
    for module in (commitment, hedging, hypothetical, unasserted, clauses, answer_extraction, denial, choice, reading, not_a_value,
                   number_locale, number_keys, option_letters, alternative_branches, hidden_text, follow_ups, units,
                   speaker_declines):
        for name, value in vars(module).items():
            pattern = getattr(value, "compiled", value)
            if isinstance(pattern, re.Pattern) and isinstance(pattern.pattern, str):
                seen.setdefault(id(pattern), (f"{module.__name__.rsplit('.', 1)[-1]}.{name}", pattern))
    return sorted(seen.values(), key=lambda item: item[0])


READER_PATTERNS = _reader_patterns()


def _spans(found):
    return None if found is None else (found.span(), found.groups())


@lru_cache(maxsize=None)
def _prefiltered_once(pattern):
    """``prefiltered(pattern)``, derived once per session: the derivation is a function of the pattern alone (about
    1 ms a pattern, 0.3 s for all of them), and re-deriving each of the ~320 patterns twice in each of the property's
    60 examples was nine tenths of its time; the examples still draw and compare exactly as before."""
    from polyreward.verifiers.regex_prefilter import prefiltered

    return prefiltered(pattern)


def _words_of(pattern):
    from polyreward.verifiers.regex_prefilter import Prefiltered

    wrapped = _prefiltered_once(pattern)
    return list(wrapped.literals) if isinstance(wrapped, Prefiltered) else []


GLUE = [" ", "", ", ", ". ", "\n", " 42 ", " \\boxed{42} ", "'t ", "ſ", "\u212a", "İ", "ı", "ǅ", " I ", "$"]
# characters for the short random runs: ASCII, Latin-1, the letters whose case maps change length or script, Greek,
# Cyrillic, CJK, zero-width and bidi controls, and any code point below U+3000 (no surrogates)
ODD_CHARACTERS = "ſKİıǅßﬁΣσςЀ中文\u200b\u200e\u202e\u00a0\u2009"


def _random_character(rnd) -> str:
    """ASCII, one of the odd characters above, or any code point below U+3000 outside the surrogates."""
    kind = rnd.randrange(3)
    if kind == 0:
        return chr(rnd.randrange(32, 127))
    if kind == 1:
        return rnd.choice(ODD_CHARACTERS)
    code = rnd.randrange(0xA0, 0x3000)
    return chr(code) if not 0xD800 <= code < 0xE000 else "?"


def _reader_text(rnd, words: list[str]) -> str:
    """Up to 8 pieces: a prefilter word of the pattern as written, upper-cased or title-cased, a glue string, or a
    run of up to 6 random characters (the shape the per-pattern Hypothesis draws had, drawn from one ``Random``)."""
    pieces = []
    for _ in range(rnd.randint(0, 8)):
        kind = rnd.randrange(5)
        if kind < 3:
            word = rnd.choice(words)
            pieces.append((word, word.upper(), word.title())[kind])
        elif kind == 3:
            pieces.append(rnd.choice(GLUE))
        else:
            pieces.append("".join(_random_character(rnd) for _ in range(rnd.randint(0, 6))))
    return "".join(pieces)


# One seeded ``Random`` per example, drawn by Hypothesis (a failure replays from its seed), draws a text for every one of
# the ~320 reader patterns: per-pattern Hypothesis draws (or a Hypothesis-backed Random) cost 10-20 times as much, and
# made this the suite's slowest test (over 200 s in CI; 60 examples took about 30 s, nearly all of it deriving each
# pattern's prefilter again in every example, and take about 1.5 s with the derivation done once: _prefiltered_once).
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=True))
def test_every_reader_pattern_prefiltered_equals_the_plain_search(rnd):
    for name, pattern in READER_PATTERNS:
        text = _reader_text(rnd, _words_of(pattern) or ["x"])
        wrapped = _prefiltered_once(pattern)
        for method in ("search", "match", "fullmatch"):
            assert _spans(getattr(wrapped, method)(text)) == _spans(getattr(pattern, method)(text)), (name, method, text)
        assert [_spans(m) for m in wrapped.finditer(text)] == [_spans(m) for m in pattern.finditer(text)], (name, text)
        at = len(text) // 2
        assert _spans(wrapped.search(text, at)) == _spans(pattern.search(text, at)), (name, text, at)
        start, end = rnd.randint(-3, len(text) + 3), rnd.randint(-3, len(text) + 3)
        for method in ("search", "match", "fullmatch"):  # a positioned call is filtered on its slice: the same results
            assert _spans(getattr(wrapped, method)(text, start, end)) == _spans(getattr(pattern, method)(text, start, end)), (name, method, text, start, end)
            assert _spans(getattr(wrapped, method)(text, start)) == _spans(getattr(pattern, method)(text, start)), (name, method, text, start)
        assert [_spans(m) for m in wrapped.finditer(text, start, end)] == [_spans(m) for m in pattern.finditer(text, start, end)]


def test_a_positioned_call_does_not_read_the_rest_of_a_long_text(monkeypatch):
    """``match(text, at)`` once per clause of a long text must not scan the whole text each time (quadratic: a 100 KB
    report of short lines took minutes in the kg reward's retraction reading); the filter reads a bounded slice."""
    from polyreward.verifiers.regex_prefilter import Prefiltered, prefiltered

    wrapped = [w for w in (prefiltered(pattern) for _, pattern in READER_PATTERNS) if isinstance(w, Prefiltered)]
    read = []
    plain = Prefiltered.may_match
    monkeypatch.setattr(Prefiltered, "may_match", lambda self, piece: read.append(len(piece)) or plain(self, piece))
    text = "\n A" * 25_000
    for pattern in wrapped[:10]:
        for at in range(0, len(text), 997):
            pattern.match(text, at)
            pattern.search(text, at, at + 100)
    assert read and max(read) <= 512


def test_reader_patterns_on_the_red_team_completions():
    from polyreward.verifiers.regex_prefilter import prefiltered

    data = Path(__file__).resolve().parent / "data" / "red_team.jsonl"
    texts = [json.loads(line).get("completion") for line in data.read_text(encoding="utf-8").splitlines() if line.strip()]
    texts = [t for t in texts if isinstance(t, str)][:400]
    windows = [window for text in texts for window in (text[-160:], text[:160], text.lower()[-80:])]
    for name, pattern in READER_PATTERNS:
        wrapped = prefiltered(pattern)
        for window in windows:
            assert _spans(wrapped.search(window)) == _spans(pattern.search(window)), (name, window)


def test_the_slow_negation_search_is_prefiltered_and_the_words_come_from_the_pattern():
    from polyreward.verifiers import commitment
    from polyreward.verifiers.pattern_cache import sre_parser
    from polyreward.verifiers.regex_prefilter import Prefiltered, required_conjuncts

    assert isinstance(commitment._NEGATED_BEFORE, Prefiltered)
    assert {"not", "never", "instead", "rather"} <= set(commitment._NEGATED_BEFORE.literals)
    assert commitment._NEGATED_BEFORE.search("The answer is ") is None
    assert commitment._NEGATED_BEFORE.search("The answer is NOT") is not None
    assert commitment._NEGATED_BEFORE.search("The answer is definitely ruled out") is not None
    assert commitment._NEGATED_BEFORE.search("It is \u017fimply no longer") is not None  # non-ASCII: searched the plain way
    # an alternative with no fixed word: no prefilter can be derived
    parse = sre_parser.parse
    assert required_conjuncts(parse(r"not|[a-z]+")) is None
    assert set(required_conjuncts(parse(r"\bno\s+longer|never"))) == {frozenset({"no", "longer"}), frozenset({"never"})}
    assert set(required_conjuncts(parse(r"(?:a|b)x*c"))) == {frozenset({"a", "c"}), frozenset({"b", "c"})}


CLAUSE_WORDS = ["I", "I'm", "not", "sure", "guess", "maybe", "my", "friend", "says", "if", "memory", "serves", "unless", "I",
                "messed", "up", "gut", "feeling", "reportedly", "checked", "it", "is", "42", "or", "not", "could", "be", "wrong",
                "one", "might", "think", "(just a guess)", "Or not.", "assuming", "didn't", "botch", "the", "arithmetic", ","]


@FAST
@given(st.one_of(st.lists(st.sampled_from(CLAUSE_WORDS), max_size=14).map(" ".join), HOSTILE, st.text(max_size=120)))
@example("I'm not sure")
@example("unless I messed up somewhere")
@example("My friend says it's")
def test_remembered_clause_readings_equal_fresh_ones(clause):
    from polyreward.verifiers import hedging

    for name in ("_attributed_before", "_writer_condition", "_stands_against", "doubts", "_idiom_doubts", "_writer_doubts"):
        function = getattr(hedging, name)
        fresh = function.__wrapped__(clause)
        assert function(clause) == fresh and function(clause) == fresh, name
    assert hedging._writer_doubts(clause, False) == hedging._writer_doubts.__wrapped__(clause, False)


# --- regex_prefilter's sets of required words (every match holds all the words of one set) ---------------------------

_PIECES = ["not", "no", "more", "or", "less", "for", "now", "gut", "I", "n't", "so", "50", "-", ":", "ſ", "K", "é"]


def _patterns():
    word = st.sampled_from(_PIECES).map(__import__("re").escape)
    # an unbounded repeat only of a word: a "+" around a group that can match empty or repeats itself ("(?:(?:.|no)?)+)+")
    # backtracks exponentially in the plain search this test compares with, and one such draw in three runs hung it
    atom = st.one_of(word, word.map(lambda p: "(?:" + p + ")+"),
                     st.sampled_from([r"\s+", r"\s*", r"\w*", r"\w+", r"\b", r"[a-z]", r"[ox]", r".", r"\d+"]))

    def grow(inner):
        return st.one_of(st.lists(inner, min_size=1, max_size=4).map("".join),
                         st.lists(inner, min_size=2, max_size=4).map(lambda parts: "(?:" + "|".join(parts) + ")"),
                         inner.map(lambda p: "(?:" + p + ")?"),
                         inner.map(lambda p: "(?:" + p + "){0,2}"), inner.map(lambda p: "(?=" + p + ")"),
                         inner.map(lambda p: "(?i:" + p + ")"))

    return st.recursive(atom, grow, max_leaves=10)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_patterns(), st.booleans(), st.lists(st.one_of(st.sampled_from(_PIECES), st.sampled_from(_PIECES).map(str.upper),
                                                     st.sampled_from([" ", "  ", ", ", "\n", "İ", "ı", "x"])), max_size=10).map("".join))
def test_required_word_sets_hold_for_every_match(pattern, ignore_case, text):
    """On generated patterns (alternations of sequences, optional and repeated groups, look-aheads, scoped flags):
    the prefiltered search, match and iteration equal the plain ones, and each match holds one whole set."""
    import re

    from polyreward.verifiers.pattern_cache import sre_parser
    from polyreward.verifiers.regex_prefilter import Prefiltered, prefiltered, required_conjuncts

    compiled = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    wrapped = prefiltered(compiled)
    for method in ("search", "match", "fullmatch"):
        assert _spans(getattr(wrapped, method)(text)) == _spans(getattr(compiled, method)(text)), (pattern, method, text)
    assert [_spans(m) for m in wrapped.finditer(text)] == [_spans(m) for m in compiled.finditer(text)], (pattern, text)
    sets = required_conjuncts(sre_parser.parse(pattern, compiled.flags))
    if sets is not None and not ignore_case:
        for found in compiled.finditer(text):
            assert any(all(word in text for word in words) for words in sets), (pattern, text, sets)
    if isinstance(wrapped, Prefiltered) and wrapped.may_match(text) is False:
        assert compiled.search(text) is None


def test_the_doubt_idioms_need_whole_sets_of_words():
    """The long word lists are filtered by sets ("more or less" needs "more", "or" and "less"), so a clause that only
    holds "more" or "for" is not searched; the idioms themselves still are."""
    from polyreward.verifiers import hedging
    from polyreward.verifiers.regex_prefilter import Prefiltered

    for pattern in (hedging.IDIOM_DOUBT, hedging._DOUBT):
        assert isinstance(pattern, Prefiltered)
    assert frozenset({"more", "or", "less"}) in hedging.IDIOM_DOUBT.conjuncts
    assert not hedging.IDIOM_DOUBT.may_match("a friend gives 740 more, so 274 + 740 = 1014. For the total")
    for idiom in ("42, more or less", "for now, 42", "call it a hunch: 42", "42 (FOR WHAT IT'S WORTH)", "不确定 42", "ſhot in the dark"):
        assert hedging.IDIOM_DOUBT.search(idiom) is not None, idiom
        assert _spans(hedging.IDIOM_DOUBT.search(idiom)) == _spans(hedging.IDIOM_DOUBT.compiled.search(idiom))


def _prefiltered_globals():
    from polyreward.verifiers import clauses, commitment, hedging, hypothetical, not_a_value, number_locale, unasserted
    from polyreward.verifiers import alternative_branches, follow_ups, option_letters, units
    from polyreward.verifiers import speaker_declines
    from polyreward.verifiers.regex_prefilter import Prefiltered

    return [(module, name, value) for module in (commitment, hedging, hypothetical, unasserted, clauses, answer_extraction, not_a_value,
                                                 number_locale, option_letters, alternative_branches, follow_ups, units,
                                                 speaker_declines, reading)
            for name, value in vars(module).items() if isinstance(value, Prefiltered)]


def test_fresh_rows_and_red_team_completions_score_alike_with_and_without_prefilters(default_path_verdicts):
    """Whole batches, every memory cleared between the two ways: the fresh-row benchmark's rows (no answer sentence
    repeats) and the red-team completions, scored with every prefiltered pattern (the default path, scored once per
    session: tests/conftest.py) and with the plain patterns."""
    batch, with_prefilters = default_path_verdicts
    wrapped = _prefiltered_globals()
    assert len(wrapped) >= 40
    try:
        for module, name, value in wrapped:
            setattr(module, name, value.compiled)
        plain = fresh_verdicts(*(list(column) for column in batch))
    finally:
        for module, name, value in wrapped:
            setattr(module, name, value)
    assert list(with_prefilters) == plain
    completions = fresh_and_red_team_batch(seed=7)[0]  # the windows below: seed 7's rows, then the first red-team rows
    windows = [c[max(0, i - 160):i] for c in completions[:400] for i in range(len(c), 0, -97)]
    for module, name, value in wrapped:
        for window in windows:
            assert _spans(value.search(window)) == _spans(value.compiled.search(window)), (name, window)
