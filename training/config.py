"""Training settings per game: the training keys of `configs/<game>.yaml` (the game's one settings file,
configs/__init__.py, whose `difficulty`, `hard` and `mcts` keys other readers check), validated by pydantic
with clear errors. `--config FILE` gives a file of training keys instead.

A file holds the rule variant (`rules`, checked by the game's own config model), PPO
hyperparameters, the opponent pool, checkpoint and evaluation cadence, the sampler, and named `presets`
(e.g. `quick`) that override any of those keys. Keys of retired training paths (`sampler.kind: vec_env`,
its `vec_env` section, `ppo.update`, `ppo.n_steps`) still load, with one warning naming what replaced them.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ultimata.agents.base import game_base_name
from ultimata.envs.core.config import validate_config
from ultimata.envs.core.errors import ConfigError, UltimataError


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PPOConfig(_Strict):
    learning_rate: float = Field(3e-4, gt=0)
    batch_size: int = Field(512, ge=8)
    n_epochs: int = Field(4, ge=1)
    gamma: float = Field(0.995, gt=0, le=1)
    gae_lambda: float = Field(0.95, ge=0, le=1)
    clip_range: float = Field(0.2, gt=0)
    ent_coef: float = Field(0.01, ge=0)
    vf_coef: float = Field(0.5, ge=0)
    max_grad_norm: float = Field(0.5, gt=0)
    net_arch: list[int] = Field(default_factory=lambda: [128, 128])
    """Hidden layers of the policy and of the value net (separate nets of this shape)."""
    features: Literal["flat", "planes"] = "flat"
    """What feeds those layers: the flat observation as is, or (`planes`, for games that declare
    `observation_planes`) a small conv net over the board planes plus the scalars (agents/features.py)."""
    conv_channels: list[int] = Field(default_factory=lambda: [32, 32])
    """With features: planes, the 3x3 conv layers (padding 1, ReLU), one entry per layer."""
    conv_out_channels: int = Field(8, ge=0)
    """With features: planes, a 1x1 conv down to this many channels before flattening (0: none); the
    flattened size times the first hidden layer sets most of the checkpoint's size."""
    precision: Literal["float32", "bfloat16"] = "float32"
    """The update's matrix products: float32, or bfloat16 under autocast (weights, optimizer and loss
    stay float32), about twice as fast for convolutional nets on CPUs with AVX-512 bf16 and on GPUs."""
    conv_scalars: Literal["broadcast", "bias"] = "broadcast"
    """With features: planes, how the scalars after the planes reach the first conv layer: stacked as
    constant planes (`broadcast`), or as a per-channel bias from a linear map (`bias`: the same
    information but the borders' partial sums, and far cheaper when there are many scalars)."""

    @field_validator("conv_channels")
    @classmethod
    def _channels_positive(cls, channels: list[int]) -> list[int]:
        if any(c < 1 for c in channels):
            raise ValueError("conv_channels must be positive channel counts")
        return channels


class PoolConfig(_Strict):
    weights: dict[str, float] = Field(default_factory=lambda: {"snapshots": 0.5, "heuristic": 0.3, "random": 0.2})
    """Chance that an opponent seat is played by each kind. `snapshots` is split evenly over the kept
    past checkpoints of the learner; `mirror` is the learning policy itself, whose decisions in that seat
    are samples too (batched sampler only); other keys are agent specs (random, heuristic, pretrained, a
    path). Kinds not available yet (no snapshot so far) give their weight to the rest."""
    keep: int = Field(5, ge=1)
    """How many of the most recent snapshots stay in the pool."""
    deterministic: bool = False
    """Snapshots play greedily (True) or sample from their policy (False: more varied opponents)."""
    learner_seats: list[float] | None = None
    """Chance that the learner holds each seat in an episode, one weight per seat; null: every seat in
    turn. For games whose sides differ (Ultra War's Order and Legion), to give the weaker side more practice."""

    @field_validator("learner_seats")
    @classmethod
    def _seat_weights(cls, weights: list[float] | None) -> list[float] | None:
        if weights is not None and (any(w < 0 for w in weights) or sum(weights) <= 0):
            raise ValueError("learner_seats must be non-negative weights with a positive sum")
        return weights

    @field_validator("weights")
    @classmethod
    def _positive(cls, weights: dict[str, float]) -> dict[str, float]:
        if any(w < 0 for w in weights.values()) or sum(weights.values()) <= 0:
            raise ValueError("weights must be non-negative with a positive sum")
        return weights


