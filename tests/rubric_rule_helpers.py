"""Rule callables used by tests/test_rubric_rules.py (imported as ``rubric_rule_helpers:<name>``)."""


def echo_context(response, *, conversation, item):
    return True, f"{conversation[0]['role']}:{conversation[0]['content']}|{item.criterion}"


def returns_string(response, *, conversation, item):
    return "yes"


CALLS: list[str] = []


def count_calls(response, *, conversation, item):
    CALLS.append(response)
    return "911" in response
