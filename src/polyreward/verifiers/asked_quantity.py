"""An answer stated as another quantity of the problem than the one the question asks for is another answer.

A policy paid for the gold's number learns to write it under another name: "So the **larger root** is 7" for "Find
the **product** of the roots" (7 is also the product), "the probability that they are **not** both red is 3/28" for
"the probability that both are red", "**Each** person pays $42" for "How much do they spend?", "the **median** is 7"
for the mean (red team ``holdout19``, ``holdout30``). The number is the gold's; the statement is about something
else, and a careful grader does not pay it.

:func:`other_quantity` reads the **subject** of the statement that gives the answer -- the words of its sentence
before the value, after a leading connective ("So", "Therefore") and up to its last verb of being ("is", "are",
"=", "equals", "would be", ...: "the probability that they are not both red" is one subject), without a clause set
off before it by a comma, a dash, a semicolon or a bracket, or opened by a subordinator ("Since it is not negative, the answer is 5" and "since x is not
0 the answer is 5" have the subject "the answer") -- and the prompt's **question** (when the prompt states a problem -- it has a number or a formula --: its sentences that ask: a question
mark or an imperative such as "Find", "Compute", "How many"). It compares a few closed classes of qualifier, each a
class of the quantity's identity, not a phrase list of answers:

* ``larger`` / ``smaller``: which of several values (larger, greatest, maximum, upper / smaller, least, minimum);
* ``not``: the complement of an event or set (not, no, none, neither, complement);
* ``each``: a per-unit amount (each, every, per, apiece), also right after the value ("$42 each", "42 per person");
  a question that asks for one of the things the subject says "each" of ("the cost of one juice box", "a single
  ticket") asks the per-unit amount (holdout79);
* ``mean``, ``median``, ``mode``: which statistic.

The answer is another quantity when its subject has a class the question does not have. The subject opens with a determiner ("the", "each", "its", ...); a
statement without such a subject ("The answer is 7", "I mean 7", "Not 45 but 42", "\\boxed{7}", "Answer: 7", "x = 7") is never refused here, and neither is one whose
qualifiers the question shares ("the larger root" for "Find the larger root", "the mean" for "the average").

Reconstructed rule (ours). Bounded patterns over the prompt's question and the last 600 characters of the
completion: linear time.
"""

from __future__ import annotations

from polyreward.verifiers.memo import memoized_text
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# class -> the words that name it (whole words, lowercase)
_CLASSES = {
    "larger": r"larger|largest|greater|greatest|bigger|biggest|maximum|maximal|highest|upper",
    "smaller": r"smaller|smallest|lesser|least|minimum|minimal|lowest|lower",
    "not": r"not|no|none|neither|complement|complementary",
    "each": r"each|every|per|apiece",
    "mean": r"mean|average|avg",
    "median": r"median",
    "mode": r"mode",
}
_CLASS_WORDS = [(name, re.compile(rf"\b(?:{words})\b", re.IGNORECASE)) for name, words in _CLASSES.items()]
_ANY_CLASS_WORD = re.compile(r"\b(?:" + "|".join(_CLASSES.values()) + r")\b", re.IGNORECASE)

# a sentence of the prompt that asks: it ends in a question mark, or opens with an imperative
_ASKING = re.compile(
    r"[^.?!\n]*\?|(?:^|(?<=[.!?\n]))\s*(?:find|compute|calculate|determine|evaluate|give|express|state|what|which|how|"
    r"solve|simplify|write|list|identify|estimate|show)\b[^.?!\n]*",
    re.IGNORECASE,
)
# what the statement's subject opens with, dropped: a connective ("So", "Therefore,", "Hence", "Thus", "Finally")
_CONNECTIVE = re.compile(r"\A\s*(?:(?:so|thus|therefore|hence|then|finally|overall|altogether|in\s+total|and|now|which\s+means)\b[\s,:]*)+",
                         re.IGNORECASE)
# the first verb of being in the subject zone: "is", "are", "=", "equals", "would be", "comes to", ":"
_BEING = re.compile(r"\s(?:is|are|was|were|equals?|would\s+be|will\s+be|must\s+be|comes?\s+to|works?\s+out\s+to|becomes?)\b|[=:]|\\approx|≈",
                    re.IGNORECASE)
