"""A real server on a free loopback port and Debian's chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn

from ultimata.web import server
from ultimata.web.app import create_app

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def running_server(replays: Path, header_timeout: float = server.HEADER_TIMEOUT,
                   body_timeout: float = server.BODY_TIMEOUT, max_per_client: int = 32) -> Iterator[str]:
    """The app served as `ultimata serve` serves it (its socket, its protocol and limits) on a free port."""
    # every test here is one client (127.0.0.1) with several games open: the per-client share is
    # tested over HTTP in test_api.py
    app = create_app(replays=replays, max_per_client=max_per_client)
    sock = server.listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    running = uvicorn.Server(server.config(app, "127.0.0.1", port, header_timeout, body_timeout))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(timeout=10)
        sock.close()


@contextmanager
def chromium() -> Iterator:
    """Debian's chromium, headless, driven by Playwright (one per test module: a launch takes seconds)."""
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    if executable is None:
        # A fresh machine may lack a browser: skip there, but never in CI, which must not lose these tests.
        reason = "chromium is not installed (apt-get install -y chromium)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the browser tests")
        pytest.skip(reason)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def new_page(browser) -> Iterator:
    """A fresh page (its own storage) and the page errors it raises, Content-Security-Policy violations
    included (chromium reports those on the console only)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"{e}: {e.stack}"))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    try:
        yield page, errors
    finally:
        context.close()


@contextmanager
def chromium_page() -> Iterator:
    with chromium() as browser, new_page(browser) as page_and_errors:
        yield page_and_errors
