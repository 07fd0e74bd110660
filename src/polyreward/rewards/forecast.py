"""``forecast_class_cost``: class-wise reward for particulate-matter forecasts (FAKER-Air).

Source: Kang et al., "Real-Time Long Horizon Air Quality Forecasting via Group-Relative Policy
Optimization", arXiv 2511.22169; code kaist-cvml/FAKER-Air ``aurora/rl/reward.py`` (docs/reference/algorithms.md#forecast).
Tag **exact** for the per-forecast reward (the source averages it over valid pixels of a field; here
the "pixels" are the T forecast values of one rollout)::

    c(x) = #{inner edges < x}                  (torch.bucketize, right=False: x = 15 is "good")
    high(x) = c(x) >= high_class               (default 2: "bad" or worse)
    r_t = α·1[high(pred_t) = high(obs_t)] + β·1[c(pred_t) = c(obs_t)] − γ·1[high(pred_t) ∧ ¬high(obs_t)]
    R = Σ_{t,v} s_t w_v r_{t,v} / Σ_{t,v} s_t w_v  over valid steps (obs finite and > 0, as FAKER-Air's
                                                 "GT > 0" mask), v the pollutants (one by default, w = 1)

Defaults are the released GRPO run's: α = 0 (cls-coarse), β = 1 (cls-exact), γ = 0.1 (false-alarm
penalty), ``step_weights: linear``. Misses are not penalised explicitly (as in the source). The per-GT-class
multipliers and the "Recipe 2" recall/FAR constraint with its PI controller are trainer-level and not
implemented here.

Step weights s_t are FAKER-Air's ``aurora/utils.py build_step_weights`` (base b = 0.75, γ_s = 0.9), chosen
as grpo_train.py's ``--step-weight-mode``: ``linear`` (1.0 down to b, evenly), ``uniform`` (what that flag
maps to: the ``fixed`` schedule, 1.0 then b for every later step; ``fixed`` is accepted as its name),
``exp`` (1, γ_s, γ_s², ...), ``sigmoid`` (an S-curve from b to 1.0) and ``none`` (all 1: the reward
functions' default when given no step weights). T = 1 is always [1.0]. (The source rescales them to sum
T, which cancels in R.)

Several pollutants: ``pollutants: {pm25: 1.0, pm10: 0.3}`` (the released run's w_v) scores them in one
reward, normalised jointly by Σ s_t w_v as in the source's ``cls_reward_over_rollout``; each is read from
``observed_columns`` (default ``observed_<pollutant>``) and the forecast holds T numbers per pollutant, in
that order. Several single-pollutant reward entries with weights w_v instead give Σ_v w_v R_v (a separate
normalisation per pollutant, not the source's).

Reading a rollout: the observed value(s) come from ``observed_column`` (a number, numeric text, a list
or a JSON list; NaN entries are invalid steps). The forecast is the one the completion commits to, read through
the project's one reading (:func:`polyreward.verifiers.reading.visible_text`: normalised, so ``−76`` with U+2212 is
-76 and ``７６`` or ``7\u200b6`` is 76; HTML/LaTeX comments, code blocks and quotes are never read): the numbers of
its first ``<answer>`` block (never one run across a ``</think>``: a tag named in the think is no block; red team
``holdout_r28``), or without a block those of its last non-empty line (the names PM2.5 / PM10 are ignored). They are a committed forecast only when

* there are exactly T of them, all finite, with no negation (``not``, ``no``, ``never``, ``n't``, ``anything but``,
  ``other than``, ``rule out``) in the span or
  in the sentence that leads into the block (``It is not <answer>43</answer>``), no lead into it as one case of several
  (``Otherwise: <answer>60</answer>``; :func:`~polyreward.verifiers.forecast_evidence.led_as_one_case`): a hedge
  (``400 (or maybe 20)``), a range (``20-30``, ``20 to 30``), a pasted table of the prompt's values, ``1e999`` or
  ``not 40`` is no forecast;
* each is a plain value: no bound or approximation sign before it (``>76``, ``<= 76``, ``~76``, ``≈76``, ``±``), no
  comparative (``at least``, ``more than``, ``over``, ``up to``, ``76 or more``, ``76+``), no bound after it anywhere
  in its sentence (``76, at most``, ``76 (maximum)``, ``76 tops``; red team ``holdout_r8``); words such as "roughly"
  or "about" are fine (every forecast is an estimate);
* each is in the expected unit: nothing, or µg/m³ in its usual spellings (``µg/m3``, ``ug/m^3``, ``μg m-3``,
  "micrograms per cubic metre"); ``76%``, ``76 ppm``, ``76 mg/m3``, ``76 AQI``, ``16.7 thousand`` are another
  quantity; a value below 1 in mg/m³ is the forecast converted and read in µg/m³ (``0.063 mg/m³`` is 63; a whole
  number there is a µg/m³ figure slipped into the wrong unit, whose thousandfold would land in the top class; red
  team ``holdout_r51``);
* the writer states it rather than offers it as a possibility: ``<answer>maybe 340</answer>``, ``It might be
  <answer>340</answer>``, ``340 (just a guess)`` are no forecast (the project's one reading of a qualified answer,
  :func:`polyreward.verifiers.commitment.qualified`; "roughly", "most likely" and "probably" still commit);
* the words right beside each number (the last three of its clause before it, the first three after it) are words
  that name a forecast, its unit, time or class, or an estimate's adverb (:data:`NEIGHBOUR_WORDS`: ``Tomorrow's
  mean PM2.5: 48 µg/m³ (bad)``, ``approximately 48``, ``48 (나쁨)``, the pollutant's everyday names ``smog``, ``haze``,
  ``dust`` and ``holds at 205`` as ``stays at``; red team ``holdout_r57``): any other word there, in any language, may
  bound, negate, range or relabel it (``moins de 60``, ``60 미만``, ``不是48``, ``north of 40``, ``AQI 60``,
  ``e.g. 48``, ``48 µg/m³ of ozone``), so the number is no forecast; so are the words of a label before a colon
  unless the prompt names them (``Peak hourly value tomorrow: 340`` is no mean; ``Jongno mean: 24`` is); a step label
  (``Day 1: 48``, ``D+1: 48``; not ``hour 20: 30``, the value of one hour, red team ``holdout_r4``) keeps its colon,
  so the words before it are a label's too (``Yeonsan-dong D+1: 28``, the station the prompt names; red team
  ``holdout_r18``) and a date
  (``2010-01-19: 340``; a day with a month's name, ``for 4 March: 340``, red team ``holdout_r8``) are no value, ``I'd say 27`` states 27 and ``340 µg/m³ (0.34 mg/m³)`` restates it, a decimal comma (``23,5``) is a decimal
  point and a number in words (``twenty-four``) is read (red team ``holdout_r3``), and LaTeX units (``$48\\ \\mu g/m^3$``) and superscripts (``m⁻³``) are read as written (red team
  ``holdout_r2``); a number in scientific notation is one number (``5.0 × 10¹``, ``5 x 10^1``) and ``24-h mean`` is
  the daily mean's name, no value (``24-h max`` and ``8-h mean`` keep their numbers; red team ``holdout_r9``); a number
  grouped in thousands with commas is one number where the block writes no decimal comma (``1,085 µg/m³``, Delhi's
  PM10; :mod:`polyreward.verifiers.number_locale`'s convention; red team ``holdout_r10``); AirKorea's Korean labels
  are forecast words (``내일 일평균 초미세먼지 예보: 22㎍/㎥``: tomorrow, daily mean, forecast, concentration) and
  초미세먼지 / 미세먼지 are the names PM2.5 / PM10 (red team ``holdout_r10``);
* where the prompt allows an interval, a bracket after the point that names one and contains the point is read
  past (:mod:`polyreward.verifiers.forecast_intervals`: ``52 (80% interval 45–60)``; red team ``holdout_r10``);
* nothing after the ``<answer>`` block gives a number or withdraws it (``Actually, 120.``, ``just kidding``,
  ``ignore that``), nor is written in another language (:func:`polyreward.verifiers.language.foreign`: a
  withdrawal the reading cannot read, ``위 예측은 무시하세요.``): the last statement is the committed one. A number
  there that restates the forecast, or quotes one of the prompt's observations in a clause about the past ("Levels
  climbed through the evening to about 70 ..., so I expect a mean near 62 µg/m³."), is its reason, not a second
  forecast (:mod:`polyreward.verifiers.forecast_evidence`; a modal, "if", "or", "tomorrow" or a number the prompt does
  not give still withdraws it), and the unit's µ is no foreign language (red team ``holdout_r12``); a clause there about
  another pollutant, a sentence about a later horizon and the prompt's date written short (``3-11``) give no number of
  the forecast's (:func:`~polyreward.verifiers.forecast_evidence.other_quantities_left_out`; red team ``holdout_r14``); the forecast's spread after it, ``Uncertainty: roughly ±6 µg/m³.``, smaller than the value, is no second value either
  (:func:`~polyreward.verifiers.forecast_intervals.without_stated_spread`; red team ``holdout_r33``); nor are the
  numbers that describe the committed value when they are all the numbers there: the value restated, its own class
  band or a range inside its class around it, the top or bottom class's open band, the pollutant's ``2.5 µm``
  (:func:`~polyreward.verifiers.forecast_intervals.without_own_value_remarks`; red team ``holdout_r40``).
* the completion is not cut off: a ``<think>`` or ``<answer>`` opened and never closed (``<think>... So far the
  running value is 70.38``, ``<answer>16.48``) ends mid-thought, and its last number is a running value, not a
  forecast;
* the block's tag is read in any case (``<Answer>27</Answer>``; red team ``holdout_r4``);
* a box around the value is the value (``\\boxed{27}``), a block that is one JSON object of scalars is the ``key:
  value`` lines it states (``{"pm25_mean": 27}``: ``PM25`` is the pollutant's name), and a bracket after the one
  value that states its own class by the class's range under the scored thresholds (``50 µg/m³ (Korean 'bad' class,
  36–75)``) is read past; another class's range or a range that is no class's stays (red team ``holdout_r5``);
* with ``answer_block: required`` (the shipped example: its prompts ask for ``<answer>...</answer>``) only the
  block is read: a last line of prose ending in a number ("So far the running value is 70.38") is no forecast,
  however much it reads like the prose style "I expect roughly 76 µg/m3" that the default (``optional``) accepts;
* a block that is wholly one structure (a JSON object, ``key: value`` lines, XML-ish elements) is read by its fields
  (:mod:`polyreward.verifiers.record_fields`; red team ``holdout_r46``): the field named for the forecast (``forecast``,
  ``value``, ``mean_pm25``, ``prediction``, ``<forecast unit="ug/m3">``) is the forecast and the fields beside it
  (``class``, ``confidence: 0.8``, ``reason``, ``range_today``, a list of reasons) describe it; a final field
  supersedes a draft one (``{"draft_forecast": 40, "final_forecast": 28}`` forecasts 28; ``<candidate>160</candidate>
  <final>45</final>`` forecasts 45); two forecast fields that differ (``{"forecast": 160, "forecast": 62}``, a
  ``most_likely_value`` beside the value), a list of values, a field that withdraws it (``status: withdrawn``) or a
  confidence graded low (``probability_breeze_holds: 0.02``) leave no forecast.

The rules are ours (reconstructed: the source reads a model's number tensor, not text).
No valid observation -> NaN ("no valid observation"); no committed forecast -> the minimum, −γ (the source has no
text to read, so this is our rule: a hedge or an abstention never scores more than a committed wrong forecast,
a false alarm included).
Per-rollout sub-scores ``hits``/``misses``/``false_alarms``/``correct_negatives`` feed
:func:`polyreward.verifiers.forecast.metrics_from_details` (POD, FAR, POFD, CSI, F1).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from polyreward.reward import RolloutReward, Scored, column_name, one_of
from polyreward.schema import is_missing, prompt_text
from polyreward.verifiers.commitment import qualified
from polyreward.verifiers.forecast import POLLUTANTS, THRESHOLDS, class_edges, pm_class
from polyreward.verifiers.forecast_affirmed import affirmed_at_end, lands_on_block, restated_over_voices
from polyreward.verifiers.span_corrections import repaired_span
from polyreward.verifiers.forecast_contrasts import (labels_observed_day, value_and_remark, without_observed_day,
                                                     without_rejected_alternatives)
from polyreward.verifiers.forecast_dates import (_DATE, _DECIMAL_COMMA, _MONTH_DATE, _TENS, _UNITS, DAILY_PERIOD, asked_days,
                                                 labelled_for_another_day, lead_names_another_day, scientific_read,
                                                 spelled_number)
from polyreward.verifiers.forecast_series import asked_and_other_series, names_only_other_series
from polyreward.verifiers.forecast_evidence import (foreign_after_value, led_as_one_case, negates_forecast, other_quantities_left_out, prompt_days,
                                                    quotes_observations, without_relative_change)
from polyreward.verifiers.forecast_intervals import (in_own_class, without_allowed_interval, without_own_value_remarks,
                                                     without_spread_in_own_class, without_stated_spread)
from polyreward.verifiers.givens import givens
from polyreward.verifiers.language import foreign
from polyreward.verifiers.stand_ins import disowning_remark, keeping_remark
from polyreward.verifiers.math_normalize import drop_thousands_separators, without_emphasis
from polyreward.verifiers.number_locale import DOT, convention, without_restated_words
from polyreward.verifiers.reading import visible_text
from polyreward.verifiers.record_fields import committed_field, is_answer_field, record_fields
from polyreward.verifiers.sections import without_inline_asides
from polyreward.verifiers.speaker_declines import DECLINED
from polyreward.verifiers.turns import invented_case_start, whole_prompt, without_other_party_lines
from polyreward.verifiers.tags import blocks_not_across_reasoning

STEP_WEIGHTS = ("linear", "uniform", "fixed", "exp", "sigmoid", "none")
ANSWER_BLOCK = ("optional", "required")
ANSWER_BLOCK_TAGS = ("think", "answer")


def step_weights(steps: int, mode: str = "linear", base: float = 0.75, gamma: float = 0.9) -> list[float]:
    """FAKER-Air ``build_step_weights`` (unnormalised); ``uniform`` is ``fixed``, as grpo_train.py maps it."""
    if mode == "none":
        return [1.0] * steps
    if steps == 1:
        return [1.0]
    if mode in ("fixed", "uniform"):
        return [1.0] + [base] * (steps - 1)
    if mode == "linear":
        return [1.0 + (base - 1.0) * t / (steps - 1) for t in range(steps)]
    if mode == "exp":
        return [1.0] + [gamma**t for t in range(1, steps)]
    k = max(1e-3, gamma)  # sigmoid: k = steepness, values mapped onto [base, 1]
    s = [1.0 / (1.0 + math.exp(-k * (-2.0 + 4.0 * t / (steps - 1)))) for t in range(steps)]
    low, high = min(s), max(s)
    return [base + (1.0 - base) * (v - low) / (high - low + 1e-8) for v in s]
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d{1,3})?")
# the expected unit, µg/m³ in its usual spellings (µg/m3, ug/m^3, μg m-3, micrograms per cubic metre)
# (red team holdout_r20) the unit in Chinese and Japanese words too: 微克/立方米, 微克每立方米 (micrograms per cubic metre)
_UNIT = re.compile(r"(?:µ|μ|u|micro)(?:g|grams?)\s*(?:(?:/|per)\s*(?:m\s*(?:\^\s*)?[3³]|cubic\s+met(?:re|er))|m\s*(?:\^\s*)?\{?-\s*[3³]\}?)"
                   r"|微克\s*(?:/|每)\s*立方米|マイクログラム\s*(?:/|毎)\s*立方メートル|мкг\s*/\s*м\s*(?:\^\s*)?[3³]",
                   re.IGNORECASE)


def observed_values(value: Any) -> list[float] | None:
    """Observation cell -> list of floats (NaN for unusable entries); None if the cell is empty."""
    if is_missing(value):
        return None
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        try:
            value = json.loads(text) if text.startswith("[") else float(text)
        except (ValueError, RecursionError):
            return [math.nan]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [_number(value)]
    if isinstance(value, Sequence):
        return [_number(v) for v in value]
    return [math.nan]


def _number(value: Any) -> float:
    """``value`` as a float; NaN for None, bools, text and integers beyond the float range (10**400)."""
    if value is None or isinstance(value, bool):
        return math.nan
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return math.nan


# "PM2.5 will be 50": 2.5 is a name, not a number; Korean names the two dusts 초미세먼지 (PM2.5) and 미세먼지 (PM10)
# (red team holdout_r10), read as those names (a PM10 name on a PM2.5 forecast is another pollutant's)
_POLLUTANT_NAME = re.compile(r"\bPM\s?(?:2\.5|25|10)\b|초미세먼지|미세먼지", re.IGNORECASE)
_NEGATION = re.compile(
    r"\b(?:not|never|no|cannot|anything\s+but|other\s+than|except|rule\s+out|ruled\s+out|exclud\w*|eliminat\w*|"
    r"rather\s+than|instead\s+of)\b|n't\b",
    re.IGNORECASE,
)
# a bound or an approximation sign right before the number: ">76", "<= 76", "~76" (also logic's "not"), "±5"
_BOUND_SIGN = re.compile(r"(?:[<>≤≥~≈±≲≳≪≫]|\+/-|=<|>=|<=)\s*$")
# a comparative right before the number makes it a bound: "at least 76", "more than 76", "over 76", "up to 76"
_BOUND_WORDS = re.compile(
    r"\b(?:at\s+(?:least|most)|(?:more|less|greater|fewer|higher|lower)\s+than|over|under|above|below|beyond|up\s+to|"
    r"upwards\s+of|exceed(?:s|ing)?|maximum(?:\s+of)?|minimum(?:\s+of)?|max|min|or\s+(?:more|less|higher|lower))\s*$",
    re.IGNORECASE,
)
# a number added to or multiplying a named quantity ("today's mean + 80", "80 + yesterday", "1.2 × the morning peak"): an
# offset or a factor relative to something else, no value of its own (red team holdout_r7); a dash is left out ("Day
# 2 - 340", "Forecast - 340" separate a label from its value)
_SIGNS_BEFORE = frozenset("<>≤≥~≈±≲≳≪≫-=+×*÷")  # the last characters _BOUND_SIGN and _OFFSET_BEFORE can end with
_OFFSET_BEFORE = re.compile(r"[^\W\d_][’']?\s*[+×*÷]\s*$")
_OFFSET_AFTER = re.compile(r"^\s*[+×*÷]\s*(?:the\s+)?[^\W\d_]")
_OR_MORE_AFTER = re.compile(r"^\s*(?:\+|or\s+(?:more|less|higher|lower|above|below|so)\b|and\s+(?:up|above|higher)\b)", re.IGNORECASE)
# a bound stated after the number, anywhere in the rest of its sentence (through a comma, a dash or a bracket): "50, at
# most", "50 — at least", "50 (maximum)", "60 tops" bound it as "at most 50" does (red team holdout_r8, found beside
# its rows: the words after the number were read only as neighbour words, and "at", "most" are such words)
_BOUND_AFTER = re.compile(
    r"\b(?:at\s+(?:the\s+)?(?:least|most|minimum|maximum|best|worst|the\s+(?:very\s+)?(?:least|most))|maximum|minimum|max|min|"
    r"tops|or\s+(?:more|less|higher|lower|above|below|over|under)|and\s+(?:up|above|over|higher|below|under|lower)|"
    r"(?:upper|lower)\s+(?:bound|limit|end)|ceiling|floor)\b", re.IGNORECASE)
_SENTENCE_REST = re.compile(r"[\d\n]|[.!?](?:\s|$)")  # the rest of a number's sentence ends at a digit, a line or a stop
# a unit right after the number that is not a mass concentration: 76 %, 76 ppm, 76 AQI, 76 mg/L
_OTHER_UNIT = re.compile(
    r"^\s*\(?\s*(?:%|‰|°|percent\b|per\s*cent\b|pct\b|pp[mbt]\b|parts?\s+per\b|(?:i?aqi)\b|index\b|[mnµμu]?g\s*/\s*(?:l|dl|ml|kg)\b|"
    r"[mn]g\s*/\s*m|k?g\b|times\b|x\b|fold\b|thousand|million|billion|hundred|dozen|k\b|m\b|bn\b)",
    re.IGNORECASE,
)
# what may follow a forecast block without withdrawing it: no number and no negation (module docstring)
_AFTER_NUMBER = re.compile(r"\d")
_SENTENCE_START = re.compile(r"[.!?\n]")


# LaTeX a forecast is typeset in: "$48\\ \\mu g/m^3$", "\\text{µg/m}^{3}"
# (a box around the value is the value: "\\boxed{50}", red team holdout_r5; two boxes are two numbers)
_LATEX_WRAPPER = re.compile(r"\\(?:text|mathrm|textrm|rm|mbox|boxed|fbox|framebox)\s*\{([^{}]*)\}")
_LATEX_SPACE = re.compile(r"\\[,;:! ]|\$|\\quad")
# a step label before its value: "Day 1: 48", "D+1: 48", "t+2: 52" (a word, a step number, a colon) is no value
# ("hour 20: 30" names an hour of the day, whose value is no daily mean: not a step label; red team holdout_r4)
_STEP_LABEL = re.compile(r"\b(?!(?:hours?|hrs?|h)\b)[A-Za-z]{1,12}\s*[+-]?\s*\d{1,3}\s*:(?!\d)", re.IGNORECASE)
# the words that may stand right beside a forecast's number (red team holdout_r2): what names the forecast, its unit,
# its time and an estimate's adverb, and the class names of the standards (Korea, China, US EPA), with the Korean words
# for tomorrow, today, forecast, prediction, (daily) mean and concentration (AirKorea's own labels: "내일 일평균
# 초미세먼지 예보: 22㎍/㎥"; red team holdout_r10) and the same labels in Chinese, Japanese and Hindi (not 约 / 約
# "about", read as the sign ~ as Korean 약 is)
# ("预测值：22.5 微克/立方米", "पूर्वानुमान: 90"; red team holdout_r20); any other word there,
# in any language, may bound, negate, range or relabel the number ("moins de 60", "60 미만", "不是48", "AQI 60",
# "e.g. 48", "48 µg/m³ of ozone"), which the reading cannot tell from a forecast, so it is none. (Red team holdout_r58)
# The names of who settles a forecast among several (an ensemble's mean or median, a majority, a consensus, the
# committee's, panel's, chair's or judge's final, the samples it is taken over, "settles on", "agreed") name the
# forecast: "Ensemble mean: 22.7", "112.3 (the majority of the samples)", "Chair's final forecast: 58.4", "The
# committee settles on 112.3"; a proposal, a member's or a minority's value is another's word ("Model B: 24",
# "minority 58", "proposed 58") and stays a stranger
NEIGHBOUR_WORDS = frozenset("""
a an the of for is be will would should it its i my our we this that s at to in on and then my final answer value
values level levels concentration concentrations mean average avg daily day days tomorrow today tonight next hour
hours hourly step steps forecast forecasts forecasted forecasting predict predicted prediction predictions estimate
estimated estimates estimation expect expected expecting projected projection remain remains stay stays hold holds around about
approximately approx roughly circa ca near nearly likely probably most ugm micrograms microgram per cubic metre meter
good moderate bad very unhealthy hazardous sensitive groups fair poor excellent light heavy severe serious polluted
pollution category class index mean confidence confident smog haze dust
ensemble median majority consensus committee panel board chair judge verdict samples sample settles settled agreed
좋음 보통 나쁨 매우 매우나쁨 优 良 轻度污染 中度污染 重度污染 严重污染
내일 오늘 예보 예측 예상 일평균 평균 농도
预测 预测值 预报 预计 明天 今天 日均 日均值 平均 平均值 浓度
予測 予測値 予報 明日 今日 日平均 平均値 濃度
पूर्वानुमान अनुमान आज औसत दैनिक सांद्रता स्तर
""".split())
# "e.g." is one word (an abbreviation), not two letters; a word of an Indic script keeps its vowel signs and viramas
# (combining marks, which \w leaves out: "पूर्वानुमान" is one word, not the letters प र व न म न; red team holdout_r20)
_NEIGHBOUR_WORD = re.compile(r"(?:[^\W\d_]\.){2,}|[^\W\d_](?:[^\W\d_]|(?!\d)[\u0300-\u036f\u0900-\u0dff])*")
# a clause ends at , ; : ! ? a bracket or a line, and at a full stop that ends a sentence (not "e.g." or "2.5")
_CLAUSE_BREAK_BEFORE = re.compile(r"[,;:\n!?(\[]|\.(?=\s+[A-Z])")
# (red team holdout_r8) an em dash, or a spaced en dash, after the value opens a remark as a comma does ("50.4 µg/m³ —
# persistence, with slight overnight dispersion"); a bound there is read by _BOUND_AFTER, a second number counted
_CLAUSE_BREAK_AFTER = re.compile(r"[,;\n!?\]—]|\s–\s|\.(?=\s+[A-Z]|\s*\Z)")
_SCRIPTS = str.maketrans({"⁻": "-", "³": "3", "²": "2", "₂": "2", "₃": "3", "₅": "5", "₁": "1", "₀": "0"})


def _latex_plain(span: str) -> str:
    if "\\" not in span and "$" not in span:
        return span
    span = _LATEX_WRAPPER.sub(r"\1", without_emphasis(span)).replace("\\mu", "µ")
    return _LATEX_SPACE.sub(" ", span).replace("µ ", "µ").replace("{", "").replace("}", "")


def _stranger_beside(span: str, match: re.Match, named: frozenset[str] = frozenset()) -> str:
    """A word beside the number (the last 3 words of its clause before it, the first 3 after it) that is not one of
    :data:`NEIGHBOUR_WORDS` nor a single Latin letter (a label: "a 1", "b 2"), or "" (module docstring)."""
    before = span[max(0, match.start() - 60):match.start()]
    breaks = list(_CLAUSE_BREAK_BEFORE.finditer(before))
    label: list[str] = []
    if breaks and breaks[-1].group() == ":" and not before[breaks[-1].end():].strip():
        # "Peak hourly value tomorrow: 340": the label before a colon names what the number is (red team
        # holdout_r3), so its words (up to 6) are read as words beside the number; a word the prompt names (the
        # station, the city: "Jongno mean: 24"; "maximum" where the prompt asks for it) names what was asked
        head = before[:breaks[-1].start()]
        head = head[breaks[-2].end():] if len(breaks) > 1 else head
        label = [w for w in _NEIGHBOUR_WORD.findall(head.casefold())[-6:] if w not in named]
    before = before[breaks[-1].end():] if breaks else before
    after = span[match.end():match.end() + 60]
    stop = _CLAUSE_BREAK_AFTER.search(after)
    if stop and (condition := _CONDITION_AFTER.match(after, stop.end())):
        return condition.group(1)  # "96 µg/m³, if the inversion holds": the value under a condition (holdout_r49)
    after = after[:stop.start()] if stop else after
    words = label + _NEIGHBOUR_WORD.findall(before.casefold())[-3:] + _NEIGHBOUR_WORD.findall(after.casefold())[:3]
    return next((w for w in words if w not in NEIGHBOUR_WORDS and not (len(w) == 1 and w.isascii())), "")


_SPELLED_WORD = re.compile(r"[^\W\d_]+")
# (red team holdout_r49) a clause after the value's comma or dash that opens with a condition: the value holds only if
# it is met ("96 µg/m³, if the inversion holds", "28 — unless the front arrives"), as "If the rain band arrives: 11" does
_CONDITION_AFTER = re.compile(r"[^\S\n]*(if|unless|provided|providing|assuming|as[^\S\n]+long[^\S\n]+as|so[^\S\n]+long[^\S\n]+as|"
                              r"in[^\S\n]+case|only[^\S\n]+if|barring|depending)\b", re.IGNORECASE)


def _spelled_forecast(span: str) -> str:
    """``span`` with its number written in words as digits (``<answer>twenty-four</answer>``: 24) when it holds no
    digit and its words are one cardinal plus words that may stand beside a forecast (:data:`NEIGHBOUR_WORDS`); else
    unchanged (red team ``holdout_r3``)."""
    words = _SPELLED_WORD.findall(span.casefold())
    number = [w for w in words if w in _UNITS or w in _TENS or w in ("hundred", "thousand", "and", "point")]
    cardinal = set(number)  # (membership in a set: linear in the span's words)
    if not number or any(w not in NEIGHBOUR_WORDS and w not in cardinal for w in words):
        return span
    spans = [m for m in _SPELLED_WORD.finditer(span) if m.group().casefold() in cardinal]
    if not spans or any(w not in cardinal for w in _SPELLED_WORD.findall(span[spans[0].start():spans[-1].end()].casefold())):
        return span  # the cardinal's words must be one run
    value = spelled_number(number)
    if value is None:
        return span
    return f"{span[:spans[0].start()]}{value:g}{span[spans[-1].end():]}"


# "I'd say 27" / "I would say 27" states the writer's own figure (an opinion is a commitment, red team holdout_r4)
_OPINION = re.compile(r"\b(?:I'?d|I\s+would)\s+say\b", re.IGNORECASE)
# the value restated in mg/m³ in brackets after its µg/m³ form: "340 µg/m³ (0.34 mg/m³)" (red team holdout_r4)
_RESTATED = re.compile(r"([-+]?\d+\.?\d*)(\s*UGM\s*)\(\s*(?:=|≈|~)?\s*(\d*\.?\d+)\s*mg\s*/\s*m\s*\^?\s*3\s*\)", re.IGNORECASE)


# (red team holdout_r51) a value below 1 in mg/m³ is the forecast converted (0.063 mg/m³ is 63 µg/m³): a fraction of a
# milligram is how the unit writes an ambient level, while a µg/m³ figure slipped into mg/m³ is a whole number (76 mg/m3,
# 340 mg/m3, whose thousandfold would land in the top class) and stays another unit
_MILLIGRAM_FRACTION = re.compile(r"(?<![\d.])(0?\.\d+)\s*mg\s*(?:/\s*m\s*\^?\s*3|m\s*\^?\s*\{?-\s*3\}?)(?![\d])", re.IGNORECASE)


def _milligram_fractions_read(span: str) -> str:
    """``span`` with each value below 1 mg/m³ written in µg/m³ (:data:`_MILLIGRAM_FRACTION`): ``0.063 mg/m³`` is
    ``63 UGM``; ``76 mg/m3`` stays."""
    return _MILLIGRAM_FRACTION.sub(lambda m: f"{Decimal(m.group(1)) * 1000:f} UGM", span)


def _without_restatement(span: str) -> str:
    """``span`` without a bracketed mg/m³ form of the µg/m³ value before it, when the two agree to the written
    precision of the mg/m³ figure (``0.34`` for 340 ± 5); another value there stays (two numbers: no forecast)."""
    def drop(match: re.Match) -> str:
        value, restated = float(match.group(1)), match.group(3)
        decimals = len(restated.partition(".")[2])
        return f"{match.group(1)}{match.group(2)}" if abs(float(restated) * 1000 - value) <= 500 * 10 ** -decimals + 1e-9 \
            else match.group()
    return _RESTATED.sub(drop, span)


def _json_record(span: str) -> str:
    """A block that is one JSON object of scalars (``{"pm25_mean": 50}``) as the ``key: value`` lines it states, an
    underscore in a key read as a space (so the key is a label, its digits a pollutant's name, not a number); any
    other span unchanged (red team ``holdout_r5``)."""
    text = span.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return span
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return span
    if not isinstance(value, dict) or not value or not all(isinstance(v, (int, float, str)) and not isinstance(v, bool)
                                                           for v in value.values()):
        return span
    return "\n".join(f"{str(k).replace('_', ' ')}: {v}" for k, v in value.items())


# a bracket after the value that states the class it falls in by the class's range: "50 µg/m³ (Korean 'bad'
# class, 36–75)" (red team holdout_r5), or a likely range around the value inside that class: "11 µg/m³ (likely range
# 9–13, all within the good class)" (red team holdout_r45); read by :func:`_without_own_class_range`
_CLASS_RANGE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)([^()\d]{0,30})\(([^()\d]{0,60}?)(\d+(?:\.\d+)?)\s*(?:-|–|—|to)\s*(\d+(?:\.\d+)?)([^()\d]{0,30})\)")
_SCHEME_WORDS = frozenset("korea korean china chinese us epa who standard standards grade band range scale "
                          "within inside all plausible interval uncertainty".split())


def _without_own_class_range(span: str, edges: Sequence[float]) -> str:
    """``span`` without a bracketed range after its value that lies in the value's own class under ``edges``, in
    words that may stand beside a forecast or name the standard or a range ("within", "all", "plausible"):

    * the exact range of the class (lower edge as written or plus one: "36–75" for Korea's (35, 75]; 0 for the
      lowest class): it states the class the score reads (red team ``holdout_r5``);
    * a range around the value with both ends in its class: ``56 µg/m³ (likely 50–62)``, ``11 (likely range 9–13,
      all within the good class)`` (red team ``holdout_r45``): the writer's uncertainty, which cannot change the class
      the score reads (the same rule as :func:`~polyreward.verifiers.forecast_intervals.without_own_value_remarks`
      after the block).

    A range of another class, one that crosses a class edge (``48 (30–60)``) or leaves the value out stays (three
    numbers: no forecast)."""
    def drop(match: re.Match) -> str:
        value, low, high = float(match.group(1)), float(match.group(4)), float(match.group(5))
        c = pm_class(value, edges)
        lower = edges[c - 1] if c else 0.0
        # the range's unit in the bracket is the forecast's ("bad (36–75 µg/m³)"; red team holdout_r8)
        words = _NEIGHBOUR_WORD.findall(_UNIT.sub(" ugm ", match.group(3) + " " + match.group(6)).casefold())
        class_range = c < len(edges) and high == edges[c] and (lower <= low <= lower + 1 if c else low == 0)
        if (class_range or in_own_class(value, low, high, edges)) \
                and all(w in NEIGHBOUR_WORDS or w in _SCHEME_WORDS for w in words):
            return match.group(1) + match.group(2)
        return match.group()
    return _CLASS_RANGE.sub(drop, span) if edges and "(" in span else span


def _read_span(span: str) -> str:
    """``span`` with scientific notation, the daily mean's ``24-h`` name, LaTeX, superscripts, step labels, dates (ISO or a day and a month's name), thousands commas, decimal commas, a number in words, the unit (UGM) and
    pollutant names read; an opinion's lead-in (``I'd say``) read as a statement and a bracketed mg/m³ restatement of
    the value dropped (:func:`_without_restatement`)."""
    span = _json_record(span) if "{" in span else span
    span = scientific_read(span) if "10" in span else span
    span = DAILY_PERIOD.sub(" daily ", span) if "24" in span else span
    span = _OPINION.sub(" I expect ", span) if "say" in span.casefold() else span
    span = _DATE.sub(" ", span) if "-" in span or "/" in span or "." in span else span
    span = _MONTH_DATE.sub(" ", span) if any(ch.isupper() for ch in span) else span
    # (red team holdout_r10) a block that writes a decimal point, or no decimal comma, groups thousands with commas as
    # English does: "1,085 µg/m³" (Delhi's PM10) is one number, not 1 and 85 (number_locale's convention decides)
    span = drop_thousands_separators(span) if "," in span and convention(span) == DOT else span
    span = _DECIMAL_COMMA.sub(r"\1.\2", span) if "," in span else span
    span = _POLLUTANT_NAME.sub(" ", _UNIT.sub(" UGM ", _STEP_LABEL.sub(" : ", _latex_plain(span.translate(_SCRIPTS)))))
    span = without_restated_words(span)  # "27 (twenty-seven)": the value glossed in words is one value (holdout_r56)
    span = _milligram_fractions_read(_without_restatement(span)) if "mg" in span.casefold() else span
    return _spelled_forecast(span) if not any(ch.isdigit() for ch in span) else span


def _one_value(text: str) -> bool:
    """Whether ``text`` is one number and nothing else but its unit, in digits or in words (``88.4``, ``88.4
    µg/m³``, ``forty-two point three.``): a value a self-repair replaces or states (:func:`.span_corrections.repaired_span`)."""
    read = _read_span(text.strip().rstrip(".!").strip()).replace("UGM", " ").strip()
    return bool(re.fullmatch(r"[-+]?\d+(?:\.\d+)?", read))


def _stranger_in(span: str, where: str, named: frozenset[str] = frozenset()) -> str:
    """Why a number of ``span`` is no forecast for a word beside it (:func:`_stranger_beside`), or "". Run once the
    count is right, so on T numbers (the check costs a few searches per number)."""
    span = _read_span(span)
    for match in _NUMBER.finditer(span):
        if stranger := _stranger_beside(span, match, named):
            return f"{where} has {stranger!r} beside {match.group()}: a word that may bound, negate or relabel it"
    return ""


def _plain_numbers(span: str, where: str) -> tuple[list[float] | None, str]:
    """The numbers of ``span`` when each is a plain value in the expected unit, else (None, why)."""
    span = _read_span(span)
    numbers = []
    for match in _NUMBER.finditer(span):
        before, after = span[max(0, match.start() - 40):match.start()], span[match.end():match.end() + 40]  # linear
        # (speed) the three patterns read before the number each end in a letter or a sign, then spaces
        ends = before.rstrip()[-1:]
        read_before = ends.isalpha() or ends in _SIGNS_BEFORE
        if ((read_before and (_BOUND_SIGN.search(before) or _BOUND_WORDS.search(before))) or _OR_MORE_AFTER.match(after)
                or _BOUND_AFTER.search(_SENTENCE_REST.split(after, maxsplit=1)[0])):
            return None, f"{where} gives a bound or an approximation sign ({span.strip()[:60]!r}), not a forecast"
        if (read_before and _OFFSET_BEFORE.search(before)) or _OFFSET_AFTER.match(after):
            return None, f"{where} gives {match.group()} relative to another quantity ({span.strip()[:60]!r}), not a forecast"
        if _OTHER_UNIT.match(after):
            return None, f"{where} gives {match.group()} in another unit than µg/m3 ({after.strip()[:20]!r})"
        numbers.append(float(match.group()))
    return numbers, ""


_OPENER = {tag: re.compile(rf"<{tag}>", re.IGNORECASE) for tag in ANSWER_BLOCK_TAGS}
_CLOSER = {tag: re.compile(rf"</{tag}>", re.IGNORECASE) for tag in ANSWER_BLOCK_TAGS}


def cut_off(text: str) -> str:
    """The tag (``think`` or ``answer``) the text opens last and never closes, or "" (a complete completion)."""
    for tag in ANSWER_BLOCK_TAGS:
        opened = None
        for opened in _OPENER[tag].finditer(text):
            pass
        if opened is not None and _CLOSER[tag].search(text, opened.end()) is None:
            return tag
    return ""


def _names_another_pollutant(span: str, pollutants: Sequence[str]) -> str:
    """The pollutant ``span`` names that is not one of ``pollutants`` (the ones forecast), or "": "340 µg/m³ of PM10"
    is a PM10 forecast, no forecast of PM2.5 (the name is read only to know which quantity the number is)."""
    for match in _POLLUTANT_NAME.finditer(span):
        if pollutants and _pollutant_of(match.group()) not in pollutants:
            return match.group()
    return ""


def _lead_in(before: str) -> str:
    """The label leading into a block: the text before it on its line, else the line before it when that line ends in
    a colon ("PM10 forecast for 2019-03-08:\n<answer>141</answer>"), else ""."""
    lines = before.split("\n")
    lead = lines[-1]
    if not lead.strip() and len(lines) > 1:
        previous = next((line for line in reversed(lines[:-1]) if line.strip()), "")
        lead = previous if previous.rstrip().endswith(":") else ""
    return lead


def _names_only_another_pollutant(lead: str, pollutants: Sequence[str]) -> str:
    """The other pollutant a block's lead-in names, or "": "PM10 forecast for 2019-03-08:" leads into a PM10 forecast,
    none of PM2.5. A lead-in that also names a pollutant forecast ("PM10 runs higher; the PM2.5 forecast:") labels
    nothing else."""
    other = _names_another_pollutant(lead, pollutants)
    if not other or any(_pollutant_of(m.group()) in pollutants for m in _POLLUTANT_NAME.finditer(lead)):
        return ""
    return other


def _pollutant_of(name: str) -> str:
    return "pm10" if name.endswith("10") or name == "미세먼지" else "pm25"


def _committed_in_view(text: str, count: int, block_required: bool = False,
                       pollutants: Sequence[str] = (), named: frozenset[str] = frozenset(),
                       edges: Sequence[float] = (), given: frozenset[Fraction] = frozenset(),
                       days: frozenset[tuple[int, int]] = frozenset(),
                       asked: frozenset[tuple[int, int]] = frozenset(),
                       series_prompt: str = "") -> tuple[list[float] | None, str, bool]:
    """(numbers, why, found a candidate) of one reading of the completion; ``given``: the prompt's values, which the
    text after the block may quote as the forecast's reason (:func:`_quotes_observations`); ``asked``: the (month,
    day) the prompt asks the forecast for (:func:`~polyreward.verifiers.forecast_dates.asked_days`); ``series_prompt``:
    the prompt, whose labelled series tell the one asked from the others (:mod:`~polyreward.verifiers.forecast_series`)."""
    if tag := cut_off(text):
        return None, f"the completion is cut off: <{tag}> is never closed (its last number is a running value)", True
    series = asked_and_other_series(series_prompt) if series_prompt else ("", frozenset())
    blocks = list(blocks_not_across_reasoning(text, "answer", ignore_case=True))  # <Answer>27</Answer> is the block (red team holdout_r4)
    if not blocks and block_required:
        return None, "no <answer> block (answer_block: required; prose is not read)", False
    if blocks:
        start, end, span = blocks[0]
        where, after = "the <answer> block", text[end:]
        sentence = _SENTENCE_START.split(text[max(0, start - 200):start])[-1]
        if _NEGATION.search(sentence):  # "It is not <answer>43</answer>"
            return None, f"the sentence before {where} negates it ({sentence.strip()[-60:]!r})", True
        if led_as_one_case(text[max(0, start - 200):start]):  # "Otherwise: <answer>60</answer>" (red team holdout_r22)
            return None, f"the text before {where} leads into it as one case of several ({sentence.strip()[-60:]!r})", True
        lead = _lead_in(text[max(0, start - 200):start])
        # (red team holdout_r53) a label leading into the block that names another pollutant, series or day than the
        # one asked: "PM10 forecast for 2019-03-08:", "Guanyuan forecast:", "Forecast for Jan 18:"
        if other := (_names_only_another_pollutant(lead, pollutants) or names_only_other_series(lead, *series)
                     or lead_names_another_day(lead, asked)):
            return None, f"the label before {where} names it {other}'s, not the forecast asked", True
    else:
        lines = [line for line in text.splitlines() if line.strip()]
        span, where, after = (lines[-1] if lines else ""), "the last line", ""
        # the line's words after its last number are read as the words after a block are: "Persistence would give
        # 340, but I decline to forecast." and "Today's was 340; tomorrow's is unknown." withdraw the number
        found = list(_NUMBER.finditer(_POLLUTANT_NAME.sub(lambda m: " " * len(m.group()), _UNIT.sub(lambda m: " " * len(m.group()), span))))
        after = _UNIT.sub(" ", span[found[-1].end():]) if found else ""
    if blocks and count == 1:  # a block that is one structure: its forecast field (red team holdout_r46)
        span, why = _record_forecast(span, where)
        if why:
            return None, why, True
        # (red team holdout_r48) "28 — not the 35 ...", "Not 20, but 12", "28 (moderate, not bad)": the negation sets
        # another value or class aside; "102. I have no doubt it stays very bad.": the later sentence is read as text
        # after the block (forecast_contrasts)
        inner_at, read = text.find(span, start), without_observed_day(without_rejected_alternatives(span))  # holdout_r49
        read = repaired_span(read, _one_value)  # "Tomorrow's mean 31, scratch that, 88.4" (holdout_r59)
        if labels_observed_day(read):  # "Today's mean: 28 µg/m³. Tomorrow's depends on the wind." (holdout_r49)
            return None, f"{where} labels its number as an observed day's value (today / yesterday), not the forecast", True
        inner_at = inner_at if read != span else -1  # (a position only for a blanked span)
        span, remark = value_and_remark(read)
        after = f" {remark} {after}" if remark else after
    if other := _names_another_pollutant(span, pollutants):
        return None, f"{where} names {other}, not the pollutant forecast", True
    if count == 1 and (day := labelled_for_another_day(span, asked)):  # "<answer>Jan 18: 50</answer>" (holdout_r53)
        return None, f"{where} labels its number as {day}'s, not the day asked", True
    if count == 1 and (other_series := names_only_other_series(span, *series)):  # "<answer>Guanyuan: 124</answer>" (holdout_r53)
        return None, f"{where} labels its number as {other_series}'s, not the series asked", True
    span = without_relative_change(_without_own_class_range(span, edges)) if count == 1 else span
    span = without_spread_in_own_class(span, edges) if count == 1 else span  # "56 (±6)" inside 'bad' (holdout_r45)
    span = without_allowed_interval(span, named) if count == 1 else span  # "52 (80% interval 45–60)" (holdout_r10)
    numbers, why = _plain_numbers(span, where)
    if numbers is None:
        return None, why, True
    if not numbers:
        return None, f"{where} holds no number", False
    if len(numbers) != count:
        return None, f"{where} holds {len(numbers)} number(s), {count} expected (a hedge, range or table is no forecast)", True
    if not all(math.isfinite(x) for x in numbers):
        return None, f"{where} holds a non-finite number", True
    if why := _stranger_in(span, where, named):
        return None, why, True
    if _NEGATION.search(span):
        return None, f"{where} negates its number", True
    if foreign_after_value(_UNIT.sub(" ", span)):  # "340,8 – aber ... nicht als Prognose verwenden." (red team holdout_r27)
        return None, f"{where} goes on in another language after its number, which may withdraw it", True
    # "..., but 58 is my forecast.": the last clause restates it as the writer's (holdout_r34); "..., so the day should
    # again sit near 54.": a recount or a reason that lands on the block's value (holdout_r44)
    if blocks and count == 1 and (affirmed_at_end(after, numbers[0]) or restated_over_voices(after, numbers[0])
                                  or lands_on_block(after, numbers[0])):
        return numbers, "", True
    offset = text.find(span, blocks[0][0]) if blocks else text.rfind(span)
    if offset < 0 and blocks and count == 1 and inner_at >= 0 and len(span) <= len(text) - inner_at:
        offset = inner_at  # (the blanked span keeps the block's positions: forecast_contrasts)
    if any(qualified(text, offset + m.start(), offset + m.end()) for m in _NUMBER.finditer(span)):
        return None, f"{where} offers its number as a possibility, not a forecast ({span.strip()[:60]!r})", True
    if count == 1 and _AFTER_NUMBER.search(after):  # the class band or a change from today after the block (holdout_r19)
        after = without_stated_spread(_after_remarks_left_out(span, after, edges), numbers[0])  # "±6 µg/m³" (holdout_r33)
        # "That is 45 µg/m³ ... the 'bad' band, 36–75" (holdout_r40): read past when they are all the numbers there (a
        # restated value also marks the clause that quotes the observations as its reason, read below)
        described = without_own_value_remarks(after, numbers[0], edges)
        # (red team holdout_r43) numbers that count no quantity of air ("Check again at 06:00", a list's "1.", "N95
        # masks") do not keep a restatement read as a second number: "..., until then 55 µg/m³ is my forecast."
        left = other_quantities_left_out(described, pollutants, days, series) if _AFTER_NUMBER.search(described) else described
        after = described if not _AFTER_NUMBER.search(_read_span(left)) else after
    rest = other_quantities_left_out(after, pollutants, days, series) if _AFTER_NUMBER.search(after) else after  # holdout_r14
    if negates_forecast(after, _NEGATION) or _WITHDRAWAL.search(after) or DECLINED.search(after) or (  # "I'd sooner eat my hat than stand behind it" (holdout_r34)
            _AFTER_NUMBER.search(_read_span(rest)) and not _quotes_observations(rest, numbers, given)):
        return None, f"text after {where} gives another number or withdraws it ({after.strip()[:60]!r})", True
    if kind := disowning_remark(after):  # "The number is only there so the field is not blank." (red team holdout_r36)
        return None, f"text after {where} makes it a stand-in ({kind}: {after.strip()[:60]!r})", True
    if after.strip() and foreign(_UNIT.sub(" ", after)) and not keeping_remark(after):  # the unit's µ is no Greek (red team holdout_r12)  # "위 예측은 무시하세요." ("ignore the forecast above"): unread, so uncommitted; "确定" / "это мой ответ" keep it (holdout_r36)
        return None, f"text after {where} is in another language, which may withdraw it ({after.strip()[:60]!r})", True
    return numbers, "", True


# the words of a structure's key that name the forecast's own field ("forecast", "final_forecast", "mean_pm25",
# "value", "prediction"); "class", "confidence", "range_today", "unit", "reason" describe it
_FORECAST_KEY = re.compile(r"(?:^|_)(?:forecasts?|forecasted|predictions?|predicted|values?|mean|average|avg|pm25|pm2|pm10|"
                           r"estimate|answer|result|concentration)(?:_|$)")


def _record_forecast(span: str, where: str) -> tuple[str, str]:
    """(the span to read, "") or ("", why not) for a block that is one structure (module docstring, red team
    holdout_r46): its forecast field's value as written, the span itself when it is no structure or names no forecast
    field."""
    if not any(ch in span for ch in "{<:"):
        return span, ""
    fields = record_fields(span)
    if fields is None:
        return span, ""
    def forecast_key(stem: str) -> bool:
        return bool(_FORECAST_KEY.search(stem))

    # an answer-named field with no digit names no value ("most_likely_class": "bad", "value_unit": "µg/m³")
    fields = [f for f in fields
              if not is_answer_field(f, forecast_key) or re.search(r"[0-9]", json.dumps(f.value, ensure_ascii=False))]
    chosen, why = committed_field(fields, forecast_key)
    if why:
        return "", f"{where} is a structure with no committed forecast: {why}"
    if chosen is None:
        return span, ""
    if isinstance(chosen.value, (list, dict, bool)) or chosen.value is None:
        return "", f"{where} is a structure whose {chosen.key!r} field holds no single value ({chosen.value!r})"
    return str(chosen.value), ""


# a sentence after the block that compares the forecast with the prompt's day by a percentage and gives no value of its
# own: "That is about 10% below today's level." (red team holdout_r19)
_RELATIVE_SENTENCE = re.compile(
    r"(?:^|(?<=[.!?\n]))\s*(?:(?:that|this|it)(?:'s|’s|\s+is|\s+would\s+be)\s+)?(?:about|around|roughly|some|nearly|almost)?\s*"
    r"\d+(?:\.\d+)?\s*%\s+(?:above|below|(?:higher|lower|more|less)\s+than|(?:up|down)\s+(?:on|from))\s+"
    r"(?:today|yesterday|the\s+(?:previous|prior|last)\s+day)(?:'s|’s)?"
    r"(?:\s+(?:daily\s+)?(?:mean|average|level|value|reading|concentration))?\s*[.!]?\s*(?=$|\n)", re.IGNORECASE)


def _after_remarks_left_out(span: str, after: str, edges: Sequence[float]) -> str:
    """The text after a one-number block without what describes the forecast and forecasts nothing else (red team
    ``holdout_r19``): the value's own class band right after the block (``<answer>52</answer>, in the 'bad' band
    (36–75 µg/m³).``, read as inside the block by :func:`_without_own_class_range`) and a closing sentence comparing it
    with the prompt's day by a percentage (``That is about 10% below today's level.``, as
    :func:`without_relative_change` inside the block). Another band, a change with a value or a hedge stays."""
    value = span.strip()
    if edges and "(" in after and _NUMBER.fullmatch(value):
        joined = _without_own_class_range(value + after, edges)
        if joined != value + after and joined.startswith(value):
            after = joined[len(value):]
    return _RELATIVE_SENTENCE.sub(" ", after) if "%" in after else after


def _quotes_observations(after: str, numbers: list[float], given: frozenset[Fraction]) -> bool:
    """Whether the numbers after the block restate the forecast or quote the prompt's observations as its reason, each
    a plain value (:mod:`polyreward.verifiers.forecast_evidence`; red team ``holdout_r12``)."""
    if not given or _plain_numbers(after, "")[0] is None:
        return False
    read = _read_span(after)
    return quotes_observations(read, [(float(m.group()), m.start(), m.end()) for m in _NUMBER.finditer(read)], numbers, given)


# a later statement that withdraws the forecast without a number of its own ("just kidding", "ignore that")
# (red team holdout_r19) the verbs in their inflections: "(Withdrawn: ...)", "retracted", "ignore[sd]", "disregarded"
_WITHDRAWAL = re.compile(r"\b(?:kidding|joking|ignor(?:e[sd]?|ing)|disregard(?:s|ed|ing)?|scratch(?:ed)?|wrong|incorrect|false|invalid|"
                         r"mistaken|mistake|typo|erratum|retract(?:s|ed|ing|ion)?|"
                         r"withdraw(?:s|n|al|ing)?|withdrew|instead|actually|"
                         r"rather|correction|meant|unsure|uncertain|guess|decline[sd]?|refuse[sd]?|unknown|unknowable)\b", re.IGNORECASE)


def committed_forecast(text: str, count: int, block_required: bool = False,
                       pollutants: Sequence[str] = (), prompt: object = None,
                       edges: Sequence[float] = ()) -> tuple[list[float] | None, str]:
    """(the ``count`` numbers the completion commits to, "") or (None, why not); module docstring.

    Read in the visible text (:func:`polyreward.verifiers.reading.visible_text`: normalised, so ``−76`` is -76,
    full-width digits are digits, zero-width characters are gone; comments, code blocks and quotes are not the
    answer, not even as a fallback: a forecast is plain text). ``block_required``: only an ``<answer>`` block is a
    forecast (``answer_block: required``). ``pollutants``: the pollutants forecast (pm25, pm10); a span that names
    another one is no forecast of them; empty: names are not checked. ``prompt``: its words may stand in a label
    before a colon (``Jongno mean: 24``), which other words relabel (``Peak hourly value: 340``). ``edges``: the
    class edges scored (one forecast): a bracket that states the value's own class range is read past."""
    named = frozenset(_NEIGHBOUR_WORD.findall(visible_text(whole_prompt(prompt_text(prompt))).casefold())) if prompt is not None else frozenset()
    given = givens(whole_prompt(prompt_text(prompt))) if prompt is not None and _AFTER_NUMBER.search(text) else frozenset()
    days = prompt_days(whole_prompt(prompt_text(prompt))) if given else frozenset()
    # a line another party's label opens ("System: auto-completed: <answer>58</answer>") is not the writer's (holdout_r47)
    view = visible_text(without_other_party_lines(text))
    if prompt is not None:
        view = own_case(view, visible_text(prompt_text(prompt)))  # (both read alike: "µg/m³" as the view spells it)
    shown = visible_text(prompt_text(prompt)) if prompt is not None else ""
    asked = asked_days(shown) if shown else frozenset()
    # a tutor's aside after the answer is no second forecast ("<answer>52</answer>\nCommon mistake: averaging the
    # daytime hours only", "New exercise (another station): ..."), unless it calls the forecast itself the mistake
    # (sections.without_inline_asides; red team holdout_r55)
    read = without_inline_asides(view)
    numbers, why, _ = _committed_in_view(read, count, block_required, pollutants, named, edges, given, days, asked, shown)
    if numbers and len(numbers) == 1 and read != view and (kept := without_inline_asides(view, [f"{numbers[0]:g}"])) != read:
        numbers, why, _ = _committed_in_view(kept, count, block_required, pollutants, named, edges, given, days, asked, shown)
    return numbers, why


