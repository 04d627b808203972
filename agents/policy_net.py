"""A checkpoint's policy network, built from data alone: nothing in the file is unpickled to play it.

SB3's zip keeps its settings as pickles (the `data` entry), so `MaskablePPO.load` runs whatever a
crafted file put there. To play, ultimata reads only the zip's `policy.pth` (a state dict) with
`torch.load(weights_only=True)`, which refuses anything but tensors and plain containers, and builds the
network from a description in the JSON sidecar (`PolicySpec`): the MLP widths, the activation, the
features extractor (flat, or `PlanesExtractor` with its kwargs), and the spaces. Only the classes named
here can be built. Sidecars from before the description (format /1) get it inferred from the weights'
names and shapes (`infer_spec`): the project only ever trained flat MLPs and PlanesExtractors with Tanh.
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import Annotated, Any, Literal

import gymnasium as gym
import numpy as np
import torch
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import FlattenExtractor
from torch import nn

from ultimata.agents.features import SCALARS, PlanesExtractor
from ultimata.envs.core.errors import CheckpointError

WEIGHTS_MEMBER = "policy.pth"
MAX_WEIGHTS_BYTES = 512 * 1024 * 1024
"""A weights file larger than this is refused before it is decompressed (a shipped bot is ~1 MB)."""
ACTIVATIONS: dict[str, type[nn.Module]] = {"Tanh": nn.Tanh, "ReLU": nn.ReLU}
DTYPES = ("float32", "float64", "float16", "int8", "int16", "int32", "int64", "uint8")

Width = Annotated[int, Field(ge=1, le=65_536)]
Layers = Annotated[list[Width], Field(max_length=32)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class FeaturesSpec(_Strict):
    """`flat`: the observation as it is (SB3's FlattenExtractor); `planes`: agents/features.py's
    PlanesExtractor with these kwargs."""

    kind: Literal["flat", "planes"]
    planes: Annotated[list[Width], Field(min_length=3, max_length=3)] | None = None
    channels: Layers = []
    out_channels: Annotated[int, Field(ge=0, le=65_536)] = 0
    scalars: Literal[SCALARS] = "broadcast"  # type: ignore[valid-type]

    @model_validator(mode="after")
    def _planes_need_a_layout(self) -> FeaturesSpec:
        if self.kind == "planes" and self.planes is None:
            raise ValueError("features of kind 'planes' need 'planes': [channels, height, width]")
        if self.kind == "flat" and (self.planes is not None or self.channels or self.out_channels):
            raise ValueError("features of kind 'flat' take no planes, channels or out_channels")
        return self


class ObservationSpec(_Strict):
    """The observation Box: `low`/`high` null where unbounded."""

    shape: Annotated[list[Width], Field(min_length=1, max_length=1)]
    dtype: Literal[DTYPES] = "float32"  # type: ignore[valid-type]
    low: float | None = None
    high: float | None = None


class NetArch(_Strict):
    pi: Layers
    vf: Layers


class PolicySpec(_Strict):
    """What MaskableActorCriticPolicy is built from: the architecture and the spaces."""

    net_arch: NetArch
    activation: Literal[tuple(ACTIVATIONS)]  # type: ignore[valid-type]
    features: FeaturesSpec
    share_features_extractor: bool = True
    observation: ObservationSpec
    num_actions: Annotated[int, Field(ge=1, le=10_000_000)]


def parse_spec(data: Any, where: str) -> PolicySpec:
    """A sidecar's `policy` entry, or CheckpointError naming each field that is wrong."""
    try:
        return PolicySpec.model_validate(data)
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'policy'}: {e['msg']}" for e in err.errors())
        raise CheckpointError(f"{where}: the sidecar's policy description is invalid ({problems})") from None