class EvalConfig(_Strict):
    every: int = Field(100_000, ge=1)
    """Env steps between evaluations during training."""
    games: int = Field(48, ge=1)
    """Games per opponent kind in each evaluation (rounded up to a multiple of the player count)."""
    opponents: list[str] = Field(default_factory=lambda: ["random", "heuristic"])
    final_games: int = Field(400, ge=1)
    """Games per opponent kind in the table printed at the end of a run."""


class ImitationConfig(_Strict):
    samples: int = Field(100_000, ge=1)
    """Decisions of the teacher's games to learn from before self-play starts."""
    teacher: str = "heuristic"
    """The agent spec whose moves are learned: 'heuristic' (the scripted bot), an 'mcts' spec to distil
    search into the policy (about 0.2 s a decision at its default budget: far fewer samples), or a
    checkpoint."""
    epochs: int = Field(5, ge=1)
    learning_rate: float = Field(1e-3, gt=0)
    critic_steps: int = Field(0, ge=0)
    """Env steps of self-play after the warm start in which PPO trains the value net only (the policy is
    frozen). The warm start fits the value head to the teacher's final results; self-play then scores
    with shaping and other opponents, so until the critic catches up its advantages are noise that can
    wear the imitated policy down. 0: the policy learns from the first update."""
    dagger_rounds: int = Field(0, ge=0)
    """DAgger rounds after the first fit: the policy plays, the teacher labels every position the policy
    reached, and the policy is refit on all samples so far. The first fit only sees the teacher's own
    positions; one slip takes the student where the teacher never went, and no sample says what to do
    there. 0: the first fit only."""
    dagger_samples: int = Field(20_000, ge=1)
    """The policy's own decisions labelled in each round."""
    dagger_epochs: int = Field(2, ge=1)
    """Passes over all samples so far after each round."""
    dagger_opponents: list[str] = Field(default_factory=lambda: ["random", "heuristic"], min_length=1)
    """Agent specs the policy plays against in the rounds, one per game in turn (all other seats)."""


class SamplerConfig(_Strict):
    """Where the samples come from (docs/training.md, "Samplers")."""

    kind: Literal["batched", "array"] = "batched"
    """batched: the Python engines, many games in one process, every seat the learning policy plays is a
    sample, each policy evaluated once per tick for all games waiting on it (training/sampler.py). array:
    the game's array engine (`envs.batch(game, n, backend="array")`), every seat played by the learner or
    a pool snapshot in batched forward passes on tensors, on the update's device (training/array_sampler.py;
    only games with an array engine, and pool kinds snapshots and mirror)."""
    rollout: int = Field(2048, ge=8)
    """Samples per PPO update."""
    games: int = Field(64, ge=1)
    """Games in play at once (batched: split over the workers; array: the batch size)."""
    workers: Annotated[int, Field(ge=0)] | Literal["auto"] = 1
    """batched: sampling processes. 0 samples in the trainer's process; 1 or more play the next rollout
    while the trainer updates on the current one (one update of policy lag, which PPO's ratio and clipping
    allow for), using a second core. `auto`: one per core this process may use, less one for the learner,
    and `games` is then read as games per worker (training/hardware.py)."""


class RLlibConfig(_Strict):
    """Settings only the RLlib backend reads (`ultimata train --backend rllib`, training/rllib/)."""

    num_env_runners: int = Field(0, ge=0)
    """Sampling processes (Ray actors); 0 samples in the learner's process, like the SB3 path."""
    num_envs_per_env_runner: int = Field(8, ge=1)
    """Envs each runner steps together (batched inference)."""
    train_batch_size: int | None = Field(None, ge=16)
    """Env steps per training iteration; default sampler.rollout, the batched path's update size."""
    address: str | None = None
    """A Ray cluster to join (`ray start --head` prints it); null starts Ray on this machine."""


class TrainConfig(_Strict):
    game: str | None = None
    """The env name; filled in from the command line when absent."""
    rules: dict[str, Any] = Field(default_factory=dict)
    """Rule-variant config passed to the game (validated by the game's own model)."""
    seed: int = 0
    total_timesteps: int = Field(2_000_000, ge=1)
    torch_threads: int = Field(1, ge=1)
    device: Literal["auto", "cpu", "cuda"] = "auto"
    """Where the policy update runs: `auto` picks CUDA when torch sees a GPU. Sampling always runs on CPU
    copies of the weights, and checkpoints load on any machine."""
    shaping: float = Field(0.0, ge=0)
    """Weight of a potential-based shaping reward for games that define one (0: the final result only).
    It is a training setting, not a rule: checkpoints stay loadable under the plain rules."""
    checkpoint_every: int = Field(100_000, ge=1)
    """Env steps between checkpoints; each checkpoint also joins the opponent pool as a snapshot."""
    imitation: ImitationConfig | None = None
    """Warm start from the game's scripted bot (training/imitation.py); null: start from scratch."""
    ppo: PPOConfig = Field(default_factory=PPOConfig)
    pool: PoolConfig = Field(default_factory=PoolConfig)
    eval: EvalConfig = Field(default_factory=EvalConfig)
    rllib: RLlibConfig = Field(default_factory=RLlibConfig)
    sampler: SamplerConfig = Field(default_factory=SamplerConfig)

    @model_validator(mode="after")
    def _batch_fits(self) -> TrainConfig:
        if self.ppo.batch_size > self.sampler.rollout:
            raise ValueError(f"ppo.batch_size {self.ppo.batch_size} exceeds one rollout (sampler.rollout "
                             f"{self.sampler.rollout})")
        return self


