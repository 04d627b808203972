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


def test_pretrained_for_a_game_without_one_is_a_clear_error(monkeypatch, tmp_path):
    import ultimata.agents.specs as specs

    monkeypatch.setattr(specs, "pretrained_path", lambda name: tmp_path / f"{name}.zip")
    with pytest.raises(CheckpointError, match="no pretrained bot ships for ultimatum_cards_v2"):
        load_agent("pretrained", "ultimatum_cards_v2")
