"""The series a forecast prompt gives and the one it asks for (``forecast_class_cost``'s reading; red team
``holdout_r53``).

A prompt may give several labelled series -- two stations, two pollutants -- one per line, a label, a colon, then the
values::

    Dongsi: 98, 104, 111, ...
    Guanyuan: 61, 64, 66, ...
    Forecast the mean PM2.5 at Dongsi on 2015-12-22.

and ask for one of them in its forecasting sentence. A block or the label leading into it that names another of the
prompt's series and not the one asked (``<answer>Guanyuan: 124</answer>``, ``Guanyuan forecast:`` then the block) is
that series' forecast, none of the one asked; a clause after the block about another series (``Guanyuan should be near
75.``) is a remark on that series, whose number is no second forecast. A prompt of one series, or whose asking sentence names none or several of
its labels, asks no series by name, and nothing is read.

>>> other_series_named("Guanyuan: 124", "Dongsi: 98, 104\\nGuanyuan: 61, 64\\nForecast the mean at Dongsi tomorrow.")
'guanyuan'
>>> other_series_named("Dongsi: 124", "Dongsi: 98, 104\\nGuanyuan: 61, 64\\nForecast the mean at Dongsi tomorrow.")
''
"""

from __future__ import annotations

import re

# a data line: a short label (a bracketed unit may follow it), a colon, then a number
_SERIES_LINE = re.compile(r"(?m)^[ \t]*([^\W\d_][\w .'-]{0,40}?)[ \t]*(?:\([^()\n]{0,20}\))?[ \t]*:[ \t]*[-\u2212]?\d")
_ASKING = re.compile(r"\b(?:forecast|predict|estimate)", re.IGNORECASE)
_WORD = re.compile(r"[^\W_][\w.]*[^\W_]|[^\W_]")


def _words(text: str) -> set[str]:
    return {word.casefold() for word in _WORD.findall(text)}


def asked_and_other_series(prompt: str) -> tuple[str, frozenset[str]]:
    """(the label of the series the prompt asks for, the labels of its other series), each case-folded; ("",
    frozenset()) when the prompt gives fewer than two series or its asking sentences name not exactly one of them."""
    labels = {match.group(1).strip().casefold() for match in _SERIES_LINE.finditer(prompt)}
    if len(labels) < 2:
        return "", frozenset()
    asking = set().union(*(_words(s) for s in re.split(r"(?<=[.!?])\s+|\n+", prompt) if _ASKING.search(s)))
    asked = [label for label in labels if _words(label) <= asking]
    if len(asked) != 1:
        return "", frozenset()
    return asked[0], frozenset(labels - {asked[0]})


def other_series_named(text: str, prompt: str) -> str:
    """The label of another series of the prompt that ``text`` (a block or the label leading into it) names while it
    names not the series asked, or "" (module docstring)."""
    return names_only_other_series(text, *asked_and_other_series(prompt))


def names_only_other_series(text: str, asked: str, others: frozenset[str]) -> str:
    """The label among ``others`` that ``text`` names when it does not name ``asked``, or "" (the labels of
    :func:`asked_and_other_series`)."""
    if not others:
        return ""
    words = _words(text)
    if _words(asked) <= words:
        return ""
    return next((label for label in sorted(others) if _words(label) <= words), "")
