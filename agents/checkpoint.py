"""Checkpoints: SB3's MaskablePPO .zip plus a JSON sidecar that says what the policy was trained for.

The sidecar (`<name>.json` next to `<name>.zip`) records the game id and version, the rule config,
the observation and action sizes, training steps, an optional rating, the zip's sha256 and (format /2)
the policy's architecture. Loading checks all of them first, so a policy from another game, version or
rule variant, or a damaged file, is refused with a message saying which and why instead of producing
silent nonsense.

Playing a checkpoint never unpickles it (`load_policy`): the zip's weights are read as tensors only and
the network is built from the sidecar's description (agents/policy_net.py). The zip stays SB3's own, so
`MaskablePPO.load` still opens it for whoever trusts the file; ultimata never does, not even to resume a
run (training/resume_state.py reads the optimizer state and counters as data too).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import time
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict, TypeAdapter, ValidationError

from ultimata.envs.core.errors import CheckpointError
from ultimata.envs.core.io import atomic_write_bytes, atomic_write_json
from ultimata.envs.core.registry import game_base_name

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from ultimata.envs.core.engine import Game

FORMAT = "ultimata-checkpoint/2"
"""/2 added `policy`, the architecture and spaces the network is built from without unpickling."""
FORMAT_V1 = "ultimata-checkpoint/1"
"""Still read: the description is then inferred from the weights (agents/policy_net.py)."""
MAX_SIDECAR_BYTES = 1024 * 1024
"""A sidecar is a few KB of JSON; one larger than this is refused after reading this much and no more."""
MAX_CHECKPOINT_BYTES = 1024 * 1024 * 1024
"""A checkpoint zip larger than this on disk is refused before it is read (a shipped bot is ~1 MB)."""
MAX_MEMBERS = 64
"""SB3 writes five members; a zip listing more than this is not one of its checkpoints."""
MAX_MEMBER_BYTES = 512 * 1024 * 1024
"""A member whose uncompressed size, as the zip's central directory declares it, is larger than this is
refused before anything is decompressed; a member is never decompressed past its declared size."""
NOT_RULES = ("max_decisions", "dense_reward")
"""Config keys a policy does not depend on, left out when a checkpoint is matched to the rules in play:
`max_decisions` only cuts an episode short and `dense_reward` only adds a shaping reward; neither reaches
the engine's state or observation (both are read by the PettingZoo adapter alone)."""


@dataclass
class CheckpointMeta:
    game: str
    version: int
    config: dict[str, Any]
    observation_shape: list[int]
    num_actions: int
    steps: int
    algo: str = "MaskablePPO"
    rating: dict[str, Any] | None = None
    sha256: str = ""
    created: str = field(default_factory=lambda: time.strftime("%Y-%m-%dT%H:%M:%S"))
    extra: dict[str, Any] = field(default_factory=dict)
    also_fits: list[str] = field(default_factory=list)
    """Later versions of the game (e.g. 'ultra_war_v5') this policy was checked to still play: the
    version bump changed rules but neither the spaces nor what the policy's inputs mean. A shipped bot
    keeps its training record and claims the new version here instead of being retrained at once."""
    policy: dict[str, Any] | None = None
    """The network's description (agents/policy_net.PolicySpec); None in a format /1 sidecar."""
    __pydantic_config__ = ConfigDict(strict=True)  # a sidecar's field of the wrong type is refused, not coerced

    @classmethod
    def for_game(cls, game: Game, steps: int, **extra: Any) -> CheckpointMeta:
        return cls(
            game=game.name,
            version=game.version,
            config=game.config.model_dump(mode="json"),
            observation_shape=list(game.observation_shape),
            num_actions=game.num_actions,
            steps=int(steps),
            extra=extra,
        )


def sidecar_path(path: str | Path) -> Path:
    return Path(path).with_suffix(".json")


def zip_path(path: str | Path) -> Path:
    p = Path(path)
    return p if p.suffix == ".zip" else p.with_suffix(".zip")


