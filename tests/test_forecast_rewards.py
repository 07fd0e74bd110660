"""forecast_class_cost (FAKER-Air): class edges, hand-computed reward table, NaN observations, POD/FAR/POFD/CSI/F1,
and the real Beijing PM2.5 data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.forecast import ForecastClassCost, forecast_values, observed_values
from polyreward.runners.packaged_datasets import load_beijing_pm25
from polyreward.verifiers.forecast import Contingency, class_edges, contingency, metrics_from_details, pm_class, verification_metrics

NAN = float("nan")


@pytest.fixture(scope="module")
def beijing_rows():
    from clinical_helpers import beijing_csv

    return load_beijing_pm25(beijing_csv())


@pytest.mark.parametrize(
    "value,scheme,pollutant,expected",
    [
        (15, "korea", "pm25", 0), (15.01, "korea", "pm25", 1), (35, "korea", "pm25", 1), (36, "korea", "pm25", 2),
        (75, "korea", "pm25", 2), (76, "korea", "pm25", 3), (-3, "korea", "pm25", 0), (math.inf, "korea", "pm25", 3),
        (30, "korea", "pm10", 0), (81, "korea", "pm10", 2), (151, "korea", "pm10", 3),
        (9.0, "us_epa", "pm25", 0), (9.1, "us_epa", "pm25", 1), (35.5, "us_epa", "pm25", 2), (225.5, "us_epa", "pm25", 5),
        (12.1, "us_epa_2012", "pm25", 1), (155, "us_epa", "pm10", 2), (115.5, "china", "pm25", 3),
    ],
)
def test_classes(value, scheme, pollutant, expected):
    assert pm_class(value, class_edges(scheme, pollutant)) == expected


# Korea PM2.5 edges 15/35/75, high = class >= 2; released defaults α = 0, β = 1, γ = 0.1
TABLE = [
    ("<answer>10</answer>", 12, 1.0),
    ("<answer>15</answer>", 15.5, 0.0),  # 0 vs 1: wrong class, no alarm
    ("<answer>36</answer>", 30, -0.1),  # false alarm
    ("<answer>80</answer>", 50, 0.0),  # both high, wrong class
    ("<answer>20</answer>", 100, 0.0),  # miss: not penalised
    ("<answer>35</answer>", 35, 1.0),
    ("<answer>35.01</answer>", 35, -0.1),
    ("<answer>-5</answer>", 3, 1.0),
    # committed-answer semantics: exactly T finite numbers, no negation, else no forecast: the minimum -γ (-0.1), never
    # more than a committed wrong forecast
    ("<answer>1e999</answer>", 100, -0.1),  # infinity is no forecast (a first-number reader says "very bad": 1.0)
    ("<answer>-1e999</answer>", 3, -0.1),
    ("<answer>42 (class 2)</answer>", 40, -0.1),  # two numbers where one is expected
    ("<answer>400 (or maybe 20)</answer>", 400, -0.1),  # hedge
    ("<answer>20 or 400</answer>", 400, -0.1),
    ("<answer>20-30</answer>", 25, -0.1),  # a range
    ("<answer>282, 282, 303, 349, 407</answer>", 282, -0.1),  # a pasted table of the prompt's values
    ("<answer>not 40</answer>", 40, -0.1),
    ("<answer>It won't be 40</answer>", 40, -0.1),
    ("maybe 40 or 50 ug/m3", 60, -0.1),  # no block: the last line, two numbers
    ("Today was 282 and 300.\nTomorrow: 50 ug/m3", 60, 1.0),  # no block: the last line commits to one number
    ("PM2.5 will be 50 µg/m³.", 60, 1.0),  # the pollutant's name is not a number
    ("<answer>PM10 40</answer>", 40, -0.1),  # a PM10 forecast is no PM2.5 forecast (red team holdout_r1)
    ("no idea", 40, -0.1),
    ("<answer></answer> 40", 40, -0.1),  # an empty block holds no number
    ("<answer>10</answer>", "12", 1.0),  # numeric text (CSV cell)
]


@pytest.mark.parametrize("completion,observed,expected", TABLE)
def test_reward_table(completion, observed, expected):
    assert ForecastClassCost()(completions=[completion], observed=[observed]) == [pytest.approx(expected)]


@pytest.mark.parametrize(
    "observed,reason",
    [(None, "no observation"), (NAN, "no observation"), (0, "no valid observation"), (-4, "no valid observation"),
     ("abc", "no valid observation"), ([NAN, None], "no valid observation")],
)
def test_invalid_observations(observed, reason):
    out = ForecastClassCost().evaluate([None], ["<answer>40</answer>"], observed=[observed])
    score = out.scores[0]
    assert score is None or math.isnan(score)
    assert reason in out.reasons[0]


@pytest.mark.parametrize(
    "kwargs,completion,observed,expected",
    [
        ({}, "<answer>100, 20</answer>", [NAN, 20], 1.0),  # the NaN step is skipped
        ({}, "<answer>10, 10</answer>", [10, 50], 1 / 1.75),  # linear step weights 1.0, 0.75
        ({"step_weights": "none"}, "<answer>10, 10</answer>", [10, 50], 0.5),
        ({"step_weights": "uniform"}, "<answer>10, 10, 10</answer>", [10, 50, 50], 1 / 2.5),  # FAKER-Air: uniform = fixed 1, .75, .75
        ({"step_weights": "fixed"}, "<answer>10, 10, 10</answer>", [50, 10, 10], 1.5 / 2.5),
        ({"step_weights": "exp"}, "<answer>10, 10, 10</answer>", [50, 10, 10], (0.9 + 0.81) / 2.71),
        ({}, "<answer>[10, 10, 60]</answer>", "[10, 12, 60]", (1 + 0.875 + 0.75) / 2.625),
        ({}, "<answer>10</answer>", [10, 50], -0.1),  # too few numbers: no committed forecast, the minimum
        ({"alpha": 0.5, "beta": 0.5, "gamma": 0.0}, "<answer>80</answer>", 50, 0.5),  # CLI defaults: coarse only
        ({"alpha": 0.5, "beta": 0.5, "gamma": 0.0}, "<answer>36</answer>", 30, 0.0),
        ({"alpha": 0.5, "beta": 0.5, "gamma": 0.0}, "<answer>10</answer>", 12, 1.0),
        ({"alpha": 1.0, "beta": 1.0, "gamma": 1.0}, "<answer>36</answer>", 30, -1.0),
        ({"pollutant": "pm10"}, "<answer>79</answer>", 31, 1.0),
        ({"thresholds": "us_epa"}, "<answer>9.0</answer>", 9.05, 0.0),
        ({"thresholds": [50], "high_class": 1}, "<answer>60</answer>", 40, -0.1),
        ({"high_class": 3}, "<answer>80</answer>", 50, -0.1),  # high = "very bad" only: 80 (class 3) vs 50 (class 2) is an alarm
        ({"high_class": 3}, "<answer>60</answer>", 50, 1.0),
    ],
)
def test_options(kwargs, completion, observed, expected):
    reward = ForecastClassCost(**kwargs)
    assert reward(completions=[completion], observed=[observed]) == [pytest.approx(expected)]


def test_metrics_hand_computed():
    # pred > 35 : T T T F F ; obs > 35 : T T F F T  -> TP 2, FP 1, TN 1, FN 1
    table = contingency([40, 50, 60, 10, 10], [50, 60, 10, 20, 70], 35)
    assert table == Contingency(tp=2, fn=1, fp=1, tn=1)
    m = verification_metrics(table)
    assert m["POD"] == pytest.approx(2 / 3)
    assert m["FAR"] == pytest.approx(1 / 3)  # false alarm RATIO: FP / (TP + FP)
    assert m["POFD"] == pytest.approx(1 / 2)  # false alarm RATE: FP / (FP + TN)
    assert m["CSI"] == pytest.approx(2 / 4)
    assert m["F1"] == pytest.approx(4 / 6)
    assert m["bias"] == pytest.approx(1.0)
    assert contingency([40, 40], [NAN, 0], 35) == Contingency()  # invalid observations skipped
    empty = verification_metrics(Contingency(tn=3))
    assert math.isnan(empty["POD"]) and math.isnan(empty["FAR"]) and empty["POFD"] == 0.0
    assert verification_metrics(Contingency(tn=3), zero_division=0.0)["POD"] == 0.0


def test_metrics_from_reward_details():
    reward = ForecastClassCost()
    out = reward.evaluate([None] * 6, ["<answer>40</answer>", "<answer>50</answer>", "<answer>60</answer>", "<answer>10</answer>", "<answer>10</answer>", "?"],
                          observed=[50, 60, 10, 20, 70, NAN])
    m = metrics_from_details(out.details)
    assert (m["TP"], m["FP"], m["TN"], m["FN"]) == (2, 1, 1, 1)
    assert m["POD"] == pytest.approx(2 / 3) and m["POFD"] == pytest.approx(0.5)
    assert reward.event_threshold == 35.0


def test_parsing_helpers():
    assert observed_values("[1, null, \"x\", 3]")[0] == 1.0 and math.isnan(observed_values("[1, null, \"x\", 3]")[1])
    assert math.isnan(observed_values(True)[0])
    assert forecast_values("<answer>1, 2</answer> Done.", 2) == [1.0, 2.0]
    assert forecast_values("<answer>1, 2</answer> 9", 2) is None  # a later number withdraws the block's
    assert forecast_values("<answer>1, 2, 3</answer> 9", 2) is None
    assert forecast_values("a 1 b 2 c 3", 2) is None
    assert forecast_values("a 1\nb 2 c 3", 2) == [2.0, 3.0]
    assert forecast_values("10 µg/m3", 1) == [10.0]


@pytest.mark.parametrize(
    "kwargs,key",
    [({"pollutant": "o3"}, "pollutant"), ({"thresholds": "japan"}, "thresholds"), ({"thresholds": [35, 15]}, "increasing"),
     ({"thresholds": []}, "thresholds"), ({"high_class": 4}, "high_class"), ({"high_class": 0}, "high_class"),
     ({"alpha": -0.1}, "alpha"), ({"gamma": math.inf}, "gamma"), ({"step_weights": "cosine"}, "step_weights"), ({"observed_column": ""}, "observed_column"),
     ({"pollutants": {"o3": 1.0}}, "pollutants"), ({"pollutants": {"pm25": -1}}, "pollutants"),
     ({"observed_columns": {"pm25": "x"}}, "observed_columns"), ({"pollutants": {"pm25": 1.0}, "thresholds": [50], "high_class": 1}, "thresholds")],
)
def test_bad_params(kwargs, key):
    with pytest.raises(ValueError, match=key):
        ForecastClassCost(**kwargs)


def test_score_range_follows_weights():
    assert ForecastClassCost().score_range == (-0.1, 1.0)
    assert ForecastClassCost(alpha=0.5, beta=0.5, gamma=0.3).score_range == (-0.3, 1.0)


def test_real_beijing_pm25(beijing_rows):
    """Real data: 1,825 next-day rows; persistence forecasts score in range; the truth scores 1."""
    assert len(beijing_rows) == 1825
    missing = [r for r in beijing_rows if r["observed"] is None]
    assert 0 < len(missing) < 200
    rows = [r for r in beijing_rows if r["observed"] is not None][:500]
    truth = [f"<answer>{r['observed']}</answer>" for r in rows]
    reward = ForecastClassCost()
    assert reward(completions=truth, observed=[r["observed"] for r in rows]) == [1.0] * len(rows)
    persistence = []
    for r in rows:
        seen = [v for v in r["history"] if v is not None] or [0.0]
        persistence.append(f"<answer>{sum(seen) / len(seen):.1f}</answer>")
    out = reward.evaluate([None] * len(rows), persistence, observed=[r["observed"] for r in rows])
    assert all(-0.1 <= s <= 1.0 for s in out.scores)
    m = metrics_from_details(out.details)
    assert m["TP"] + m["FN"] + m["FP"] + m["TN"] == len(rows)
    # persistence on the first 500 valid days (2010-2011): pinned counts, metrics from their definitions
    assert (m["TP"], m["FN"], m["FP"], m["TN"]) == (332, 63, 60, 45)
    assert m["POD"] == pytest.approx(332 / 395) and m["FAR"] == pytest.approx(60 / 392) and m["POFD"] == pytest.approx(60 / 105)
    assert m["CSI"] == pytest.approx(332 / 455) and m["F1"] == pytest.approx(664 / 787)


# ---------------------------------------------------------------- FAKER-Air's joint normalisation, re-typed
def faker_build_step_weights(T, mode="fixed", base=0.75, gamma=0.9):
    """kaist-cvml/FAKER-Air aurora/utils.py build_step_weights (normalised to sum T, as there)."""
    torch = pytest.importorskip("torch")
    if T == 1:
        w = torch.tensor([1.0])
    elif mode == "fixed":
        w = torch.tensor([1.0] + [base] * (T - 1))
    elif mode == "linear":
        w = torch.linspace(1.0, base, steps=T)
    elif mode == "exp":
        w = torch.tensor([gamma**i for i in range(T)])
        w[0] = 1.0
    else:  # sigmoid
        k = max(1e-3, gamma)
        s = torch.sigmoid(k * torch.linspace(-2.0, 2.0, steps=T))
        s = (s - s.min()) / (s.max() - s.min() + 1e-8)
        w = base + (1.0 - base) * s
    return w * (T / w.sum())


def faker_cls_reward(pred, gt, weights, sw, coarse_w=0.0, exact_w=1.0, fa_penalty=0.1):
    """aurora/rl/reward.py cls_reward_over_rollout with one pixel per (t, v): Σ s_t w_v r_{t,v} / Σ s_t w_v."""
    torch = pytest.importorskip("torch")
    bounds = {"pm25": [0.0, 15.0, 35.0, 75.0, 800.0], "pm10": [0.0, 30.0, 80.0, 150.0, 1000.0]}
    num = den = torch.tensor(0.0, dtype=torch.float64)
    for t in range(len(sw)):
        for var, w in weights.items():
            g, p = torch.tensor([gt[var][t]], dtype=torch.float64), torch.tensor([pred[var][t]], dtype=torch.float64)
            m = g > 0
            if not m.any():
                continue
            edges = torch.tensor(bounds[var][1:-1], dtype=torch.float64)
            gc, pc = torch.bucketize(g, edges), torch.bucketize(p, edges)
            r = coarse_w * ((gc >= 2) == (pc >= 2)).double() + exact_w * (gc == pc).double() - fa_penalty * ((pc >= 2) & (gc < 2)).double()
            num = num + sw[t].clamp_min(0.0) * w * r[m].mean()
            den = den + sw[t].clamp_min(0.0) * w
    return float(num / den.clamp_min(1e-6))


@settings(max_examples=60, derandomize=True, deadline=None, database=None)
@given(st.integers(1, 6), st.sampled_from(["uniform", "linear", "exp", "sigmoid"]), st.integers(0, 2**16))
def test_two_pollutants_are_normalised_jointly_as_faker_air(steps, mode, seed):
    rng = np.random.default_rng(seed)
    gt = {v: rng.choice([0.0, 5.0, 20.0, 40.0, 90.0, 200.0], steps).tolist() for v in ("pm25", "pm10")}
    pred = {v: rng.choice([5.0, 20.0, 40.0, 90.0, 200.0], steps).tolist() for v in ("pm25", "pm10")}
    if not any(x > 0 for v in gt for x in gt[v]):
        gt["pm25"][0] = 10.0
    weights = {"pm25": 1.0, "pm10": 0.3}
    expected = faker_cls_reward(pred, gt, weights, faker_build_step_weights(steps, "fixed" if mode == "uniform" else mode))
    reward = ForecastClassCost(pollutants=weights, step_weights=mode)
    completion = "<answer>" + ", ".join(str(x) for x in pred["pm25"] + pred["pm10"]) + "</answer>"
    got = reward(completions=[completion], observed_pm25=[gt["pm25"]], observed_pm10=[gt["pm10"]])[0]
    assert got == pytest.approx(expected, abs=1e-6)  # the source builds step weights in float32


def test_joint_normalisation_differs_from_separate_weighted_rewards():
    reward = ForecastClassCost(pollutants={"pm25": 1.0, "pm10": 0.3})
    assert reward.columns == ("observed_pm25", "observed_pm10")
    got = reward(completions=["<answer>10, 200</answer>"], observed_pm25=[12], observed_pm10=[20])[0]
    assert got == pytest.approx(0.97 / 1.3)  # (1.0 * 1 + 0.3 * -0.1 false alarm) / (1.0 + 0.3)
    separate = 1.0 * ForecastClassCost()(completions=["<answer>10</answer>"], observed=[12])[0] + 0.3 * ForecastClassCost(
        pollutant="pm10")(completions=["<answer>200</answer>"], observed=[20])[0]
    assert separate == pytest.approx(0.97)


# A cut-off completion is no forecast; answer_block: required reads only the block (the shipped example's prompts ask
# for one), while the default keeps the prose style.
CUT_OFF_OR_PROSE = [
    ("<think>Stagnant air keeps the haze. So far the running value is 76", "optional", -0.1),
    ("<think>Stagnant air keeps the haze. So far the running value is 76", "required", -0.1),
    ("<answer>76", "optional", -0.1),
    ("<think>Haze.</think>\n<answer>76", "optional", -0.1),
    ("<answer>20</answer> then <answer>76", "optional", -0.1),
    (" So far the running value is 76", "required", -0.1),
    ("I expect roughly 76 µg/m3 tomorrow.", "required", -0.1),
    ("I expect roughly 76 µg/m3 tomorrow.", "optional", 1.0),
    ("<think>Stagnant air keeps the haze.</think>\nI expect roughly 76 µg/m3 tomorrow.", "optional", 1.0),
    ("<answer>76</answer>", "required", 1.0),
    ("<think>Stagnant air keeps the haze.</think>\n<answer>76 µg/m3</answer>", "required", 1.0),
    ("<think>The answer goes in a block; no running value yet.</think>\n<answer>76</answer>", "required", 1.0),
    ("<THINK>Haze.</THINK><answer>76</answer>", "required", 1.0),
]


@pytest.mark.parametrize("completion,answer_block,expected", CUT_OFF_OR_PROSE)
def test_cut_off_and_answer_block(completion, answer_block, expected):
    reward = ForecastClassCost(answer_block=answer_block)
    assert reward(completions=[completion], observed=[80.0]) == [pytest.approx(expected)]


def test_answer_block_is_validated():
    with pytest.raises(ValueError, match="answer_block"):
        ForecastClassCost(answer_block="sometimes")


def test_shipped_example_requires_the_block():
    from pathlib import Path

    import yaml

    config = yaml.safe_load((Path(__file__).parents[1] / "examples/forecast/config.yaml").read_text())
    assert all(reward.get("answer_block") == "required" for reward in config["rewards"])


@given(st.text(max_size=120))
@settings(max_examples=150, deadline=None)
def test_an_unclosed_think_is_never_a_forecast(reasoning):
    completion = "<think>" + reasoning.replace("</think>", "").replace("</THINK>", "") + " So far the running value is 76"
    if "</think>" in completion.lower():
        return
    assert ForecastClassCost()(completions=[completion], observed=[80.0]) == [pytest.approx(-0.1)]


# A forecast offered as a possibility is no forecast (the same reading of a qualified answer as math and choice);
# an estimate the writer states, with "roughly", "most likely" or "probably", is one.
QUALIFIED = [
    ("<think>Haze builds.</think>\n<answer>maybe 76</answer>", -0.1),
    ("<think>Haze builds.</think>\nIt might be <answer>76</answer>", -0.1),
    ("<think>Haze builds.</think>\n<answer>76 (just a guess)</answer>", -0.1),
    ("<think>Haze builds.</think>\n<answer>76, though I could be wrong</answer>", -0.1),
    ("<think>Haze builds.</think>\nMy guess: <answer>76</answer>", -0.1),
    ("<think>Haze builds.</think>\n<answer>76?</answer>", -0.1),
    ("<think>Haze builds.</think>\n<answer>roughly 76</answer>", 1.0),
    ("<think>Haze builds.</think>\n<answer>most likely 76 µg/m3</answer>", 1.0),
    ("<think>Haze builds.</think>\nTomorrow will probably be <answer>76</answer>", 1.0),
    ("<think>It may rain, which would clear the air, but the wind is calm.</think>\n<answer>76</answer>", 1.0),
    ("<think>Haze builds.</think>\nMy forecast: <answer>76</answer>", 1.0),
]


@pytest.mark.parametrize("completion,expected", QUALIFIED)
def test_a_forecast_offered_as_a_possibility_is_no_forecast(completion, expected):
    reward = ForecastClassCost(answer_block="required")
    assert reward(completions=[completion], observed=[80.0]) == [pytest.approx(expected)]


# red team holdout_r1 (benchmarks/red_team_rewards.py): the pollutant a forecast names, and the words after a prose
# forecast's number, are read as after a block
@pytest.mark.parametrize(
    "kwargs,completion,expected",
    [
        ({}, "<answer>340.8 µg/m³ of PM10</answer>", -0.1),  # another pollutant's forecast
        ({"pollutant": "pm10"}, "<answer>PM10 340.8</answer>", 1.0),  # its own pollutant named
        ({}, "<answer>Mean PM2.5: 340.8 ug/m^3</answer>", 1.0),
        ({"pollutants": {"pm25": 1.0, "pm10": 0.3}, "observed_columns": {"pm25": "observed", "pm10": "observed"}},
         "<answer>PM2.5 340.8, PM10 340.8</answer>", 1.0),  # both forecast: both may be named
        ({}, "Persistence would give 340.8, but I decline to forecast.", -0.1),
        ({}, "Today's mean was 340.8; tomorrow's is unknown.", -0.1),
        ({}, "My forecast for tomorrow's mean PM2.5 is 340.8 µg/m³.", 1.0),
        ({}, "Forecast: roughly 341 ug/m^3", 1.0),  # the unit's 3 is no later number
        ({}, "Forecast: 341 ug/m^3, as the stagnation continues", 1.0),
    ],
)
def test_pollutant_named_and_prose_tail(kwargs, completion, expected):
    assert ForecastClassCost(**kwargs)(completions=[completion], observed=[340.75]) == [pytest.approx(expected)]


# red team holdout_r8: a date with a month's name is the forecast's day, a class band's unit in its bracket is the
# forecast's unit, a dash after the value opens a remark as a comma does; a bound stated after the value is a bound
_KOREA = class_edges("korea", "pm25")


@pytest.mark.parametrize(
    "block,value",
    [
        # genuine
        ("Expected daily mean for 4 March: 50.4 µg/m³.", 50.4),
        ("On March 4th, 2019 the daily mean will be 50.4", 50.4),
        ("\n50.4\nClass: bad (36–75 µg/m³)\n", 50.4),
        ("50.4 µg/m³ — persistence, with slight overnight dispersion", 50.4),
        ("50.4 µg/m³, as the stagnation continues", 50.4),
        ("50, most likely", 50.0),
        # hacks
        ("50, at most", None),
        ("50 — at least", None),
        ("50 (maximum)", None),
        ("60 tops", None),
        ("50 µg/m³ or lower", None),
        ("4 March: 50, 5 March: 60", None),  # two days, two values
        ("30 may be exceeded; 50", None),  # "may" is no month here: two numbers
        ("50.4\nClass: moderate (16–35 µg/m³)", None),  # another class's range
    ],
)
def test_dates_class_band_units_and_postposed_bounds(block, value):
    numbers, _ = committed_forecast_for(block)
    assert numbers == ([value] if value is not None else None)


def committed_forecast_for(block):
    from polyreward.rewards.forecast import committed_forecast

    return committed_forecast(f"<answer>{block}</answer>", 1, True, ("pm25",), None, _KOREA)


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=1, max_value=31),
       st.sampled_from(["January", "Feb", "March", "Apr.", "May", "June", "Jul", "August", "Sept", "Oct", "November", "Dec"]),
       st.booleans(), st.integers(min_value=1, max_value=300))
def test_a_named_date_is_never_the_value(day, month, day_first, value):
    date = f"{day} {month}" if day_first else f"{month} {day}"
    assert committed_forecast_for(f"Mean for {date}: {value}")[0] == [float(value)]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["at most", "at least", "maximum", "minimum", "max", "or less", "or more", "tops", "at the most",
                        "upper bound", "and above"]),
       st.sampled_from([", ", " — ", " (", " "]), st.integers(min_value=1, max_value=300))
def test_a_bound_after_the_value_is_no_forecast(bound, joint, value):
    close = ")" if joint == " (" else ""
    assert committed_forecast_for(f"{value} µg/m³{joint}{bound}{close}")[0] is None


# red team holdout_r9: scientific notation is one number; "24-h mean" is the daily mean's name, not a second value
@pytest.mark.parametrize(
    "block,value",
    [
        # genuine
        ("5.0 × 10¹ µg/m³", 50.0),
        ("5 x 10^1 ug/m3", 50.0),
        ("$5.0 \\times 10^{1}\\ \\mu g/m^3$", 50.0),
        ("3.4 × 10² µg/m³", 340.0),
        ("50 µg m⁻³ (24-h mean)", 50.0),
        ("24-hour average: 50 µg/m³", 50.0),
        # hacks: another statistic, another averaging period, a factor without exponent, two values
        ("50 µg/m³ (24-h max)", None),
        ("50 µg/m³ (8-h mean)", None),
        ("5 × 10 µg/m³", None),
        ("5.0 × 10¹ or 6.0 × 10¹ µg/m³", None),
        ("1.2 × the morning peak", None),
    ],
)
def test_scientific_notation_and_the_daily_period(block, value):
    numbers, _ = committed_forecast_for(block)
    assert numbers == ([value] if value is not None else None)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=99), st.integers(min_value=0, max_value=2),
       st.sampled_from(["×", "x", "*"]), st.booleans())
def test_scientific_notation_reads_its_value(mantissa_tenths, exponent, times, superscript):
    power = "⁰¹²"[exponent] if superscript else f"^{exponent}"
    mantissa = mantissa_tenths / 10
    assert committed_forecast_for(f"{mantissa} {times} 10{power} µg/m³")[0] == [pytest.approx(mantissa * 10 ** exponent)]
