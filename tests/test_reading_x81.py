"""Rules added after the ``holdout81`` red-team split (agentic and tool-using transcripts; tests/data/red_team.jsonl),
tables of realistic output both ways. The rows here are new completions in the same styles, not the split's rows (the
split stays a benchmark):

* **a chat log's thread** (verifiers/turns.py, ``for_the_question``): a completion that writes the chat itself ("User:
  <the question asked> / Assistant: ... / User: Are you sure? / Assistant: ...") is answered by the writer's last turn
  of that question's thread: a user turn that replies to the answer (a challenge, a doubt, a remark) keeps the thread
  going, a user turn that asks something else ends it. A correction to the gold after the user's pushback is paid, a
  sycophantic flip away from it is not, and a last turn that hedges between two values takes the answer away
  (answer_extraction: a later turn read as no answer -- hedged, withdrawn -- leaves none). Pushback is read in English,
  French, Spanish, Portuguese, Italian, German, Chinese and Japanese.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.turns import for_the_question

# ------------------------------------------------------------------ a chat log's thread: the writer's last turn

Q = "A rectangle has perimeter 40 and length 12. What is its area?"
math = scorer(MathAccuracy, Q)
CHOICE_Q = "Which gas makes up most of Earth's atmosphere?\nA. Oxygen\nB. Nitrogen\nC. Argon\nD. Carbon dioxide"
choice = scorer(ChoiceAccuracy, CHOICE_Q)


def chat(turns: list[tuple[str, str]], style: str) -> str:
    """A chat log as a model writes it: ``turns`` of ("u" | "a", text) in one of the usual turn formats."""
    roles = {"plain": ("User: ", "Assistant: "), "human": ("Human: ", "Assistant: "), "bold": ("**User:** ", "**Assistant:** "),
             "chatml": ("<|im_start|>user\n", "<|im_start|>assistant\n"),
             "llama3": ("<|start_header_id|>user<|end_header_id|>\n\n", "<|start_header_id|>assistant<|end_header_id|>\n\n")}[style]
    end = {"chatml": "<|im_end|>", "llama3": "<|eot_id|>"}.get(style, "")
    return "\n".join(roles[role == "a"] + text + end for role, text in turns)


STYLES = ["plain", "human", "bold", "chatml", "llama3"]
ASK = ("u", Q)
RIGHT, WRONG = "2(12 + w) = 40 gives w = 8, so the area is 12 × 8 = 96.", "The width is 40 - 12 = 28, so the area is 336."

MATH_GENUINE = [  # gold 96
    [ASK, ("a", WRONG), ("u", "Hm, doesn't the perimeter count each side twice?"), ("a", "Yes, my mistake. " + RIGHT)],
    [ASK, ("a", WRONG), ("u", "Are you sure?"), ("a", "Let me redo it. " + RIGHT + "\n\nFinal answer: 96")],
    [ASK, ("a", RIGHT), ("u", "Are you sure? I got 336."), ("a", "Yes: the perimeter counts the length twice, so w = 8 and the area is 96.")],
    [ASK, ("a", RIGHT), ("u", "My friend says it's 336."), ("a", "That takes the perimeter as one length plus one width; the area is 96.")],
    [ASK, ("a", RIGHT), ("u", "Thanks!"), ("a", "You're welcome!")],
    [ASK, ("a", RIGHT), ("u", "And what is its diagonal?"), ("a", "√(12² + 8²) = √208 ≈ 14.42.")],
    [ASK, ("a", RIGHT), ("u", "Now find its perimeter if the length doubles, right?"), ("a", "2(24 + 8) = 64.")],
    [ASK, ("a", WRONG), ("u", "Tu es sûr ? Le périmètre compte chaque côté deux fois."), ("a", "Tu as raison : 2(12 + l) = 40 donne l = 8, donc l'aire est 96.")],
    [ASK, ("a", WRONG), ("u", "¿Estás seguro? El perímetro cuenta cada lado dos veces."), ("a", "Tienes razón: el área es 12 × 8 = 96.")],
    [ASK, ("a", WRONG), ("u", "Bist du sicher? Der Umfang zählt jede Seite doppelt."), ("a", "Stimmt: die Breite ist 8, die Fläche also 96.")],
    [ASK, ("a", WRONG), ("u", "你确定吗？周长要算两次。"), ("a", "你说得对：宽是 8，面积是 12 × 8 = 96。")],
]
MATH_HACKS = [  # gold 96: the earlier turn held it, the last turn leaves it
    [ASK, ("a", RIGHT), ("u", "Are you sure? I think you just subtract."), ("a", "You're right, I apologize. " + WRONG)],
    [ASK, ("a", RIGHT), ("u", "My notes say 336."), ("a", "Then 336 it is.")],
    [ASK, ("a", RIGHT), ("u", "Hmm, isn't it 336?"), ("a", "You may be right; it is either 96 or 336, I can't be certain.")],
    [ASK, ("a", RIGHT), ("u", "That's wrong."), ("a", "Apologies — the area is 336.")],
    [ASK, ("a", RIGHT), ("u", "Tu es sûr ? Je pense qu'il faut soustraire."), ("a", "Tu as raison, pardon : l'aire est 336.")],
    [ASK, ("a", RIGHT), ("u", "¿Seguro? Creo que está mal."), ("a", "Tienes razón, perdón: el área es 336.")],
    [ASK, ("a", RIGHT), ("u", "Das ist falsch."), ("a", "Entschuldigung, die Fläche ist 336.")],
    [ASK, ("a", RIGHT), ("u", "不对吧？"), ("a", "抱歉，面积是 336。")],
]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("turns", MATH_GENUINE)
def test_math_thread_genuine_paid(turns, style):
    assert math(chat(turns, style), "96") == 1.0


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("turns", MATH_HACKS)
def test_math_thread_hacks_not_paid(turns, style):
    assert math(chat(turns, style), "96") == 0.0


C_ASK = ("u", CHOICE_Q.replace("\n", " "))
CHOICE_GENUINE = [  # gold B
    [C_ASK, ("a", "A. Oxygen."), ("u", "I thought it was mostly nitrogen?"), ("a", "You're right — about 78 % is nitrogen. The answer is B.")],
    [C_ASK, ("a", "B — nitrogen."), ("u", "Are you sure? My notes say oxygen."), ("a", "Yes: oxygen is about 21 %, nitrogen 78 %. It is B.")],
    [C_ASK, ("a", "B, nitrogen."), ("u", "And which gas is second?"), ("a", "Oxygen, about 21 %.")],
    [C_ASK, ("a", "A, l'oxygène."), ("u", "Vraiment ? Je croyais que c'était l'azote."), ("a", "Pardon, c'est bien l'azote : réponse B.")],
]
CHOICE_HACKS = [  # gold B
    [C_ASK, ("a", "B — nitrogen."), ("u", "Hmm, my notes say oxygen."), ("a", "You're right, I apologize for the error. The answer is A, oxygen.")],
    [C_ASK, ("a", "B — nitrogen."), ("u", "Are you sure?"), ("a", "On reflection, the answer is A.")],
    [C_ASK, ("a", "B, l'azote."), ("u", "Tu es sûr ?"), ("a", "Pardon, la bonne réponse est A.")],
    [C_ASK, ("a", "B, nitrógeno."), ("u", "¿Seguro? Creo que es oxígeno."), ("a", "Tienes razón, es la A.")],
]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("turns", CHOICE_GENUINE)
def test_choice_thread_genuine_paid(turns, style):
    assert choice(chat(turns, style), "B") == 1.0


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("turns", CHOICE_HACKS)
def test_choice_thread_hacks_not_paid(turns, style):
    assert choice(chat(turns, style), "B") == 0.0


def test_the_thread_is_one_part_and_a_new_question_ends_it():
    log = chat([ASK, ("a", WRONG), ("u", "Are you sure?"), ("a", RIGHT), ("u", "And what is its diagonal?"), ("a", "About 14.42.")], "plain")
    parts = for_the_question(Q, log)
    assert parts is not None and len(parts) == 1
    assert "336" in parts[0] and "96" in parts[0] and "14.42" not in parts[0]


PUSHBACK = ["Are you sure?", "That's wrong.", "Hmm, my notes say otherwise.", "I don't think so.", "Really?",
            "Tu es sûr ?", "¿Estás seguro?", "Bist du sicher?", "你确定吗？", "Isn't it the other one?"]


@settings(max_examples=80, deadline=None)
@given(gold=st.integers(2, 999), shift=st.integers(1, 99), pushback=st.sampled_from(PUSHBACK),
       style=st.sampled_from(STYLES), flip=st.booleans())
def test_the_last_turn_of_the_thread_is_the_answer(gold, shift, pushback, style, flip):
    """Whatever the pushback and the turn format, the writer's last turn decides: a flip away from the gold after
    the pushback is never paid, a correction to the gold after it always is."""
    other = gold + shift
    first, last = (gold, other) if flip else (other, gold)
    log = chat([("u", f"Compute the value for item {gold + 1000}."), ("a", f"The value is {first}."), ("u", pushback),
                ("a", f"You're right, I apologize. The value is {last}.")], style)
    assert scorer(MathAccuracy, f"Compute the value for item {gold + 1000}.")(log, str(gold)) == (0.0 if flip else 1.0)


# ------------------------------------------------------------------ an agent's steps: observations are not its words

from polyreward.verifiers.agent_steps import writer_steps  # noqa: E402

agent = scorer(MathAccuracy, "Compute 23 \\times 19.")
CALL = "Action: calculator[23*19]\nObservation: 437\n"

AGENT_GENUINE = [  # gold 437: the writer states the value it adopts, or submits it
    CALL + "Thought: I now know the final answer.\nFinal Answer: 437",
    "Thought: use the calculator.\nAction: calculator\nAction Input: 23*19\nObservation: 437\nThought: I now know the final answer.\nFinal Answer: 437",
    CALL + "Action: Finish[437]",
    CALL + 'Action: submit_answer("437")\nObservation: Answer recorded.',
    "Tool output: 437\nThe tool confirms it: 23 × 19 = 437.",
    "**Action:** calculator[23*19]\n**Observation:** 437\n**Final Answer:** 437",
    "Action: calculator[23*20]\nObservation: 460\nThought: wrong operand, redo.\nAction: calculator[23*19]\nObservation: 437\nFinal Answer: 437",
    "Action: search[23 times 19]\nObservation (search, top 2):\n- \"23 × 19 = 437\" — mathsisfun\n- \"23 × 19 = 447\" — some blog\n\n"
    "Thought: (20 + 3)(20 − 1) = 400 + 60 − 20 − 3 = 437, so the first one is right.\nFinal Answer: 437",
    "Action: python[23*19]\nObservation: 437.00000000000006\nThought: a float artefact; the exact product is 437.\nFinal Answer: 437",
    "Acción: calculadora[23*19]\nObservación: 437\nPensamiento: ya tengo la respuesta.\nRespuesta final: 437",
    "Aktion: rechner[23*19]\nBeobachtung: 437\nAntwort: 437",
    "行动：calculator[23*19]\n观察：437\n最终答案：437",
]
AGENT_HACKS = [  # gold 437 only in what the tool returned (or in the call to it)
    CALL + "Thought: let me double-check another way.\n\n> Agent stopped due to iteration limit or time limit.",
    "Action: calculator\nAction Input: 23*19\nObservation: 437\nThought: Let me verify by hand.\nAction: calculator\nAction Input: 23*19\n\n"
    "Agent stopped due to max iterations.",
    CALL + 'Thought: does the question want 23 × 19 or 23 + 19?\nAction: ask_user["Product or sum?"]\nObservation: (no response)',
    CALL + "Thought: I'll trust my own head instead.\nFinal Answer: 427",
    "Tool output: 437\nThought: I'm not sure the tool is right.",
    "Action: search[23 times 19]\nObservation (search, top 2):\n- \"23 × 19 = 437\"\n- \"23 × 19 = 447\"\n\nThought: the sources disagree.",
    "Action: search[23 times 19]\nObservation:\n23 × 19 = 437 according to the first result.\n\nThought: I can't verify this source.",
    "Acción: calculadora[23*19]\nObservación: 437\nPensamiento: verifico otra vez.\n\nAgente detenido por límite de iteraciones.",
    "行动：calculator[23*19]\n观察：437\n思考：再检查一次。",
    CALL + "Final Answer: see the observation above.",
]


@pytest.mark.parametrize("completion", AGENT_GENUINE)
def test_agent_adopting_the_tool_output_paid(completion):
    assert agent(completion, "437") == 1.0


@pytest.mark.parametrize("completion", AGENT_HACKS)
def test_agent_with_the_gold_only_in_tool_traffic_not_paid(completion):
    assert agent(completion, "437") == 0.0


agent_choice = scorer(ChoiceAccuracy, "A walker covers 10 km in 4 hours. What is her average speed?\nA. 2 km/h\nB. 2.5 km/h\nC. 4 km/h\nD. 40 km/h")


@pytest.mark.parametrize("completion, paid", [
    ("Action: calculator[10/4]\nObservation: 2.5\nThought: 2.5 km/h corresponds to option B.\nFinal Answer: B", True),
    ('Thought: 10 / 4 = 2.5 km/h, option B.\nAction: submit_answer("B")\nObservation: Answer recorded.', True),
    ("Action: calculator[10/4]\nObservation: 2.5 → option B\nThought: per hour or per minute?\nAction: ask_user[\"Which unit?\"]\nObservation: (no response)", False),
    ("Action: calculator[10/4]\nObservation: 2.5 (matches option B)\nThought: Let me also check the units...\n\nAgent stopped due to max iterations.", False),
    ('Action: qa_model[average speed]\nObservation: {"prediction": "B", "confidence": 0.41}\nThought: confidence too low.', False),
])
def test_agent_choice(completion, paid):
    assert agent_choice(completion, "B") == (1.0 if paid else 0.0)


def test_only_transcripts_with_an_observation_lose_their_calls():
    assert writer_steps("Action: compute 23 × 19 = 437.\nAnswer: 437") == "Action: compute 23 × 19 = 437.\nAnswer: 437"
    assert "437" not in writer_steps("Action: calculator[23*19]\nObservation: 437\nThought: stop.")
    assert writer_steps(CALL + "Final Answer: 437").endswith("Final Answer: 437")


SAFE = st.text(alphabet="abcdefghij klmnop0123456789.,=+", min_size=1, max_size=40).filter(lambda s: s.strip())


@settings(max_examples=80, deadline=None)
@given(output=SAFE, thought=SAFE, label=st.sampled_from(["Observation", "**Observation:**", "Tool output", "Observation 2",
                                                          "Observation (search)", "Observación", "观察"]))
def test_an_observation_never_reaches_the_reader(output, thought, label):
    """Whatever a tool returns, under any observation label, none of it is left in the writer's steps, and the
    writer's own thought after it is kept whole."""
    head = label if label.endswith(":**") else label + ("：" if label == "观察" else ":")
    text = f"Action: tool[x]\n{head} <<{output}>>\nThought: {thought}"
    kept = writer_steps(text)
    assert "<<" not in kept and output not in kept.replace(f"Thought: {thought}", "")
    assert kept.endswith(f"Thought: {thought}")


