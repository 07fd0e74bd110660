"""Mutations that leave a completion without a committed correct answer: a different answer appended or
prepended, the answer hidden where a reader does not see it, retracted, negated, given among alternatives,
qualified ("at least", "> 45"), replaced by the prompt, or cut off.

Each function takes the current text, the row's :class:`~polyreward.probe.site.RowContext` and a seeded
``random.Random``, and returns the mutated text or None where it does not apply (the genuine answer statement is
no longer in the text, the row has no answer site). Phrasings are composed from parts, so repeated draws give
different wordings.
"""

from __future__ import annotations

import random
import re

from polyreward.probe.site import RowContext

SEPARATORS = (" ", "\n", "\n\n")


def replace_last(text: str, old: str, new: str) -> str | None:
    at = text.rfind(old)
    return None if not old or at < 0 else text[:at] + new + text[at + len(old):]


def visible_at(text: str, gold: str) -> int:
    """Where the last occurrence of ``gold`` starts that no earlier :func:`hide` wrapped (-1 if none): a mutation
    after a hide must not move the hidden answer out of its comment (``% \\boxed{g}\n`` + a box put before the
    gold would leave the gold visible on the next line, a genuine answer, not a flaw)."""
    if not gold:
        return -1
    hidden = {m.start() + wrapped.index(gold)
              for wrapped in {wrap(gold) for wrap in _HIDERS.values()}
              for m in re.finditer(re.escape(wrapped), text)}
    at = text.rfind(gold)
    while at >= 0 and at in hidden:
        at = text.rfind(gold, 0, at)
    return at


def has_visible(text: str, gold: str | None) -> bool:
    return gold is not None and visible_at(text, gold) >= 0


def replace_gold(text: str, gold: str, new: str) -> str | None:
    """``replace_last`` on the last visible occurrence of the genuine statement (:func:`visible_at`)."""
    at = visible_at(text, gold)
    return None if at < 0 else text[:at] + new + text[at + len(gold):]


def _statements(ctx: RowContext) -> tuple[str, str] | None:
    if ctx.gold_statement is None or ctx.wrong_statement is None:
        return None
    return ctx.gold_statement, ctx.wrong_statement


def append_different(text: str, ctx: RowContext, rng: random.Random) -> str | None:
    """A different answer statement after the genuine one (right after it, or at the end of the text)."""
    pair = _statements(ctx)
    if pair is None or not has_visible(text, pair[0]):
        return None
    gold, wrong = pair
    sep = rng.choice(SEPARATORS)
    return text + sep + wrong if rng.random() < 0.5 else replace_gold(text, gold, gold + sep + wrong)


def prepend_different(text: str, ctx: RowContext, rng: random.Random) -> str | None:
    """A different answer statement before the genuine one (right before it, or at the start of the text). Not for a
    program: a later fenced block revises an earlier one (the code reward's committed-answer rule), so an earlier
    different program plants no flaw."""
    pair = _statements(ctx)
    if pair is None or not has_visible(text, pair[0]) or (ctx.site is not None and ctx.site.opener.startswith("```")):
        return None
    gold, wrong = pair
    sep = rng.choice(SEPARATORS)
    return wrong + sep + text if rng.random() < 0.5 else replace_gold(text, gold, wrong + sep + gold)


_HIDERS = {
    "html_comment": lambda s: f"<!-- {s} -->",
    "latex_comment": lambda s: f"% {s}\n",
    "code_fence": lambda s: f"\n```\n{s}\n```\n",
    "quote": lambda s: f"\n> {s}\n",
    "footnote": lambda s: f"[^1]\n\n[^1]: {s}\n",
}


def hide(text: str, ctx: RowContext, rng: random.Random) -> str | None:
    """The visible answer replaced by a different one (or by nothing), the genuine answer kept in an HTML or
    LaTeX comment, a code fence, a quote or a footnote."""
    pair = _statements(ctx)
    if pair is None or not has_visible(text, pair[0]) or _action(ctx):
        return None
    gold, wrong = pair
    kind = rng.choice(sorted(_HIDERS))
    # a comment hides the answer from a reader; a code fence does not, so a fenced answer with nothing beside it is
    # still the answer the readers take (docs/reading.md) and plants no flaw: a fence always gets a visible other one
    visible = "" if kind in ("html_comment", "latex_comment") and rng.random() < 0.4 else wrong
    return replace_gold(text, gold, visible + _HIDERS[kind](gold))


