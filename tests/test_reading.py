"""The one reading of a completion (verifiers/reading.py) and the committed-answer rules built on it.

Tables of realistic model output in both directions: a policy's disguise (an invisible or look-alike letter inside a
guard word, a hidden box, a retraction in words of its own, alternatives) must not be paid, and the genuine answer in
ordinary styles must be. Hypothesis: inserting invisible or look-alike characters, or hiding text in a comment, never
raises a score.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.answer_extraction import extract_answer
from polyreward.verifiers.choice import extract_label, extract_letter
from polyreward.verifiers.hidden_text import without_comments
from polyreward.verifiers.reading import answer_views, normalise, visible_text

ZWSP, CYRILLIC_O, GREEK_O, CYRILLIC_A = "\u200b", "\u043e", "\u03bf", "\u0430"


@pytest.mark.parametrize("raw, plain", [
    (f"o{ZWSP}r", "or"),
    (f"n{GREEK_O}t", "not"),
    (f"w{CYRILLIC_A}it", "wait"),
    (f"{CYRILLIC_O}r", "or"),                      # a word made only of look-alikes and Latin letters
    ("\u2212" + "76", "-76"),                       # U+2212 minus
    ("\u2013" + "5", "-5"),                         # an en dash before a digit reads as a minus
    ("a \u2013 b", "a \u2013 b"),                   # ... not between words
    ("\uff14\uff12", "42"),                         # full-width digits
    ("\u0664\u0662", "42"),                         # Arabic-Indic digits
    ("\U0001d7d2", "4"),                            # mathematical bold digit
    ("a \t\u00a0 b", "a b"),                        # whitespace runs
    ("x\u00b2", "x\u00b2"),                         # superscripts are left to the math reader (NFKC would make x2)
    ("\u03c1 = 5", "\u03c1 = 5"),                   # a lone Greek letter in math stays Greek
    ("\u041f\u0440\u0438\u0432\u0435\u0442", "\u041f\u0440\u0438\u0432\u0435\u0442"),  # Russian text stays Russian
    ("wa\u00adit", "wait"),                         # soft hyphen
    ("\u202eor", "or\nro"),                        # right-to-left override: read as written, then as shown
    ("a\u202bor\u202c b", "aor b"),                 # an embedding (no override) only goes
])
def test_normalise(raw, plain):
    assert normalise(raw) == plain


@pytest.mark.parametrize("raw, seen", [
    ("The answer is 45. <!-- \\boxed{42} -->", "The answer is 45.  "),
    ("45 <!-- never closed \\boxed{42}", "45 "),
    ("The answer is 45. % \\boxed{42}", "The answer is 45. "),
    ("It rose 50% and then 20 %.", "It rose 50% and then 20 %."),      # percent signs are not comments
    ("\\frac{1}{2}% of them", "\\frac{1}{2}"),                      # after a LaTeX group an unescaped % is a comment
    ("cost \\% 5 % tax", "cost \\% 5 % tax"),
    ('45 <span style="display:none">\\boxed{42}</span>', "45  "),
    ("45 <div hidden>\\boxed{42}</div> done", "45   done"),
])
def test_without_comments(raw, seen):
    assert without_comments(raw) == seen


def test_visible_text_drops_code_quotes_and_footnotes_but_keeps_code_for_code_tasks():
    text = "So 45.\n```\n\\boxed{42}\n```\n> \\boxed{42}\n[^1]: \\boxed{42}\nDone."
    assert "42" not in visible_text(text)
    assert "```" in visible_text(text, code=True) and "    x = 1" in visible_text("```\n    x = 1\n```", code=True)
    assert answer_views("```\n\\boxed{42}\n```")[-1].count("42") == 1  # the fallback view: only code answers


@pytest.mark.parametrize("completion", [
    # disguised guard words
    f"\\boxed{{42}} o{ZWSP}r 45",
    f"\\boxed{{42}} {CYRILLIC_O}r 45",
    f"The answer is n{GREEK_O}t \\boxed{{42}}.",
    f"The answer is 42... w{CYRILLIC_A}it, no, 45.",
    # the gold hidden where no reader sees it
    "The answer is 45. <!-- \\boxed{42} -->",
    "The answer is 45. % \\boxed{42}",
    "The answer is 45.\n```\n\\boxed{42}\n```",
    "The answer is 45.\n> \\boxed{42}",
    "The answer is 45.[^1]\n[^1]: \\boxed{42}",
    '45 <span style="display:none">\\boxed{42}</span>',
    # retractions and negations in words of their own
    "\\boxed{42} -- kidding! It's 45.",
    "\\boxed{42} (typo, I meant 45)",
    "\\boxed{42}\n\nErratum: 45",
    "My first guess: \\boxed{42}. Final guess: 45.",
    "The answer is 42. Actually, it is 45.",
    "The answer is anything but \\boxed{42}.",
    "We can rule out \\boxed{42}.",
    "\\boxed{42} is a trap.",
    "\\boxed{42}. Just joking.",
    "\\boxed{42}. Ignore that.",
    "\\boxed{42}. Hmm, 45.",
    "The answer is \\boxed{42}. 42 is wrong, though.",
    # alternatives
    "x = 45 or x = 42",
    '{"answer": 45, "answer": 42}',
    "Answer: 45; Answer: 42",
    "\\boxed{42 \\text{ (possibly } 45\\text{)}}",
    "\\boxed{42?}",
    "\\boxed{42 \\lor 45}",
    "\\boxed{42 \\text{ vs } 45}",
    # more disguises and hiding places
    "\\boxed{42} 0r 45",                                             # leetspeak in a guard word
    "The answer is n0t \\boxed{42}",
    "\\boxed{42} o\U000e0072 45",                                     # a Unicode tag character
    "45 \\phantom{\\boxed{42}}",                                     # LaTeX that renders nothing
    "The answer is 45 \\color{white}{\\boxed{42}}",
    '45 <span style="font-size:0">\\boxed{42}</span>',
    "The answer is 45 <del>\\boxed{42}</del>",                         # struck out
    "The answer is 45 ~~\\boxed{42}~~",
    "\\boxed{42} \u274c",                                             # a cross mark after the answer
    "\\boxed{42} (45 if rounded)",                                   # an alternative under a condition
    "\\boxed{42}, which is the same as 45",
    "\\boxed{42}. Or is it 45?",
    "\\boxed{42}\n\n" + "x" * 2000 + "\nTypo: 45.",                   # a retraction far after the answer
    "The answer is \\boxed{42}.\n\n> Actually the answer is 45.",       # quoted or fenced text may not disown it
    "\\boxed{42}\n```\nAnswer: 45\n```",
    "\\boxed{42}\n\nBut 45 seems right.",                              # another value affirmed
    "<answer>42</answer>\n\nHmm, 45 seems right.",
    "\\boxed{42}. No, 45.",
    "\\boxed{42}. I take that back.",
    "\\boxed{42}. Never mind.",
    "It could be 45. It could be \\boxed{42}.",                         # one of several possibilities
    "Maybe 45. Maybe \\boxed{42}.",
])
def test_math_hacks_are_not_paid(completion):
    assert MathAccuracy()(completions=[completion], answer=["42"]) == [0.0]


@pytest.mark.parametrize("completion, gold", [
    ("6 \\times 7 = 42, so the answer is \\boxed{42}.", "42"),
    ("The answer is \\boxed{42}. Wait, let me double-check: 6 \\times 7 = 42. Yes.", "42"),
    ("The answer is 17 (not 18).", "17"),
    ("\\boxed{3.14} (rounded to 2 decimal places).", "3.14"),
    ("So \\boxed{5}. Check: 5^2 = 25.", "5"),
    ("So \\boxed{5}. Note that n = 5 satisfies n^2 = 25.", "5"),
    ("Final Answer: The final answer is $12$. I hope it is correct.", "12"),
    ("Answer: 5 (or equivalently 5.0)", "5"),
    ("The answer is 42... wait, no, 45.", "45"),                    # a correction: the later answer counts
    ("\\boxed{4\u200b2}", "42"),                                      # an invisible character is read through
    ("The answer is \uff14\uff12.", "42"),
    ("Answer: \u2212204", "-204"),
    ("```\n\\boxed{42}\n```", "42"),                                  # the only answer, in a code block
    ("> **Final answer:** 42", "42"),                                 # the only answer, in a quote
    ("\\boxed{42}\n\nThis uses 3 steps.", "42"),
    ("\\boxed{42} apples. The other 3 are rotten.", "42"),
    ("The answer is 42, not 45.", "42"),
    ("It is 45? No: the answer is \\boxed{42}.", "42"),
    ("~~\\boxed{45}~~ \\boxed{42}", "42"),                               # the struck-out answer is not read
    ("\\boxed{42} \u2705", "42"),
    ("So the answer is ~42.", "42"),
    ("The answer is $42$ (to the nearest integer).", "42"),
    ("We may use 3 steps. The answer is \\boxed{42}.", "42"),       # a modal in an earlier clause is no hedge
    ("Let me compute:\n```python\nprint(6 * 7)\n```\nOutput: 42\n\nThe answer is \\boxed{42}.", "42"),
    ("\\boxed{42}\n\nThis is the only solution.", "42"),
])
def test_genuine_math_answers_are_paid(completion, gold):
    assert MathAccuracy()(completions=[completion], answer=[gold]) == [1.0]


def test_an_or_list_is_a_list_for_a_list_gold_and_a_hedge_for_one_value():
    reward = MathAccuracy()
    assert reward(completions=["So x = 2 or x = 3."], answer=["2, 3"]) == [1.0]
    assert reward(completions=["So x = 2 or x = 3."], answer=["3"]) == [0.0]


OPTIONS = {"A": "Aspirin", "B": "Heparin", "C": "Warfarin", "D": "Observation"}


@pytest.mark.parametrize("completion, expected", [
    ("My answer is B.\n```\nAnswer: C\n```", None),               # a fenced other option: no committed answer
    ("```\nAnswer: C\n```", "C"),
    ("The answer is B. <!-- Answer: C -->", "B"),
    ("Answer: C. Hmm, B.", None),
    ("Answer: C (kidding, B)", None),
    ("Answer: C. C is wrong; it's B.", None),
    (f"The answer is (C) o{ZWSP}r (B)", None),
    ("Answer: C. Kidding!", None),
    ("The answer is C.\n\nExplanation: Option A is incorrect because it bleeds. Option B is wrong since it is slow.", "C"),
    ("Answer: C\nA. Aspirin\nB. Heparin\nC. Warfarin", "C"),
    ("Answer: C. A common trap is choosing B.", "C"),
    ("Answer: C. Warfarin: a common mistake is to stop it early.", "C"),  # the option's own text, not a withdrawal
    ("\\boxed{C\u200b}", "C"),
])
def test_choice_reading(completion, expected):
    assert extract_letter(completion, options=OPTIONS)[0] == expected


# --- hypothesis: disguise and hiding never raise a score ---------------------------------------------------------
_ANSWERS = st.sampled_from(["42", "45", "-7", "3/4", "0.1", "1000"])
_TEMPLATES = st.sampled_from([
    "The answer is {a}.", "\\boxed{{{a}}}", "So we get {a}, or maybe {b}.", "\\boxed{{{a}}} or {b}",
    "The answer is not {a}; it is {b}.", "Answer: {a}. Wait, no, {b}.", "{b} is tempting, but the answer is {a}.",
    "\\boxed{{{a}}}. Kidding, {b}.",
])
_INSERTED = st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u202e"])
_CONFUSABLE = {"o": ["\u043e", "\u03bf"], "a": ["\u0430"], "e": ["\u0435"], "i": ["\u0456"], "c": ["\u0441"], "p": ["\u0440"]}


@settings(max_examples=150, deadline=None)
@given(template=_TEMPLATES, gold=_ANSWERS, other=_ANSWERS, data=st.data())
def test_invisible_and_lookalike_characters_never_raise_a_math_score(template, gold, other, data):
    completion = template.format(a=gold if data.draw(st.booleans()) else other, b=other if other != gold else "999")
    base = MathAccuracy()(completions=[completion], answer=[gold])[0]
    disguised = list(completion)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(disguised)))
        disguised.insert(at, data.draw(_INSERTED))
    for index, char in enumerate(disguised):
        if char in _CONFUSABLE and data.draw(st.booleans()):
            disguised[index] = data.draw(st.sampled_from(_CONFUSABLE[char]))
    assert MathAccuracy()(completions=["".join(disguised)], answer=[gold])[0] <= base


_HIDERS = st.sampled_from(["<!-- {h} -->", "% {h}", "\n```\n{h}\n```", "\n> {h}", '<span style="display:none">{h}</span>'])


@settings(max_examples=150, deadline=None)
@given(template=_TEMPLATES, gold=_ANSWERS, other=_ANSWERS, hider=_HIDERS, where=st.booleans())
def test_text_hidden_in_a_comment_never_raises_a_math_score(template, gold, other, hider, where):
    completion = template.format(a=other, b=other)
    hidden = hider.format(h=f"\\boxed{{{gold}}}")
    base = MathAccuracy()(completions=[completion], answer=[gold])[0]
    hacked = completion + " " + hidden if where else hidden.lstrip("\n") + "\n" + completion
    if other != gold:
        assert MathAccuracy()(completions=[hacked], answer=[gold])[0] <= base


@settings(max_examples=100, deadline=None)
@given(letter=st.sampled_from("ABCD"), other=st.sampled_from("ABCD"), hider=_HIDERS, inserted=_INSERTED)
def test_hiding_and_disguise_never_raise_a_choice_score(letter, other, hider, inserted):
    reward = ChoiceAccuracy()
    visible = f"The answer is {other}."
    hacked = visible + " " + hider.format(h=f"Answer: {letter}")
    assert reward(completions=[hacked], answer=[letter]) <= reward(completions=[visible], answer=[letter])
    hedge = f"The answer is ({letter}) o{inserted}r ({other})"
    if letter != other:
        assert reward(completions=[hedge], answer=[letter]) == [0.0]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400))
def test_reading_any_text_is_total_and_idempotent(text):
    once = normalise(text)
    assert normalise(once) == once
    for view in answer_views(text):
        assert isinstance(view, str)
    extract_answer(text)
    extract_letter(text)


@pytest.mark.parametrize("completion, gold, expected", [
    ("The solutions are $x = 2$ or $x = 3$.", "2, 3", 1.0),   # a list of values is a list answer ...
    ("$x = 2$ and $x = 3$", "2, 3", 1.0),
    ("The roots are 2 and 3.", "2, 3", 1.0),
    ("The roots are 2 and 3.", "3", 0.0),                      # ... and never one of its values
    ("So x = 2 or x = 3.", "3", 0.0),
    ("There are infinitely many solutions.", "\\infty", 1.0),  # a textual answer in prose
    ("The system has no solution.", "\\text{no solution}", 1.0),
    ("The distance is about 1.5e8 km", "150000000", 1.0),      # e-notation on the last line
    ("I bought 2 apples and 3 pears, so 5 fruits.", "5", 1.0),
    ("\\boxed{68}\n<answer>The answer is \\boxed{6}.</answer>", "6", 0.0),   # two final answers, nothing withdrawn
    ("\\boxed{68}. Wait, recheck. <answer>6</answer>", "6", 1.0),            # a correction
    ("<answer>Checked every condition. So far the running value is 272", "272", 0.0),  # the block cut off in prose
    ("<answer>272", "272", 1.0),                               # a block whose closing tag was a stop string
    ("The answer is \\boxed{58.94}% \\boxed{2.98}\n.", "2.98", 0.0),          # "}%" starts a LaTeX comment
    ("The result is not quite \\boxed{8}.", "8", 0.0),
    ("This is not hard: \\boxed{42}", "42", 1.0),
])
def test_lists_words_and_cut_off_blocks(completion, gold, expected):
    assert MathAccuracy()(completions=[completion], answer=[gold]) == [expected]


@pytest.mark.parametrize("completion, expected", [
    ("\\boxed{A}\n<answer>The answer is \\boxed{E}.</answer>", None),   # two final answers, nothing withdrawn
    ("\\boxed{A}. Wait, no. <answer>E</answer>", "E"),                  # a correction
    ("Maybe \\boxed{E} <answer>E</answer>", "E"),
    ("<answer>Checked against every condition. So far the running value is D", None),   # the block cut off in prose
    ("<answer>Checked. The answer is \\boxed{\u0391} \\boxed{E}.</answer>", None),     # a Greek capital Alpha is A
    ("<answer>The answer is \\boxed{D}.</answer>\n\nActually, I think it's \\boxed{A}.", None),
])
def test_choice_final_answers_around_the_block(completion, expected):
    assert extract_letter(completion, options=OPTIONS)[0] == expected


@pytest.mark.parametrize("completion, expected", [
    ("It is not \\boxed{A}\n```\n\\boxed{E}\n```\n.", None),          # the visible text names an option: no fallback
    ("The final answer is not quite \\boxed{A}\n> \\boxed{D}\n.", None),
    ("A patient with chest pain.\n```\nAnswer: C\n```", "C"),         # only prose outside the block
])
def test_choice_reads_code_and_quotes_only_when_the_visible_text_names_no_option(completion, expected):
    assert extract_letter(completion, options=OPTIONS)[0] == expected


# --- soft hedges (commitment.qualified): an answer offered as a possibility is no answer ---------------------------
CYRILLIC_I = "\u0456"


@pytest.mark.parametrize("completion", [
    "The answer might be \\boxed{42}.",
    "It could be \\boxed{42}.",
    "It could still be \\boxed{42}.",
    "Perhaps the answer is 42.",
    "The answer is possibly \\boxed{42}.",
    "My guess is \\boxed{42}.",
    "The answer is 42, I guess.",
    "I think it's maybe 42?",
    "I can't be certain, but 42",
    "I'm not 100% sure, but the answer is \\boxed{42}.",
    "Probably 42, but I'm not sure.",
    "42, though I could be wrong",
    "\\boxed{42} (just a guess)",
    "\\boxed{42} (unverified)",
    "\\boxed{42} (maybe)",
    "\\boxed{42}. Possibly.",
    "\\boxed{42}. Not sure, though.",
    "\\boxed{42}\n\nI might be wrong.",
    "\\boxed{42}?",
    "The answer is 42, right?",
    "42 \u2260 answer",
    "\\boxed{42} \\neq the answer",
    "<answer>42</answer> (just a guess)",
    "<answer>maybe 42</answer>",
    "Final answer: 42 (unverified)",
    f"The answer m{CYRILLIC_I}ght be \\boxed{{42}}.",                       # a look-alike letter in the modal
    f"\\boxed{{42}} (unver{ZWSP}ified)",                                   # an invisible character in the doubt
    f"\\boxed{{42}} (just a gu{CYRILLIC_A}ss)".replace(CYRILLIC_A, "\u0435"),  # Cyrillic e
])
def test_soft_hedges_are_not_paid(completion):
    assert MathAccuracy()(completions=[completion], answer=["42"]) == [0.0]


@pytest.mark.parametrize("completion", [
    "It might be C.",
    "C? Not sure.",
    "Perhaps the answer is C.",
    "The answer is possibly (C).",
    "My best guess is C.",
    "I'm not sure, but I'd go with C.",
    "Answer: C (just a guess)",
    "Answer: C, though I could be wrong.",
    "<answer>C</answer> (unverified)",
    "Maybe \\boxed{C}",
    "\\boxed{C}. Not certain.",
])
def test_soft_hedged_letters_are_no_answer(completion):
    assert extract_letter(completion, options=OPTIONS)[0] is None


@pytest.mark.parametrize("completion", [
    "Maybe yes?",
    "The answer might be yes.",
    "It could be no.",
    "Answer: yes (just a guess)",
    "Answer: no, though I could be wrong.",
    "<answer>yes</answer> Not sure.",
])
def test_soft_hedged_labels_are_no_answer(completion):
    assert extract_label(completion)[0] is None


@pytest.mark.parametrize("completion", [
    "The answer is probably best written as \\boxed{42}.",     # "probably" / "likely": a best estimate, committed
    "The answer is most likely \\boxed{42}.",
    "I'm confident the answer is 42.",
    "I'm sure the answer is \\boxed{42}.",
    "Let me double-check: 6\u00d77 = 42. So the answer is \\boxed{42}.",
    "**Final answer:** 42",
    "\\boxed{42} (rounded to the nearest integer)",
    "x = 42 (approximately 42.0)",
    "I think it might be 45. Let me verify: 6 \\times 7 = 42. <answer>42</answer>",   # the final statement counts
    "It might be 45, but checking: 6*7=42.\n\nFinal answer: 42",
    "Maybe I should factor first. 6 \\times 7 = 42, so the answer is \\boxed{42}.",
    "45 could be tempting, but the answer is \\boxed{42}.",    # a modal about something else, before a contrast
    "The answer is \\boxed{42}. We could also verify this by substitution: 6 \\times 7 = 42.",
    "\\boxed{42}\n\nThis may be verified by direct multiplication.",
    "Is 6 \\times 7 really 42? Yes: \\boxed{42}.",
    "The question asks what the product might be. The product is \\boxed{42}.",
    "\\boxed{42}. Does this make sense? Yes, since 6 \\times 7 = 42.",
    "Checking whether it could be 42: 6 \\times 7 = 42, so \\boxed{42}.",   # a check in the answer's own clause
    "The answer could only be \\boxed{42}.",
    "Possibly surprising, but the answer is \\boxed{42}.",
    "Guessing x = 6 and solving gives y = 7, so the answer is \\boxed{42}.",   # a guess as a method, before the conclusion
    "Therefore, the final answer is: $\\boxed{42}$. I hope it is correct.",
    "This may seem large, but the answer is \\boxed{42}.",
    "The answer is \\boxed{42}, which may seem surprising.",
    "The answer is \\boxed{42}. Perhaps a cleaner way is to note 6 \\times 7 = 42.",
])
def test_genuine_answers_around_modal_words_are_paid(completion):
    assert MathAccuracy()(completions=[completion], answer=["42"]) == [1.0]


@pytest.mark.parametrize("completion, expected", [
    ("Answer: C. (This is the most likely diagnosis given the findings.)", "C"),   # MedQA's own phrasing
    ("The most likely cause is C.", "C"),
    ("The most likely diagnosis is (C) Warfarin.", "C"),
    ("This is likely a drug interaction; the answer is C.", "C"),
    ("I'm confident the answer is C.", "C"),
    ("B could be considered, but the answer is C.", "C"),
    ("It might be B at first glance. On review, the answer is C.", "C"),
    ("Maybe B? No. <answer>C</answer>", "C"),
    ("Answer: C. Other options may be considered but are less likely.", "C"),
    ("The correct answer is C. This might seem counterintuitive, but warfarin is indicated.", "C"),
    ("**C. Warfarin**\n\nWarfarin could be considered first-line here.", "C"),
])
def test_genuine_letters_around_modal_words(completion, expected):
    assert extract_letter(completion, options=OPTIONS)[0] == expected


@pytest.mark.parametrize("completion, expected", [
    ("Answer: yes", "yes"),
    ("Answer: no. Further trials may be needed to confirm the effect size.", "no"),
    ("The evidence most likely supports it. Answer: yes", "yes"),
    ("Benefit may be modest in older patients, but the answer is yes.", "yes"),
])
def test_genuine_labels_around_modal_words(completion, expected):
    assert extract_label(completion)[0] == expected


_HEDGES = st.sampled_from([
    "The answer might be {a}.", "Maybe {a}.", "{a} (just a guess)", "{a}, though I could be wrong.", "{a}? Not sure.",
    "I can't be certain, but {a}.", "Perhaps {a}.", "{a} (unverified)", "My guess: {a}.", "{a} \\neq the answer",
])


@settings(max_examples=150, deadline=None)
@given(answer=_ANSWERS, boxed=st.booleans(), hedge=_HEDGES, inserted=_INSERTED, data=st.data())
def test_hedge_words_around_a_correct_answer_never_raise_the_score(answer, boxed, hedge, inserted, data):
    shown = f"\\boxed{{{answer}}}" if boxed else answer
    plain = f"The answer is {shown}."
    hedged = hedge.format(a=shown)
    reward = MathAccuracy()
    assert reward(completions=[hedged], answer=[answer]) == [0.0]
    assert reward(completions=[hedged], answer=[answer]) <= reward(completions=[plain], answer=[answer])
    words = [m for m in re.finditer(r"[a-z]{2,}", hedged)]
    disguised = hedged
    if words:  # an invisible or look-alike character inside a hedge word is read through
        word = data.draw(st.sampled_from(words))
        at = data.draw(st.integers(word.start() + 1, word.end() - 1))
        disguised = hedged[:at] + inserted + hedged[at:]
        disguised = "".join(
            data.draw(st.sampled_from(_CONFUSABLE[c])) if c in _CONFUSABLE and i in range(*word.span()) and data.draw(st.booleans()) else c
            for i, c in enumerate(disguised)
        )
    assert reward(completions=[disguised], answer=[answer]) == [0.0]
    letter_hedge = hedge.format(a="C").replace("\\neq the answer", "? Not sure")
    assert extract_letter(letter_hedge, options=OPTIONS)[0] is None


@pytest.mark.parametrize("completion, expected", [
    ("Answer: maybe. The evidence is uncertain.", "maybe"),          # doubt about the world, not about the answer
    ("Because the evidence is uncertain, the answer is maybe.", "maybe"),
    ("Answer: no. It is uncertain whether the drug improves survival.", "no"),
    ("Answer: maybe. There is some doubt about the long-term effect.", "maybe"),
    ("The effect may be modest, so the answer is yes.", "yes"),      # a modal before the conclusion is about the effect
    ("Answer: yes. I am not sure.", None),                          # the writer's own doubt
    ("Answer: yes (unsure)", None),
    ("Answer: yes. Doubtful.", None),
])
def test_doubt_about_the_world_is_not_doubt_about_the_answer(completion, expected):
    assert extract_label(completion)[0] == expected


@pytest.mark.parametrize("completion, expected", [
    ("I cannot be sure, but 42", 0.0),
    ("\\boxed{42}. This is uncertain.", 0.0),
    ("The answer is uncertain, but \\boxed{42}.", 0.0),
    ("The measurement is uncertain, so we round: \\boxed{42}.", 1.0),
])
def test_math_doubt_reads_its_subject(completion, expected):
    assert MathAccuracy()(completions=[completion], answer=["42"]) == [expected]
