"""Who may talk to the server: the Host names it answers to, and the pages that may change its state.

DNS rebinding: a page on evil.example whose name is re-pointed at 127.0.0.1 talks to this server as its
own origin, so the browser's same-origin rule lets it read every answer. The one thing it cannot change is
the Host header, which still says evil.example: so any request whose Host is not on the allow-list is
refused (400). A page on another site may also send requests it cannot read (a form post, a no-cors
fetch); those carry that site's Origin, so a request that changes state (POST, DELETE, ...) from a
foreign Origin is refused (403)."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ultimata.envs.core.errors import ConfigError
from ultimata.web.guards import quoted

LOOPBACK = ("localhost", "127.0.0.1", "::1")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing here; every other method is checked for its Origin."""


def host_name(value: str) -> str | None:
    """The host part of a Host header or an --allow-host value ('[::1]:8000' -> '::1'), lower case; None
    when it is not a host (a scheme, a path, a user, an empty name)."""
    if not value or any(c in value for c in "/@?#\\ \t") or not value.isascii():
        return None
    if value.count(":") > 1 and not value.startswith("["):  # a bare IPv6 address, as --host takes it
        value = f"[{value}]"
    try:
        parts = urlsplit(f"//{value}")
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        return None
    return parts.hostname or None


def allowed_hosts(bound: str | None, extra: Iterable[str] = ()) -> frozenset[str]:
    """Loopback, the host the server is bound to, and the operator's --allow-host names. A bad name is a
    ConfigError naming it (serve stops before it listens)."""
    names = set(LOOPBACK)
    for value in [*([bound] if bound else []), *extra]:
        name = host_name(value)
        if name is None:
            raise ConfigError(f"--allow-host takes a host name or address such as games.example.org or 10.0.0.5, "
                              f"not {value!r}")
        names.add(name)
    return frozenset(names)


class HostGuard:
    """ASGI middleware: refuses a Host outside `hosts` (400) and a state-changing request from a foreign
    Origin (403), before any route runs, with a one-line `detail` like every other refusal."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self.refusal(scope["method"], headers, scope.get("scheme", "http"))
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, detail = refusal
        await JSONResponse({"detail": detail}, status, headers={"Connection": "close"})(scope, receive, send)

    def refusal(self, method: str, headers: dict[str, str], scheme: str = "http") -> tuple[int, str] | None:
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            names = ", ".join(sorted(f"[{h}]" if ":" in h else h for h in self.hosts))
            return 400, (f"this server does not answer to the host {quoted(host)}; it answers to {names} "
                         "(the operator adds names with serve --allow-host)")
        if method in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        # Browsers send Origin with every cross-origin request and with every request whose method is not
        # GET or HEAD (the Fetch standard), so a foreign page's POST or DELETE always says where it comes
        # from, and it must be this very server: the scheme it was reached by, the Host header's host and
        # port (https://localhost is another origin than http://localhost, on another port). A request
        # without Origin is one a browser sends only from this server's own page (older browsers left it
        # off same-origin requests), or one from a program (curl, a script), which no foreign page can
        # drive: it is allowed, unless Sec-Fetch-Site says a browser made it for another site.
        if origin is None:
            if headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none"):
                return None
            return 403, "a request that changes a game must come from this server's own page"
        if _origin_of(origin) == _origin_of(f"{scheme}://{host}"):
            return None
        return 403, (f"a request that changes a game must come from this server's own page, not from "
                     f"{quoted(origin)}")


def _origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) with the scheme's default port filled in; None for 'null' or a non-URL."""
    try:
        parts = urlsplit(url)
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    except ValueError:  # an unclosed '[', a port that is no number
        return None
    if not parts.hostname or port is None:
        return None
    return parts.scheme.lower(), parts.hostname, port
