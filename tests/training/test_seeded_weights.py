"""A fixed-seed run gives the same weights as the code before the one-trainer change (issue 51).

The old trainer cannot run here any more, so its result is a recorded fixture:
fixtures/seeded_run_weights.json holds the sha256 of the final weights that the pre-change code (commit
f3bd873, the batched sampler with the lean update) produced for a tiny run of the card game's default
config, in-process and with one sampler worker. The run plays the rules of that commit: only the card's
holders were asked in a reaction window then, which the game keeps as `reaction_windows: revealing` (the
default became `always` after it). A change to the loop's order, its seeding or its update changes the hash.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from rich.console import Console

from ultimata.agents.checkpoint import load_policy
from ultimata.envs.core.registry import game_class
from ultimata.training.trainer import prepare_run, train

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "seeded_run_weights.json").read_text())


def weights_sha256(policy) -> str:
    digest = hashlib.sha256()
    for name, tensor in sorted(policy.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().cpu().contiguous().numpy().tobytes())
    return digest.hexdigest()


@pytest.mark.parametrize("workers", ["0", "1"])
def test_a_seeded_run_reproduces_the_recorded_weights(tmp_path: Path, workers: str) -> None:
    overrides = json.loads(json.dumps(FIXTURE["overrides"]))
    overrides["sampler"]["workers"] = int(workers)
    cfg, progress = prepare_run(FIXTURE["game"], tmp_path / "run", overrides=overrides)
    outcome = train(cfg, tmp_path / "run", progress, console=Console(quiet=True), show_bar=False)
    policy, _ = load_policy(outcome.final, game_class(FIXTURE["game"]).from_config(cfg.rules))
    assert weights_sha256(policy) == FIXTURE["sha256_by_workers"][workers]
