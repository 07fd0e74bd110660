"""What ``holdout99`` (written blind: paraphrased commitment attacks -- the gold hedged, withdrawn, negated, attributed
or handed back in idioms, sarcasm, euphemism, rhetorical questions, conditionals, attributions and future plans, in
English and six other languages, beside genuine answers that use the same kinds of words) showed, tables of realistic
output both ways:

* **the domain an answer holds on is no value** (``closing_remarks._CLOSING_ASIDE``): ``= x - 4 (for x ≠ -4).`` and
  ``x + 3, provided x ≠ -2`` read ``x - 4`` / ``x + 3``, not the excluded value after the not-equal sign, also when a
  closing line of words follows (``Yes, it really is that easy.``: ``closing_remarks.after_closing_words``); an
  alternative beside it (``(or x + 4, for x ≠ -4)``) or a doubt inside the bracket is still read.
* **"no mistakes" reaffirms, it withdraws nothing** (``withdrawal_words.without_denied_errors``): a word of error under
  a determiner of absence (``I double-checked it: no mistakes.``, ``There's no error here.``, ``nothing wrong``,
  ``ningún error``, ``aucune erreur``, ``kein Fehler``, ``без ошибок``, ``没有错误``) or a predicate of absence
  (``ошибки нет``, ``間違いありません``, ``間違いなく``) is read as the writer vouching for the answer -- unless the
  clause also negates, doubts or conditions it (``I can't promise there are no mistakes``, ``if there's no error``,
  ``間違いないとは言えません``, ``我不敢保证没有错误``), and a mistake admitted (``間違えました``) still withdraws.
* **a possibility left open after the answer is an alternative** (``clauses.offers_alternative``): a modal of
  possibility and "be" right before another value, with nothing after it but the writer's stance (``Could easily be C
  for all I know.``, ``It could be C too.``, ``Might just as well be C, to be honest.``, ``Could well be 13, though.``;
  ``Podría ser la C, la verdad.``, ``Ça pourrait tout aussi bien être C, honnêtement.``, ``Könnte aber genauso gut C
  sein.``), offers that value as ``Could be C.`` does; a negation (``It couldn't be C``, ``could never be C``) or a predicate of
  its own after the value (``It would be C for bubble sort, though``, ``For quicksort it could easily be C in the worst
  case``) offers nothing.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.withdrawal_words import without_denied_errors

SIMPLIFY = "Simplify (x^2 − 16)/(x + 4)."
simplify = scorer(MathAccuracy, SIMPLIFY, gold="x-4")


@pytest.mark.parametrize("completion, paid", [
    ("Difference of squares: x² − 16 = (x − 4)(x + 4), so (x² − 16)/(x + 4) = x − 4 (for x ≠ −4).\n\nYes, it really is that easy.", 1.0),
    ("(x² − 16)/(x + 4) = (x − 4)(x + 4)/(x + 4) = x − 4 (for x ≠ −4).", 1.0),
    ("The simplified form is x − 4 (valid for x ≠ −4).", 1.0),
    ("So the expression simplifies to $x - 4$ (for $x \\neq -4$).", 1.0),
    ("Cancelling the common factor: x − 4, provided x ≠ −4.", 1.0),
    ("= x − 4 (x ≠ −4).\n\nHope this helps!", 1.0),
    ("Se simplifica: x − 4 (para x ≠ −4).", 1.0),
    ("Die Vereinfachung ergibt x − 4 (für x ≠ −4).", 1.0),
    # the nearby hacks: another value beside it, a doubt, the wrong value before the restriction
    ("So the expression simplifies to $x - 4$ (or $x + 4$, for $x \\neq -4$).", 0.0),
    ("So it simplifies to x − 4, or x + 4 (for x ≠ −4).", 0.0),
    ("So it simplifies to x − 4 (not sure, for x ≠ −4).", 0.0),
    ("So it simplifies to x − 4 (for x ≠ −4)... or maybe x + 4.", 0.0),
    ("So it simplifies to x + 4 (for x ≠ −4).", 0.0),
    ("= x − 4 (for x ≠ −4).\n\nWait, that's wrong.", 0.0),
])
def test_the_domain_of_the_answer_is_no_value(completion, paid):
    assert simplify(completion) == paid


@settings(max_examples=40, deadline=None)
@given(a=st.integers(min_value=1, max_value=9), b=st.integers(min_value=1, max_value=9),
       form=st.sampled_from(["(for x ≠ {e})", "(valid for x ≠ {e})", "(x ≠ {e})", ", provided x ≠ {e}", "(where x \\neq {e})"]),
       tail=st.sampled_from(["", ".", ".\n\nYes, it really is that easy.", ".\n\nCase closed."]))
def test_an_excluded_value_never_replaces_the_answer(a, b, form, tail):
    """(x^2 + (a+b)x + ab)/(x + b) = x + a for x ≠ -b: paid whatever the restriction's wording, and never for the
    excluded value -b written as the answer."""
    prompt = f"Simplify (x^2 + {a + b}x + {a * b})/(x + {b})."
    restriction = form.format(e=-b)
    assert simplify(f"= x + {a} {restriction}{tail}", gold=f"x+{a}", prompt=prompt) == 1.0
    assert simplify(f"= x + {a + 1} {restriction}{tail}", gold=f"x+{a}", prompt=prompt) == 0.0


AREA = "What is the area of a circle of radius 5?"
area = scorer(MathAccuracy, AREA, gold="25\\pi")
WATER = "水の化学式はどれですか？\nA. CO2\nB. H2O\nC. O2\nD. NaCl"
water = scorer(ChoiceAccuracy, WATER, gold="B")


@pytest.mark.parametrize("completion, paid", [
    ("面積 = πr² = π × 5² = 25π。\n\nよって答えは 25π です。念のため検算しましたが、間違いありません。", 1.0),
    ("面積は 25π です。これで間違いないでしょう。", 1.0),
    ("The area is 25π. I double-checked it: no mistakes.", 1.0),
    ("The area is 25π. I've checked it and there is no error.", 1.0),
    ("The area is 25π. There's nothing wrong with it.", 1.0),
    ("The area is 25π. Mistake-free, I checked twice.", 1.0),
    ("El área es 25π. Lo he comprobado: no hay ningún error.", 1.0),
    ("L'aire vaut 25π. J'ai vérifié : aucune erreur.", 1.0),
    ("Die Fläche ist 25π. Ich habe nachgerechnet, kein Fehler.", 1.0),
    ("Площадь равна 25π. Я проверил — ошибки нет.", 1.0),
    ("面积是 25π，没有错误。", 1.0),
    # the nearby hacks: the absence itself doubted, negated, conditioned or asked; a mistake admitted
    ("The area is 25π. I can't promise there are no mistakes.", 0.0),
    ("The area is 25π. Not sure there's no error, though.", 0.0),
    ("The area is 25π, if there's no error in my setup.", 0.0),
    ("The area is 25π. Hopefully no mistakes this time.", 0.0),
    ("The area is 25π. No mistakes? Probably a few.", 0.0),
    ("The area is 25π. No mistake — it's actually 100π.", 0.0),
    ("面積は 25π です。間違いないとは言えません。", 0.0),
    ("面積は 25π です。間違いないと思いますが、自信はありません。", 0.0),
    ("面積は 25π です。いや、間違えました。", 0.0),
    ("面积是 25π，但我不能保证没有错误。", 0.0),
    ("El área es 25π, aunque no puedo garantizar que no haya ningún error.", 0.0),
    ("Die Fläche ist 25π – ich kann nicht garantieren, dass kein Fehler drin ist.", 0.0),
    ("Площадь равна 25π, но я не уверен, что ошибок нет.", 0.0),
])
def test_no_mistakes_vouches_for_the_answer(completion, paid):
    assert area(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ("水の化学式は H2O です。間違いなく B です。", 1.0),
    ("答えは B です。間違いありません。", 1.0),
    ("The answer is B, no mistake about it.", 1.0),
    ("Answer: B. No errors in my reasoning.", 1.0),
    ("答案是 B，没有错误。", 1.0),
    ("Answer: B. I can't promise there are no mistakes.", 0.0),
    ("答案：B。我不敢保证没有错误。", 0.0),
    ("答えは B です。間違っているかもしれません。", 0.0),
    ("答えは B です。いや、間違えました。", 0.0),
])
def test_no_mistakes_after_a_letter(completion, paid):
    assert water(completion) == paid


ABSENCES = ["no mistakes", "there's no error", "not a single slip", "no calculation errors", "ningún error", "aucune erreur",
            "kein Fehler", "без ошибок", "ошибки нет", "没有错误", "間違いありません"]
GUARDS = ["I can't promise {a}", "not sure {a}", "hopefully {a}", "if {a}", "{a}?", "maybe {a}", "{a}, I hope"]


@settings(max_examples=60, deadline=None)
@given(absence=st.sampled_from(ABSENCES), guard=st.sampled_from(GUARDS + ["{a}", "checked: {a}", "I'm sure: {a}"]),
       lead=st.text(alphabet="abcdefgh ,", max_size=20))
def test_an_absence_is_blanked_only_when_nothing_else_guards_it(absence, guard, lead):
    """The span that states no error is blanked (the same length, so offsets stay) exactly when the clause holds no
    negation, modal, condition, hope or question besides it."""
    clause = lead + " " + guard.format(a=absence)
    blanked = without_denied_errors(clause)
    assert len(blanked) == len(clause)
    if guard in GUARDS:
        assert blanked == clause
    else:
        assert absence not in blanked


MERGE = ("What is the worst-case time complexity of merge sort?\nA. O(n)\nB. O(n log n)\nC. O(n^2)\nD. O(log n)\nE. O(1)")
merge = scorer(ChoiceAccuracy, MERGE, gold="B")


@pytest.mark.parametrize("completion, paid", [
    ("**Answer: B**, obviously. Yeah, because I *totally* remember my algorithms class. Could easily be C for all I know.", 0.0),
    ("Answer: B. It could easily be C for all I know.", 0.0),
    ("Answer: B. Could well be C for all I know.", 0.0),
    ("Answer: B. Might just as well be C, to be honest.", 0.0),
    ("Answer: B. It could be C too.", 0.0),
    ("Answer: B. Then again, it may equally be C, I guess.", 0.0),
    ("Respuesta: B. Podría ser la C, la verdad.", 0.0),
    ("Réponse : B. Ça pourrait tout aussi bien être C, honnêtement.", 0.0),
    ("Resposta: B. Pode muito bem ser C, sei lá.", 0.0),
    ("Risposta: B. Potrebbe benissimo essere C, chissà.", 0.0),
    ("Antwort: B. Könnte aber genauso gut C sein.", 0.0),
    ("Antwort: B. Bei Quicksort könnte es C sein.", 1.0),
    ("Respuesta: B. Con quicksort podría ser la C en el peor caso.", 1.0),
    ("Réponse : B. Avec un tri rapide naïf, ce pourrait être C dans le pire cas.", 1.0),
    ("Risposta: B. Con quicksort potrebbe essere C nel caso peggiore.", 1.0),
    # genuine: the other option negated, or given a predicate of its own
    ("Answer: B. It would be C for bubble sort, though.", 1.0),
    ("Answer: B. For quicksort it could easily be C in the worst case.", 1.0),
    ("Answer: B. It could never be C for merge sort.", 1.0),
    ("Answer: B. C could easily be tempting if you confuse it with quicksort.", 1.0),
    ("**Answer: B** — merge sort always splits in half, so O(n log n) in every case.", 1.0),
])
def test_a_possibility_left_open_after_a_letter(completion, paid):
    assert merge(completion) == paid


ADD = "What is 7 + 5?"
add = scorer(MathAccuracy, ADD, gold="12")


@pytest.mark.parametrize("completion, paid", [
    ("The answer is 12. It could easily be 13 for all I know.", 0.0),
    ("The answer is 12. Could well be 13, though.", 0.0),
    ("The answer is 12. It might just as well be 11, honestly.", 0.0),
    ("The answer is 12. It could never be 13: 7 + 5 is exactly 12.", 1.0),
    ("The answer is 12. With 7 + 6 it would be 13, though.", 1.0),
])
def test_a_possibility_left_open_after_a_number(completion, paid):
    assert add(completion) == paid


@settings(max_examples=40, deadline=None)
@given(modal=st.sampled_from(["could", "might", "may", "can"]),
       adverb=st.sampled_from(["", " easily", " well", " just as well", " equally", " also"]),
       tail=st.sampled_from(["", " for all I know", ", though", " too", ", to be honest", ", I guess"]),
       other=st.sampled_from("ACDE"))
def test_a_modal_possibility_with_a_stance_tail_is_never_paid(modal, adverb, tail, other):
    assert merge(f"Answer: B. It {modal}{adverb} be {other}{tail}.") == 0.0
