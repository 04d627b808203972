"""`ultimata.arena.run`: the CLI's figures from Python, agents from the user's code, illegal moves
lose, and one-spec tables do not replay one game N times (issues 31 and 32)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from tests.agents.own_agents import FirstLegal
from ultimata import arena
from ultimata.cli import app
from ultimata.envs import env_name, game_class
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.replay import Replay
from ultimata.training import arena as arena_module

CARDS, ULTIMADE = env_name("ultimatum_cards"), env_name("ultimade")
SHORT = {"points_to_win": 1, "max_cycles": 30}
OWN = Path(__file__).parent / "agents" / "own_agents.py"


def test_run_and_the_cli_agree_on_one_seed():
    cli = CliRunner().invoke(app, ["arena", CARDS, "heuristic", "random", "--games", "8", "--seed", "5", "--json"])
    assert cli.exit_code == 0, cli.output
    assert json.loads(cli.output) == arena.run(CARDS, ["heuristic", "random"], games=8, seed=5).to_dict()


def test_the_result_carries_every_figure_the_table_shows():
    result = arena.run(CARDS, ["heuristic", "random"], games=8, seed=1)
    assert isinstance(result, arena.ArenaResult) and isinstance(result.agents[0], arena.EntryResult)
    data = result.to_dict()
    for entry in data["agents"]:
        assert {"win_rate", "ci95", "x_fair_share", "rating", "illegal_moves"} <= entry.keys()
    markdown = result.to_markdown()
    assert "| agent | seats | win rate | 95% CI | ×fair | reward | openskill μ±σ | ordinal |" in markdown
    heuristic = result.agents[0]
    assert f"| heuristic | 1 | {heuristic.win_rate:.1%} | {heuristic.ci95[0]:.1%}–{heuristic.ci95[1]:.1%} |" in markdown
    assert "illegal" not in markdown and result.caption in markdown


def test_own_agents_enter_as_specs_classes_factories_and_named_pairs():
    agents = [f"{OWN}:FirstLegal:last=true", FirstLegal, "tests.agents.own_agents:make_agent",
              ("mine", lambda: FirstLegal(last=True))]
    result = arena.run(CARDS, agents, games=8)
    assert [a.spec for a in result.agents] == [f"{OWN}:FirstLegal:last=true", "tests.agents.own_agents:FirstLegal",
                                               "tests.agents.own_agents:make_agent", "mine"]
    assert sum(a.win_rate * a.seat_games for a in result.agents) == pytest.approx(8)


def test_an_agent_returning_an_illegal_move_loses_that_game_and_the_arena_goes_on(tmp_path):
    conquest = env_name("conquest_of_the_world")
    others = game_class(conquest).from_config({}).num_players - 1
    result = arena.run(conquest, ["tests.agents.own_agents:Cheater", "random"], games=others + 1, replays=tmp_path)
    cheater, rand = result.agents
    assert result.games == others + 1 and len(result.replays) == result.games
    assert cheater.illegal_moves == result.games and rand.illegal_moves == 0
    assert cheater.win_rate == 0 and cheater.mean_reward == -1.0
    assert rand.win_rate == pytest.approx(1 / others), "the others share the win"
    assert rand.mean_reward == pytest.approx(1 / others)
    assert cheater.rating["mu"] < rand.rating["mu"]
    saved = Replay.load(result.replays[0])
    assert saved.returns == [-1.0] + [1 / others] * others and saved.result == "won by " + ", ".join(
        f"player_{p}" for p in range(1, others + 1)), "a forfeited game's replay records the forfeit, not 'unfinished'"
    first = f"returned an illegal action in {result.games} game(s), each lost; first: game 0, seat 0: action"
    assert first in result.notes[0]
    assert "illegal moves" in result.columns() and result.rows()[0][-1] == str(result.games)
    cli = CliRunner().invoke(app, ["arena", conquest, "tests.agents.own_agents:Cheater", "random", "--games", "3"])
    assert cli.exit_code == 0 and "illegal moves" in cli.output
    assert "note: tests.agents.own_agents:Cheater" in cli.output


def test_a_non_integer_action_is_an_illegal_move():
    result = arena.run(ULTIMADE, ["tests.agents.own_agents:ReturnsFloat", "random"], games=2, rules=SHORT)
    assert result.agents[0].illegal_moves == 2 and "action must be an integer" in result.notes[0]


def test_an_action_as_sb3_predict_returns_it_is_a_move():
    class Predicts(FirstLegal):
        def act(self, observation, action_mask, state=None):
            return np.array(super().act(observation, action_mask, state))

    result = arena.run(ULTIMADE, [Predicts, "random"], games=2, rules=SHORT)
    assert result.agents[0].illegal_moves == 0 and result.notes == []


def test_a_table_of_one_spec_deals_every_game_afresh(tmp_path):
    """Rotating seats among copies of one deterministic bot on one deal replayed the same game n times,
    and the interval counted them as n independent games."""
    result = arena.run(CARDS, ["heuristic"], games=8, replays=tmp_path)
    seeds = [json.loads(Path(path).read_text())["seed"] for path in result.replays]
    assert len(set(seeds)) == 8
    assert result.distinct_games == 8 and result.notes == []


def test_games_that_repeat_move_for_move_are_reported(monkeypatch):
    monkeypatch.setattr(arena_module, "derived_seed", lambda *keys: 7)  # a game whose chance never varies
    result = arena.run(CARDS, ["heuristic"], games=8)
    assert result.distinct_games == 1
    assert "only 1 of 8 games differ" in result.notes[0] and "too narrow" in result.notes[0]
    cli = CliRunner().invoke(app, ["arena", CARDS, "heuristic", "--games", "4"])
    assert "note: only 1 of 4 games differ" in cli.output


def test_bad_arguments_are_refused_before_any_game():
    with pytest.raises(ConfigError, match="games must be at least 1"):
        arena.run(CARDS, ["random"], games=0)
    with pytest.raises(ConfigError, match="which is not an agent"):
        arena.run(CARDS, [lambda: object(), "random"], games=4)
    with pytest.raises(ConfigError, match="neither a spec string nor a class or factory"):
        arena.run(CARDS, [3, "random"], games=4)
