"""Where webhooks may go (core/webhooks/targets.py): URLs a user may register, addresses that are
refused (private, loopback, link-local, the metadata service), the second check at connection
time (DNS rebinding), the pinned connection and what one POST reports. Real sockets: a local
receiver stands for the shop's server; only DNS answers are scripted, where rebinding is played."""

from __future__ import annotations

import ipaddress

import pytest

from core.errors import InvalidInput
from core.settings import Settings
from core.webhooks import targets
from tests.support.provenance import c2pa_files
from tests.support.webhook_receiver import WebhookReceiver

PUBLIC = "93.184.216.34"
PRODUCTION: dict[str, object] = {
    "environment": "production", "jwt_secret": "x" * 40, "code_secret": "y" * 40,
    "s3_secret_key": "z" * 40, "payment_webhook_secret": "w" * 40, **c2pa_files(),
}


def resolving(*answers: list[str]) -> targets.Resolver:
    """A resolver that gives these answers in turn (the last one from then on)."""
    calls: list[int] = []

    def resolve(_host: str, _port: int) -> list[str]:
        calls.append(1)
        return answers[min(len(calls), len(answers)) - 1]

    return resolve


@pytest.mark.parametrize("url", [
    "", " ", "ftp://shop.example.com/x", "http://", "https:///path",
    "http://user:secret@shop.example.com/", "https://shop.example.com/#part",
    "https://shop.example.com/a b", "https://shop.example.com/\x00", "https://shop.example.com:99999/",
    "https://shop.example.com/" + "a" * 2048, "javascript:alert(1)",
])
def test_malformed_urls_are_refused_with_a_reason(url: str) -> None:
    with pytest.raises(InvalidInput, match="url:"):
        targets.check_new(url, allow_private=True, resolver=resolving([PUBLIC]))


def test_a_public_https_url_is_taken_with_its_default_port() -> None:
    target = targets.check_new("https://Shop.Example.com/hooks?x=1", allow_private=False,
                               resolver=resolving([PUBLIC]))
    assert (target.scheme, target.host, target.port) == ("https", "shop.example.com", 443)


@pytest.mark.parametrize("address", [
    "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
    "0.0.0.0", "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1", "224.0.0.1", "192.0.2.10",
])
def test_private_loopback_link_local_and_reserved_addresses_are_not_public(address: str) -> None:
    assert not targets.is_public(address)


@pytest.mark.parametrize("address", ["8.8.8.8", PUBLIC, "2001:4860:4860::8888"])
def test_public_addresses_are_public(address: str) -> None:
    assert targets.is_public(address)


# IPv6 forms that carry an IPv4 address (issue 33 item 6): Python calls them global, but a
# NAT64 gateway, a 6to4 or Teredo relay or the kernel delivers them to the IPv4 address inside.
EMBEDDING_PRIVATE = [
    "::7f00:1",  # IPv4-compatible 127.0.0.1
    "::a9fe:a9fe",  # IPv4-compatible 169.254.169.254
    "::ffff:0:7f00:1",  # IPv4-translated (SIIT) 127.0.0.1
    "64:ff9b::7f00:1",  # NAT64 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 169.254.169.254
    "64:ff9b::a00:5",  # NAT64 10.0.0.5
    "64:ff9b:1::7f00:1",  # local-use NAT64: the whole prefix
    "64:ff9b:1:abcd::5db8:d822",
    "2002:7f00:1::",  # 6to4 127.0.0.1
    "2002:a9fe:a9fe::1",  # 6to4 169.254.169.254
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo, client 192.0.2.45
    "2001:0:7f00:1::1",  # Teredo, server 127.0.0.1
]


@pytest.mark.parametrize("address", EMBEDDING_PRIVATE)
def test_ipv6_forms_embedding_a_private_ipv4_address_are_not_public(address: str) -> None:
    assert not targets.is_public(address)


@pytest.mark.parametrize(("address", "inner"), [
    ("::7f00:1", ["127.0.0.1"]), ("64:ff9b::a9fe:a9fe", ["169.254.169.254"]),
    ("2002:7f00:1::", ["127.0.0.1"]), ("::ffff:10.0.0.1", ["10.0.0.1"]),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", ["65.54.227.120", "192.0.2.45"]),
    ("2001:4860:4860::8888", []),
])
def test_the_embedded_ipv4_address_is_read_back(address: str, inner: list[str]) -> None:
    found = targets.embedded_ipv4(ipaddress.IPv6Address(address))
    assert [str(v4) for v4 in found] == inner


@pytest.mark.parametrize("address", ["64:ff9b::5db8:d822", "2002:5db8:d822::1"])
def test_ipv6_forms_embedding_a_public_ipv4_address_stay_usable(address: str) -> None:
    """NAT64 and 6to4 to a public IPv4 address are how IPv6-only networks reach it."""
    assert targets.is_public(address)


