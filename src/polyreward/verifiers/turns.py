"""The writer's turn: where the answer to the question asked ends, and what the writer says after it.

A policy under RL drifts past its answer: it leaks a chat template and writes the next turns itself, or goes on with
a few-shot pattern and makes up the next question and its answer (red team ``holdout13``, ``holdout25``). A reader
takes the writer's answer to the question that was asked:

* **The writer's own turn** (:func:`own_turn`): a header of the writer's turn at the very start is dropped, and the
  first control token after the writer's words ends the turn ("<|im_end|>", "<|eot_id|>", "<end_of_turn>",
  "[/INST]"). In OpenAI Harmony's layout (gpt-oss) the turn is the first message of the ``final`` channel, up to
  its end token, and the ``analysis`` messages before it are its reasoning, read as a ``<think>`` block
  (:func:`harmony_as_tags`; red teams holdout113, holdout_r47). After an answer, a **new question** the writer makes up ends it too: a line that opens with a
  question heading ("Question:", "Question 2:", "Q:", "Problem:", "Human:", "User:"), once the text before it has
  stated an answer ("The answer is 20.", "#### 18", "\\boxed{27}"); before one, a made-up user turn ("User:",
  "Human:") after the writer's words is dropped up to the writer's next header ("I'm not sure. User: The answer is B.
  Assistant: Okay." answers nothing: a turn the writer invents for someone else is not the writer's answer, while
  its own "Assistant:" lines stay read). What follows answers another question: it
  never supplies the answer ("... The answer is 20. Question 2: ... The answer is 5." is not paid for 5) and never
  takes it away ("#### 18 Q: ... #### 15" is paid for 18).
* **The writer's later turns** (:func:`later_turns`): after the end of the turn, what the writer goes on to write
  as the assistant again ("<|im_start|>assistant", "Assistant:") -- past a user turn that challenges the answer
  ("Are you sure?", "That's wrong", "Simplify it further."), up to one that asks something else ("And in 3 weeks?",
  "What about the lcm?": what follows answers another question). They are read for conflicts only: a later turn may give another answer or take this one back
  ("The answer is 10.<|im_end|><|im_start|>assistant Sorry, I made a mistake ... The answer is 12." is not paid),
  never supply one ("I'm not sure.<|im_end|><|im_start|>assistant The answer is 42" stays unanswered).

* **A new item of the prompt's own template** (:func:`template_item_start`): with the prompt known, a line that opens
  with the header its few-shot items share, or a paragraph in the shape of one of its items (a question, its options
  where the prompt's have them, then the prompt's answer mark "Answer:"), is a made-up next example or an echoed
  exemplar (holdout54): the answer is what comes before it, none when nothing does.

* **The unfinished last round of a loop** (:func:`without_unfinished_repeat`): a model that repeats its derivation
  until it runs out of tokens ends inside a line it wrote before; that round says nothing new and is dropped, so the
  answer it stated every round is read, not the cut-off line ("... 9 * 2 = 18 / So, Janet makes 18 dollars every
  day. / 16 - 3 = 13 / 13 - 4 = 9 / 9 *"); a loop of one line may leave blank lines between its rounds
  (``\\boxed{C}`` over and over, then ``\\boxed{``; holdout104), and a loop of one box may stand on one line
  (``\\boxed{1000} \\boxed{1000} \\boxed{10``).

Reconstructed rules (ours); each a bounded pattern or a pass over the turn headers and the last lines: linear time
in the text but for the loop check, which compares the last line with at most 2,000 lines.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from polyreward.verifiers.agent_steps import writer_steps
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.asked_part import answers_another_part, asked_part
from polyreward.verifiers.grading_roles import GRADING_ROLE
from polyreward.verifiers.sections import without_asides

# a chat template's control token ("<|im_end|>", "<|im_start|>", "<|eot_id|>", "<|start_header_id|>", "<|end|>",
# Gemma's "<end_of_turn>", Llama 2's "[INST]"): it bounds a turn, and a chat shows none of it (holdout13); so do the
# end-of-sequence and padding tokens a tokenizer writes out ("</s>", Gemma's "<eos>", "<pad>", "[PAD]", DeepSeek's
# "<｜end▁of▁sentence｜>": holdout113)
# the end of a sequence, after which nothing is generated, said, sent or run: "<|endoftext|>", Llama 3's
# "<|end_of_text|>", "</s>", Gemma's "<eos>", the padding tokens "<pad>" / "[PAD]", DeepSeek's "<｜end▁of▁sentence｜>"
_END_OF_SEQUENCE = r"<\|endoftext\|>|<\|end_of_text\|>|</s>|<(?:eos|pad)>|\[PAD\]|<[|｜]end[▁_]of[▁_]sentence[|｜]>"
END_OF_SEQUENCE = re.compile(_END_OF_SEQUENCE)
# the end of one turn of a chat template: ChatML's "<|im_end|>", Llama 3's "<|eot_id|>", Gemma's "<end_of_turn>"
END_OF_TURN = re.compile(r"<\|im_end\|>|<\|eot_id\|>|<end_of_turn>")
TURN_TOKEN = re.compile(r"<\|[a-z_]{2,30}\|>|</?(?:start|end)_of_turn>|\[/?INST\]|" + _END_OF_SEQUENCE)
# the writer's own turn header at the very start: "<|im_start|>assistant\n", "<|start_header_id|>assistant<|end_header_id|>"
_OWN_TURN_HEADER = re.compile(r"\A\s*(?:(?:<\|[a-z_]{2,30}\|>|<start_of_turn>|<(?:eos|pad|bos)>|</s>)\s*(?:assistant|model|bot)?\s*)+")



# Llama's begin- and end-of-sequence tokens are spelled as HTML's strikethrough element: "<s>" and "</s>"
_S_TAG = re.compile(r"</?s>")


def struck_s_elements(text: str) -> str:
    """``text`` with each ``<s>...</s>`` opened after the writer's first words read as HTML strikethrough,
    ``<del>...</del>``, not as Llama's begin-of-sequence token and an end of sequence that ends the turn (red team
    ``holdout_r54``: ``<s><tool_call>{gold}</tool_call></s>`` then a visible call in Fahrenheit was cut at the
    ``</s>``, so the struck call was the one scored). An ``<s>`` at the very start (the begin-of-sequence token) or
    before ``[INST]`` (Llama 2's turn layout) stays a token; an ``</s>`` with no ``<s>`` open ends the sequence.

    >>> struck_s_elements("Plan: <s>42</s> 45</s>")
    'Plan: <del>42</del> 45</s>'
    >>> struck_s_elements("<s>The answer is 42.</s>")
    '<s>The answer is 42.</s>'
    """
    if "<s>" not in text or "</s>" not in text:
        return text
    first_word = len(text) - len(text.lstrip())
    parts, position, opened = [], 0, -1
    for tag in _S_TAG.finditer(text):
        if tag.group() == "<s>":
            inst = text[tag.end():tag.end() + 20].lstrip().startswith("[INST]")
            opened = -1 if tag.start() == first_word or inst else tag.start()
        elif opened >= 0:
            parts.append(text[position:opened] + "<del>" + text[opened + 3:tag.start()] + "</del>")
            position, opened = tag.end(), -1
    return "".join(parts) + text[position:] if parts else text


def _template_header(roles: str) -> str:
    """The pattern of a chat template's turn header naming one of ``roles`` (a regex alternation): ChatML's, Llama 3's
    or Gemma's opening token, then the role ("<|im_start|>user", "<|start_header_id|>assistant", "<start_of_turn>model").
    The one spelling of these headers that every role-header pattern of this module is built from."""
    return r"(?:<\|im_start\|>|<\|start_header_id\|>|<start_of_turn>)[ \t]*(?:" + roles + ")"


def _role_token(roles: str) -> str:
    """The pattern of Phi's and Zephyr's role token naming one of ``roles`` ("<|user|>", "<|assistant|>")."""
    return r"<\|(?:" + roles + r")\|>"


# a chat template's turn header, its role captured ("<|im_start|>tool", "<|start_header_id|>user<|end_header_id|>",
# Gemma's "<start_of_turn>model", Phi's "<|user|>"); the roles the writer speaks in
TEMPLATE_TURN_HEADER = re.compile(_template_header(r"(?P<role>[A-Za-z_]+)") + r"(?:[ \t]*<\|end_header_id\|>)?|"
                                  + _role_token(r"(?P<tagged>user|assistant|system|tool)"))
WRITER_ROLES = frozenset({"assistant", "model", "bot", "ai", "gpt"})


# a completion that opens on another role's turn (a system or user turn the policy writes itself), and the header of
# the writer's own turn after it
_OTHER_TURN_FIRST = re.compile(r"\A\s*" + _template_header(r"system|user|human|tool") + r"\b|\A\s*" + _role_token("system|user"))
_WRITER_HEADER = re.compile(_template_header("assistant|model") + r"[ \t]*(?:<\|end_header_id\|>)?|" + _role_token("assistant"))
# a question heading that opens a line: "Question:", "**Question 2:**", "Q:", "Problem:", "### Problem 3:", "Human:", or
# a numbered question, problem or exercise ("\\textbf{Exercise 2.4.}", "**Problem 3.**", "Exercise 2.4.": holdout54;
# "Problem 2. What is ...?", a markdown heading "### Problem 2" alone on its line: holdout116)
_HEADING = (r"[ \t]*(?:#{1,4}[ \t]*(?:Question|Problem|Exercise)[ \t]+\d{1,3}[ \t]*(?=\n|\Z)|"
            r"(?:#{1,4}[ \t]*)?(?:(?:\*\*)?(?:Question|Q|Problem|Exercise|Human|User|Instruction)(?:[ \t]*\d{1,3})?"
            r"[ \t]*(?:\*\*)?[ \t]*:"
            r"|(?:\*\*|\\textbf\{)(?:Question|Problem|Exercise)[ \t]+\d{1,3}(?:\.\d{1,3})*[ \t]*[.:]?[ \t]*(?:\*\*|\})[ \t]*:?"
            r"|(?:Question|Problem|Exercise)[ \t]+\d{1,3}(?:\.\d{1,3})*[ \t]*[.:](?=[ \t\n])))")
_NEW_QUESTION = re.compile(r"^" + _HEADING, re.MULTILINE)
# a heading's line that opens on an option letter and a separator ("**Question 2:** A — oral amoxicillin for 10 days",
# "Q1: (C) Streptococcus pyogenes"): the letter answers the question numbered, as in "Question 8: A" (holdout119); "A
# patient presents ..." is the article
_LETTER_ENTRY = re.compile(r"[ \t]*(?:\*\*|__)?[ \t]*(?:\([A-E]\)|\[[A-E]\]|[A-E](?=[ \t]*(?:[—–:(,]|-[ \t]|\.(?:[ \t]|$)|\*\*|__|$)))")
# a made-up user turn on a line of its own after the writer's words, up to the writer's next header ("Assistant:")
_MADE_UP_USER_TURN = re.compile(r"(?<=\S)(\s*\n)[ \t]*(?:\*\*)?(?:Human|User)[ \t]*(?:\*\*)?[ \t]*:[^\n]*(?:\n(?![ \t]*(?:\*\*)?(?:Assistant|AI|Model)[ \t]*(?:\*\*)?[ \t]*:)[^\n]*)*")
# the text before it has stated an answer: an answer word, a box, GSM8K's "####", a number or a letter that closes a
# line ("... = 36.", "B. Queue (first in, first out)")
# an end-of-proof mark after the last sentence ("hence $x = 4$. $\\blacksquare$", "\\qed", "∎"; holdout54): it ends the
# writer's answer and states nothing
_END_OF_PROOF = re.compile(r"(?<=[.!}$)\d])[^\S\n]*(?:\$[^\S\n]*\\(?:blacksquare|square|Box|qed|QED)[^\S\n]*\$|\\(?:qed|qedhere|blacksquare|square|Box)\b|∎|□|Q\.E\.D\.?)\s*\Z")
_ANSWER_STATED = re.compile(r"\\boxed\b|\\fbox\b|^#{4}[ \t]*\S|\banswer\b|\d[^\n]*$|^[ \t]*\(?[A-E]\b[.):]?", re.IGNORECASE | re.MULTILINE)


# OpenAI Harmony's messages (gpt-oss): "<|start|>assistant<|channel|>analysis<|message|>...<|end|>", the channel named
# right before the message (a header naming a recipient, "to=functions.x", is a tool call's: call_formats.py reads it)
_HARMONY_MESSAGE = re.compile(r"(?:<\|start\|>[ \t]*assistant[ \t]*)?<\|channel\|>[ \t]*(?P<channel>analysis|commentary|final)"
                              r"[ \t]*<\|message\|>(?P<body>.*?)(?P<end><\|(?:end|return)\|>|(?=<\|start\|>)|\Z)", re.DOTALL)


def harmony_as_tags(text: str) -> str:
    """A completion in OpenAI Harmony's layout read as the think-then-answer layout every reader reads: the
    ``analysis`` channel's messages as the ``<think>`` body, the ``final`` channel's message as the answer, and what
    follows the final message's ``<|return|>`` / ``<|end|>`` kept after it, where the end of the writer's turn is
    (red team ``holdout_r47``: ``<|channel|>analysis<|message|>... about 58<|end|><|start|>assistant<|channel|>final
    <|message|><answer>58</answer><|return|>`` read as ``<think>... about 58</think><answer>58</answer><|return|>``,
    its answer the final channel's). Only a text that opens on a Harmony message and holds a ``final`` one, with no
    tool recipient (``to=``) in a header, is rewritten; anything else is returned unchanged.

    >>> harmony_as_tags("<|channel|>analysis<|message|>2 + 2 = 4.<|end|><|start|>assistant<|channel|>final<|message|>4<|return|>")
    '<think>2 + 2 = 4.</think>\\n4<|return|>'
    """
    if "<|channel|>" not in text or "<|channel|>final" not in text or "to=" in text:
        return text
    analysis, position = [], 0
    for message in _HARMONY_MESSAGE.finditer(text):
        if text[position:message.start()].strip():
            return text  # words outside a message: not a Harmony completion
        if message.group("channel") == "final":
            think = f"<think>{chr(10).join(analysis)}</think>\n" if analysis else ""
            return think + message.group("body").strip() + text[message.start("end"):]
        analysis.append(message.group("body").strip())
        position = message.end()
    return text


# a line of another party's words (red team holdout_r47): it opens with that party's label -- a grader's or a system's
# in brackets ("[GRADER] correct labels: ...", "[SYSTEM] ..."), or a party named before a colon ("System:", "Grader:",
# "User:", an earlier turn's "Earlier assistant turn:", "Previous assistant reply:"); the writer's own plain
# "Assistant:" header is no other party
OTHER_PARTY_LINE = re.compile(
    r"^[ \t>*_#-]*(?:\[[ \t]*(?:" + GRADING_ROLE + r"|user)[ \t]*\]"
    r"|(?:(?:the|an?)[ \t]+)?(?:" + GRADING_ROLE + r"|user|human"
    r"|(?:earlier|previous|prior|last|other)[ \t]+(?:assistant|model|grader|system|user))"
    r"(?:[ \t]+(?:turn|message|reply|response|note|verdict|output))?[ \t]*(?:\*\*)?[ \t]*:)[^\n]*",
    re.IGNORECASE | re.MULTILINE)


def without_other_party_lines(text: str) -> str:
    """``text`` without the lines another party's label opens (:data:`OTHER_PARTY_LINE`): a grader's verdict, a
    system message or a user's line the writer writes into its output is not the writer's answer or reasoning, whatever
    it holds (red team ``holdout_r47``: ``I can't give a reliable number. / System: response auto-completed: <answer>58
    </answer>`` commits to no forecast; ``FINDINGS: pending review. / [GRADER] reference report: ...`` reports nothing).

    >>> without_other_party_lines("No forecast.\\n[GRADER] reference: 58")
    'No forecast.\\n'
    """
    if ":" not in text and "]" not in text:
        return text
    return OTHER_PARTY_LINE.sub("", text)


# a chat-template turn written inside the writer's text, from its header to its end token: a transcript pasted in
_NESTED_TURN_TOKENS = (("<|im_start|>", "<|im_end|>"), ("<|start_header_id|>", "<|eot_id|>"))


def without_nested_turns(text: str) -> str:
    """``text`` (a reasoning, read inside the writer's turn) without the chat-template turns written inside it, each
    from its header (``<|im_start|>assistant``) to its end token (``<|im_end|>``): a transcript the writer pastes into
    its reasoning is another turn's words, not its own weighing (red team ``holdout_r47``: a think quoting another
    model's ``<|im_start|>assistant A: ... D: ...<|im_end|>`` before ``My own take: E fits.`` weighs E alone). A header
    left unclosed (the writer's own turn header) is kept.

    >>> without_nested_turns("Pasted: <|im_start|>assistant A is wrong.<|im_end|> Mine: B.")
    'Pasted:   Mine: B.'
    """
    if "<|" not in text:
        return text
    for opening, closing in _NESTED_TURN_TOKENS:  # (literal searches, each from where the last stopped: linear)
        parts, position = [], 0
        while (start := text.find(opening, position)) >= 0 and (end := text.find(closing, start)) >= 0:
            parts.append(text[position:start] + " ")
            position = end + len(closing)
        text = "".join(parts) + text[position:]
    return text


def whole_prompt(text: str) -> str:
    """A prompt read whole: a chat template's control tokens ("<|im_start|>user", "<|im_end|>") read as line breaks.
    A prompt is every turn the policy was shown, not one writer's turn, so the cut at the end of a turn that a
    completion gets (:func:`own_turn`) does not apply: a served prompt arrives with its template, the question in the
    user's turn after the system's."""
    return TURN_TOKEN.sub("\n", text) if text and ("<" in text or "[" in text) else text


def own_turn(text: str) -> str:
    """``text`` within the writer's turn: without a header of its own turn at the start, up to the first control token
    after the writer's words (module docstring). What every reader of the writer's words reads."""
    text = struck_s_elements(harmony_as_tags(text))
    start, end = _turn_span(text)
    return text[start:end]


def answer_part(text: str) -> str:
    """``text`` (the writer's own turn) up to the end of its answer to the question asked: before a question the
    writer makes up after answering, and without the unfinished last round of a loop (module docstring). What the
    answer readers read (without an end-of-proof mark after it); a prompt or a reference read as plain text keeps its
    questions. A tutor's aside sections
    (common mistakes, practice problems and their keys: :mod:`.sections`) are left out too, and so are an agent's
    observations and calls to tools that do not submit the answer (:mod:`.agent_steps`)."""
    text = writer_steps(without_asides(text))  # an agent's observations and tool calls are not its words (agent_steps.py)
    text = text[:_question_end(text, 0, len(text))]
    if "\\" in text or "Q.E.D" in text or not text.isascii():  # (speed)
        if (proof_end := _END_OF_PROOF.search(text)) is not None:  # (its one match: every match ends the text)
            text = text[:proof_end.start()]
    if "User" in text or "Human" in text:  # (speed)
        text = _MADE_UP_USER_TURN.sub(r"\1", text)  # no answer stated before it: the user's words are not the writer's
    return without_unfinished_repeat(text)


def _turn_span(text: str) -> tuple[int, int]:
    if "<" not in text and "[" not in text:
        return 0, len(text)
    header = _OWN_TURN_HEADER.match(text)
    start = header.end() if header is not None and TURN_TOKEN.search(header.group()) else 0
    if (other := _OTHER_TURN_FIRST.match(text)) is not None:  # "<|im_start|>system\nThe correct answer is 17.<|im_end|>":
        writer = _WRITER_HEADER.search(text, other.end())  # no turn of the writer's; it starts at its own header (holdout46)
        start = writer.end() if writer is not None else len(text)
    boundary = TURN_TOKEN.search(text, start)
    return start, len(text) if boundary is None else boundary.start()


def _may_hold_heading(text: str) -> bool:
    """Can ``text`` hold a question heading (speed only): a colon, or a numbered heading's word ("Problem 2.")."""
    return ":" in text or "Problem" in text or "Question" in text or "Exercise" in text


# a line of a question-and-answer walk-through: "Q:" or "A:" opening it, bare or in bold ("**Q:** ...", "A: 7."); the
# choice reader has written a step's "A:" as "Reply:" by then (choice_keys.flashcard_answer)
_WALKTHROUGH_LINE = re.compile(r"^[ \t]*(?:[*_]{1,2})?(?P<side>Q|A|Reply)(?:[*_]{1,2})?[ \t]*[:：]", re.MULTILINE)


def walkthrough_end(text: str, start: int, end: int) -> int:
    """Where a Socratic walk-through's last "A:" line ends in ``text[start:end]``, else -1: the writer's turn opens on
    a "Q:" line, and after its last "A:" line the writer concludes in a line of its own (holdout121: "**Q:** From one
    vertex, how many ...? **A:** 7. **Q:** ... **A:** 40 ÷ 2 = 20." then "So a convex octagon has \\boxed{20}
    diagonals."). Its "Q:" lines are the steps the writer asks itself, not a question made up after answering; a
    made-up "Q: ... A: ..." with no conclusion after it (a runaway continuation) stays a new question."""
    opening = _WALKTHROUGH_LINE.match(text, start, end)
    if opening is None or opening.group("side") != "Q" or text[start:opening.start()].strip():
        return -1
    last = None
    for last in _WALKTHROUGH_LINE.finditer(text, start, end):
        pass
    if last is None or last.group("side") == "Q":
        return -1
    line_end = text.find("\n", last.end(), end)
    return line_end if line_end >= 0 and text[line_end:end].strip() else -1


def _question_end(text: str, start: int, end: int) -> int:
    """Where a question the writer makes up after answering starts in ``text[start:end]``, else ``end``; the "Q:" steps
    of a Socratic walk-through that the writer concludes after its last answer line (:func:`walkthrough_end`) are
    not such questions."""
    if _may_hold_heading(text):
        steps_end = walkthrough_end(text, start, end) if "Q" in text else -1
        for heading in _NEW_QUESTION.finditer(text, start, end):
            if heading.start() < steps_end and _WALKTHROUGH_LINE.match(text, heading.start(), end) is not None:
                continue  # a step of the writer's own walk-through
            line_end = text.find("\n", heading.end())
            rest_of_line = text[heading.end():line_end if line_end >= 0 else len(text)]
            if 0 < len(rest_of_line.split()) < 3 or _LETTER_ENTRY.match(rest_of_line):
                continue  # "Question 8: A", "Q2: D", "Question 2: A — oral amoxicillin": an entry of an answer list, no question
            if _ANSWER_STATED.search(text, start, heading.start()) is not None:
                return heading.start()
    return end


def _own_turn_span(text: str) -> tuple[int, int]:
    start, end = _turn_span(text)
    return start, _question_end(text, start, end)


MAX_LOOP_LINES = 2_000


def without_unfinished_repeat(text: str) -> str:
    """``text`` without the unfinished last round of a loop: when the last line is cut off inside a line written
    before ("9 * 2 = 18" ... "9 *") and the lines right before it repeat the lines before that earlier one, those
    repeated lines and the cut-off one are dropped -- they say nothing the text has not said (holdout25: a model
    repeating its derivation until it runs out of tokens). Anything else is returned unchanged."""
    last = text[text.rfind("\n") + 1:].strip()
    if len(last) < 2 or last[-1] in ".!?)]}$":
        return text  # (speed: a last line that ends a sentence or a bracket is no cut-off round)
    if "\\boxed{" in last and (cut := _cut_off_box_copy(text, text.rfind("\n") + 1)) is not None:
        return text[:cut]  # a loop of one box on one line: "\\boxed{1000} \\boxed{1000} \\boxed{10" (holdout104)
    stop = max(text.rfind("."), text.rfind("!"), text.rfind("?"))
    if stop > 0:  # a loop of one sentence, cut off inside it: "The answer is D.The answer is D.The answer is"
        tail = text[stop + 1:].strip()
        previous = text[:stop + 1].rstrip()
        sentence = previous[max(previous.rfind(".", 0, len(previous) - 1), previous.rfind("\n")) + 1:].strip()
        if tail and sentence != tail and sentence.startswith(tail) and text.count(sentence) >= 2:
            return text[:stop + 1]
    if text.count("\n") < 2:
        return text
    lines = text.split("\n")[-MAX_LOOP_LINES:]
    count = len(lines)
    for earlier in range(count - 2, -1, -1):
        line = lines[earlier].strip()
        if line != last and line.startswith(last):
            break
    else:
        return text
    if _one_line_loop(lines, earlier):
        return text[:len(text) - len(lines[-1]) - 1]  # a loop of one line: "Answer: C" over and over, then "Answer:"
    repeated = 0  # lines before the cut-off one equal to the lines before the earlier one, not reaching past it
    while count - 2 - repeated > earlier and earlier - 1 - repeated >= 0 and (
            lines[count - 2 - repeated].strip() == lines[earlier - 1 - repeated].strip() != ""):
        repeated += 1
    if repeated == 0:  # a restart of an earlier line, cut off before its value: "Solution: ... 2 ×" (holdout116)
        return text[:len(text) - len(lines[-1]) - 1] if _restart_before_value(last, lines[earlier].strip()) else text
    cut = sum(len(line) + 1 for line in lines[count - 1 - repeated:])
    return text[:len(text) - cut]


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _restart_before_value(copy: str, line: str) -> bool:
    """Is ``copy``, the start of an earlier ``line`` that the text ends on, a restart of that line cut off before the
    value it reaches: three words or more, not cut inside a number, and without the line's last number? It says
    nothing the line has not said ("Solution: Tomato plants: 3 × 9 = 27. Pepper plants: 2 ×" after the whole line
    ending "Total: 27 + 14 = 41."); a copy cut inside a number ("\\boxed{10" of "\\boxed{1000}") may be the start of
    another value (holdout104) and stays."""
    if len(copy.split()) < 3:
        return False
    following = line[len(copy):len(copy) + 1]
    if copy[-1].isdigit() and (following.isdigit() or following in ".,"):
        return False
    numbers = _NUMBER.findall(line)
    return not numbers or numbers[-1] not in _NUMBER.findall(copy)


def _cut_off_box_copy(text: str, line_start: int) -> int | None:
    """Where the cut-off copy of a box repeated on the last line of ``text`` starts, or None: the line's last box never
    closes, what it holds is the start of the box written right before it, and that box stands twice or more in a row
    with only spaces and math delimiters between (``\\boxed{1000} \\boxed{1000} \\boxed{10``, ``\\boxed{C}\\boxed{C}\\boxed{``:
    holdout104). A box that differs from the one before it, or one box then a cut-off one, is no loop."""
    parts = text[line_start:].split("\\boxed{")
    if len(parts) < 4:  # (the text before the first box, two whole copies, the cut-off one)
        return None
    copies = [part.rstrip(" \t$") for part in parts[-3:]]
    if not copies[1].endswith("}") or copies[0] != copies[1] or copies[2] == copies[1] or not copies[1].startswith(copies[2]):
        return None
    return len(text) - len(parts[-1]) - len("\\boxed{")


def _one_line_loop(lines: list[str], earlier: int) -> bool:
    """Is the last of ``lines``, cut off inside ``lines[earlier]``, the next round of a loop of that one line: the
    nearest written line before it, and the line written before that one equal to it? Blank lines between rounds are
    the loop's spacing ("\\boxed{1000}", "", "\\boxed{1000}", "", "\\boxed{10": holdout104), so they are passed over;
    any other line between them is no loop of one line."""
    if any(line.strip() for line in lines[earlier + 1:-1]):
        return False
    before = next((line.strip() for line in reversed(lines[:earlier]) if line.strip()), None)
    return before == lines[earlier].strip()


# a turn header after the writer's turn: a template's ("<|im_start|>user", "<|start_header_id|>assistant",
# "<start_of_turn>model") or a plain one at a line start or right after a control token ("Human:", "Assistant:")
_ROLE_HEADER = re.compile(_template_header(r"(?P<role>[A-Za-z]+)")
                          + "|" + _role_token(r"(?P<tagged>user|assistant|system)")  # Phi, Zephyr: "<|user|>", "<|assistant|>"
                          + r"|(?P<inst>\[INST\])|(?P<uninst>\[/INST\])"  # Llama 2 / Mistral: the user's turn between them
                          r"|(?:^|(?<=\|>)|(?<=>)|(?<=\]))[ \t]*(?:###[ \t]*)?(?:\*\*)?(?P<named>Human|User|Assistant|AI|Model|Instruction|Response)"
                          r"[ \t]*(?:\*\*)?[ \t]*:(?:\*\*)?",
                          re.MULTILINE)
# a user turn that challenges the answer given rather than asking another question: it doubts or disputes it ("Are
# you sure?", "That's wrong, it's 1/2.", "Isn't it the ribosome?") or asks to redo it ("Simplify it further.",
# "Check again.")
_CHALLENGE = re.compile(r"\b(?:sure|really|wrong|incorrect|mistake\w*|not|no|never|disagree|doubt\w*|check|recheck|double-check|"
                        r"verify|reconsider|rethink|again|further|simplify|correct|right|think|believe|thought"
                        # the same in French, Spanish, Portuguese, Italian and German ("Tu es sûr ?", "¿Estás seguro?")
                        r"|sûre?|vraiment|faux|fausse|trompée?|seguro|segura|certeza|equivocad[oa]|errad[oa]|incorrect[oa]|"
                        r"sicur[oa]|sbagliat[oa]|sicher|wirklich|falsch|Fehler)\b|n't\b|\?\s*!|^\W*\?+\W*$"
                        r"|确定|確定|不对|不對|错了|錯了|本当|間違",  # (Chinese and Japanese: no word boundaries)
                        re.IGNORECASE)


# a question or a request for another thing: a question mark, or an opening word that asks or sets a task
_ASKS = re.compile(r"\?|^\W*(?:what|how|which|who|whom|why|when|where|find|compute|calculate|solve|evaluate|determine|"
                   r"and|now|next|also|then|give|list|name|write|explain)\b", re.IGNORECASE)


# a turn that opens by moving on to another question ("And what is its perimeter if it is a right triangle?", "Now
# find the height."): a challenge word in it ("right") does not make it a challenge
_MOVES_ON = re.compile(r"^\W*(?:and|now|next|also|then)\W+(?:what|how|which|who|when|where|find|compute|calculate|solve|"
                       r"evaluate|determine|give|list|name|write|explain|if|suppose|can|could)\b", re.IGNORECASE)


def _asks_new_question(turn: str) -> bool:
    """A user turn that asks something else (a new question, "And in 3 weeks?", "What about the lcm?", "And what is
    its perimeter if it is a right triangle?") rather than challenging the answer given ("Are you sure?", "Simplify
    it further.", "My teacher says it's 21.")."""
    return _MOVES_ON.match(turn) is not None or _ASKS.search(turn) is not None and _CHALLENGE.search(turn) is None


MAX_ROUNDS = 50  # rounds after the end of the turn read one by one (a loop of thousands of "</s>" costs what 50 do)


def later_turns(text: str) -> str:
    """What the writer writes as the assistant after its own turn ended (module docstring), the turns joined by
    blank lines; "" when there is none."""
    return "\n\n".join(later_rounds(text))


def later_rounds(text: str) -> list[str]:
    """The writer's later turns (:func:`later_turns`) one by one, and what it writes right after the end of its turn
    with no header split at each control token: an end-of-sequence token ("</s>", "<|endoftext|>") inside a
    completion is where the writer had finished once, so each stretch between two is a round of its own, read on its
    own ("Answer: D</s>Answer: A</s>Answer: D</s>": three rounds that never settle; holdout82)."""
    text = struck_s_elements(harmony_as_tags(text))
    end = _own_turn_span(text)[1]
    if end == len(text):
        return []
    rest = text[end:]
    headers = list(_ROLE_HEADER.finditer(rest))[:50]
    # what the writer goes on to write right after the end of its turn, before any header ("36</s></s> Answer: 3.6"),
    # when the turn ended at a control token (a made-up question ends it for another question's answer)
    untagged = rest[:headers[0].start() if headers else len(rest)] if TURN_TOKEN.match(rest) else ""
    turns = [part.strip() for part in TURN_TOKEN.split(untagged)[:MAX_ROUNDS]]
    for number, found in enumerate(headers):
        role = "user" if found.group("inst") else "assistant" if found.group("uninst") else (
            found.group("role") or found.group("tagged") or found.group("named")).lower()
        role = {"instruction": "user", "response": "assistant"}.get(role, role)
        end = headers[number + 1].start() if number + 1 < len(headers) else len(rest)
        body = TURN_TOKEN.sub("\n", rest[found.end():end]).strip()
        if role in WRITER_ROLES:
            turns.append(body)
        elif role in ("user", "human") and _asks_new_question(body):
            break  # what follows answers another question
    return [turn for turn in turns if turn]


def corrected_when_challenged(text: str) -> bool:
    """Does the writer, after its own turn, go on as the assistant past a user turn that replies to the answer rather
    than asking something else (a challenge: "Are you sure? That's f(10).", "That doesn't look right."; a remark: "My
    notes say otherwise.")? Its later answer is then a correction, the last word, as a self-correction inside one turn
    is ("The answer is D ... User: Are you sure? Assistant: You're right, it's B." answers B; holdout27, holdout81:
    the writer's last turn of the thread is its answer), while a later turn with no user turn before it only takes
    the answer away."""
    text = struck_s_elements(harmony_as_tags(text))
    end = _own_turn_span(text)[1]
    headers = list(_ROLE_HEADER.finditer(text, end))[:50]
    for number, found in enumerate(headers[:-1]):
        role = (found.group("role") or found.group("tagged") or found.group("named") or "").lower()
        body = text[found.end():headers[number + 1].start()]
        nxt = headers[number + 1]
        if role in ("user", "human") and not _asks_new_question(body) and (
                nxt.group("role") or nxt.group("tagged") or nxt.group("named") or "").lower() in WRITER_ROLES:
            return True
    return False


# --- the question asked, when the completion writes questions itself ----------------------------------------------
# A completion that writes question headings (few-shot "Question:" / "Q:" / "### Instruction:" blocks, invented chat
# turns) may answer the question asked under one of them, after an example it made up ("Question: Solve 3x + 1 =
# 22. Answer: x = 7. Question: <the question asked> Answer: x = 12" answers 12), or answer it twice ("Answer: D
# ... Human: <the question asked> Assistant: The answer is C." answers twice, differently). With the prompt known,
# the parts that answer the question asked are the text before the first heading and the response under each
# heading whose question is the one asked (nine in ten of its words are the prompt's, its numbers all the prompt's).

_QUESTION_HEADING = re.compile(
    r"(?:^|(?<=\|>))" + _HEADING + r"(?:\*\*)?"
    r"|<\|im_start\|>[ \t]*user\b|<\|start_header_id\|>[ \t]*user[ \t]*<\|end_header_id\|>|<start_of_turn>[ \t]*user\b|<\|user\|>|\[INST\]",
    re.MULTILINE | re.IGNORECASE)
_RESPONSE_MARK = re.compile(
    r"^[ \t]*(?:#{1,4}[ \t]*)?(?:\*\*)?(?:Answer|A|Solution|Response|Assistant)[ \t]*(?:\*\*)?[ \t]*:(?:\*\*)?"
    r"|<\|im_start\|>[ \t]*assistant\b|<\|start_header_id\|>[ \t]*assistant[ \t]*<\|end_header_id\|>|<start_of_turn>[ \t]*model\b"
    r"|<\|assistant\|>|\[/INST\]",
    re.MULTILINE | re.IGNORECASE)
_TOKEN = re.compile(r"[^\W\d_]{2,}|\d+(?:\.\d+)?")
# a heading of :data:`_QUESTION_HEADING` that opens a user's turn (a chat log's "User:", "Human:", a template's user
# header), not a few-shot item's "Question:" / "Problem:"
_USER_TURN = re.compile(r"[ \t]*(?:#{1,4}[ \t]*)?(?:\*\*)?(?:Human|User)\b|<\|im_start\|>|<\|start_header_id\|>|<start_of_turn>|<\|user\|>|\[INST\]",
                        re.IGNORECASE)


# words any question may use: they tell two questions apart no more than punctuation does
_ASKING_WORDS = frozenset("""what which who whom whose how many much is are was were does do did the a an and of for to in on
at by with from be it its that this there these those let us me now find evaluate compute calculate solve determine give
tell please answer question following value frac dfrac tfrac sqrt""".split())


def _tokens(text: str) -> list[str]:
    """The words (two letters or more, other than :data:`_ASKING_WORDS`) and numbers of ``text``, lowercased."""
    return [token for token in (found.lower() for found in _TOKEN.findall(TURN_TOKEN.sub(" ", text))) if token not in _ASKING_WORDS]


# the options of a multiple-choice question ("A. Stack", "(B) Queue", "C) Heap"): not its stem
_FIRST_OPTION = re.compile(r"(?:^|\s)\(?[A-E][.)]\s")


def _stem(question: str) -> str:
    """A question without its options: they are shared by a made-up question about them ("Who wrote 'Frankenstein'?
    A. Charlotte Brontë B. Jane Austen ..." is not "Who wrote 'Pride and Prejudice'?" with the same options)."""
    option = _FIRST_OPTION.search(question)
    return question[:option.start()] if option is not None else question


def _last_question(prompt: str) -> str:
    """The question a prompt asks: after its last question heading when it holds worked examples ("The following are
    multiple choice questions (with answers) ... Question: <the one asked>"), else the whole prompt."""
    last = None
    for last in _QUESTION_HEADING.finditer(prompt):
        pass
    return prompt[last.end():] if last is not None else prompt


def _same_question(question: str, asked: list[str]) -> bool:
    """Is ``question`` the question asked (``asked``: the prompt's tokens in order, :func:`_tokens`)? Every number of
    it the prompt's, and either the same two or more numbers as the prompt or three tokens or more, nine in ten of
    them the prompt's and in the prompt's order ("Which planet is the largest?" is not "Which planet is known as the
    Red Planet?"; "Which process changes water vapor into liquid water?" is not "Which process changes liquid water
    into water vapor?": holdout116)."""
    tokens = _tokens(question)
    numbers = {token for token in tokens if token[0].isdigit()}
    if any(number not in asked for number in numbers):
        return False
    if len(numbers) >= 2 and numbers == {token for token in asked if token[0].isdigit()}:
        return True  # "What is 7!/5!?" for "Evaluate $\\frac{7!}{5!}$": the same numbers, asked in other words
    return len(tokens) >= 3 and _in_order(tokens, asked) >= 0.9 * len(tokens)


def _in_order(tokens: list[str], asked: list[str]) -> int:
    """How many of ``tokens`` are found in ``asked`` in the same order, each after the one found before it (greedy:
    a token found nowhere after the last one found is skipped). Example: ["liquid", "water", "vapor"] in ["water",
    "vapor", "liquid", "water"] finds 2 ("liquid", "water")."""
    found, at = 0, 0
    for token in tokens:
        try:
            at = asked.index(token, at) + 1
        except ValueError:
            continue
        found += 1
    return found


def for_the_question(prompt: str, completion: str) -> list[str] | None:
    """The parts of ``completion`` that answer the question ``prompt`` asks (see above), in order: the text before
    the first question heading (left out when blank) and the response under each heading that asks it again ("" when
    that heading has none); None when no heading in the completion asks it."""
    if not prompt or not completion or not (_may_hold_heading(completion) or "<" in completion or "[" in completion):
        return None
    headings = list(_QUESTION_HEADING.finditer(completion))[:50]
    if not headings:
        return None
    asked = _tokens(_stem(_last_question(prompt)))
    parts = [completion[:headings[0].start()]] if completion[:headings[0].start()].strip() else []
    matched = in_thread = False
    for number, heading in enumerate(headings):
        end = headings[number + 1].start() if number + 1 < len(headings) else len(completion)
        block = completion[heading.end():end]
        response = _RESPONSE_MARK.search(block)
        question = block[:response.start()] if response else block
        if _same_question(_stem(question), asked):
            matched = in_thread = True
            parts.append(block[response.end():] if response else "")
        elif in_thread and _USER_TURN.match(heading.group()) and not _asks_new_question(question):
            parts[-1] += completion[heading.start():end]  # the user's reply to the answer and the writer's next turn
        else:
            in_thread = False
    return parts if matched else None


# --- a new item of the prompt's own few-shot template ----------------------------------------------------------------
# A base model trained on a few-shot prompt answers, then goes on with the template: a made-up next item (holdout54).
# The prompt shows the template: its items each end in a line that opens with the same answer mark ("Answer:", "A:",
# "Solution:"), the last one left for the writer; they may each open with the same header ("Question:", "Q:",
# "Problem 2:") or none (MMLU: the question, its options, "Answer:").

# the answer mark that opens a line of the prompt: the word is captured
_ITEM_MARK = re.compile(r"^[ \t]*(?P<mark>(?:#{1,4}[ \t]*)?(?:Answer|A|Solution|Response|Output)[ \t]*:)", re.MULTILINE)
# a header opening an item's first line: a word of two letters or more, or "Q", with a number or not, then ":" or "."
# ("Question:", "Q3.", "Problem 2:", "### Instruction:"; not an option "A." or a step "1.")
_ITEM_HEADER = re.compile(r"[ \t]*(?:#{1,4}[ \t]*)?(?:\*\*)?(?:[A-Za-z]{2,12}|Q)(?:[ \t]*\d{1,3})?[ \t]*(?:\*\*)?[ \t]*[:.]")
_OPTION_LINE = re.compile(r"^[ \t]*\(?[A-J][.)][ \t]+\S", re.MULTILINE)
_PARAGRAPH_START = re.compile(r"(?:\A|\n[ \t]*\n)[ \t]*(?=\S)")


def _item_opening(prompt: str, start: int, mark_at: int) -> int:
    """Where the prompt's item whose answer mark is at ``mark_at`` opens (the item starts after ``start``): at the
    mark's paragraph, or the paragraph before when the mark opens its own (Minerva's "Solution:")."""
    opening = max(prompt.rfind("\n\n", start, mark_at) + 2, start)
    if opening >= mark_at - 1:
        opening = max(prompt.rfind("\n\n", start, max(opening - 2, start)) + 2, start)
    return opening


@lru_cache(maxsize=256)  # (speed: a group's completions share their prompt)
def _template(prompt: str) -> tuple[str, re.Pattern[str] | None, bool, str] | None:
    """The prompt's few-shot template, or None when it shows none: its answer mark (as written), the pattern of the
    header every item opens with (None when they share none), whether its last item lists options, and that item
    (the question asked). A template is two items or more, or one under a header or listing options (MMLU's
    question, its options, "Answer:"), the last one's mark closing the prompt."""
    marks = list(_ITEM_MARK.finditer(prompt))
    if not marks or prompt[marks[-1].end():].strip():
        return None
    mark = marks[-1].group("mark").strip()
    marks = [found for found in marks if found.group("mark").strip() == mark][-20:]
    headers, start, opening = set(), 0, 0
    for found in marks:
        opening = _item_opening(prompt, start, found.start())
        header = _ITEM_HEADER.match(prompt, opening)
        headers.add(re.sub(r"\d+", "0", header.group().strip()) if header else None)
        start = max(prompt.find("\n\n", found.end()), found.end())
    header = headers.pop() if len(headers) == 1 else None
    last = prompt[opening:marks[-1].start()]
    options = len(_OPTION_LINE.findall(last)) >= 2
    if header is None and len(marks) < 2 and not options:
        return None  # one item with neither a header nor options: no template shown (an MMLU item is one: holdout116)
    pattern = None if header is None else re.compile(r"^[ \t]*" + re.escape(header).replace("0", r"\d{1,3}"), re.MULTILINE)
    return mark, pattern, options, last


def _options_item(prompt: str) -> tuple[str, None, bool, str] | None:
    """The template a multiple-choice prompt shows without an answer mark of its own: its question and options are
    an item, answered after "Answer:" (a made-up next question -- "Question 2: ...? / A. Joule ... / Answer: C" -- has
    that shape: holdout116); None when the prompt lists no options."""
    return ("Answer:", None, True, prompt) if len(_OPTION_LINE.findall(prompt)) >= 2 else None


def template_item_start(prompt: str, completion: str) -> int | None:
    """Where ``completion`` opens a new item of ``prompt``'s few-shot template, or None: a line that opens with the
    header of the prompt's items, or a paragraph in the shape of one (a question -- its options when the prompt's
    item lists options, else a first line ending in "?" -- then a line that opens with the prompt's answer mark);
    an item that asks the question asked is no new one. What follows is a made-up next example (or an exemplar
    echoed): it neither supplies the answer nor takes it away; the answer is what comes before it."""
    if not prompt or ":" not in completion:
        return None
    template = _template(whole_prompt(prompt)) or _options_item(whole_prompt(prompt))
    if template is None:
        return None
    mark, header, options, last = template
    asked = _tokens(_stem(_last_question(last)))
    starts = {at.end() for at in _PARAGRAPH_START.finditer(completion)}
    if header is not None:
        starts.update(at.start() for at in header.finditer(completion))
    for start in sorted(starts)[:50]:
        stop = completion.find("\n\n", start)
        block = completion[start:stop if stop >= 0 else len(completion)]
        at = block.find("\n" + mark)
        question = block[:at] if at > 0 else block
        if header is not None and header.match(completion, start):
            question = question[header.match(completion, start).end() - start:]
        elif at <= 0 or not (len(_OPTION_LINE.findall(question)) >= 2 if options else question.split("\n", 1)[0].rstrip().endswith("?")):
            continue
        if not _same_question(_stem(question), asked):
            return start
    return None


# --- a made-up next case after (or instead of) the answer --------------------------------------------------------
# A policy that runs past its answer goes on with the task's own shape: "Case 2:", "Example 4", "Question 2:",
# "Report 3:", "Q:", or a line that opens as the prompt opens ("Hourly PM2.5 (µg/m³) at <another station> on <another
# day>, ..."), then a made-up case and often its answer (red team holdout_r50). What stands from there on answers that
# case, not the one asked: it neither supplies the answer nor takes it away.

# a case heading that opens a line: a word naming an item of the task, numbered or bare, then ":" / "." / a line end
_CASE_HEADING = re.compile(r"^[ \t]*(?:#{1,4}[ \t]*)?(?:\*\*)?(?P<word>Case|Example|Question|Report|Patient|Problem|Exercise|Item|Q)"
                           r"(?:[ \t]*#?[ \t]*(?P<number>\d{1,3}))?[ \t]*(?:\*\*)?[ \t]*(?:[:.)][ \t]*(?:\*\*)?|(?=\n))", re.MULTILINE)
_PROMPT_OPENING_WORDS = 4  # a line that opens with the prompt's first words, this many, restarts its case


def _opening_words(text: str) -> list[str]:
    return [word.lower() for word in re.findall(r"\S+", text)]


def _lists_options(text: str, at: int) -> bool:
    """Does the paragraph from ``at`` list two options or more ("A. Deny it", "B. Refer her")? A bare "Q:" opens a new
    case only as a multiple-choice item does; one without options is the writer's own question about the case ("Q:
    Could the big heart be the AP projection? A: Yes, ..." in a report: red team holdout_r43)."""
    stop = text.find("\n\n", at)
    return len(_OPTION_LINE.findall(text[at:stop if stop >= 0 else len(text)])) >= 2


def invented_case_start(prompt: str, completion: str, start: int = 0) -> int | None:
    """Where ``completion`` opens a made-up next case at or after ``start``, or None (red team ``holdout_r50``):

    * a line that opens with a case heading (``Case 2:``, ``### Example 4``, ``Question 5:``, ``Report:``; a numbered
      one needs words after it, so an answer list's ``Question 2: B`` is none; a bare ``Q:`` or ``Question:`` one needs
      options after it) whose words (on its line, else the next line) are not the prompt's (:func:`_same_question`):
      ``Q: <the question asked>`` or ``Report: FINDINGS: <the report given>`` restates the case, it opens none;
    * a line that opens with the prompt's first words (:data:`_PROMPT_OPENING_WORDS`) and is not the prompt's first
      line, or is, but a line after it in its paragraph gives one of the prompt's labels other content (``Present:
      atelectasis`` under the prompt's instruction again, for a prompt whose ``Present:`` line lists other findings).

    >>> invented_case_start("FINDINGS: Small effusion.", "<answer>pleural effusion</answer>\\n\\nCase 2:\\nFINDINGS: Large pneumothorax.")
    35
    >>> invented_case_start("FINDINGS: Small effusion.", "Report: FINDINGS: Small effusion.\\n<answer>pleural effusion</answer>") is None
    True
    >>> invented_case_start("Write the findings section.\\nPresent: edema", "The lungs are wet.\\nWrite the findings section.\\nPresent: atelectasis")
    19
    """
    if not prompt or not completion:
        return None
    prompt = whole_prompt(prompt)
    found = [at for at in (_case_heading_start(prompt, completion, start), _prompt_restart(prompt, completion, start))
             if at is not None]
    return min(found, default=None)


def _case_heading_start(prompt: str, completion: str, start: int) -> int | None:
    """The first case heading at or after ``start`` that opens a case other than the prompt's (see above), or None."""
    asked = _tokens(prompt)
    for heading in list(_CASE_HEADING.finditer(completion, start))[:50]:
        number = heading.group("number")
        if not number and heading.group("word") in ("Q", "Question") and not _lists_options(completion, heading.end()):
            continue  # "Q: Could the big heart be the AP projection? A: Yes": the writer's question about the case
        line_end = completion.find("\n", heading.end())
        rest = completion[heading.end():line_end if line_end >= 0 else len(completion)].strip()
        if number is not None and 0 < len(rest.split()) < 3:
            continue  # "Question 8: A", "Q2: D": an entry of an answer list
        if not rest and line_end >= 0:
            rest = completion[line_end + 1:].lstrip("\n").split("\n", 1)[0].strip()
        if len(_tokens(rest)) >= 2 and not _same_question(_stem(rest), asked):
            return heading.start()
    return None


def _normalised_line(line: str) -> str:
    return " ".join(_opening_words(line))


def _prompt_restart(prompt: str, completion: str, start: int) -> int | None:
    """The first line at or after ``start`` that opens as the prompt does and restarts it for another case (see
    above), or None."""
    lines = [line for line in prompt.splitlines() if line.strip()]
    opening = _opening_words(lines[0])[:_PROMPT_OPENING_WORDS] if lines else []
    if len(opening) < _PROMPT_OPENING_WORDS:
        return None
    own = {_normalised_line(line) for line in lines}
    labels = {line.split(":", 1)[0].strip().lower() for line in lines if ":" in line and len(line.split(":", 1)[0].split()) <= 3}
    pattern = r"^[ \t]*" + r"\s+".join(re.escape(word) for word in opening)
    for restart in list(re.finditer(pattern, completion[start:], re.MULTILINE | re.IGNORECASE))[:50]:
        at = start + restart.start()
        stop = completion.find("\n\n", at)
        paragraph = [line for line in completion[at:stop if stop >= 0 else len(completion)].splitlines() if line.strip()][:12]
        if _normalised_line(paragraph[0]) not in own:
            return at  # "Hourly PM2.5 (µg/m³) at <the same station> on <the next day>, ..."
        for line in paragraph[1:]:
            label = line.split(":", 1)[0].strip().lower() if ":" in line else ""
            if label in labels and _normalised_line(line) not in own:
                return at  # the prompt's instruction again, its "Present:" line listing other findings
    return None


# speed only (issue #35): searches skipped on texts that lack every set of words a match needs (same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "_QUESTION_HEADING _NEW_QUESTION TURN_TOKEN")

# speed only (issue #35): the end-of-proof mark ends the text, so it is searched from the longest tail of the text made
# of the characters it can consume (regex_scan.TailScanned: the same match), not tried at every position of the part
from polyreward.verifiers.regex_scan import tail_scanned  # noqa: E402

_END_OF_PROOF = tail_scanned(_END_OF_PROOF)


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
MIN_ECHO_WORDS = 5


def _names_one_option(paragraph: str, prompt: str) -> bool:
    """Is ``paragraph`` (one line) an option's line of ``prompt`` or a part of one: a choice named by its label or its
    text ("(E) I and III only", "The mitochondria is the powerhouse of the cell"), not an echo?"""
    return _OPTION_LINE.match(paragraph) is not None or any(
        paragraph in line.group() for line in re.finditer(r"^[ \t]*\(?[A-J][.)][ \t]+[^\n]*", prompt, re.MULTILINE))


def without_echoed_prompt_tail(prompt: str, completion: str) -> str:
    """``completion`` without the paragraphs it ends on that copy the prompt word for word (five words or more each,
    after words of the writer's own): the prompt's template or instruction echoed by a model that does not stop
    ("$\\boxed{12}$ / Please reason step by step, and put your final answer within \\boxed{}." reads the box, not the
    instruction's empty one: holdout116); one option's line or text alone ("(E) I and III only") is a choice, not an
    echo. The
    completion as it came when it ends on no such copy."""
    if not prompt or len(completion) < 2 * MIN_ECHO_WORDS:
        return completion
    shown = whole_prompt(prompt)
    end = len(completion.rstrip())
    while True:
        breaks = list(_PARAGRAPH_BREAK.finditer(completion, 0, end))
        if not breaks:
            return completion if end == len(completion.rstrip()) else completion[:end]
        paragraph = completion[breaks[-1].end():end].strip()
        if (len(paragraph.split()) < MIN_ECHO_WORDS or paragraph not in shown or not completion[:breaks[-1].start()].strip()
                or "\n" not in paragraph and _names_one_option(paragraph, shown)):  # "(E) I and III only": one option, chosen
            return completion if end == len(completion.rstrip()) else completion[:end]
        end = breaks[-1].start()


def answer_for_the_question(prompt: str, completion: str, read: Callable[[str], object]) -> tuple[str, bool]:
    """``completion`` cut to its last part that answers the question ``prompt`` asks (:func:`for_the_question`), and
    whether two of its parts answer it differently (``read``: a part's answer as a comparable key, or None when the
    part gives none) or it ends in a loop that flips between two answers (:func:`flips_in_loop`). The completion
    whole when it asks no question of its own; the text under the asked part's label where it answers every labelled
    part the prompt lists, one to a line (:func:`.asked_part.asked_part`); nothing where it closes on another part's
    label, the asked one never labelled (:func:`.asked_part.answers_another_part`)."""
    completion = without_echoed_prompt_tail(prompt, completion)
    parts = for_the_question(prompt, completion)
    if parts is None:
        item = template_item_start(prompt, completion)
        if item is not None:  # a made-up next item of the prompt's template: the answer is what comes before it
            completion = completion[:item]
        elif (part := asked_part(prompt, completion)) is not None:  # "(a) ... = $12 / (b) ... = 9 pens" for part (b) (asked_part.py)
            completion = part
        elif answers_another_part(prompt, completion):  # "Question 1: B" closing, Question 2 asked (asked_part.py)
            completion = ""
        return completion, flips_in_loop(completion, read)
    return parts[-1], len({found for found in map(read, parts) if found is not None}) > 1 or flips_in_loop(parts[-1], read)


_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")
# a line that states an answer in a loop's round: an answer word, a box, GSM8K's "####"
_ANSWER_LINE = re.compile(r"\\boxed\b|\\fbox\b|^\W*#{4}|\banswer\b", re.IGNORECASE)
MAX_ROUND_LINES = 6


def loop_round(text: str) -> list[str] | None:
    """The lines of the round a text ends by repeating (three rounds or more of two to six lines, an unfinished last
    line left out), or None when it ends in no such loop; a last line of short sentences is read as lines ("No, C. No,
    D. C. D. C. D. C. D. C.": holdout49)."""
    tail = text[-4000:]
    last = tail[tail.rfind("\n") + 1:]
    if last.count(". ") >= 5:
        tail = tail[:len(tail) - len(last)] + "\n".join(_SENTENCE_BREAK.split(last))
    if tail.count("\n") < 5:
        return None
    lines = [line.strip() for line in tail.split("\n") if line.strip()]
    if len(lines) >= 2 and any(line != lines[-1] and line.startswith(lines[-1]) for line in lines[-MAX_ROUND_LINES - 1:-1]):
        lines.pop()  # the round cut off inside a line
    for size in range(2, MAX_ROUND_LINES + 1):
        if len(lines) >= 3 * size and lines[-size:] == lines[-2 * size:-size] == lines[-3 * size:-2 * size] and len(set(lines[-size:])) > 1:
            return lines[-size:]
    return None


def flips_in_loop(text: str, read: Callable[[str], object]) -> bool:
    """Does ``text`` end in a loop whose round states two different answers ("Answer: C / No, Answer: D" over and
    over, holdout37)? Where the loop is cut decides which one comes last, so it commits to neither. Only the round's
    lines that state an answer (:data:`_ANSWER_LINE`) are read, one by one (``read``: as in
    :func:`answer_for_the_question`); a loop through the steps of one derivation flips nothing."""
    round_lines = loop_round(text)
    if round_lines is None:
        return False
    return len({found for line in round_lines if (_ANSWER_LINE.search(line) or len(line.split()) <= 2)
                and (found := read(line)) is not None}) > 1  # (a line of two words at most, "No, C.", states only its value)


# one statement of an answer, its value masked: a box, a number, a lone capital letter ("The answer is ▯.", "Answer: ▯")
_STATED_VALUE = re.compile(r"\\(?:boxed|fbox)\{[^{}\n]{0,40}\}|-?\d+(?:[.,]\d+)*|(?<![\w'])[A-J](?![\w'])")
_STATEMENT_BREAK = re.compile(r"(?<=[.!?])[^\S\n]+|\n+")
MAX_STATEMENTS = 200


def alternates(text: str) -> bool:
    """Does ``text`` end in a run of statements of one form ("The answer is 6. The answer is 8. The answer is 6.",
    "Answer: A / Answer: B / Answer: A") whose values return to one after stating another? Consecutive statements that
    differ only in their value, with nothing between, are a loop, not a correction: one that comes back to a value it
    left never settles on either, whichever the run happens to end on (holdout82). A run that repeats one value, or
    changes once and stays ("6. ... 8. ... 8."), settles; a correction in words between two statements breaks the run,
    and up to three closing remarks with no value after it are read past."""
    statements = [part.strip() for part in _STATEMENT_BREAK.split(text[-4000:]) if part.strip()][-MAX_STATEMENTS:]
    for _ in range(3):  # a closing remark with no value after the run ("Hope this helps!") is read past
        if statements and _STATED_VALUE.search(statements[-1]) is None:
            statements.pop()
    if len(statements) < 3:
        return False
    masked = _MaskedStatements(statements)
    if _two_form_cycle(statements, masked):
        return True
    form = masked.form(-1)
    if "\u25af" not in form or len(form) > 80:
        return False
    values: list[tuple[str, ...]] = []
    for at in range(-1, -len(statements) - 1, -1):
        if masked.form(at) != form:
            break
        values.append(masked.values(at))
    values.reverse()
    left: set[tuple[str, ...]] = set()
    for previous, value in zip(values, values[1:]):
        if value != previous:
            left.add(previous)
            if value in left:
                return True  # back to a value it had left
    return False



class _MaskedStatements:
    """The statements' forms (each value masked as ``▯``: ``"The answer is ▯."``) and their values
    (``("42",)``), each read at its first use and then remembered (speed only, issue #35: a completion's run is
    decided by its last few statements, and the readers above compare forms from the end, stopping at the first that
    differs; every statement's form and values read up front cost ~2 µs each).

    >>> masked = _MaskedStatements(["Step 2: 3 + 4 = 7.", "The answer is 7."])
    >>> masked.form(-1), masked.values(-1)
    ('The answer is ▯.', ('7',))
    """

    __slots__ = ("statements", "_forms", "_values")

    def __init__(self, statements: list[str]) -> None:
        self.statements = statements
        self._forms: dict[int, str] = {}
        self._values: dict[int, tuple[str, ...]] = {}

    def form(self, at: int) -> str:
        at %= len(self.statements)
        if at not in self._forms:
            self._forms[at] = _STATED_VALUE.sub("\u25af", self.statements[at])
        return self._forms[at]

    def values(self, at: int) -> tuple[str, ...]:
        at %= len(self.statements)
        if at not in self._values:
            self._values[at] = tuple(found.group() for found in _STATED_VALUE.finditer(self.statements[at]))
        return self._values[at]


def _two_form_cycle(statements: list[str], masked: _MaskedStatements | None = None) -> bool:
    """Do ``statements`` end in a cycle of two or three statements of different forms, each stating one value, repeated
    three times or more with at least two values of one kind among them (numbers or letters: "Total = 260. Or 240?
    Total = 260. Or 240? ...", holdout87)? Such a loop offers the other value again each time round, so the last statement
    settles nothing. A cycle of ``period`` statements repeated three times needs ``3 * period`` statements: fewer are
    not read at all (speed only)."""
    masked = masked if masked is not None else _MaskedStatements(statements)
    form, values = masked.form, masked.values
    for period in (2, 3):
        if len(statements) < 3 * period:
            continue  # (run + period >= 3 * period below needs run >= 2 * period, and run <= len(statements) - period)
        run = 0
        while run + period < len(statements) and form(-1 - run) == form(-1 - run - period):
            run += 1
        cycle = list(range(len(statements) - period, len(statements)))
        if (run + period >= 3 * period and len({form(at) for at in cycle}) == period
                and all(len(values(at)) == 1 and len(form(at)) <= 80 for at in cycle) and len({values(at) for at in cycle}) >= 2
                and len({values(at)[0].isalpha() for at in cycle}) == 1):
            return True  # (values of one kind: "| C." then "900° | does not fit |" is a table's rows, "$17$. I hope" a pronoun)
    return False
