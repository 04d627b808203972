"""The arena rotates seats so every agent holds every seat equally, and prints clean JSON."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ultimata.arena import spec_entries
from ultimata.cli import app
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import game_class
from ultimata.training.arena import balanced_games, lineup, run_arena, tables, wilson
from ultimata.training.imitation import teacher_samples

runner = CliRunner()


def test_lineup_fills_the_remaining_seats_with_the_last_agent():
    assert lineup(2, 4) == [0, 1, 1, 1]
    assert lineup(4, 4) == [0, 1, 2, 3]
    with pytest.raises(ConfigError, match="only 4 seats"):
        lineup(5, 4)


def test_games_round_up_to_whole_rotations():
    assert balanced_games(10, 4) == 12
    assert balanced_games(8, 4) == 8


def test_every_agent_plays_every_seat_equally():
    game, entries = spec_entries(["heuristic", "random", "random", "heuristic"], "ultimatum_cards_v3")
    result = run_arena(game, entries, games=8)
    assert result.games == 8
    for agent in result.agents:
        assert agent.seat_counts == [2, 2, 2, 2]
    assert sum(a.win_rate * a.seat_games for a in result.agents) == pytest.approx(8)


def test_filler_seats_share_one_entry():
    game, entries = spec_entries(["heuristic", "random"], "ultimatum_cards_v3")
    result = run_arena(game, entries, games=4)
    heuristic, rand = result.agents
    assert heuristic.seat_counts == [1, 1, 1, 1] and rand.seat_counts == [3, 3, 3, 3]
    assert heuristic.seats_per_game == 1 and rand.seats_per_game == 3
    assert heuristic.seat_games == 4 and rand.seat_games == 12


def test_more_agents_than_seats_play_every_table_of_different_agents():
    assert tables(3, 2) == [[0, 1], [0, 2], [1, 2]]
    assert tables(2, 4) == [[0, 1, 1, 1]]
    assert balanced_games(7, 2, n_tables=3) == 12, "3 per table, rounded up to 4: whole rotations at each table"
    game, entries = spec_entries(["heuristic", "random", "mcts:sims=5,time=1"], "ultimade_v2",
                                 {"points_to_win": 1, "max_cycles": 40})
    result = run_arena(game, entries, games=6)
    assert result.games == 6
    for agent in result.agents:
        assert agent.seats_per_game == 1 and agent.seat_games == 4, "two tables of two games each"
        assert agent.seat_counts == [2, 2]
    assert sum(a.win_rate * a.seat_games for a in result.agents) == pytest.approx(6)


def test_wilson_interval_contains_the_rate():
    low, high = wilson(30, 100)
    assert low < 0.3 < high and low >= 0 and high <= 1


def test_arena_json_lists_agents_in_the_order_given(tmp_path):
    result = runner.invoke(app, ["arena", "ultimatum_cards_v3", "random", "heuristic", "--games", "6", "--seed",
                                 "4", "--json", "--replays", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 8 and data["seed"] == 4
    assert [a["spec"] for a in data["agents"]] == ["random", "heuristic"]
    for agent in data["agents"]:
        assert 0 <= agent["win_rate"] <= 1 and len(agent["ci95"]) == 2
        assert {"mean_reward", "rating", "seat_counts", "x_fair_share"} <= agent.keys()
    assert len(list(tmp_path.glob("game_*.json"))) == 8
    replay = runner.invoke(app, ["replay", str(tmp_path / "game_00000.json"), "--no-pause", "--viewer", "0"])
    assert replay.exit_code == 0 and "final returns" in replay.output


def test_arena_table_and_bad_spec():
    result = runner.invoke(app, ["arena", "ultimatum_cards_v3", "heuristic", "random", "--games", "4"])
    assert result.exit_code == 0 and "win rate" in result.output
    bad = runner.invoke(app, ["arena", "ultimatum_cards_v3", "alphazero", "random"])
    assert bad.exit_code == 2
    assert "unknown agent spec 'alphazero'" in bad.output and "heuristic" in bad.output


def _deals(seed: int, tmp_path) -> list[int]:
    game, entries = spec_entries(["random", "heuristic"], "ultimade_v2", {"points_to_win": 1, "max_cycles": 20})
    folder = tmp_path / str(seed)
    run_arena(game, entries, games=8, seed=seed, replay_dir=folder)
    return [json.loads((folder / f"game_{g:05d}.json").read_text())["seed"] for g in range(8)]


def test_neighbouring_arena_seeds_share_no_deal(tmp_path):
    """With `seed + block` as the deal, seed 2025 replayed seed 2024's games shifted by one block, so two
    "independent" runs pooled into one figure counted most games twice."""
    first, second = _deals(2024, tmp_path), _deals(2025, tmp_path)
    assert first[0::2] == first[1::2], "the two rotations of a block share one deal"
    assert len(set(first)) == 4 and not set(first) & set(second)


def test_neighbouring_training_seeds_imitate_different_games():
    game = game_class("ultimatum_cards_v3").from_config({})
    first, second = teacher_samples(game, 200, seed=0)[0], teacher_samples(game, 200, seed=1)[0]
    assert not {row.tobytes() for row in first} & {row.tobytes() for row in second}


def test_the_agent_loaded_to_check_a_spec_is_one_that_plays(monkeypatch):
    """Every spec was loaded once to check it and then again for each seat, so the first arena run read
    the shipped bot's checkpoint twice; now each agent loaded takes a seat."""
    import ultimata.arena as arena_module

    load, made, seated = arena_module.load_agent, [], set()

    def load_and_watch(*args, **kwargs):
        agent = load(*args, **kwargs)
        made.append(agent)
        reset = agent.reset

        def seat(s, seed=None):
            seated.add(id(agent))
            reset(s, seed)

        agent.reset = seat
        return agent

    monkeypatch.setattr(arena_module, "load_agent", load_and_watch)
    arena_module.run("ultimatum_cards_v3", ["heuristic", "random"], games=4, seed=1)
    assert made and all(id(agent) in seated for agent in made), f"{len(made) - len(seated)} loaded but never played"
