"""The access rules both servers share (:mod:`polyreward.judges.access`): token parsing and comparison, trust modes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.judges.access import Access, access_for, bearer_token, is_loopback, parse_networks

tokens = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1, max_size=40)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(tokens, tokens, st.sampled_from(["Bearer", "bearer", "BEARER", "bEaReR"]))
def test_the_token_matches_exactly_as_utf8_bytes_whatever_the_scheme_case(token, other, scheme):
    access = Access(token)
    assert access.allows("10.0.0.1", f"{scheme} {token}".encode())
    assert access.allows("10.0.0.1", f"{scheme} {other}".encode()) == (other == token)
    assert not access.allows("10.0.0.1", token.encode())  # no scheme
    assert not access.allows("10.0.0.1", f"Basic {token}".encode())
    assert not access.allows("10.0.0.1", None)


def test_a_non_ascii_token_sent_as_latin1_does_not_match():
    access = Access("t\u00f6ken")
    assert access.allows("1.2.3.4", "Bearer t\u00f6ken".encode("utf-8"))
    assert not access.allows("1.2.3.4", "Bearer t\u00f6ken".encode("latin-1"))


@pytest.mark.parametrize("header, token", [(b"Bearer   abc ", b"abc"), (b"bearer abc", b"abc"), (b"Bearer", None), (b"", None), (None, None)])
def test_bearer_token_parsing(header, token):
    assert bearer_token(header) == token


def test_trust_modes():
    trusted = Access(trusted=parse_networks(["10.0.0.0/8", "192.168.1.7"]))
    assert trusted.allows("10.9.8.7", None) and trusted.allows("::ffff:10.9.8.7", None) and trusted.allows("192.168.1.7", None)
    assert not trusted.allows("127.0.0.1", None) and not trusted.allows("192.168.1.8", b"Bearer x")
    with_token = Access("s3cret", trusted=parse_networks(["10.0.0.0/8"]))
    assert with_token.allows("10.0.0.1", None) and with_token.allows("8.8.8.8", b"Bearer s3cret") and not with_token.allows("8.8.8.8", None)
    assert Access(open=True).allows("8.8.8.8", None)
    assert Access().allows("127.0.0.1", None)  # loopback server without a token


def test_access_for_binding_rules():
    assert access_for("127.0.0.1", None) == (Access(), None)
    assert is_loopback("::1") and is_loopback("[::1]") and is_loopback("localhost") and not is_loopback("0.0.0.0")
    with pytest.raises(ValueError, match="beyond loopback.*POLYREWARD_TOKEN.*--trust-client"):
        access_for("0.0.0.0", None)
    with pytest.raises(ValueError, match="--no-token was given but"):
        access_for("0.0.0.0", "x", no_token=True)
    with pytest.raises(ValueError, match="not an IP address or network"):
        access_for("0.0.0.0", None, trusted=["10.0.0.0/33"])
    access, line = access_for("0.0.0.0", None, no_token=True)
    assert access.open and line.startswith("WARNING: --no-token")
    access, line = access_for("0.0.0.0", None, trusted=["10.0.0.0/8"])
    assert "others are refused" in line and not access.allows("8.8.8.8", None)
