"""The scripts in examples/ run, on a tiny budget, so they never go stale (issue 32)."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

from tests.training.rllib.conftest import ray_session  # noqa: F401 (a fixture: one Ray for every test)

EXAMPLES = Path(__file__).parents[1] / "examples"
TABLE = "| agent | seats | win rate | 95% CI | ×fair | reward | openskill μ±σ | ordinal |"
RUNS = {
    "own_agent_arena.py": "own_agent_arena.py:LowestFirst:greed=0.9 | 1 |",
    "sb3_single_agent.py": "| ppo | 1 |",
    "cleanrl_masked_ppo.py": "| masked ppo | 1 |",
    "batch_masked_ppo.py": "| masked ppo | 1 |",
    "rllib_train.py": "final.zip | 1 |",
    "rllib_pettingzoo.py": "| rllib module | 1 |",
}
"""Each example and a row its arena table must print."""


ARRAY_EXAMPLE = "array_masked_ppo.py"
"""The array backend's loop: it checks its bot on the tensors, without the arena."""


def test_every_example_is_run_here():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted([*RUNS, ARRAY_EXAMPLE])


def _run(name: str, monkeypatch, capsys) -> str:
    monkeypatch.setattr(sys, "argv", [name, "--tiny"])
    runpy.run_path(str(EXAMPLES / name), run_name="__main__")
    return capsys.readouterr().out


@pytest.mark.parametrize("name", [n for n in RUNS if not n.startswith("rllib")])
def test_example_runs(name, monkeypatch, capsys):
    out = _run(name, monkeypatch, capsys)
    assert TABLE in out and RUNS[name] in out and "4 games" in out


def test_array_example_runs(monkeypatch, capsys):
    out = _run(ARRAY_EXAMPLE, monkeypatch, capsys)
    assert re.search(r"iteration 2: \d+ decisions, mean return [+-]\d\.\d{3}", out)
    assert re.search(r"against random, 4 games: won \d+\.\d% \(fair share 25\.0%\)", out)


def test_rllib_example_runs(ray_session, monkeypatch, capsys):  # noqa: F811
    out = _run("rllib_train.py", monkeypatch, capsys)
    assert re.search(r"trained [\d,]+ steps; checkpoint .*final\.zip", out)
    assert TABLE in out and RUNS["rllib_train.py"] in out


def test_rllib_pettingzoo_example_runs(ray_session, monkeypatch, capsys):  # noqa: F811
    """RLlib's own PettingZooEnv and ActionMaskingTorchRLModule, through `envs.rllib_observations`."""
    out = _run("rllib_pettingzoo.py", monkeypatch, capsys)
    assert re.search(r"trained [\d,]+ env steps on RLlib's PettingZooEnv with ActionMaskingTorchRLModule", out)
    assert TABLE in out and RUNS["rllib_pettingzoo.py"] in out and "4 games" in out
