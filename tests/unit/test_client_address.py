"""Which address a request is counted against: the TCP peer, unless a trusted proxy says."""

from __future__ import annotations

import ipaddress
import json

import yaml

from api.client_address import resolve
from core.ratelimit import address_key
from tests.support.paths import REPO

TRUSTED = ("10.0.0.0/8",)


def test_forwarded_for_from_an_untrusted_peer_is_ignored() -> None:
    assert resolve("203.0.113.5", "1.2.3.4", TRUSTED) == "203.0.113.5"
    assert resolve("127.0.0.1", "1.2.3.4", ()) == "127.0.0.1"  # no proxies: nobody believed


def test_a_trusted_proxy_names_the_visitor() -> None:
    assert resolve("10.0.0.2", "1.2.3.4", TRUSTED) == "1.2.3.4"
    assert resolve("10.0.0.2", None, TRUSTED) == "10.0.0.2"


def test_only_the_hop_the_proxy_appended_is_believed() -> None:
    # The client wrote the left part; the proxy appended the real peer on the right.
    assert resolve("10.0.0.2", "6.6.6.6, 198.51.100.7", TRUSTED) == "198.51.100.7"
    # A chain of trusted proxies is skipped to the first address none of them is.
    assert resolve("10.0.0.2", "198.51.100.7, 10.0.0.9", TRUSTED) == "198.51.100.7"
    assert resolve("10.0.0.2", "not-an-ip", TRUSTED) == "10.0.0.2"
    assert resolve("10.0.0.2", "2001:db8::1", TRUSTED) == "2001:db8::1"


def test_an_ipv6_visitor_is_counted_by_their_64_network() -> None:
    # One subscriber gets a whole /64 and could rotate through it, one address per attempt.
    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:198.51.100.7") == "198.51.100.7"
    assert address_key("198.51.100.7") == "198.51.100.7"
    assert address_key("testclient") == "testclient"


def test_a_visitor_inside_a_trusted_network_is_still_themself() -> None:
    assert resolve("10.0.0.2", "10.1.2.3", TRUSTED) == "10.1.2.3"
    assert resolve("10.0.0.2", "10.1.2.3, 10.0.0.9", TRUSTED) == "10.1.2.3"


def test_compose_trusts_nginx_and_nginx_names_the_visitor() -> None:
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    api = compose["services"]["api"]
    assert "--no-proxy-headers" in api["command"]
    trusted = json.loads(api["environment"]["TRUSTED_PROXIES"])
    assert trusted and all(ipaddress.ip_network(entry) for entry in trusted)
    nginx = (REPO / "ops/docker/nginx.conf").read_text()
    # Set from what nginx sees, never appended to what the visitor wrote.
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in nginx
