"""What the server refuses before a route runs: bodies over a size limit (413, before the body is read),
and requests that do not fit their model (422 with one readable line per problem, never a 500); and the
headers every answer carries."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024


class BodyTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body over the {limit // 1024} KB limit")


class BodyLimit:
    """ASGI middleware: a declared Content-Length over `limit` is answered 413 without reading a byte; a
    body without one (chunked) is cut off as soon as it passes the limit."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            too_large = BodyTooLarge(self.limit)
            await JSONResponse({"detail": too_large.detail}, 413, headers={"Connection": "close"})(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise BodyTooLarge(self.limit)  # FastAPI re-raises HTTPException from the body read: a 413
            return message

        await self.app(scope, counted, send)


CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",  # the page's scripts, styles, pictures and API calls come from this server only
    "script-src 'self'",  # no inline script: an injected <script> or onclick= does not run
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",  # no other site may frame the page (clickjacking), as X-Frame-Options says
])
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """ASGI middleware: every answer, refusals included, carries the headers that keep the page from being
    framed by another site or running script it did not load from here."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


def refuse_malformed(app: FastAPI) -> None:
    """Turn FastAPI's list of validation errors into one line per problem: the field, what is wrong,
    what it got (shortened: a refusal never echoes a large body)."""

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": "; ".join(_line(e) for e in err.errors())}, 422)


def _line(error: dict[str, Any]) -> str:
    if error.get("type") == "json_invalid":
        return f"the body is not valid JSON: {error.get('ctx', {}).get('error', 'decode error')}"
    where = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path")) or "body"
    message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
    got = repr(error.get("input"))
    got = got if len(got) <= 60 else got[:57] + "..."
    return f"{where}: {message} (got {got})"


def quoted(value: str, limit: int = 64) -> str:
    """A value from the request, quoted for a refusal and cut short: a refusal never echoes a large input."""
    return repr(value if len(value) <= limit else value[: limit - 3] + "...")
