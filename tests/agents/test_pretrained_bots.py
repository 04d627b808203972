"""Shipped bots load for their game's current version and rules, and play legal moves. They are data-only
checkpoints named by the game's base name: a sidecar describing the network, a zip without training state."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch

from tests.agents.checkpoint_files import copy_checkpoint, edit_sidecar
from ultimata.agents import load_agent
from ultimata.agents.checkpoint import FORMAT, SLIM_EXCLUDED, load_policy, read_meta, verified_bytes
from ultimata.agents.policy_agent import action_logits
from ultimata.agents.policy_net import infer_spec, parse_spec, read_weights
from ultimata.agents.specs import pretrained_path
from ultimata.arena import spec_entries
from ultimata.envs import GAMES, game_class
from ultimata.envs.core.errors import CheckpointError
from ultimata.envs.core.registry import game_base_name
from ultimata.training.arena import run_arena
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
    with pytest.raises(CheckpointError, match="no pretrained bot ships for ultimatum_cards_v3"):
        load_agent("pretrained", "ultimatum_cards_v3")


FILES = sorted(Path(pretrained_path(SHIPPED[0])).parent.glob("*.zip"))


def test_every_shipped_file_is_named_by_a_games_base_name():
    bases = {game_base_name(name) for name in GAMES}
    assert FILES and {f.stem for f in FILES} <= bases
    assert {pretrained_path(name).name for name in SHIPPED} == {f.name for f in FILES}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_shipped_sidecar_describes_the_network_its_weights_show(path):
    data, meta = verified_bytes(path)
    assert json.loads(path.with_suffix(".json").read_text())["format"] == FORMAT
    name = next(n for n in SHIPPED if pretrained_path(n) == path)
    game = game_class(name)
    described = parse_spec(meta.policy, str(path)).observation  # bounds are not in the weights: the shipped
    bounds = (-np.inf if described.low is None else described.low,  # bots predate 0.2.0's finite bounds, and
              np.inf if described.high is None else described.high)  # play the same with them
    inferred = infer_spec(read_weights(data, str(path)), meta.observation_shape, meta.num_actions,
                          game.observation_planes, np.dtype(game.observation_dtype).name, bounds, str(path))
    assert parse_spec(meta.policy, str(path)) == inferred


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_shipped_zip_holds_no_training_state(path):
    with zipfile.ZipFile(path) as archive:
        assert not set(SLIM_EXCLUDED) & set(json.loads(archive.read("data")))
        optimizer = torch.load(io.BytesIO(archive.read("policy.optimizer.pth")), weights_only=True)
        assert optimizer["state"] == {}, "a fresh optimizer: SB3's loader needs the entry, nothing in it is trained"
        assert all(item.compress_type == zipfile.ZIP_DEFLATED for item in archive.infolist())


@pytest.mark.parametrize("name", SHIPPED)
def test_the_data_only_bot_computes_what_sb3_computes_from_the_same_file(name):
    """SB3 unpickles our own shipped file here (a test, not a path anything plays through)."""
    from sb3_contrib import MaskablePPO

    path = pretrained_path(name)
    rules = load_train_config(name).rules
    policy, meta = load_policy(path, game_class(name).from_config(rules))
    trusted = MaskablePPO.load(io.BytesIO(path.read_bytes()), device="cpu").policy
    observations = np.random.default_rng(1).random((64, meta.observation_shape[0])).astype(np.float32)
    assert np.array_equal(action_logits(policy, observations), action_logits(trusted, observations))


def test_pretrained_plays_only_a_version_the_sidecar_names(monkeypatch, tmp_path):
    import ultimata.agents.specs as specs

    path = copy_checkpoint(pretrained_path("ultimade_v2"), tmp_path, "ultimade")  # trained on v1, fits v2
    monkeypatch.setattr(specs, "pretrained_path", lambda name: path)
    load_agent("pretrained", "ultimade_v2", load_train_config("ultimade_v2").rules)
    edit_sidecar(path, also_fits=[])
    with pytest.raises(CheckpointError, match="ultimade.zip plays ultimade_v1, not ultimade_v2: "
                                              "retrain it, or .* list it in also_fits in ultimade.json"):
        load_agent("pretrained", "ultimade_v2")
