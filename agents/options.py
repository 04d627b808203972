"""The `key=value,...` options of an agent spec (`mcts:sims=100`, `my_pkg.bots:Mine:depth=3`)."""

from __future__ import annotations

from typing import Any

from ultimata.envs.core.errors import ConfigError


def split_options(text: str, spec: str, allowed: str) -> dict[str, Any]:
    """'sims=100,greedy=true' -> {'sims': 100, 'greedy': True}: integers, decimals and true/false are
    typed, anything else stays a string; a ConfigError names an item that is not key=value."""
    out: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"option {item!r} of agent spec {spec!r} must look like key=value; {allowed}")
        out[key.strip()] = typed(value.strip())
    return out


def typed(value: str) -> Any:
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value
