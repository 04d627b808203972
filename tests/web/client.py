"""A test client addressed as a local player's browser addresses the server: the app answers to loopback
names only (DNS rebinding), and TestClient's own default host, `testserver`, is not one."""

from typing import Any

from fastapi.testclient import TestClient


def local_client(app: Any, **kwargs: Any) -> TestClient:
    return TestClient(app, base_url="http://localhost", **kwargs)
