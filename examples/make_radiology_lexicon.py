"""Build ``verifiers/data/radiology_lexicon.json``, the offline lexicon of the KG extractor.

Findings and their aliases come from radlabels 0.2.0 (MIT; ``radlabels/aliases.py``, read with ``ast``
so nothing heavy is imported) plus every alias that occurs as an evidence span in
``radlabels/samples/synthetic_matches.json``. Anatomy terms, modifiers and the negation / uncertainty
cue lists are written here by hand (NegEx-style). Rerun after changing this file::

    pip install --no-deps radlabels==0.2.0
    python examples/make_radiology_lexicon.py
"""

from __future__ import annotations

import ast
import importlib.util
import json
from collections import defaultdict
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "polyreward" / "verifiers" / "data" / "radiology_lexicon.json"

DISPLAY = {
    "pulmonary_congestion_pulmonary_venous_congestion": "pulmonary vascular congestion",
    "pacemaker_electronic_cardiac_device_or_wires": "pacemaker",
    "calcification_of_the_aorta": "aortic calcification",
    "nonsurgical_internal_foreign_body": "foreign body",
    "whole_lung_or_majority_collapse": "lung collapse",
}
DEVICES = {
    "central_venous_catheter", "endotracheal_tube", "enteric_tube", "implantable_electronic_device", "intercostal_drain",
    "pacemaker_electronic_cardiac_device_or_wires", "support_devices_generic", "tracheostomy_tube", "nonsurgical_internal_foreign_body",
}
# Extra surface forms a contiguous matcher needs (radlabels matches bags of words inside RadGraph clusters).
EXTRA_ALIASES = {
    "pleural_effusion": ["effusion", "pleural effusions", "effusions"],
    "cardiomegaly": ["heart is enlarged", "heart is mildly enlarged", "heart is moderately enlarged", "heart is severely enlarged",
                     "enlarged cardiac silhouette", "cardiac silhouette is enlarged", "heart size is enlarged", "mildly enlarged heart",
                     # the cardiothoracic ratio over one half is cardiomegaly's definition (issue 32)
                     "increased cardiothoracic ratio", "cardiothoracic ratio is increased", "cardiothoracic ratio increased",
                     "enlarged cardiothoracic ratio", "cardiothoracic ratio is enlarged"],
    "pulmonary_edema": ["edema"],
    "lung_opacity": ["opacity", "opacities", "opacification"],
    "atelectasis": ["atelectatic change", "collapse"],
    "pneumothorax": ["pneumothoraces"],
    "lung_nodule_or_mass": ["nodule", "nodules"],
    # radiologists' shorthand (red team holdout_r56): "rib fx", "NGT in the stomach"
    "fracture_generic": ["fx", "fxs"],
    "enteric_tube": ["ngt", "ogt"],
}
# A leading word that is really a modifier or a location: "small pneumothorax" -> size "small" + "pneumothorax".
SIZE = ["trace", "tiny", "small", "minimal", "mild", "mildly", "moderate", "moderately", "large", "massive", "extensive", "severe",
        "severely", "marked", "markedly", "slight", "slightly", "dense", "focal", "patchy", "diffuse", "subtle", "minimally"]
CONCEPT = ["increased", "increasing", "decreased", "decreasing", "worsening", "worsened", "worse", "improved", "improving",
           "stable", "unchanged", "new", "persistent", "residual", "enlarging", "enlarged", "resolving", "interval"]
