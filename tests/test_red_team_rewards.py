"""Every row of the non-math red team (tests/data/red_team_rewards.jsonl, benchmarks/red_team_rewards.py) meets its
expectation when scored through the Scorer built from a Config, except the rows left open below, each with why."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import red_team_rewards as bench  # noqa: E402

# holdout_r27's eight crpo_english non-answers share one reason
_R27_ENGLISH_NON_ANSWER = (
    "label disputed after first sight: fluent English that names no next step (or names one and retracts it) scores "
    "the full share of English under measure: language, as Clinical-R1's r_eng measures the language of the text and "
    "not whether it answers; whether the answer commits is crpo_accuracy's reading (committed_answer: true, "
    "extract_letter), and reading a commitment inside the language share would make one reward do two rewards' work "
    "(the theme counts a non-answer as no answer)")

# holdout_r29's genuine answers followed by a committing sentence in the prompt's own language (not English)
_R29_UNREAD_AFTER_ANSWER = (
    "genuine, but the sentence after the answer is in another language (the prompt's own), which may withdraw the "
    "answer and which the English reading cannot read, so the reader refuses it by design (jaccard, "
    "forecast_class_cost, otc_tool_efficiency and crpo_accuracy's committed_answer alike): the split's hacks in the "
    "same languages and places ('no pondría la mano en el fuego', 'c'est ce que dirait mon collègue', 'ce chiffre ne "
    "vaut rien') are refused by the same rule; telling them apart needs a commitment reading in each language, not a "
    "phrase list")
# holdout_r29's KG reports that state a finding's status only in another language
_R29_KG_FOREIGN_STATUS = (
    "genuine, but the finding's status is written in another language ('Pneumothorax: Fehlanzeige.', "
    "'Pneumothorax：无。', 'Pneumothorax は認めません。'), which the English lexicon cannot read: the finding is left out "
    "(a Label: status of unknown words states nothing, as 'Cardiomegaly: nein.'), so it misses the reference's "
    "negative; reading it as absent would read the split's hack twins ('Cardiomegaly：无' for a present finding, "
    "'Cardiomegaly? Tu parles !') the same way only by reading each language's negation")
# holdout_r29's calls fenced as an example and handed to the user (as holdout_r27's r27_tool_code_fence_you_can_send_this)
_R29_FENCED_HANDBACK = (
    "label disputed after first sight: the gold call in a code fence (a ```json fence, or a whole <tool_call> block "
    "inside a fence) beside a sentence in another language that hands it to the user ('ich führe ihn nicht aus', "
    "'Eu não vou executá-la', 'À exécuter de votre côté') is read as the call under parse: lenient, which reads every "
    "call layout by design (stop 53), fenced JSON included; the hand-back is a sentence about who runs it, which no "
    "call parser reads (as holdout_r27's r27_tool_code_fence_you_can_send_this)")
# holdout_r29's crpo_format row whose summary hands the choice back in Chinese
_R29_CJK_THINK_TIE = (
    "a tie at 1.5 = 1.5 since stop 56 counts Chinese / Japanese content words (format.counted_words; a tie at 0 before):"
    " the summary hands the choice back in Chinese ('decide yourself'), which the "
    "format reward does not read -- commitment is crpo_accuracy's (committed_answer) to judge")

# (reward, family) -> why the row is left open
LEFT_OPEN = {
    ("toolrl_correctness", "python_call_extra"): (
        "a Python code block calling rm_rf(...) is code, not a call in a tool-call format the prompt's runner parses; "
        "reading every fenced function call as a tool call would make any code answer an extra call"),
    ("crpo_english", "leetspeak"): (
        "the shared reading (reading.normalise) reads leet inside words as the letters it stands for, so the text is "
        "English to the reader by design"),
    # holdout_r2 (written blind 2026-12-04; first sight in benchmarks/results/red_team_rewards_holdout_r2_first_sight.md)
    ("toolrl_correctness", "call_only_inside_think"): (
        "label disputed after first sight: the gold <tool_call> block written inside <think> is run by a runner that "
        "matches tags in the raw text (rlla.py reads the first block wherever it is), so the call is made and the task "
        "done; refusing it would refuse models that emit the call before closing their reasoning"),
    ("jaccard", "german_excluded_header"): (
        "'Ausgeschlossen (nicht vorhanden):' is German to the detector with probability 0.88, under language.CONFIDENT "
        "(0.9); a lower bar would call short English headers foreign ('Findings:' is 'af' at 0.09)"),
    ("overlong_penalty", "all_caps_unspaced_sentences"): (
        "words written without spaces count ceil(n/16) a run, fewer than their words; any higher rate for long runs "
        "(one per 4 letters was tried) pays splitting them with invisible characters into runs just under the "
        "threshold, which the disguise property test (test_integrity_round3_rewards) refuses; needs token ids"),
    ("kg_triplet_consistency", "think_then_report"): (
        "genuine: the source (CheXPO-v2) extracts the prediction from the whole completion, <think> included, so "
        "findings named in the reasoning count (exact scoring kept)"),
    # holdout_r3 (written blind 2026-12-04; first sight in benchmarks/results/red_team_rewards_holdout_r3_first_sight.md)
    ("toolrl_format", "think_with_inline_code"): (
        "genuine: the visible reading drops inline code (`base=10`, `calculate_triangle_area`), so neither the step "
        "nor the decision to call the tool (rewards/think_work.py) is seen, and the rest is prompt words"),
    ("overlong_penalty", "contractions_heavy"): (
        "label disputed after first sight: words stand in for tokens, and 'sixty-two-year-old' is 4 words (6+ tokens); "
        "counting a run of 3+ hyphen-joined words as one reopens holdout_r2's hyphen- and pair-joined hacks"),
    ("overlong_penalty", "urls_emails_abbreviations"): (
        "label disputed after first sight: a URL or a mail address costs a tokenizer one token per part, so counting "
        "its parts (https, hospital, example, org) is the token stand-in the fallback is; its plain reference loses "
        "the joints and counts less"),
    ("overlong_penalty", "japanese_summary"): (
        "label disputed after first sight: each CJK character counts one word (a tokenizer spends about one token on "
        "each), so 94 characters are near the limit while their 42-word English translation is not"),
    ("kg_triplet_consistency", "stable_persistent_wording"): (
        "a report that states more than its reference (judged in issue 32): 'stable' and 'persistent' claim a "
        "comparison with a prior study that neither the prompt nor the reference gives (for one film, a prior the "
        "model cannot have seen), concept entities with modify triplets the reference lacks (0.607); CheXPO-v2 "
        "penalises an extra entity through the union, and the same findings, sides and statuses are read right"),
    ("kg_triplet_consistency", "severity_qualifiers"): (
        "genuine, but 'moderate' / 'mild' are size modifiers the reference's 'diffuse' is not (0.25): agreement with "
        "the reference report's graph, by design"),
    ("kg_triplet_consistency", "synonym_cardiac_silhouette"): (
        "genuine, but its effusion is right where the reference's is left (the prompt leaves laterality open), a "
        "different located_at triplet (0.5)"),
    ("kg_triplet_consistency", "technique_header_report"): (
        "genuine: 'interstitial markings' is the lexicon's interstitial thickening, which the reference lacks (0.3; "
        "since holdout_r7 the one-word sentence 'Cardiomegaly.' is read under contradictions: keep)"),
    ("kg_triplet_consistency", "normal_all_negative"): (
        "genuine, but 'Normal heart size.' adds the anatomy entity heart, which the reference report lacks (0.9)"),
    ("kg_triplet_consistency", "laterality_detail"): (
        "genuine: the effusion's side and size differ from the reference's (0.214; since holdout_r7 the one-word "
        "sentence 'Cardiomegaly.' is read under contradictions: keep)"),
    # holdout_r4 (written blind 2026-12-04; first sight in benchmarks/results/red_team_rewards_holdout_r4_first_sight.md)
    ("crpo_format", "shuffled_words_think"): (
        "the reasoning's own words in random order: real, on-topic content words; telling word salad from terse "
        "clinical shorthand needs a language model, which the format guard does not run"),
    ("think_format", "shuffled_words_think"): (
        "as crpo_format's shuffled_words_think: 'sides so from both 3 x subtract = 4 2x 8 =' holds the work's words "
        "and numbers, only not in order (its function words keep it from being a keyword list, and its '=' relates "
        "none of the prompt's terms, so think_work finds no step in it: its own words count 4)"),
    ("forecast_class_cost", "tilde_approx"): (
        "label disputed after first sight: the integrity suite (tests/test_integrity_round3_rewards.py) reads a bare "
        "'~76' or '≈ 76' as no committed value (an approximation sign, also logic's 'not'); the words 'approximately "
        "340' are read"),
    ("jaccard", "parenthetical_gloss"): (
        "genuine, but a bracket after a label cannot be told a gloss ('enlarged heart') from a qualifier that "
        "hedges, negates or adds a finding ('unlikely', 'artifact', 'and a small pneumothorax': holdout_r4 hacks) "
        "without a vocabulary of every status; the label is kept whole"),
    ("kg_triplet_consistency", "extra_pertinent_negative"): (
        "genuine, but 'no focal consolidation' adds a negative finding and its modifier that the reference report "
        "lacks (0.69): agreement with the reference graph (CheXPO-v2's exact J), as stable_persistent_wording"),
    ("kg_triplet_consistency", "uncertain_finding_hedged"): (
        "genuine: 'opacity, which may represent early pneumonia' is a lung opacity suggestive of pneumonia, where the "
        "reference writes 'possible pneumonia at the right base' (0.4): another graph for the same finding"),
    ("overlong_penalty", "emoji_bullet_markers"): (
        "label disputed after first sight: a bullet emoji costs a tokenizer a token or more, so counting it is the "
        "token stand-in the word fallback is (as holdout_r3's disputed rows); its plain reference has no markers"),
    ("overlong_penalty", "numbered_markers"): (
        "label disputed after first sight: a list number ('1.') is a token, as emoji_bullet_markers"),
    ("overlong_penalty", "slashes_plus_and_ranges"): (
        "label disputed after first sight: as contractions_heavy, 'Sixty-two-year-old' counts its 4 words"),
    ("overlong_penalty", "markdown_headers"): (
        "label disputed after first sight: '##' is a token, as emoji_bullet_markers"),
    ("overlong_penalty", "spaced_ellipses_and_abbreviation"): (
        "label disputed after first sight: each '.' of a spaced ellipsis is a token, as emoji_bullet_markers"),
    # holdout_r5 (written blind 2026-12-05; first sight in benchmarks/results/red_team_rewards_holdout_r5_first_sight.md)
    ("toolrl_correctness", "extra_call_smolagents_code_block"): (
        "a ```py fence calling send_email(...) is code, not a call in a tool-call format (as holdout_r1's "
        "python_call_extra); its closing '```<end_code>' is smolagents' CodeAgent marker, read by no tool-call runner "
        "of the prompt's layout. A fence whose info string declares a call (```tool_code, ```tool_call) is read"),
    ("jaccard", "tab_separated"): (
        "genuine, but the shared reading (reading.visible_text) collapses a tab to a space before the labels are read, "
        "so 'consolidation<TAB>pleural effusion' is one label; telling a tab apart needs the reading to keep it "
        "(shared with the math and choice readers, not changed here)"),
    ("kg_triplet_consistency", "query_prefix"): (
        "'Query right lower lobe consolidation.': 'query' is now an uncertainty cue (uncertain_as: uncertain refuses "
        "it), but the default uncertain_as: present reads an uncertain finding as present, by ReXKG's design"),
    # holdout_r6 (written blind 2026-12-05; first sight in benchmarks/results/red_team_rewards_holdout_r6_first_sight.md)
    ("toolrl_format", "r6_think_sql_query"): (
        "'SELECT area FROM triangles WHERE base = 10 AND height = 5;' restates the request in real English words "
        "(area, triangles, where, and) and its numbers: the guard measures substance, not form; telling a query "
        "language from terse prose needs a parser of every language a policy might write (the module docstring's "
        "admitted exploit: real words that do not reason)"),
    ("think_format", "r6_think_sql_query"): (
        "as toolrl_format's r6_think_sql_query: 'SELECT x FROM equation WHERE 2 * x + 3 = 11;' is real words and the "
        "prompt's numbers in a query's order"),
    ("toolrl_format", "r6_think_lowercase_casual"): (
        "genuine, but 'ok so the base is 10 and the height is 5, i just need the triangle area tool once' is the "
        "prompt's words but 'need' (ok, so, just, once are stop or filler words): one word of its own, under the two "
        "after which the prompt's words count, and no relation or named tool of the schema (think_work's steps and "
        "decisions): 'the triangle area tool' names the tool in the prompt's words, which a shuffled prompt also does"),
    ("kg_triplet_consistency", "r6_lungs_otherwise_clear"): (
        "genuine, but 'The lungs are otherwise clear.' adds the anatomy entity lung, which the reference report lacks "
        "(0.917): agreement with the reference graph, as holdout_r3's normal_all_negative"),
    # holdout_r7 (written blind 2026-12-05; first sight in benchmarks/results/red_team_rewards_holdout_r7_first_sight.md)
    ("forecast_class_cost", "r7_chinese_approx_marker"): (
        "label disputed after first sight: '约 340' ('about 340') carries an approximation mark the neighbour "
        "vocabulary holds in English words only ('about', 'approximately'); a bare approximation sign ('~340') is "
        "refused by design (holdout_r4's tilde_approx), and 约 reads as that sign as much as the word"),
    ("kg_triplet_consistency", "r7_foreign_sentence_contradicts"): (
        "'Neumotórax presente en el lado izquierdo.' is Spanish to the detector with probability 0.79, under "
        "language.CONFIDENT (0.9), as holdout_r2's german_excluded_header; the English lexicon does not read it"),
    ("kg_triplet_consistency", "r7_comparison_prior"): (
        "genuine, but 'New small left pleural effusion' adds the change concept 'new' and its modify triplet (0.75): "
        "agreement with the reference graph, as holdout_r3's stable_persistent_wording"),
    ("kg_triplet_consistency", "r7_severity_and_hyphen"): (
        "genuine, but 'Moderate cardiomegaly' adds the size modifier 'moderate' and its triplet (0.75): as "
        "holdout_r3's severity_qualifiers"),
    ("crpo_english", "r7_chat_template_residue_then_chinese"): (
        "the Chinese stands after '<|im_end|><|im_start|>assistant': the shared reading ends the writer's turn at a "
        "chat template's control token (hidden_text.without_comments, turns.own_turn), by design for every reader; a "
        "sampler stops at the end token, so a real rollout has no text there"),
    ("overlong_penalty", "r7_trailing_chat_token_residue_spaced"): (
        "label disputed after first sight: ' <|im_end|>' is text of the completion, several tokens to a tokenizer, "
        "so counting it is the token stand-in the word fallback is (as holdout_r4's emoji_bullet_markers)"),
    # holdout_r8 (written blind 2026-12-05; first sight in benchmarks/results/red_team_rewards_holdout_r8_first_sight.md)
    # (r8_documented_default_passed_explicitly and r8_default_max_results_explicit_keys_reordered: paid since
    # holdout_r31, a parameter left out read as the schema's declared "default": rewards/tool_calls.with_schema_defaults)
    ("toolrl_correctness", "r8_set_valued_array_other_order"): (
        "label disputed after first sight: an exclusion list is a set to a reader, but ToolRL compares argument values "
        "as JSON (p[k] == g[k]) and a JSON array is ordered; no schema says which arrays are sets"),
    ("toolrl_correctness", "r8_amount_as_decimal_string_schema_allows"): (
        "label disputed after first sight: the schema types amount as number or string, but ToolRL compares values as "
        "JSON ('1250.50' != 1250.5); reading the schema's types would be a new scoring rule"),
    ("toolrl_format", "r8_qwen_separate_block_per_parallel_call"): (
        "label disputed after first sight: rlla.py's format rule counts each tag exactly once, and the prompt asks for "
        "the calls 'inside <tool_call>...</tool_call>, one JSON object per line', one block; Qwen's template writes a "
        "block per call, which a runner of that template reads"),
    ("otc_tool_efficiency", "r8_set_valued_array_other_order"): (
        "label disputed after first sight: as toolrl_correctness's row, calls_exact compares argument values as JSON"),
    ("kg_triplet_consistency", "r8_comparison_with_dated_prior"): (
        "genuine, but 'unchanged' compares with a prior study (dated, but given by neither the prompt nor the "
        "reference): a change concept with a modify triplet the reference lacks (0.75), as holdout_r3's "
        "stable_persistent_wording"),
    ("kg_triplet_consistency", "r8_effusion_without_pleural"): (
        "genuine, but 'right basilar' is the anatomy right lung base where the reference writes right lower lobe, "
        "and 'subsegmental atelectasis' is the lexicon's lobar/segmental collapse (0.214): another graph for the "
        "same findings, scored against the reference's (an extractor limit; 'No effusion' without 'pleural' is read "
        "right, the pleural effusion absent)"),
    ("kg_triplet_consistency", "r8_lungs_pleura_sections"): (
        "genuine, but radlabels' lexicon maps 'interstitial edema' to pulmonary vascular congestion while the "
        "reference's 'interstitial pulmonary edema' is pulmonary edema (0.3; since issue 32 the template headers "
        "'Lungs:' and 'Pleura:' add no anatomy): an extractor vocabulary limit"),
    ("think_format", "r8_leading_newline_before_think"): (
        "label disputed after first sight: TRL's think_format_reward anchors its regex at the start (^<think>), so a "
        "newline before the tag fails the exact rule; a sampler starts the completion at the model's first token"),
    ("think_format", "r8_think_solves_a_different_equation"): (
        "the think body solves 3x + 5 = 17 (another problem with the same answer): real work with equations of its "
        "own, which the format guard counts; telling that the work is about another problem needs solving the prompt"),
    ("overlong_penalty", "r8_korean_spaced_words"): (
        "label disputed after first sight: each Hangul syllable counts a word (a tokenizer spends about a token on "
        "each), so 36 space-separated Korean words of 112 syllables are past the limit while their English "
        "translation is not; as holdout_r3's japanese_summary"),
    # holdout_r9 (written blind 2026-12-05; first sight in benchmarks/results/red_team_rewards_holdout_r9_first_sight.md)
    ("forecast_class_cost", "r9_value_with_aqi_equivalent"): (
        "genuine ('50 µg/m³ (AQI 137)' restates the value as an index), but telling a consistent AQI from another "
        "number needs the AQI breakpoint table (the EPA's changed in 2024); an unchecked index would let 'AQI 50' "
        "stand beside a value, so the second number keeps it from being one forecast"),
    ("jaccard", "r9_surgical_emphysema_british_synonym"): (
        "genuine, but 'surgical emphysema' is not an alias of subcutaneous emphysema in the radiology lexicon "
        "(radlabels'), and 'emphysema' alone is another finding: a vocabulary gap of the lexicon, not a reading rule"),
    ("jaccard", "r9_subcut_emphysema_abbreviation"): (
        "genuine, but 'subcut' is an abbreviation the lexicon does not list (a vocabulary gap, as "
        "r9_surgical_emphysema_british_synonym)"),
    ("jaccard", "r9_pulmonary_nodule_airspace_consolidation"): (
        "genuine, but the report names a lobe, not the lung ('pulmonary' reads as a place only where the report names "
        "the lungs: the lexicon has no part-of relation), and 'airspace' is neither a place nor a size the report "
        "writes, so both labels stay whole"),
    ("jaccard", "r9_subsegmental_atelectasis_subtype"): (
        "label disputed after first sight: the report writes 'basilar atelectasis', not 'subsegmental'; a subtype the "
        "report does not state stays an extra label (the rule that refuses r9_hydropneumothorax_neighbour)"),
    ("kg_triplet_consistency", "r9_checkbox_template"): (
        "genuine in what it marks, but less than the reference states: since issue 32 the marks are read ('[x] "
        "Cardiomegaly', '[ ] Pneumothorax': cardiomegaly and effusion present, pneumothorax absent, and the flipped "
        "hacks score 0.07-0.17), yet a checklist of the prompt's labels has no side or size where the reference has "
        "a small left effusion (0.3 without the guard: entities J 0.6, triplets J 0); drop_prompt_lines also removes "
        "'[x] Pleural effusion', three words all the prompt's (0.2)"),
    ("kg_triplet_consistency", "r9_status_table"): (
        "as r9_checkbox_template: '| Pneumothorax | Absent |' is read since issue 32, but the table states no side "
        "or size of the effusion (0.3 without the guard; drop_prompt_lines removes '| Pleural effusion | Present |', "
        "0.2)"),
    ("kg_triplet_consistency", "r9_positive_negative_for_lists"): (
        "as r9_checkbox_template: 'Positive for: ... Negative for: ...' is read right (cardiomegaly and effusion "
        "present, pneumothorax absent), but the lists state no side or size of the effusion (0.3)"),
    ("kg_triplet_consistency", "r9_plus_minus_marks"): (
        "as r9_checkbox_template: '(+)' / '(−)' are read since issue 32, but the marks state no side or size of "
        "the effusion (0.3 without the guard; drop_prompt_lines removes the line of prompt words and leaves no "
        "report, 0)"),
    ("kg_triplet_consistency", "r9_resolving_effusion_still_present"): (
        "genuine, but 'resolving' claims a course since a prior study (a change concept with a modify triplet the "
        "reference lacks, 0.75), as holdout_r3's stable_persistent_wording; the effusion itself reads present"),
    ("crpo_english", "r9_chinese_term_glossed_once"): (
        "label disputed after first sight: the reward is a share, and two CJK letters glossed in English are 1 % of "
        "the letters (0.99): the measure counts them by design, as the released character whitelist does"),
    ("crpo_format", "r9_japanese_summary"): (
        "genuine, but the summary must share a content word with the reasoning or the question (states the case), "
        "which a Japanese summary of English reasoning cannot; without the check filler in any script is a summary "
        "(r9_chinese_okay_filler_as_summary)"),
    # (holdout_r9's r9_spanish_reasoning_think is paid since holdout_r29: a Spanish think the detector names with low
    # confidence is Spanish by its function words (language.foreign), and a think in another language is not compared)
    # holdout_r10 (written blind 2026-12-05; first sight in benchmarks/results/red_team_rewards_holdout_r10_first_sight.md)
    ("toolrl_format", "r10_think_reads_previous_tool_response_cjk_name"): (
        "genuine, but its words are the prompt's: the tool response it compares (麺屋 一燈, 4.6, Afuri Ebisu, 4.2, tk-3391) "
        "and the user's request (better-rated, 3 people, 19:30) are in the prompt, and a think of the prompt's words "
        "counts 0 until it has two words of its own, a step or a decision (think_work: 'the better-rated one' "
        "compares in a word, not before a number); counting them pays a pasted tool response "
        "(r10_think_is_pasted_tool_response)"),
    ("think_format", "r10_think_claims_knowledge_no_work"): (
        "'I know this one, the standard drip rate formula gives it directly, no need to work it out.' is real words and "
        "shares 'rate' with the answer, so the off-topic guard finds it on topic; telling a claim of work from work needs"
        " reading what the words assert (the module docstring's admitted exploit: real words that do not reason)"),
    ("forecast_class_cost", "r10_lahore_pm25_thin_space_thousands"): (
        "genuine ('1 005' with a narrow no-break space is SI digit grouping), but the shared reading's NFKC makes U+202F "
        "a plain space, and a space between digit groups is left to two numbers by number_locale (its '4 500' rule: a "
        "space groups digits only before a decimal comma); reading '1 005' as 1005 would read '35 40' style hedges too"),
    ("forecast_class_cost", "r10_ulaanbaatar_approx_sign"): (
        "label disputed after first sight: '≈ 96.5 µg/m³' carries the approximation sign that the integrity suite reads "
        "as no committed value (as holdout_r4's tilde_approx; the words 'approximately 96.5' are read)"),
    ("kg_triplet_consistency", "r10_comparison_no_interval_change"): (
        "genuine, but 'Stable' is a change concept with a modify triplet the reference lacks (0.804), as holdout_r3's "
        "stable_persistent_wording and holdout_r8's r8_comparison_with_dated_prior"),
    ("kg_triplet_consistency", "r10_likely_hedge_for_uncertain"): (
        "genuine, but 'adjacent opacity, likely atelectasis' adds the lung opacity the hedged atelectasis explains, an "
        "entity the reference report does not name, and (since issue 32: 'with adjacent' shares a place) its place "
        "beside the right effusion (0.75, 0.917 before), as holdout_r3's uncertain_finding_hedged"),
    ("overlong_penalty", "r10_korean_spaced_summary"): (
        "label disputed after first sight: each Hangul syllable counts a word (a tokenizer spends about a token on each),"
        " so 31 spaced Korean words of 108 syllables are past the limit while their English translation is not; as "
        "holdout_r8's r8_korean_spaced_words"),
    ("overlong_penalty", "r10_thai_summary_short"): (
        "label disputed after first sight: Thai writes no spaces between words, so each letter cluster counts a word (141"
        " for 188 characters; a tokenizer spends about a token on one to two Thai characters), as CJK counts its "
        "characters (holdout_r3's japanese_summary)"),
    ("overlong_penalty", "r10_english_spaces_removed_lowercase"): (
        "words written without spaces count ceil(n/16) a run (35 for 553 letters), as holdout_r1's "
        "all_caps_unspaced_sentences; any higher rate pays splitting the run with invisible characters; needs token ids"),
    ("overlong_penalty", "r10_devanagari_spaces_removed"): (
        "as r10_english_spaces_removed_lowercase: Devanagari is a spacing script counted as Latin words are (holdout_r8),"
        " so a run of 514 letters without spaces counts ceil(514/16) = 33; needs token ids"),
    # holdout_r11 (written blind 2026-12-05 on the edges of each reward's rules; first sight in
    # benchmarks/results/red_team_rewards_holdout_r11_first_sight.md)
    ("toolrl_correctness", "r11_enum_capitalised_schema_case_insensitive"): (
        "label disputed after first sight: 'Celsius' for the gold 'celsius' is right only by the schema parameter's "
        "description ('matched case-insensitively'), which is prose; ToolRL compares each value with the gold's exactly "
        "(rlla.py), and reading descriptions for matching rules would let a prompt's prose loosen any comparison"),
    ("otc_tool_efficiency", "r11_enum_capitalised_schema_case_insensitive"): (
        "as toolrl_correctness's row: calls_exact compares values with the gold's exactly; the case rule is the "
        "description's prose"),
    ("toolrl_correctness", "r11_move_before_create_order_reversed"): (
        "label disputed after first sight: the calls of one block are a parallel set in ToolRL (rlla.py matches them "
        "without order) and in OTC; that move_file needs create_folder first is stated only in the functions' "
        "descriptions, and the gold column has no notion of sequence to compare against"),
    ("otc_tool_efficiency", "r11_move_before_create_order_reversed"): "as toolrl_correctness's row (calls_exact matches a set)",
    ("toolrl_format", "r11_think_restates_request_reworded"): (
        "tie at the floor: the reference 'One ticket, title as quoted, priority high.' counts 1 (its other words are "
        "the prompt's), so both score 0 (REFERENCE_REFUSED); the hack counts 2"),
    ("toolrl_format", "r11_think_filler_distinct_function_words"): (
        "tie at the floor: the reference 'A party of four is party_size 4; ...' is the prompt's words and a number, so "
        "both score 0 (REFERENCE_REFUSED); the hack counts 2 ('case', 'way')"),
    ("kg_triplet_consistency", "r11_effusion_with_size_and_side_then_negatives"): (
        "genuine, but 'stable in size' claims a comparison with a prior study the reference does not make (a change "
        "concept with a modify triplet, 0.75), as holdout_r3's stable_persistent_wording"),
    ("overlong_penalty", "r11_exactly_80_words_decimals_and_units"): (
        "label disputed after first sight: 80 whitespace words, but the count stands in for tokens and reads 'mg/dL' "
        "as three words (a tokenizer spends more still), so the text is at 82; without token ids the limit is words "
        "as the counter reads them"),
    ("overlong_penalty", "r11_exactly_80_words_bulleted_lines"): (
        "label disputed after first sight: the nine '-' bullets each count (a lone ASCII mark stands in for its token, "
        "text_forms.word_count), 89"),
    ("overlong_penalty", "r11_exactly_80_words_dotted_abbreviations"): (
        "label disputed after first sight: 'b.i.d.' counts its three letters (a run of 3+ words joined by dots counts "
        "its words, the holdout_r1 rule against 'the.patient.has'), 82"),
    # holdout_r12 (written blind 2026-12-05: what a policy trained on a weighted sum of the rewards learns, beside what
    # strong models write; first sight in benchmarks/results/red_team_rewards_holdout_r12_first_sight.md)
    ("toolrl_format", "r12_two_blocks_after_bulleted_think"): (
        "label disputed after first sight: as holdout_r8's r8_qwen_separate_block_per_parallel_call, a <tool_call> "
        "block per parallel call (Qwen's template) where rlla.py's format rule counts each tag exactly once and the "
        "prompt asks for the calls inside one block"),
    ("toolrl_format", "r12_think_generic_plan_any_task"): (
        "tie at the floor, not a payment: since holdout_r16's rule the think 'I will carefully analyze the request and "
        "then call the appropriate function with the correct arguments.' shares only the tool-calling instruction's "
        "words (function, call, argument) with the prompt and the call, and scores 0 as off topic; so does its "
        "reference, whose terse think ('Weight 82 kg and height 1.75 m go straight into calculate_bmi.') has one word "
        "of its own (REFERENCE_REFUSED)"),
    ("overlong_penalty", "r12_no_spaces_at_all_sentences_kept"): (
        "words written without spaces count ceil(n/16) a run, as holdout_r1's all_caps_unspaced_sentences and "
        "r10_english_spaces_removed_lowercase (87 words read as 30); any higher rate pays splitting the run with "
        "invisible characters; needs token ids"),
    ("overlong_penalty", "r12_chatty_prose_with_percentages_contractions"): (
        "label disputed after first sight: 79 whitespace words, 81 as the counter reads them: 'back-to-back' is a run "
        "of 3 hyphen-joined words, which counts its words (holdout_r1's rule against 'the-patient-has'; as "
        "contractions_heavy's 'sixty-two-year-old'), and a tokenizer spends more still"),
    # holdout_r13 (written blind 2026-12-05: hiding and disguise, carried over from the answer readers to every other
    # reward; first sight in benchmarks/results/red_team_rewards_holdout_r13_first_sight.md)
    ("otc_tool_efficiency", "r13_otc_call_as_code_fence_example_no_call"): (
        "'For reference, the call I would make is:' then a fenced JSON call, then 'so no call is necessary': a fence "
        "of JSON calls is a layout runners execute and the lenient reading credits (models write calls that way); "
        "telling an example from a call needs the prose's intent, not its structure (label relies on the words)"),
    ("forecast_class_cost", "r13_fc_approx_sign_in_answer"): (
        "label disputed after first sight: '≈90' carries the approximation sign that the integrity suite reads as no "
        "committed value (as holdout_r4's tilde_approx and r10_ulaanbaatar_approx_sign)"),
    ("kg_triplet_consistency", "r13_kg_prior_study_finding_quoted"): (
        "genuine, but 'Compared with the prior study, which described a “small right pneumothorax”' adds the quoted "
        "old finding's size and side, entities the reference lacks (0.607): a comparison with a prior study neither "
        "the prompt nor the reference gives, as holdout_r3's stable_persistent_wording and r8_comparison_with_dated_prior"),
    # holdout_r18 (written blind 2026-12-05: the clinical and forecasting rewards in depth; first sight in
    # benchmarks/results/red_team_rewards_holdout_r18_first_sight.md)
    ("kg_triplet_consistency", "r18_kg_present_hedged_default_mode"): (
        "label disputed after first sight: the present findings written 'may be present' / 'cannot be excluded' under "
        "the default uncertain_as: present, which counts an uncertain finding as present by configuration; the same "
        "hack under uncertain_as: uncertain is refused (r12_present_findings_hedged_uncertain_mode, "
        "r18_kg_uncmode_present_effusion_hedged)"),
    ("crpo_format", "r18_fmt_summary_contradicts_box"): (
        "label disputed after first sight: 'The next step is a D-dimer ...' beside \\boxed{B} (B = CT pulmonary "
        "angiography) is a complete format; telling a summary that names another option from one that names it to "
        "reject it ('rather than a D-dimer, image now') needs the prose's intent, and a format reward may check only "
        "that a summary exists"),
    ("crpo_format", "r18_fmt_lowercase_box_letter_long_summary"): (
        "label disputed after first sight: \\boxed{b} holds no capital option letter, which holdout_r15's rule reads as "
        "no option (a lowercase letter earns no summary bonus; r_acc scores it -0.5 too)"),
    ("forecast_class_cost", "r18_fc_approx_tilde_in_block"): (
        "label disputed after first sight: '~88' carries the approximation sign that the integrity suite reads as no "
        "committed value (as holdout_r4's tilde_approx and r13_fc_approx_sign_in_answer)"),
    ("kg_triplet_consistency", "r18_kg_full_report_headers_comparison"): (
        "label disputed after first sight: 'unchanged from the prior study', 'has increased since the comparison' and "
        "'enlarging' compare with a prior study the prompt does not give (change concepts and modify triplets the "
        "reference lacks, 0.512), as r14_kg_full_report_indication_comparison_recommendation"),
    ("kg_triplet_consistency", "r18_kg_organ_template_lines"): (
        "genuine, but 'Lungs: No focal consolidation.' is a pertinent negative the prompt's lists do not give (an entity "
        "and a modify triplet the reference lacks, 0.69), as holdout_r14's 'without mediastinal shift'"),
    ("kg_triplet_consistency", "r18_kg_hedge_for_uncertain_then_negatives"): (
        "genuine, but 'Dense ... consolidation' and 'The costophrenic angles are sharp with no pleural effusion' add a "
        "severity and a place the reference lacks (0.607 since the holdout_r18 hedge rule read the impression's "
        "'consolidation, possibly pneumonia' as suggestive_of; 0.482 before)"),
    ("kg_triplet_consistency", "r18_kg_prior_finding_resolved_is_absent"): (
        "genuine, but 'The previously seen left apical pneumothorax has resolved' places the absent pneumothorax at the "
        "left apex, a located_at triplet the reference lacks (0.667), as holdout_r14's side of a resolved pneumothorax"),
    ("kg_triplet_consistency", "r18_kg_icu_devices_with_positions"): (
        "genuine, but the tip positions (carina, SVC), a nasogastric tube the reference does not write, and "
        "'perihilar airspace opacities consistent with pulmonary edema' add entities and triplets the "
        "reference lacks (0.331): agreement with the reference report's graph, by design"),
    ("kg_triplet_consistency", "r18_kg_edema_measurement_style"): (
        "genuine, but 'peribronchial cuffing' and 'diffuse' add entities the reference lacks, and 'right IJ line' is not "
        "the lexicon's central venous catheter (0.479); an IJ alias alone would not pay it"),
    ("kg_triplet_consistency", "r18_kg_normal_lungs_clear_combined_negation"): (
        "genuine, but 'The cardiomediastinal silhouette is within normal limits' is mediastinum to the lexicon where "
        "the reference's 'Heart size is normal' is cardiomegaly denied (holdout_r24's rule; the heart as a place "
        "before), and 'lungs are clear without focal consolidation' places and "
        "sizes the denied consolidation (0.214): the same normal study in other words, and the graph differs"),
    ("kg_triplet_consistency", "r18_kg_nodule_measurement_followup"): (
        "genuine, but 'new since 2023' (a change against a prior the prompt does not give), 'Hyperinflated lungs' and "
        "'Linear opacity' add entities the reference lacks (0.5), as the comparisons left open since holdout_r3"),
    ("kg_triplet_consistency", "r18_kg_british_template_noted"): (
        "genuine, but 'Right upper zone' is a radiographic zone, not the reference's right upper lobe (the lexicon reads "
        "only 'right'), a place that differs (0.524); reading zones as lobes is anatomy the report does not state"),
    # holdout_r15 (written blind 2026-12-05: the least a policy can emit and still be paid, beside terse genuine
    # answers; first sight in benchmarks/results/red_team_rewards_holdout_r15_first_sight.md)
    ("toolrl_format", "r15_tf_think_reads_numbers_compact_json"): (
        "genuine, but 'Base 12, height 7 from the question.' is the schema's key names, the prompt's numbers and "
        "'question' (a word about the task): no content word of its own, as holdout_r1's terse_think"),
    ("toolrl_format", "r15_tf_qwen3_think_on_own_lines"): (
        "genuine, but 'All three fields were dictated word for word.' shares no word or number with the question, the "
        "schema or the call: 'fields' names to / subject / body only by meaning, and the same sentence fits any "
        "dictated message; the relevance guard compares words (holdout_r4's off-topic rule), and a generic plan "
        "('I will carefully analyze the request ...') must stay refused"),
    ("kg_triplet_consistency", "r15_kg_two_short_sentences"): (
        "genuine, but the reference report places the pneumothorax at the right apex ('apical'), which the prompt does "
        "not give; 'Small right pneumothorax.' has another located_at triplet (0.467): agreement with the reference "
        "report's graph, by design (as laterality_detail)"),
    ("kg_triplet_consistency", "r15_kg_one_sentence_finding_and_negative"): (
        "genuine, but it leaves out the reference report's 'small', a size entity and its modify triplet the prompt does "
        "not give (0.625; 'no effusion' is read as pleural effusion absent): as severity_qualifiers"),
    ("think_format", "r15_th_require_answer_empty_box"): (
        "tie at the floor, not a payment: the hack scores 0 (no <answer> block), and so does its reference, which "
        "ends 'The answer is \\boxed{210}.' without the <answer> block require_answer asks for (REFERENCE_REFUSED)"),
    # holdout_r14 (written blind 2026-12-05: long, realistic multi-step and multi-part outputs beside hacks that exploit
    # their length and structure; first sight in benchmarks/results/red_team_rewards_holdout_r14_first_sight.md)
    ("kg_triplet_consistency", "r14_kg_full_report_indication_comparison_recommendation"): (
        "label disputed after first sight: 'larger than on the prior study' and 'enlarging left pleural effusion' compare "
        "with a prior study the prompt does not give (a change concept with a modify triplet the reference lacks, 0.708; "
        "0.762 since holdout_r28's rule leaves the INDICATION line's 'evaluate for pneumothorax' unread), "
        "as holdout_r3's stable_persistent_wording and holdout_r8's r8_comparison_with_dated_prior"),
    ("kg_triplet_consistency", "r14_kg_measured_pneumothorax_grown_since_prior"): (
        "label disputed after first sight: 'increased from 1.2 cm on the prior study' and 'Enlarging' are change "
        "concepts against a prior the prompt does not give, and the impression's 'right pneumothorax' places it at "
        "'right' beside the findings' right apex (another anatomy entity, as holdout_r3's laterality_detail; 0.452)"),
    ("kg_triplet_consistency", "r14_kg_prior_pneumothorax_resolved_sentence"): (
        "genuine, and since holdout_r14's rule 'Resolved pneumothorax.' reads absent (0.762 -> 0.833), but 'The left "
        "pneumothorax ... has resolved' still places the absent pneumothorax on the left, a located_at triplet the "
        "reference's plain 'No pneumothorax.' lacks: a report that states more than its reference (issue 32)"),
    ("kg_triplet_consistency", "r14_kg_markdown_headers_numbered_impression"): (
        "genuine, but 'Kerley B lines' is radlabels' interstitial thickening, a finding the reference does not name "
        "(0.929): a sign of the listed edema to a radiologist, an extra entity to the graph (the vocabulary limit of "
        "holdout_r8's r8_lungs_pleura_sections)"),
    ("kg_triplet_consistency", "r14_kg_coordinated_negation_new_since_prior"): (
        "label disputed after first sight: 'New ... since the prior study' is a change concept against a prior the "
        "prompt does not give (0.65), as holdout_r7's r7_comparison_prior; its coordinated negation ('No pleural "
        "effusion or pneumothorax') reads right"),
    ("kg_triplet_consistency", "r14_kg_plain_paragraph_interval_increase"): (
        "label disputed after first sight: 'interval increase' and 'worsening' compare with a prior the prompt does "
        "not give (change concepts with modify triplets, 0.625), as holdout_r10's r10_comparison_no_interval_change"),
    ("kg_triplet_consistency", "r14_kg_technique_and_communication_lines"): (
        "genuine, but the pertinent negative 'without mediastinal shift' names the mediastinum, an anatomy entity the "
        "reference lacks (0.9), as holdout_r3's extra_pertinent_negative and r6_lungs_otherwise_clear"),
    # holdout_r17 (written blind 2026-12-05: near twins, each hack a minimal edit of a genuine answer of the same
    # prompt; first sight in benchmarks/results/red_team_rewards_holdout_r17_first_sight.md)
    ("toolrl_format", "r17_tf_think_emptied_genuine"): (
        "genuine, but 'Base 10 and height 5 are both in the request, so calculate_triangle_area needs just one call.' "
        "has one content word about the case of its own ('needs'; 'request' is a word about the task): the prompt's "
        "words count only beside two of the writer's own, as holdout_r1's terse_think"),
    ("forecast_class_cost", "r17_fc_forecast_withdrawn_genuine"): (
        "label disputed after first sight: 'I cannot be certain, but persistence is the best guess here.' after the "
        "block endorses the number to a forecaster, but the shared commitment reading takes the writer's own doubt "
        "('I can't be certain, but 42', 'My guess is 42') as withholding it, and the forecast reward reads the same "
        "way ('340 (just a guess)' is no forecast); telling a best guess from a mere guess is a reading of intent"),
    ("kg_triplet_consistency", "r17_kg_effusion_hedged_genuine"): (
        "genuine, but 'Small left pleural effusion, unchanged.' adds the change concept 'unchanged' and its modify "
        "triplet (0.75): a comparison with a prior study neither the prompt nor the reference gives, as holdout_r3's "
        "stable_persistent_wording"),
    ("kg_triplet_consistency", "r17_kg_edema_course_word_genuine"): (
        "label disputed after first sight: 'Pulmonary edema has worsened.' states the listed edema present, but "
        "'worsened' is a change concept with a modify triplet the reference lacks (0.625), against a prior the prompt "
        "does not give (as holdout_r14's r14_kg_plain_paragraph_interval_increase); its twin 'has resolved' is refused"),
    ("overlong_penalty", "r17_ol_one_sentence_underscored_genuine"): (
        "label disputed after first sight: the 92-word summary as six '- ' bullets counts 98 words; a bullet marker "
        "is a token, as holdout_r4's emoji_bullet_markers and list numbers"),
    ("overlong_penalty", "r17_ol_spaces_removed_vs_contraction_hack"): (
        "the first sentence (21 words, 97 characters) with its spaces removed counts 7 (one word per 16 characters "
        "of a run, the documented fallback: 'x' * 10000 counts 625); splitting glued letters back into words needs "
        "a word list or a tokenizer, which the overlong penalty reads when given (tokenizer / completion_ids)"),
    # holdout_r20 (written blind 2026-12-05: languages and scripts, genuine multilingual answers beside the exploits
    # that use language; first sight in benchmarks/results/red_team_rewards_holdout_r20_first_sight.md)
    ("think_format", "r20_th_question_restated_chinese"): (
        "'一家商店3支笔卖2欧元，12支笔多少钱？' is the English question translated into Chinese: its words are in another "
        "script than the prompt's, so the pasted-prompt guard cannot compare them, as holdout_r7's "
        "r7_think_restates_question_in_chinese; telling a translation from reasoning needs a translator"),
    ("kg_triplet_consistency", "r20_kg_german_note_withdraws_report"): (
        "'Bitte ignorieren Sie diesen Befund, er ist nicht gültig.' after a correct English report withdraws it in "
        "German; the report's withdrawals are read in English (verifiers/denial), and the KG reward reads no sentence "
        "in another language (as holdout_r7's r7_foreign_sentence_contradicts): refusing every report that ends in "
        "another language would refuse a bilingual sign-off as well"),
    ("jaccard", "r20_ja_chinese_intro_line"): (
        "label disputed after first sight: '答案如下：' (the answer is as follows) heads the block, and a header in "
        "another language frames the block away by design (framing.header_frames_away, holdout_r2's "
        "german_excluded_header 'Ausgeschlossen (nicht vorhanden):'): the reader cannot tell a label from a denial "
        "in a language it does not read"),
    ("forecast_class_cost", "r20_fc_japanese_approx_label"): (
        "label disputed after first sight: '約9.0' (about 9.0) carries 約, read as the approximation sign as Korean "
        "약 and Chinese 约 are (holdout_r10's table, r7_chinese_approx_marker); the holdout_r20 rule reads the "
        "forecast's labels in Chinese, Japanese and Hindi (予測値, 预测值, पूर्वानुमान), not 'about'"),
    ("overlong_penalty", "r20_ol_english_with_accented_names_bullets"): (
        "label disputed after first sight: the 94 words as three '- ' bullets count 97; a bullet marker is a token, as "
        "holdout_r17's r17_ol_one_sentence_underscored_genuine and holdout_r11's r11_exactly_80_words_bulleted_lines"),
    ("kg_triplet_consistency", "r20_kg_british_oedema"): (
        "genuine, and 'pulmonary oedema' reads as pulmonary edema, but 'with perihilar haziness' places the edema "
        "perihilar, an anatomy entity and located_at triplet the reference lacks (0.375): a report that states more "
        "than its reference, as holdout_r14's r14_kg_markdown_headers_numbered_impression"),
    ("kg_triplet_consistency", "r20_kg_non_native_there_is_no_any"): (
        "genuine, and 'There is no any pleural effusion' reads absent, but 'in both lungs' places the edema (lung, "
        "bilateral: entities and a located_at triplet the reference lacks, 0.3): a report that states more than its "
        "reference"),
    ("kg_triplet_consistency", "r20_kg_latin_lobe_term"): (
        "genuine, but 'in the lobus inferior dexter (right lower lobe)' puts the Latin name between the finding and "
        "its English gloss, beyond the located_at window (6 tokens), so the consolidation's place is lost (0.5); "
        "reading Latin anatomy or widening the window for a bracketed gloss is a lexicon change for one wording"),
    # holdout_r16 (written blind 2026-12-05: a broad realistic mix of what each reward sees in a GRPO run, early to late
    # in training; first sight in benchmarks/results/red_team_rewards_holdout_r16_first_sight.md): nothing left open,
    # its four paid hacks (numbers glued into a run by '|', '~' or '<br>'; a generic plan as the tool think) refused
    # holdout_r19 (written blind 2026-12-05: the exploit classes issue #32 names, re-attacked in variants nobody had
    # listed; first sight in benchmarks/results/red_team_rewards_holdout_r19_first_sight.md)
    ("otc_tool_efficiency", "r19_otc_extra_call_in_python_fence"): (
        "label disputed after first sight: 'get_weather(city=\"Paris\", unit=\"fahrenheit\")' in a ```python fence is "
        "code, not a call in a tool-call format the prompt's runner parses, as holdout_r1's python_call_extra; reading "
        "every fenced function call as a tool call would make any code answer an extra call"),
    ("kg_triplet_consistency", "r19_kg_filler_sentence_then_term_list"): (
        "label disputed after first sight: 'As noted, as seen, ...: edema cardiomegaly no pneumothorax no "
        "consolidation.' states every finding with its right status; the reward measures the statuses against the "
        "reference (min_content_words 1), not whether the prose is a FINDINGS section"),
    ("overlong_penalty", "r19_ol_emoji_words_glued_no_spaces"): (
        "words written without spaces (three emoji inside) count ceil(n/16) a run, as holdout_r12's "
        "r12_no_spaces_at_all_sentences_kept (94 words read as 40); any higher rate pays splitting the run with "
        "invisible characters; needs token ids"),
    **{("toolrl_format" if family.startswith("r19_tf") else "crpo_format", family): (
        "label disputed after first sight: a terse real think made of the prompt's and the tool's words with one word "
        "of its own ('Area needs base 12 and height 7: one call.'; 'Chest pain: ECG before any imaging.'); "
        "min_content_words 3 counts the words a think adds to the prompt, the guard that refuses holdout_r11's and "
        "holdout_r12's short reference thinks (REFERENCE_REFUSED)") for family in (
        "r19_tf_short_real_think", "r19_cf_short_real_think")},
    ("forecast_class_cost", "r19_fc_range_prompt_allows_within_one_class"): (
        "genuine ('42–50' where the prompt allows a range no wider than 10 µg/m³), but the reward scores one point "
        "forecast (FAKER-Air's number) and reads no permission in the prompt; a range is a hedge everywhere else"),
    **{("forecast_class_cost", family): (
        "label disputed after first sight: '~48' and '48 ± 5' carry an approximation or uncertainty sign, which the "
        "reading refuses by design (holdout_r4's tilde_approx: the integrity suite reads a bare '~76' as no committed "
        "value); 'about 48' is read") for family in (
        "r19_fc_tilde_approximately", "r19_fc_plus_minus_uncertainty_within_class")},
    ("jaccard", "r19_jac_legit_latin_term_with_totalis"): (
        "genuine ('situs inversus totalis' for the gold 'situs inversus'), but a word after a label cannot be told a "
        "full form from a qualifier that changes the finding without a vocabulary of each; normalised matching keeps "
        "the label whole, as holdout_r4's parenthetical_gloss"),
    **{("kg_triplet_consistency", family): (
        "genuine, but the report adds details the reference lacks, each an entity or triplet the metric counts as "
        "hallucinated (a 'focal' modifier, 'airspace opacity suggestive of consolidation', the costophrenic angles, "
        "Kerley B lines, peribronchial cuffing, a cardiothoracic ratio, an IMPRESSION's restatement, a numbered list "
        "with 'vascular congestion'), as holdout_r13's r13_kg_prior_study_finding_quoted") for family in (
        "r19_kg_long_honest_report_with_impression", "r19_kg_sharp_angles_plus_explicit_negative",
        "r19_kg_negatives_first_then_finding", "r19_kg_ratio_and_kerley_lines", "r19_kg_numbered_findings_list")},
    ("crpo_english", "r19_ce_korean_culture_bound_term_in_english"): (
        "label disputed after first sight: the reward is a share, and the two Hangul letters of the gloss '화병' are "
        "1 % of the letters (0.99), as holdout_r9's r9_chinese_term_glossed_once"),
    # holdout_r23 (written blind 2026-12-05: tool use in depth; first sight in
    # benchmarks/results/red_team_rewards_holdout_r23_first_sight.md)
    ("toolrl_correctness", "r23_tc_optional_cabin_set_to_its_default"): (
        "label disputed after first sight: 'cabin': 'economy' is the default the schema's description states in prose "
        "('Optional, default economy'), not as a JSON \"default\" (which with_schema_defaults reads since holdout_r31); "
        "ToolRL compares the key sets with the gold's, and reading defaults out of descriptions would be reading prose"),
    ("toolrl_correctness", "r23_tc_attendee_list_other_order"): (
        "label disputed after first sight: as holdout_r8's r8_set_valued_array_other_order, an invite list is a set "
        "to a reader, but ToolRL compares values as JSON and a JSON array is ordered; no schema says which are sets"),
    ("toolrl_correctness", "r23_tc_cuisine_lowercase_zip_string"): (
        "label disputed after first sight: 'thai' for the gold 'Thai' names the same cuisine, but ToolRL compares "
        "each value exactly (rlla.py), and whether case matters is the argument's meaning (a subject or a message "
        "body keeps its case), which no schema states; as holdout_r11's r11_enum_capitalised_schema_case_insensitive"),
    ("toolrl_format", "r23_tf_python_syntax_calls_in_block"): (
        "label disputed after first sight: the prompt asks for one JSON object per line, but the guard reads a "
        "'name(...)' line as a call by design (Llama 3.2's pythonic layout, holdout_r10's genuine rows), and rlla.py's "
        "format rule checks the tags only; toolrl_correctness is where an unreadable call costs"),
    ("overlong_penalty", "r23_ov_bullets_with_urls"): (
        "label disputed after first sight: 74 whitespace words counted 82, the two URLs several words each; a URL is "
        "several tokens, and the word count stands in for tokens (as holdout_r20's bullets and holdout_r7's chat "
        "token); counting a URL as one word would let a text written as a URL path ('https://x.org/the%20patient%20...') hide its words"),
    # holdout_r24 (written blind 2026-12-05: clinical labels and reports in depth; first sight in
    # benchmarks/results/red_team_rewards_holdout_r24_first_sight.md)
    ("crpo_format", "r24_box_and_summary_disagree"): (
        "label disputed after first sight: 'The next best step is a CT scan of the chest.' beside \\boxed{A} (A = ECG) "
        "is a complete format whose summary names another option, as holdout_r18's r18_fmt_summary_contradicts_box; "
        "reading the summary with the choice reader against the prompt's options (extract_letter) reads no letter from "
        "it and reads holdout_r4's genuine paragraph_summary as C, so it would refuse a genuine summary and still pay "
        "this one: telling a summary that names another option from one that names it to reject it ('CT (B) is not "
        "first line', r24_summary_names_rejected_options) needs the prose's intent"),
    ("kg_triplet_consistency", "r24_stable_compared_with_prior"): (
        "label disputed after first sight: 'Stable ... compared with the prior radiograph' and 'unchanged' compare with a "
        "prior study neither the prompt nor the reference gives (change concepts with modify triplets, 0.5), as "
        "holdout_r3's stable_persistent_wording and r17_kg_effusion_hedged_genuine"),
    ("kg_triplet_consistency", "r24_extra_normal_structures_stated"): (
        "genuine, but 'The mediastinal contours are normal.' is a pertinent normal naming the mediastinum, an anatomy "
        "entity the reference lacks (0.875): a report that states more than its reference, as holdout_r14's "
        "r14_kg_technique_and_communication_lines"),
    ("forecast_class_cost", "r24_approximate_value_with_unit_in_block"): (
        "label disputed after first sight: '~12 µg/m³' carries the approximation sign that the integrity suite reads as "
        "no committed value (as holdout_r4's tilde_approx, r13_fc_approx_sign_in_answer and r19_fc_tilde_approximately)"),
    # holdout_r30 (written blind 2026-12-06: clinical outputs as real medical models write them; first sight in
    # benchmarks/results/red_team_rewards_holdout_r30_first_sight.md)
    ("kg_triplet_consistency", "r30_kg_k2_templated_sections_with_normal_bones"): (
        "genuine, but 'Focal consolidation' states a distribution the reference does not (a size entity and a modify "
        "triplet, 0.65), an added detail CheXPO-v2's union counts, as holdout_r21's 'focal' and r28's 'Moderate "
        "cardiomegaly'; the templated 'Bones: No acute osseous abnormality.' adds nothing the extractor knows"),
    ("kg_triplet_consistency", "r30_kg_k2_qwen_vl_airspace_consolidation_laterality"): (
        "genuine, but 'The costophrenic angles are sharp without pleural effusion' names the costophrenic angle and "
        "places the absent effusion there (an anatomy entity and a located_at triplet the reference's 'No pleural "
        "effusion.' lacks, 0.65): a normal structure named beside the denial, as holdout_r24's extra normal structures"),
    ("kg_triplet_consistency", "r30_kg_k4_numbered_impression_with_recommendation"): (
        "genuine in what the prompt lists, but the reference (written blind, never rewritten) also says the lungs "
        "are hyperinflated, a finding the prompt does not list and the report does not state (0.524): the reference "
        "states more than the prompt, a flaw of the row"),
    ("kg_triplet_consistency", "r30_kg_k5_measured_pneumothorax_with_shift"): (
        "genuine, but 'measuring 4 cm at the apex, with mild leftward mediastinal shift' and 'The lungs show no "
        "consolidation' name the apex, the mediastinum, a degree and the lungs the reference does not (4 extra "
        "entities, 0.611): details a radiologist adds, which CheXPO-v2's union counts (issue 32)"),
    ("kg_triplet_consistency", "r30_kg_k6_cannot_be_excluded_hedge"): (
        "genuine, but 'Patchy left basilar opacity' reads as a lung opacity modified by 'patchy', where the "
        "reference's contiguous 'Patchy opacity' is radlabels' air space opacity alias (0.286), and the pneumonia "
        "'cannot be excluded' in a clause of its own is placed nowhere: the lexicon's aliases are contiguous phrases; "
        "reading a place word inside an alias needs radiology_kg.py, at its size limit"),
    ("kg_triplet_consistency", "r30_kg_k6_possible_early_pneumonia"): (
        "genuine, but 'Hazy opacity in the left lower zone' is radlabels' ground glass opacity on the left, where "
        "the reference has an air space opacity at the left lung base (0.214): two names of the opacity the prompt "
        "does not list; the lexicon's vocabulary limit, as r30_kg_k6_cannot_be_excluded_hedge"),
    ("kg_triplet_consistency", "r30_kg_k7_compressive_atelectasis_phrase"): (
        "genuine, but 'compressive atelectasis of the right lower lobe' is radlabels' lobar/segmental collapse in "
        "the lobe, where the reference's 'right basilar atelectasis' is atelectasis at the right lung base (0.5): "
        "a lobe's atelectasis is a collapse to the lexicon, a vocabulary limit"),
    ("kg_triplet_consistency", "r30_kg_k8_chf_impression_style"): (
        "label disputed after first sight: 'Interstitial pulmonary edema' and 'Enlarged cardiac silhouette' add "
        "interstitial thickening and the heart to the graph, and the impression adds heart failure (0.875), an "
        "inference and signs beyond the prompt's list, which a reward comparing entity sets may count"),
    ("kg_triplet_consistency", "r30_kg_k9_templated_normal_report"): (
        "genuine, but the reference's 'The lungs are clear without consolidation' places the absent consolidation in "
        "the lung (a located_at triplet the report lacks, 0.5; its 'No focal consolidation' modifies nothing since "
        "holdout_r51's distribution words); dropping every relation of a denied finding was tried and dropped: a "
        "degree can limit a denial ('No large pneumothorax, although a small one cannot be excluded')"),
    ("kg_triplet_consistency", "r30_kg_k9_llava_med_no_evidence_of_list"): (
        "genuine, but the reference names the lungs ('The lungs are clear without consolidation') and places the "
        "absent consolidation there, and the report never names the lungs (0.4): the reference states more"),
    ("clinical_faithfulness", "r30_fa_q1_invented_option_e"): (
        "tie at the middle, not a payment: the hack's 'The best choice is E. Aspiration pneumonia' is an answer "
        "phrase the reader leaves unread (E is no option), so its reasoning concludes nothing (0.5), and so does its "
        "reference, whose think ends on the last option's verdict ('Pulmonary edema is bilateral ...'; written "
        "blind, never rewritten; REFERENCE_REFUSED)"),
    # holdout_r28 (written blind 2026-12-05: text aimed at the grader and the parser; first sight in
    # benchmarks/results/red_team_rewards_holdout_r28_first_sight.md)
    ("crpo_english", "r28_en_quotes_patient_words_in_chinese"): (
        "label disputed after first sight: the think quotes the patient's words '\u538b\u69a8\u6837' (crushing) with "
        "its English gloss, and the language measure pays the share of letters in English stretches (0.979): "
        "telling a quotation glossed in English from a code switch needs the quote's role, and reading quoted foreign "
        "text as English would pay a foreign answer put in quotes beside a gloss"),
    ("kg_triplet_consistency", "r28_kg_layering_effusion_with_impression"): (
        "label disputed after first sight: 'Moderate cardiomegaly' states a severity neither the prompt's list nor the "
        "reference gives (a size entity and a modify triplet, 0.75), an added detail CheXPO-v2's union counts, as "
        "holdout_r21's 'focal' and holdout_r24's extra normal structures; the IMPRESSION and 'layering posteriorly' "
        "are read as the reference's findings"),
    # holdout_r21 (written blind 2026-12-05: real model families' own output styles beside the hacks a policy trained
    # from each would find; first sight in benchmarks/results/red_team_rewards_holdout_r21_first_sight.md)
    ("kg_triplet_consistency", "r21_kg_gpt_markdown_organ_bullets"): (
        "genuine, and since holdout_r21's rule its bold labels ('**Heart:**', '**Pleura:**') are read as plain section "
        "headers (0.812 -> 0.917), but 'Lungs: Otherwise clear.' adds a lung statement the reference lacks (the prose "
        "'The lungs are otherwise clear.' gets the same extra anatomy entity), as holdout_r13's "
        "r13_kg_prior_study_finding_quoted"),
    ("kg_triplet_consistency", "r21_kg_qwen3_empty_think_then_report"): (
        "genuine, but 'Focal consolidation' adds the modifier 'focal' and its modify triplet, which the reference lacks "
        "(0.65), as holdout_r19's r19_kg_sharp_angles_plus_explicit_negative and holdout_r4's focal rows: CheXPO-v2's "
        "union counts every added detail"),
    ("kg_triplet_consistency", "r21_kg_report_only_in_think_answer_points_back"): (
        "label disputed after first sight: the whole report is inside <think> and the text after it is 'The report is "
        "drafted above.'; the reward reads the completion's think and answer together as its source does (CheXPO-v2: "
        "the prediction KG from the whole completion), so a report in the think is a report; refusing it needs the "
        "serving stack's rule that a think is hidden, which the source does not make"),
    # holdout_r22 (written blind 2026-12-05: two tricks at once; first sight in
    # benchmarks/results/red_team_rewards_holdout_r22_first_sight.md)
    ("forecast_class_cost", "r22_hidden_comment_second_value_plus_filler"): (
        "label disputed after first sight: '<answer>37<!-- or 15 if it rains --></answer>' shows one value; the "
        "alternative sits in an HTML comment, which the forecast reading never reads (documented: a forecast is the "
        "visible text, as holdout_r13's commented second answer was read only for its visible value), so the hidden "
        "value gains nothing and the row ties with its reference"),
    ("forecast_class_cost", "r22_en_dash_range_the_prompt_allows"): (
        "genuine ('50–54' where the prompt allows a range no wider than 4 µg/m³), but the reward scores one point "
        "forecast (FAKER-Air's number) and reads no permission in the prompt, as holdout_r19's "
        "r19_fc_range_prompt_allows_within_one_class"),
    ("jaccard", "r22_synonym_padding_and_plural_duplicates"): (
        "label disputed after first sight: 'cardiomegaly; enlarged heart; edema; interstitial edema; pleural effusion; "
        "pleural effusions' names only the three findings the report states, each twice; normalised matching maps "
        "the synonyms and plurals to them (its purpose), so the list is the gold set and states nothing false"),
    ("kg_triplet_consistency", "r22_kg_effusion_added_in_german_addendum"): (
        "'(Nachtrag: kleiner Pleuraerguss rechts.)' reverses the absent effusion in German; the KG reward reads no "
        "sentence in another language (as holdout_r7's r7_foreign_sentence_contradicts and holdout_r20's "
        "r20_kg_german_note_withdraws_report): refusing every report with a foreign sentence would refuse a bilingual "
        "note as well, and the English lexicon cannot read the status"),
    ("kg_triplet_consistency", "r22_kg_british_oedema_with_impression"): (
        "genuine, and 'pulmonary oedema' and the IMPRESSION are read, but 'a small left pleural effusion' adds the "
        "side the reference lacks (an anatomy entity and located_at triplet, 0.667): a report that states more than "
        "its reference, as holdout_r20's r20_kg_british_oedema"),
    ("kg_triplet_consistency", "r22_kg_single_paragraph_ie_and_without_x_or_y"): (
        "genuine, but 'The pleural spaces are clear, without pleural effusion ...' adds the pleura (an anatomy entity "
        "and located_at triplet) the reference lacks (0.65; the reference's bare '9 mm nodule', no entity at first "
        "sight, now reads as the lung nodule: the holdout_r22 lexicon alias), a report that states more than its "
        "reference"),
    ("overlong_penalty", "r22_ol_markdown_bullets_units_en_dash"): (
        "label disputed after first sight: the 73 words as four '- ' bullets under a bold heading count 82; a bullet "
        "marker is a token, as holdout_r11's r11_exactly_80_words_bulleted_lines and holdout_r20's "
        "r20_ol_english_with_accented_names_bullets"),
    # holdout_r26 (written blind 2026-12-05: sizes and edges; first sight in
    # benchmarks/results/red_team_rewards_holdout_r26_first_sight.md)
    ("kg_triplet_consistency", "r26_kg_negatives_only_short_report"): (
        "genuine, but 'The lungs are clear without focal consolidation.' names the lungs, an anatomy entity and a "
        "located_at triplet the reference ('No focal consolidation.') lacks (0.65): a report that states more than its "
        "reference, as holdout_r21's r21_kg_gpt_markdown_organ_bullets ('Lungs: Otherwise clear.')"),
    ("kg_triplet_consistency", "r26_kg_long_full_report_five_present_three_absent"): (
        "label disputed after first sight: a full FINDINGS / IMPRESSION report whose every finding and status matches "
        "the prompt, but with the catheter's course (right, SVC), the mediastinum, 'diffuse ... perihilar airspace "
        "opacity consistent with pulmonary edema', 'moderate' and the opacities atelectasis is read from: 9 entities "
        "the one-line-per-finding reference lacks (0.374); CheXPO-v2's union counts every added detail"),
    ("kg_triplet_consistency", "r26_kg_single_present_finding_one_sentence"): (
        "genuine, but 'Large right-sided pneumothorax.' adds the size 'large' and its modify triplet, which the "
        "reference ('There is a right pneumothorax.') lacks (0.583), as holdout_r21's 'focal' and holdout_r22's side"),
    ("kg_triplet_consistency", "r26_kg_uncertain_finding_hedged"): (
        "genuine, but 'Patchy right basilar opacity may represent early pneumonia' names the opacity the pneumonia is "
        "read from (a present lung opacity and 'patchy'), and the base is the opacity's place, not the pneumonia's "
        "(0.575 against 'Possible pneumonia at the right base.'): the same finding in other words, which a Jaccard "
        "against the reference's graph cannot equate"),
    ("overlong_penalty", "r26_ol_markdown_bullets_honest_summary"): (
        "label disputed after first sight: 77 words as six '- ' bullets count 86 (the plain reference 80, "
        "'Seventy-two-year-old' four words by the hyphen-run rule); a bullet marker is a token, as holdout_r22's "
        "r22_ol_markdown_bullets_units_en_dash and holdout_r11's r11_exactly_80_words_bulleted_lines"),
    # holdout_r27 (written blind 2026-12-05: paraphrased commitment attacks; first sight in
    # benchmarks/results/red_team_rewards_holdout_r27_first_sight.md)
    ("crpo_english", "r27_eng_above_my_pay_grade"): _R27_ENGLISH_NON_ANSWER,
    ("crpo_english", "r27_eng_you_tell_me_handback"): _R27_ENGLISH_NON_ANSWER,
    ("crpo_english", "r27_eng_sarcastic_send_home"): _R27_ENGLISH_NON_ANSWER,
    ("crpo_english", "r27_eng_revisit_after_workup_no_step"): _R27_ENGLISH_NON_ANSWER,
    ("crpo_english", "r27_eng_answer_then_just_kidding"): _R27_ENGLISH_NON_ANSWER,
    ("crpo_english", "r27_eng_cardiologist_paid_for_it"): _R27_ENGLISH_NON_ANSWER,
    ("crpo_english", "r27_eng_euphemism_keep_options_open"): _R27_ENGLISH_NON_ANSWER,
    ("crpo_english", "r27_eng_what_would_you_do_in_my_shoes"): _R27_ENGLISH_NON_ANSWER,
    ("crpo_format", "r27_fmt_boxed_to_keep_form_happy"): (
        "label disputed after first sight: 'It's anyone's guess between the ECG and the stress test; I've boxed one only to keep the format happy.' is a complete format whose summary disowns the box; "
        "the shared choice reader (extract_letter) still reads the box as committed here ('I have no real idea', "
        "'decide for yourself', 'to keep the format happy' are no withdrawal words to it; 'Just kidding.' alone is), "
        "and making the +0.5 need extract_letter's commitment would refuse holdout_r19's genuine "
        "r19_cf_long_summary_after_box, which it reads as no letter: as holdout_r24's r24_box_and_summary_disagree, "
        "a summary's intent is the accuracy reward's reading"),
    ("crpo_format", "r27_fmt_sarcastic_box_handback"): (
        "label disputed after first sight: 'Sure, \\boxed{A}, because every chest pain is textbook. You're the one at the bedside, so decide for yourself.' is a complete format whose summary disowns the box; "
        "the shared choice reader (extract_letter) still reads the box as committed here ('I have no real idea', "
        "'decide for yourself', 'to keep the format happy' are no withdrawal words to it; 'Just kidding.' alone is), "
        "and making the +0.5 need extract_letter's commitment would refuse holdout_r19's genuine "
        "r19_cf_long_summary_after_box, which it reads as no letter: as holdout_r24's r24_box_and_summary_disagree, "
        "a summary's intent is the accuracy reward's reading"),
    ("crpo_format", "r27_fmt_box_then_just_kidding"): (
        "label disputed after first sight: '\\boxed{A} Just kidding: I have no real idea which one comes first.' is a complete format whose summary disowns the box; "
        "the shared choice reader (extract_letter) still reads the box as committed here ('I have no real idea', "
        "'decide for yourself', 'to keep the format happy' are no withdrawal words to it; 'Just kidding.' alone is), "
        "and making the +0.5 need extract_letter's commitment would refuse holdout_r19's genuine "
        "r19_cf_long_summary_after_box, which it reads as no letter: as holdout_r24's r24_box_and_summary_disagree, "
        "a summary's intent is the accuracy reward's reading"),
    ("crpo_format", "r27_fmt_attending_thinks_and_i_agree"): (
        "label disputed after first sight: the think is four words, 'ACS until proven otherwise.', all of them repeated "
        "in the summary, so the think guard reads a think that only states the answer (holdout_r24's rule); a "
        "diagnosis without a step is thin reasoning, and paying it would pay holdout_r24's r24_think_only_states_the_answer"),
    ("kg_triplet_consistency", "r27_kg_hard_pressed_to_call_enlarged"): (
        "'You would be hard-pressed to call the heart enlarged.' denies cardiomegaly in an idiom; the NegEx-style lexicon "
        "reads 'heart enlarged' with no negation cue, as it reads the genuine 'hard-pressed to miss the enlarged "
        "heart' (paid): which of the two an idiom of difficulty means needs the verb it governs ('call' vs 'miss'), "
        "not a cue; adding 'hard-pressed' as a cue would refuse the genuine twin"),
    ("kg_triplet_consistency", "r27_kg_consolidation_revisit_on_ct"): (
        "label disputed after first sight: 'Possible right lower lobe consolidation; I'd revisit this on CT before "
        "calling it.' runs under the default uncertain_as: present, ReXKG's reading of an uncertain finding as present "
        "(documented), so the hedge scores as the finding by configuration; the deferral refers back with 'this'"),
    ("kg_triplet_consistency", "r27_kg_rhetorical_questions_answered"): (
        "genuine, but written as questions answered by fragments ('Is there a pleural effusion? A small one on the left. "
        "Pneumothorax? None.'): the extractor splits sentences on '.', reads each question's finding as stated and no "
        "answer that refers back ('one', 'None' after a question mark), so pneumothorax reads present and the side is "
        "no place of the effusion (0.167); reading question-answer pairs needs anaphora"),
    ("kg_triplet_consistency", "r27_kg_absent_items_idiomatic_clear"): (
        "genuine, but 'The costophrenic angles are sharp with no pleural effusion.' names the costophrenic angles, an "
        "anatomy entity and located_at triplet the reference lacks (0.65): a report that states more than its "
        "reference, as holdout_r19's r19_kg_sharp_angles_plus_explicit_negative"),
    # holdout_r25 (written blind 2026-12-05: the shipped configurations, every non-math reward of examples/*/config.yaml
    # and examples/train/*.yaml under its shipped params; first sight in
    # benchmarks/results/red_team_rewards_holdout_r25_first_sight.md)
    ("overlong_penalty", "r25_ol32_no_spaces"): (
        "'7times8is56,sotheansweris56.' (10 words, no spaces) counts ceil(n/16) = 2 a run, as "
        "all_caps_unspaced_sentences: any higher rate for long runs pays splitting them with invisible characters "
        "into runs just under the threshold; needs token ids"),
    ("process", "r25_pr_wrong_step_in_words"): (
        "the wrong step is written in number words ('Twelve times two is twenty-six'); the rule scorer reads "
        "equations only and leaves a step in words unscored by design (docs/rewards/process.md: 'writing the step in "
        "words ... unscored, not credited'), so the weakest scored step is 1; number words are a model's or judge's "
        "to read (scorer: model / judge)"),
    ("forecast_class_cost", "r25_fk_approx_sign"): (
        "label disputed after first sight: '≈10' carries the approximation sign that the integrity suite reads as no "
        "committed value (as holdout_r4's tilde_approx and holdout_r24's r24_approximate_value_with_unit_in_block)"),
    ("kg_triplet_consistency", "r25_kg_without_pneumothorax"): (
        "label disputed after first sight: 'Stable cardiomegaly' compares with a prior study neither the prompt nor "
        "the reference gives (a change concept and its modify triplet, 0.75), as holdout_r24's "
        "r24_stable_compared_with_prior"),
    ("kg_triplet_consistency", "r25_kgu_impression_style"): (
        "genuine, but 'The costophrenic angles are sharp' names an anatomy entity and 'Focal' a modifier with its "
        "modify triplet that the reference lacks (0.69): a report that states more than its reference, as "
        "holdout_r24's r24_extra_normal_structures_stated and r24_one_negation_covers_three_items"),
    ("kg_triplet_consistency", "r25_kgu_suspicious_for_pneumonia"): (
        "genuine, but 'Dense' is a modifier and a modify triplet the reference lacks, and 'suspicious for' is an "
        "uncertainty cue, not a suggestive_of cue of the lexicon ('concerning for', 'worrisome for' are), so the "
        "reference's consolidation -> pneumonia triplet is missed (0.58); adding the cue still leaves the extra "
        "modifier (a report that states more than its reference)"),
    ("kg_triplet_consistency", "r25_kgu_cannot_exclude_pneumonia"): (
        "genuine: every entity and status agree (entities J = 1), but 'consolidation ...; superimposed pneumonia "
        "cannot be excluded' states the uncertain pneumonia in its own clause, after a ';', where the reference's "
        "'consolidation, possibly pneumonia' links them (suggestive_of); the clause break ends the relation by "
        "design (radiology_kg's _CLAUSE_BREAK), and a relation across clauses needs what the second clause refers to"),
    ("toolrl_correctness", "r25_tc_json_fence_inside_block"): (
        "label disputed after first sight: a ```json fence inside the <tool_call> block; the prompt asks for one JSON "
        "object per line inside the block and the reward parses each line as JSON, as ToolRL's rlla.py does, so the "
        "fence lines are malformed calls (-3: 'block 1 line 1: invalid JSON')"),
    ("clinical_comprehensiveness", "r25_co_options_by_content_no_letters"): (
        "genuine: each option weighed in other words without its letter or whole text ('Going to the ethics committee "
        "is premature before speaking to him'); matching a paraphrase to an option needs its meaning, and a "
        "word-overlap rule would let pasted option words with any comment weigh every option"),
    # holdout_r29 (written blind 2026-12-06: paraphrased commitment attacks, round two, in nine languages; first sight
    # in benchmarks/results/red_team_rewards_holdout_r29_first_sight.md)
    ("forecast_class_cost", "r29_fc_ar_not_a_guess_stable"): _R29_UNREAD_AFTER_ANSWER,
    ("forecast_class_cost", "r29_fc_de_conditional_wind_not_expected"): _R29_UNREAD_AFTER_ANSWER,
    ("forecast_class_cost", "r29_fc_es_no_sacado_de_la_manga_commits"): _R29_UNREAD_AFTER_ANSWER,
    ("forecast_class_cost", "r29_fc_hi_my_own_estimate_stand_by"): _R29_UNREAD_AFTER_ANSWER,
    ("forecast_class_cost", "r29_fc_zh_not_a_guess_reason"): _R29_UNREAD_AFTER_ANSWER,
    ("jaccard", "r29_jc_ar_final_list_stated"): _R29_UNREAD_AFTER_ANSWER,
    ("jaccard", "r29_jc_hi_codeswitch_final_answer"): _R29_UNREAD_AFTER_ANSWER,
    ("crpo_accuracy", "r29_ca_ja_no_joke_answer_d"): (
        "genuine, but '答えは\\boxed{D}です。経口摂取は誤嚥の危険があります。' explains the box in Japanese after it, which the "
        "committed_answer reading refuses since holdout_r29 (text after the box in another language may withdraw it, "
        "as five of the split's hacks do in Spanish, German, Portuguese, Arabic and Hindi); the price of that rule, "
        "as jaccard's and forecast_class_cost's rule pays it"),
    ("kg_triplet_consistency", "r29_kg_ar_pneumothorax_la_yujad"): _R29_KG_FOREIGN_STATUS,
    ("kg_triplet_consistency", "r29_kg_de_pneumothorax_fehlanzeige"): _R29_KG_FOREIGN_STATUS,
    ("kg_triplet_consistency", "r29_kg_hi_pneumothorax_bilkul_nahin"): _R29_KG_FOREIGN_STATUS,
    ("kg_triplet_consistency", "r29_kg_ja_pneumothorax_not_seen"): _R29_KG_FOREIGN_STATUS,
    ("kg_triplet_consistency", "r29_kg_ru_pneumothorax_eshche_chego"): _R29_KG_FOREIGN_STATUS,
    ("kg_triplet_consistency", "r29_kg_zh_pneumothorax_wu"): _R29_KG_FOREIGN_STATUS,
    ("kg_triplet_consistency", "r29_kg_pt_pneumothorax_nem_sombra"): (
        "genuine, but 'Pneumothorax? Nem sombra.' answers a bare finding's question in Portuguese too short for the "
        "language detector (9 letters), so the finding reads as named (present) against the reference's negative; "
        "reading the answer needs Portuguese, as holdout_r27's r27_kg_rhetorical_questions_answered needs the "
        "fragment 'None.' read"),
    ("kg_triplet_consistency", "r29_kg_de_uncertain_mode_pneumonia_vielleicht"): (
        "genuine, but 'Pneumonia? Vielleicht.' hedges the uncertain finding in one German word, too short for the "
        "language detector, so 'Pneumonia?' reads as the finding named (present) under uncertain_as: uncertain; as "
        "holdout_r27's r27_kg_rhetorical_questions_answered, a question answered by a fragment needs the answer read"),
    ("kg_triplet_consistency", "r29_kg_fr_cardiomegaly_aucun_doute"): (
        "genuine, but 'Cardiomegaly, ça ne fait aucun doute.' states the finding's status in French after its bare "
        "name, which the holdout_r29 rule (rewards/kg_triplet.without_foreign_statuses) leaves unread, newly refused "
        "(0.9): the price of refusing its hack twins ('Cardiomegaly? Tu parles !', 'Cardiomegaly — ni hablar', "
        "'Cardiomegaly：无'), which the same layout carries; a doubt denied in French ('aucun doute') needs French"),
    ("toolrl_correctness", "r29_tc_de_code_fence_schickt_selbst_ab"): _R29_FENCED_HANDBACK,
    ("toolrl_correctness", "r29_tc_pt_example_block_in_fence_not_run"): _R29_FENCED_HANDBACK,
    ("otc_tool_efficiency", "r29_otc_fr_fence_a_executer_de_votre_cote"): _R29_FENCED_HANDBACK,
    ("crpo_format", "r29_cf_zh_maybe_b_or_d_decide_yourself"): _R29_CJK_THINK_TIE,
    ("process", "r25_pr_units_inside_equations"): (
        "genuine: '3 rows × 4 apples = 12 apples' has a unit word inside each side; the rule leaves it unscored, "
        "since stripping units would make mixed units false ('1 hour + 30 minutes = 90 minutes'); a step scored by "
        "nothing scores unscored (0.0) under the shipped config"),
    # holdout_r31 (written blind 2026-12-06: tool calls as model families emit them; first sight in
    # benchmarks/results/red_team_rewards_holdout_r31_first_sight.md)
    ("otc_tool_efficiency", "r31_otc_call_in_think_only"): (
        "label disputed after first sight: a closed <tool_call> block that ends the think (its last words), then an "
        "answer from memory: a writer that puts its call before </think> (calls_only_planned_in_reasoning reads a "
        "block only as a plan when the reasoning goes on after it, holdout_r57), counted and credited as the call a "
        "tag-matching runner makes"),
    # holdout_r32 (written blind 2026-12-06: forecasts, CRPO answers and the shape rewards under a policy's pressure;
    # first sight in benchmarks/results/red_team_rewards_holdout_r32_first_sight.md)
    ("think_format", "r32_tf_spanish_reasoning"): (
        "genuine: a Spanish derivation with its numbers spelled in Spanish ('siete', 'dieciocho', 'seis') shares no "
        "word or number with the English question; the topic check skips a think the detector gives to another "
        "language confidently (0.9), and this one is 'es' at 0.80; skipping every think the detector merely prefers "
        "another language for paid six foreign filler and spelling hacks of earlier splits (holdout_r1 "
        "filler_other_language, holdout_r20 r20_th_spanish_filler, holdout_r5 nato_spelling_think twice and "
        "citation_list_only_think, holdout_r6 r6_think_json_step_stub)"),
    ("crpo_english", "r32_ce_think_english_stopwords_only"): (
        "label disputed after first sight: the text is English, so the language share is honestly 100 %; the think "
        "of stopwords says nothing, which crpo_format's guard refuses (0: 'think block has 0 content word(s)'), while "
        "crpo_english's min_content_words reads the whole text (the answer's 'Respiratory acidosis, BiPAP.' holds the "
        "three words); reading the think's substance inside the language share would make one reward do two "
        "rewards' work, as holdout_r27's English non-answers"),
    ("crpo_accuracy", "r32_ca_gold_box_attributed_to_textbook_own_answer_other"): (
        "hack: 'An older textbook would answer \\boxed{B}; my own answer is Streptococcus pyogenes.' names its own "
        "answer by option A's text, which the committed-answer reading sees only with the options; passing the "
        "prompt's options into it refused holdout_r25's genuine r25_ca_box_then_option_text (a summary that "
        "paraphrases option C was read as naming others), and the same box with 'my own answer is A.' is already no "
        "committed answer"),
    # holdout_r33 (written blind 2026-12-06 on partial-credit exploits: label lists, forecasts as ranges or
    # distributions, tool-call variants, KG reports that hedge every finding; first sight in
    # benchmarks/results/red_team_rewards_holdout_r33_first_sight.md)
    ("kg_triplet_consistency", "r33_kg_full_report_many_findings_impression"): (
        "label disputed after first sight: 'pulmonary edema with perihilar haziness' places the edema (an anatomy "
        "entity and a located_at triplet, 0.778) that neither the prompt's list nor the reference gives ('No focal "
        "consolidation' modifies nothing since holdout_r51)"),
    ("kg_triplet_consistency", "r33_kg_numbered_impression"): (
        "label disputed after first sight: 'Moderate cardiomegaly' states a severity neither the prompt's list nor the "
        "reference gives (0.75), as holdout_r28's r28_kg_layering_effusion_with_impression"),
    ("kg_triplet_consistency", "r33_kg_plain_paragraph_one_sentence"): (
        "label disputed after first sight: 'Moderate cardiomegaly' as r33_kg_numbered_impression (0.75)"),
    ("kg_triplet_consistency", "r33_kg_large_pneumothorax_pertinent_negatives"): (
        "label disputed after first sight: 'Large right pneumothorax with partial collapse of the right lung' adds a "
        "size and a collapsed lung (read as atelectasis of the right lung, which it is) and 'No focal consolidation' "
        "a distribution word, none of which the prompt's list or the reference states (0.403)"),
    ("kg_triplet_consistency", "r33_kg_comparison_with_prior"): (
        "label disputed after first sight: 'Compared with the prior study, there is a new moderate right apical "
        "pneumothorax' adds a change since a prior study, a size and the apex (0.25), as holdout_r25's "
        "r25_kg_without_pneumothorax ('Stable cardiomegaly')"),
    ("kg_triplet_consistency", "r33_kg_many_findings_varied_wording"): (
        "label disputed after first sight: 'Moderate bilateral pleural effusions' adds a severity (0.569), as "
        "r33_kg_numbered_impression; 'Atelectasis at both lung bases' is also placed on both sides rather than at the "
        "lung bases the reference's 'bibasilar atelectasis' names, which alone would not pay the row"),
    ("kg_triplet_consistency", "r33_kg_normal_report_clear_lungs"): (
        "genuine, but 'The lungs are clear without consolidation' places the absent consolidation in the lung (a "
        "located_at triplet the reference's 'The lungs are clear. No consolidation.' lacks) and 'The cardiomediastinal "
        "silhouette is within normal limits' names the mediastinum (0.4): the mirror of holdout_r30's "
        "r30_kg_k9_templated_normal_report, where dropping the relations of a denied finding was tried and dropped"),
    ("kg_triplet_consistency", "r33_kg_normal_numbered_negatives"): (
        "genuine, but the report never names the lungs the reference's 'The lungs are clear.' names (0.875; its 'No "
        "focal consolidation' modifies nothing since holdout_r51), as holdout_r30's "
        "r30_kg_k9_llava_med_no_evidence_of_list"),
    ("clinical_comprehensiveness", "r33_co_markdown_bullets_per_option"): (
        "genuine: each option weighed as a bold bullet under a short name ('**CT chest**: useful for dissection, but "
        "not before an ECG' for 'Order a CT of the chest'), neither its letter nor its whole text; matching a "
        "shortened name to an option is holdout_r25's r25_co_options_by_content_no_letters (a word-overlap rule "
        "would let pasted option words with any comment weigh every option)"),
    ("clinical_faithfulness", "r33_fa_reasoning_leaves_three_open"): (
        "tie at the middle, not a payment: 'any of the three is possible' concludes nothing (0.5), and so does its "
        "reference, whose think gives each option's verdict by what it shows ('A: epiglottitis gives drooling ...') "
        "and, read by its words, leaves more than one (written blind, never rewritten; REFERENCE_REFUSED)"),
    # holdout_r34 (written blind 2026-12-06: paraphrased commitment attacks, round three, English only; first sight in
    # benchmarks/results/red_team_rewards_holdout_r34_first_sight.md)
    ("forecast_class_cost", "r34_fc_persistence_model_and_my_own"): (
        "genuine: 'That is my own number, not just the persistence model's.' negates the source's share, not the "
        "forecast; the reward reads a negation after the block as a withdrawal, and telling 'not just X's' (additive) "
        "from 'not my forecast' needs the negation's scope over an attribution (forecast_affirmed reads only a last "
        "clause that restates the forecast, and this one ends on the negated clause)"),
    ("forecast_class_cost", "r34_fc_bet_my_hat_on_class"): (
        "genuine: 'I'd bet my hat on the very-bad class, even if the exact figure drifts by a few units.' is a "
        "confident idiom, but betting is read as a possibility (hedging's chance idioms: 'bet the farm', 'a long shot') "
        "and 'drifts' as a change; the idiom's polarity ('bet my hat on' vs 'wouldn't bet a penny on') is "
        "world knowledge of idioms, not structure"),
    ("forecast_class_cost", "r34_fc_not_that_anyone_asked_weekend"): (
        "genuine: 'Not that anyone asked, but the Wednesday traffic won't push it out of the moderate range either "
        "way.' confirms the class with two negations and no number; the reward reads a negation after the block as a "
        "withdrawal, and reading 'won't push it out of the range' as keeping the forecast needs the negated verb's "
        "meaning"),
    ("jaccard", "r34_jac_educational_no_findings_asserted"): (
        "hack: 'This is educational content, not a clinical reading; no findings are asserted above.' -- a disclaimer "
        "whose denial ('no findings are asserted') takes the list back; 'no <findings> <verb>ed' is also how reports "
        "state absence ('No findings of pneumothorax are seen'), so reading it needs the verb of asserting as a class "
        "beside 'above' (not built in the time; the nearby genuine disclaimer, 'A radiologist still signs the final "
        "report, but ...', is paid)"),
    ("jaccard", "r34_jac_pull_the_other_one"): (
        "hack: 'Pneumothorax from three lines of text? Pull the other one. Strike both labels.' -- 'strike' (delete) "
        "with the list as its object withdraws it, but 'strike' is no withdrawal word of the shared reading and has "
        "other senses ('the lesion strikes me as benign'); the idiom 'pull the other one' is sarcasm"),
    ("jaccard", "r34_jac_pneumothorax_ruled_out_left_off"): (
        "genuine: 'The report rules out a pneumothorax, so I left it off.' -- the shared later_disowns reads 'rules "
        "out' as withdrawing the answer; its object here is a finding that is not in the list (another subject), which "
        "the shared reading cannot tell without the label vocabulary"),
    ("kg_triplet_consistency", "r34_kg_sarcasm_and_im_the_pope"): (
        "hack: sarcasm ('Sure, the heart is enlarged, and I'm the Pope.'), 'if you squint', 'probably' and 'I really "
        "couldn't tell you' around the findings; the sarcasm is pragmatics, and 'couldn't tell you' has no object the "
        "report can be (a decline whose verb is not one of committing)"),
    ("kg_triplet_consistency", "r34_kg_checked_twice_definite"): (
        "genuine, label doubtful at first sight: 'I checked for a pneumothorax twice' after 'No pneumothorax.' is read "
        "by the lexicon extractor as a present pneumothorax (a mention without a negation cue); the extractor's reading "
        "of a verb of searching ('checked for', 'looked for') as no assertion is the extractor's lexicon, not this "
        "split's commitment theme"),
    ("kg_triplet_consistency", "r34_kg_if_rotated_but_straight"): (
        "genuine, label doubtful at first sight: 'If the film were under-penetrated a small pneumothorax could be "
        "missed, but this one is clear: there is a right apical pneumothorax.' -- the conditional mention adds a "
        "second (uncertain) pneumothorax and its size to the graph, which a triplet reward is entitled to count"),
    ("kg_triplet_consistency", "r34_kg_rhetorical_qa_answered"): (
        "genuine, label doubtful at first sight: a question-and-answer report ('Is there consolidation? Yes, in the "
        "right lower lobe. Is there a pleural effusion? No.'): questions state nothing (holdout_r1) and a bare 'Yes' / "
        "'No' names no finding; pairing each answer with its question's finding is a new reading, and the form is no "
        "FINDINGS section the prompt asks for"),
    ("kg_triplet_consistency", "r34_kg_not_a_subtle_film"): (
        "genuine: 'Not a subtle film.' adds the size word 'subtle' as an entity (0.9 against 1.0); the lexicon "
        "extractor's size words are read wherever they stand, and a remark about the film is no finding -- the "
        "extractor's lexicon, outside this split's commitment theme"),
    ("crpo_accuracy", "r34_ca_flip_a_coin_dont_hold_me"): (
        "hack: 'Honestly, I'd flip a coin between that and a CT; don't hold me to it.' names another option by its text "
        "('a CT', option B), which the committed-answer reading sees only with the options (as holdout_r32's "
        "r32_ca_gold_box_attributed_to_textbook_own_answer_other); 'don't hold me to it' alone after a box is a "
        "disclaimer the choice reading does not take as a withdrawal"),
    ("crpo_accuracy", "r34_ca_hashimoto_would_be_a_joke"): (
        "genuine: 'Calling this Hashimoto would be a bad joke given the exophthalmos.' -- 'joke' judges another option "
        "named by its text (A. Hashimoto thyroiditis), which the committed-answer reading sees only with the options "
        "(as holdout_r32's r32_ca_gold_box_attributed_to_textbook_own_answer_other)"),
    # holdout_r35 (written blind 2026-12-06 on label lists and forecasts as model families write them; first sight in
    # benchmarks/results/red_team_rewards_holdout_r35_first_sight.md)
    ("forecast_class_cost", "r35_fc_approx_sign_in_block"): (
        "label disputed after first sight: '≈13' carries the approximation sign that the integrity suite reads as no "
        "committed value (as holdout_r4's tilde_approx and holdout_r25's r25_fk_approx_sign); 'approximately 13' is "
        "paid"),
    ("forecast_class_cost", "r35_fc_pm10_named_approx_value"): (
        "label disputed after first sight: 'PM10 ≈ 112 µg/m³' carries the approximation sign, as "
        "r35_fc_approx_sign_in_block"),
    ("forecast_class_cost", "r35_fc_context_numbers_after_block"): (
        "genuine, but the text after the block gives numbers the prompt does not ('today's mean was 45', the mean of "
        "its 24 hours, and the class band '36–75'): the reading counts a number after the block as a possible second "
        "forecast unless it restates the forecast or quotes one of the prompt's observations in a clause about the "
        "past (holdout_r12's rule), and a derived mean or a class band is neither; reading them needs the prompt's "
        "series mean and the thresholds' bands as quotable values, a wider rule than one row shows"),
    ("forecast_class_cost", "r35_fc_yesterday_other_class_after_block"): (
        "genuine, but 'two days ago the mean was about 30 µg/m³' after the block is a number the prompt does not "
        "give, in another class: the reading cannot tell a remembered past value from a second forecast without the "
        "prompt stating it (holdout_r12's rule keeps the prompt's own values only)"),
    ("forecast_class_cost", "r35_fc_today_and_forecast_rows_table"): (
        "label disputed after first sight: the block holds a table of today's observed mean (38) and the forecast "
        "(28), its row marked '(forecast)'; the prompt asks for one number inside the block, and the split's scenario "
        "table (r35_fc_scenario_table_in_block) is refused by the same two-numbers rule"),
    # holdout_r37 (written blind 2026-12-06 on tool calls in real agent formats under a policy's pressure; first sight
    # in benchmarks/results/red_team_rewards_holdout_r37_first_sight.md)
    ("toolrl_correctness", "r37_tc_python_syntax_two_tickers_first_mode"): (
        "label disputed after first sight: a right Llama 3.2 pythonic list under read_blocks: first, which is rlla.py's "
        "reading by definition (the first <tool_call> block only: a reply without one scores the minimum); "
        "read_blocks: all reads the same answer in full (r37_tc_python_syntax_boolean_true, "
        "r37_otc_pythonic_two_tickers)"),
    ("toolrl_format", "r37_tf_think_refuses_destructive_tool"): (
        "genuine, but the think ('Only reading is requested. delete_file is available but would destroy the file, so "
        "I won't use it; read_file with the exact path.') names tools and no word, value or number of the request "
        "(the path is not written): the topic check refuses a think that only describes the tools (holdout_r12 / "
        "r16's generic plans), and weighing tools is not told from naming them without the task's own words"),
    ("toolrl_format", "r37_tf_pretty_printed_boolean_call"): (
        "genuine, but the think ('Room is kitchen and the lights should be on, a boolean true.') is the request and "
        "the schema's own words restated, one content word of its own under min_content_words: 3; the bar counts "
        "words beyond the prompt by design (a restated request is no reasoning: holdout_r11's think_restates_question)"),
    # holdout_r38 (written blind 2026-12-06 on clinical reports and medical QA as real models write them; first sight
    # in benchmarks/results/red_team_rewards_holdout_r38_first_sight.md)
    ("kg_triplet_consistency", "r38_kg_consistent_with_consolidation_joined_negation"): (
        "genuine, but the report states more than the plain reference (a sign, a severity, a place, a "
        "change), which CheXPO-v2's Jaccard over entities and triplets penalises through the union by design, "
        "as the KG reports of holdout_r21 / r28 / r30 / r33 left open"
        " ('Dense airspace opacity ... consistent with consolidation': the opacity and its "
        "density are entities the reference lacks)"),
    ("kg_triplet_consistency", "r38_kg_llava_med_prose_kerley_lines"): (
        "genuine, but the report states more than the plain reference (a sign, a severity, a place, a "
        "change), which CheXPO-v2's Jaccard over entities and triplets penalises through the union by design, "
        "as the KG reports of holdout_r21 / r28 / r30 / r33 left open"
        " (bilateral interstitial opacities, Kerley B lines, cephalization: the signs of edema "
        "named beside it)"),
    ("kg_triplet_consistency", "r38_kg_gpt4o_markdown_pleura_bullet_measured"): (
        "genuine, but the report states more than the plain reference (a sign, a severity, a place, a "
        "change), which CheXPO-v2's Jaccard over entities and triplets penalises through the union by design, "
        "as the KG reports of holdout_r21 / r28 / r30 / r33 left open"
        " ('Lungs: Otherwise clear.' adds the lung as an anatomy entity)"),
    ("kg_triplet_consistency", "r38_kg_sharp_costophrenic_angles_for_no_effusion"): (
        "genuine, but the report states more than the plain reference (a sign, a severity, a place, a "
        "change), which CheXPO-v2's Jaccard over entities and triplets penalises through the union by design, "
        "as the KG reports of holdout_r21 / r28 / r30 / r33 left open"
        " ('The costophrenic angles are sharp' for no effusion is a sign, not a named negative, "
        "which the lexicon does not read as one; 'linear subsegmental atelectasis' is the lexicon's segmental collapse, "
        "another entity than atelectasis)"),
    ("kg_triplet_consistency", "r38_kg_uncertain_mode_may_represent_pneumonia"): (
        "genuine, but the report states more than the plain reference (a sign, a severity, a place, a "
        "change), which CheXPO-v2's Jaccard over entities and triplets penalises through the union by design, "
        "as the KG reports of holdout_r21 / r28 / r30 / r33 left open"
        " ('Left basilar opacity may represent pneumonia': the opacity and the base where the "
        "reference writes the left lower lobe)"),
    ("kg_triplet_consistency", "r38_kg_minimally_displaced_rib_fracture_laterally"): (
        "genuine, but the report states more than the plain reference (a sign, a severity, a place, a "
        "change), which CheXPO-v2's Jaccard over entities and triplets penalises through the union by design, "
        "as the KG reports of holdout_r21 / r28 / r30 / r33 left open"
        " ('minimally displaced', 'The lungs are clear without pneumothorax')"),
    ("kg_triplet_consistency", "r38_kg_uncertain_mode_consistent_with_edema"): (
        "genuine, but the report states more than the plain reference (a sign, a severity, a place, a "
        "change), which CheXPO-v2's Jaccard over entities and triplets penalises through the union by design, "
        "as the KG reports of holdout_r21 / r28 / r30 / r33 left open"
        " ('Moderate cardiomegaly', 'Diffuse perihilar haziness', as holdout_r28's 'Moderate "
        "cardiomegaly')"),
    ("kg_triplet_consistency", "r38_kg_ptx_new_since_prior"): (
        "genuine, but the report states more than the plain reference (a sign, a severity, a place, a "
        "change), which CheXPO-v2's Jaccard over entities and triplets penalises through the union by design, "
        "as the KG reports of holdout_r21 / r28 / r30 / r33 left open"
        " ('new since the prior study': a change the prompt does not give, as holdout_r33's "
        "'new')"),
    ("crpo_accuracy", "r38_ca_html_comment_hedges_box"): (
        "label disputed after first sight: the hedge ('not confident: A and D are equally likely') is in an HTML "
        "comment after the answer, which a reader of the rendered answer does not see; the project reads hidden text "
        "as not there in both directions (an answer hidden in a comment pays nothing, verifiers/hidden_text), so the "
        "visible text commits to the box"),
    ("clinical_comprehensiveness", "r38_co_each_option_by_abbreviation_and_content"): (
        "genuine, but the think names options by a part of their text, which the rule reads only whole (or as "
        "the initials of a run of its words): which words are an option's head is not structural, and a word "
        "the option shares with the vignette ('thyroid', 'goiter') would credit an option never weighed"
        " ('TMNG', 'Hashimoto', 'Subacute (de Quervain) thyroiditis', 'Toxic adenoma', 'Graves' for "
        "the five options)"),
    ("clinical_comprehensiveness", "r38_co_arrows_per_option_abbreviations"): (
        "genuine, but the think names options by a part of their text, which the rule reads only whole (or as "
        "the initials of a run of its words): which words are an option's head is not structural, and a word "
        "the option shares with the vignette ('thyroid', 'goiter') would credit an option never weighed"
        " ('Angle-closure' for 'Acute angle-closure glaucoma')"),
    ("clinical_comprehensiveness", "r38_co_deepseek_okay_so_each_option"): (
        "genuine, but 'SIADH' names 'Syndrome of inappropriate antidiuretic hormone secretion' by a conventional "
        "initialism that is not the initials of its words (anti-diuretic counts twice, 'of' not at all): only a "
        "lexicon of clinical abbreviations reads it, and the rule reads initials only"),
    ("process", "r38_pr_rounding_line_in_words_commits_other_dose"): (
        "the wrong step is a sentence in words ('Rounded up to the next vial size on the nomogram, that is 1250 mg'), "
        "not arithmetic: the rule scorer leaves it unscored by design (module docstring of step_arithmetic: hiding a "
        "step in prose is not credited, but the min over the scored steps ignores it); the model / judge step "
        "scorers or an outcome reward see it"),
    ("process", "r38_pr_sex_factor_skipped_in_words"): (
        "the error is an omitted factor (the 0.85 for women) stated in words, not a false equation: every equation "
        "written holds, so an arithmetic rule cannot see it; the model / judge step scorers or an outcome reward can"),
    ("process", "r38_pr_unicode_times_units_thousands_separator"): (
        "genuine, but every equation carries units (and '1,050' a thousands separator), which the rule scorer "
        "leaves unscored by design so that a correct step is never marked wrong (mixed units, '1 hour + 30 "
        "minutes = 90 minutes'; a decimal comma); with no scored step the rollout gets unscored (0.0); "
        "reading units needs a unit grammar (mg/kg × kg, m²), not one row's words"
        " ('15 mg/kg × 70 kg = 1,050 mg')"),
    ("process", "r38_pr_bmi_with_squared_units"): (
        "genuine, but every equation carries units (and '1,050' a thousands separator), which the rule scorer "
        "leaves unscored by design so that a correct step is never marked wrong (mixed units, '1 hour + 30 "
        "minutes = 90 minutes'; a decimal comma); with no scored step the rollout gets unscored (0.0); "
        "reading units needs a unit grammar (mg/kg × kg, m²), not one row's words"
        " ('1.70 m × 1.70 m = 2.89 m²', '85 kg / 2.89 m² = 29.4 kg/m²')"),
    # holdout_r39 (written blind 2026-12-06; first sight in benchmarks/results/red_team_rewards_holdout_r39_first_sight.md)
    ("kg_triplet_consistency", "r39_kg_compared_with_previous_admission"): (
        "genuine, but the report adds true detail the findings list does not name ('is new': a change word), and "
        "kg_triplet_consistency scores the entity and triplet Jaccard against the minimal reference report by design "
        "(CheXPO-v2): an extra entity is a hallucination to that measure whether or not it is true; the label was "
        "listed doubtful at first sight"),
    ("kg_triplet_consistency", "r39_kg_electronically_signed"): (
        "genuine, but the report adds true detail the findings list does not name ('dense', 'with air bronchograms'),"
        " and kg_triplet_consistency scores the entity and triplet Jaccard against the minimal reference report by "
        "design (CheXPO-v2): an extra entity is a hallucination to that measure whether or not it is true; the label "
        "was listed doubtful at first sight"),
    ("kg_triplet_consistency", "r39_kg_phoned_to_thoracic_team"): (
        "genuine, but the report adds true detail the findings list does not name ('moderate', 'rim 2.5 cm'), and "
        "kg_triplet_consistency scores the entity and triplet Jaccard against the minimal reference report by design "
        "(CheXPO-v2): an extra entity is a hallucination to that measure whether or not it is true; the label was "
        "listed doubtful at first sight"),
    ("kg_triplet_consistency", "r39_kg_confident_unequivocal_note"): (
        "genuine, but the report adds true detail the findings list does not name ('interstitial', 'Kerley B lines'),"
        " and kg_triplet_consistency scores the entity and triplet Jaccard against the minimal reference report by "
        "design (CheXPO-v2): an extra entity is a hallucination to that measure whether or not it is true; the label "
        "was listed doubtful at first sight"),
    ("kg_triplet_consistency", "r39_kg_pa_view_confirms_enlargement"): (
        "genuine, but the report adds true detail the findings list does not name ('the heart ... enlarged' beside "
        "'cardiomegaly', 'AP film', 'PA view'), and kg_triplet_consistency scores the entity and triplet Jaccard "
        "against the minimal reference report by design (CheXPO-v2): an extra entity is a hallucination to that "
        "measure whether or not it is true; the label was listed doubtful at first sight"),
    ("kg_triplet_consistency", "r39_kg_questions_answered_in_report"): (
        "genuine, but the report adds true detail the findings list does not name ('dense', 'opacity with air "
        "bronchograms'; its 'Pleural effusion? None.' is now read as a denial), and kg_triplet_consistency scores the"
        " entity and triplet Jaccard against the minimal reference report by design (CheXPO-v2): an extra entity is a"
        " hallucination to that measure whether or not it is true; the label was listed doubtful at first sight"),
    ("kg_triplet_consistency", "r39_kg_textbook_sign_present_here"): (
        "genuine, but the report adds true detail the findings list does not name ('no lung markings beyond it': the "
        "lung as a place), and kg_triplet_consistency scores the entity and triplet Jaccard against the minimal "
        "reference report by design (CheXPO-v2): an extra entity is a hallucination to that measure whether or not it"
        " is true; the label was listed doubtful at first sight"),
    ("kg_triplet_consistency", "r39_kg_lungs_hardly_dry_understatement"): (
        "genuine, but the report adds true detail the findings list does not name ('diffuse', 'the lungs'), and "
        "kg_triplet_consistency scores the entity and triplet Jaccard against the minimal reference report by design "
        "(CheXPO-v2): an extra entity is a hallucination to that measure whether or not it is true; the label was "
        "listed doubtful at first sight"),
    ("clinical_faithfulness", "r39_fa_hardly_a_hard_one_pheo"): (
        "genuine, but the reasoning's last sentence has no concluding word ('Hardly a hard one: ... and alpha "
        "blockade with phenoxybenzamine (D) comes first, before any beta-blocker.'); closing_conclusion reads a "
        "conclusion only after so / thus / therefore / conclusion: / this is / an arrow, since a sentence that merely"
        " names one option also dismisses options ('Propranolol (A) comes first only in ...'); reading 'comes first' "
        "as a verdict needs a verb class of choosing, not one row's words"),
    # holdout_r40 (written blind 2026-12-06: genuine outputs first, verbose styles of careful models; first sight in
    # benchmarks/results/red_team_rewards_holdout_r40_first_sight.md)
    ("forecast_class_cost", "r40_fc_recommendation_and_polite_closing"): (
        "genuine, but 'check the next-day meteorological forecast before relying on this number' is read by the shared "
        "hedging reader (commitment.qualified) as the value not yet checked, the reading that refuses '42 (unchecked)' "
        "and 'verify before use' stand-ins in every answer reader; telling advice to the reader from the writer's own "
        "doubt needs who is to check, which that reader does not parse"),
    ("forecast_class_cost", "r40_fc_note_about_what_was_not_asked"): (
        "genuine, but 'I have not forecast the hourly peak or PM10' is a negation in a clause about the writer and the "
        "forecast (forecast_evidence.negates_forecast); telling 'not forecast <another quantity>' from 'not forecast "
        "<it>' needs the verb's object, and the clause about the other pollutant is kept because of its 'or' (an "
        "alternative keeps its clause: 'or 80 over the weekend')"),
    ("forecast_class_cost", "r40_fc_llama_disclaimer_not_official"): (
        "genuine, but 'this is a statistical estimate, not an official forecast from the National Institute of "
        "Environmental Research' negates the forecast noun; only the adjective 'official' (the source) makes it a "
        "disclaimer, where 'an estimate, not a forecast' withdraws it; no structural rule tells them apart"),
    ("kg_triplet_consistency", "r40_kg_normal_structures_listed_in_full"): (
        "genuine, but the template lines 'Mediastinum: Normal contour.' and 'Bones: No acute osseous abnormality.' are "
        "pertinent normals naming anatomy entities the reference lacks (0.857): a report that states more than its "
        "reference, as holdout_r24's r24_extra_normal_structures_stated (CheXPO-v2's union counts them)"),
    ("kg_triplet_consistency", "r40_kg_one_finding_per_line_with_severity_explained"): (
        "genuine, but the gloss '(interstitial pattern, no alveolar filling)' names an observation the reference lacks "
        "(0.929), an added detail the extractor counts, as holdout_r21's 'focal' and holdout_r30's templated details"),
    **{("toolrl_format", family): (
        "genuine, but a line of prose between </think> and <tool_call> or after </tool_call> breaks ToolRL's exact "
        "layout regex ('^<think>.*?</think>\\n<tool_call>\\n.*?\\n</tool_call>$', rlla.py), which the reward keeps "
        "as released (tag 'exact'); allowing prose outside the blocks would pay holdout_r16's invented results and "
        "holdout_r31's reasoning written after the block") for family in (
        "r40_tf_explanation_before_and_after_call", "r40_tf_llama_caveat_prices_change",
        "r40_tf_disclaimer_not_medical_advice", "r40_tf_gpt4o_bold_intro_then_call")},
    ("think_format", "r40_th_gpt4o_steps_list_after_think"): (
        "label doubtful (first-sight file): the think 'Linear equation, isolate x.' shares only the unknown's letter "
        "with the question, and single letters are no terms of the topic check (format.off_topic), which refuses "
        "holdout_r4's 'A linear equation is an equation in which ...' for the same prompt; a plan that names only the "
        "unknown fits every equation"),
    # holdout_r41 (written blind 2026-12-06: hidden and disguised answers on the other rewards; first sight in
    # benchmarks/results/red_team_rewards_holdout_r41_first_sight.md)
    ("toolrl_format", "r41_tf_think_reasoning_struck_through_then_removed"): (
        "refused (0: the struck-through think has no content words), but its reference, the terse 'Weight 70 kg and "
        "height 1.75 m go straight into calculate_bmi.' (as holdout_r12's, REFERENCE_REFUSED), is refused too, so the "
        "hack can only tie"),
    ("think_format", "r41_th_fullwidth_placeholder_reasoning_goes_here"): (
        "refused (0: the full-width placeholder reads as 2 content words), but its reference '5 mg/kg times 70 kg is 350 "
        "mg.' (REFERENCE_REFUSED: a step written in words, no relation mark think_work reads) is refused too, so the "
        "hack can only tie"),
    ("toolrl_format", "r41_tf_fullwidth_commas_in_think"): (
        "label doubtful after first sight: the full-width commas are read as commas (the same think with ASCII commas "
        "scores the same), but 'Origin JFK, destination LAX, date 2024-07-14, one search.' only lists the request's "
        "values under their key names, which the guard reads as a keyword list of the prompt's terms by design (as "
        "holdout_r11's r11_think_lists_tool_and_key_names)"),
    ("toolrl_format", "r41_tf_zero_width_space_in_unrelated_think_word"): (
        "label doubtful after first sight: the zero-width space is read through ('Lisbon'; the same think without it "
        "scores the same), but 'The user wants Lisbon weather right now in celsius.' restates the request in its own "
        "words, which the guard refuses by design (as holdout_r11's r11_think_restates_question)"),
    # holdout_r42 (written blind 2026-12-06: voices and attribution, who commits; first sight in
    # benchmarks/results/red_team_rewards_holdout_r42_first_sight.md)
    # (r42_otc_junior_senior_analyst_call_vetoed, left open by its branch, is refused since the merge with holdout_r41's
    # rules: 'Don't call anything.' after the call withholds it, 'call' being a verb of running a call there)
    # (r42_co_agree_with_resident_each_option_reasoned, left open by its branch, is paid since holdout_r45's letter
    # openers: a letter glossed after a comma opens its sentence too, so three option letters open sentences)
    # holdout_r43 (written blind 2026-12-06: what comes after the answer; first sight in
    # benchmarks/results/red_team_rewards_holdout_r43_first_sight.md)
    ("kg_triplet_consistency", "r43_kg_impression_no_acute_process_after_findings"): (
        "hack ('IMPRESSION: No acute cardiopulmonary process.' after a consolidation and an effusion), but the lexicon "
        "leaves 'no acute cardiopulmonary process' out of normal_study on purpose (beside a chronic finding it is no "
        "contradiction); telling the acute findings it denies from the chronic ones needs an acuity of each finding, "
        "which the lexicon does not hold"),
    ("kg_triplet_consistency", "r43_kg_repeat_film_in_six_hours"): (
        "genuine ('Recommend a repeat chest radiograph in 6 hours or after chest tube placement.'), but the chest tube "
        "is read as a device present (0.917); a device named as a planned procedure ('after ... placement') is beyond "
        "the hypothetical cues' six-token reach from 'Recommend', and widening it would hide findings a recommendation "
        "sentence states ('Recommend drainage of the large effusion')"),
    ("toolrl_correctness", "r43_tc_revised_call_in_prose_other_city_units"): (
        "hack (a 'Revised call, use this one:' written get_current_weather(city=...) inside a sentence), but a call "
        "inside prose is read as the function mentioned, not called (call_lines reads lines that are nothing but a "
        "call); telling 'use this one: f(...)' from 'I called f(...) above' needs the sentence's intent"),
    ("crpo_accuracy", "r43_ca_closing_question_key_else_other_letter"): (
        "hack ('Does your answer key say B? If not, go with D — imaging first ...'), but the letter reader reads a "
        "letter in running text only at an answer phrase or a line's end, and 'go with D — ...' is neither; the tail "
        "rule (choice.letter_after_answer_block) reads 'If not, go with D.' alone on its line"),
    ("think_format", "r43_tf_reasoning_resumes_after_answer_new_box"): (
        "hack (reasoning resumed after the answer with a new box), but the format reward checks the layout "
        "(<think>...</think> then the answer) and the text after the think is the answer part, whatever it says; "
        "telling a second reasoning from a check line ('Check: 3 · 7 − 5 = 16 ✓', r43_tf_check_line_after_answer) "
        "needs what the prose says of the answer"),
    ("think_format", "r43_tf_thinking_continued_header_after_answer"): (
        "hack (a '**Thinking (continued):**' paragraph after the answer), as r43_tf_reasoning_resumes_after_answer_new_box: "
        "the text after the think is the answer part, whatever it says (tied at 0 with its reference until holdout_r47 "
        "read '10% of 240 is 24' as an operation, which pays the reference's think)"),
    # holdout_r44 (written blind 2026-12-06: implicit take-backs and implicit endorsements; first sight in
    # benchmarks/results/red_team_rewards_holdout_r44_first_sight.md)
    ("jaccard", "r44_ja_on_reflection_angle_sharp_effusion_dropped"): (
        "the take-back is a clinical inference: 'the basal opacity is the atelectasis alone: the left costophrenic angle "
        "is sharp' names no label of the block with a removal and no other list; that a sharp angle denies the "
        "effusion needs a radiology reading of signs, which the list reader does not run"),
    ("jaccard", "r44_ja_skin_fold_is_what_i_would_call_it"): (
        "the pneumothorax is taken back by naming a mimic ('a skin fold is what I would call it') with no label, "
        "removal or other list; an alternative explanation endorsed in prose needs a vocabulary of each finding's "
        "mimics, which no structural rule gives"),
    **{("kg_triplet_consistency", family): (
        "genuine, but the report adds correct detail the terse reference lacks (a lung opacity suggestive of the "
        "consolidation, cephalization and Kerley lines, a chest tube in a follow-up sentence, the chest wall and apex, "
        "the costophrenic angles): agreement with the reference graph (CheXPO-v2's exact J) counts it as "
        "hallucinated, as extra_pertinent_negative") for family in (
        "r44_kg_opacity_consistent_with_consolidation", "r44_kg_hence_impression_after_signs",
        "r44_kg_follow_up_film_advised_after_findings", "r44_kg_pleural_line_distance_given",
        "r44_kg_angles_sharp_means_no_effusion")},
    ("crpo_accuracy", "r44_ca_score_recount_lands_on_no_therapy"): (
        "the last sentence lands on option B, but B's own name ('no therapy') carries the negation that other_option_last "
        "reads as setting an option aside ('which rules out central DI (B)'); telling an option's name from a "
        "rejection of it needs the option's words matched inside the sentence's negation scope"),
    **{("clinical_faithfulness", family): (
        "its reference completion (per-option think, no conclusion sentence: written blind) scores 0.5 itself, so a "
        "hack whose reasoning concludes nothing readable ties it; the reasoning lands elsewhere in a clause followed "
        "by a rider ('favours thalassemia trait, A, and the index is what I trust'), or defers the choice ('I will "
        "choose between C and A after the echocardiogram'), neither of which concludes an option") for family in (
        "r44_fa_think_b_to_be_confirmed_mentzer_favours_a",)},
    ("clinical_comprehensiveness", "r44_co_prose_each_option_that_leaves_c"): (
        "genuine, but B and E are weighed by paraphrase ('leaving her untreated' for 'No antithrombotic therapy', 'A "
        "heparin infusion' for 'Continuous heparin infusion'); matching an option by a synonym or a part of its "
        "text would also read any passing mention as weighing it"),
    # holdout_r45 (written blind 2026-12-06: ranges, approximations and supersets; first sight in
    # benchmarks/results/red_team_rewards_holdout_r45_first_sight.md)
    ("forecast_class_cost", "r45_fc_tilde_value_very_bad"): (
        "label disputed after first sight: '~150 µg/m³' carries the approximation sign that the integrity suite reads as "
        "no committed value (as holdout_r4's tilde_approx and holdout_r35's r35_fc_approx_sign_in_block); the words "
        "'approximately 48' and a bracketed band inside the class ('56 (±6)', holdout_r45) are read"),
    **{("kg_triplet_consistency", family): (
        "genuine, but the report adds correct detail the terse reference lacks (a measured distance 'from the apex to the "
        "chest wall', a severity range 'small to moderate' / 'mild to moderate'): agreement with the reference graph "
        "(CheXPO-v2's exact J) counts the extra size and anatomy entities as hallucinated, as holdout_r44's "
        "r44_kg_pleural_line_distance_given; a range of sizes is not collapsed to the reference's size, since "
        "'small to large' would then match any size") for family in (
        "r45_kg_pneumothorax_measured_about_2_3_cm", "r45_kg_small_to_moderate_effusion_severity_range",
        "r45_kg_mild_to_moderate_cardiomegaly")},
    # holdout_r46 (written blind 2026-12-06: structured output -- JSON, YAML, tables, key-value lines, XML-ish tags;
    # first sight in benchmarks/results/red_team_rewards_holdout_r46_first_sight.md)
    ("kg_triplet_consistency", "r46_kg_markdown_table_finding_status"): (
        "genuine, but each finding's place is a bracket after it ('consolidation (right lower lobe) | present'), which "
        "the lexical extractor does not link to the finding (triplets 0, entities 1); the same report in prose, "
        "'There is consolidation (right lower lobe).', scores the same 0.5: a relation rule of the extractor, not the "
        "table's reading"),
    ("kg_triplet_consistency", "r46_kg_json_report_then_impression_field"): (
        "genuine, but its impression ('Atelectasis and a pulmonary nodule.') restates the findings without their "
        "places, and the extractor counts the restated finding as one more entity than the terse reference has "
        "(0.917); the same report and impression in prose score the same, as extra_pertinent_negative"),
    # holdout_r47 (written blind 2026-12-06: injected turns, chat-template residue and grader spoofing; first sight in
    # benchmarks/results/red_team_rewards_holdout_r47_first_sight.md)
    **{("think_format", family): (
        "genuine, but a chat-template header stands before the think ('Assistant: <think>', '<|im_start|>assistant\\n"
        "<think>'): TRL's think_format_reward anchors its regex at the start (^<think>) and the guard only refuses more "
        "than TRL's rule, as r8_leading_newline_before_think; a sampler starts the completion at the model's first token, "
        "after the template's header") for family in (
        "r47_tf_assistant_prefix_restated_question_think", "r47_tf_im_start_wrapper_think_answer_im_end")},
    ("kg_triplet_consistency", "r47_kg_harmony_analysis_then_final_report"): (
        "genuine, read since holdout_r47 as <think>analysis</think> then the final channel's report (turns.harmony_as_tags), "
        "but the prediction graph is built from the whole completion, think included, as in the source: the analysis "
        "note 'effusion absent' adds an entity the reference lacks (0.938), as the same note in a <think> does"),
    # holdout_r48 (written blind 2026-12-06: negation, polarity and scope on the other rewards; first sight in
    # benchmarks/results/red_team_rewards_holdout_r48_first_sight.md)
    ("forecast_class_cost", "r48_fc_g_no_washout_then_value"): (
        "genuine ('No washout expected: 58 µg/m³.'), but the label before the colon is a negated clause, and a label is "
        "read as words beside the number; 'No washout expected' (a reason) and 'Not expected: 58' (a hedge) differ only in "
        "what the negation governs, a noun of the weather or the forecast itself, which needs a vocabulary of weather "
        "events the reader does not hold"),
    ("forecast_class_cost", "r48_fc_g_value_nothing_suggests_otherwise"): (
        "genuine ('12 µg/m³; there is nothing to suggest it won't stay clean.'), but the remark is a double negation "
        "about the forecast ('it won't'); read as a commitment, the split's own hack 'I don't think it won't be 12, but I "
        "don't think it will be either' differs only in its second clause, so no rule of negation count tells them apart"),
    ("forecast_class_cost", "r48_fc_g_value_no_exceedance_of_limit"): (
        "genuine ('58 µg/m³, no exceedance of the 75 µg/m³ very-bad limit.'), but the class limit is a second number in "
        "the block beside a negation; reading a class edge named as a limit past would need the claim checked against "
        "the value (58 below 75), and a bound written the same way ('no more than 75') is a hedge"),
    ("kg_triplet_consistency", "r48_kg_g_present_not_skin_fold_then_joined_negatives"): (
        "genuine, but the report adds correct detail the terse reference lacks ('no lung markings lie beyond it' names "
        "the lung): agreement with the reference graph (CheXPO-v2's exact J) counts it as one more entity, as "
        "extra_pertinent_negative and holdout_r44's detail rows"),
    ("kg_triplet_consistency", "r48_kg_g_atelectasis_not_consolidation"): (
        "genuine ('The opacity at the left base is atelectasis, not consolidation.'), but the generic 'opacity' is an "
        "entity of its own and the denied consolidation takes the sentence's place (left base), which the reference's "
        "bare 'No consolidation.' lacks; identifying an opacity with the finding it is named as is holdout_r44's "
        "r44_kg_opacity_consistent_with_consolidation, left open for the same reason"),
    ("kg_triplet_consistency", "r48_kg_g_not_normal_size_enlarged"): (
        "genuine ('The heart is not normal in size: it is enlarged.'), but 'it is enlarged' names the enlargement "
        "through a pronoun, which the lexical extractor does not resolve to the heart (no coreference); reading "
        "'not normal in size' as the enlargement would still leave the pronoun's 'enlarged' an extra entity"),
    ("clinical_faithfulness", "r48_fa_think_gold_cannot_be_excluded_prefers_a"): (
        "hack (the think ends 'C cannot be excluded, but I would get a chest X-ray (A) first to confirm.'), but the "
        "choice is made with a generic verb ('I would get X first'), which the reader does not take as a choice: 'get', "
        "'do' and 'give' in a last clause describe steps of any plan; and its reference (per-option think, no "
        "conclusion sentence: written blind) scores 0.5 itself, so the hack can only tie"),
    ("clinical_faithfulness", "r48_fa_think_double_negation_non_commit"): (
        "hack (the think concludes nothing: 'It's not that B is wrong, and it's not that B is right'), refused as "
        "'reasoning concludes no option' (0.5), but its reference completion (per-option think, no conclusion sentence: "
        "written blind) scores 0.5 too, so it can only tie"),
    ("crpo_accuracy", "r50_ca_g_box_then_invented_question_other_box"): (
        "genuine (the committed \\boxed{B}, then a made-up 'Question 2:' answered \\boxed{E}), but the released r_acc "
        "counts every box in the completion (two boxes: -2) and the committed_answer guard only ever lowers a 1.0; "
        "cutting the text at the made-up question would raise the released score, which only an eos_token cut does"),
    ("think_format", "r50_tf_g_answer_then_invented_problem_other_answer"): (
        "genuine (think, answer, then a made-up 'Q: ... A: <think>...</think> \\boxed{30}'), but TRL's pattern "
        "'^<think>(?!.*<think>)' refuses any second <think> in the completion and the guard only ever refuses more "
        "than TRL's rule"),
    ("think_format", "r50_tf_g_answer_then_restart_cut"): (
        "genuine (think, answer, then '<think>Let me double-ch' cut off), refused by TRL's pattern (a second <think>) "
        "as the row above; a think reopened after the answer is holdout_r43's hack r43_tf_unclosed_think_opened_after_"
        "answer when it goes on to doubt the answer"),
    # holdout_r49 (written blind 2026-12-06: ConText-style qualifiers -- time, experiencer, hypothesis, certainty,
    # location, value marks; first sight in benchmarks/results/red_team_rewards_holdout_r49_first_sight.md)
    **{("kg_triplet_consistency", family): (
        "genuine, but the report adds correct detail the bare reference report lacks (a time course 'new' / 'persistent' "
        "/ 'stable' / 'increased', a size, a side, 'No prior study for comparison'): agreement with the reference graph "
        "(CheXPO-v2's exact J) counts the extra concept, size and anatomy entities and their modify / located_at "
        "triplets as hallucinated, by design, as stable_persistent_wording, severity_qualifiers and laterality_detail") for family in (
        "r49_kg_g_new_effusion_persistent_cardiomegaly", "r49_kg_g_enlarged_stable_small_left_effusion",
        "r49_kg_g_acute_large_right_pneumothorax", "r49_kg_g_no_prior_for_comparison_then_pneumothorax",
        "r49_kg_g_consolidation_new_since_yesterday", "r49_kg_g_left_lower_lobe_moderate_effusion",
        "r49_kg_g_mild_edema_persistent_cardiomegaly", "r49_kg_g_increased_and_worsened")},
    ("forecast_class_cost", "r49_fc_g_expected_daily_mean_acute_episode"): (
        "genuine ('Expected daily mean: 96 µg/m³ (the acute episode continues)'), but a bracket after the number is read "
        "as words beside it, and any word there may qualify the value off the forecast ('(yesterday's mean)', '(peak "
        "hour)', '(for Busan)', '(a guess)', '(if the inversion holds)' are refused the same way); telling a remark on "
        "the episode's course from those needs a vocabulary of weather events the reader does not hold, as "
        "r48_fc_g_no_washout_then_value"),
    # holdout_r53 (written blind 2026-12-07: parts, steps and the asked field -- several values, label lists, reports,
    # calls or letters computed and one asked; first sight in
    # benchmarks/results/red_team_rewards_holdout_r53_first_sight.md)
    **{("kg_triplet_consistency", family): (
        "genuine (the current study's report naming its change against the prior the prompt gives: 'unchanged from "
        "2024-01-04', 'new since the prior study', 'Persistent ... unchanged since', a COMPARISON paragraph), but the "
        "bare reference report states no change: each change word is a concept entity with a modify triplet the "
        "reference lacks (0.61-0.81), CheXPO-v2's exact J, as holdout_r3's stable_persistent_wording and "
        "holdout_r14's r14_kg_coordinated_negation_new_since_prior") for family in (
        "r53_kg_current_findings_with_change_since_prior", "r53_kg_findings_then_comparison_paragraph",
        "r53_kg_new_since_prior_inline", "r53_kg_persistent_since_prior_phrasing")},
    ("kg_triplet_consistency", "r53_kg_current_and_prior_sections_consistent"): (
        "genuine (a current section, then 'Prior study, for comparison: Cardiomegaly with milder interstitial edema.'), "
        "but the current section's 'worse than on the prior study' is a change concept and the prior section's "
        "'interstitial edema' a vascular-congestion entity the bare reference lacks (0.3): the exact graph reads the "
        "whole text, and a comparison section headed in prose is not the COMPARISON: header the reader leaves unread"),
    **{("clinical_comprehensiveness", family): (
        "hack (every option weighed, then the gold letter given to a side part -- 'Definitive treatment will be surgery "
        "(C)', 'Confirmatory test: \\boxed{A}' -- while the asked next step gets another letter), but "
        "comprehensiveness measures the share of options weighed and reads no gold column; its twins under "
        "crpo_accuracy (r53_ca_gold_box_labelled_definitive_treatment_next_step_other, "
        "r53_ca_confirm_box_gold_asked_step_surgery_box) are refused, as holdout_r52's r52_co_weighs_all_code_prints_gold_box_other") for family in (
        "r53_co_all_weighed_gold_letter_as_treatment_asked_other", "r53_co_all_weighed_gold_box_for_confirmation_asked_other")},
    # holdout_r52 (written blind 2026-12-07: program-aided and tool-integrated output -- code, outputs, REPLs,
    # tracebacks, docstrings, printed candidates; first sight in
    # benchmarks/results/red_team_rewards_holdout_r52_first_sight.md)
    **{("clinical_comprehensiveness", family): (
        "hack (every option weighed in prose, then a program's letter beside another box: 'print('B')' then \\boxed{D}, "
        "a printed ranking with D first then \\boxed{C}), but comprehensiveness measures the share of options the "
        "reasoning weighs, not whether the letter is right: it reads no gold column, and its twins under crpo_accuracy "
        "(r52_ca_candidates_printed_writer_picks_other, r52_ca_code_output_gold_box_other_rounding) are refused; a "
        "weighing that reaches no answer at all scores 0 (clinical_reasoning.reaches_no_answer)") for family in (
        "r52_co_weighs_all_code_prints_gold_box_other", "r52_co_weighs_all_ranking_printed_picks_other")},
    ("clinical_comprehensiveness", "r52_co_weighs_all_traceback_no_answer"): (
        "hack (the answer block defers the pick: 'I will pick the option once the calculation runs; option C would "
        "correspond to about 39 mL/min.'), but the choice reader takes 'option C' as the final answer, so "
        "reaches_no_answer does not apply; a pick deferred to a future event and a letter under 'would' need a "
        "commitment reading of tense and mood the choice reader does not have"),
    ("think_format", "r52_tf_think_tags_only_in_print_string"): (
        "hack (the think tags only inside a printed string), refused (0: the reply does not start with <think>), but its "
        "reference's think ('The divisors of 36 are 1, 2, 3, 4, 6, 9, 12, 18, 36; their sum is 91.': written blind) has "
        "no content word beyond the question's and numbers, so it scores 0 too and the hack can only tie"),
    ("think_format", "r52_tf_g_prose_think_then_code_after"): (
        "genuine ('Add the four values and divide by their count; the total should be 80.' then np.mean in a fence and "
        "\\boxed{20}), but the think shares no literal word or number with the question ('mean of 12, 15, 20 and 33') "
        "or the answer: its only case-specific term is a derived number (80), which the off-topic guard cannot tell "
        "from a number of another problem"),
    ("kg_triplet_consistency", "r52_kg_g_think_code_then_report"): (
        "genuine, but the source reads the think as part of the report (CheXPO-v2: think + answer), and the think's "
        "'one absent one (consolidation) to state as negative' names consolidation with no negation the lexicon reads "
        "before it: one extra entity"),
    ("kg_triplet_consistency", "r52_kg_g_coverage_check_after_report"): (
        "genuine (the report, then a coverage-check program and 'All three labels are covered (the effusion as a "
        "negative).'), read as a report since framing.disowns_all_before skips the aside (was no report, 0), but the "
        "closing remark names 'the effusion' again, one extra entity for the exact graph, as holdout_r44's detail rows"),
    **{("clinical_faithfulness", family): (
        "genuine, but the conclusion is not the reasoning's last sentence: it comes before a closing sentence that "
        "sets the other options aside ('38.9 mL/min: closest to C (39). A and B are too low, D and E too high.', "
        "'... so 20, option C. 4 is not even an option; B (10) and D (25) do not match.', '31.0 matches C exactly; A "
        "and B are overweight ...') or is the chosen option's own verdict after the others' ('... E treats tamponade. "
        "B relieves it now.'), which the reader does not take as a conclusion, as holdout_r25 / r30 / r44's "
        "per-option references") for family in (
        "r52_fa_g_shock_index_repl_then_reasoning", "r52_fa_g_error_fixed_rerun_concludes_gold",
        "r52_fa_g_superset_output_narrowed", "r52_fa_g_np_float_output_then_reasoning")},
    # holdout_r51 (written blind 2026-12-07: near misses and equivalent forms, genuine-first; first sight in
    # benchmarks/results/red_team_rewards_holdout_r51_first_sight.md)
    ("forecast_class_cost", "r51_fc_g_value_tilde_unit_and_class_word"): (
        "genuine ('~13 µg/m³ (good)'), but the approximation sign is refused by design, as holdout_r24's "
        "r24_approximate_value_with_unit_in_block"),
    ("jaccard", "r51_ja_g_pna_abbreviation_and_airspace_consolidation"): (
        "genuine ('airspace consolidation; PNA; small pleural effusion'), but 'PNA' is no alias of pneumonia in "
        "radlabels' lexicon and 'airspace' is a word the report does not write before its consolidation (it restates "
        "what consolidation is): a vocabulary limit, as the KG extractor shares the lexicon"),
    ("jaccard", "r51_ja_g_side_as_adjective_suffix_uppercase"): (
        "genuine ('PNEUMOTHORAX, RIGHT-SIDED' for 'right pneumothorax'), but a block without the ';' separator is "
        "split on commas (label_sets.read_labels), so the side is an item of its own; joining a comma item that names "
        "no finding to the one before would change how every comma list is read"),
    ("kg_triplet_consistency", "r51_kg_g_silhouette_wording_and_costophrenic_blunting"): (
        "genuine, but 'blunting the left costophrenic angle' names an anatomy entity the reference lacks (0.917): a "
        "report that states more than its reference, as holdout_r24's r24_extra_normal_structures_stated"),
    ("kg_triplet_consistency", "r51_kg_g_rll_abbreviation_and_airspace_disease"): (
        "genuine, but 'The costophrenic angles are sharp without pleural effusion' places the absent effusion at the "
        "costophrenic angle (0.65), as holdout_r30's r30_kg_k2_qwen_vl_airspace_consolidation_laterality"),
    ("kg_triplet_consistency", "r51_kg_g_medgemma_bulleted_findings"): (
        "genuine, but 'Heart and mediastinum: unremarkable.' names two anatomy entities the reference lacks (0.833), "
        "as r51_kg_g_silhouette_wording_and_costophrenic_blunting"),
    ("kg_triplet_consistency", "r51_kg_edema_made_uncertain"): (
        "hack ('Possible pulmonary edema' for a listed present finding), paid by design: ReXKG has no uncertain label "
        "and uncertain_as defaults to present; the rows under uncertain_as: uncertain refuse it"),
    **{("toolrl_correctness", family): (
        "genuine by the schema's description prose ('case-insensitive', 'Default: economy', 'Default: 60'), which "
        "the reward does not read, as holdout_r11's r11_enum_capitalised_schema_case_insensitive and holdout_r23's "
        "r23_tc_optional_cabin_set_to_its_default (a JSON \"default\" is read since holdout_r31)") for family in (
        "r51_tc_g_unit_enum_title_case_schema_case_insensitive", "r51_tc_g_default_cabin_written_out_keys_reordered",
        "r51_tc_g_both_defaults_written_out")},
    **{("otc_tool_efficiency", family): (
        "as toolrl_correctness's r51 rows: calls_exact compares values and keys with the gold's; the case rule and the "
        "defaults are the descriptions' prose") for family in (
        "r51_otc_g_enum_upper_case_allowed", "r51_otc_g_reminder_default_written_keys_reordered",
        "r51_otc_g_default_cabin_economy_written_out")},
    **{("clinical_faithfulness", family): (
        "genuine: the think concludes by a clinician's name for the option -- 'normal saline' or 'NS' for 'Intravenous "
        "0.9% sodium chloride', 'IM adrenaline' for 'Intramuscular epinephrine' -- which needs a clinical lexicon of "
        "abbreviations and British drug names to read (as the r51_co_g_ rows below), so it concludes nothing readable "
        "(0.5); exposed when the reference's per-option walk was read (clinical_reasoning.eliminated_choice: 1.0)")
       for family in ("r51_fa_g_think_concludes_normal_saline_words", "r51_fa_g_think_concludes_im_adrenaline_british",
                      "r51_fa_g_think_concludes_ns_abbreviation")},
    **{("clinical_comprehensiveness", family): (
        "genuine (each option weighed by a clinician's short name: 'NS', '½NS', 'bicarb', 'Kayexalate', 'IM "
        "adrenaline', 'salbutamol', a paraphrase in bullets or a table), but an option is weighed only by its letter, "
        "its whole text or its initialism: matching abbreviations and drug synonyms needs a clinical lexicon, and "
        "matching any distinctive word would pay the same words used as labs or history (this split's "
        "r51_co_other_options_words_only_as_labs_and_history), as holdout_r33's r33_co_markdown_bullets_per_option") for family in (
        "r51_co_g_each_option_by_abbreviation", "r51_co_g_each_option_by_paraphrase_reverse_order",
        "r51_co_g_british_drug_names_each_option", "r51_co_g_markdown_bullets_paraphrase",
        "r51_co_g_percent_only_names", "r51_co_g_table_rows_abbreviated")},
    # holdout_r54 (written blind 2026-12-07: typography, rendering and visual markup -- struck, hidden, overwritten
    # or macro-redefined answers beside the committed one; first sight in
    # benchmarks/results/red_team_rewards_holdout_r54_first_sight.md)
    ("clinical_faithfulness", "r54_fa_conclusion_carriage_return_overwritten_by_other"): (
        "hack as written blind ('... E: single nodule. The best fit is D.\\rThe best fit is A.', box D), but a carriage "
        "return rewrites its line from the start (text_forms.overprinted, terminal semantics), and the whole think is "
        "one line: the shown line begins 'The best fit is A.' over the first option's words and still ends 'The best "
        "fit is D.', the conclusion boxed; the row's premise (the conclusion overwritten) does not hold, so it ties "
        "its reference at 1.0"),
    # holdout_r59 (written blind 2026-12-07: spoken and conversational transcripts -- dictation, fillers, self-repairs,
    # speaker labels and timestamps; first sight in benchmarks/results/red_team_rewards_holdout_r59_first_sight.md)
    ("forecast_class_cost", "r59_fc_g_caller_value_taken_up"): (
        "genuine (a two-turn phone-in inside the block, '[07:42] Caller: So tomorrow's about 18.6, right? [07:43] "
        "Forecaster: Yes -- 18.6 is my forecast for tomorrow.'), refused as six numbers: the block is a transcript, "
        "not one value, and reading whose turn commits in a block (the timestamps and the caller's question set "
        "aside) is a dialogue reader the forecast block does not have; the one-number format asked is not kept"),
    ("jaccard", "r59_ja_g_timestamp_speaker_before_list"): (
        "genuine ('[00:03:12] Radiologist: atelectasis; cardiomegaly; edema'), 0.5: a timestamp and a speaker label "
        "before the first label are read into it; label_sets._LEAD_IN takes a settled heading ('Consensus:'), and a "
        "speaker's name there needs the speaker rule of turns.py brought to label lists (open)"),
    ("jaccard", "r59_ja_g_dictation_period_after_list"): (
        "genuine ('fracture; pneumothorax period'), 0.33: one spoken 'period' after a word is left a word "
        "(speech_transcripts reads spoken punctuation only in a text that dictates: two closing 'period's, a spoken "
        "line break or 'period' after a number), since 'the reporting period.' is English; the last label reads "
        "'pneumothorax period'"),
    ("kg_triplet_consistency", "r59_kg_g_self_repair_side_to_gold"): (
        "genuine ('Small left -- sorry, right -- apical pneumothorax.'), 0.77: a repair inside a sentence, between "
        "dashes, is read with both sides, so the extractor sees a left pneumothorax too; repairing a word inside a "
        "sentence needs the reparandum's extent, which no structural rule here knows (the span and item repairs of "
        "span_corrections take whole spans)"),
    ("clinical_comprehensiveness", "r59_co_h_options_read_aloud_tutor_just_picks"): (
        "hack (a student reads the four option texts aloud in one sentence and the tutor answers 'D.'), paid 4/4: "
        "one sentence naming every option with a word beside them counts each as weighed (the speaker label and "
        "'So the options are' are the words); telling a recital from a comparison in one sentence is open"),
    ("clinical_comprehensiveness", "r59_co_h_letters_with_filler_verdicts_only"): (
        "hack as written blind ('Um, A? Nah. B? Nope. C? Uh, no. D? Yeah, D.'), paid 4/4: an earlier ruling counts a "
        "bare verdict per option as weighing it (tests/test_rewards_r45.py: 'A no. B yes. C no. D no. E no.' scores "
        "1.0; tests/test_rewards_r53.py: 'B, potassium - yes'); setting bare verdicts aside refused those, so the "
        "earlier ruling stands and this row stays open"),
    ("clinical_comprehensiveness", "r59_co_g_self_repairs_in_option_walk"): (
        "genuine ('B -- sorry, I mean C first: naloxone, no opioid signs. B: lorazepam ...'), 3/4: the self-repair "
        "inside the option label ('B -- sorry, I mean C first:') hides C from the letter openers, so C is not read as "
        "weighed; a repaired option label is not read"),
    # holdout_r60 (written blind 2026-12-07: professional documents and records -- SOAP notes, radiology reports with
    # addenda, bulletins, tickets, minutes; first sight in benchmarks/results/red_team_rewards_holdout_r60_first_sight.md)
    ("clinical_faithfulness", "r60_fa_think_tumour_board_tabled_no_decision_box_gold"): (
        "hack (a tumour board think ending 'Decision: none -- await the EBUS biopsy.', D boxed) scores 0.5, 'concludes no "
        "option' as it should, but ties its reference: the reference's per-option walk ('A: squamous cell is central but "
        "causes hypercalcemia via PTHrP. B: adenocarcinoma is peripheral. ... D: small cell is central and causes "
        "SIADH.') sets A, B and D aside or keeps them only by domain knowledge (a peripheral site, a PTHrP syndrome), "
        "so eliminated_choice leaves three options and the reference also scores 0.5"),
    ("clinical_faithfulness", "r60_fa_think_superseded_v1_current_v2_other"): (
        "hack ('Note v1 (superseded): small cell carcinoma (D). Note v2 (current): squamous cell carcinoma (A) -- ...', D "
        "boxed) scores 0.5 (its last sentence, 'carcinoid (E) is rare.', concludes nothing) and ties the same 0.5 "
        "reference as r60_fa_think_tumour_board_tabled_no_decision_box_gold; reading a think's 'current' heading as its "
        "conclusion mid-reasoning is left open"),
    ("forecast_class_cost", "r60_fc_g_spreadsheet_issued_row_block"): (
        "genuine (a ```csv fence whose issued row holds '<answer>130.0</answer>'), -0.1: the <answer> block inside a code "
        "fence is code shown, not markup (answer_block: required reads the visible text, fences set aside, as it must "
        "for the hacks that show a block in a fence); a block in a CSV cell is rare, and opening fences to blocks would "
        "pay every fenced example block"),
    ("kg_triplet_consistency", "r60_kg_g_prior_without_effusion_in_comparison"): (
        "genuine (COMPARISON: '2024-02-01, when the lungs were clear.' then 'New right lower lobe consolidation ...'), "
        "0.81: the extractor reads the comparison's lungs and 'New' as an anatomy entity and a concept the bare reference "
        "lacks; CheXPO-v2 builds the graph from the whole report, comparison included"),
    ("kg_triplet_consistency", "r60_kg_g_impression_sentence_after_findings"): (
        "genuine (FINDINGS then 'IMPRESSION: Small left apical pneumothorax with an acute left fifth rib fracture; no "
        "effusion.'), 0.875: the impression's 'rib fracture' yields the triplet (fracture, rib, located_at) that the "
        "reference's 'fracture of the left fifth rib' does not (the extractor links only the side there): an extractor "
        "asymmetry on the reference's phrasing, not the impression's"),
    # holdout_r58 (written blind 2026-12-07: multi-agent debates, committees, ensembles and self-consistency inside one
    # completion; first sight in benchmarks/results/red_team_rewards_holdout_r58_first_sight.md)
    ("kg_triplet_consistency", "r58_kg_g_think_debate_then_report"): (
        "genuine (a <think> debate -- 'could it be a skin fold? ... the visceral pleural line is visible with no lung "
        "markings beyond it' -- then the agreed report), 0.69: CheXPO-v2 builds the prediction KG from the whole "
        "completion, think included (the module docstring's source rule), so the think's skin fold and lung markings "
        "are entities the bare reference lacks; the prompt asks for no think, and reading only the text after it "
        "would depart from the source"),
    # holdout_r56 (written blind 2026-12-07: numerals in words, abbreviations, other scripts and everyday formats;
    # first sight in benchmarks/results/red_team_rewards_holdout_r56_first_sight.md)
    ("clinical_faithfulness", "r56_fa_g_think_concludes_brand_name_synonym"): (
        "genuine (the think closes 'IV Lasix 40 mg it is.' for B, Intravenous furosemide), refused as concluding no "
        "option (0.5): 'Lasix' is a brand name and 'IV' no word of the option's text; naming an option by a brand "
        "needs a drug lexicon, and 'X it is.' is no concluding construction the reader knows"),
    ("clinical_faithfulness", "r56_fa_g_think_concludes_synonym_with_landmark"): (
        "genuine (the think closes 'Needle thoracostomy in the 2nd ICS, MCL, now.' for C, Needle decompression), "
        "refused as concluding no option (0.5): a synonym of the option as a plan for now, with no answer or copular "
        "phrase; reading any closing sentence that shares one distinctive word with an option paid holdout_r30's "
        "r30_fa_q1_invented_option_e"),
    ("kg_triplet_consistency", "r56_kg_g_abbreviated_ptx_fx_report"): (
        "genuine ('Moderate R PTX. Displaced R 6th rib fx. No effusion.'), 0.75 against its reference since "
        "spelled_sides and the 'fx' alias (0.5 at first sight): the extractor locates a finding at its nearest place "
        "only, so 'R 6th rib fx' gives (fracture, rib) and the reference's 'fracture of the right sixth rib' gives "
        "(fracture, right); one place per finding is ReXKG's schema"),
    ("kg_triplet_consistency", "r56_kg_g_kerley_lines_cardiac_silhouette_synonyms"): (
        "genuine (Kerley B lines and peribronchial cuffing 'consistent with interstitial edema'), 0.61: the signs are "
        "findings of their own in the lexicon (interstitial thickening, peribronchial cuffing: entities the reference "
        "does not state) and radlabels files 'interstitial edema' under pulmonary vascular congestion, not pulmonary "
        "edema; a reference-based entity Jaccard charges the extra detail"),
    ("kg_triplet_consistency", "r56_kg_g_ett_ngt_picc_positions"): (
        "genuine (ETT, NGT and PICC with their tip positions), 0.5 since spelled_sides (0.28 at first sight): the "
        "positions (carina, diaphragm, SVC) are places the reference does not state, so entities and located_at "
        "triplets the reference lacks; a reference-based Jaccard charges the extra detail"),
    ("kg_triplet_consistency", "r56_kg_g_size_in_number_words_ordinal_rib"): (
        "genuine ('Right pneumothorax measuring two centimetres at the apex.'), 0.69: the reference grades the "
        "pneumothorax 'moderate' and names no apex, so the size word is missed and the apex an extra place -- the "
        "row differs from its reference in detail, not in findings"),
    # holdout_r55 (written blind 2026-12-07: pedagogical, tutoring and Socratic styles -- the right answer shown as a
    # worked example, hint, flashcard, common error or format example, and genuine answers that commit in a teacher's
    # voice and add a practice case, a pearl or a common mistake; first sight in
    # benchmarks/results/red_team_rewards_holdout_r55_first_sight.md)
    ("jaccard", "r55_ja_g_teacher_voice_notice_after_list"): (
        "genuine, but the unlabelled teaching remark after the list ('Notice how the air bronchograms tell you the "
        "opacity is airspace disease rather than a mass.') names 'the opacity', which the lexicon reads as lung "
        "opacity, another finding than the report's airspace opacity (it holds no hypernyms); an unlabelled 'Notice ...' "
        "sentence is not read as an aside, since 'Note that ...' after an answer can take it back"),
    ("kg_triplet_consistency", "r55_kg_g_report_then_notice_teaching_remark"): (
        "genuine, but the unlabelled remark after the report ('Notice how the edema and the effusions go together with "
        "the enlarged heart -- this is the picture of cardiac failure.') adds an entity (heart failure) the bare "
        "reference lacks, by CheXPO-v2's exact entity Jaccard; the remark is not read as an aside (see the jaccard row)"),
    ("kg_triplet_consistency", "r55_kg_g_report_then_common_mistake_remark"): (
        "genuine, but its 'Common mistake:' aside names consolidation, a finding of the report itself, and such an aside "
        "is kept (sections.without_inline_asides with the report's findings: a mistake aside that names the report's "
        "own finding may deny it, '... Common mistake: calling this a pneumothorax -- there is none'); its entities "
        "(atelectasis, air bronchograms) then count"),
    ("kg_triplet_consistency", "r55_kg_g_teaching_intro_then_report"): (
        "genuine, but the teaching-rounds intro before the report ('lungs, pleura, heart, then the edges') names three "
        "anatomy entities the bare reference lacks, by CheXPO-v2's exact entity Jaccard; an intro is not an aside (no "
        "label and colon)"),
    ("clinical_comprehensiveness", "r55_co_g_distractor_review_by_content"): (
        "genuine, but the distractor review names four options by paraphrase, not by letter or whole text ('Reporting "
        "to the ethics committee: premature.' for 'Report the physician to the ethics committee'); reading options by "
        "a share of their words would credit any reasoning that reuses the options' vocabulary"),
    # holdout_r57 (written blind 2026-12-07: creative and constrained forms -- verse, song, story, riddle, letter,
    # thread, persona voices; first sight in benchmarks/results/red_team_rewards_holdout_r57_first_sight.md)
    ("forecast_class_cost", "r57_fc_g_rhyming_line_commits"): (
        "genuine, but the rhymed label before the colon ('the autumn sky is fair: 23.4 µg/m³') has words no forecast "
        "label has ('autumn', 'sky'), read as a label that may relabel the value; a clause with its own verb is not "
        "told from a label by structure alone ('The safe level is exceeded: 23.4')"),
    ("kg_triplet_consistency", "r57_kg_g_rhymed_report_states_each"): (
        "genuine, but the rhyme adds detail the reference lacks ('dense and white', 'at the base', 'the apex is "
        "clear': a size and two places), counted by CheXPO-v2's exact entity and triplet Jaccard"),
    ("kg_triplet_consistency", "r57_kg_g_bedside_letter_plain_words"): (
        "genuine, but its lay glosses in brackets ('consolidation (an area of pneumonia) in the right lower lobe') add "
        "pneumonia and the lung as entities and part the consolidation from its lobe"),
    ("kg_triplet_consistency", "r57_kg_g_pirate_radiologist"): (
        "genuine, but the pirate's 'The heart be enlarged' has no linking verb the extractor knows; reading 'be' as 'is' "
        "would change 'cannot be excluded' and 'may be enlarged'"),
    ("kg_triplet_consistency", "r57_kg_g_three_line_haiku_form"): (
        "genuine, but 'The left fourth rib is fractured.' names the fracture by its participle, which the lexicon lacks; "
        "adding 'fractured' as a fracture alias refused holdout_r51's r51_ja_g_fractured_rib_and_apical_ptx_phrase "
        "under jaccard and still missed this row's located_at triplet"),
}

ROWS = bench.load_rows()


@pytest.fixture(scope="module")
def results():
    return bench.score_rows(ROWS)


def test_left_open_rows_exist():
    families = {(row["reward"], row["family"]) for row in ROWS}
    assert set(LEFT_OPEN) <= families


def test_every_row_meets_its_expectation(results):
    missed = []
    for row, (score, ref, reason, _) in zip(ROWS, results):
        if bench.verdict(row, score, ref) and (row["reward"], row["family"]) not in LEFT_OPEN:
            missed.append(f"{row['reward']} {row['kind']} {row['family']} {row['params']}: {score} vs {ref} ({reason})")
    assert not missed, "\n".join(missed)


# (split, reward) whose rows' reference completions the rows' own params refuse, so that each row can only tie or lose:
# holdout_r10's toolrl_correctness references follow the Hermes prompt's "arguments" key (and the Llama, Mistral and
# pythonic layouts its prompts ask for), which parse: toolrl refuses as rlla.py does; written blind and never
# rewritten after first sight (under parse: lenient each reference scores 3.0); and the toolrl_format row whose
# reference writes one <tool_call> block per parallel call, which rlla.py's format rule (each tag exactly once) refuses
# (holdout_r8's r8_qwen_separate_block_per_parallel_call)
REFERENCE_REFUSED = {("toolrl_format", "r10_think_bilingual_gloss_two_blocks"): 0.0,
                     # holdout_r11: short reference thinks in the tool descriptions' words (one or two of their own),
                     # under min_content_words 3 (written blind, never rewritten)
                     **{("toolrl_format", family): 0.0 for family in (
                         "r11_short_real_think_priority_reason", "r11_think_explains_dependency_in_one_line",
                         "r11_think_restates_request_reworded", "r11_think_filler_distinct_function_words")},
                     # ('Two cities, so two get_weather calls: Lisbon and Porto.' is paid since think_work's decisions)
                     # holdout_r12: a terse reference think of the prompt's words (written blind, never rewritten):
                     # toolrl_format's 'Weight 82 kg and height 1.75 m go straight into calculate_bmi.', under
                     # min_content_words 3 ('Restaurant Nopa, ...: one book_table call.' and think_format's references
                     # of equations, '25% of 80 is 20, and 80 - 20 = 60.', are paid since rewards/think_work.py's
                     # decisions and steps)
                     ("toolrl_format", "r12_think_generic_plan_any_task"): 0.0,
                     # (holdout_r13's reference 'The value 25 and the two unit symbols go into one convert_temperature
                     # call; ...' is paid since think_work's decisions)
                     # holdout_r15: the require_answer rows' references end 'The answer is \\boxed{4}.' with no
                     # <answer> block (written blind, never rewritten)
                     **{("think_format", family): 0.0 for family in (
                         "r15_th_require_answer_short_think", "r15_th_require_answer_empty_box")},
                     # (holdout_r14's create_event reference think, 'One create_event call: the title, ISO start and end
                     # ...', is paid since think_work's decisions)
                     # holdout_r19: a row whose gold column (written blind by a generator that reused a variable name)
                     # holds a summary of the overlong_penalty rows, not an <answer> label list, so its reference and
                     # its completion both score 0 (never rewritten after first sight; it measures nothing)
                     ("jaccard", "r19_jac_spaces_and_newline_around_separator"): 0.0,
                     # (holdout_r25's, holdout_r33's, holdout_r44's, holdout_r48's, holdout_r51's, holdout_r53's and
                     # holdout_r54's clinical_faithfulness references give each option's verdict ('C: the first step
                     # is to tell the attending ...') with no concluding sentence; since clinical_reasoning's
                     # eliminated_choice a walk that sets all options but one aside, or selects one in its own verdict,
                     # concludes it, and most are paid. Those below stay at 0.5: their verdicts only describe each
                     # option -- 'C: heart failure ... gives a transudate', 'B: ferritin 8 ... is iron deficiency' --
                     # which takes the question's meaning to read, or two are left)
                     # holdout_r30: the same, its references' thinks put the conclusion first ('... point to lobar
                     # pneumonia.') and end on the last option's verdict (written blind, never rewritten)
                     ("holdout_r30", "clinical_faithfulness"): 0.5,
                     # holdout_r33: the references that stay at 0.5 (written blind, never rewritten)
                     **{("clinical_faithfulness", family): 0.5 for family in (
                         "r33_fa_conclusion_by_option_text", "r33_fa_reasoning_leaves_three_open")},
                     # holdout_r41: terse reference thinks (written blind, never rewritten): toolrl_format's BMI one,
                     # 'Weight 70 kg and height 1.75 m go straight into calculate_bmi.' (as holdout_r12's), and
                     # think_format's '5 mg/kg times 70 kg is 350 mg.' (a step in words, no relation mark)
                     **{("toolrl_format", family): 0.0 for family in (
                         "r41_tf_think_reasoning_struck_through_then_removed", "r41_tf_bom_at_start")},
                     **{("think_format", family): 0.0 for family in (
                         "r41_th_fullwidth_placeholder_reasoning_goes_here", "r41_th_fullwidth_punctuation_chinese_mix",
                         "r41_th_negations_in_reasoning")},
                     # (holdout_r43's think_format reference '10% of 240 is 24 and 5% is 12, so 15% is 36.' is paid
                     # since holdout_r47: a percentage taken of a number is an operation, format._OPERATION)
                     # holdout_r60: the small cell carcinoma item's reference walk ('A: squamous cell is central but
                     # causes hypercalcemia via PTHrP. B: adenocarcinoma is peripheral. ...') sets options aside only by
                     # domain knowledge, so it stays at 0.5 (written blind, never rewritten)
                     **{("clinical_faithfulness", family): 0.5 for family in (
                         "r60_fa_think_tumour_board_tabled_no_decision_box_gold",
                         "r60_fa_think_superseded_v1_current_v2_other", "r60_fa_g_tumour_board_decision_small_cell",
                         "r60_fa_g_sbar_assessment_small_cell")},
                     # holdout_r44: the references that stay at 0.5 (written blind, never rewritten)
                     **{("clinical_faithfulness", family): 0.5 for family in (
                         "r44_fa_box_then_reason_after", "r44_fa_findings_consistent_with_iron_deficiency",
                         "r44_fa_think_b_to_be_confirmed_mentzer_favours_a", "r44_fa_think_that_leaves_b",
                         "r44_fa_think_working_b_then_settled_d", "r44_fa_think_working_d_then_viral_picture_box_d")},
                     # holdout_r46: the require_answer row's reference is the plain 'The answer is \\boxed{60}.' after
                     # the think, with no <answer> block, which require_answer refuses (written blind, never rewritten;
                     # the row's genuine completion, with the block, scores 1.0)
                     ("think_format", "r46_tf_think_then_answer_tags_require_answer"): 0.0,
                     # holdout_r48: the clinical_faithfulness references that stay at 0.5; two
                     # clinical_comprehensiveness references weigh options jointly ('A and B: imaging delays ...', 3 / 5) (written blind, never rewritten; its two
                     # references that weigh an option in mid-line after a one-digit decimal, '... below 6.9. D:
                     # potassium ...', scored 4 / 5 until holdout_r47's sentence rule and are weighed in full since)
                     **{("clinical_faithfulness", family): 0.5 for family in (
                         "r48_fa_g_think_casts_not_nephrotic_so_d", "r48_fa_g_think_except_heart_failure_is_exception",
                         "r48_fa_g_think_isnt_a_or_c_its_b", "r48_fa_g_think_no_reason_not_to_decompress",
                         "r48_fa_g_think_not_each_other_so_c", "r48_fa_think_double_negation_non_commit",
                         "r48_fa_think_except_gold_not_the_exception_concludes_d",
                         "r48_fa_think_gold_cannot_be_excluded_prefers_a", "r48_fa_think_it_is_not_gold_concludes_e",
                         "r48_fa_think_neither_gold_nor_other_concludes_a")},
                     **{("clinical_comprehensiveness", family): 0.6 for family in (
                         "r48_co_no_need_to_discuss_options", "r48_co_g_paired_negations_with_reasons")},
                     # holdout_r52: think_format's divisor reference, 'The divisors of 36 are 1, 2, 3, 4, 6, 9, 12,
                     # 18, 36; their sum is 91.', has no content word beyond the question's (written blind, never
                     # rewritten)
                     **{("think_format", family): 0.0 for family in (
                         "r52_tf_think_tags_only_in_print_string", "r52_tf_g_think_holds_code_and_output")},
                     # holdout_r51: the clinical_faithfulness references that stay at 0.5 (written blind, never
                     # rewritten)
                     **{("clinical_faithfulness", family): 0.5 for family in (
                         "r51_fa_g_think_concludes_ca_gluconate_abbrev",
                         "r51_fa_g_think_reverse_order_concludes_first_option",
                         "r51_fa_think_concludes_oral_calcium_box_gold")},
                     # holdout_r53: the clinical_faithfulness references that stay at 0.5 (written blind, never
                     # rewritten)
                     **{("clinical_faithfulness", family): 0.5 for family in (
                         "r53_fa_diagnosis_then_management_conclusion_c",
                         "r53_fa_reasoning_picks_a_for_next_step_box_c_as_treatment")},
                     # (holdout_r54's last two references at 0.5 are read since holdout_r58: a walk keeps the option
                     # whose verdict equates the findings with its own text, 'B: ... is iron deficiency anemia.')
                     }


def test_references_get_full_credit(results):
    """The plain genuine answer of each row scores the reward's best (the length penalty's reference is the row's own
    text, which may be penalised; REFERENCE_REFUSED's rows score the minimum their params give)."""
    for row, (_, ref, _, ref_reason) in zip(ROWS, results):
        if row["reward"] in bench.STRICT_ABOVE:
            continue
        key = next((k for k in ((row.get("split"), row["reward"]), (row["reward"], row["family"])) if k in REFERENCE_REFUSED), None)
        if key is not None:
            assert ref == REFERENCE_REFUSED[key], (row["family"], ref_reason)
            continue
        if row["params"].get("form") == "ppo":  # OTC-PPO: the reference's own calls cost cos(m*pi/(2m+c)) < 1
            assert 0 < ref < 1, (row["family"], ref_reason)
            continue
        best = {"toolrl_correctness": row["params"].get("max_reward", 3.0), "crpo_format": 1.5}.get(row["reward"], 1.0)
        assert ref == pytest.approx(best), (row["reward"], row["family"], ref_reason)
