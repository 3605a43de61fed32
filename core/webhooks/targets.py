"""Where a webhook may be sent, and sending it there (issue 23).

A webhook URL is chosen by a user, so it could point the server at its own network: the
metadata service (169.254.169.254), the database, an admin port on localhost. Such targets are
refused unless the settings allow private addresses (development). The check runs twice: when
the endpoint is created (a clear 4xx for the user) and at every connection, because a name can
resolve to a public address today and to 127.0.0.1 tomorrow (DNS rebinding). At connection the
name is resolved once, every address is checked, and the request goes to that checked address
(with the name in the Host header and in TLS's SNI, so certificates are still verified against
the name): nothing resolves it a second time between the check and the connection.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import httpx

from core.errors import InvalidInput

URL_LIMIT = 2048
Resolver = Callable[[str, int], list[str]]


class TargetRefused(Exception):
    """The target is not one webhooks may reach (said in words a user understands)."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    url: str


@dataclass(frozen=True)
class Sent:
    status_code: int | None
    duration_ms: int
    error: str | None

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]) for info in infos})


def parse(url: str) -> Target:
    """The URL's parts, or InvalidInput saying what is wrong with it."""
    text = url.strip()
    if not text or len(text) > URL_LIMIT or any(ord(c) < 33 for c in text):
        raise InvalidInput(f"url: a URL of at most {URL_LIMIT} characters, without spaces.")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise InvalidInput("url: this is not a valid URL.") from None
    if parts.scheme not in ("http", "https"):
        raise InvalidInput("url: it must start with https:// (or http://).")
    if not parts.hostname:
        raise InvalidInput("url: it needs a host name.")
    if parts.username or parts.password:
        raise InvalidInput("url: user names and passwords in the URL are not allowed.")
    if parts.fragment:
        raise InvalidInput("url: remove the #fragment.")
    default = 443 if parts.scheme == "https" else 80
    return Target(parts.scheme, parts.hostname.lower(), port or default, text)


# IPv6 forms that carry an IPv4 address inside (issue 33 item 6): the packet may end up at that
# IPv4 address (a NAT64 gateway, a 6to4 or Teredo relay, a dual stack kernel), so it is the one
# judged. Python calls most of these prefixes global, whatever they carry.
_COMPATIBLE = ipaddress.ip_network("::/96")  # IPv4-compatible (::a.b.c.d, deprecated)
_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")  # SIIT's IPv4-translated
_NAT64 = ipaddress.ip_network("64:ff9b::/96")  # the well-known NAT64 prefix
# Local-use NAT64 (RFC 8215): the IPv4 address sits where the operator's prefix length says, so
# it cannot be read back; the whole prefix leads into someone's own network and is refused.
_LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries: mapped, compatible, translated, NAT64, 6to4,
    and Teredo's server and client; none for an ordinary IPv6 address."""
    if ip.ipv4_mapped is not None:
        return [ip.ipv4_mapped]
    if ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip.teredo is not None:
        return list(ip.teredo)
    if any(ip in network for network in (_COMPATIBLE, _TRANSLATED, _NAT64)):
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    return []


def _global_unicast(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return ip.is_global and not ip.is_multicast


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in _LOCAL_NAT64:
            return False
        inner = embedded_ipv4(ip)
        if inner:
            # :: and ::1 land here too (0.0.0.0 and 0.0.0.1): refused like any non-global one.
            return all(_global_unicast(v4) for v4 in inner)
    return _global_unicast(ip)


def checked_addresses(target: Target, allow_private: bool,
                      resolver: Resolver = system_resolver) -> list[str]:
    """The target's addresses, every one of them allowed; TargetRefused otherwise."""
    try:
        addresses = resolver(target.host, target.port)
    except (OSError, UnicodeError):
        raise TargetRefused(f"{target.host} could not be resolved") from None
    if not addresses:
        raise TargetRefused(f"{target.host} could not be resolved")
    if not allow_private:
        private = [a for a in addresses if not is_public(a)]
        if private:
            raise TargetRefused(
                f"{target.host} points to a private, loopback or link-local address "
                f"({private[0]}); webhooks only go to public addresses")
    return addresses


def check_new(url: str, allow_private: bool, resolver: Resolver = system_resolver) -> Target:
    """A new endpoint's URL: valid, and resolving to allowed addresses now (InvalidInput)."""
    target = parse(url)
    try:
        checked_addresses(target, allow_private, resolver)
    except TargetRefused as error:
        raise InvalidInput(f"url: {error}.") from None
    return target


def pinned_url(target: Target, address: str) -> str:
    """The URL with its host replaced by the checked address."""
    parts = urlsplit(target.url)
    host = f"[{address}]" if ":" in address else address
    return urlunsplit((parts.scheme, f"{host}:{target.port}", parts.path or "/", parts.query, ""))


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float,
         allow_private: bool, resolver: Resolver = system_resolver) -> Sent:
    """POST once to the webhook URL, at an address checked just now; never follows redirects
    (a redirect could lead anywhere). Any failure comes back as Sent with its reason."""
    started = time.monotonic()

    def took() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        target = parse(url)
        address = checked_addresses(target, allow_private, resolver)[0]
    except (InvalidInput, TargetRefused) as error:
        return Sent(None, took(), f"refused: {error}")
    host_header = target.host if target.port in (80, 443) else f"{target.host}:{target.port}"
    if ":" in target.host:
        host_header = f"[{target.host}]:{target.port}"
    try:
        with (httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False) as client,
              client.stream(
                  "POST", pinned_url(target, address), content=body,
                  headers={**headers, "Host": host_header},
                  extensions={"sni_hostname": target.host} if target.scheme == "https" else {},
              ) as answer):
            # Only the status counts: the body is never read (a receiver could send gigabytes).
            code = answer.status_code
    except httpx.TimeoutException:
        return Sent(None, took(), f"no answer within {timeout:g} s")
    except httpx.HTTPError as error:
        return Sent(None, took(), f"could not connect: {type(error).__name__}: {error}"[:300])
    return Sent(code, took(), None if 200 <= code < 300 else f"answered HTTP {code}")


__all__ = ["Resolver", "Sent", "Target", "TargetRefused", "check_new", "checked_addresses",
           "embedded_ipv4", "is_public", "parse", "pinned_url", "post", "system_resolver"]