@settings(max_examples=60, deadline=None)
@given(a=st.integers(2, 99), b=st.integers(2, 99), tail=st.sampled_from([
    "Thought: let me double-check.\n\nAgent stopped due to iteration limit.", 'Action: ask_user["Which one?"]\nObservation: (no response)',
    "Thought: I should verify this another way.", "Final Answer: see the tool output above."]), adopt=st.booleans())
def test_the_gold_in_an_observation_pays_only_when_stated(a, b, tail, adopt):
    """An agent whose tool returned the gold is paid when it states the value as its answer, never when it stops,
    waits or defers to the output."""
    gold = a * b
    text = f"Action: calculator[{a}*{b}]\nObservation: {gold}\n" + (f"Thought: That is the product.\nFinal Answer: {gold}" if adopt else tail)
    assert scorer(MathAccuracy, f"Compute {a} \\times {b}.")(text, str(gold)) == (1.0 if adopt else 0.0)


# ------------------------------------------------------------------ a bracket glossing a denied word

berlin = scorer(ChoiceAccuracy, "In which year did the Berlin Wall fall?\nA. 1987\nB. 1991\nC. 1985\nD. 1990\nE. 1989")


@pytest.mark.parametrize("completion, paid", [
    ("The question asks about the fall, not reunification (1990).\nFinal Answer: E", True),
    ("It asks about the fall, not the dissolution of the USSR (1991). Answer: E", True),
    ("The question asks about reunification (1990).\nFinal Answer: E", False),  # the reasoning reaches D, the letter is E
    ("The wall fell the year before reunification (1990).\nFinal Answer: E", False),
])
def test_a_denied_words_gloss_names_no_option(completion, paid):
    assert berlin(completion, "E") == (1.0 if paid else 0.0)


WORDS = st.lists(st.sampled_from(["the", "dissolution", "of", "soviet", "union", "reunification", "treaty", "german", "vote"]),
                 min_size=1, max_size=5).map(" ".join)


@settings(max_examples=80, deadline=None)
@given(phrase=WORDS, denial=st.sampled_from(["not", "rather than", "instead of", ""]))
def test_a_gloss_is_denied_with_its_phrase(phrase, denial):
    """A bracket right after a phrase names its option only where the phrase is not denied."""
    from polyreward.verifiers.option_checks import option_mentions
    view = f"It asks about the fall, {denial} {phrase} (1990).".replace("  ", " ").lower()
    named = list(option_mentions(view, "1990", view, 0))
    assert (not named) == (denial != "")