# what sets a clause off before the statement: a comma, a dash, a semicolon, a bracket
_CLAUSE_BREAK = re.compile(r",|;|--|[—–()]|\s-\s")
# a clause that opens on a subordinator is not the statement's subject ("Since x is not 0 the answer is 5")
_SUBORDINATE = re.compile(r"\s*(?:since|because|as|if|when|whenever|given|once|after|while|although|though|unless)\b", re.IGNORECASE)
_DETERMINER = re.compile(r"\b(?:the|each|every|its|their|his|her|our|this|that|these|those|one)\b", re.IGNORECASE)
# a prompt that states a problem has a number or a formula in it
_STATES_A_PROBLEM = re.compile(r"\d|\$|\\\(")
# markup between the subject and the value: "$", "**", "\boxed{", "\(", "\[", "\text{"
_MARKUP = re.compile(r"\\(?:boxed|fbox|text|textbf|mathbf|displaystyle)\s*\{?|\\[(\[]|[$*_{}`]")
# a per-unit word right after the value: "$42 each", "42 per person", "42 apiece" (up to two words between)
_EACH_AFTER = re.compile(r"\A[^\S\n]*(?:\\?%|[^\W\d_]+[^\S\n]+){0,2}?(?:each|apiece|per\s+[^\W\d_]+)\b", re.IGNORECASE)
# the value as the subject of a definite predicate: "5 is the maximum, not the minimum", "7 is the larger root" -- the
# predicate's noun phrase names the quantity as a subject before the value does (stop 63); up to its first clause mark
_PREDICATE_AFTER = re.compile(r"\A[\s$*)}]*(?:is|was|'s|would\s+be)[^\S\n]+(?:the|its|their)[^\S\n]+(?P<quantity>[^\W\d_][^\n,.;:!?()\u2013\u2014]{0,40}?)"
                              r"(?=[^\S\n]*(?:[,.;:!?()\u2013\u2014]|\Z|[^\S\n](?:but|and|because|since|as|so)\b))", re.IGNORECASE)


# a formula of the prompt: "$f(a)$", "$$N$$", "\(m\)"
_FORMULA = re.compile(r"\$\$?([^$]+)\$\$?|\\\((.+?)\\\)")
# the words a question that asks for nothing but a symbol is made of: "Find $m$.", "What is the value of $f(a)$?"
_ASKS_FOR = re.compile(r"\b(?:find|compute|calculate|determine|evaluate|what|is|then|the|value|of)\b", re.IGNORECASE)
# a letter of a formula that is a symbol of its own: "f", "a" in "f(a)", "x" in "\bar{x}", not the letters of "\sin"
_SYMBOL = re.compile(r"(?<![A-Za-z\\])[A-Za-z](?![A-Za-z])")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
# what parts a sentence into clauses, outside its formulas: "Let $m$ be the mean of 3, 5, 7 and let $d$ be their median"
_CLAUSE_SPLIT = re.compile(r"[,;]|\band\b", re.IGNORECASE)


def _symbols(formulas: str) -> set[str]:
    return set(_SYMBOL.findall(re.sub(r"\\[A-Za-z]+", " ", formulas)))


@memoized_text(max_chars=8192, maxsize=256)  # (the rollouts of a group share a prompt)
def asked_classes(prompt: str) -> frozenset[str]:
    """The qualifier classes the prompt's question names (module docstring), with those of the sentences that define
    a symbol the question asks for by name alone (:func:`_defined_classes`)."""
    asking = [match.group(0) for match in _ASKING.finditer(prompt)]
    question = " ".join(asking) or prompt[-400:]
    return _classes(question) | _defined_classes(asking, prompt)


def _defined_classes(asking: list[str], prompt: str) -> frozenset[str]:
    """A question that asks for nothing but a symbol ("Find $m$.", "What is $f(a)$?", "What is the value of $N$?")
    asks for what the prompt defined it to be: the classes of the clauses of the prompt's other sentences that write
    every symbol of it ("Let $m$ be the smallest positive integer such that ...", "$f(x) = 3x^2 - 12x + 7$ attains
    its minimum value at $x = a$"), so "The smallest such integer is 38" and "The minimum value is $-5$" answer it
    (holdout118). Only the defining clause counts: "Let $m$ be the mean of 3, 5, 7 and let $d$ be their median. Find
    $m$." asks for no median. A question with words of its own ("Find the product $rs$") names its quantity and
    defers to nothing."""
    classes: set[str] = set()
    for sentence in asking:
        formulas = " ".join(a or b for a, b in _FORMULA.findall(sentence))
        words = _ASKS_FOR.sub(" ", _FORMULA.sub(" ", sentence))
        asked = _symbols(formulas)
        if not asked or re.search(r"[^\W\d_]", words):
            continue
        for other in _SENTENCE_END.split(prompt):
            if not other.strip() or other.strip() in sentence:
                continue
            masked = _FORMULA.sub(lambda formula: formula.group(0).replace(",", "\x00").replace(";", "\x01"), other)
            for clause in _CLAUSE_SPLIT.split(masked):
                clause = clause.replace("\x00", ",").replace("\x01", ";")
                if asked <= _symbols(" ".join(a or b for a, b in _FORMULA.findall(clause))):
                    classes |= _classes(_FORMULA.sub(" ", clause))
    return frozenset(classes)


