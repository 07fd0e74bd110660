"""Who may call a polyreward HTTP service: the rules ``polyreward serve`` and ``polyreward serve-judge`` share.

- **Loopback by default.** A server bound to 127.0.0.1 / ::1 / localhost is reachable from this machine only and
  needs no token.
- **Any other interface needs a bearer token** (read from an environment variable), or an explicit trust mode
  that the operator gives on purpose and the server prints at start-up: ``--no-token`` (anyone who can reach the
  port may call it) or ``--trust-client NETWORK`` (clients in that network need no token; the others need the
  token, or are refused when there is none). Trainers that cannot send a header (OpenRLHF, slime) use these.
- **The token check** accepts ``Authorization: <scheme> <token>`` with the scheme ``Bearer`` in any letter case
  (RFC 9110 section 11.1: auth schemes are case-insensitive), and compares the token as UTF-8 *bytes* with
  :func:`hmac.compare_digest`, so the time it takes does not depend on where a guess goes wrong and a non-ASCII
  token works whichever way the client encodes it: header bytes are what went over the wire, and the token from
  the environment is encoded as UTF-8.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the server reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def parse_networks(values: Iterable[str], flag: str = "--trust-client") -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """``["10.0.0.0/8", "192.168.1.7"]`` as networks; a ValueError naming the bad entry otherwise.

    Strict: host bits set below the prefix (``127.0.0.1/0``, which a lenient reading widens to every address) and
    the all-addresses networks (``0.0.0.0/0``, ``::/0``: that is ``--no-token``) are refused. An IPv4-mapped IPv6
    entry (``::ffff:10.0.0.7``, ``::ffff:10.0.0.0/104``) is its IPv4 network, so it matches the client's address
    whichever form the socket reports."""
    networks = []
    for value in values:
        text = str(value).strip()
        try:
            network = ipaddress.ip_network(text, strict=True)
        except ValueError as exc:
            wide = "has host bits set" in str(exc)
            raise ValueError(f"{flag} {value!r} is not an IP address or network (e.g. 10.0.0.0/8)" + (
                f": its address has bits set beyond the /{text.rpartition('/')[2]} prefix; write the network itself"
                if wide else "")) from None
        if network.version == 6 and network.prefixlen >= 96 and network.network_address.ipv4_mapped is not None:
            network = ipaddress.ip_network(f"{network.network_address.ipv4_mapped}/{network.prefixlen - 96}")
        if network.prefixlen == 0:
            raise ValueError(f"{flag} {value!r} trusts every address; say so with --no-token instead" if flag == "--trust-client"
                             else f"{flag} {value!r} would trust every address; name the proxies")
        networks.append(network)
    return tuple(networks)


def bearer_token(header: bytes | None) -> bytes | None:
    """The token bytes of an ``Authorization`` header value with the ``Bearer`` scheme (any case), else None."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(b" ")
    if scheme.lower() != b"bearer":
        return None
    token = token.strip()
    return token or None


@dataclass(frozen=True)
class Access:
    """The access rule of one server: ``token`` (None = none set), ``open`` (``--no-token``), ``trusted`` networks."""

    token: str | None = None
    open: bool = False
    trusted: Sequence[ipaddress.IPv4Network | ipaddress.IPv6Network] = field(default_factory=tuple)

    @property
    def _token_bytes(self) -> bytes | None:
        return self.token.encode("utf-8", "surrogateescape") if self.token else None

    def allows(self, client_host: str | None, authorization: bytes | None) -> bool:
        """Whether a request from ``client_host`` with this raw ``Authorization`` header value may proceed."""
        if self.open:
            return True
        if self.trusted and client_host:
            try:
                address = ipaddress.ip_address(client_host)
                address = getattr(address, "ipv4_mapped", None) or address  # ::ffff:10.0.0.7 on a dual-stack socket
            except ValueError:
                address = None
            if address is not None and any(address in network for network in self.trusted):
                return True
        expected = self._token_bytes
        if expected is None:
            return not self.trusted  # no token and no allow-list: a loopback-only server
        given = bearer_token(authorization)
        return given is not None and hmac.compare_digest(given, expected)


def access_for(host: str, token: str | None, *, no_token: bool = False, trusted: Iterable[str] = (),
               token_env: str = "POLYREWARD_TOKEN") -> tuple[Access, str | None]:
    """The :class:`Access` for binding ``host``, and the start-up line a trust mode must print (None without one).

    Raises ValueError (one line naming what to do) for a non-loopback bind without a token or a trust mode, and
    for ``--no-token`` given together with a token (which of the two was meant?)."""
    networks = parse_networks(trusted)
    if no_token and token:
        raise ValueError(f"--no-token was given but {token_env} is set: unset one of them")
    if no_token:
        return Access(open=True), (f"WARNING: --no-token: anyone who can reach {host} may call this server "
                                   "without a token (trust mode given on purpose)")
    if networks:
        who = ", ".join(str(n) for n in networks)
        rest = "others need the token" if token else "others are refused"
        return Access(token, trusted=networks), f"trust mode: clients in {who} need no token; {rest}"
    if token is None and not is_loopback(host):
        raise ValueError(f"--host {host} is beyond loopback: set a bearer token in the environment variable {token_env}, "
                         "or choose a trust mode on purpose (--trust-client NETWORK or --no-token)")
    return Access(token), None