def describe(policy: MaskableActorCriticPolicy) -> dict[str, Any]:
    """The description of a live policy, as a sidecar stores it (CheckpointError for one we cannot rebuild)."""
    arch = policy.net_arch if isinstance(policy.net_arch, dict) else {"pi": policy.net_arch, "vf": policy.net_arch}
    extractor = policy.features_extractor
    if type(extractor) is FlattenExtractor:
        features: dict[str, Any] = {"kind": "flat"}
    elif type(extractor) is PlanesExtractor:
        kwargs = {"channels": [], "out_channels": 0, "scalars": "broadcast", **policy.features_extractor_kwargs}
        features = {"kind": "planes", "planes": [int(x) for x in kwargs["planes"]],
                    "channels": [int(x) for x in kwargs["channels"]], "out_channels": int(kwargs["out_channels"]),
                    "scalars": kwargs["scalars"]}
    else:
        raise CheckpointError(f"a policy with features extractor {type(extractor).__name__} cannot be saved as data; "
                              "use ppo.features flat or planes")
    space = policy.observation_space
    low, high = np.unique(space.low), np.unique(space.high)
    if len(low) != 1 or len(high) != 1:
        raise CheckpointError("an observation space with per-entry bounds cannot be described; use one low and high")
    data = {
        "net_arch": {"pi": [int(x) for x in arch.get("pi", [])], "vf": [int(x) for x in arch.get("vf", [])]},
        "activation": policy.activation_fn.__name__,
        "features": features,
        "share_features_extractor": bool(policy.share_features_extractor),
        "observation": {"shape": [int(x) for x in space.shape], "dtype": str(space.dtype),
                        "low": _bound(low[0]), "high": _bound(high[0])},
        "num_actions": int(policy.action_space.n),
    }
    described = parse_spec(data, "the policy being saved").model_dump(mode="json")
    if features["kind"] == "flat":
        described["features"] = features  # a flat input has no other settings to show
    return described


def _bound(value: float) -> float | None:
    return None if np.isinf(value) else float(value)


def read_weights(archive: bytes, where: str) -> dict[str, torch.Tensor]:
    """The state dict in a checkpoint zip's `policy.pth`, read as tensors only (torch's weights_only),
    each a dense, finite floating-point tensor in memory (`check_tensors`)."""
    from ultimata.agents.checkpoint import checked_archive

    with checked_archive(archive, where) as zf:
        try:
            info = zf.getinfo(WEIGHTS_MEMBER)
        except KeyError:
            raise CheckpointError(f"{where} has no {WEIGHTS_MEMBER}: it is not an SB3 policy checkpoint") from None
        if info.file_size > MAX_WEIGHTS_BYTES:
            raise CheckpointError(f"{where}: its {WEIGHTS_MEMBER} is {info.file_size:,} bytes, over the "
                                  f"{MAX_WEIGHTS_BYTES:,} allowed")
        try:
            raw = zf.read(info)  # decompressed up to its declared size, then checked against its CRC
        except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, ValueError, NotImplementedError) as err:
            raise CheckpointError(f"{where} is corrupt: {err}") from None
    weights = load_tensors(raw, f"{where}: its {WEIGHTS_MEMBER}")
    if not isinstance(weights, dict) or not all(
            isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in weights.items()):
        raise CheckpointError(f"{where}: its {WEIGHTS_MEMBER} is not a state dict of named tensors")
    check_tensors(weights, f"{where}: its {WEIGHTS_MEMBER}")
    return weights


def load_tensors(raw: bytes, what: str) -> Any:
    """`raw` read by torch as data only (weights_only): tensors and plain containers, nothing unpickled.
    A refusal says what torch found, without torch's advice to load the file unsafely."""
    try:
        return torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises UnpicklingError, RuntimeError, ... on a hostile or damaged file
        raise CheckpointError(f"{what} is not plain weights, refused unread ({torch_reason(err)})") from None


def torch_reason(err: BaseException) -> str:
    """torch's reason for refusing a file, in one line: its 'WeightsUnpickler error' alone, never its
    advice (re-running with weights_only=False, allow-listing globals) that would run the payload."""
    text = str(err)
    found = re.search(r"WeightsUnpickler error:\s*(.+?)(?:\s+was not an allowed global|\.\s|\n\s*\n|$)", text, re.S)
    reason = found.group(1) if found else (text.strip().splitlines() or [""])[0]
    reason = " ".join(reason.split())
    if not reason or re.search(r"weights_only|safe_globals|trust|Weights only load failed", reason):
        reason = type(err).__name__
    return reason if len(reason) <= 160 else reason[:157] + "..."


