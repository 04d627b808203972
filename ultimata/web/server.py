"""Running the app: the listening socket is opened first, so a busy port is one clear error before the
address is announced; and each connection must finish its request's headers, then its body, in time.

uvicorn's `timeout_keep_alive` starts only after a response, and is cancelled by the first byte of the
next request; h11 caps the size of unfinished headers (16 KB) and BodyLimit a body's size, but neither how
long they take. So a client that sends half a request line, or headers announcing a body it then trickles
or never sends, would hold its connection for ever, and enough of them would hold every connection the
process can have (slowloris, and its slow-body variant). `RequestTimeoutProtocol` closes a connection whose
request headers are not complete `header_timeout` seconds after it opened (or after its previous response
ended), or whose body is not complete `body_timeout` seconds after its headers."""

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
BODY_TIMEOUT = 10.0
"""Ample for the largest body served (BodyLimit's 64 KB) on any working connection."""
MAX_HEADER_BYTES = 16 * 1024
"""h11's own default, set here so the limit is written down: a longer unfinished head is a 400."""


class ServeError(UltimataError):
    """The server cannot start: the port is taken, the address is not this machine's."""


class RequestTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers and then its body (see the module's
    docstring). The deadline in force is for the part of the request h11 is waiting for (`_awaited`)."""

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        self._awaited: type[h11.IDLE] | type[h11.SEND_BODY] | None = None
        super().connection_made(transport)
        self._await(h11.IDLE, self.header_timeout)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        state = self.conn.their_state
        if state is h11.SEND_BODY and self._awaited is not h11.SEND_BODY:  # headers in, a body announced
            self._await(h11.SEND_BODY, self.body_timeout)
        elif state is not self._awaited:  # the awaited part is in
            self._cancel_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._await(h11.IDLE, self.header_timeout)  # the next request on this connection gets the same time

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    def _await(self, state: type[h11.IDLE] | type[h11.SEND_BODY], seconds: float) -> None:
        self._cancel_deadline()
        if not self.transport.is_closing() and self.conn.their_state is state:
            self._awaited, self._deadline = state, self.loop.call_later(seconds, self._too_slow)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self._awaited = None

    def _too_slow(self) -> None:
        """The headers or the body did not arrive in time: the connection closes (the app, if it was reading
        the body, reads a disconnect)."""
        awaited, self._deadline, self._awaited = self._awaited, None, None
        if self.conn.their_state is awaited and not self.transport.is_closing():
            self.transport.close()


def with_timeouts(header_seconds: float, body_seconds: float = BODY_TIMEOUT) -> type[RequestTimeoutProtocol]:
    """The protocol class with its own deadlines (uvicorn builds one protocol per connection from it)."""
    return type("RequestTimeoutProtocol", (RequestTimeoutProtocol,),
                {"header_timeout": header_seconds, "body_timeout": body_seconds})


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


def config(app: Any, host: str, port: int, header_timeout: float = HEADER_TIMEOUT,
           body_timeout: float = BODY_TIMEOUT) -> uvicorn.Config:
    return uvicorn.Config(app, host=host, port=port, log_level="warning",
                          http=with_timeouts(header_timeout, body_timeout),
                          h11_max_incomplete_event_size=MAX_HEADER_BYTES)


def run(app: Any, sock: socket.socket, header_timeout: float = HEADER_TIMEOUT) -> None:
    """Serve `app` on an open socket (from `listen`) until Ctrl-C."""
    host, port = sock.getsockname()[:2]
    uvicorn.Server(config(app, host, port, header_timeout)).run(sockets=[sock])
