"""Judge throughput with one, two and three endpoints in ``base_url`` (the judge pool), same batch, same run.

Rows:

* ``capacity-bound stub``: each server answers one request at a time with a fixed ``--service-ms``
  service time (a lock plus a sleep, standing in for a judge server running at full batch), so the
  servers, not this machine's CPU, set the pace. The anchor is one server; the ratio column is the
  throughput over the anchor's. Ideal spread gives 2.0 and 3.0.
* ``serve-judge``: ``polyreward serve-judge`` subprocesses serving the tiny random Qwen2 (real Qwen2.5
  tokenizer; ``guided_choice: [yes, no]``, one forward pass per criterion), one torch thread each. On a
  machine with fewer free cores than servers the CPU, not the pool, caps this ratio.

    python benchmarks/judge_pool.py [--criteria 240] [--markdown benchmarks/results/judge_pool.md]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from machine_info import describe_machine  # benchmarks/machine_info.py (scripts run from this folder)

ANSWER = json.dumps({"id": "b", "object": "chat.completion", "choices": [{"index": 0, "message": {
    "role": "assistant", "content": '{"criteria_met": true}'}, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 200, "completion_tokens": 4, "total_tokens": 204}}).encode()


class SerialStub:
    """A chat server that serves one request at a time, each taking ``service`` seconds."""

    def __init__(self, service: float) -> None:
        busy = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):  # noqa: N802
                self.rfile.read(int(self.headers["Content-Length"]))
                with busy:
                    time.sleep(service)
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(ANSWER)))
                self.end_headers()
                self.wfile.write(ANSWER)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def batch(n: int):
    from polyreward.rubrics.judges import JudgeRequest
    from polyreward.rubrics.schema import RubricItem

    conversation = ({"role": "user", "content": "My chest hurts when I climb stairs. What should I do?"},)
    return [JudgeRequest(conversation, f"See a doctor soon (variant {i}).", RubricItem("Advises seeing a doctor", 5)) for i in range(n)]


def measure(urls: list[str], requests, concurrency: int, **judge_settings) -> tuple[float, int, list[int]]:
    from polyreward.rubrics.judge_openai import OpenAIJudge

    judge = OpenAIJudge(base_url=urls, model=judge_settings.pop("model", "stub"), concurrency=concurrency, cache=False,
                        timeout=120, time_budget=600, **judge_settings)
    start = time.perf_counter()
    verdicts = judge.judge(requests)
    elapsed = time.perf_counter() - start
    sent = [e["ok"] for e in judge.summary()["endpoints"].values()]
    return len(requests) / elapsed, sum(v.met is None for v in verdicts), sent


def serve_judge(model_dir: Path) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    process = subprocess.Popen([sys.executable, "-m", "polyreward", "serve-judge", "--model", str(model_dir), "--port", "0",
                                "--served-model-name", "judge"], stdout=subprocess.PIPE, text=True, env=env)
    line = process.stdout.readline()
    return process, line.split(" at ")[1].split(" ")[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--criteria", type=int, default=240, help="criteria per stub batch (default 240)")
    parser.add_argument("--service-ms", type=float, default=20.0, help="stub service time per request (default 20 ms)")
    parser.add_argument("--model-criteria", type=int, default=96, help="criteria per serve-judge batch (default 96)")
    parser.add_argument("--markdown", default=None, help="write the table to this file")
    args = parser.parse_args()

    rows = []
    stubs = [SerialStub(args.service_ms / 1000) for _ in range(3)]
    try:
        requests = batch(args.criteria)
        anchor = None
        for k in (1, 2, 3):
            rate, failed, sent = measure([s.url for s in stubs[:k]], requests, concurrency=8)
            anchor = anchor or rate
            rows.append((f"capacity-bound stub ({args.service_ms:g} ms each), {k} endpoint(s)", len(requests), rate, rate / anchor, failed, sent))
    finally:
        for stub in stubs:
            stub.close()

    from polyreward.trainer.assets import tiny_qwen2

    model_dir = tiny_qwen2()
    servers = [serve_judge(model_dir) for _ in range(2)]
    try:
        requests = batch(args.model_criteria)
        settings = {"model": "judge", "max_tokens": 4, "extra_body": {"guided_choice": ["yes", "no"]}}
        measure([servers[0][1]], batch(8), concurrency=8, **dict(settings))  # warm both servers up
        measure([servers[1][1]], batch(8), concurrency=8, **dict(settings))
        anchor = None
        for k in (1, 2):
            rate, failed, sent = measure([url for _, url in servers[:k]], requests, concurrency=8, **dict(settings))
            anchor = anchor or rate
            rows.append((f"serve-judge tiny Qwen2 (subprocess, 1 torch thread), {k} endpoint(s)", len(requests), rate, rate / anchor, failed, sent))
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait()
            process.stdout.close()

    lines = ["# Judge pool: one endpoint vs several", "",
             f"{datetime.date.today().isoformat()}, {describe_machine()}, no GPU; a shared machine under load from other jobs. "
             "Same batch per group; judge concurrency 8; ratio = throughput / the 1-endpoint row of its group.", "",
             "| servers | criteria | criteria/s | / 1 endpoint | failed | answered per endpoint |", "|---|---:|---:|---:|---:|---|"]
    for name, n, rate, ratio, failed, sent in rows:
        lines.append(f"| {name} | {n} | {rate:,.1f} | {ratio:.2f} | {failed} | {sent} |")
    lines += ["", "Reading: with servers that set the pace (the stub rows) a second endpoint doubles the throughput and the "
              "least-outstanding choice splits the batch evenly; the third endpoint is capped by the client side sharing the same "
              "loaded cores. The serve-judge rows run both model servers and the client on this machine's cores: when those are "
              "the bottleneck a second server adds nothing (each gets half the requests and batches half as many per forward "
              "pass). On separate GPUs or hosts the servers set the pace, as in the stub rows.",
              "", "Reproduce: `cd benchmarks && python judge_pool.py --markdown results/judge_pool.md`"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)


if __name__ == "__main__":
    main()