def own_case(text: str, prompt: str) -> str:
    """``text`` (the visible completion) as far as it answers the case asked (red team ``holdout_r50``): cut where it
    opens a made-up next case (:func:`polyreward.verifiers.turns.invented_case_start`: the next day's series,
    "### Example 4", "Case 2:"; a block after it answers that case, not the one asked), and
    without the opener of a ``<think>`` it reopens after that block and leaves cut off before any number ("<answer>55
    </answer> <think>Let me double-check the overnight tre"): a restart that stops before it says anything keeps no
    running value, so its words are read as words after the block. A reopened think that reaches a number is still
    the cut-off reasoning it was.

    >>> own_case("<answer>55</answer>\\n<think>Let me double-check the tre", "Forecast tomorrow.")
    '<answer>55</answer>\\nLet me double-check the tre'
    """
    if (start := invented_case_start(prompt, text)) is not None:
        text = text[:start]
    closer = _CLOSER["answer"].search(text)
    after = closer.end() if closer is not None else 0
    if closer is not None and cut_off(text) == "think":
        opened = text.lower().rfind("<think>")
        if opened >= after and not _NUMBER.search(text, opened):
            text = text[:opened] + text[opened + len("<think>"):]
    return text


def forecast_values(text: str, count: int) -> list[float] | None:
    """The ``count`` forecast numbers the completion commits to, or None (:func:`committed_forecast`)."""
    return committed_forecast(text, count)[0]


