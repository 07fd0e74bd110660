"""``overlong_penalty``: DAPO soft overlong punishment (Yu et al. 2025, arXiv 2503.14476, Eq. 13).

With L = completion length in tokens, L_max = ``max_completion_len``, L_cache = ``soft_punish_cache``::

    R_len(L) = 0                                   if L <= L_max - L_cache
             = ((L_max - L_cache) - L) / L_cache    if L_max - L_cache < L <= L_max
             = -1                                  if L > L_max

Exact (paper Eq. 13; same as TRL ``get_soft_overlong_punishment`` and verl's DAPO reward manager;
docs/reference/algorithms.md#dapo). ``soft_punish_cache: 0`` is a hard cliff: 0 up to L_max, -1 above.
``penalty_factor`` (verl ``overlong_buffer.penalty_factor``, default 1.0 = the paper) scales R_len,
so it lies in [-penalty_factor, 0].

Length source, first available (the reason names the one used):

1. the ``completion_ids`` column (TRL passes the token ids to every reward function);
2. a local tokenizer directory given as ``tokenizer`` (never downloaded from a hub);
3. words (:func:`word_count`, a rough stand-in; configure 1 or 2 for training).

Words (the fallback, a rough stand-in for tokens; ours) are counted so that a completion cannot look short by
hiding its separators or by writing in characters that a whitespace split does not see:

* runs of Latin text (printable ASCII but the space and ``_``, and the Latin letters with accents) are split on
  whitespace, underscores and invisible format characters (zero-width space / joiners, word joiner, BOM, soft
  hyphen, bidi marks), and a run longer than ``WORD_CHARS`` = 16 characters counts as ceil(length / 16) words. So
  200 words joined by U+200B or ``_`` count 200, and 10,000 characters without a space count 625, not 1; a run of
  3 or more words joined by hyphens, slashes, dots, commas, apostrophes or camel case counts its words (``the-patient-has``, ``ThePatientHas``, ``and,a,second``: 3; in camel case a lone capital and a number between two words are words,
  ``WithAHistory``, ``OfType2Diabetes``: 3 and 4, red team ``holdout_r12``; a number standing alone between the joints
  of such a run is a word too, ``was-480,-bicarbonate-9-and``: 5, red team ``holdout_r17``; a
  compound of two, ``double-check``, and markup, ``<answer>``, ``\\frac``, count as before), and compounds of two
  count two each when they make a quarter or more of the runs (at least 8: ``the-patient presents-with ...``, words
  paired to hide every other one; red team ``holdout_r2``; a word and a number joined by a hyphen, ``72-km``, is such
  a pair too: red team ``holdout_r25``); two words joined by a mark that joins no compound (not a
  hyphen, slash, apostrophe, dot or bracket: ``sixty&two``, ``fever=cough``) are two (red team ``holdout_r11``); a
  number that such marks or markup set apart inside a run is a word, as between spaces (``a|67|year|old``,
  ``An<br>80<br>year``: 4; red team ``holdout_r16``), while one beside a compound's joint stays in it (``67-year-old``);
* the letters of the alphabets that write a space between words (Greek, Cyrillic, Armenian, Georgian, Hebrew,
  Arabic, the Indic scripts; ``text_forms.SPACED_SCRIPTS``) are counted as Latin letters are: a Russian, Persian or
  Hindi word is one word, not one a letter (red team ``holdout_r8``: a 47-word Russian summary counted 270);
* every other visible character -- an emoji, a CJK character, a letter of a script without spaces, a symbol -- is one word
  of its own (a tokenizer spends at least one token on each), its combining marks, variation selectors and skin-tone
  modifiers joined to it (a grapheme cluster counts once). So 600 emoji count 600 words, not 39, and a Chinese
  sentence counts its characters.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from polyreward.reward import Reward, RewardOutput
from polyreward.schema import completion_text, is_missing
from polyreward.verifiers.text_forms import word_count


def soft_overlong_punishment(length: int, max_completion_len: int, soft_punish_cache: int, penalty_factor: float = 1.0) -> float:
    """DAPO Eq. 13 for one length, times ``penalty_factor`` (see module docstring)."""
    expected = max_completion_len - soft_punish_cache
    if length <= expected:
        return 0.0
    if length > max_completion_len:
        return -1.0 * penalty_factor
    return (expected - length) / soft_punish_cache * penalty_factor


class OverlongPenalty(Reward):
    """DAPO soft overlong punishment on token lengths (0 .. -1).

    Args:
        max_completion_len: L_max: longer completions score -1 (times penalty_factor)
        soft_punish_cache: L_cache: the penalty ramps linearly from 0 to -1 over the last L_cache tokens before
            L_max; 0 is a hard cliff
        tokenizer: local tokenizer folder used to count tokens when the batch has no completion_ids; null: count
            words
        ids_column: column holding the completion token ids (TRL passes completion_ids)
        penalty_factor: scale of the penalty (verl overlong_buffer.penalty_factor); the score lies in
            [-penalty_factor, 0]
    """

    type_name = "overlong_penalty"
    exactness = "exact"
    description = "DAPO soft overlong punishment: 0 below L_max-L_cache, linear to -1 at L_max, -1 above"
    score_range = (-1.0, 0.0)
    probe_strategies = ("invisible_padding", "unspaced_padding")
    optional_columns = ("completion_ids",)  # the token ids when the batch has them (TRL passes them), else words
    linear_time = True  # counts ids or words; narrowed to False with a tokenizer (a model's code, loaded on first use)

    def __init__(
        self,
        name: str | None = None,
        weight: float = 1.0,
        max_completion_len: int = 20480,
        soft_punish_cache: int = 4096,
        tokenizer: str | None = None,
        ids_column: str = "completion_ids",
        penalty_factor: float = 1.0,
    ) -> None:
        super().__init__(name, weight)
        for key, value in (("max_completion_len", max_completion_len), ("soft_punish_cache", soft_punish_cache)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{key} must be a non-negative integer (tokens), got {value!r}")
        if max_completion_len < 1 or soft_punish_cache > max_completion_len:
            raise ValueError(
                f"need 0 <= soft_punish_cache <= max_completion_len and max_completion_len >= 1, got {soft_punish_cache} and {max_completion_len}"
            )
        if soft_punish_cache == max_completion_len:
            # DAPO pitfall (docs/reference/algorithms.md#dapo): L_max - L_cache = 0 penalises every completion by -L/L_cache.
            # Legal (TRL and verl compute it), so warn rather than refuse.
            warnings.warn(
                "overlong_penalty: soft_punish_cache == max_completion_len penalises every non-empty completion "
                "(-L / soft_punish_cache); a smaller cache is usually meant",
                stacklevel=2,
            )
        if isinstance(penalty_factor, bool) or not isinstance(penalty_factor, (int, float)) or not math.isfinite(penalty_factor) or penalty_factor < 0:
            raise ValueError(f"penalty_factor must be a finite number >= 0 (verl default 1.0), got {penalty_factor!r}")
        if tokenizer is not None and not Path(tokenizer).expanduser().is_dir():
            raise ValueError(f"tokenizer must be a local tokenizer directory (nothing is downloaded), got {tokenizer!r}")
        self.max_completion_len = max_completion_len
        self.soft_punish_cache = soft_punish_cache
        self.tokenizer = tokenizer
        self.linear_time = tokenizer is None
        self.ids_column = ids_column
        self.penalty_factor = float(penalty_factor)
        self.score_range = (-self.penalty_factor, 0.0)
        self._tokenizer: Any = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_tokenizer"] = None  # reloaded lazily on the other side
        return state

    def _lengths(self, completions: Sequence[Any], ids: Sequence[Any] | None) -> tuple[list[int | None], str]:
        if ids is not None:
            return [None if is_missing(x) else self._token_count(x) for x in ids], self.ids_column
        texts = [completion_text(c) for c in completions]
        if self.tokenizer is not None:
            if self._tokenizer is None:
                from transformers import AutoTokenizer

                self._tokenizer = AutoTokenizer.from_pretrained(str(Path(self.tokenizer).expanduser()))
            return [len(x) for x in self._tokenizer(texts, add_special_tokens=False)["input_ids"]], "tokenizer"
        return [word_count(t) for t in texts], "words"

    def _token_count(self, ids: Any) -> int:
        """Length of one rollout's token ids; a TypeError naming the column for anything but a sequence of them."""
        if isinstance(ids, (str, bytes)) or not hasattr(ids, "__len__"):
            raise TypeError(f"{self.ids_column} must be a list of token ids, got {type(ids).__name__}")
        return len(ids)

    def evaluate(self, prompts: Sequence[Any], completions: Sequence[Any], **columns: Sequence[Any]) -> RewardOutput:
        ids = columns.get(self.ids_column)
        lengths, source = self._lengths(completions, ids)
        scores: list[float | None] = []
        reasons: list[str] = []
        for length in lengths:
            if length is None:
                scores.append(math.nan)
                reasons.append(f"no {self.ids_column} for this rollout")
                continue
            score = soft_overlong_punishment(length, self.max_completion_len, self.soft_punish_cache, self.penalty_factor)
            scores.append(score)
            reasons.append(f"length {length} ({source}); limit {self.max_completion_len}, cache {self.soft_punish_cache}")
        return RewardOutput(scores, reasons, {"length": [float(x) if x is not None else None for x in lengths]})
