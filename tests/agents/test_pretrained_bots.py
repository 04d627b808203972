"""Shipped bots load for their game's current version and rules, and play legal moves."""

from __future__ import annotations

import pytest

from ultimata.agents import load_agent
from ultimata.agents.checkpoint import read_meta
from ultimata.agents.specs import pretrained_path
from ultimata.envs import GAMES
from ultimata.envs.core.errors import CheckpointError
from ultimata.training.arena import run_arena, spec_entries
from ultimata.training.config import load_train_config

SHIPPED = [name for name in sorted(GAMES) if pretrained_path(name).exists()]


@pytest.mark.parametrize("name", SHIPPED)
def test_pretrained_bot_loads_and_plays(name):
    path = pretrained_path(name)
    assert path.stat().st_size < 1_000_000, "shipped bots stay small"
    meta = read_meta(path)
    assert meta.steps > 0 and meta.rating, "the sidecar records training steps and measured strength"
    rules = load_train_config(name).rules
    game, entries = spec_entries(["pretrained", "random"], name, rules)
    result = run_arena(game, entries, games=game.num_players)
    assert result.games == game.num_players
    assert all(a.illegal_moves == 0 for a in result.agents), "the bot played only legal moves"


def _claimed_versions() -> list[tuple[str, str]]:
    """(shipped bot's file name, registered version it claims): the one it was trained for and its also_fits."""
    pairs = []
    for name in SHIPPED:
        meta = read_meta(pretrained_path(name))
        pairs += [(name, v) for v in sorted({meta.game, *(meta.also_fits or [])}) if v in GAMES]
    return pairs


@pytest.mark.parametrize(("name", "version"), _claimed_versions())
def test_a_shipped_bot_plays_legal_games_in_every_registered_version_it_claims(name, version):
    bot = str(pretrained_path(name))
    game, entries = spec_entries([bot, "random"], version, load_train_config(version).rules)
    result = run_arena(game, entries, games=2 * game.num_players)
    assert result.games == 2 * game.num_players
    assert result.agents[0].illegal_moves == 0


def test_every_shipped_bot_claims_its_own_registered_version():
    claimed = {(n, v) for n, v in _claimed_versions()}
    assert all((name, name) in claimed for name in SHIPPED)


def test_pretrained_for_a_game_without_one_is_a_clear_error(monkeypatch, tmp_path):
    import ultimata.agents.specs as specs

    monkeypatch.setattr(specs, "pretrained_path", lambda name: tmp_path / f"{name}.zip")
    with pytest.raises(CheckpointError, match="no pretrained bot ships for ultimatum_cards_v2"):
        load_agent("pretrained", "ultimatum_cards_v2")