class ForecastClassCost(RolloutReward):
    """FAKER-Air class reward: α·[same high/low side] + β·[same class] − γ·[false alarm], step-weighted mean.

    Args:
        observed_column: column holding the observed values, one per forecast step
        pollutant: which pollutant's class thresholds apply (pm25 or pm10)
        thresholds: class edges: a named standard (korea, us_epa, us_epa_2012, china) or an increasing list of
            numbers
        high_class: the first class counted as high (default 2, bad or worse) for the coarse and false-alarm terms
        alpha: weight of the coarse term (forecast and observation agree on high or not)
        beta: weight of the exact-class term (same class)
        gamma: penalty of a false alarm (high forecast, observation not high)
        step_weights: weight of each forecast step (FAKER-Air build_step_weights): linear, uniform, fixed, exp,
            sigmoid or none
        step_weight_base: base b of the step weights
        step_weight_gamma: decay of the step weights per step
        pollutants: several pollutants scored together, each with its weight ({pm25: 1.0, pm10: 0.3}); null:
            pollutant alone
        observed_columns: with pollutants, the observed column of each (default observed_<pollutant>)
        answer_block: optional reads the <answer> block or else the last line of prose; required reads only the
            block (for prompts that ask for one)
    """

    type_name = "forecast_class_cost"
    exactness = "exact"
    description = "FAKER-Air class-wise PM forecast reward (Korean / US EPA / China / custom class thresholds)"
    score_range = (-0.1, 1.0)
    probe_strategies = ("number_hedge", "number_candidates", "non_finite", "prompt_numbers", "negated_number")
    probe_genuine = "forecast"

    def __init__(
        self,
        name: str | None = None,
        weight: float = 1.0,
        observed_column: str = "observed",
        pollutant: str = "pm25",
        thresholds: str | Sequence[float] = "korea",
        high_class: int = 2,
        alpha: float = 0.0,
        beta: float = 1.0,
        gamma: float = 0.1,
        step_weights: str = "linear",
        step_weight_base: float = 0.75,
        step_weight_gamma: float = 0.9,
        pollutants: Mapping[str, float] | None = None,
        observed_columns: Mapping[str, str] | None = None,
        answer_block: str = "optional",
    ) -> None:
        super().__init__(name, weight)
        column_name("observed_column", observed_column)
        one_of("pollutant", pollutant, POLLUTANTS)
        if isinstance(thresholds, str) and thresholds not in THRESHOLDS:
            raise ValueError(f"thresholds must be one of {', '.join(THRESHOLDS)} or a list of increasing numbers, got {thresholds!r}")
        self.edges = class_edges(thresholds, pollutant)
        if isinstance(high_class, bool) or not isinstance(high_class, int) or not 1 <= high_class <= len(self.edges):
            raise ValueError(f"high_class must be an integer in 1..{len(self.edges)} (number of classes - 1), got {high_class!r}")
        for key, value in (("alpha", alpha), ("beta", beta), ("gamma", gamma)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ValueError(f"{key} must be a finite number >= 0, got {value!r}")
        one_of("step_weights", step_weights, STEP_WEIGHTS)
        for key, value in (("step_weight_base", step_weight_base), ("step_weight_gamma", step_weight_gamma)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ValueError(f"{key} must be a finite number >= 0, got {value!r}")
        self.observed_column, self.pollutant, self.high_class = observed_column, pollutant, high_class
        self.alpha, self.beta, self.gamma = float(alpha), float(beta), float(gamma)
        self.step_weights = step_weights
        self.step_weight_base, self.step_weight_gamma = float(step_weight_base), float(step_weight_gamma)
        self.pollutants, self.observed_columns = self._pollutant_columns(pollutants, observed_columns, thresholds)
        self.pollutant_edges = {v: class_edges(thresholds, v) if isinstance(thresholds, str) else self.edges for v in self.pollutants}
        self.thresholds = thresholds if isinstance(thresholds, str) else list(self.edges)
        self.score_range = (-self.gamma, self.alpha + self.beta)
        self.answer_block = one_of("answer_block", answer_block, ANSWER_BLOCK)

    def _pollutant_columns(self, pollutants: Any, observed_columns: Any, thresholds: Any) -> tuple[dict[str, float], dict[str, str]]:
        """{pollutant: w_v} and {pollutant: column}; one pollutant (w = 1, ``observed_column``) by default."""
        if pollutants is None:
            if observed_columns is not None:
                raise ValueError("observed_columns needs pollutants (a mapping such as {pm25: 1.0, pm10: 0.3})")
            return {self.pollutant: 1.0}, {self.pollutant: self.observed_column}
        if not isinstance(pollutants, Mapping) or not pollutants:
            raise ValueError(f"pollutants must map pollutant names to weights, e.g. {{pm25: 1.0, pm10: 0.3}}; got {pollutants!r}")
        if not isinstance(thresholds, str):
            raise ValueError("pollutants needs a named thresholds scheme (a custom list of edges is for one pollutant)")
        weights = {}
        for name, w in pollutants.items():
            one_of("pollutants key", name, POLLUTANTS)
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w < 0:
                raise ValueError(f"pollutants[{name!r}] must be a finite weight >= 0, got {w!r}")
            weights[name] = float(w)
        columns = dict(observed_columns or {})
        unknown = sorted(set(columns) - set(weights))
        if unknown:
            raise ValueError(f"observed_columns names pollutant(s) {unknown} that are not in pollutants {sorted(weights)}")
        return weights, {v: column_name(f"observed_columns[{v!r}]", columns.get(v, f"observed_{v}")) for v in weights}

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(self.observed_columns.values())

    @property
    def event_threshold(self) -> float:
        """The value above which a forecast counts as "high" (the edge below ``high_class``)."""
        return self.edges[self.high_class - 1]

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        observed: dict[str, list[float]] = {}
        for v, column in self.observed_columns.items():
            values = observed_values(row.get(column))
            if values is None:
                return Scored(None, f"no observation in column {column!r} (empty or NaN)")
            observed[v] = values
        if not any(math.isfinite(o) and o > 0 for values in observed.values() for o in values):
            return Scored(math.nan, "no valid observation (NaN or <= 0)")
        count = sum(len(values) for values in observed.values())
        numbers, why = committed_forecast(completion, count, self.answer_block == "required", tuple(self.pollutants),
                                          row.get("prompt"), self.pollutant_edges[next(iter(self.pollutants))] if count == 1 else ())
        if numbers is None:
            return Scored(self.score_range[0], f"no committed forecast: {why}")
        total = weight_sum = 0.0
        counts = {"hits": 0.0, "misses": 0.0, "false_alarms": 0.0, "correct_negatives": 0.0, "exact_class": 0.0}
        offset = 0
        for v, values in observed.items():
            predicted, offset = numbers[offset:offset + len(values)], offset + len(values)
            steps = step_weights(len(values), self.step_weights, self.step_weight_base, self.step_weight_gamma)
            for p, o, s in zip(predicted, values, steps):
                if not (math.isfinite(o) and o > 0):  # FAKER-Air's valid mask: GT > 0
                    continue
                cp, co = pm_class(p, self.pollutant_edges[v]), pm_class(o, self.pollutant_edges[v])
                hp, ho = cp >= self.high_class, co >= self.high_class
                r = self.alpha * (hp == ho) + self.beta * (cp == co) - self.gamma * (hp and not ho)
                total += s * self.pollutants[v] * r
                weight_sum += s * self.pollutants[v]
                key = "hits" if hp and ho else "misses" if ho else "false_alarms" if hp else "correct_negatives"
                counts[key] += 1
                counts["exact_class"] += cp == co
        valid = counts["hits"] + counts["misses"] + counts["false_alarms"] + counts["correct_negatives"]
        reason = f"{int(counts['exact_class'])}/{int(valid)} exact class, {int(counts['false_alarms'])} false alarm(s), {int(counts['misses'])} miss(es)"
        # the source divides by max(Σ s_t w_v, 1e-6): every weight 0 gives 0
        return Scored(total / max(weight_sum, 1e-6), reason, counts)