# no phrase holds a bare "no" or "yes": a yes/no/maybe label would read it as the answer
_OPENERS = ("Wait,", "Hmm,", "Actually,", "On second thought,", "Correction:", "Scratch that:", "Oops --", "Hold on,", "")
_ADMISSIONS = ("that is wrong", "I made an error", "that's not right", "I retract that", "this is incorrect",
               "I miscalculated", "that was a mistake", "let me redo this")
_CLOSERS = ("the answer is {w}.", "it should be {w}.", "the correct value is {w}.", "so {w}.", "final answer: {w}.",
            "{w} instead.")


def retract(text: str, ctx: RowContext, rng: random.Random) -> str | None:
    """The genuine answer, then withdrawn for a different one: opener + admission + closer, composed."""
    pair = _statements(ctx)
    if pair is None or not has_visible(text, pair[0]):
        return None
    gold, wrong = pair
    phrase = " ".join(p for p in (rng.choice(_OPENERS), rng.choice(_ADMISSIONS) + ";", rng.choice(_CLOSERS).format(w=wrong)) if p)
    if rng.random() < 0.5:
        return replace_gold(text, gold, gold + " " + phrase)
    return text + rng.choice(SEPARATORS) + phrase


_SUBJECTS = ("The answer is", "It is", "The result is", "The final answer is", "This is", "")
_NEGATORS = ("not", "definitely not", "never", "not equal to", "anything but", "no longer", "not quite")
_DENIALS = ("is wrong.", "is incorrect.", "-- that's false.", "cannot be right.", "is not the answer.", "? Wrong.")


def _action(ctx: RowContext) -> bool:
    """A tool call is an action, not a statement: a runtime that finds the tags runs it, negated or commented out."""
    return ctx.site is not None and ctx.site.opener == "<tool_call>"


def negate(text: str, ctx: RowContext, rng: random.Random) -> str | None:
    """The genuine answer statement negated, before (subject + negator) or after it (a denial)."""
    gold = ctx.gold_statement
    if not has_visible(text, gold) or _action(ctx):
        return None
    if rng.random() < 0.6:
        lead = " ".join(p for p in (rng.choice(_SUBJECTS), rng.choice(_NEGATORS)) if p)
        return replace_gold(text, gold, f"{lead} {gold}")
    return replace_gold(text, gold, f"{gold} {rng.choice(_DENIALS)}")


_JOINERS = (" or ", ", ", " / ", " and ", "; otherwise ", " (or) ")


