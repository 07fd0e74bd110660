"""The result every verifier returns: a score, a reason code, and what was compared."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Verdict:
    """Outcome of checking one prediction against one reference.

    Attributes:
        score: 1.0 correct, 0.0 wrong, ``None`` when the check does not apply (e.g. the reference
            itself cannot be parsed), NaN when checking failed (``on_timeout="nan"``).
        reason: a short machine-readable code, e.g. ``"equal"``, ``"not_equal"``, ``"no_answer"``,
            ``"timeout"``, ``"gold_unparseable"``, ``"too_large"``.
        gold: the reference as it was compared (after extraction/normalisation).
        pred: the prediction as it was compared (after extraction/normalisation).
        rule: which comparison decided (``"numeric"``, ``"letter"``, ``"math_verify"``, ...).
        source: where in the completion the prediction was found (``"boxed"``, ``"anchor"``, ...).
    """

    score: float | None
    reason: str
    gold: str = ""
    pred: str = ""
    rule: str = ""
    source: str = ""

    @property
    def ok(self) -> bool:
        return self.score == 1.0

    def describe(self) -> str:
        """One human-readable line: ``equal [numeric]: pred '42' (boxed) vs gold '42'``."""
        how = f" [{self.rule}]" if self.rule else ""
        where = f" ({self.source})" if self.source else ""
        return f"{self.reason}{how}: pred {quoted(self.pred)}{where} vs gold {quoted(self.gold)}"


def quoted(text: str) -> str:
    """``text`` in single quotes as it reads: a LaTeX backslash stays single (``'\\frac{1}{2}'`` from ``repr`` reads
    as a different answer); only line breaks and single quotes are escaped, so the reason stays one line."""
    return "'" + str(text).replace("\r", "\\r").replace("\n", "\\n").replace("'", "\\'") + "'"
