"""Where SB3 zips written before the policy's parts moved to agents/features.py find `PlanesExtractor`:
SB3 pickles the class by its path, and whoever opens such a zip with `MaskablePPO.load` unpickles it
(ultimata itself no longer does, even to resume: training/resume_state.py)."""

from ultimata.agents.features import FEATURES, SCALARS, PlanesExtractor, features_policy_kwargs

__all__ = ["FEATURES", "SCALARS", "PlanesExtractor", "features_policy_kwargs"]
