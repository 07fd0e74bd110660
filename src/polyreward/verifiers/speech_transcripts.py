"""A transcript of speech read as its speaker meant it (red team ``holdout_r59``): what speech recognition writes down
besides the words said -- the fillers, the spoken punctuation of a dictation and its editing commands.

* A filler (``um``, ``uh``, ``uhm``, ``erm``; not ``hmm``, a written pause the readers of withdrawal read) set off by a comma or an ellipsis is no word: ``Um, uh,
  eighty-eight point four.`` says ``eighty-eight point four.``; ``consolidation; uh, pleural effusion; and, uh,
  pneumonia`` lists three findings. A filler with no comma or ellipsis after it is left as written (``5 um`` is a
  length, Portuguese ``um valor`` an article), as are ``uh-huh`` and ``mm-hmm`` (answers, not fillers).
* Spoken punctuation is the mark it dictates where the text is dictated: ``period`` or ``full stop`` closing a
  sentence (before a line's end, a tag, a capital, a full stop or another command) is ``.``, ``new paragraph`` and
  ``new line`` are line breaks. A text is dictated when it holds ``new paragraph`` / ``new line``, two such closing
  ``period`` words, or ``period`` right after a number (``42.3 period``: no noun ``period`` follows a bare number);
  one ``period`` after a word stays a word (``over the reporting period.``).
* A transcriber's note of speech not heard -- ``[inaudible]``, ``[unintelligible]``, ``[indiscernible]``,
  ``[crosstalk]``, ``[silence]``, ``[static]``, ``[background noise]`` -- is no word said: ``C: [inaudible].`` says
  nothing of option C. (A note of what happened, ``[call dropped]``, stays: it tells the readers of a cut-off text
  where the speech ended.)
* An editing command standing as its own sentence -- ``Scratch that.``, ``Strike that.``, ``Delete that.``, ``Delete
  last sentence.`` -- removes the sentence before it on its line, as a dictation system does: ``The answer is B.
  Delete last sentence. The answer is A.`` says ``The answer is A.``; ``C fits best. Scratch that. I'm not sure
  yet.`` says ``I'm not sure yet.``. A command with nothing of its line before it (after a tag or a line break)
  removes nothing and stays, for the readers of withdrawal to read, and so does a command that ends the text or its
  tagged block (``No pneumothorax. Scratch that.``: nothing is said instead).

Linear: each rule is one pass of a regex without nested quantifiers. Reconstructed rule (ours), read by
:func:`polyreward.verifiers.reading.normalise` on prose.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a filler word set off by a comma or an ellipsis after it (a comma before it goes with it: "and, uh, pneumonia");
# not after a digit ("5 um,"), not an all-capital abbreviation ("UH,"), not part of a hyphenated word ("uh-huh")
# ("hmm" is no filler here: a written "Hmm," marks the writer's pause before a doubt or a correction, which the
# readers of withdrawal read)
_FILLER = re.compile(r"(?:,[^\S\n]*)?(?<![\w'’\-])(?<!\d )(?:[Uu](?:h+m*|m+)|[Ee]rm+)(?![\w'’\-])[^\S\n]*(?:,|\.{3}|…)")
# spoken punctuation that closes a sentence: before the line's end, a tag, a full stop, a capital or another command
_CLOSING = r"(?=[^\S\n]*(?:\Z|\n|<|\.|[A-Z]|(?i:new)[^\S\n]+(?i:paragraph|line)\b))"
_STOP_WORD = r"(?i:period|full[^\S\n]+stop)"
_SPOKEN_STOP = re.compile(r"(?<=[\w%)])[^\S\n]+" + _STOP_WORD + _CLOSING + r"(?:[^\S\n]*\.)?")
_STOP_AFTER_NUMBER = re.compile(r"\d[^\S\n]+" + _STOP_WORD + _CLOSING)
# a spoken line break: "new paragraph" / "new line" closing what comes before ("a new line of therapy" is words)
_SPOKEN_BREAK = re.compile(r"[^\S\n]*\b(?i:new)[^\S\n]+((?i:paragraph|line))\b" + _CLOSING + r"[^\S\n]*")
# a transcriber's note of speech not heard (bracketed, a few words at most)
_UNHEARD = re.compile(r"\[(?i:inaudible|unintelligible|indiscernible|crosstalk|silence|static|background[^\S\n]+noise)"
                      r"(?:[^\S\n]+[\w:.]{1,12}){0,2}\]")
# an editing command as its own sentence, with the sentence before it on its line (none when a tag or a line break
# comes first: the command then stays)
_COMMAND = r"[^\S\n]+(?i:(?:scratch|strike|delete)[^\S\n]+(?:that|(?:the[^\S\n]+)?last[^\S\n]+sentence))[^\S\n]*[.!]"
# (nor when nothing follows the command: "No pneumothorax. Scratch that." ending a report takes it back, for the
# readers of withdrawal to read, as in written text)
_EDIT = re.compile(r"(?:(?<=[.!?])|(?<![^\n>]))[^\S\n]*[^.!?\n<>]+[.!?]" + _COMMAND + r"(?=\s*[^\s<])")


def dictates(text: str) -> bool:
    """Whether ``text`` is dictated (module docstring): a spoken line break, two spoken full stops closing
    sentences, or a spoken full stop right after a number."""
    return bool(_SPOKEN_BREAK.search(text) or _STOP_AFTER_NUMBER.search(text)
                or len(_SPOKEN_STOP.findall(text, 0, len(text))[:2]) == 2)


def spoken_as_meant(text: str) -> str:
    """``text`` with its fillers and notes of speech not heard dropped, its spoken punctuation written as marks where it is dictated, and the
    sentences its editing commands remove removed (module docstring)."""
    lowered = text.casefold()
    if "," in text or "." in text or "…" in text:
        text = _FILLER.sub(" ", text) if ("u" in lowered or "erm" in lowered) else text
    if ("period" in lowered or "stop" in lowered or "new " in lowered) and dictates(text):
        text = _SPOKEN_BREAK.sub(lambda m: "\n\n" if m.group(1).casefold() == "paragraph" else "\n",
                                 _SPOKEN_STOP.sub(".", text))
    if "[" in text:
        text = _UNHEARD.sub("", text)
    if "that" in lowered or "sentence" in lowered:
        text = _EDIT.sub("", text)
    return text
