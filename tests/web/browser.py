"""A real server on a free loopback port and Debian's chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn

from ultimata.web.app import create_app

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_server(replays: Path) -> Iterator[str]:
    port = free_port()
    # every test here is one client (127.0.0.1) with several games open: the per-client share is
    # tested over HTTP in test_api.py
    app = create_app(replays=replays, max_per_client=32)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


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
    """A fresh page (its own storage) and the page errors it raises."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"{e}: {e.stack}"))
    try:
        yield page, errors
    finally:
        context.close()


@contextmanager
def chromium_page() -> Iterator:
    with chromium() as browser, new_page(browser) as page_and_errors:
        yield page_and_errors
