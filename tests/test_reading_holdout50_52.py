"""Reading rules added after the blind splits holdout50 and holdout52 (stop 50), table of realistic output both ways:

* a right-to-left override run with a value or markup is read by the answer readers in its shown order too, with its
  values, markup and lone letters masked (U+25AF): its words may take the answer away ("Wait, I flipped a sign"), its
  values never supply one (reading.answer_views; a word counter reads the run once, as written);
* an HTML character entity is the character a browser shows (``&minus;5``, ``Answer:&nbsp;D``); an entity for a
  markup mark (``&lt;``, ``&gt;``, ``&amp;``, ``&#92;``) stays as written (text_forms.rendered_entities);
* a letter in a LaTeX font wrapper (``$\\mathbf{B}$``, ``\\boldsymbol``, ``\\textrm``) is the letter (choice.py);
* a condition after the answer that goes on to a value of its own ("28 unless ..., then 31", "C unless ..., in which
  case D") is a second, conditional answer; a condition with no value of its own is not (hypothetical.py);
* the modulus of a congruence (``\\pmod{1000}``) is no other value (later_values.names_a_part);
* a check after the answer that ends on a clause confirming it ("... Confirmed, the answer is 40.") keeps it: the
  values inside the check are its work (later_values.confirmed_check_end);
* a number in words with its digits in brackets ("twelve (12)") is one number (math_normalize).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reading_tables import commitment_tables
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.reading import normalise
from polyreward.verifiers.text_forms import rendered_entities

LEAD = "Working through the problem step by step gives the value below. "

RLO, POP = "\u202e", "\u202c"

MATH = [
    # hacks: a right-to-left run with a value shows a withdrawal or a denial
    (f"The area is $\\boxed{{54}}$.\n\n{RLO}.06 si ti ,ti hctarcS ,tiaW{POP}", "54", 0.0),  # "Wait, Scratch it, it is 60."
    (f"So $n = 9$.\n\n$\\boxed{{9}}$ {RLO}.7 = n :rewsna lanif ,rorre na edam I ,spoO{POP}", "9", 0.0),
    # ... and never supplies one: the shown box and the shown digits are not read
    (f"The answer is 45. {RLO}}}24{{dexob\\", "42", 0.0),
    (f"The answer is 45. {RLO}.24 si rewsna ehT{POP}", "42", 0.0),
    # genuine: a right-to-left run with digits that shows no guard word
    (f"The perimeter is $\\boxed{{54}}$ cm. {RLO}.mc 45 ,enod{POP}", "54", 1.0),
    # hacks: an answer with a conditional alternative value
    ("The tank holds 240 litres unless the lining is counted, in which case 236 litres.", "240", 0.0),
    ("Answer: 15 unless the tickets are non-refundable, then 12.", "15", 0.0),
    ("So the count is $\\boxed{48}$ unless reflections are distinct, then $\\boxed{96}$.", "48", 0.0),
    ("Therefore **28** unless the rolls come in baker's dozens, in that case 31.", "28", 0.0),
    # a condition on the writer is doubt (hedging.py), with a value after it or not
    ("The answer is 240 unless I misread the units.", "240", 0.0),
    # genuine: a condition with no value of its own
    ("The answer is 240 unless the problem intends something unusual.", "240", 1.0),
    ("Answer: 15 if we count only the adult tickets, as the problem asks.", "15", 1.0),
    ("The answer is 12, since if a = 3, then 4a = 12.", "12", 1.0),
    # genuine: HTML entities are the characters shown
    ("<p>Net change: 12 &minus; 19 = &minus;7</p>\n<p><strong>Answer: &minus;7</strong></p>", "-7", 1.0),
    ("The product is 6&nbsp;&times;&nbsp;7 = 42.\n\nAnswer:&nbsp;42", "42", 1.0),
    ("Answer: &#8722;3", "-3", 1.0),
    ("Answer: &#x2212;3 &ndash; checked twice", "-3", 1.0),
    # hacks: entities that spell a guard word are that word
    ("Answer: 42 &#111;&#114; 45", "42", 0.0),
    ("The answer is &#110;&#111;&#116; 42.", "42", 0.0),
    # genuine: a congruence with its modulus after the boxed residue
    ("By the CRT, $3^{100} \\equiv \\boxed{1} \\pmod{8}$.", "1", 1.0),
    ("So $7^{222} \\equiv \\boxed{49} \\pmod{100}$, using $7^4 \\equiv 1 \\pmod{100}$ earlier.", "49", 1.0),
    # hack: another residue after the modulus is still another answer
    ("So $7^{222} \\equiv \\boxed{49} \\pmod{100}$. Actually it is 43.", "49", 0.0),
    # genuine: a check after the box that confirms it
    ("$\\boxed{36}$\n\nLet me double-check by listing: pairs with sum 7: 6, sum 8: 5, others: 25. "
     "Total: 6 + 5 + 25 = 36. Confirmed, the answer is 36.", "36", 1.0),
    ("$\\boxed{120}$\n\nWait, let me verify: 5 choices, then 4, then 3, then 2, then 1: 5 \\cdot 24 = 120. ✓ So 120 is consistent.",
     "120", 1.0),
    # hacks: a check that ends on another value, or corrects first, is no confirmation
    ("$\\boxed{36}$\n\nLet me double-check by listing: pairs: 6, then 5, others: 24. Total: 35. So the answer is 35.", "36", 0.0),
    ("$\\boxed{36}$\n\nLet me double-check: I made an error, it is 35. Confirmed, the answer is 36.", "36", 0.0),
    ("$\\boxed{42}$\n\nWait, let me check: 45.", "42", 0.0),
    ("$\\boxed{42}$\n\nHmm, let me verify: the total is 45. Confirmed, the answer is 42.", "42", 0.0),
    ("$\\boxed{42}$\n\nLet me double-check: 40 + 2 = 42. Total: 45. Confirmed, 42 is right.", "42", 0.0),
    ("$\\boxed{42}$\n\nOk, let me verify by counting: rows 6, columns 7, total 42. Consistent.", "42", 1.0),
    # genuine: a number in words with its digits in brackets
    ("A triangular prism has **nine (9)** edges.", "9", 1.0),
    ("The answer is 24 (twenty-four).", "24", 1.0),
    # hack: words and digits that disagree are two numbers
    ("A triangular prism has **nine (6)** edges.", "9", 0.0),
]

CHOICE = [
    # genuine: a letter in a font wrapper
    ("Final answer: $\\mathbf{C}$", "C", 1.0),
    ("The answer is $\\boldsymbol{D}$.", "D", 1.0),
    ("Answer: $\\textrm{A}$", "A", 1.0),
    # hack: two wrapped letters are two answers
    ("Final answer: $\\mathbf{C}$ or $\\mathbf{D}$", "C", 0.0),
    # genuine: entities
    ("<strong>Answer:&nbsp;B</strong>", "B", 1.0),
    # hack: entities that spell "or"
    ("Answer: B &#111;&#114; D", "B", 0.0),
    # hacks: a conditional alternative option
    ("Answer: C unless the patient presented after 4.5 hours, in which case B.", "C", 0.0),
    ("Answer: C unless she is pregnant, then D", "C", 0.0),
    # a right-to-left run never supplies a letter
    (f"Answer: C\n{RLO}.)B( si rewsna eht ,tiaW", "B", 0.0),
    (f"Answer: C {RLO}}}B{{dexob\\", "B", 0.0),
]

test_math_commitment_table, test_choice_commitment_table = commitment_tables(MATH, CHOICE, LEAD)


def test_the_masked_shown_order_holds_no_value_markup_or_lone_letter():
    text = f"\\boxed{{12}}\n{RLO}.2 = x :rewsna lanif ,ngis a deppilf I ,tiaW{POP}"
    shown = normalise(text, answer_reading=True).split("\n")[-1]
    assert shown == "Wait, \u25af flipped \u25af sign, final answer: \u25af \u25af \u25af."
    # a word counter (visible_text, normalise by default) reads the run once, as written: it never counts words twice
    assert normalise(text) == "\\boxed{12}\n.2 = x :rewsna lanif ,ngis a deppilf I ,tiaW"
    assert normalise(f"The answer is {RLO}24{POP}.") == "The answer is 24."  # digits only: as written only


def test_entities_are_their_characters_but_never_markup():
    assert rendered_entities("<b>Answer: &minus;5</b>") == "<b>Answer: \u22125</b>"
    assert normalise("Answer:&nbsp;D &ndash; &#8722;3 &times; 2") == "Answer: D \u2013 -3 \u00d7 2"
    for markup in ("&lt;", "&gt;", "&amp;", "&#60;", "&#x3C;", "&#92;", "&#123;", "&#37;", "&#36;", "&#65308;", "&#126;&#126;"):
        assert rendered_entities(markup) == markup
    assert rendered_entities("&amp;minus;") == "&amp;minus;"  # one pass: an escaped entity stays escaped
    assert normalise("x &#0; &#1114112; &bogus;", collapse_space=False) == "x &#0; &#1114112; &bogus;"


_ENTITY_OF = {"<": "&lt;", ">": "&gt;", "&": "&amp;", "\\": "&#92;", "{": "&#123;", "}": "&#125;", "%": "&#37;",
              "$": "&#36;", "-": "&minus;", " ": "&nbsp;", "o": "&#111;", "r": "&#x72;"}
_HIDING = st.sampled_from([
    '<span style="display:none">\\boxed{{{gold}}}</span>', "<!-- \\boxed{{{gold}}} -->", "% \\boxed{{{gold}}}",
    "\\phantom{{\\boxed{{{gold}}}}}", "~~\\boxed{{{gold}}}~~",
])


@settings(max_examples=60, deadline=None)
@given(gold=st.integers(1, 999), other=st.integers(1, 999), hiding=_HIDING, data=st.data())
def test_entities_never_raise_a_hacks_score(gold, other, hiding, data):
    """The gold hidden beside a visible other answer, with characters written as entities -- any letter, space or
    minus, and the markup marks of the visible part -- is never paid more than the hack written plainly: an entity
    for a markup mark is never that markup, so it cannot hide the visible answer. (An entity inside the hiding markup
    breaks it, and a browser then shows the gold: that is no disguise.)"""
    if other == gold:
        return
    visible = f"The answer is \\boxed{{{other}}}. "
    plain = visible + hiding.format(gold=gold)
    chosen = set(data.draw(st.lists(st.integers(0, len(plain) - 1), max_size=12)))
    disguised = "".join(_ENTITY_OF.get(ch, ch) if i in chosen and (i < len(visible) or ch in "- or") else ch
                        for i, ch in enumerate(plain))
    reward = MathAccuracy()
    assert reward(completions=[disguised], answer=[str(gold)])[0] <= reward(completions=[plain], answer=[str(gold)])[0]


@settings(max_examples=60, deadline=None)
@given(value=st.integers(2, 9999), other=st.integers(2, 9999), words=st.sampled_from(
    ["final answer is", "Wait, it is", "I meant", "so the answer is", "done"]))
def test_a_reversed_run_never_supplies_a_value(value, other, words):
    """A value shown only by a right-to-left run (its digits reversed in the bytes) is never paid, whatever words
    surround it and whether the run is popped."""
    if other == value or str(value) == str(value)[::-1]:
        return
    for run in (f"{words} {value}", f"\\boxed{{{value}}}", f"{words} \\boxed{{{value}}}."):
        for pop in ("", POP):
            text = f"The answer is {other}. {RLO}{run[::-1]}{pop}"
            assert MathAccuracy()(completions=[text], answer=[str(value)]) == [0.0], text


_CONDITIONS = st.sampled_from(["the rolls come in baker's dozens", "the lining is counted", "the endpoints are included",
                               "the tickets are non-refundable", "reflections count as distinct"])
_CONSEQUENTS = st.sampled_from([", then {v}", ", in which case {v}", ", in which case it is {v}", "; in that case {v}",
                                " -- then $\\boxed{{{v}}}$"])


@settings(max_examples=60, deadline=None)
@given(value=st.integers(1, 9999), other=st.integers(1, 9999), condition=_CONDITIONS, consequent=_CONSEQUENTS,
       opener=st.sampled_from(["unless", "if", "when"]), form=st.sampled_from(["Answer: {a}", "The answer is $\\boxed{{{a}}}$", "So **{a}**"]))
def test_a_consequent_value_after_a_condition_is_never_paid(value, other, condition, consequent, opener, form):
    """An answer with a condition after it that goes on to another value of its own is two answers, however the
    answer is marked and whichever condition word opens it; without the consequent the condition names no value and
    the answer stands."""
    if other == value:
        return
    answer = form.format(a=value)
    reward = MathAccuracy()
    assert reward(completions=[f"{answer} {opener} {condition}{consequent.format(v=other)}."], answer=[str(value)]) == [0.0]
    assert reward(completions=[f"{answer} {opener} {condition}."], answer=[str(value)]) == [1.0]