def _classes(text: str) -> frozenset[str]:
    if not _ANY_CLASS_WORD.search(text):
        return frozenset()
    return frozenset(name for name, words in _CLASS_WORDS if words.search(text))


def _value_at(answer: str, text: str) -> tuple[int, int] | None:
    """Where the answer's value is last written in ``text``: its last box, else the answer's last occurrence."""
    box = text.rfind("\\boxed")
    if box >= 0 and answer and answer.strip("$ ") in text[box:box + 200]:
        return box, box + 7 + len(answer)
    value = answer.strip().strip("$").strip()
    if not value or len(value) > 60:
        return None
    at = text.rfind(value)
    if at < 0:
        plain = re.sub(r"\\[dt]?frac\{([^{}]+)\}\{([^{}]+)\}", r"\1/\2", value)
        at = text.rfind(plain) if plain != value else -1
        if at < 0:
            return None
        value = plain
    if at > 0 and (text[at - 1].isdigit() or text[at - 1] == "."):
        return None  # inside a longer number
    return at, at + len(value)


def subject(text: str, start: int) -> str:
    """The subject of the statement whose value starts at ``start`` in ``text`` (module docstring), or ""."""
    line_start = max(text.rfind("\n", 0, start), text.rfind(". ", 0, start), text.rfind("? ", 0, start),
                     text.rfind("! ", 0, start)) + 1
    zone = _MARKUP.sub(" ", text[line_start:start])
    zone = _CLAUSE_BREAK.split(zone)[-1]  # "The answer is not 45 -- it is 42": the clause after the break
    zone = _CONNECTIVE.sub("", zone)
    being = None
    for being in _BEING.finditer(zone):
        pass
    words = zone[:being.start()] if being is not None else zone
    if _SUBORDINATE.match(words):  # "since x is not 0 the answer is": the subject is the last noun phrase's
        last = None
        for last in _DETERMINER.finditer(words):
            pass
        words = words[last.start():] if last is not None else ""
    words = words.strip()
    return words if _DETERMINER.match(words) and len(words.split()) <= 12 else ""


def _period_asked(each: str, prompt: str) -> bool:
    """Is the unit of a rate after the value ("72 liters per day") the one the question asks the amount in ("How many
    liters does it drip in a day?", "What is a single dose in mg?"): the rate restates the asked amount, not a per-unit
    one?"""
    unit = re.search(r"\bper\s+([^\W\d_]+)\Z", each.strip(), re.IGNORECASE)
    if unit is None:
        return False
    question = " ".join(match.group(0) for match in _ASKING.finditer(prompt)) or prompt[-400:]
    # "a single dose", "one individual tablet", "what dose" (holdout76: "330 mg per dose" for "What is a single dose?")
    return re.search(rf"\b(?:in|a|an|one|each|per|what|which)\s+(?:(?:single|individual)\s+)?{re.escape(unit.group(1))}\b",
                     question, re.IGNORECASE) is not None


# the writer's ways of working, which "each" / "every" may range over without naming a thing of the problem
_WAYS_OF_WORKING = re.compile(r"(?:route|method|way|approach|path|technique|check|computation|calculation|derivation|attempt|"
                              r"solution|formula)s?\Z", re.IGNORECASE)


def _ranges_over_the_work(said: str, prompt: str) -> bool:
    """Does the statement's "each" / "every" range over the writer's own ways of working, which the problem never
    names ("Every route lands on 42", "Each method gives 42" for a sum): the methods agree, so the value is no amount
    per one of the problem's things. "Each person pays $42" and "Each ticket costs $12" stay per unit (holdout110)."""
    each = re.search(r"\b(?:each|every)\s+([^\W\d_]{3,})", said, re.IGNORECASE)
    if each is None or _WAYS_OF_WORKING.match(each.group(1)) is None:
        return False
    noun = re.escape(each.group(1).lower().rstrip("s"))
    return re.search(rf"\b{noun}", prompt, re.IGNORECASE) is None