LATERAL = ["left", "right", "bilateral", "bibasilar", "basilar", "apical", "retrocardiac", "perihilar", "biapical"]
ANATOMY = {
    "lung": ["lung", "lungs", "pulmonary parenchyma", "lung parenchyma"],
    "right lung": ["right lung"], "left lung": ["left lung"],
    "right upper lobe": ["right upper lobe", "rul"], "right middle lobe": ["right middle lobe", "rml", "middle lobe"],
    "right lower lobe": ["right lower lobe", "rll"], "left upper lobe": ["left upper lobe", "lul"],
    "left lower lobe": ["left lower lobe", "lll"], "lingula": ["lingula", "lingular"],
    "lung base": ["base", "bases", "lung base", "lung bases", "basilar", "bibasilar", "basal"],
    "right lung base": ["right base", "right lung base", "right basilar", "right basal"],
    "left lung base": ["left base", "left lung base", "left basilar", "left basal"],
    "lung apex": ["apex", "apices", "apical", "lung apex", "biapical"],
    "right apex": ["right apex", "right apical", "right lung apex"], "left apex": ["left apex", "left apical", "left lung apex"],
    "hemithorax": ["hemithorax", "hemithoraces"], "right hemithorax": ["right hemithorax"], "left hemithorax": ["left hemithorax"],
    "perihilar": ["perihilar", "hilar", "hilum", "hila"], "retrocardiac": ["retrocardiac"],
    "heart": ["heart", "cardiac", "cardiac silhouette"], "mediastinum": ["mediastinum", "mediastinal", "cardiomediastinal silhouette"],
    "pleura": ["pleura", "pleural space"], "costophrenic angle": ["costophrenic angle", "costophrenic angles"],
    "diaphragm": ["diaphragm", "hemidiaphragm", "hemidiaphragms"], "trachea": ["trachea", "tracheal"], "carina": ["carina"],
    "stomach": ["stomach", "gastric"], "aorta": ["aorta", "aortic knob", "aortic arch"], "chest wall": ["chest wall", "soft tissues"],
    "rib": ["rib", "ribs"], "clavicle": ["clavicle", "clavicles"], "spine": ["spine", "thoracic spine", "vertebral body"],
    "svc": ["svc", "superior vena cava", "cavoatrial junction"], "right atrium": ["right atrium"],
    "subclavian vein": ["subclavian vein"], "jugular vein": ["internal jugular vein", "jugular vein"],
    "abdomen": ["abdomen", "upper abdomen"], "shoulder": ["shoulder", "shoulders"], "neck": ["neck"],
    "left": ["left", "left sided"], "right": ["right", "right sided"], "bilateral": ["bilateral", "bilaterally", "both"],
}
NEGATION_PRE = ["no", "not", "without", "negative for", "no evidence of", "no signs of", "no sign of", "no definite", "no convincing",
                "free of", "absence of", "resolution of", "resolved", "clear of", "removal of", "interval removal of", "rather than",
                "no radiographic evidence of", "there is no", "there are no", "no longer", "nor", "never", "anything but",
                # ConText's "probable negated existence": stated as unlikely, a finding is not asserted (red team holdout_r5)
                "unlikely", "less likely", "doubtful", "doubtful for", "low suspicion for", "low likelihood of", "low probability of",
                # a verb of showing that fails, or a noun of lacking ('The film fails to show a pneumothorax.', 'Lack
                # of atelectasis at the left base.'; red team holdout_r48)
                "fails to show", "fail to show", "failed to show", "lack of", "lacks", "lacking"]
NEGATION_POST = ["is not seen", "are not seen", "not seen", "not identified", "not present", "not visualized", "not appreciated",
                 "is absent", "are absent", "has resolved", "have resolved", "resolved", "has been removed", "have been removed",
                 "removed", "is gone", "are gone", "no longer seen", "no longer present", "no longer visualized",
                 # resolution said as clearing ('The effusion seen previously has since cleared.'; red team holdout_r8)
                 "cleared", "has cleared", "have cleared",
                 "is unlikely", "are unlikely", "is less likely", "are less likely", "is doubtful", "are doubtful", "not confirmed", "is not confirmed", "are not confirmed", "unconfirmed",
                 # a trailer over the list before it (red team holdout_r5)
                 "neither of which is confirmed", "none of which is confirmed", "neither of which is seen", "none of which is seen", "neither is confirmed",
                 # postposed exclusion ('Small left pleural effusion excluded.'; red team holdout_r2, fixed in holdout_r5)
                 "excluded", "is excluded", "are excluded", "has been excluded", "have been excluded", "ruled out", "is ruled out", "are ruled out", "has been ruled out"]
# a finding, then "not" and any participle of seeing it: 'Pleural effusion is not observed.', 'not demonstrated', 'not
# visualised' (red team holdout_r20: the list held seen / identified / visualized / appreciated, and "is not observed"
# read the effusion present)
PERCEIVED = ["seen", "identified", "visualized", "visualised", "appreciated", "observed", "noted", "detected", "demonstrated",
             "evident", "visible", "depicted", "shown"]
NEGATION_POST += [f"{verb}not {seen}" for seen in PERCEIVED for verb in ("", "is ", "are ", "was ", "were ")
                  if f"{verb}not {seen}" not in NEGATION_POST]
UNCERTAIN_PRE = ["possible", "possibly", "probable", "probably", "likely", "may", "might", "could", "questionable", "suspicious for",
                 "suspected", "concerning for", "versus", "vs", "suggestive of", "suggesting", "worrisome for", "may represent",
                 "could represent", "cannot exclude", "can not exclude", "rule out", "differential", "question of", "presumed",
                 "query", "queried"]  # British reports' "query consolidation" (red team holdout_r5)
