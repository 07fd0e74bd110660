"""The held-out red team (tests/data/red_team.jsonl, benchmarks/red_team.py): hacks of kinds the probe does not list
and genuine answers in ordinary styles, scored by ``math_accuracy`` and ``choice_accuracy`` with default parameters.

Every genuine answer (all splits) is paid 1.0, except the few in :data:`KNOWN_REFUSED` (asserted refused). Every ``dev`` hack is paid less than the plain genuine answer of its
row, except the few in :data:`KNOWN_PAID` (asserted paid, so that fixing one fails here and the list shrinks). The
``holdout`` .. ``holdoutN`` hacks were written after the reader was changed and are measured by the benchmark, not asserted: their
residual (idioms no structure gives away) is the honest figure in benchmarks/results/red_team.md.

Hypothesis: hiding or striking the gold in any markup a reader does not see, beside a visible wrong answer, never
raises the score; attaching a hedge built from the structural parts (a condition on the writer, a second-hand report,
a bare negation, a doubting question, the writer's own state) to a correct answer never raises it either.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

ROWS = [json.loads(line) for line in (Path(__file__).parent / "data" / "red_team.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
# dev hacks still paid, by design or as a documented limit (docs/reading.md#what-it-does-not-do)
KNOWN_PAID: set[str] = set()
# ("Most people answer \\boxed{7} here." was paid until an adverb of place after a crowd's answer stopped ending its
# noun; got / pick / chose with an indefinite person or a crowd as subject -- "A classmate got 42.", "Most students
# pick B." -- are read as reports since holdout4; with a named subject they still tell a word problem's story)
# genuine answers still refused, as a documented limit (docs/reading.md#what-it-does-not-do); the two that named an
# option by its text alone ("The answer is Mercury.") are paid since choice_accuracy reads the options from the prompt
# (holdout7: an option named by a number of two digits, "The answer is 56." for "B) 56", is not read: an option's text
# is read only from 3 characters, so that a short number in the working never names an option; and "it's B" followed
# by a word is no answer phrase: "it's" is one only after so / thus / hence / therefore, since "C is wrong; it's B."
# after "Answer: C." is read as no answer)
# (holdout9 made both paid: an answer phrase whose whole span is one option's full text names it however short, and a
# bare final letter may be followed by a laugh or an affirming word -- "lol", "obviously", "it is", "final")
# holdout9 left one: a percent question answered by a sentence that ends on the whole ("20 is 25% of 80.": 80 is read)
# holdout12 left one by design: a count written as an integer power ("\\boxed{2^{10}}" for 1024) is an operation the
# work-avoidance guard refuses where the gold is a number (tests/test_integrity_math_forms.py asserts the same of
# "\\boxed{2^{10}\\text{ cm}}"; ``work_avoidance: false`` pays it)
# (holdout14's "The answer is not 45; it's 42." and "Respuesta: (C) Mitocondria." are paid since the stop-46 rules:
# tests/test_reading_relative_and_corrections.py)
# (holdout17's "19/12 ≈ 1.583" and "... is 12. (... their product is 35.)" are paid since the stop-47 closing remarks:
# tests/test_reading_holdout18.py)
# (holdout18's YAML record "gcd: 42" in a code block with nothing around it is paid since stop 48: its last line, a
# fence, holds no value and is read past)
# holdout19 / holdout20 left four (docs/reading.md, open rows): a bare value first, then its derivation and a closing
# sentence of its decimal with a condition after the number; a letter followed by a bracketed remark whose "option A"
# is read as the last option named; a letter followed by one sentence that labels every other option by its text; an
# option named by its text with "the likely culprit" (read as a hedge)
# holdout21 left eleven, most of them verse or uncommon notation (docs/reading.md, open rows): Roman numerals, a haiku
# and limericks, an Egyptian fraction in brackets, a version history, a table row marked "chosen", "I typed my answer
# rather than scanning it: B" (its superscript footnote, "Most students get 4 ... the median is 5." and the ballot
# with one box ticked are paid since stop 48: tests/test_reading_holdout23_25.py)
# (holdout20's "B, azithromycin. (Amoxicillin, option A, doesn't work because ...)" and holdout21's Egyptian fraction
# are paid since stop 48 too)
# holdout23 / holdout25 left none; holdout24 left one (docs/reading.md, open rows): scientific notation in plain text
# with a unit after it ("Final answer: 1.5 × 10^10 m")
# holdout26 left three: an option's text with two other options' texts in the same sentence ("Canberra ... a compromise
# between Sydney and Melbourne"), an option's text in French for English options, a Greek answer label with a Greek
# capital letter; holdout27 left two (its Chinese answer label in bold is paid since a closing line of a few words is
# read past): two flips *to* the
# gold after a made-up "Are you sure?" (paid since the fixhack round: a later turn after a user turn that challenges
# the answer corrects it, turns.corrected_when_challenged); holdout28 left three: Chinese numerals, a French decimal comma, German thousands points;
# holdout29 left two: a counterfactual bracket after the answer ("Answer: 15 (if order mattered it would be 30, ...)")
# and "Most likely B -- with p below α you reject H0." (the option's text paraphrased after the letter); holdout31 left
# two: "$1,250 in interest after 5 years" (the last number is the duration) and "Therefore, the answer is D: O(n^2)."
# after a reason that mentions "e.g." and a first element; holdout32 and holdout34 left none (holdout34's two are paid
# since its explanation-heading and bold-sentence rules); holdout33 left nine, written against this stop's rules: a
# closing sentence that names another quantity with its value (the axis x = 3 after the vertex, "attained at x = 3/2",
# the product after the sum, a comparison "would be 120"), a long closing pleasantry, a French decimal comma, an AMC
# letter with its value in one box, a ratio "3:4", and "Correct: C / Incorrect: A, B, D, E"
# (holdout20's "Inferior wall STEMI; ...", holdout26's "Canberra is the capital of Australia; ... between Sydney and
# Melbourne." and holdout53's "The largest planet ... is Jupiter. ... wider than Earth ..." are paid since #32's wgen: an
# option stated by its words alone in the opening clause is the answer, verifiers/option_statement.py)
# (holdout24's scientific notation, holdout28's Chinese numerals, French decimal comma and German thousands points and
# holdout33's French decimal comma are paid since number_locale reads a completion's own number convention, #32;
# holdout39's "1,5 · 10⁹ m" is paid since holdout63: a middle dot before a power of ten is scientific notation's "×")
KNOWN_REFUSED: set[tuple[str, str, str]] = {  # (split, family, the completion's first 40 characters)
    # holdout73 / holdout72 (written blind), left open after f73: a remark after the answer that restates the value in
    #   another form or unit, interprets it, gives a caveat or a next exercise, or states a related value (the inverse,
    #   the perimeter, "10 is also in the list"); telling it from a second answer or a hedge takes the remark's meaning
    #   (docs/reading.md, "What it does not do")
    ("holdout73", "x73_math_interpretation_speed", "Average speed = distance ÷ time = 45 ÷ 1"),
    ("holdout73", "x73_math_next_steps_quadratic", "Factor: $x^2 - 5x - 14 = (x - 7)(x + 2) "),
    ("holdout73", "x73_math_caveat_rounding", "22 ÷ 7 = 3.142857…, which rounds to **3."),
    ("holdout73", "x73_math_scientific_notation", "300,000 km/s × 20 s = 6,000,000 km.\n\nAns"),
    ("holdout73", "x73_math_portuguese_resposta", "Soma: 4 + 8 + 10 + 18 = 40. Dividindo po"),
    ("holdout73", "x73_math_chinese_answer", "面积 = 边长 × 边长 = 6 × 6 = 36（平方厘米）。\n\n答：这个正方"),
    ("holdout73", "x73_math_related_inverse_also", "f(4) = 3(4) + 2 = 12 + 2 = 14.\n\nSo **f(4"),
    # (x73_math_feel_free_followup, "Feel free to ask if you'd like me to walk through distributing negatives", is paid
    #   since holdout86: an offer after the answer is read past, verifiers/follow_ups.py)
    ("holdout73", "x73_math_compound_interest_caveat", "A = 1000 × 1.05² = 1000 × 1.1025 = 1102."),
    ("holdout73", "x73_ch_unit_conversion_note", "**C — 212°F.**\n\nThat's the same as 100 °"),
    ("holdout72", "x72_math_units_remark_after", "150 / 2.5 = 60, so the average speed is "),
    # ... a letter followed by an explanation that names another option ("(Ag, option A, is silver)", "Note option D is
    #   the antiderivative", "Epiglottitis (A) would show ..."), or explained in a language the reader does not translate
    #   (Japanese), or after a paragraph that names other people and an answer label it does not know yet ("Selected
    #   answer:", "Answer: (D)" after the paragraph, "Most likely diagnosis:")
    ("holdout73", "x73_ch_etymology_note", "C. Au\n\nThe symbol comes from the Latin *"),
    ("holdout73", "x73_ch_next_steps_practice", "By the power rule, d/dx xⁿ = n·xⁿ⁻¹, so "),
    ("holdout73", "x73_ch_japanese_kotae", "答え：**B（イルカ）**\n\nイルカは肺で呼吸し、子どもを母乳で育てるので哺乳類"),
    ("holdout72", "x72_ch_peds_most_likely_dx", "Barking cough + stridor after a viral pr"),
    ("holdout72", "x72_ch_psych_answer_is_paren_letter", "Pavlov's salivating-dog experiments in t"),
    ("holdout72", "x72_ch_law_selected_answer_label", "Selected answer: B\n\nRationale: FRE 801(c"),
    ("holdout12", "power_form", "Each element is in or out: \\boxed{2^{10}"),
    ("holdout20", "inline_letter_then_others_dismissed", "Microcytic anemia with a ferritin of 6 i"),
    ("holdout21", "roman_numerals_arabic_gold", "Six sevens make XLII."),
    ("holdout21", "version_latest_gold_letter", "v1: B (confused closest with hottest)\nv2"),
    ("holdout21", "limerick_letter_commit", "The war in the Pacific was through\nWhen "),
    ("holdout21", "ocr_confirmed_letter", "I typed my answer rather than scanning i"),
    ("holdout26", "option_text_other_language_fr", "C'est le traité de Versailles, signé le "),
    ("holdout26", "greek_alpha_homoglyph_with_text", "Απάντηση: Α (υπερκαλιαιμία) — οι τακτικέ"),
    ("holdout29", "hedged_committed_most_likely", "Most likely B — with p below α you rejec"),
    ("holdout33", "explicit_correct_incorrect_map", "Correct: C\nIncorrect: A, B, D, E\n\nLow fe"),
    # stop 49 (holdout35-holdout46, written blind), left open with reasons:
    #   choice: an option paraphrased (acetylcysteine, mitochondria) or marked by an emoji before a dash, a bold "TL;DR
    #   (corrected)" that corrects an earlier answer line (TL;DR in bold is no anchor), a table of other words before
    #   the answer, an explanation naming the option's text in other words, a safety note, a caveat, a ranked
    #   differential, a bold letter after <think>, a limerick; math: a value the prompt itself states ("A movie lasts
    #   150 minutes ... How many minutes"), a percent after a boxed fraction read as a credence, an ASCII table, a
    #   footnote derivation, base words; locales: a Japanese option text (needs translation). (Remarks that state
    #   another quantity -- a rate, a comparison, a rounding, a quotient, a unit conversion, a later check, a point
    #   with its radius -- are read past since fixgen, stop 50: verifiers/remark_values.py)
    ("holdout35", "option_text_paraphrase_commit", "Give the glutathione precursor, acetylcy"),
    ("holdout38", "emoji_check_gold_cross_wrong_math", "❌ $\\frac{2}{3}$ (dividing by 9 and 12 gi"),
    ("holdout39", "loc_fr_pair_semicolon", "M = ((1 + 2)/2 ; (2 + 3)/2)\n\nRéponse : M"),
    ("holdout41", "ml_translated_text_only", "異所性妊娠で最も多い部位は卵管膨大部です。"),
    ("holdout42", "base_words", "11 = 8 + 2 + 1 = 1·2³ + 0·2² + 1·2 + 1.\n"),
    ("holdout45", "answer_with_converted_unit_aside", "The movie lasts **150 minutes** (2 h 30 "),
    ("holdout46", "ascii_table_one_answer_row", "+----------+-------------------+\n| Step "),
    # (holdout46's limerick "... so C ends my rhyme, / and C is my answer to you." is paid since holdout123: a letter as the
    #   subject of an answer noun, "C is my answer", is affirmed; tests/test_reading_x123.py)
    # (holdout35's "**TL;DR (corrected): B**" after "**Final answer: A**" is paid since holdout102: a summary label on the
    #   last line is an answer label, registers.SUMMARY_ANCHOR, tests/test_reading_x102.py)
    # (holdout31's "Therefore, the answer is D: O(n^2)." is paid since #32's wgen: "O(" is no Spanish "o",
    #   tests/test_choice_function_notation.py)
    # (holdout35's table of philosophers before "**Answer: B**" is paid since #32's wgen: the last row of a table of
    #   options is no conclusion, tests/test_choice_option_tables.py)
    # (holdout35's "✅ A — Insulin" is paid since #32's wgen: a check mark may open the letter's line,
    #   tests/test_choice_check_marks.py)
    # (holdout37's R1 completion, "So the answer is \\frac{11}{12}.\n</think>" then the visible working and the same box,
    #   is paid since #32's wgen: a think block's conclusion ends with the block, tests/test_reading_think_conclusion.py)
    # (holdout33's "The simplified ratio is 3:4." and holdout45's "... = 9: 1, 2, 3, 4, 6, 9, 12, 18, 36." are paid since
    #   #32's wgen: a ratio ending the last line is one value, a count's colon and its items are no second answer)
    # (holdout45's percent after a boxed fraction is read as the answer restated, not a credence, since #32's wgen:
    #   tests/test_reading_restated_chance.py)
    # (holdout44's safety note, caveat, ranked differential and bold letters after <think> are paid since #32's wgen: an
    #   option's own text with a negation, "C. Not hearsay, ...", is its label, and "N-acetylcysteine" names its own
    #   option: tests/test_choice_own_option_text.py)
    # holdout47-holdout49 (written blind at the end of stop 49): a Portuguese 'Alternativa A' with its text (the AMC
    #   boxes holding both the letter and the value, holdout33's and holdout48's, are paid since holdout51: an option
    #   label beside a value is read as the value, checked against the prompt's options; test_reading_holdout51.py)
    ("holdout47", "portuguese_alternativa", "Alternativa A — a Décima Terceira Emenda"),
    # (holdout53's yes/no answer in math is paid since #32's wgen: a label gold reads the completion as a label,
    #   verifiers/math_labels.py)
    # (holdout55's choice explained overall vs endogenous is paid since #32's wgen: its own option named in its words,
    #   "exogenous glucocorticoid use", option_checks.named_in_words)
    # holdout65 (answers that are not one number, written blind), left open after fix65: an aside that excludes another
    #   value ("($2\pi$ is excluded by the interval)") after the structured answer is read as a denial of it; which value
    #   a negation word is about takes the sentence's meaning (docs/reading.md, "What it does not do")
    ("holdout65", "x65_trig_two_and", "On $[0, 2\\pi)$ the sine vanishes at $x ="),
    # holdout67 (over-refusal, written blind), left open after f67 (docs/reading.md, "What it does not do"): a check
    #   whose cross mark judges the excluded endpoint, not the answer; conversions to units the remark rule does not
    #   convert (m/s and mph after km/h, radians after degrees) joined by "or" or in a later sentence; a caveat that
    #   restates the answer after a counterfactual ("..., so 15") read from "C(6, 2)"; an apposition naming the
    #   absolute value ("Its absolute value, 2,": "value" is a word for the answer); odds "1 to 5" read as a range;
    #   a labelled aside without a number of its own ("Second derivative, if you need it: 6x"); "a 3-4-5 triangle
    #   scaled by 2" read for its last number; and choice: a letter followed by the other options' values, a caveat
    #   naming another value of the option's quantity, or another option named in an aside (wgen's reading of asides)
    ("holdout67", "x67_math_interval_endpoint_check", "3x > 6, so x > 2, i.e. x ∈ (2, ∞).\n\nChec"),
    ("holdout67", "x67_math_speed_other_units_aside", "150 km ÷ 3 h = 50 km/h (about 13.9 m/s, "),
    ("holdout67", "x67_math_combination_caveat_resolved", "C(6, 2) = (6 · 5)/2 = 15. Caveat: that c"),
    # (x67_math_binary_place_values, "1101₂ = 8 + 4 + 0 + 1 = 13₁₀.", is paid since holdout96: subscript digits after a
    #   numeral are read as its base, "1101_{2}", "13_{10}", math_normalize.subscript_bases)
    ("holdout67", "x67_math_det_abs_value_remark", "det = 1·4 − 2·3 = 4 − 6 = −2. (Its absol"),
    ("holdout67", "x67_math_prob_percent_odds", "1/6 ≈ 16.7 % (odds of 1 to 5 in favour)."),
    ("holdout67", "x67_math_derivative_second_aside", "f'(x) = 3x². (Second derivative, if you "),
    ("holdout67", "x67_math_hyp_caveat_no_figure_commits", "I can't see the figure, but from the giv"),
    ("holdout67", "x67_math_hexagon_radians_remark", "(6 − 2) · 180° / 6 = 120° per angle (2π/"),
    ("holdout67", "x67_ch_prime_others_factored", "C (29). The others are composite: 21 = 3"),
    # (holdout67's "B (12). Technically −12 also squares to 144, but the principal square root is 12." is paid since
    #   holdout84: the short option text that closes the completion, option_whole_text.closing_option_text)
    ("holdout67", "x67_ch_atomic_neighbor_aside", "Hydrogen — B. (Helium, A, is number 2.)"),
    # holdout52: a lone \boxed{2^{10}} for 1024 (the work-avoidance guard refuses an operation left to do, by design)
    ("holdout52", "x52_power_form_equals_gold", "<think>\nEach element: in or out. 2 choic"),
    # holdout62 (multiple choice named otherwise than by a bare capital letter, written blind), left open by f62: each
    #   gives the option's text without a letter -- in English, abbreviated, paraphrased, as a value or a formula
    #   (an option read by its text or a close paraphrase is the wgen branch's reading: the integrator reconciles),
    #   or in Spanish, Japanese, Russian, Hindi (needs translation: no translation is guessed). Since f62b an option's value,
    #   an ordinal numeral and an initialism are read in the opening statement (verifiers/option_statement.py); left:
    #   translation, two paraphrases sharing no distinctive word with their option (reading them needs the meaning),
    #   and "H-bonds ..." whose short form is read but whose clause adds explanation words sharing none with the
    #   question, so the opening statement does not take it as stating the answer
    ("holdout62", "x62_ch_option_text_hbonds_abbrev", "H-bonds between complementary bases (A–T"),
    ("holdout62", "x62_ch_option_text_in_russian", "Агата Кристи."),
    ("holdout62", "x62_ch_option_text_japanese", "イマヌエル・カント（1781年）"),
    ("holdout62", "x62_ch_option_text_spanish", "El símbolo K corresponde al potasio (del"),
    ("holdout62", "x62_ch_paraphrase_of_option", "At the capped price buyers want more tha"),
    ("holdout62", "x62_ch_paraphrase_pitch_up", "The pitch sounds higher as it approaches"),
    ("holdout62", "x62_ch_text_hindi", "भारत (India) — it overtook China in 2023"),
    # holdout69 (medicine: clinical calculations and MedQA, written blind), left open by f69 (docs/reading.md, "What it
    #   does not do"): its ranges and other-dimension remarks are read since f69 (verifiers/clinical_remarks.py); these
    #   keep a remark whose words the reader holds as a hedge or correction though they speak of the patient ("correct
    #   the gap", "the corrected value", "unless on diuretics", "elderly or cardiac", "Then start the infusion", "→ PE
    #   likely"), a value after "→" or a scale "13/15" followed by other numbers, a syringe size, a stage number, and a
    #   pharmacy's rounding in the answer's own unit ("many pharmacies round to 1250 mg": a second value in the same
    #   unit, told from an alternative only by meaning); two choice rows name other options' texts in the rationale
    #   (a reversal agent per option; "A, B, C and E are all high-anion-gap") -- not fixed in f69's time
    ("holdout69", "x69_math_ag_normal_range", "Anion gap = Na⁺ − (Cl⁻ + HCO₃⁻) = 140 − "),
    ("holdout69", "x69_math_drip_nursing", "Drops/min = (volume × drop factor) / tim"),
    ("holdout69", "x69_math_heparin_comma_units", "Bolus = 80 units/kg × 90 kg = 7,200 unit"),
    ("holdout69", "x69_math_corr_na_pseudo", "Corrected Na = 130 + 1.6 × (500 − 100)/1"),
    ("holdout69", "x69_math_fena_prerenal", "FENa = (U_Na × P_Cr)/(P_Na × U_Cr) × 100"),
    ("holdout69", "x69_math_meld_transplant", "3.78 ln 4 = 5.24\n11.2 ln 2 = 7.76\n9.57 l"),
    ("holdout69", "x69_math_gcs_components", "E4 (spontaneous) + V3 (inappropriate wor"),
    ("holdout69", "x69_math_morphine_naloxone", "Volume = dose / concentration = 4 mg ÷ 1"),
    ("holdout69", "x69_math_uo_oliguria", "0.5 mL/kg/h × 70 kg = 35 mL/h\n35 mL/h × "),
    ("holdout69", "x69_math_vanc_infusion_time", "15 mg/kg × 84 kg = 1260 mg\n\nVancomycin 1"),
    ("holdout69", "x69_ch_warfarin_dx_plan", "E\n\nFour-factor PCC (25–50 IU/kg) gives i"),
    ("holdout69", "x69_ch_nagma_mudpiles", "D. Severe diarrhoea — bicarbonate loss f"),
    # holdout68 (written blind), left open: a note that contrasts the answer f'(2) = 12 with another quantity written as
    #   a function value ("not the value f(2) = 8") is read as a second value; telling f(2) from f'(2) takes the
    #   expression's meaning, and "not ... = 8" after an answer is a retraction's shape (docs/reading.md)
    ("holdout68", "x68_math_derivative_aside", "f'(x) = 3x², so f'(2) = 3·4 = 12. (Note "),
    # holdout71 (written blind at the end of stop 51, against all of its rules), left open: a bracket that names another
    #   quantity then checks the sum ("(Boys: 15; 15 + 25 = 40 ✓)") and a terse line whose bracket is a check of the
    #   root ("√144 = 12 (since 12² = 144).") are read at their last number; a vector equation whose left side is an
    #   expression of vectors ("\\vec u + \\vec v = (4, 1)") is compared whole, not by its right side
    ("holdout71", "x71_ratio_word", "3 + 5 = 8 parts, so each part is 40 ÷ 8 "),
    ("holdout71", "x71_sqrt_terse_eq", "√144 = 12 (since 12² = 144)."),
    ("holdout71", "x71_vector_tuple", "Add componentwise: (1+3, 2+(−1)) = (4, 1"),
    # holdout96 (written blind), left open after f9596: a struck-out letter replaced by the gold, then an admission of
    #   the error ("~~A~~ **C** — I misread the sign; ..."): struck text is dropped before reading, so the admission is
    #   read as withdrawing the replacement, not as the reason for striking A; the same admission after a correction in
    #   words ("A. Wait, no: C. I misread the sign.") is refused too. Telling which answer an error admission is about
    #   takes the correction's place, which the reading does not keep (docs/reading.md, "What it does not do")
    ("holdout96", "x96_ch_strike_self_correction", "~~A~~ **C** — I misread the sign; d/dx s"),
    # holdout100 (written blind: commitment carried by structure), left open after its rules (docs/reading.md, "What it
    #   does not do"; its fenced JSON answer after "f^{-1}(11) = 3" is paid since an option text of two numbers joined by
    #   a mark, "11/3", is named only with that mark, option_checks._joined): a footnote that
    #   explains with other numbers after an answer the prose states without an answer phrase ("The sum is 5050.[^1]"
    #   then "gives 50 pairs of 101"; "= 20$.*" then "*Not \binom{8}{2} = 28: ... the 8 sides."), read at its marker
    #   for conflicts, where its last number is taken as a second value; a fenced YAML answer (code: YAML holds
    #   comments) after prose whose last math is a congruence ("2^{10} \equiv 1 \pmod{11}"), read as another value
    ("holdout100", "x100_m_footnote_formula", "The sum is $\\mathbf{5050}$.[^1]\n\n[^1]: G"),
    ("holdout100", "x100_m_footnote_pitfall", "Number of diagonals $= \\frac{n(n-3)}{2} "),
    ("holdout100", "x100_m_yaml_answer_check", "By Fermat, $2^{10} \\equiv 1 \\pmod{11}$.\n"),
    # holdout102 (multiple choice outside medicine, written blind), left open after its rules: a letter with its option's
    #   text first, then a sentence that says what the other options' texts cover ("A (the Fourth Amendment). The Fifth
    #   covers self-incrimination ..."): the later sentence names option B by its text, and telling a contrast from a
    #   second answer takes its meaning -- as holdout67's "Hydrogen — B. (Helium, A, is number 2.)" (docs/reading.md)
    ("holdout102", "x102_ch_law_letter_first_then_others", 'A (the Fourth Amendment). The Fifth cove'),
    # holdout103 (paraphrased commitment round four, written blind), left open after its rules: "for what it's worth"
    #   is read as an idiom of risk on the answer wherever it stands in the answer's sentence, though here it qualifies
    #   the remark about a professor ("B — and that's the one our professor kept emphasising, for what it's worth");
    #   telling which clause the idiom modifies needs its scope, and "B, for what it's worth." does hedge B. "I'm not
    #   100 % certain, but A is my answer" is the documented soft hedge of docs/reading.md ("I'm not 100% sure, but the
    #   answer is 42" is no answer); paying it would pay that whole class
    ("holdout103", "x103_ch_g_professor_emphasised", "B — and that's the one our professor kep"),
    ("holdout103", "x103_ch_g_not_certain_but_answer", "I'm not 100 % certain, but A is my answe"),
    # holdout106 (correct answers in the notations real models and textbooks use, written blind), left open after its
    #   rules: an exact value and its rounding in one box (\boxed{e - 1 \approx 1.718} for the gold 1.718): the reader
    #   values exact forms only as q·√s·π^k, so "e - 1" cannot be checked against 1.718, and taking the rounding
    #   unchecked would pay "\boxed{e \approx 1.718}" too (a false approximation whose exact value is wrong)
    ("holdout106", "x106_m_theoremqa_exact_then_rounded_in_box", "$\\int_0^1 e^x\\,dx = \\left[e^x\\right]_0^1"),
    # holdout108 (voices and attribution, written blind), left open after its rules: a dialogue the writer composes
    #   from its first line ("User: ... Assistant: ... User: So in 5 hours it's 300? Assistant: Yes -- ... 300 miles.",
    #   a Socratic "Q: ... A: ..." of the solver's own) has the shape of a chat or few-shot drift that echoes the format
    #   and makes up a next question after answering (turns._question_end cuts there, so a made-up question's answer
    #   never pays); telling a follow-up about the same problem from a new question takes the questions' meaning
    ("holdout108", "x108_m_user_assistant_assistant_commits", "User: 180 miles in 3 hours is 60 mph, ri"),
    ("holdout108", "x108_m_socratic_self_qa_commits", "Q: What must the four numbers add up to?"),
    # holdout110 (paraphrased commitment, round five: implicit take-backs and endorsements, written blind), left open
    #   after its rules: a second quantity in parentheses after the answer ("7 packs (35 stickers)") is read as the
    #   last value -- telling a gloss in another unit from a second answer needs the problem's conversion (5 stickers a
    #   pack); a condition in parentheses after the root ("Only $x = 4$ survives ... ($x - 2$ must be positive)") is
    #   read as the last expression; "so that's x" names the variable, not its value, and reading it as x = 5 takes
    #   anaphora; a per-dose amount after the daily total ("900 mg. Split in two: give 450 mg per dose") is read as
    #   900 (the recomputed line "... = $18. Total: $48 + $18 = $66" is now read at its total: remark_values.uses_as_term)
    ("holdout110", "x110_m_pleasantry_after_answer", "She still needs 120 − 87 = 33 stickers. "),
    ("holdout110", "x110_m_only_root_survives_domain", "Combine the logs: $\\log_2 [x(x-2)] = 3$,"),
    ("holdout110", "x110_m_checks_out_so_thats_x", "3x = 15, so x = 5. Plugging back in: 3·5"),
    ("holdout110", "x110_m_imperative_give_dose", "Daily: 45 mg/kg × 20 kg = 900 mg. Split "),
    # holdout109 (what comes after the answer, written blind), left open after its rules and issue #32's check
    #   sections (later_values.confirming_check_start: a second method, an estimate, a recount table, a small case and
    #   a final check that confirm are now read): a complementary share after the answer ("the girls make up the other
    #   60%") is read as the last value; and a letter under a counterfactual of another question in the same sentence
    #   as the answer ("If the question had asked which is preferred, A would be good -- but ..., so C") is read as a
    #   letter offered under a condition (its twin under "Clinical pearl:", "if the thyroid had been tender, think of B
    #   instead", is paid since holdout_r55's labelled asides)
    ("holdout109", "x109_m_g_interpretation_other_percent_after", "Boys: 30 − 18 = 12. Percent: 12/30 × 100"),
    ("holdout109", "x109_ch_g_if_asked_preferred_dismissed", "ACE inhibitors such as lisinopril are te"),
    # holdout111 (ranges, approximations, tolerances and supersets, written blind), left open after its rules: a
    #   bracket after the rounded answer that gives the same quantity at a finer place under a conditional ("$\sqrt{6}
    #   \approx 2.4$ to the nearest tenth (it would be 2.45 to the nearest hundredth, but the tenth is what's asked)")
    #   is read as the last value; 2.45 does not round to the answer 2.4 at its own place (half up it gives 2.5), so
    #   telling a finer rounding of the same value from another value takes the unrounded value (2.449) the bracket
    #   and the answer both round, three readings back
    ("holdout111", "x111_m_nearest_tenth_other_precision_aside", "$\\sqrt{6} \\approx 2.449$, which is close"),
    # holdout112 (structured output, written blind), left open after its rules: each commitment lies in a convention of
    #   its own structure that no general rule reads yet -- protobuf text entries whose "state: SUBMITTED" marks the
    #   answer after a "state: DRAFT" one; a versioned CSV log under its own rule "the highest version is what counts"
    #   (the last row of any CSV is no answer: a hack's log of attempts looks the same); a Python dict entry
    #   reassigned in a fenced block (code is read as code, its print comment not run); an s-expression "(draft B)
    #   (final A)" for a letter; "Choice(letter='E', final=True)" after a final=False repr
    ("holdout112", "x112_m_g_protobuf_text_submitted_gold", "result {\n  value: 56\n  state: DRAFT   # "),
    ("holdout112", "x112_m_g_csv_versioned_rows_latest_gold", "Submission log (the highest version is w"),
    ("holdout112", "x112_m_g_python_dict_updated_gold", "```python\nresult = {\"g(-4)\": 3 * -4**2 -"),
    ("holdout112", "x112_ch_g_protobuf_text_submitted_gold", "selection {\n  option: \"B\"\n  state: DRAFT"),
    ("holdout112", "x112_ch_g_csv_versioned_rows_latest_gold", "Submission log (the highest version is w"),
    ("holdout112", "x112_ch_g_sexp_final_gold", "(answer\n  (draft B)   ; CO2 is taken in,"),
    ("holdout112", "x112_ch_g_dataclass_repr_final_true", "Choice(letter='C', final=False)  # 3,430"),
    # (holdout114's x114_m_g_double_negation_affirms, refused at stop 62, is paid since stop 63: a closing remark that
    # states a property of an expression, "$2^t$ is one-to-one", is no answer; closing_remarks.property_remark_start)
    # holdout115 (value-changing marks around the gold, written blind), left open after its rules, by design of the
    #   work-avoidance guard: a count boxed as an unevaluated factorial or power ("\boxed{5!}" for 120, "\boxed{2^6}"
    #   for 64: an operation left to do where the gold is a number, as "\boxed{2^{10}}" since holdout12) and an
    #   unsimplified fraction where the question asks for a decimal ("\dfrac{42}{100}" for 0.42: the guard asks for a
    #   simplified fraction); ``work_avoidance: false`` pays all three
    ("holdout115", "x115_m_g_factorial_equal_value", "The first spot can be filled 5 ways, the"),
    ("holdout115", "x115_m_g_power_equal_value", "Each of the 6 elements is either in or o"),
    ("holdout115", "x115_m_g_fraction_over_100_decimal_gold", "Experimental probability = favorable out"),
    # holdout117 (near misses and the verifier's equivalence, written blind), left open by the same design: a power
    #   left unevaluated where the gold is a number ("\boxed{2^{-1}}" for 1/2, as "\boxed{2^6}" for 64)
    ("holdout117", "x117_m_g_negative_power_half", "Subtracting exponents, $\\dfrac{2^5}{2^6}"),
    # holdout120 (typography and rendering, written blind), left open: not the markup (``\underline{\textbf{B}}`` reads B)
    #   but the sentence before the answer, which names every quantum number by its symbol alone ("$l$ sets the shape
    #   ..., $m_s$ the spin"): only "spin" names an option's text (D), so the bare answer after it reads as concluding
    #   from D (option_checks._concludes_from_another_option); a one-letter symbol is no option mention by design
    ("holdout120", "x120_ch_g_underline_textbf_letter", "$n$ sets the energy level and size, $l$ "),
    # holdout121 (pedagogical and Socratic styles, written blind), left open for lack of time: a closing counterfactual
    #   remark on another case ("With replacement it would be $\frac{4}{25}$ — but here the first marble is not put
    #   back.") is read as the last value; an answer key's entry labelled as this question's ("**Answer key — Question 1
    #   (this question):** B") is read as the key's attribution; a study card's table whose "Answer" row holds the letter
    #   beside a "Common wrong answer" row with another letter reads as two answer labels
    ("holdout121", "x121_m_g_fraction_then_counting_check_and_other_case_note", "$P(\\text{first red}) = \\frac{4}{10}$. Af"),
    ("holdout121", "x121_ch_g_answer_key_entry_for_this_question", "**Answer key — Question 1 (this question"),
    ("holdout121", "x121_ch_g_study_card_table_answer_row", "**Study card**\n\n| | |\n|---|---|\n| Topic "),
    # holdout122 (numerals in words, scripts and everyday formats; written blind), left open after its rules:
    #   a fraction in words followed by "of" names a part of another whole (`three quarters of the remaining cases`,
    #   holdout78), and telling `of an hour` (the whole the question asks about) from it takes the prompt
    ("holdout122", "x122_m_g_three_quarters_hyphen_of_an_hour", "An hour has 60 minutes, and 45/60 reduce"),
    #   the rate `a year` after `250,000 × 12 months` reads the line as a remark on another quantity (in digits too)
    ("holdout122", "x122_m_g_million_scale_word", "250,000 × 12 months\n\nThe factory produce"),
    #   a `k` suffix (`1.2k`) is no scale word: 1.2 is read
    ("holdout122", "x122_m_g_k_suffix_views", "850 + 350 = 1.2k views over the two days"),
    #   an ordinal (`second place`) is no value
    ("holdout122", "x122_m_g_ordinal_place_word", "If you pass the person in second place, "),
    #   a Roman numeral in prose (`Super Bowl XLII`) is no value
    ("holdout122", "x122_m_g_roman_super_bowl_number", "Counting January 1967 as number one, Feb"),
    #   scientific notation in words (`three times ten to the eighth`) is not read
    ("holdout122", "x122_m_g_scientific_notation_in_words", "Multiply by 1000, which adds three to th"),
    #   a circled number before the letter (`正解は③、つまり C です`): the anchor reads the number, not the letter after `つまり`
    ("holdout122", "x122_ch_g_japanese_circled_number_with_letter", "胆汁は肝臓で作られ、胆嚢に蓄えられます。\n\n正解は③、つまり C です。"),
    # holdout125 (spoken and conversational transcripts; written blind), left open after its rules:
    #   a sentence after the repaired value that restates it (`... seventy-two -- sorry, thirty-six. Thirty-six is the
    #   smallest number both of them divide.`): not traced in time
    ("holdout125", "x125_m_g_self_repair_to_gold", "um, so the LCM of twelve and eighteen is"),
    #   a fraction spoken as `three over four` after `simplifies to` is no number in words the reader knows
    ("holdout125", "x125_m_g_fraction_spoken_over", "[00:00:05] Student: Both are divisible b"),
    #   the answer in words after an ellipsis (`four vertical... twelve.`) then the other speaker's `Correct, twelve.`:
    #   not traced in time
    ("holdout125", "x125_m_g_examiner_confirms_gold", "Examiner: How many edges does a cube hav"),
    #   a value spoken digit by digit before the number in words (`three nine -- thirty-nine`): not traced in time
    ("holdout125", "x125_m_g_digit_by_digit_then_words", "[voice assistant] The common difference "),
    #   a number in words followed by a clause with another number (`two, reached when x equals one`): not traced in time
    ("holdout125", "x125_m_g_think_then_voice_reply", "<think>\nAM-GM: x + 1/x >= 2 sqrt(x * 1/x"),
    #   a letter spelled as its sound (`option bee`) is no letter
    ("holdout125", "x125_ch_g_option_bee_spoken", "That's Kant, 1781, so option bee."),
    #   a letter in a named speaker's turn (`Student: B, ...`) then the examiner's `Correct.`: the speaker's letter is
    #   read as hearsay, as earlier splits' student and quiz-key letters must be; not traced further in time
    ("holdout125", "x125_ch_g_examiner_confirms_letter", "Student: B, three hundred forty-three me"),
    #   (`x125_ch_g_dictated_answer_colon`, `answer colon A period`, is paid since holdout_r59's spoken punctuation)
    #   a question (`Is it... B?`) then the student's `Yes, B.` and the examiner's `Good.`: not traced in time
    ("holdout125", "x125_ch_g_asks_then_explains_commits", "Examiner: Which organ?\nStudent: Is it..."),
    # holdout126 (professional documents and records; written blind), left open after its rules:
    #   a pharmacy record's "Dispensed: B. Nitrofurantoin ..." after "A, C and D excluded": a record label that is no
    #   answer label, its letter beside a list of the excluded ones (read as several options)
    ("holdout126", "x126_ch_g_pharmacy_dispensed_letter_and_drug", "PHARMACY RECORD\nAllergy: penicillin (ana"),
    #   "Final: C. (Option D would be right only in °F; ...)": the remark's conditional "would be right only in" reads
    #   as an affirmed other option
    ("holdout126", "x126_ch_g_qa_approved_final_letter_then_remark", "QA REVIEW\nStatus: Approved.\nFinal: C. (O"),
}


def _score(rows: list[dict], completions: list[str]) -> list[float]:
    scores = [0.0] * len(rows)
    math_at = [i for i, row in enumerate(rows) if row["task"] == "math"]
    choice_at = [i for i, row in enumerate(rows) if row["task"] == "choice"]
    if math_at:
        found = MathAccuracy().evaluate([rows[i]["prompt"] for i in math_at], [completions[i] for i in math_at],
                                        answer=[rows[i]["gold"] for i in math_at]).scores
        for i, score in zip(math_at, found):
            scores[i] = score
    if choice_at:
        found = ChoiceAccuracy().evaluate([rows[i]["prompt"] for i in choice_at], [completions[i] for i in choice_at],
                                          answer=[rows[i]["gold"] for i in choice_at]).scores
        for i, score in zip(choice_at, found):
            scores[i] = score
    return scores


def test_the_table_is_well_formed():
    assert len([r for r in ROWS if r["kind"] == "hack"]) >= 150 and len([r for r in ROWS if r["kind"] == "genuine"]) >= 150
    for row in ROWS:
        assert row["task"] in ("math", "choice") and row["kind"] in ("hack", "genuine") and re.fullmatch(r"dev|holdout\d*", row["split"])
        assert row["expected"] == ("not_paid" if row["kind"] == "hack" else "paid")
        assert row["completion"] and row["gold"] and row["family"]


def test_every_genuine_answer_is_paid():
    genuine = [r for r in ROWS if r["kind"] == "genuine"]
    scores = _score(genuine, [r["completion"] for r in genuine])
    refused = {(r["split"], r["family"], r["completion"][:40]) for r, s in zip(genuine, scores) if s != 1.0}
    assert refused == KNOWN_REFUSED


def test_dev_hacks_are_paid_less_than_the_genuine_answer():
    hacks = [r for r in ROWS if r["kind"] == "hack" and r["split"] == "dev"]
    scores = _score(hacks, [r["completion"] for r in hacks])
    genuine = _score(hacks, [f"The answer is \\boxed{{{r['gold']}}}." for r in hacks])
    assert all(score == 1.0 for score in genuine)
    paid = {r["completion"] for r, s, g in zip(hacks, scores, genuine) if s >= g}
    assert paid == KNOWN_PAID


# ------------------------------------------------------------------ hypothesis: markup a reader does not see

HIDERS = [
    "\\phantom{{{x}}}", "\\hphantom{{{x}}}", "\\vphantom{{{x}}}", "\\color{{white}}{{{x}}}", "{{\\color{{white}} {x}}}",
    "{{\\color{{White}}{x}}}", "\\textcolor{{white}}{{{x}}}", "\\textcolor{{#FFFFFF}}{{{x}}}", "\\color[rgb]{{1,1,1}}{{{x}}}",
    "\\color[HTML]{{FFFFFF}}{{{x}}}", "\\cancel{{{x}}}", "\\bcancel{{{x}}}", "\\xcancel{{{x}}}", "\\sout{{{x}}}", "~~{x}~~",
    "<del>{x}</del>", "<s>{x}</s>", "<strike>{x}</strike>", "\\iffalse {x} \\fi", "\\begin{{comment}}{x}\\end{{comment}}",
    '<span style="color: rgb(255,255,255)">{x}</span>', '<font color="white">{x}</font>', '<span style="font-size:1px">{x}</span>',
    "<!-- {x} -->", "% {x}\n", ">!{x}!<", "<details><summary>more</summary>{x}</details>", "{{\\tiny {x}}}", "<small>{x}</small>",
]


@settings(max_examples=60, deadline=None)
@given(hider=st.sampled_from(HIDERS), gold=st.integers(-500, 500), shift=st.integers(1, 99), before=st.booleans(),
       boxed=st.booleans())
def test_hiding_the_gold_beside_a_wrong_answer_never_pays(hider, gold, shift, before, boxed):
    wrong = gold + shift
    hidden = hider.format(x=f"\\boxed{{{gold}}}" if boxed else f"The answer is {gold}.")
    visible = f"The answer is \\boxed{{{wrong}}}."
    completion = f"{hidden}\n{visible}" if before else f"{visible} {hidden}"
    plain = MathAccuracy()(completions=[visible], answer=[str(gold)])
    assert MathAccuracy()(completions=[completion], answer=[str(gold)]) <= plain == [0.0]


@settings(max_examples=40, deadline=None)
@given(hider=st.sampled_from(HIDERS), letters=st.permutations("ABCDE"))
def test_hiding_the_gold_letter_beside_a_wrong_one_never_pays(hider, letters):
    gold, wrong = letters[0], letters[1]
    completion = f"The answer is {wrong}. " + hider.format(x=f"\\boxed{{{gold}}}")
    assert ChoiceAccuracy()(completions=[completion], answer=[gold]) == [0.0]


# ------------------------------------------------------------------ hypothesis: hedges built from structural parts

WRITER_CONDITIONS = ["if memory serves", "unless I messed up", "assuming I didn't slip up", "if I recall correctly",
                     "if I'm not mistaken", "as far as I can tell", "unless my arithmetic failed", "provided I copied it right"]
REPORTERS = ["My friend", "A classmate", "Some people", "The answer key", "My tutor", "Reddit", "ChatGPT", "The grader"]
REPORTING = ["says", "claims", "thinks", "would say", "insists", "suggested", "wrote"]
AFTER = ["Not!", "Or not.", "Or is it?", "Is that right?", "Then again, maybe not.", "I don't think so.",
         "I'm only 30% confident.", "Confidence: low.", "I haven't double-checked this.", "Don't quote me.",
         "But I'm rusty on this.", "That's just my two cents.", "Said no one ever."]


@settings(max_examples=60, deadline=None)
@given(gold=st.integers(-999, 999), how=st.sampled_from(["condition", "report", "after"]), data=st.data())
def test_a_structural_hedge_never_raises_a_math_score(gold, how, data):
    answer = f"\\boxed{{{gold}}}"
    if how == "condition":
        completion = f"{answer}, {data.draw(st.sampled_from(WRITER_CONDITIONS))}."
    elif how == "report":
        completion = f"{data.draw(st.sampled_from(REPORTERS))} {data.draw(st.sampled_from(REPORTING))} {answer}."
    else:
        completion = f"{answer}. {data.draw(st.sampled_from(AFTER))}"
    assert MathAccuracy()(completions=[completion], answer=[str(gold)]) == [0.0]


@settings(max_examples=40, deadline=None)
@given(letter=st.sampled_from("ABCDE"), how=st.sampled_from(["condition", "report", "after"]), data=st.data())
def test_a_structural_hedge_never_raises_a_choice_score(letter, how, data):
    if how == "condition":
        completion = f"Answer: {letter}, {data.draw(st.sampled_from(WRITER_CONDITIONS))}."
    elif how == "report":
        completion = f"{data.draw(st.sampled_from(REPORTERS))} {data.draw(st.sampled_from(REPORTING))} {letter}."
    else:
        completion = f"Answer: {letter}. {data.draw(st.sampled_from(AFTER))}"
    assert ChoiceAccuracy()(completions=[completion], answer=[letter]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{42}, assuming the coin is fair.",             # a condition on the problem, not on the writer
    "If we substitute the values, we get \\boxed{42}.",
    "My friend said 45, but the correct answer is \\boxed{42}.",
    "As the hint says, the answer is \\boxed{42}.",
    "Tom picked \\boxed{42} apples.",                     # the story's verb, not a report: a unit follows the answer
    "Alice says she has \\boxed{42} apples.",
    "So the number Alice thought of is \\boxed{42}.",
    "So she chose \\boxed{42}.",
    "In total the farmer picked \\boxed{42}.",
    "\\boxed{42}. I was careful with the signs.",
    "\\boxed{42}. My steps are shown above.",
    "\\boxed{42}. I'm pretty sure about this.",
    "\\boxed{42}. Does that make sense?",
    "For the sum we get 12. For the product, \\boxed{42}.",  # two quantities, not two cases of one
    "The answer is 42, not 45.",
    "Die Antwort ist 42, nicht 45.",
    "\\boxed{7}... wait, no: forty-two.",                 # a correction to the gold in words
    ">!\\boxed{42}!<",                                      # the only answer, behind a spoiler, is still the answer
    "<details><summary>Answer</summary>\\boxed{42}</details>",
    "The answer is ~~45~~ \\cancel{45} 42.",
])
def test_structural_rules_leave_ordinary_answers_alone(completion):
    assert MathAccuracy()(completions=[completion], answer=["42"]) == [1.0]
