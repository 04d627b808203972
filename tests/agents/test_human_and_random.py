"""The terminal player's move parsing, and the random agent."""

from __future__ import annotations

import numpy as np
import pytest

from ultimata.agents.human import HumanAgent, HumanQuit
from ultimata.agents.random_agent import RandomAgent
from ultimata.agents.scripted_agent import ScriptedAgent

NAMES = ["play Take 3", "play Take 5", "play Steal", "pass"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [("1", 0), ("4", 3), ("steal", 2), ("PLAY TAKE 5", 1), ("pass", 3), ("help", "help"), ("q", "quit")],
)
def test_moves_by_number_or_name(line, expected):
    assert HumanAgent.parse(line, NAMES) == expected


def test_ambiguous_or_unknown_moves_explain_themselves():
    assert "matches several moves" in HumanAgent.parse("take", NAMES)
    assert "not a legal move" in HumanAgent.parse("swap", NAMES)
    assert "choose 1..4" in HumanAgent.parse("9", NAMES)


def test_human_agent_reads_until_a_legal_move_and_quits_on_eof():
    lines = iter(["", "nope", "2"])
    shown: list[str] = []
    agent = HumanAgent(read=lambda prompt: next(lines), write=shown.append)
    mask = np.array([0, 1, 0, 1], dtype=np.int8)
    assert agent.act(np.zeros(3), mask) == 3
    assert any("not a legal move" in s for s in shown)

    def closed(prompt: str) -> str:
        raise EOFError

    with pytest.raises(HumanQuit):
        HumanAgent(read=closed, write=shown.append).act(np.zeros(3), mask)


def test_random_agent_is_legal_and_seeded():
    mask = np.array([0, 1, 1, 0, 1], dtype=np.int8)
    a, b = RandomAgent(), RandomAgent()
    a.reset(0, seed=5)
    b.reset(0, seed=5)
    picks = [a.act(np.zeros(2), mask) for _ in range(30)]
    assert picks == [b.act(np.zeros(2), mask) for _ in range(30)]
    assert set(picks) == {1, 2, 4}


def test_scripted_agent_needs_the_state():
    agent = ScriptedAgent("ultimatum_cards_v3")
    with pytest.raises(ValueError, match="pass state="):
        agent.act(np.zeros(2), np.ones(2, dtype=np.int8))


def test_a_number_inside_another_number_is_not_a_second_match():
    names = ["offer: 6 to player_3, 6 to you", "offer: 16 to player_3, 0 to you"]
    assert HumanAgent.parse("6 to player_3", names) == 0


def test_a_long_move_list_is_one_move_per_line():
    shown = []
    agent = HumanAgent(read=lambda prompt: "1", write=shown.append)
    agent._list([f"offer: {k} to player_3, {20 - k} to you" for k in range(20)])
    assert all(line.count("[") <= 1 for line in shown[0].splitlines())
