"""Every shipped bot plays exactly as it did when SB3 unpickled it.

`shipped_bot_moves.json` holds seeded games played by each shipped bot. It was recorded on commit
edc3667 (before the bots were converted to data-only checkpoints), when `pretrained` still went through
`MaskablePPO.load`, with

    python tests/agents/test_shipped_bots_unchanged.py

ULTIMADE's games were re-recorded when its rules became v2 (same seeds and seats, the same weights, the
data-only loader): the v1 record's moves are not all legal under v2's straight pull.

For each bot: two games with the bot in one seat (the first, the last) against random seats, two with the
bot in every seat, each under the rules of the game's training config and cut after `CAP` decisions. The
test replays the record: the recorded moves of the other seats are applied as they were, and every move
of a bot seat is asked of today's loader and must be the recorded one. Re-record only on purpose (a
retrained bot, or a rule change that changes what the bot sees). After a version bump an entry is renamed
to the new env when its games still replay move for move under the new rules (Conquest v2 -> v3 and the
world game v2 -> v3 did), and re-recorded with the data-only loader when they do not (Ultra War v4; the
world game v4, whose defenders are asked where v3 asked nobody), or when a retrained bot ships (Ultra
War's, trained on a GPU, 2026-11-27; the card game's, trained on the array path, 2026-12-02).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ultimata.agents import load_agent
from ultimata.agents.random_agent import RandomAgent
from ultimata.agents.specs import pretrained_path
from ultimata.envs import GAMES, game_class
from ultimata.envs.core.rng import Rng
from ultimata.training.config import load_train_config

RECORD = Path(__file__).with_name("shipped_bot_moves.json")
CAP = 300
"""Decisions kept per game: enough for hundreds of bot moves, small enough to store."""


SHIPPED = [name for name in sorted(GAMES) if pretrained_path(name).exists()]


def _recorded() -> dict[str, list[dict[str, Any]]]:
    return json.loads(RECORD.read_text())["games"]


def test_every_shipped_bot_has_a_record() -> None:
    assert SHIPPED and sorted(_recorded()) == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_bot_makes_the_recorded_moves(name: str) -> None:
    asked = 0
    games = _recorded()[name]
    bot = load_agent("pretrained", name, games[0]["config"])
    for game in games:
        rules = game["config"]
        assert rules == games[0]["config"], "one bot per game: the record's games share their rules"
        state = game_class(name).from_config(rules).new_initial_state(Rng(game["seed"]))
        seats = set(game["bot_seats"])
        for seat in seats:
            bot.reset(seat, seed=game["seed"])
        for step, recorded in enumerate(game["actions"]):
            seat = state.current_player
            if seat in seats:
                move = bot.act(state.observation(seat), state.legal_action_mask(), state)
                assert move == recorded, f"{name}, seed {game['seed']}: decision {step} was {recorded}, now {move}"
                asked += 1
            state.apply(recorded)
    assert asked >= 100, f"{name}: the record gives the bot too few decisions to compare"


def _play(name: str, rules: dict[str, Any], seed: int, bot_seats: list[int]) -> list[int]:
    game = game_class(name).from_config(rules)
    state = game.new_initial_state(Rng(seed))
    bot = load_agent("pretrained", name, rules)
    other = RandomAgent(seed)
    for seat in bot_seats:
        bot.reset(seat, seed=seed)
    actions: list[int] = []
    while not state.is_terminal() and len(actions) < CAP:
        seat = state.current_player
        agent = bot if seat in bot_seats else other
        action = agent.act(state.observation(seat), state.legal_action_mask(), state)
        state.apply(action)
        actions.append(int(action))
    return actions


def record() -> Path:
    """Play and store each shipped bot's games (see the module's docstring for when to run this)."""
    games: dict[str, list[dict[str, Any]]] = {}
    for name in SHIPPED:
        rules = load_train_config(name).rules
        players = game_class(name).from_config(rules).num_players
        games[name] = [
            {"seed": seed, "bot_seats": seats, "config": rules, "actions": _play(name, rules, seed, seats)}
            for seed, seats in ((11, [0]), (12, list(range(players))), (13, [players - 1]), (14, list(range(players))))
        ]
    RECORD.write_text(json.dumps({"cap": CAP, "games": games}, separators=(",", ":")) + "\n")
    return RECORD


if __name__ == "__main__":
    sys.exit(print("wrote", record()))
