"""Hostile requests to the server: each is a 4xx with a one-line reason that shows no server path, and
changes nothing. Then what a real server does on the wire: the Host allow-list against DNS rebinding, the
Origin check on requests that change a game, the headers on every answer, a time limit on headers, and
`serve` on a busy port."""

from __future__ import annotations

import json
import socket
import time

import pytest
from typer.testing import CliRunner

from ultimata.cli import app as cli
from ultimata.envs import GAMES
from ultimata.envs.core.registry import game_class
from ultimata.web import server
from ultimata.web.app import create_app

from ..web.browser import running_server
from ..web.client import local_client

CARDS = "ultimatum_cards_v3"
LOCAL = "localhost"


@pytest.fixture()
def client(tmp_path):
    """The server's folders live under tmp_path, which no answer may show."""
    (tmp_path / "replays").mkdir()
    return local_client(create_app(replays=tmp_path / "replays", checkpoints=tmp_path / "checkpoints"))


def answered(res, tmp_path, *allowed: int) -> dict:
    """A refusal as every refusal must be: one of `allowed`, never a 5xx, one line without a path."""
    assert res.status_code in allowed and res.status_code < 500, (res.status_code, res.text[:300])
    detail = res.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and len(detail) <= 1000
    assert str(tmp_path) not in res.text and "Traceback" not in res.text
    return res.json()


def on_your_turn(client, game: str) -> dict:
    snap = client.post("/api/sessions", json={"game": game, "seed": 1, "human_seat": 0}).json()
    while snap["waiting_for"] != "human":
        snap = client.post(f"/api/sessions/{snap['id']}/advance").json()
    return snap


# -- moves ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", list(GAMES))
def test_a_negative_or_huge_action_on_your_turn_is_a_422_and_changes_nothing(client, tmp_path, game) -> None:
    """The probe: {"action": -100} was a 500 in the card game, the world game and Conquest, whose move
    descriptions ran before the move was checked."""
    snap = on_your_turn(client, game)
    n = game_class(game).from_config({}).num_actions
    for action in (-100, -1, -10**6, n, 10**6, 10**40):
        res = client.post(f"/api/sessions/{snap['id']}/move", json={"action": action})
        assert "0.." in answered(res, tmp_path, 422)["detail"], action
    huge = client.post(f"/api/sessions/{snap['id']}/move", content=b'{"action": ' + b"9" * 5000 + b"}",
                       headers={"Content-Type": "application/json"})
    answered(huge, tmp_path, 400, 422)
    assert client.get(f"/api/sessions/{snap['id']}").json() == snap


# -- the new-game request ---------------------------------------------------------------------------

@pytest.mark.parametrize(("field", "value"), [("human_seat", "0"), ("human_seat", 1.0), ("human_seat", True),
                                              ("seed", "1"), ("seed", 1.0), ("seed", True), ("seed", 2**64)])
def test_seats_and_seeds_must_be_json_integers(client, tmp_path, field, value) -> None:
    res = client.post("/api/sessions", json={"game": CARDS, field: value})
    assert answered(res, tmp_path, 422)["detail"].startswith(f"{field}:")
    assert len(client.app.state.store) == 0


BAD_BODIES = {
    "not JSON": b'{"game": ',
    "not UTF-8": b"\xff\xfe{}",
    "a list": b"[1, 2]",
    "a string": b'"ultimatum_cards_v3"',
    "NaN seed": b'{"game": "ultimatum_cards_v3", "seed": NaN}',
    "10,000-deep config": b'{"game": "ultimatum_cards_v3", "config": ' + b'{"a":' * 10_000 + b"1" + b"}" * 10_001,
    "300-deep config": b'{"game": "ultimatum_cards_v3", "config": ' + b'{"a":' * 300 + b"1" + b"}" * 301,
    "20,000-deep list": b'{"game": "ultimatum_cards_v3", "config": {"a": ' + b"[" * 20_000 + b"]" * 20_000 + b"}}",
    "unknown game": b'{"game": "chess_v9"}',
    "a 10,000-character game": b'{"game": "' + b"x" * 10_000 + b'"}',
    "a 30,000-character opponent": b'{"game": "ultimatum_cards_v3", "opponents": {"1": "' + b"y" * 30_000 + b'"}}',
    "an opponent seat that is no number": b'{"game": "ultimatum_cards_v3", "opponents": {"one": "random"}}',
    "an opponent seat of 40 digits": b'{"game": "ultimatum_cards_v3", "opponents": {"' + b"9" * 40 + b'": "random"}}',
    "a config value of 40,000 characters": b'{"game": "ultimatum_cards_v3", "config": {"num_players": "'
                                           + b"z" * 40_000 + b'"}}',
    "an unknown field": b'{"game": "ultimatum_cards_v3", "admin": true}',
}