@pytest.mark.parametrize("address", ["::7f00:1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::"])
def test_embedding_forms_are_refused_at_creation_and_at_delivery(address: str) -> None:
    with pytest.raises(InvalidInput, match="private, loopback or link-local"):
        targets.check_new(f"http://[{address}]/hook", allow_private=False)
    with pytest.raises(InvalidInput, match="private, loopback or link-local"):
        targets.check_new("https://rebinding.example.com/", allow_private=False,
                          resolver=resolving([address]))
    sent = targets.post("https://rebinding.example.com/hook", b"{}", {}, timeout=2,
                        allow_private=False, resolver=resolving([address]))
    assert sent.status_code is None and sent.error and sent.error.startswith("refused:")


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8080/hook", "http://localhost/hook", "http://2130706433/hook",
    "http://[::1]/hook", "http://169.254.169.254/latest/meta-data/", "http://10.0.0.7/",
    "http://0x7f.1/hook",
])
def test_private_targets_are_refused_unless_allowed(url: str) -> None:
    """Real resolution: a decimal or hex IP, a bracketed IPv6 loopback and localhost all land on
    a private address."""
    with pytest.raises(InvalidInput, match="private, loopback or link-local"):
        targets.check_new(url, allow_private=False)
    assert targets.check_new(url, allow_private=True).url == url


def test_a_name_with_any_private_address_is_refused() -> None:
    with pytest.raises(InvalidInput, match=r"private.*\(10\.0\.0\.1\)"):
        targets.check_new("https://mixed.example.com/", allow_private=False,
                          resolver=resolving([PUBLIC, "10.0.0.1"]))


def test_a_name_that_rebinds_to_loopback_is_refused_at_connection() -> None:
    """Public when registered, 127.0.0.1 when the delivery connects: nothing is sent."""
    receiver = WebhookReceiver().start()
    try:
        url = f"http://hooks.example.com:{receiver.port}/in"
        resolver = resolving([PUBLIC], ["127.0.0.1"])
        targets.check_new(url, allow_private=False, resolver=resolver)
        sent = targets.post(url, b"{}", {}, timeout=2, allow_private=False, resolver=resolver)
        assert sent.status_code is None and not sent.ok
        assert sent.error is not None and sent.error.startswith("refused:")
        assert "127.0.0.1" in sent.error
        assert receiver.received == []
    finally:
        receiver.stop()


def test_the_connection_goes_to_the_checked_address_with_the_name_as_host() -> None:
    receiver = WebhookReceiver().start()
    try:
        url = f"http://hooks.example.com:{receiver.port}/in?shop=7"
        sent = targets.post(url, b'{"a":1}', {"x-test": "1"}, timeout=5, allow_private=True,
                            resolver=resolving(["127.0.0.1"]))
        assert sent.ok and sent.status_code == 200 and sent.error is None
        assert sent.duration_ms >= 0
        [got] = receiver.received
        assert got.path == "/in?shop=7" and got.body == b'{"a":1}'
        assert got.headers["host"] == f"hooks.example.com:{receiver.port}"
        assert got.headers["x-test"] == "1"
    finally:
        receiver.stop()


def test_an_ipv6_address_is_bracketed_in_the_pinned_url() -> None:
    target = targets.parse("https://hooks.example.com/in?x=1")
    assert targets.pinned_url(target, "2001:db8::5") == "https://[2001:db8::5]:443/in?x=1"


def test_redirects_errors_and_timeouts_are_failures_with_their_reason() -> None:
    receiver = WebhookReceiver(answers=[302, 500]).start()
    try:
        moved = targets.post(receiver.url, b"{}", {}, timeout=5, allow_private=True)
        assert (moved.status_code, moved.ok, moved.error) == (302, False, "answered HTTP 302")
        broken = targets.post(receiver.url, b"{}", {}, timeout=5, allow_private=True)
        assert (broken.status_code, broken.error) == (500, "answered HTTP 500")
    finally:
        receiver.stop()
    slow = WebhookReceiver(delay=2.0).start()
    try:
        late = targets.post(slow.url, b"{}", {}, timeout=0.5, allow_private=True)
        assert late.status_code is None and late.error == "no answer within 0.5 s"
    finally:
        slow.stop()
    down = targets.post(receiver.url, b"{}", {}, timeout=2, allow_private=True)
    assert down.status_code is None and down.error is not None
    assert down.error.startswith("could not connect")


def test_webhooks_reach_private_addresses_in_development_only() -> None:
    """WEBHOOK_ALLOW_PRIVATE unset: allowed in development (a receiver on localhost), refused
    in production, which also refuses it set to true."""
    assert Settings().webhooks_reach_private is True
    assert Settings(webhook_allow_private=False).webhooks_reach_private is False
    assert Settings(**PRODUCTION).webhooks_reach_private is False
    with pytest.raises(ValueError, match="WEBHOOK_ALLOW_PRIVATE"):
        Settings(**PRODUCTION, webhook_allow_private=True)
    assert Settings(**PRODUCTION, webhook_allow_private=False).webhooks_reach_private is False


def test_the_answers_body_is_never_read() -> None:
    """A receiver that answers 200 and then streams without end: the POST returns with the
    status (reading the body would never end, or fill the worker's memory)."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    stop = threading.Event()

    def endless() -> None:
        connection, _ = server.accept()
        connection.recv(65536)
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000000000\r\n\r\n")
        try:
            while not stop.is_set():
                connection.sendall(b"x" * 65536)
        except OSError:
            pass  # the client hung up: what it should do
        finally:
            connection.close()

    threading.Thread(target=endless, daemon=True).start()
    result: list[targets.Sent] = []
    client = threading.Thread(target=lambda: result.append(targets.post(
        f"http://127.0.0.1:{port}/in", b"{}", {}, timeout=5, allow_private=True)), daemon=True)
    client.start()
    client.join(30)
    stop.set()
    server.close()
    assert result, "the POST was still reading the endless body after 30 s"
    assert result[0].ok and result[0].status_code == 200
