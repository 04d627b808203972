"""Where SB3 zips written before the policy's parts moved to agents/features.py find `PlanesExtractor`:
SB3 pickles the class by its path, and a run folder's resume still unpickles its own checkpoints."""

from ultimata.agents.features import FEATURES, SCALARS, PlanesExtractor, features_policy_kwargs

__all__ = ["FEATURES", "SCALARS", "PlanesExtractor", "features_policy_kwargs"]