def save_checkpoint(model: MaskablePPO, path: str | Path, meta: CheckpointMeta, *, slim: bool = False) -> Path:
    """Write `<path>.zip` then its sidecar, each atomically; the sidecar describes the network, so the zip
    plays without being unpickled. `slim` drops the optimizer state and the training envs' last
    observations and episode stats: a file to ship and play with, not to resume from (Ultra War's last
    observations alone were 210 KB of a 1.16 MB bot)."""
    from ultimata.agents.policy_net import describe

    meta.policy = describe(model.policy)
    target = zip_path(path)
    buffer = io.BytesIO()
    if slim:
        policy = model.policy
        saved = policy.optimizer
        policy.optimizer = policy.optimizer_class(policy.parameters(), lr=1e-4, **policy.optimizer_kwargs)
        try:
            model.save(buffer, exclude=list(SLIM_EXCLUDED))
        finally:
            policy.optimizer = saved
    else:
        model.save(buffer)
    data = _deflated(buffer.getvalue()) if slim else buffer.getvalue()
    meta.sha256 = hashlib.sha256(data).hexdigest()
    atomic_write_bytes(target, data)
    atomic_write_json(sidecar_path(target), {"format": FORMAT, **asdict(meta)})
    return target


SLIM_EXCLUDED = ("_last_obs", "_last_original_obs", "_last_episode_starts", "ep_info_buffer", "ep_success_buffer")
"""What a slim checkpoint leaves out of SB3's `data`: training state a player never reads."""