class ConfigWarning(UserWarning):
    """A config that loads but says something the way an older release did."""


RETIRED = {
    "sampler.kind: vec_env": "the batched sampler ('sampler.kind: batched')",
    "vec_env": "'sampler.games' and 'sampler.rollout'",
    "n_envs": "'sampler.games', and 'sampler.rollout' (read here as ppo.n_steps x n_envs)",
    "ppo.update": "the one update, training/ppo_update.py (what 'update: lean' was)",
    "ppo.n_steps": "'sampler.rollout' (samples per update)",
}
"""Keys of training paths that are gone (issue 51), and what replaced each; BENCHMARKS.md keeps their figures."""


def _retired_keys(data: dict[str, Any], where: str) -> dict[str, Any]:
    """A config that names a retired path still loads: its keys are dropped (a top-level `n_envs` keeps its
    update size, ppo.n_steps x n_envs, as sampler.rollout), and one warning names them and what replaced
    each."""
    moved, found = dict(data), []
    sampler = dict(moved["sampler"]) if isinstance(moved.get("sampler"), dict) else None
    ppo = dict(moved["ppo"]) if isinstance(moved.get("ppo"), dict) else None
    if sampler is not None and sampler.get("kind") == "vec_env":
        sampler["kind"] = "batched"
        found.append("sampler.kind: vec_env")
    if "vec_env" in moved:
        moved.pop("vec_env")
        found.append("vec_env")
    n_steps = ppo.pop("n_steps", None) if ppo is not None else None
    if ppo is not None and "update" in ppo:
        ppo.pop("update")
        found.append("ppo.update")
    if "n_envs" in moved:
        n_envs = moved.pop("n_envs")
        steps = 256 if n_steps is None else n_steps
        if isinstance(n_envs, int) and isinstance(steps, int) and "rollout" not in (sampler or {}):
            sampler = {**(sampler or {}), "rollout": steps * n_envs}
        found.append("n_envs")
    if n_steps is not None:
        found.append("ppo.n_steps")
    if sampler is not None:
        moved["sampler"] = sampler
    if ppo is not None:
        moved["ppo"] = ppo
    if found:
        said = "; ".join(f"'{key}' by {RETIRED[key]}" for key in found)
        warnings.warn(f"{where} names retired training settings, ignored: {said}", ConfigWarning, stacklevel=3)
    return moved


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in override.items():
        out[key] = _merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def default_config_text(game_name: str) -> tuple[str, str] | None:
    """The YAML shipped for a game (configs/<base name>.yaml) and how to name it; None when there is none."""
    from ultimata import configs

    base = game_base_name(game_name)
    text = configs.game_text(base)
    return None if text is None else (text, configs.where(base))


def load_train_config(
    game_name: str, path: str | Path | None = None, preset: str | None = None,
    overrides: dict[str, Any] | None = None,
) -> TrainConfig:
    """Read, apply a preset, validate. Problems raise ConfigError naming the key and what is allowed."""
    from ultimata.envs.core.registry import game_class

    if path is not None:
        try:
            text, where = Path(path).read_text(), str(path)
        except OSError as err:
            raise ConfigError(f"cannot read config {path}: {err}") from None
    else:
        text, where = default_config_text(game_name) or ("{}", f"built-in defaults for {game_name}")
    from ultimata.configs import SECTIONS, parse_mapping

    # the game's other settings (difficulty, hard, mcts) are for their own readers
    data = {key: value for key, value in parse_mapping(text, where).items() if key not in SECTIONS}
    presets = data.pop("presets", {}) or {}
    if not isinstance(presets, dict):
        raise ConfigError(f"'presets' in {where} must map preset names to overrides")
    if preset is not None:
        if preset not in presets:
            raise ConfigError(f"unknown preset {preset!r} in {where}; presets: {', '.join(presets) or '(none)'}")
        data = _merge(data, presets[preset] or {})
    data = _merge(_retired_keys(data, where), _retired_keys(overrides or {}, "the overrides"))
    cfg = _validate_nested(data, where)
    if cfg.game is not None and cfg.game != game_name:
        raise ConfigError(f"{where} is a config for {cfg.game}, not {game_name}")
    cfg.game = game_name
    game = game_class(game_name).from_config(cfg.rules)  # the rule variant is checked now, not mid-run
    seats = cfg.pool.learner_seats
    if seats is not None and len(seats) != game.num_players:
        raise ConfigError(f"pool.learner_seats in {where} gives {len(seats)} weights; {game_name} with these "
                          f"rules has {game.num_players} seats, so give {game.num_players}")
    if cfg.imitation is not None:
        _check_imitation_specs(cfg.imitation, game_name, cfg.rules, where)
    if cfg.sampler.kind == "array":
        _check_array_sampler(cfg, game_name, where)
    if cfg.ppo.features == "planes" and game.observation_planes is None:
        raise ConfigError(
            f"ppo.features: planes in {where} needs board planes, and {game_name} declares none "
            "(observation_planes is None); use features: flat"
        )
    return cfg


