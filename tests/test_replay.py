"""Replays: saved and loaded exactly; malformed files are refused with a clear error."""

import io
import json
import random

import pytest

from ultimata.envs import ReplayError
from ultimata.envs.core.replay import Replay, record


def test_saved_replay_reproduces_the_game(tmp_path) -> None:
    replay = record(7, "ultimatum_cards_v3", {"num_players": 3}, [])
    state = replay.final()
    actions = []
    pick = random.Random(7)
    while not state.is_terminal():
        action = pick.choice(state.legal_actions())
        state.apply(action)
        actions.append(action)
    full = record(7, "ultimatum_cards_v3", {"num_players": 3}, actions)
    full.save(tmp_path / "game.json")
    loaded = Replay.load(tmp_path / "game.json")
    assert loaded.final().state_dict() == state.state_dict()


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json", "cannot read"),
        ("[]", "not an ultimata replay"),
        (json.dumps({"format": "ultimata-replay/1", "game": "ultimatum_cards_v3"}), "version"),
        (
            json.dumps({"format": "ultimata-replay/1", "game": "ultimatum_cards_v3", "version": 0,
                        "config": {}, "seed": 1, "actions": ["x"]}),
            "list of integers",
        ),
        (
            json.dumps({"format": "ultimata-replay/1", "game": "nope_v0", "version": 0,
                        "config": {}, "seed": 1, "actions": []}),
            "unknown game",
        ),
        (
            json.dumps({"format": "ultimata-replay/1", "game": "ultimatum_cards_v3", "version": 3,
                        "config": {"bogus": 1}, "seed": 1, "actions": []}),
            "bogus",
        ),
        (
            json.dumps({"format": "ultimata-replay/1", "game": "ultimatum_cards_v3", "version": 3,
                        "config": {}, "seed": 1, "actions": [9999]}),
            "action #0 does not apply",
        ),
        (
            json.dumps({"format": "ultimata-replay/1", "game": "ultimatum_cards_v3", "version": 3,
                        "config": {}, "seed": 1, "actions": [], "returns": [1, "a"]}),
            "'returns' must be a list of numbers",
        ),
        (
            json.dumps({"format": "ultimata-replay/1", "game": "ultimatum_cards_v3", "version": 3,
                        "config": {}, "seed": -5, "actions": []}),
            r"'seed' must be an integer 0\.\.",
        ),
        (
            json.dumps({"format": "ultimata-replay/1", "game": "ultimatum_cards_v3", "version": 3,
                        "config": {}, "seed": 1, "actions": [], "players": 3}),
            "'players' must be a list",
        ),
        (
            json.dumps({"format": "ultimata-replay/1", "game": "ultimatum_cards_v3", "version": 3,
                        "config": {}, "seed": 1, "actions": [], "final_state": [1]}),
            "'final_state' must be a state",
        ),
    ],
)
def test_malformed_replay_is_refused(tmp_path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ReplayError, match=message):
        Replay.load(path).final()


def test_replay_with_a_different_final_state_is_refused(tmp_path) -> None:
    replay = record(3, "ultimatum_cards_v3", {}, [])
    replay.final_state = {"tampered": True}
    with pytest.raises(ReplayError, match="final state"):
        replay.final()


def test_saved_files_follow_the_umask_not_mkstemps_private_mode(tmp_path) -> None:
    import os
    import stat

    from ultimata.envs.core.io import atomic_write_json

    old = os.umask(0o022)
    try:
        atomic_write_json(tmp_path / "x.json", {"a": 1})
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "x.json").stat().st_mode) == 0o644


def test_arena_replays_record_the_result_and_the_final_state(tmp_path) -> None:
    from ultimata.arena import spec_entries
    from ultimata.training.arena import run_arena

    game, entries = spec_entries(["heuristic", "random"], "ultimatum_cards_v3")
    run_arena(game, entries, 4, replay_dir=tmp_path)
    for path in sorted(tmp_path.glob("*.json")):
        replay = Replay.load(path)
        final = replay.final()  # the stored final state is the one the moves reach
        assert replay.final_state is not None and replay.returns == final.returns()
        assert replay.result.startswith(("won by", "draw")), path.name


def test_play_save_records_the_result_and_the_final_state(tmp_path) -> None:
    from rich.console import Console

    from ultimata.play import play_session

    returns = play_session("ultimatum_cards_v3", "random", seed=3, read=lambda prompt: "1",
                           console=Console(file=io.StringIO()), save=tmp_path / "game.json")
    replay = Replay.load(tmp_path / "game.json")
    assert replay.returns == returns and replay.final().state_dict() == replay.final_state
    assert replay.result.startswith(("won by", "draw"))


def test_a_game_left_early_is_saved_as_unfinished(tmp_path) -> None:
    from rich.console import Console

    from ultimata.play import play_session

    answers = iter(["1", "quit"])
    play_session("ultimatum_cards_v3", "random", seed=3, read=lambda prompt: next(answers),
                 console=Console(file=io.StringIO()), save=tmp_path / "game.json")
    replay = Replay.load(tmp_path / "game.json")
    assert replay.returns is None and replay.final_state is not None and replay.result == "unfinished"
    replay.final()


def test_a_replay_saved_before_results_were_recorded_says_so() -> None:
    old = Replay.from_dict({"format": "ultimata-replay/1", "game": "ultimatum_cards_v3", "version": 3, "config": {},
                            "seed": 1, "actions": []})
    assert old.result == "not recorded"
