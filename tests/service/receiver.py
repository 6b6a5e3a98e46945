"""A real local HTTP receiver on 127.0.0.1 for the channels' tests: it stands for Discord, Slack,
ntfy, Mattermost, a push service or someone's own webhook. It keeps every request it is sent and
answers each path as the test says: a status, a redirect, a huge body, or no answer at all."""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    peer_port: int = 0  # the sender's end of the connection: requests on one connection share it
    at: float = field(default_factory=time.monotonic)  # when it arrived


@dataclass
class Answer:
    status: int = 200
    location: str = ""
    body: bytes = b"ok"
    hang_seconds: float = 0.0


@dataclass
class Receiver:
    received: list[Received] = field(default_factory=list)
    answers: dict[str, Answer] = field(default_factory=dict)
    server: ThreadingHTTPServer | None = None

    @property
    def port(self) -> int:
        assert self.server is not None
        return self.server.server_address[1]

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def on(self, path: str) -> list[Received]:
        """The requests received at a path (its query left out)."""
        return [request for request in self.received if request.path.split("?")[0] == path]

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # connections kept between requests, as real services do
            disable_nagle_algorithm = True  # the answer's head and body written at once

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                receiver.received.append(
                    Received("POST", self.path, dict(self.headers.items()), body, self.client_address[1])
                )
                answer = receiver.answers.get(self.path.split("?")[0], Answer())
                time.sleep(answer.hang_seconds)
                self.send_response(answer.status)
                if answer.location:
                    self.send_header("Location", answer.location)
                self.send_header("Content-Length", str(len(answer.body)))
                self.end_headers()
                with contextlib.suppress(OSError):  # the sender stopped reading, as it should
                    self.wfile.write(answer.body)

            do_GET = do_POST

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        assert self.server is not None
        self.server.shutdown()
        self.server.server_close()