def _one_of_it_asked(said: str, prompt: str) -> bool:
    """Does the question ask the amount for one of the things the statement's subject says "each" of ("Each juice box
    costs" for "What is the cost of one juice box?", "a single ticket", "a box"): the per-unit amount is the one asked."""
    each = re.search(r"\b(?:each|every)\s+([^\W\d_]{3,})", said, re.IGNORECASE)
    if each is None:
        return False
    question = " ".join(match.group(0) for match in _ASKING.finditer(prompt)) or prompt[-400:]
    noun = re.escape(each.group(1).lower().rstrip("s"))
    return re.search(rf"\b(?:one|a|an)\s+(?:[^\W\d_]+\s+)?{noun}s?\b", question, re.IGNORECASE) is not None


def other_quantity(answer: str, completion: str, prompt: str) -> str:
    """Why ``answer`` (the value found equal to the gold) is stated as another quantity than the one ``prompt``
    asks for ("the larger root where the question asks for no such qualifier"), or ""."""
    if not prompt or not completion or not _STATES_A_PROBLEM.search(prompt):
        return ""  # "Solve the problem. Put the final answer in \\boxed{}.": no question to compare with
    tail = completion[-600:]
    found = _value_at(answer, tail)
    if found is None:
        return ""
    named = _classes(subject(tail, found[0]))
    after = tail[found[1]:found[1] + 40]
    if (predicate := _PREDICATE_AFTER.match(tail[found[1]:found[1] + 60])) is not None:
        named |= _classes(predicate.group("quantity"))  # "5 is the maximum, not the minimum" for "the minimum value"
    each = _EACH_AFTER.match(after)
    if each is not None and not _period_asked(each.group(), prompt):
        named |= {"each"}
    if not named:
        return ""
    extra = named - asked_classes(prompt)
    if "each" in extra and _one_of_it_asked(subject(tail, found[0]), prompt):
        extra -= {"each"}  # "Each juice box costs $0.79" for "the cost of one juice box" (holdout79)
    if "each" in extra and each is None and _ranges_over_the_work(subject(tail, found[0]), prompt):
        extra -= {"each"}  # "Every route lands on 42": the writer's methods agree, no per-unit amount (holdout110)
    if not extra:
        return ""
    return f"the answer is stated as {' and '.join(sorted(extra))} of something the question does not ask for"


# an answer that gives one variable's value (``y = 42``) when the prompt asks for another ("Solve for x"): read by
# :mod:`.math` against the squeezed prompt (``solvefor``, ``valueof``, ...)
_ASKED_VARIABLE = re.compile(r"(?:solvefor|find|valueof|whatis|determine|compute)\$?([a-zA-Z])\$?(?![a-zA-Z(])")
_STATED_VARIABLE = re.compile(r"\s*([a-zA-Z]|[A-Z](?:\s*\\(?:cap|cup|setminus)(?![A-Za-z])\s*[A-Z])+)\s*=\s*[^=]+\Z")
# ... or a set expression (``A \\cup B = ...``) when the prompt asks for another ("Find $A \\cap B$"; holdout90)
_ASKED_SET = re.compile(r"(?:find|valueof|whatis|determine|compute)\$?([a-z](?:\\(?:cap|cup|setminus)[a-z])+)")


def _answers_another_variable(answer: str, squeezed_prompt: str) -> bool:
    """Does ``answer`` give one variable's value (``y = 42``) when the prompt asks for another ("Solve for x"), or one
    set expression's (``A \\cup B = \\{3, 4\\}``) when it asks for another ("Find $A \\cap B$")?"""
    stated = _STATED_VARIABLE.match(answer)
    if stated is not None and "\\" in stated.group(1):  # a set expression: the set expression asked, written alike
        asked = {m.group(1) for m in _ASKED_SET.finditer(squeezed_prompt.lower())}
        return len(asked) == 1 and re.sub(r"\s+", "", stated.group(1).lower()) not in asked
    asked = {m.group(1) for m in _ASKED_VARIABLE.finditer(squeezed_prompt.lower())}
    return stated is not None and len(asked) == 1 and stated.group(1).lower() not in asked
