"""The registered env name of a game family ('ultra_war' -> 'ultra_war_v5'): the web tests name games by
family, so a version bump does not touch them."""

from ultimata.envs.core.registry import GAMES


def env_name(family: str) -> str:
    return next(name for name in GAMES if name.rsplit("_v", 1)[0] == family)