@pytest.mark.parametrize("name", list(BAD_BODIES))
def test_a_malformed_new_game_is_a_4xx_with_one_readable_line(client, tmp_path, name) -> None:
    res = client.post("/api/sessions", content=BAD_BODIES[name], headers={"Content-Type": "application/json"})
    answered(res, tmp_path, 400, 404, 413, 422)
    assert len(client.app.state.store) == 0


def test_an_oversized_body_is_a_413_on_every_route(client, tmp_path) -> None:
    sid = on_your_turn(client, CARDS)["id"]
    body = b'{"game": "' + b"x" * 100_000 + b'"}'
    for path in ("/api/sessions", f"/api/sessions/{sid}/move", f"/api/sessions/{sid}/advance"):
        res = client.post(path, content=body, headers={"Content-Type": "application/json"})
        assert "64 KB" in answered(res, tmp_path, 413)["detail"]


# -- queries and paths ------------------------------------------------------------------------------

@pytest.mark.parametrize("config", [
    '{"a":' * 1000 + "1" + "}" * 1000,  # the probe: a 1,000-deep config was a 500
    '{"num_players": ' + "[" * 50 + "]" * 50 + "}",
    "[" * 10_000,
    "{" + '"k": 1,' * 2000 + '"k": 1}',
    '{"num_players": NaN}',
    '{"num_players": ' + "4" * 5000 + "}",
    "[1]",
    "not json",
    '{"bogus": 1}',
])
def test_a_bad_config_query_is_a_422(client, tmp_path, config) -> None:
    res = client.get(f"/api/games/{CARDS}/opponents", params={"config": config})
    answered(res, tmp_path, 422)


@pytest.mark.parametrize("path", [
    "/api/games/chess_v9/opponents",
    "/api/games/" + "g" * 5000 + "/opponents",
    "/api/sessions/../../etc/passwd",
    "/api/sessions/" + "a" * 5000,
    "/api/replays/..%2F..%2Fetc%2Fpasswd",
    "/api/replays/%2e%2e%2fsecret.json",
    "/api/replays/..",
    "/api/replays/%00.json",
    "/api/replays/x.json?start=" + "9" * 5000,
    "/api/replays/x.json?count=-1",
    "/api/replays/x.json?perspective=abc",
    "/static/../app.py",
    "/static/%2e%2e/app.py",
    "/api/nothing-here",
])
def test_unknown_paths_traversal_and_bad_query_values_are_4xx(client, tmp_path, path) -> None:
    (tmp_path / "secret.json").write_text("{}")
    res = client.get(path)
    assert 400 <= res.status_code < 500 and str(tmp_path) not in res.text, (path, res.status_code)


@pytest.mark.parametrize("query", ["perspective=" + "9" * 50, "perspective=-1", "events_from=-1",
                                   "events_from=" + "9" * 5000, "perspective=1.5"])
def test_bad_session_queries_are_422(client, tmp_path, query) -> None:
    snap = client.post("/api/sessions", json={"game": CARDS, "human_seat": None}).json()
    for method, path in (("GET", ""), ("POST", "/advance")):
        answered(client.request(method, f"/api/sessions/{snap['id']}{path}?{query}"), tmp_path, 422)
    assert client.get(f"/api/sessions/{snap['id']}").json()["events_total"] == 0


# -- DNS rebinding: the Host header -----------------------------------------------------------------

@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.evil",
                                  "", "[::1", "127.0.0.1:notaport", "user@localhost", "localhost/x"])