FLOAT_DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def check_tensors(tensors: dict[str, Any], what: str) -> None:
    """Every value a plain tensor: dense (strided), in CPU memory (not meta), floating-point, finite. A
    sparse or meta tensor would make torch fail later with a traceback, a NaN would play nonsense and
    break sampling; each is refused here, naming the tensor."""
    for name, value in tensors.items():
        shown = repr(name[:60])
        if type(value) not in (torch.Tensor, nn.Parameter):
            raise CheckpointError(f"{what}: {shown} is not a tensor")
        if value.layout is not torch.strided or value.is_sparse or value.is_quantized or value.is_nested:
            raise CheckpointError(f"{what}: tensor {shown} is {str(value.layout).removeprefix('torch.')}; "
                                  "only dense (strided) tensors are allowed")
        if value.device.type != "cpu":
            raise CheckpointError(f"{what}: tensor {shown} is on the {value.device.type} device and holds no "
                                  "values; only tensors with their data are allowed")
        if value.dtype not in FLOAT_DTYPES:
            raise CheckpointError(f"{what}: tensor {shown} is {str(value.dtype).removeprefix('torch.')}; "
                                  "weights must be floating-point: float16, bfloat16, float32 or float64")
        if not bool(torch.isfinite(value).all()):
            raise CheckpointError(f"{what}: tensor {shown} holds NaN or infinite values")


def infer_spec(weights: dict[str, torch.Tensor], observation_shape: list[int], num_actions: int,
               planes: tuple[int, int, int] | None, dtype: str, bounds: tuple[float, float], where: str) -> PolicySpec:
    """The description an old (format /1) sidecar lacks, read off the weights' names and shapes. The
    spaces and the board layout (`planes`) come from the game the checkpoint was checked against."""
    def refuse(why: str) -> CheckpointError:
        return CheckpointError(f"{where}: its sidecar predates the policy description and {why}; load it once "
                               "with SB3 if you trust it and save it again with ultimata.agents.checkpoint."
                               "save_checkpoint, which writes the description")

    def layers(prefix: str) -> list[int]:
        found = sorted((int(m.group(1)), tuple(v.shape)) for k, v in weights.items()
                       if (m := re.fullmatch(re.escape(prefix) + r"\.(\d+)\.weight", k)))
        if any(len(shape) != 2 for _, shape in found):
            raise refuse(f"{prefix} holds a layer that is not linear")
        return [shape[0] for _, shape in found]

    if "action_net.weight" not in weights:
        raise refuse("its weights have no action_net")
    conv = sorted((int(m.group(1)), tuple(v.shape)) for k, v in weights.items()
                  if (m := re.fullmatch(r"features_extractor\.conv\.(\d+)\.weight", k)))
    if conv or any(k.startswith("features_extractor.") for k in weights):
        if planes is None:
            raise refuse("has a features extractor, but the game declares no board planes")
        features = _infer_planes(weights, conv, planes, observation_shape[0], refuse)
        shared = all(torch.equal(value, weights.get("vf_" + key, value)) for key, value in weights.items()
                     if key.startswith("features_extractor."))
    else:
        features, shared = {"kind": "flat"}, True
    low, high = bounds
    return parse_spec({
        "net_arch": {"pi": layers("mlp_extractor.policy_net"), "vf": layers("mlp_extractor.value_net")},
        "activation": "Tanh",
        "features": features,
        "share_features_extractor": shared,
        "observation": {"shape": list(observation_shape), "dtype": dtype, "low": _bound(low), "high": _bound(high)},
        "num_actions": num_actions,
    }, where)


def _infer_planes(weights: dict[str, torch.Tensor], conv: list[tuple[int, tuple[int, ...]]],
                  planes: tuple[int, int, int], size: int, refuse: Any) -> dict[str, Any]:
    """PlanesExtractor's kwargs from its conv weights: 3x3 layers are `channels`, a last 1x1 `out_channels`."""
    c, h, w = planes
    n_scalars = size - c * h * w
    kernels = [shape[2:] for _, shape in conv]
    if not conv or any(len(shape) != 4 for _, shape in conv):
        raise refuse("its features extractor is not a stack of convolutions")
    threes = [k for k in kernels if k == (3, 3)]
    if kernels[: len(threes)] != threes or kernels[len(threes):] not in ([], [(1, 1)]):
        raise refuse(f"its convolutions {kernels} are not 3x3 layers followed by at most one 1x1")
    channels = [shape[0] for _, shape in conv[: len(threes)]]
    out_channels = conv[-1][1][0] if len(kernels) > len(threes) else 0
    first_in = conv[0][1][1]
    if "features_extractor.scalar_bias.weight" in weights:
        scalars = "bias"
    elif first_in == c + n_scalars:
        scalars = "broadcast"
    elif first_in == c:
        scalars = "none"
    else:
        raise refuse(f"its first convolution reads {first_in} planes, where the game has {c} (+{n_scalars} scalars)")
    return {"kind": "planes", "planes": [c, h, w], "channels": channels, "out_channels": out_channels,
            "scalars": scalars}


