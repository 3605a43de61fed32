"""Local stand-ins for third parties we cannot reach, speaking their documented protocols:
a real SMTP server (aiosmtpd) that keeps what it receives, and an OpenID Connect user-info
endpoint (Google's) answering for a few known access tokens."""

from __future__ import annotations

import email
import json
import re
import threading
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

from ops.stack import free_port


class MailSink:
    """An SMTP server on 127.0.0.1 that keeps every message."""

    def __init__(self, spool: Path | None = None) -> None:
        # With a spool folder every message is also written there as an .eml file, so another
        # process (the browser test) can read the codes.
        self.spool = spool
        self.messages: list[Message] = []
        self.port = free_port()
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:  # noqa: N802
        self.messages.append(email.message_from_bytes(envelope.content))
        if self.spool is not None:
            self.spool.mkdir(parents=True, exist_ok=True)
            (self.spool / f"{len(self.messages):05d}.eml").write_bytes(envelope.content)
        return "250 Message accepted"

    def start(self) -> MailSink:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    def to(self, address: str) -> list[Message]:
        return [m for m in self.messages if m["To"] == address]

    def latest_code(self, address: str) -> str:
        for message in reversed(self.to(address)):
            found = re.search(r"\b(\d{6})\b", str(message["Subject"]))
            if found:
                return found.group(1)
        raise AssertionError(f"no code mailed to {address}")


class UserInfoServer:
    """GET /userinfo with `Authorization: Bearer <token>`, as Google's endpoint answers it."""

    def __init__(self, users: dict[str, dict[str, Any]]) -> None:
        self.users = users
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                token = self.headers.get("Authorization", "").removeprefix("Bearer ").strip()
                info = sink.users.get(token)
                status, body = (200, info) if info else (401, {"error": "invalid_token"})
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/userinfo"

    def start(self) -> UserInfoServer:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