def test_a_request_for_a_foreign_host_is_refused_before_any_route(client, tmp_path, host) -> None:
    """A page on evil.example rebound to 127.0.0.1 sends Host: evil.example. It may neither read nor play."""
    (tmp_path / "replays" / "game.json").write_text("{}")
    for method, path in (("GET", "/api/replays"), ("GET", "/"), ("GET", "/static/app.js"),
                         ("POST", "/api/sessions"), ("DELETE", "/api/sessions/x")):
        res = client.request(method, path, headers={"Host": host}, json={"game": CARDS})
        assert "does not answer to the host" in answered(res, tmp_path, 400)["detail"]
        assert res.headers["x-frame-options"] == "DENY"
    assert len(client.app.state.store) == 0


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST:8000", "127.0.0.1", "127.0.0.1:8000", "[::1]:8000"])
def test_loopback_hosts_are_served(client, host) -> None:
    assert client.get("/api/games", headers={"Host": host}).status_code == 200


def test_the_operator_adds_host_names_and_the_bound_host_is_served(tmp_path) -> None:
    app = create_app(replays=tmp_path, hosts=("10.1.2.3", "games.example.org", "fe80::1"))
    client = local_client(app)
    for host in ("10.1.2.3:8000", "games.example.org", "GAMES.example.org:80", "[fe80::1]:8000"):
        assert client.get("/api/games", headers={"Host": host}).status_code == 200, host
    assert client.get("/api/games", headers={"Host": "other.example.org"}).status_code == 400