UNCERTAIN_POST = ["cannot be excluded", "can not be excluded", "not excluded", "cannot be ruled out", "not ruled out",
                  "is possible", "are possible", "is suspected", "is likely", "are likely", "is not excluded",
                  # a modal before "be present / seen" after the finding: "A small pleural effusion may be present." was
                  # read present under uncertain_as: uncertain ("may" alone is a cue for what follows; red team holdout_r22)
                  "may be present", "might be present", "could be present", "may be seen", "might be seen"]
PSEUDO_NEGATION = ["no change", "no interval change", "no significant change", "no substantial change", "not significantly changed",
                   "no increase", "no decrease", "no worsening", "no improvement", "not changed", "no significant interval change",
                   "not only", "no further",
                   # "cannot be completely excluded": a modal's object, no postposed exclusion; read as before the bare
                   # "excluded" cue existed (red team holdout_r5)
                   "be excluded", "be completely excluded", "be entirely excluded", "be definitely excluded", "be definitively excluded", "be ruled out", "be completely ruled out", "be entirely ruled out"]
# a doubt denied is certainty, not a negation: "There is no doubt about the right lower lobe consolidation.", "without
# doubt", "beyond any doubt" state the finding and open no scope (red team holdout_r27)
PSEUDO_NEGATION += [f"{lead} doubt" for lead in ("no", "without", "without any", "beyond", "beyond any", "there is no", "there is little",
                                                 "little")]
# "nowhere" after a finding denies it wherever it is looked for: "Pneumothorax is nowhere to be seen.", "nowhere
# evident" (red team holdout_r27)
NEGATION_POST += ["nowhere"]
TERMINATORS = ["but", "however", "although", "though", "except", "aside", "apart", "which", "whereas", "yet", "otherwise",
               "there is", "there are", "there has been"]
# ConText's hypothetical / future modifier: a finding a later study may show is no finding of this one; its mention is
# left out of the graph (red team holdout_r5: "Follow-up imaging may later show an enlarged heart")
HYPOTHETICAL_PRE = ["may later show", "may later develop", "may later", "will later", "may develop", "could develop", "will develop", "might develop", "will show", "would show", "may eventually show", "expected to develop", "at risk of", "at risk for", "risk of developing", "in the future"]
# (red team holdout_r49) ConText's indication ("to evaluate for consolidation", "to exclude") and experiencer ("family
# history of cardiomegaly") modifiers: the finding is another's or a question of the request, no finding of this study
HYPOTHETICAL_PRE += ["to evaluate for", "evaluate for", "to assess for", "assess for", "to exclude", "family history of",
                     "family history"]
# ... and the same written after the finding: "Pleural effusion to be evaluated on follow-up.", "Pleural effusion should
# be excluded on a lateral view.", "Pulmonary edema would be expected with further fluid loading."
HYPOTHETICAL_POST = ["to be evaluated", "to be assessed", "to be excluded", "should be excluded", "to be ruled out",
                     "should be ruled out", "would be expected", "would be expected with", "to be evaluated for"]
# The organ-system section headers of a report template ("Lungs:", "PLEURA:", "Heart:"): a header names a part of the
# template, not a place of the finding written under it (red team issue 32: "Pleura: small left effusion" is the
# "small left pleural effusion" of a prose report)
SECTION_HEADERS = ["lung", "lungs", "lung parenchyma", "lungs and pleura", "pleura", "pleural space", "pleural spaces", "heart",
                   "cardiac", "heart and mediastinum", "mediastinum", "cardiomediastinal", "cardiomediastinal silhouette",
                   "cardiac silhouette", "hila", "hilum", "bones", "osseous structures", "skeleton", "soft tissues",
                   "chest wall", "airway", "airways", "trachea", "upper abdomen", "abdomen", "diaphragm",
                   "lines and tubes", "tubes and lines", "devices", "support devices"]
# A statement that the whole study is normal denies every finding of the report: after positive findings it
# contradicts them (red team holdout_r2 / holdout_r8: "IMPRESSION: Normal chest radiograph." after an effusion). Only
# the unqualified whole-study phrases: "no acute cardiopulmonary process" beside a chronic finding is no contradiction
NORMAL_STUDY = ["normal chest radiograph", "normal chest radiography", "normal chest x ray", "normal chest xray",
                "normal chest film", "normal radiograph", "normal study", "normal examination", "normal exam",
                "normal chest study", "normal chest examination", "unremarkable chest radiograph", "unremarkable study",
                "unremarkable examination", "unremarkable exam", "no abnormality", "no abnormalities",
                "no radiographic abnormality", "no radiographic abnormalities", "chest radiograph is normal",
                "study is normal", "examination is normal", "exam is normal", "chest radiograph is unremarkable",
                "study is unremarkable", "examination is unremarkable", "normal findings"]
