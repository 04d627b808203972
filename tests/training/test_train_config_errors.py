"""Bad training configs are refused up front, naming the key and what is allowed."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ultimata.cli import app
from ultimata.envs.core.errors import ConfigError
from ultimata.training.config import ConfigWarning, load_train_config


def write(tmp_path, text: str):
    path = tmp_path / "cfg.yaml"
    path.write_text(text)
    return path


def test_shipped_config_and_quick_preset_load():
    cfg = load_train_config("ultimatum_cards_v3")
    quick = load_train_config("ultimatum_cards_v3", preset="quick")
    assert cfg.game == "ultimatum_cards_v3" and quick.total_timesteps < cfg.total_timesteps
    named = {"n_epochs", "batch_size", "learning_rate"}  # what the quick preset's ppo section names
    assert quick.ppo.model_dump(exclude=named) == cfg.ppo.model_dump(exclude=named)  # the rest stays
    assert quick.ppo.model_dump(include=named) != cfg.ppo.model_dump(include=named)


def test_unknown_top_level_key_lists_the_allowed_keys(tmp_path):
    with pytest.raises(ConfigError, match="unknown key 'learning_rate'.*allowed keys: game, rules, seed"):
        load_train_config("ultimatum_cards_v3", write(tmp_path, "learning_rate: 0.1\n"))


def test_unknown_key_in_a_section_lists_that_sections_keys(tmp_path):
    with pytest.raises(ConfigError, match="unknown key 'epochs' in 'ppo'.*allowed keys: learning_rate, batch_size"):
        load_train_config("ultimatum_cards_v3", write(tmp_path, "ppo: {epochs: 3}\n"))


def test_bad_values_and_rules_are_refused(tmp_path):
    with pytest.raises(ConfigError, match="invalid value for 'kind'"):
        load_train_config("ultimatum_cards_v3", write(tmp_path, "sampler: {kind: threads}\n"))
    with pytest.raises(ConfigError, match="batch_size 4096 exceeds one rollout"):
        load_train_config("ultimatum_cards_v3", write(tmp_path, "ppo: {batch_size: 4096}\n"))
    with pytest.raises(ConfigError, match="unknown key 'players'"):
        load_train_config("ultimatum_cards_v3", write(tmp_path, "rules: {players: 5}\n"))
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_train_config("ultimatum_cards_v3", write(tmp_path, "ppo: [unclosed\n"))


def test_unknown_preset_names_the_presets():
    with pytest.raises(ConfigError, match="unknown preset 'fast'.*presets: quick"):
        load_train_config("ultimatum_cards_v3", preset="fast")


def test_cli_reports_a_bad_config_in_one_line(tmp_path):
    result = CliRunner().invoke(app, ["train", "ultimatum_cards_v3", "--config", str(write(tmp_path, "n_env: 2\n")),
                                      "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert "unknown key 'n_env'" in result.output and "Traceback" not in result.output


def test_imitation_needs_a_scripted_bot(tmp_path, monkeypatch):
    from ultimata.training import model, trainer

    monkeypatch.setattr(model, "has_scripted_bot", lambda name: False)
    cfg = load_train_config("ultimatum_cards_v3", overrides={"sampler": {"rollout": 16}, "ppo": {"batch_size": 16}})
    with pytest.raises(ConfigError, match="imitation needs a scripted bot"):
        trainer.train(cfg, tmp_path, trainer.RunProgress(game="ultimatum_cards_v3"), show_bar=False)


def test_a_config_in_the_old_layout_loads_and_names_the_new_keys(tmp_path):
    old = write(tmp_path, "n_envs: 4\nvec_env: subproc\nppo: {n_steps: 128, batch_size: 256}\n")
    with pytest.warns(ConfigWarning) as said:
        cfg = load_train_config("ultimatum_cards_v3", old)
    words = " ".join(str(w.message) for w in said)
    assert "'n_envs'" in words and "'sampler.rollout'" in words and "'vec_env'" in words
    assert cfg.sampler.rollout == 128 * 4  # the update keeps the size it had


@pytest.mark.parametrize("retired, key", [
    ("sampler: {kind: vec_env}\nvec_env: {n_envs: 8, kind: dummy}\n", "sampler.kind: vec_env"),
    ("ppo: {update: sb3}\n", "ppo.update"),
    ("ppo: {n_steps: 256}\n", "ppo.n_steps"),
])
def test_a_retired_training_path_loads_with_one_warning_naming_its_replacement(tmp_path, retired, key):
    with pytest.warns(ConfigWarning) as said:
        cfg = load_train_config("ultimatum_cards_v3", write(tmp_path, retired))
    assert len(said) == 1
    message = str(said[0].message)
    assert f"'{key}' by " in message and ("batched" in message or "update" in message or "rollout" in message)
    assert cfg.sampler.kind == "batched"


def test_a_config_in_the_new_layout_loads_without_a_warning(tmp_path):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", ConfigWarning)
        for game in ("ultimatum_cards_v3", "ultra_war_v5"):
            load_train_config(game)
