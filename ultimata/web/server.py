"""Running the app: the listening socket is opened first, so a busy port is one clear error before the
address is announced; and each connection must finish its request's headers in time.

uvicorn's `timeout_keep_alive` starts only after a response, and is cancelled by the first byte of the
next request; h11 caps the size of unfinished headers (16 KB) but not how long they take. So a client
that sends half a request line and then nothing would hold its connection for ever, and enough of them
would hold every connection the process can have (slowloris). `HeaderTimeoutProtocol` closes a
connection whose request headers are not complete `header_timeout` seconds after it opened, or after its
previous response ended."""

from __future__ import annotations

import asyncio
import errno
import socket
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ultimata.envs.core.errors import UltimataError

HEADER_TIMEOUT = 10.0
MAX_HEADER_BYTES = 16 * 1024
"""h11's own default, set here so the limit is written down: a longer unfinished head is a 400."""


class ServeError(UltimataError):
    """The server cannot start: the port is taken, the address is not this machine's."""


class HeaderTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers (see the module's docstring)."""

    header_timeout: float = HEADER_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_deadline: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._await_headers()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the request line and headers are in
            self._cancel_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._await_headers()  # the next request on this connection gets the same time

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    def _await_headers(self) -> None:
        self._cancel_deadline()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._header_deadline = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _cancel_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _headers_too_slow(self) -> None:
        self._header_deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def with_header_timeout(seconds: float) -> type[HeaderTimeoutProtocol]:
    """The protocol class with its own deadline (uvicorn builds one protocol per connection from it)."""
    return type("HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_timeout": seconds})


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on host:port, or ServeError saying why not (a port in use is the usual one)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except (OSError, UnicodeError) as err:
        raise ServeError(f"cannot listen on {host}: it is not an address of this machine ({err})") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a restart need not wait
        sock.bind(address)
        sock.listen(128)
    except OSError as err:
        sock.close()
        why = "the port is in use (is another server running there?)" if err.errno == errno.EADDRINUSE else err.strerror
        raise ServeError(f"cannot listen on {host}:{port}: {why}; choose another with --port") from None
    sock.set_inheritable(True)
    return sock


def config(app: Any, host: str, port: int, header_timeout: float = HEADER_TIMEOUT) -> uvicorn.Config:
    return uvicorn.Config(app, host=host, port=port, log_level="warning", http=with_header_timeout(header_timeout),
                          h11_max_incomplete_event_size=MAX_HEADER_BYTES)


def run(app: Any, sock: socket.socket, header_timeout: float = HEADER_TIMEOUT) -> None:
    """Serve `app` on an open socket (from `listen`) until Ctrl-C."""
    host, port = sock.getsockname()[:2]
    uvicorn.Server(config(app, host, port, header_timeout)).run(sockets=[sock])
