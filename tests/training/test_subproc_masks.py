"""`action_masks()` lives on the env itself, so MaskablePPO works over SubprocVecEnv too."""

from __future__ import annotations

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks

from ultimata.training.config import load_train_config
from ultimata.training.trainer import build_vec_env


def test_subprocess_envs_expose_action_masks_and_train():
    cfg = load_train_config("ultimatum_cards_v3", overrides={
        "vec_env": {"n_envs": 2, "kind": "subproc"}, "sampler": {"kind": "vec_env"}, "pool": {"weights": {"mirror": 0}},
        "ppo": {"n_steps": 32, "batch_size": 64}})
    venv = build_vec_env(cfg)
    try:
        venv.reset()
        masks = get_action_masks(venv)
        assert masks.shape == (2, venv.action_space.n) and masks.any(axis=1).all()
        model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, policy_kwargs={"net_arch": [8]},
                            device="cpu")
        model.learn(64)
        assert model.num_timesteps >= 64
        venv.env_method("add_snapshot", "run/checkpoints/step_1.zip")  # reaches every worker's pool
        assert [pool.snapshots for pool in venv.get_attr("pool")] == [["run/checkpoints/step_1.zip"]] * 2
    finally:
        venv.close()