@pytest.mark.parametrize("bad", ["http://games.example.org", "games.example.org/x", "", "a b", "[::1"])
def test_a_bad_allow_host_stops_serve_with_one_line(bad, monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(server, "run", lambda *a, **k: pytest.fail("the server must not start"))
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--allow-host", bad, *_own_files(tmp_path)])
    assert result.exit_code == 2 and "--allow-host takes a host name" in result.output
    assert "ultimata is at" not in result.output and "Traceback" not in result.output


# -- the Origin of requests that change state --------------------------------------------------------

def test_a_foreign_page_cannot_create_play_or_delete_a_game(client, tmp_path) -> None:
    snap = on_your_turn(client, CARDS)
    sid, move = snap["id"], snap["moves"][0]["action"]
    for origin in ("http://evil.example", "http://localhost.evil.example", "null", "http://localhost:9999",
                   "http://[::1", "https://localhost"):
        foreign = {"Origin": origin}
        for method, path, body in (("POST", "/api/sessions", {"game": CARDS}),
                                   ("POST", f"/api/sessions/{sid}/move", {"action": move}),
                                   ("POST", f"/api/sessions/{sid}/advance", None),
                                   ("DELETE", f"/api/sessions/{sid}", None)):
            res = client.request(method, path, json=body, headers=foreign)
            assert "this server's own page" in answered(res, tmp_path, 403)["detail"], (origin, path)
    assert len(client.app.state.store) == 1 and client.get(f"/api/sessions/{sid}").json() == snap


def test_a_cross_site_request_without_origin_is_refused(client, tmp_path) -> None:
    res = client.post("/api/sessions", json={"game": CARDS}, headers={"Sec-Fetch-Site": "cross-site"})
    answered(res, tmp_path, 403)
    assert len(client.app.state.store) == 0


def test_the_servers_own_page_and_programs_without_origin_may_play(client) -> None:
    own = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/sessions", json={"game": CARDS}, headers=own).status_code == 201
    assert client.post("/api/sessions", json={"game": CARDS}).status_code == 201  # curl, a script
    on_port = {"Host": "127.0.0.1:8000", "Origin": "http://127.0.0.1:8000"}
    assert client.post("/api/sessions", json={"game": CARDS}, headers=on_port).status_code == 201


def test_reading_is_allowed_from_any_origin_on_an_allowed_host(client) -> None:
    """Reads need no Origin check: a foreign page cannot read the answers (no CORS headers are sent), and
    the Host check stops the rebinding page that could."""
    res = client.get("/api/games", headers={"Origin": "http://evil.example"})
    assert res.status_code == 200 and "access-control-allow-origin" not in res.headers


# -- headers ----------------------------------------------------------------------------------------

def test_every_answer_forbids_framing_and_inline_script(client) -> None:
    for res in (client.get("/"), client.get("/api/games"), client.get("/static/app.js"),
                client.get("/api/nothing"), client.post("/api/sessions", json={})):
        assert res.headers["x-frame-options"] == "DENY"
        policy = res.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy and "unsafe" not in policy
        assert res.headers["x-content-type-options"] == "nosniff"


# -- on the wire ------------------------------------------------------------------------------------

def open_connection(address: str) -> socket.socket:
    host, port = address.removeprefix("http://").split(":")
    conn = socket.create_connection((host, int(port)), timeout=30)
    return conn


def read_until_closed(conn: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a timeout here fails the test)."""
    received = b""
    while chunk := conn.recv(65536):
        received += chunk
    return received


def test_a_connection_whose_headers_never_finish_is_closed(tmp_path) -> None:
    with running_server(tmp_path, header_timeout=0.5) as address:
        with open_connection(address) as slow:
            slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            assert read_until_closed(slow) == b""
        with open_connection(address) as idle:
            assert read_until_closed(idle) == b"", "a connection that sends nothing is closed too"


def test_the_header_time_limit_restarts_for_each_request_on_a_connection(tmp_path) -> None:
    with running_server(tmp_path, header_timeout=0.5) as address, open_connection(address) as conn:
        conn.sendall(b"GET /favicon.ico HTTP/1.1\r\nHost: localhost\r\n\r\n")
        first = b""
        while b"</svg>" not in first:
            first += conn.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        conn.sendall(b"GET /api/games HTTP/1.1\r\nHo")
        assert read_until_closed(conn) == b""


NEW_GAME = b'{"game": "ultimatum_cards_v3", "seed": 1}'
POST_HEAD = (b"POST /api/sessions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
             b"Connection: close\r\nContent-Length: " + str(len(NEW_GAME)).encode() + b"\r\n\r\n")


def test_a_body_that_is_trickled_or_never_sent_is_closed_in_time(tmp_path) -> None:
    with running_server(tmp_path, body_timeout=0.5) as address:
        with open_connection(address) as never:
            never.sendall(POST_HEAD)
            started = time.monotonic()
            assert read_until_closed(never) == b""
            assert time.monotonic() - started < 10
        with open_connection(address) as trickled:
            trickled.sendall(POST_HEAD)
            answer = None
            try:
                for byte in NEW_GAME:  # a byte each 0.1 s: 4 s for the body, far past its 0.5 s
                    trickled.sendall(bytes([byte]))
                    time.sleep(0.1)
                answer = read_until_closed(trickled)
            except OSError:  # the server closed the connection while the body trickled in
                pass
            assert not answer, f"a trickled body was served: {answer!r}"
        with open_connection(address) as prompt:
            prompt.sendall(POST_HEAD + NEW_GAME)
            assert read_until_closed(prompt).startswith(b"HTTP/1.1 201"), "a body sent in time is served"


def test_a_slow_but_complete_request_is_answered(tmp_path) -> None:
    """The limits are on a request's headers and body arriving: a request that arrives in time is answered
    however long the answer takes to make."""
    with running_server(tmp_path, header_timeout=5) as address, open_connection(address) as conn:
        conn.sendall(b"GET /api/games HTTP/1.1\r\n")
        time.sleep(0.2)
        conn.sendall(b"Host: localhost\r\nConnection: close\r\n\r\n")
        answer = read_until_closed(conn)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200") and b"x-frame-options: DENY" in head
    assert json.loads(body)[0]["name"] in GAMES


def _own_files(folder) -> list[str]:
    """`serve`'s record and replay folder in the test's own folder: the defaults are the user's (runs/)."""
    return ["--record", str(folder / "record.db"), "--replays", str(folder / "replays")]


def test_serve_on_a_busy_port_fails_before_it_says_where_it_is(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(server, "run", lambda *a, **k: pytest.fail("the server must not start"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port), *_own_files(tmp_path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"cannot listen on 127.0.0.1:{port}: the port is in use" in result.output
    assert "ultimata is at" not in result.output
