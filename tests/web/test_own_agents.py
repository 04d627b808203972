"""`serve --agent SPEC`: the operator's own agents are offered to the browser; a browser names no code."""

from __future__ import annotations

from typer.testing import CliRunner

from ultimata.cli import app
from ultimata.envs.core.registry import env_name
from ultimata.web.app import create_app

from .client import local_client

OWN = "tests.agents.own_agents:FirstLegal"
CARDS = env_name("ultimatum_cards")


def test_an_operators_agent_is_offered_and_plays_a_game(tmp_path):
    client = local_client(create_app(own_agents=(OWN,), replays=tmp_path / "replays"))
    offered = [o["spec"] for o in client.get(f"/api/games/{CARDS}/opponents").json()]
    assert OWN in offered
    body = {"game": CARDS, "config": {}, "human_seat": None, "seed": 1,
            "opponents": {str(i): OWN for i in range(4)}}
    created = client.post("/api/sessions", json=body)
    assert created.status_code == 201, created.text
    snap = created.json()
    for _ in range(400):
        if snap["over"]:
            break
        snap = client.post(f"/api/sessions/{snap['id']}/advance").json()
    assert snap["over"]


def test_a_browser_cannot_name_code_the_operator_did_not_offer(tmp_path):
    client = local_client(create_app(replays=tmp_path / "replays"))
    body = {"game": CARDS, "config": {}, "human_seat": 0, "seed": 1, "opponents": {"1": OWN, "2": "random",
                                                                                    "3": "random"}}
    refused = client.post("/api/sessions", json=body)
    assert refused.status_code in (400, 422) and "unknown opponent" in refused.text


def test_serve_refuses_an_agent_that_is_not_ones_own_code_or_plays_nothing(tmp_path):
    for spec, said in (("heuristic", "takes your own agent"), ("tests.agents.own_agents:NotAnAgent", "plays none")):
        result = CliRunner().invoke(app, ["serve", "--agent", spec, "--port", "1", "--record", str(tmp_path / "r.db"),
                                          "--replays", str(tmp_path / "replays")])
        assert result.exit_code == 2 and said in result.output, result.output
