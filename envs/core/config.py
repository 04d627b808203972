"""Rule-variant configs: pydantic models that refuse unknown keys and bad values with a clear message."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from ultimata.envs.core.errors import ConfigError


class GameConfig(BaseModel):
    """Base of every game's rule-variant config. Frozen: a running game's rules never change."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_decisions: int = 20_000
    """Truncation cap: the episode is truncated after this many decisions (no game runs forever)."""
    dense_reward: bool = False
    """Add a documented per-step shaping reward (the change of a zero-sum potential). Off by default."""


C = TypeVar("C", bound=BaseModel)


def describe_validation_error(model: type[BaseModel], err: ValidationError, where: str) -> str:
    """Turn pydantic's error into one line per problem naming the key and what is allowed."""
    allowed = ", ".join(model.model_fields)
    lines = []
    for e in err.errors():
        key = ".".join(str(p) for p in e["loc"]) or "(config)"
        if e["type"] == "extra_forbidden":
            lines.append(f"unknown key '{key}' in {where}; allowed keys: {allowed}")
        else:
            lines.append(f"invalid value for '{key}' in {where}: {e['msg']} (got {e.get('input')!r})")
    return "; ".join(lines)


def validate_config(model: type[C], data: dict[str, Any] | None, where: str) -> C:
    """Build `model` from `data`, raising ConfigError with a readable message on any problem."""
    if data is not None and not isinstance(data, dict):
        raise ConfigError(f"{where} must be a mapping of keys to values, got {type(data).__name__}")
    try:
        return model.model_validate(data or {})
    except ValidationError as err:
        raise ConfigError(describe_validation_error(model, err, where)) from None