ARRAY_POOL_KINDS = ("mirror", "snapshots", "random", "heuristic")
"""What the array sampler seats: the learner itself, its snapshots, uniform play and, where the game's array
engine has `scripted_actions`, the scripted bot, all on tensors."""


def _check_array_sampler(cfg: TrainConfig, game_name: str, where: str) -> None:
    """`sampler.kind: array` needs the game's array engine and a pool it can seat on tensors."""
    from ultimata.envs.core.array.engine import array_game_class, games_with_scripted_actions, has_scripted_actions

    engine = array_game_class(game_name)  # ConfigError naming the games that have one
    if cfg.shaping + bool(cfg.rules.get("dense_reward", False)) not in (0, 1):
        raise ConfigError(f"sampler.kind: array in {where} shapes rewards with the array engine's dense reward, "
                          f"whose weight is 1: shaping must be 0 or 1 (with rules.dense_reward false), got "
                          f"shaping {cfg.shaping:g}" + (" and rules.dense_reward true" if cfg.rules.get("dense_reward")
                                                       else ""))
    kinds = [k for k in ARRAY_POOL_KINDS if k != "heuristic" or has_scripted_actions(engine)]
    other = sorted(k for k, w in cfg.pool.weights.items()
                   if w > 0 and k not in kinds and not _is_checkpoint_agent(k, game_name, cfg.rules))
    if other:
        scripted = ("" if "heuristic" in kinds else f" (heuristic, the scripted bot, only for "
                    f"{', '.join(games_with_scripted_actions()) or 'no game yet'})")
        raise ConfigError(f"sampler.kind: array in {where} plays the pool kinds {', '.join(kinds)} on tensors"
                          f"{scripted}, and checkpoint agents (pretrained, a .zip); pool.weights gives weight to "
                          f"{', '.join(other)}: set those to 0, or use sampler.kind: batched")


def _is_checkpoint_agent(spec: str, game_name: str, rules: dict[str, Any]) -> bool:
    """Whether a pool key is an agent the array sampler can seat as a network: a checkpoint that loads."""
    from ultimata.agents.policy_agent import PolicyAgent
    from ultimata.agents.specs import load_agent

    if spec in ARRAY_POOL_KINDS:
        return False
    try:
        return isinstance(load_agent(spec, game_name, rules), PolicyAgent)
    except UltimataError:
        return False


def _check_imitation_specs(im: ImitationConfig, game_name: str, rules: dict[str, Any], where: str) -> None:
    """A bad teacher or DAgger opponent is refused when the config loads, not ten minutes into a run."""
    from ultimata.agents.specs import load_agent

    named = [("imitation.teacher", im.teacher)]
    if im.dagger_rounds:
        named += [("imitation.dagger_opponents", spec) for spec in im.dagger_opponents]
    for key, spec in named:
        if key == "imitation.teacher" and spec in ("heuristic", "scripted"):
            continue  # without a scripted bot the run refuses at its start, saying to set imitation: null
        try:
            load_agent(spec, game_name, rules)
        except UltimataError as err:
            raise ConfigError(f"{key} in {where}: {err}") from None


def _validate_nested(data: dict[str, Any], where: str) -> TrainConfig:
    """Validate sections separately so an unknown key lists the keys allowed in its own section."""
    sections = {"ppo": PPOConfig, "pool": PoolConfig, "eval": EvalConfig, "imitation": ImitationConfig,
                "rllib": RLlibConfig, "sampler": SamplerConfig}
    for key, model in sections.items():
        if key in data and data[key] is not None:
            data = {**data, key: validate_config(model, data[key], f"'{key}' of {where}")}
    return validate_config(TrainConfig, data, where)
