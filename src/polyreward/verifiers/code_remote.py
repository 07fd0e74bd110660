"""A client of a remote code sandbox speaking SandboxFusion's HTTP API, the way verl calls it.

verl (``verl/utils/reward_score/sandbox_fusion/utils.py``, ``call_sandbox_api``) sends ``POST {url}`` -- the service's
``/run_code`` endpoint -- with the JSON body ``{"code", "language", "stdin", "run_timeout", "compile_timeout",
"memory_limit_MB", "files": {}, "fetch_files": []}`` and reads back ``{"status": "Success" | "Failed" |
"SandboxError", "message", "compile_result", "run_result": {"status": "Finished" | "TimeLimitExceeded" | "Error",
"stdout", "stderr", "return_code", "execution_time"}}``; it retries a 504 (gateway timeout) and nothing else. This
client sends the same body and answers with the local sandbox's :class:`~polyreward.verifiers.sandbox.RunResult`, so
the reward reads both the same way.

The program is not sent alone: the code is the harness (:mod:`~polyreward.verifiers.sandbox_harness`), which reports
on stderr in lines carrying a per-run nonce. For assert-style tests the spec (program, tests, nonce) is sent as the
request's stdin, so neither the tests nor the nonce are in the source file the service writes to disk (where the
program could read it); for stdin/stdout tests the spec (the program and a nonce) is appended to the code as one
literal and the stdin is the case's input. So a remote run distinguishes a compile error, an early exit and each test's result exactly as a
local one, and the expected outputs of stdin/stdout tests stay on this side (only the input is sent). How the remote
service isolates the program is its own business (SandboxFusion: containers).
"""

from __future__ import annotations

import json
import math
import secrets
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path

from polyreward.verifiers.sandbox import Limits, RunResult, classify_harness

_HARNESS = Path(__file__).resolve().parent / "sandbox_harness.py"
RETRIES_ON_504 = 3


class SandboxFusionClient:
    """POST ``{url}`` (a SandboxFusion ``/run_code`` endpoint, or its base URL) for each run.

    Args:
        url: the endpoint; a URL without a path gets ``/run_code`` appended
        request_timeout: seconds of network slack on top of the run's own limits
        headers: extra HTTP headers (an API gateway's key)
    """

    def __init__(self, url: str, request_timeout: float = 10.0, headers: dict[str, str] | None = None) -> None:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError(f"sandbox url must be an http(s) URL, got {url!r}")
        path = url.partition("://")[2].partition("/")[2]
        self.url = url if path.strip("/") else url.rstrip("/") + "/run_code"
        self.request_timeout = float(request_timeout)
        self.headers = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}

    def run(self, program: str, tests: str | None = None, stdin: str = "", limits: Limits = Limits()) -> RunResult:
        nonce = secrets.token_hex(16)
        spec = json.dumps({"nonce": nonce, "program": program, "tests": tests})
        harness = _HARNESS.read_text().split('\nif __name__ == "__main__":')[0]
        if tests is None:  # stdin carries the case's input; the spec (the program, a nonce) may sit in the file
            code = harness + f"\nmain({spec!r}, 2)\n"
        else:  # the tests and the nonce travel on stdin, never in a file the service may keep on disk
            code, stdin = harness + "\nmain(None, 2, 0)\n", spec
        body = json.dumps({"code": code, "language": "python", "stdin": stdin,
                           "run_timeout": max(1, math.ceil(limits.cpu_seconds)), "compile_timeout": 10,
                           "memory_limit_MB": limits.memory_mb, "files": {}, "fetch_files": []}).encode()
        started = time.monotonic()
        response, error = self._post(body, limits)
        if response is None:
            return RunResult("unavailable", detail=f"remote sandbox {self.url}: {error}",
                             wall_seconds=time.monotonic() - started)
        result = self._result(response, nonce, limits)
        result.wall_seconds = time.monotonic() - started
        return result

    def _post(self, body: bytes, limits: Limits) -> tuple[dict | None, str]:
        timeout = limits.wall() + 10 + self.request_timeout
        for attempt in range(RETRIES_ON_504):
            request = urllib.request.Request(self.url, data=body, headers=self.headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=timeout) as reply:  # noqa: S310 -- the user's own URL
                    raw = reply.read(16 << 20)
            except urllib.error.HTTPError as exc:
                if exc.code == 504 and attempt + 1 < RETRIES_ON_504:
                    time.sleep(0.5 * (attempt + 1))
                    continue
                return None, f"HTTP {exc.code}"
            except (urllib.error.URLError, OSError) as exc:
                return None, f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"
            try:
                decoded = json.loads(raw)
            except ValueError:
                return None, "the reply is not JSON"
            return (decoded, "") if isinstance(decoded, dict) else (None, "the reply is not a JSON object")
        return None, "HTTP 504 on every attempt"

    @staticmethod
    def _result(response: dict, nonce: str, limits: Limits) -> RunResult:
        if response.get("status") == "SandboxError":
            return RunResult("unavailable", detail=f"remote sandbox error: {str(response.get('message', ''))[:200]}")
        run = response.get("run_result") or {}
        stdout = str(run.get("stdout") or "").encode()
        stderr = str(run.get("stderr") or "").encode()
        return_code = run.get("return_code")
        run_status = run.get("status")
        if run_status == "TimeLimitExceeded":
            ended = {"timed_out": True}
        elif isinstance(return_code, int) and return_code < 0:
            ended = {"signal": -return_code}
        elif isinstance(return_code, int) and return_code > 128 and return_code - 128 in signal.Signals._value2member_map_:
            ended = {"signal": return_code - 128}  # a shell's report of a killed process
        elif isinstance(return_code, int):
            ended = {"exit": return_code}
        else:
            ended = {}
        return classify_harness(stdout, stderr, stderr, nonce, ended, limits, isolated=True,
                                output_truncated=len(stdout) > limits.output_bytes)