def spaces(spec: PolicySpec) -> tuple[gym.spaces.Box, gym.spaces.Discrete]:
    """The observation and action spaces the description gives."""
    obs = spec.observation
    low = -np.inf if obs.low is None else obs.low
    high = np.inf if obs.high is None else obs.high
    return gym.spaces.Box(low, high, tuple(obs.shape), np.dtype(obs.dtype)), gym.spaces.Discrete(spec.num_actions)


def policy_kwargs(spec: PolicySpec) -> dict[str, Any]:
    """The architecture as SB3's `policy_kwargs` (what MaskablePPO or the policy class takes)."""
    kwargs: dict[str, Any] = {"net_arch": {"pi": list(spec.net_arch.pi), "vf": list(spec.net_arch.vf)},
                              "activation_fn": ACTIVATIONS[spec.activation],
                              "share_features_extractor": spec.share_features_extractor}
    if spec.features.kind == "planes":
        f = spec.features
        kwargs["features_extractor_class"] = PlanesExtractor
        kwargs["features_extractor_kwargs"] = {"planes": list(f.planes or []), "channels": list(f.channels),
                                               "out_channels": f.out_channels, "scalars": f.scalars}
    return kwargs


class _ShapeProbe(MaskableActorCriticPolicy):
    """Built on torch's meta device (no memory): SB3 moves its MLP to `self.device`, which must say meta."""

    @property
    def device(self) -> torch.device:
        return torch.device("meta")


def _construct(spec: PolicySpec, cls: type[MaskableActorCriticPolicy] = MaskableActorCriticPolicy
               ) -> MaskableActorCriticPolicy:
    observation, action = spaces(spec)
    return cls(observation, action, lambda _: 0.0, ortho_init=False, **policy_kwargs(spec))


def build_policy(spec: PolicySpec, weights: dict[str, torch.Tensor], where: str) -> MaskableActorCriticPolicy:
    """The network `spec` describes, holding `weights`. Every name and shape must match: the shapes are
    compared on a network built without memory (torch's meta device) before the real one is made, so a
    description that does not fit its weights costs nothing and is refused."""
    try:
        with torch.device("meta"):
            probe = _construct(spec, _ShapeProbe)
    except (ValueError, RuntimeError) as err:  # e.g. planes larger than the observation
        raise CheckpointError(f"{where}: its policy description cannot be built ({err})") from None
    expected = {k: tuple(v.shape) for k, v in probe.state_dict().items()}
    missing = sorted(set(expected) - set(weights))
    extra = sorted(set(weights) - set(expected))
    wrong = sorted(k for k in set(expected) & set(weights) if tuple(weights[k].shape) != expected[k])
    if missing or extra or wrong:
        shown = [f"missing {', '.join(missing[:5])}" if missing else "",
                 f"unexpected {', '.join(extra[:5])}" if extra else "",
                 "; ".join(f"{k} is {list(weights[k].shape)}, the architecture needs {list(expected[k])}"
                           for k in wrong[:5])]
        raise CheckpointError(f"{where}: its weights do not fit the architecture (the sidecar's description, or "
                              f"for an old sidecar the one its weights suggest): {'; '.join(s for s in shown if s)}")
    check_tensors(weights, where)  # also for callers that did not read the weights with read_weights
    policy = _construct(spec)
    try:
        policy.load_state_dict(weights, strict=True)  # copies into float32: float16 weights are cast, as SB3 did
    except (RuntimeError, ValueError, TypeError) as err:
        raise CheckpointError(f"{where}: its weights do not load ({' '.join(str(err).split())[:200]})") from None
    policy.set_training_mode(False)
    return policy
