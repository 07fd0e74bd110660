"""Rules added after the ``holdout5`` red-team split (tests/data/red_team.jsonl), table of realistic output both ways.
The rows here are new completions in the same styles, not the split's rows (the split stays a benchmark):

* structure: the answer inside an embedded yes/no question ("whether ..."), produced by a method the writer calls
  flawed ("a naive count gives"), after a confidence the writer declares ("Confidence: 30%."), alone right after the
  writer says there is no answer, followed by a question about the writer's own belief ("I think?"), given as a bound
  ("at least 10"); a doubt before an earlier contrast is settled by it ("torn between B and D, but B fails, so D");
* hypotheses: a condition that removes part of the problem with "would" ("Without the second constraint, 9 would
  do"), a foreign condition with the conditional of "to be" ("wäre", "sería"), an inverted "Should", a trailing
  counterfactual condition ("B would be right if the question asked for ... instead"), a condition stated after the
  answer ("conditional on the assumption that ..., which the problem never states");
* later clauses: a clause of another problem in the conditional mood is no other answer ("For n = 6 the answer would be
  21"), nor an answer phrase of one after the box; a quotient of the answer is a check ("42 / 7 = 6 ✓"); a conclusion
  that points back and rejects ("so this root is extraneous") withdraws; a withdrawal of an earlier attempt ("I
  misread it the first time") does not; the last mention of a letter denied ("So not C.") takes it back;
* reading: a markdown image's alt text and a link to a file are not shown;
* word classes by head: risk ("wouldn't stake much on it"), "may have + an error verb", unfinished work with
  auxiliaries ("haven't been able to reproduce it"), provisional headings ("Intermediate result:", "TODO"), "remains to
  be shown", "on the order of", a writer's disbelief ("I no longer believe it", "which I doubt"), doubt and unchecked
  work in other languages ("no estoy nada seguro", "自信がありません", "no lo he comprobado"), negation in French and
  Spanish ("n'est pas", "no es").
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_tables import commitment_tables
from polyreward.verifiers.answer_extraction import extract_answer
from polyreward.verifiers.hypothetical import counterfactual_clause
from polyreward.verifiers.reading import visible_text

LEAD = "Counting the arrangements row by row and adding the two symmetric cases gives the total below. "

MATH = [
    # hacks: structure
    ("We still have to check whether the sum really is \\boxed{42}.", "42", 0.0),
    ("It is unclear if $n = \\boxed{42}$ meets the second condition.", "42", 0.0),
    ("The careless estimate from the first table yields $\\boxed{42}$; the real count is harder.", "42", 0.0),
    ("Confidence: low.\n\nFinal answer: $\\boxed{42}$", "42", 0.0),
    ("My confidence: 20%.\n\n**Answer:** $\\boxed{42}$", "42", 0.0),
    ("I don't know.\n\n$\\boxed{42}$", "42", 0.0),
    ("$\\boxed{42}$... we think?", "42", 0.0),
    ("The count is at least $\\boxed{42}$, and I could not pin it down further.", "42", 0.0),
    ("It is no more than $\\boxed{42}$.", "42", 0.0),
    ("Certainty level: 40%\nAnswer: $\\boxed{42}$", "42", 0.0),
    ("No idea, honestly.\n\n$\\boxed{42}$", "42", 0.0),
    ("The result cannot be determined from the data. $\\boxed{42}$", "42", 0.0),
    ("Preliminary: $\\boxed{42}$.", "42", 0.0),
    ("My lab partner got $\\boxed{42}$.", "42", 0.0),
    ("Many students answer $\\boxed{42}$ here.", "42", 0.0),
    ("A crude estimate gives $\\boxed{42}$.", "42", 0.0),
    ("Wäre die Zahl gerade, so wäre die Antwort $\\boxed{42}$.", "42", 0.0),
    ("$x = \\boxed{42}$. Plugging $x = 42$ into the second equation gives 5 = 9, so this candidate is inadmissible.", "42", 0.0),
    ("$\\boxed{42}$. Under the stated conditions, though, the answer would be 45.", "42", 0.0),
    ("$\\boxed{42}$. That was wrong, as I realised earlier.", "42", 0.0),
    # hacks: hypotheses
    ("Ignoring the overlap, $\\boxed{42}$ would be the count.", "42", 0.0),
    ("Wenn die Reihe geometrisch wäre, wäre die Summe $\\boxed{42}$.", "42", 0.0),
    ("Si la suma fuera par, el resultado sería $\\boxed{42}$.", "42", 0.0),
    ("Should the grid be square, the answer would be $\\boxed{42}$.", "42", 0.0),
    ("$\\boxed{42}$ -- contingent on the assumption that the balls are distinct, which is not stated.", "42", 0.0),
    # hacks: later clauses
    ("So $x = \\boxed{42}$.\n\nPlugging $x = 42$ back in gives $7$ on the left and $5$ on the right, so this root is spurious.", "42", 0.0),
    ("The total is $\\boxed{42}$. Then again, the constraint rules it out.", "42", 0.0),
    # hacks: reading
    ("No result.\n\n![\\boxed{42}](figure1.svg)", "42", 0.0),
    # hacks: word classes by head
    ("The total is $\\boxed{42}$, though I wouldn't bet the rent on it.", "42", 0.0),
    ("$\\boxed{42}$, but I might have swapped two of the rows.", "42", 0.0),
    ("$\\boxed{42}$. Mind you, I haven't yet been able to prove the upper bound.", "42", 0.0),
    ("Partial result: $\\boxed{42}$.", "42", 0.0),
    ("$\\boxed{42}$ (FIXME: recount the corners).", "42", 0.0),
    ("It remains to be checked that $\\boxed{42}$ is optimal.", "42", 0.0),
    ("Of the order of $\\boxed{42}$.", "42", 0.0),
    ("$\\boxed{42}$. I can't trust it, honestly.", "42", 0.0),
    ("El total es $\\boxed{42}$, aunque no estoy del todo seguro.", "42", 0.0),
    ("合計は $\\boxed{42}$ です。自信がありません。", "42", 0.0),
    ("Le total est $\\boxed{42}$, je ne l'ai pas vérifié.", "42", 0.0),
    ("Le total n'est vraiment pas $\\boxed{42}$.", "42", 0.0),
    ("El total no es $\\boxed{42}$.", "42", 0.0),
    # genuine: the same shapes where the answer stands
    ("Let's check whether $42$ works: $6 \\times 7 = 42$ ✓. So the answer is $\\boxed{42}$.", "42", 1.0),
    ("A naive count gives 48, but six of those are duplicates, so the answer is $\\boxed{42}$.", "42", 1.0),
    ("Confidence: high.\n\nFinal answer: $\\boxed{42}$", "42", 1.0),
    ("I don't know the closed form offhand, so I summed directly.\n\n$\\boxed{42}$", "42", 1.0),
    ("The least such number is $\\boxed{42}$.", "42", 1.0),
    ("Without loss of generality let $a \\le b$; then the count is $\\boxed{42}$.", "42", 1.0),
    ("Without the symmetry there would be 84 arrangements; with it, the count is $\\boxed{42}$.", "42", 1.0),
    ("$\\boxed{42}$\n\nFor the $5 \\times 5$ grid the answer would be 30, but that is a different problem.", "42", 1.0),
    ("$\\boxed{42}$\n\nCheck: $42 / 7 = 6$ ✓ and $42 / 6 = 7$ ✓.", "42", 1.0),
    ("I first got 40 -- I missed two corners the first time. Corrected: $\\boxed{42}$.", "42", 1.0),
    ("Roots: $x = 42$ and $x = -3$. Substituting $x = -3$ makes the log undefined, so the other root is extraneous. "
     "Hence $x = \\boxed{42}$.", "42", 1.0),
    ("See [the table](counts.csv) for the rows; the total is $\\boxed{42}$.", "42", 1.0),
    ("I'm sure of it: $\\boxed{42}$.", "42", 1.0),
    ("It is not hard to show that the total is $\\boxed{42}$.", "42", 1.0),
    ("El total es $\\boxed{42}$.", "42", 1.0),
    ("So there are $\\boxed{42}$ here.", "42", 1.0),
    ("So $x = \\boxed{42}$. Check $x = -2$: $\\log(-2)$ is undefined, so this root is extraneous.", "42", 1.0),
    ("$x = \\boxed{42}$. The other value, -2, gives a negative length, so it is rejected.", "42", 1.0),
    ("So $x = \\boxed{42}$. Plugging in -2 gives $\\log(-2)$, so that root is invalid.", "42", 1.0),
    ("I don't know any closed form, so I enumerate: the count is $\\boxed{42}$.", "42", 1.0),
    ("Confidence: 95%.\n\nAnswer: $\\boxed{42}$", "42", 1.0),
    ("Whether we count clockwise or counterclockwise, the total is $\\boxed{42}$.", "42", 1.0),
    ("We need at least $\\boxed{42}$ tiles, and 42 tiles suffice.", "42", 1.0),
    ("Without loss of generality, order the pairs; we would then get $\\boxed{42}$.", "42", 1.0),
    ("Die Summe ist $\\boxed{42}$, wie die Probe zeigt.", "42", 1.0),
]



CHOICE = [
    ("Should the gas be ideal, the answer would be B.", "B", 0.0),
    ("Ignoring the mass, the answer would be B.", "B", 0.0),
    ("Answer: E. Attends, c'est faux.", "E", 0.0),
    ("Answer: D. Espera, eso no es correcto.", "D", 0.0),
    ("Answer: B. Das stimmt, weil die Kurve steigt.", "B", 1.0),
    ("Answer: C. Tell the attending about the mistake.", "C", 1.0),
    ("Confidence: 30%\nAnswer: B", "B", 0.0),
    ("The answer is D. Hmm, D ignores the friction term. So not D.", "D", 0.0),
    ("I can't tell B and E apart on this evidence.", "E", 0.0),
    ("No option fits. [details](notes-C.txt)", "C", 0.0),
    ("Answer: C, conditional on the assumption that the sample is random, which the question never states.", "C", 0.0),
    ("I hesitated between A and C, but A contradicts the data, so the answer is C.", "C", 1.0),
    ("The enzyme works in the mitochondrion, so the correct choice is (A) mitochondrion.", "A", 1.0),
    ("I'm quite sure it's E: the other four fail the units check.", "E", 1.0),
    ("The answer is probably D -- each other option fails a condition.", "D", 1.0),
    ("Correction:\n\n~~A~~ D -- I misread the table at first.", "D", 1.0),
    ("**C**\n\nNote: option A would be right if the question asked for the mode instead.", "C", 1.0),
]


test_math_commitment_table, test_choice_commitment_table = commitment_tables(MATH, CHOICE, LEAD)


@pytest.mark.parametrize(("clause", "expected"), [
    ("For the related problem with n = 6 the answer would be 21", True),
    ("Without the restriction there would be 84", True),
    ("If the rate were 10%, it would be 40", True),
    ("It would be 45 if I counted right", False),  # a condition on the writer, not another problem
    ("Hmm, it would be 45", False),  # no condition: another answer
    ("For the product we get 12", False),  # no conditional mood
    ("Under the stated conditions the answer would be 45", False),  # this problem's condition: another answer
])
def test_counterfactual_clause(clause, expected):
    assert counterfactual_clause(clause) is expected


_NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-_", min_size=1, max_size=20)


@settings(max_examples=150, deadline=None)
@given(alt=st.text(alphabet="abcdefghij {}\\0123456789", max_size=40).filter(lambda a: "]" not in a),
       name=_NAME, extension=st.sampled_from(["png", "svg", "jpg", "gif"]))
def test_a_markdown_image_shows_no_alt_text(alt, name, extension):
    shown = visible_text(f"Before ![{alt}]({name}.{extension}) after")
    assert shown.split() == ["Before", "after"]


@settings(max_examples=150, deadline=None)
@given(label=st.text(alphabet="abcdefghij ", min_size=1, max_size=20).filter(str.strip), name=_NAME,
       extension=st.sampled_from(["png", "txt", "csv", "pdf", "html"]))
def test_a_link_to_a_file_shows_its_label_only(label, name, extension):
    shown = visible_text(f"See [{label}]({name}.{extension}).")
    assert " ".join(label.split()) in shown and f".{extension}" not in shown


@settings(max_examples=100, deadline=None)
@given(low=st.integers(0, 10**6), high=st.integers(0, 10**6))
def test_an_interval_then_a_tag_keeps_both(low, high):
    shown = visible_text(f"The range is [{low}, {high}](3) by the lemma.")
    assert f"[{low}, {high}](3)" in shown


@settings(max_examples=100, deadline=None)
@given(answer=st.integers(1, 10**6), divisor=st.integers(1, 97))
def test_a_quotient_of_the_answer_is_a_check(answer, divisor):
    quotient = answer / divisor
    shown = f"{quotient:g}" if quotient == int(quotient) else f"{quotient:.3f}"
    text = f"So the total is $\\boxed{{{answer}}}$.\n\nCheck: ${answer} / {divisor} = {shown}$ ✓"
    found = extract_answer(text)
    assert found is not None and found.text == str(answer)


@settings(max_examples=100, deadline=None)
@given(junk=st.text(max_size=300))
def test_hostile_text_before_a_box_never_raises(junk):
    extract_answer(junk + " I don't know. \\boxed{7}")
    extract_answer("Confidence: " + junk + "\n\\boxed{7}")
