"""Device check for the model judges on CUDA (falls back to CPU): left-padded batching equals one-by-one
(fp32 and bf16), GPU vs CPU yes-probabilities, transformers-judge and serve-judge throughput, and that the
served verdicts equal the in-process model's.

    python benchmarks/judge_device_check.py [MODEL_DIR]      # default: the tiny Qwen2 asset; writes $OUT/gpu_check.json

Runs from the repository root, installed or not (it extends ``polyreward.__path__`` when the package is
not installed, as on a bare accelerator machine).
"""
import json, os, sys, time
from pathlib import Path

ROOT = Path.cwd()
try:
    import polyreward.rubrics.reward  # installed (editable)
except ImportError:
    import polyreward
    polyreward.__path__.append(str(ROOT))  # polyreward.rubrics -> ROOT/rubrics without installing
import torch
from polyreward.judges.local_lm import LocalLM
from polyreward.rubrics.grading import single_prompt
from polyreward.rubrics.judges import JudgeRequest
from polyreward.rubrics.judge_transformers import TransformersJudge
from polyreward.judges.server import JudgeServer
from polyreward.rubrics.judge_openai import OpenAIJudge
from polyreward.rubrics.reward import conversation_of
from polyreward.rubrics.schema import load_rubric_file

out = Path(os.environ.get("OUT", "/tmp/out")); out.mkdir(parents=True, exist_ok=True)
if len(sys.argv) > 1:
    model = Path(sys.argv[1])
else:
    from polyreward.trainer.assets import tiny_qwen2
    model = tiny_qwen2()
device = "cuda" if torch.cuda.is_available() else "cpu"
report = {"torch": torch.__version__, "device": device, "name": torch.cuda.get_device_name(0) if device == "cuda" else "cpu"}
import transformers; report["transformers"] = transformers.__version__
print(report, flush=True)

rubric = load_rubric_file(ROOT / "examples/rubric/rubric.json")
rows = [json.loads(l) for l in (ROOT / "examples/rubric/rollouts.jsonl").read_text().splitlines()]
reqs = [JudgeRequest(conversation_of(rows[i % 6]["prompt"]), rows[i % 6]["completion"] + f" (v{i})", item) for i in range(8) for item in rubric]

cpu = LocalLM(model, "cpu", "float32")
for dtype in ("float32", "bfloat16"):
    lm = LocalLM(model, device, dtype)
    texts = [lm.chat_text([{"role": "user", "content": single_prompt(r.conversation, r.response, r.item)}]) for r in reqs[:16]]
    gen_b = [g.text for g in lm.generate(texts, 8, batch_size=16)]
    gen_1 = [lm.generate([t], 8)[0].text for t in texts]
    yp_b = lm.yes_probability(texts, batch_size=16); yp_1 = [lm.yes_probability([t])[0] for t in texts]
    ch_b = [g.text for g in lm.choose(texts, ["yes", "no"], batch_size=16)]; ch_1 = [lm.choose([t], ["yes", "no"])[0].text for t in texts]
    yp_cpu = cpu.yes_probability(texts)
    report[dtype] = {
        "generate batch==single": sum(a == b for a, b in zip(gen_b, gen_1)), "of": len(texts),
        "yes_prob max |batch-single|": max(abs(a - b) for a, b in zip(yp_b, yp_1)),
        "yes_prob max |gpu-cpu|": max(abs(a - b) for a, b in zip(yp_b, yp_cpu)),
        "choose batch==single": sum(a == b for a, b in zip(ch_b, ch_1)),
    }
    print(dtype, report[dtype], flush=True)

judge = TransformersJudge(str(model), mode="yes_no", device=device, batch_size=32)
judge.judge(reqs[:8]); t = time.perf_counter(); v = judge.judge(reqs); report["transformers yes_no criteria/s"] = len(reqs) / (time.perf_counter() - t)
gjudge = TransformersJudge(str(model), device=device, max_new_tokens=16, batch_size=32)
t = time.perf_counter(); v = gjudge.judge(reqs); report["transformers generate(16 tok) criteria/s"] = len(reqs) / (time.perf_counter() - t)
report["generate failed verdicts (random model)"] = sum(x.met is None for x in v)

with JudgeServer(model, port=0, served_model_name="tiny", device=device, max_batch=32) as server:
    common = {"timeout": 120, "max_tokens": 4, "extra_body": {"guided_choice": ["yes", "no"]}}
    OpenAIJudge(server.url, "tiny", **common).judge(reqs[:4])
    for conc in (1, 8, 32):
        j = OpenAIJudge(server.url, "tiny", concurrency=conc, **common)
        t = time.perf_counter(); cold = j.judge(reqs); c = len(reqs) / (time.perf_counter() - t)
        t = time.perf_counter(); warm = j.judge(reqs); w = len(reqs) / (time.perf_counter() - t)
        report[f"serve-judge concurrency {conc}"] = {"cold criteria/s": c, "warm criteria/s": w, "failed": sum(x.met is None for x in cold), "warm==cold": warm == cold}
        print(conc, report[f"serve-judge concurrency {conc}"], flush=True)
    direct = server.lm.choose([server.lm.chat_text([{"role": "user", "content": single_prompt(r.conversation, r.response, r.item)}]) for r in reqs], ["yes", "no"])
    report["server verdicts == direct choose"] = [x.met for x in cold] == [g.text == "yes" for g in direct]
(out / "gpu_check.json").write_text(json.dumps(report, indent=1))
print(json.dumps(report, indent=1))
