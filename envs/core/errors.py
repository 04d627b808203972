"""Errors users see. Each names what was wrong and what is allowed."""


class UltimataError(ValueError):
    """Base class: every refusal of bad input raises one of these."""


class IllegalActionError(UltimataError):
    """An action outside the current legal-action mask. The state is left unchanged."""


class ConfigError(UltimataError):
    """An unknown or invalid rule-variant or training config key."""


class ReplayError(UltimataError):
    """A replay file that is malformed or does not reproduce."""


class CheckpointError(UltimataError):
    """A checkpoint from another game, version or config, or a corrupt file."""