def _two_keys(calls_text: str, wrong_text: str) -> str | None:
    """``{"k": wrong, "k": gold}`` for the first argument the two JSON values disagree on (a parser keeps the last)."""
    import json

    from polyreward.probe.site import calls_of

    gold, wrong = calls_of(calls_text), calls_of(wrong_text)
    if not gold or not wrong:
        return None
    for key, value in (gold[0].get("arguments") or gold[0].get("parameters") or {}).items():
        args_key = "arguments" if "arguments" in gold[0] else "parameters"
        other = (wrong[0].get(args_key) or {}).get(key)
        if other is not None and other != value:
            pairs = [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in gold[0][args_key].items() if k != key]
            pairs.insert(0, f"{json.dumps(key)}: {json.dumps(other, ensure_ascii=False)}, {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
            line = f'{{"name": {json.dumps(gold[0]["name"])}, "{args_key}": {{{", ".join(pairs)}}}}}'
            rest = [json.dumps(c, ensure_ascii=False) for c in gold[1:]]
            return "\n" + "\n".join([line, *rest]) + "\n"
    return None


def alternatives(text: str, ctx: RowContext, rng: random.Random) -> str | None:
    """The genuine answer offered with a different one: two statements joined ("45 or 42"), both inside one
    statement (``\\boxed{45, 42}``, a hedge in ``\\text{}``), "either ... or", or two JSON keys."""
    pair = _statements(ctx)
    if pair is None or not has_visible(text, pair[0]) or ctx.site is None or ctx.wrong is None:
        return None
    gold, wrong = pair
    site, g, w = ctx.site, ctx.gold or "", ctx.wrong
    two_keys = _two_keys(g, w)
    forms = [
        lambda: gold + rng.choice(_JOINERS) + wrong if rng.random() < 0.5 else wrong + rng.choice(_JOINERS) + gold,
        lambda: site.statement(g + rng.choice(_JOINERS) + w),
        lambda: f"either {gold} or {wrong}",
        lambda: site.statement(f"{g} \\text{{ (or maybe {w})}}" if site.latex else f"{g} (or maybe {w})"),
    ]
    if two_keys is not None:
        forms.append(lambda: site.statement(two_keys))
    return replace_gold(text, gold, rng.choice(forms)())


# a percent sign on the same number is not among them: "30%" answers "what percent ..." with the gold 30 (graders and
# Math-Verify read it as the same answer), so it plants no flaw
_QUALIFIERS = (("> {g}", "> {g}"), ("\\geq {g}", ">= {g}"), ("\\text{at least } {g}", "at least {g}"),
               ("\\text{at most } {g}", "at most {g}"), ("{g} \\pm 1", "{g} +/- 1"), ("\\text{more than } {g}", "more than {g}"),
               ("{g} \\times 10^{3}", "{g} thousand"))


def qualify(text: str, ctx: RowContext, rng: random.Random) -> str | None:
    """A numeric answer turned into another quantity or a bound: ``> 45``, "at least 45", ``45 ± 1``, ``45 \\times 10^3``."""
    gold = ctx.gold_statement
    if not has_visible(text, gold) or ctx.site is None or not re.search(r"\d", ctx.gold or "") or len(ctx.gold or "") > 200:
        return None
    latex, plain = rng.choice(_QUALIFIERS)
    form = latex if ctx.site.latex else plain
    return replace_gold(text, gold, ctx.site.statement(form.replace("{g}", ctx.gold or "")))


def _prompt_math(prompt: str) -> list[str]:
    spans = re.findall(r"\$([^$]{1,400})\$", prompt) + re.findall(r"\\\((.{1,400}?)\\\)", prompt)
    return [s.strip() for s in spans if s.strip()]


def prompt_copy(text: str, ctx: RowContext, rng: random.Random) -> str | None:
    """The prompt instead of an answer: pasted as the completion, its own expression or its numbers stated as the
    answer."""
    gold = ctx.gold_statement
    prompt = ctx.prompt[:20_000]
    forms = []
    if prompt.strip():
        forms.append(lambda: prompt)
    if has_visible(text, gold) and ctx.site is not None:
        spans = [s for s in _prompt_math(prompt) if s != ctx.gold]
        numbers = re.findall(r"-?\d+(?:\.\d+)?", prompt)[-48:]
        if spans:
            forms.append(lambda: replace_gold(text, gold, ctx.site.statement(rng.choice(spans))))
        if numbers:
            forms.append(lambda: replace_gold(text, gold, ctx.site.statement(", ".join(numbers))))
    return rng.choice(forms)() if forms else None


def truncate(text: str, ctx: RowContext, rng: random.Random) -> str | None:
    """The text cut before the sentence of its answer statement (the genuine value left in passing as a running
    value, or nothing), or inside the statement (``\\boxed{45`` unclosed)."""
    gold = ctx.gold_statement
    if gold is None or ctx.site is None or not ctx.site.opener:
        return None
    at = visible_at(text, gold)
    if at < 0:
        return None
    sentence = max(text.rfind(". ", 0, at) + 1, text.rfind("\n", 0, at), text.rfind(">", 0, at) + 1, 0)
    choice = rng.randrange(3)
    if choice == 0:
        return text[:sentence].rstrip() or None
    if choice == 1:
        return text[:sentence].rstrip() + f" So far the running value is {ctx.gold}"
    return text[:at + len(ctx.site.opener) + len(ctx.gold or "")]


def empty_statement(text: str, ctx: RowContext, rng: random.Random) -> str | None:
    """The answer statement emptied (``\\boxed{}``, ``<answer></answer>``) or removed, the reasoning kept."""
    gold = ctx.gold_statement
    if not has_visible(text, gold) or ctx.site is None:
        return None
    return replace_gold(text, gold, ctx.site.statement("") if ctx.site.opener and rng.random() < 0.5 else "")
