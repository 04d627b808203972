"""`imitation.critic_steps`: after the warm start, PPO first trains the value net alone, then the policy too."""

from __future__ import annotations

import io

import pytest
import torch
from sb3_contrib import MaskablePPO

from tests.training.conftest import tiny_overrides
from ultimata.agents.checkpoint import verified_bytes
from ultimata.training import trainer


def _policy_after(tmp_path, monkeypatch, critic_steps: int) -> tuple[dict, dict]:
    """(the policy's weights right after the warm start, its weights at the end of a 256-step run)."""
    warm: dict[str, torch.Tensor] = {}
    imitate_then_record = trainer.warm_start

    def recording(cfg, model, game, console):
        imitate_then_record(cfg, model, game, console)
        warm.update({k: v.clone() for k, v in model.policy.state_dict().items()})

    monkeypatch.setattr(trainer, "warm_start", recording)
    overrides = tiny_overrides(imitation={"samples": 300, "epochs": 1, "critic_steps": critic_steps},
                               eval={"every": 10_000, "games": 4, "final_games": 4})
    cfg, progress = trainer.prepare_run("ultimatum_cards_v3", tmp_path, overrides=overrides)
    outcome = trainer.train(cfg, tmp_path, progress, show_bar=False)
    data, _ = verified_bytes(outcome.final)
    return warm, MaskablePPO.load(io.BytesIO(data), device="cpu").policy.state_dict()


def _changed(before: dict, after: dict, prefix: str) -> bool:
    keys = [k for k in before if k.startswith(prefix)]
    assert keys, prefix
    return any(not torch.equal(before[k], after[k]) for k in keys)


def test_policy_stays_frozen_while_the_critic_learns(tmp_path, monkeypatch):
    warm, final = _policy_after(tmp_path, monkeypatch, critic_steps=10_000)
    assert not _changed(warm, final, "action_net.")
    assert not _changed(warm, final, "mlp_extractor.policy_net.")
    assert _changed(warm, final, "value_net.")


@pytest.mark.parametrize("critic_steps", [0, 128])
def test_policy_learns_once_the_critic_steps_are_spent(tmp_path, monkeypatch, critic_steps):
    warm, final = _policy_after(tmp_path, monkeypatch, critic_steps)
    assert _changed(warm, final, "action_net.")
    assert _changed(warm, final, "mlp_extractor.policy_net.")