def _deflated(data: bytes) -> bytes:
    """SB3 stores its zip uncompressed; a shipped copy is rewritten deflated (SB3 reads either)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            dst.writestr(item.filename, src.read(item))
    return out.getvalue()


_SIDECAR = TypeAdapter(CheckpointMeta)


def read_meta(path: str | Path) -> CheckpointMeta:
    """The sidecar of a checkpoint, checked for shape and types but not yet against a game."""
    target = zip_path(path)
    side = sidecar_path(target)
    if not target.exists():
        raise CheckpointError(f"checkpoint {target} does not exist")
    if not side.exists():
        raise CheckpointError(f"checkpoint {target} has no sidecar {side.name}; was it saved by ultimata?")
    try:
        with side.open("rb") as handle:
            raw = handle.read(MAX_SIDECAR_BYTES + 1)  # never more: a huge sidecar costs this much at most
        if len(raw) > MAX_SIDECAR_BYTES:
            raise CheckpointError(f"checkpoint sidecar {side} is larger than {MAX_SIDECAR_BYTES:,} bytes; "
                                  "a sidecar is a few KB of JSON")
        text = raw.decode("utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise CheckpointError(f"checkpoint sidecar {side} is corrupt: {err}") from None
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, FORMAT_V1):
        raise CheckpointError(f"{side} is not an ultimata checkpoint sidecar (expected format {FORMAT!r})")
    if data["format"] == FORMAT and "policy" not in data:
        raise CheckpointError(f"checkpoint sidecar {side} is missing a field: 'policy'")
    try:
        return _SIDECAR.validate_json(text)  # strict: JSON's types as they are; unknown keys are ignored
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in err.errors()[:5])
        raise CheckpointError(f"checkpoint sidecar {side} is invalid ({problems})") from None


def check_compatible(meta: CheckpointMeta, game: Game, where: str) -> None:
    """Refuse a checkpoint trained for another game, version, rule config or spaces. A later version
    listed in the sidecar's `also_fits` is accepted; a rule key that version added counts as matching
    when it is at its default (the checkpoint predates the key). `NOT_RULES` keys are not compared."""
    claimed = game.name in meta.also_fits
    if meta.game != game.name and not claimed:
        if game_base_name(meta.game) == game_base_name(game.name):
            raise CheckpointError(
                f"{where} was trained for {meta.game} (v{meta.version}); this install has {game.name} "
                f"v{game.version} (the rules changed: retrain)"
            )
        raise CheckpointError(f"{where} was trained for {meta.game}, not {game.name}")
    if not claimed and meta.version != game.version:
        raise CheckpointError(
            f"{where} was trained for {meta.game} v{meta.version}; this install has v{game.version} "
            "(the rules changed: retrain)"
        )
    config = game.config.model_dump(mode="json")
    defaults = type(game.config)().model_dump(mode="json") if claimed else {}
    trained = {**{k: v for k, v in defaults.items() if k not in meta.config}, **meta.config}
    diff = sorted(k for k in set(config) | set(trained) if config.get(k) != trained.get(k) and k not in NOT_RULES)
    if diff:
        shown = ", ".join(f"{k}: checkpoint {trained.get(k)!r} vs now {config.get(k)!r}" for k in diff)
        raise CheckpointError(f"{where} was trained under another rule config ({shown})")
    if list(meta.observation_shape) != list(game.observation_shape) or meta.num_actions != game.num_actions:
        raise CheckpointError(
            f"{where} has observation {meta.observation_shape} / {meta.num_actions} actions; "
            f"{game.name} has {list(game.observation_shape)} / {game.num_actions}"
        )


def verified_bytes(path: str | Path) -> tuple[bytes, CheckpointMeta]:
    """The zip's bytes and sidecar, once the sidecar's sha256 (required) matches and the zip's own central
    directory lists members within the caps (`checked_archive`). Nothing is decompressed here: the member
    that is read later is checked against its CRC as it is read."""
    target = zip_path(path)
    meta = read_meta(target)
    if not re.fullmatch(r"[0-9a-f]{64}", meta.sha256):
        raise CheckpointError(f"checkpoint {target} is refused: its sidecar has no sha256 of the zip (64 hex "
                              "digits) to check it against; save it again with ultimata")
    try:
        size = target.stat().st_size
        if size > MAX_CHECKPOINT_BYTES:
            raise CheckpointError(f"checkpoint {target} is {size:,} bytes, over the {MAX_CHECKPOINT_BYTES:,} allowed")
        data = target.read_bytes()
    except OSError as err:
        raise CheckpointError(f"checkpoint {target} cannot be read: {err.strerror or err}") from None
    if hashlib.sha256(data).hexdigest() != meta.sha256:
        raise CheckpointError(f"checkpoint {target} is corrupt: its sha256 does not match the sidecar")
    checked_archive(data, f"checkpoint {target}")
    return data, meta


def checked_archive(data: bytes, where: str) -> zipfile.ZipFile:
    """The zip, opened from its central directory alone, once every member's declared size is within the
    caps (`MAX_MEMBERS`, `MAX_MEMBER_BYTES`): a 4 GiB member is refused at once, not decompressed to test it."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, RuntimeError, ValueError) as err:
        raise CheckpointError(f"{where} is corrupt: {err}") from None
    if len(members) > MAX_MEMBERS:
        raise CheckpointError(f"{where} lists {len(members):,} members, over the {MAX_MEMBERS} allowed")
    for info in members:
        if info.file_size > MAX_MEMBER_BYTES:
            raise CheckpointError(f"{where}: its member {info.filename[:80]!r} is {info.file_size:,} bytes "
                                  f"uncompressed, over the {MAX_MEMBER_BYTES:,} allowed")
    return archive


def load_policy(path: str | Path, game: Game) -> tuple[MaskableActorCriticPolicy, CheckpointMeta]:
    """A checkpoint's policy network for `game`, built from the sidecar's description and the zip's
    weights without unpickling anything; CheckpointError says why a file does not fit or is refused."""
    import numpy as np

    from ultimata.agents.policy_net import build_policy, infer_spec, parse_spec, read_weights

    target = zip_path(path)
    where = f"checkpoint {target}"
    check_compatible(read_meta(target), game, str(target))
    data, meta = verified_bytes(target)
    weights = read_weights(data, where)
    if meta.policy is None:
        spec = infer_spec(weights, meta.observation_shape, meta.num_actions, game.observation_planes,
                          np.dtype(game.observation_dtype).name, game.observation_bounds, where)
    else:
        spec = parse_spec(meta.policy, where)
    if spec.observation.shape != list(meta.observation_shape) or spec.num_actions != meta.num_actions:
        raise CheckpointError(f"{where}: its policy description's spaces do not match its sidecar's")
    return build_policy(spec, weights, where), meta
