"""The policy network's forward pass, in one place: features -> actor and critic MLPs -> logits and value,
and the legal-move mask on the logits.

Every user of a policy goes through here: the batched sampler and the array sampler, the PPO update,
imitation, `PolicyAgent` and RLlib's module. The network is SB3's `MaskableActorCriticPolicy` layout
(`features_extractor` or a `pi_`/`vf_` pair, `mlp_extractor`, `action_net`, `value_net`); any module with
those parts (RLlib's `MaskedActorCritic`) runs the same code.
"""

from __future__ import annotations

from typing import Any

import torch

MASKED_LOGIT = -1e8
"""What a masked action's logit becomes: finite, as sb3-contrib's MaskableCategorical writes it, so that
0 * logit stays 0 in the entropy, and exp() of it is exactly 0 in float32."""


def _extractors(net: Any) -> tuple[Any, Any]:
    """The actor's and the critic's feature extractors (one module when they share it)."""
    if getattr(net, "share_features_extractor", True):
        return net.features_extractor, net.features_extractor
    return net.pi_features_extractor, net.vf_features_extractor


def actor_logits(net: Any, obs: torch.Tensor) -> torch.Tensor:
    """Unmasked logits for a batch of observations (rows)."""
    pi_features, _ = _extractors(net)
    return net.action_net(net.mlp_extractor.forward_actor(pi_features(obs.float())))


def critic_values(net: Any, obs: torch.Tensor) -> torch.Tensor:
    """The value of each observation (rows), flat."""
    _, vf_features = _extractors(net)
    return net.value_net(net.mlp_extractor.forward_critic(vf_features(obs.float()))).flatten()


def logits_and_values(net: Any, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Unmasked logits and flat values in one pass (the features once when the two heads share them)."""
    pi_x, vf_x = _extractors(net)
    obs = obs.float()
    pi_features = pi_x(obs)
    vf_features = pi_features if vf_x is pi_x else vf_x(obs)
    latent_pi = net.mlp_extractor.forward_actor(pi_features)
    latent_vf = net.mlp_extractor.forward_critic(vf_features)
    return net.action_net(latent_pi), net.value_net(latent_vf).flatten()


def masked_logits(logits: torch.Tensor, masks: torch.Tensor, fill: float = MASKED_LOGIT) -> torch.Tensor:
    """Logits with every illegal action (mask False or 0) set to `fill`, in float32."""
    return logits.float().masked_fill(~masks.bool(), fill)


def masked_log_probs(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """Log-probabilities of the masked distribution."""
    return torch.log_softmax(masked_logits(logits, masks), dim=-1)


def masked_entropy(log_probs: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """Entropy of the masked distribution from its log-probabilities (illegal actions count 0)."""
    return -(log_probs.exp() * log_probs).masked_fill(~masks.bool(), 0.0).sum(dim=-1)