SUGGESTIVE = ["suggestive of", "suggesting", "consistent with", "compatible with", "concerning for", "likely", "likely due to",
              "due to", "representing", "reflecting", "likely reflecting", "may represent", "could represent", "worrisome for",
              "indicating", "indicative of", "secondary to", "likely representing", "which may represent", "possibly representing"]


def package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{name} is not installed: pip install --no-deps radlabels==0.2.0")
    return Path(spec.submodule_search_locations[0])


def radlabels_aliases(root: Path) -> dict[str, dict[str, list[str]]]:
    tree = ast.parse((root / "aliases.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "ALIASES":
            return ast.literal_eval(node.value)
    raise SystemExit("ALIASES not found in radlabels/aliases.py")


def clean(phrase: str) -> str:
    return " ".join(phrase.lower().replace("-", " ").split())


def main() -> None:
    root = package_dir("radlabels")
    aliases = radlabels_aliases(root)
    matches = json.loads((root / "samples" / "synthetic_matches.json").read_text(encoding="utf-8"))
    spans: dict[str, set[str]] = defaultdict(set)
    for report in matches.values():
        for m in report["matches"]:
            spans[m["disease"]].add(clean(m["alias"]))
    phrases: dict[str, set[str]] = {}
    for label, spec in aliases.items():
        phrases[label] = {clean(a) for a in spec["aliases"]} | spans.get(label, set()) | {clean(a) for a in EXTRA_ALIASES.get(label, [])}
        phrases[label].add(clean(DISPLAY.get(label, label.replace("_", " "))))
    prefixes = set(SIZE) | set(CONCEPT) | set(LATERAL)
    for label, forms in phrases.items():  # drop "small pneumothorax" when "pneumothorax" is an alias of the same label
        forms -= {f for f in forms if f.split()[0] in prefixes and " ".join(f.split()[1:]) in forms}
    owner: dict[str, str] = {}
    for label in sorted(phrases, key=lambda k: (len(phrases[k]), k)):  # a shared alias goes to the more specific label...
        for form in phrases[label]:
            owner.setdefault(form, label)
    for label in phrases:  # ...unless it is exactly another label's own name
        owner[clean(DISPLAY.get(label, label.replace("_", " ")))] = label
    findings: dict[str, dict] = {}
    for label in sorted(phrases):
        display = DISPLAY.get(label, label.replace("_", " "))
        forms = sorted(f for f in phrases[label] if owner[f] == label)
        findings[display] = {"kind": "device" if label in DEVICES else "disorder", "radlabels_key": label, "aliases": forms}
    blockers = sorted({clean(e) for spec in aliases.values() for e in spec.get("exclude", [])} - set(owner))
    lexicon = {
        "about": "Offline radiology lexicon for polyreward's KG extractor. Findings and aliases: radlabels 0.2.0 (MIT) "
                 "aliases.py + synthetic_matches.json evidence spans; anatomy, modifiers and cues: hand-written (NegEx-style). "
                 "Generated by examples/make_radiology_lexicon.py.",
        "findings": findings,
        "blockers": blockers,
        "anatomy": ANATOMY,
        "size": SIZE,
        "concept": CONCEPT,
        "negation_pre": NEGATION_PRE,
        "negation_post": NEGATION_POST,
        "uncertain_pre": UNCERTAIN_PRE,
        "uncertain_post": UNCERTAIN_POST,
        "pseudo_negation": PSEUDO_NEGATION,
        "terminators": TERMINATORS,
        "suggestive": SUGGESTIVE,
        "hypothetical_pre": HYPOTHETICAL_PRE,
        "hypothetical_post": HYPOTHETICAL_POST,
        "section_headers": SECTION_HEADERS,
        "normal_study": NORMAL_STUDY,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(lexicon, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    n_alias = sum(len(f["aliases"]) for f in findings.values())
    print(f"wrote {OUT}: {len(findings)} findings, {n_alias} aliases, {len(ANATOMY)} anatomy terms, {len(blockers)} blockers")


if __name__ == "__main__":
    main()
