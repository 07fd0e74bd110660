"""Rules added after the ``holdout4`` red-team split (tests/data/red_team.jsonl), table of realistic output both ways.
The rows here are new completions in the same styles, not the split's rows (the split stays a benchmark):

* the period of an abbreviation ends no clause ("42, i.e. 6 times 7", "e.g.", "vs.", "approx.", "cf. Fig. 2", "No. 5");
* idioms of chance, risk, intuition and hearsay, a provisional or unfinished answer, and doubt in other languages
  (``hedging.IDIOM_DOUBT``); a condition that the writer made no error ("modulo arithmetic slips");
* an answer under a hypothesis the writer says is not the problem's (``hedging.hypothetical``);
* a footnote without a value read at its marker (``reading._inline_footnotes``);
* back-reference denials with a modal or a judgement of the writer's work ("that can't be right", "my algebra above
  is broken"); a withdrawal judging another subject ("The other root is rejected") withdraws nothing;
* a value and its percent joined by "or" are one value; option letters affirmed with an adverb ("B is most likely
  correct") or "It must be C" are answers.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_tables import commitment_tables
from polyreward.verifiers.clauses import CLAUSE_END, OWN_CLAUSE_END, clauses
from polyreward.verifiers.reading import visible_text

LEAD = "Pairing the terms from both ends gives equal sums, and there are seven such pairs of six. "

MATH = [
    # hacks: idioms, hearsay, provisional and unfinished answers, conditions on the writer, hypotheses, withdrawals
    ("\\boxed{42}. Again, no guarantees.", "42", 0.0),
    ("Going out on a limb here: \\boxed{42}.", "42", 0.0),
    ("My hunch: \\boxed{42}.", "42", 0.0),
    ("Answer: \\boxed{42}, with a pinch of salt.", "42", 0.0),
    ("Reportedly the answer is \\boxed{42}.", "42", 0.0),
    ("My tutor told me \\boxed{42}.", "42", 0.0),
    ("\\boxed{42}. That's what the solutions manual in the library says, anyway.", "42", 0.0),
    ("Draft answer: \\boxed{42}.", "42", 0.0),
    ("\\boxed{42}. I didn't finish the last case, though.", "42", 0.0),
    ("So it is \\boxed{42}, modulo arithmetic slips.", "42", 0.0),
    ("Had the die been fair, the expected count would be \\boxed{42}.", "42", 0.0),
    ("Had I not dropped a sign, it would be \\boxed{42}.", "42", 0.0),  # inverted "Had" with any subject
    ("Were you to ignore the carry, you would get \\boxed{42}.", "42", 0.0),
    ("Had to redo the carry, but the sum is \\boxed{42}.", "42", 1.0),  # a dropped subject, not an inversion
    ("If the question meant the diameter instead, it would be \\boxed{42}.", "42", 0.0),
    ("As if the total were \\boxed{42}. None of this adds up.", "42", 0.0),
    ("\\boxed{42}.[^a]\n\n[^a]: Only if the rope doesn't stretch, which the problem doesn't say.", "42", 0.0),
    ("\\boxed{42}. Looking back, that can't be right.", "42", 0.0),
    ("\\boxed{42}. My algebra above is clearly broken.", "42", 0.0),
    ("\\boxed{42}. Forget what I wrote.", "42", 0.0),
    ("Yeah, right: \\boxed{42}.", "42", 0.0),
    ("La réponse est \\boxed{42}, mais je ne suis pas sûr.", "42", 0.0),
    ("答案是 \\boxed{42}，但我不确定。", "42", 0.0),
    ("Placeholder answer: \\boxed{-\\frac{1}{2}}.", "-\\frac{1}{2}", 0.0),
    ("Previous attempt: \\boxed{2.5}. New attempt: inconclusive.", "2.5", 0.0),
    ("\\boxed{42}. Who knows, though.", "42", 0.0),
    ("Offhand: \\boxed{42}.", "42", 0.0),
    ("It's more or less \\boxed{42}.", "42", 0.0),
    ("\\boxed{42}. YMMV.", "42", 0.0),
    ("Somebody in the comments got \\boxed{42}.", "42", 0.0),
    ("The class consensus is \\boxed{42}.", "42", 0.0),
    ("\\boxed{42}. Meh.", "42", 0.0),
    ("The answer is \\boxed{45}. \\tiny{\\boxed{42}}", "42", 0.0),
    # genuine: abbreviations, another subject rejected, a contrast after a hypothesis, conditions of the problem
    ("So the answer is $42$, i.e. six times seven.", "42", 1.0),
    ("The answer is \\boxed{42}, e.g. by counting the pairs directly.", "42", 1.0),
    ("The answer is \\boxed{42} (cf. Fig. 2 and case No. 5).", "42", 1.0),
    ("The estimate is approx. 41.9 vs. the exact \\boxed{42}.", "42", 1.0),
    ("Answer: $42$. (The other root, $-7$, is rejected because a length is positive.)", "42", 1.0),
    ("Answer: $42$; compare the first count vs. the corrected one above.", "42", 1.0),
    ("If instead the problem asked for the perimeter, it would be 30, but it asks for the area, which is \\boxed{42}.", "42", 1.0),
    ("Assuming the rate is constant, the tank holds \\boxed{42} litres.", "42", 1.0),
    ("Since the problem doesn't say otherwise, take the coin to be fair; the answer is \\boxed{42}.", "42", 1.0),
    ("If we pair each term with its mirror, the sum is \\boxed{42}.", "42", 1.0),
    ("Final Answer: The final answer is $42$. I hope it is correct.", "42", 1.0),
    ("The answer is \\boxed{42}; the first attempt above double-counted the corners.", "42", 1.0),
    ("The answer is \\boxed{42}. That's all for now.", "42", 1.0),
    ("The ratio is $\\dfrac{3}{4}$, or 75%.", "\\frac{3}{4}", 1.0),
    ("The share is 75%, or $\\frac{3}{4}$.", "\\frac{3}{4}", 1.0),
    ("I'm confident it's \\boxed{42}, which matches the figure.", "42", 1.0),
    ("If we were to pair the terms, we would get \\boxed{42}.", "42", 1.0),
    ("So the answer is \\boxed{42}, roughly twice the first estimate.", "42", 1.0),
    ("\\boxed{42}, roughly.", "42", 0.0),
    ("So Tom got \\boxed{42}.", "42", 1.0),
    ("Each of the six kids got 7 candies, so the total is \\boxed{42}.", "42", 1.0),
    ("The length is \\boxed{2\\sqrt{3}}, roughly 3.46.", "2\\sqrt{3}", 1.0),
    ("The answer is \\boxed{42}. Whatever method you use, you get the same total.", "42", 1.0),
]



CHOICE = [
    ("Taking a wild swing: C.", "C", 0.0),
    ("Were the graph linear, B would be right; it isn't.", "B", 0.0),
    ("Assuming the survey is representative (it may not be), D.", "D", 0.0),
    ("Answer: B.\n\nEdit: retracted, B ignores the second condition.", "B", 0.0),
    ("Option D looks tempting, but it's a distractor. I can't decide.", "D", 0.0),
    ("If the question meant 'smallest' instead of 'largest', it would be (A).", "A", 0.0),
    ("Somebody in my study group went with C.", "C", 0.0),
    ("B is most likely correct.", "B", 1.0),
    ("It has to be D, not A as you might guess.", "D", 1.0),
    ("(C) is wrong, (B) is right.", "B", 1.0),
    ("Option A fails, and B and D overcount, so the answer is C.", "C", 1.0),
    ("The answer is B, i.e. the second option.", "B", 1.0),
    ("Answer: E (cf. the table above).", "E", 1.0),
]


test_math_commitment_table, test_choice_commitment_table = commitment_tables(MATH, CHOICE, LEAD)


@pytest.mark.parametrize(("text", "pieces"), [
    ("So the answer is 42, i.e. 6 times 7.", ["So the answer is 42, i.e. 6 times 7", ""]),
    ("Try e.g. n = 3. Then 5.", ["Try e.g. n = 3", " Then 5", ""]),
    ("approx. 3.46 vs. 3.5. Done", ["approx. 3.46 vs. 3.5", " Done"]),
    ("see Fig. 2 and No. 5. The answer is no. Next", ["see Fig. 2 and No. 5", " The answer is no", " Next"]),
    ("We try 1, 2, 3, etc., and stop. 1, 2, etc. The end", ["We try 1, 2, 3, etc., and stop", " 1, 2, etc", " The end"]),
    ("Dr. Smith said 42. Ok", ["Dr. Smith said 42", " Ok"]),
    ("It is 3.5. Next", ["It is 3.5", " Next"]),
    ("42. 43", ["42", " 43"]),
])
def test_clause_splitter_keeps_abbreviations_and_ends_sentences(text, pieces):
    assert [text[a:b] for a, b in clauses(text, 0, len(text))] == pieces


_WORD = st.text(alphabet="abcdefghij ", min_size=1, max_size=12).filter(lambda w: w.strip())


@settings(max_examples=200, deadline=None)
@given(first=_WORD, second=_WORD, abbreviation=st.sampled_from(["i.e.", "e.g.", "cf.", "vs.", "approx.", "viz.", "resp."]))
def test_an_abbreviation_never_adds_a_clause(first, second, abbreviation):
    plain = f"{first} {second}"
    joined = f"{first} {abbreviation} {second}"
    for ends in (CLAUSE_END, OWN_CLAUSE_END):
        assert len(list(clauses(joined, 0, len(joined), ends))) == len(list(clauses(plain, 0, len(plain), ends)))


@settings(max_examples=200, deadline=None)
@given(whole=st.integers(0, 10**6), decimals=st.integers(0, 999), tail=_WORD)
def test_a_decimal_point_never_ends_a_clause_and_a_full_stop_does(whole, decimals, tail):
    text = f"It is {whole}.{decimals} units. {tail}"
    assert len(list(clauses(text, 0, len(text)))) == 2


def test_many_abbreviations_are_read_in_one_pass():
    text = "i.e. e.g. vs. approx. No. 5 " * 20000
    assert len(list(clauses(text, 0, len(text)))) == 1


# (a note of single letters set apart by spaces, "n o", is a word spelled out letter by letter, which the visible text
# joins -- holdout107's "w r o n g": reading.py's spaced letters -- so the note is compared word by word only when no
# two one-letter words stand side by side; the stop 61 run drew "n o")
@settings(max_examples=100, deadline=None)
@given(note=st.text(alphabet="abcdefghijklmnop ,'", min_size=1, max_size=40).filter(
           lambda n: n.strip() and not {"answer", "option", "choice"} & set(n.split())
           and not re.search(r"(?<!\w)[a-p] [a-p](?!\w)", n)),
       value=st.integers(0, 999))
def test_a_footnote_qualifies_at_its_marker_and_never_supplies_a_value(note, value):
    shown = visible_text(f"The answer is 7.[^1]\n\n[^1]: {note}")
    assert f"({' '.join(note.split())})" in shown and "[^1]" not in shown
    with_value = visible_text(f"The answer is 7.[^1]\n\n[^1]: it is {value}")
    # the note with a value is set aside, and its marker is no part of the answer it follows ("7.[^1]" reads "7.")
    assert f"it is {value}" not in with_value and "[^1]" not in with_value and "The answer is 7." in with_value
