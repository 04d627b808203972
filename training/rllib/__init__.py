"""The RLlib backend (`ultimata train --backend rllib`): league self-play on Ray, exported to ultimata checkpoints.

Optional: it needs the `rllib` extra (`pip install "ultimata[rllib]"`). Nothing outside this package
imports Ray, so the base install and every exported checkpoint work without it.
"""

from __future__ import annotations

from ultimata.envs.core.errors import ConfigError

RAY_VERSION = "2.60.0"


def require_ray() -> None:
    """Fail with the install command, not an ImportError deep inside, when Ray is missing."""
    try:
        import ray.rllib  # noqa: F401
    except ImportError:
        raise ConfigError(
            f'the rllib backend needs Ray RLlib {RAY_VERSION}: pip install "ultimata[rllib]" '
            "(or use the default backend, sb3)"
        ) from None
