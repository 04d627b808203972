"""The masked PPO update, written out in torch in CleanRL's style, on SB3's policy module.

The loss is MaskablePPO's, term for term: the clipped surrogate on per-minibatch normalised advantages,
the unclipped value MSE, the entropy bonus of the masked distribution (masked logits set to -1e8, as
sb3-contrib's MaskableCategorical does), gradient clipping, SB3's Adam. What is gone is the machinery
around it: SB3 rebuilds a torch Distribution object and its argument checks for every minibatch and
copies the rollout buffer into fresh tensors each epoch; here the rollout moves to the device once and
minibatches are index views. On the card game's config that is a third of `MaskablePPO.train()`'s time
(docs/training.md, "What an update costs").

`precision: bfloat16` runs the forward and backward passes under autocast (the weights, the optimizer
and the loss stay float32); convolutional feature extractors then run channels-last, which CPUs with
AVX-512 bf16 and GPUs both favour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from ultimata.training.sampler import Rollout

MASKED_LOGIT = -1e8
"""What sb3-contrib's MaskableCategorical writes over masked logits: finite, so 0 * logit stays 0."""


@dataclass
class UpdateSettings:
    n_epochs: int
    batch_size: int
    clip_range: float
    ent_coef: float
    vf_coef: float
    max_grad_norm: float
    learning_rate: float
    precision: str = "float32"


def logits_and_values(policy: Any, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """SB3's actor-critic forward pass: features (shared or separate), the two MLPs, the two heads."""
    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        pi_features, vf_features = features
        latent_pi = policy.mlp_extractor.forward_actor(pi_features)
        latent_vf = policy.mlp_extractor.forward_critic(vf_features)
    return policy.action_net(latent_pi), policy.value_net(latent_vf).flatten()


def masked_log_probs(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    return torch.log_softmax(logits.float().masked_fill(~masks, MASKED_LOGIT), dim=-1)


def channels_last(policy: nn.Module) -> None:
    """Convolutions read channels-last from here on (the weights' values and names do not change)."""
    for module in policy.modules():
        if isinstance(module, nn.Conv2d):
            module.to(memory_format=torch.channels_last)


def ppo_update(policy: Any, rollout: Rollout, settings: UpdateSettings, rng: np.random.Generator,
               device: torch.device | str = "cpu") -> dict[str, float]:
    """One PPO update (n_epochs over shuffled minibatches) of `policy` on `rollout`; the statistics SB3
    logs under train/."""
    device = torch.device(device)
    n = len(rollout)
    obs = torch.as_tensor(rollout.obs, dtype=torch.float32, device=device)
    masks = torch.as_tensor(rollout.masks, device=device).bool()
    actions = torch.as_tensor(rollout.actions, dtype=torch.long, device=device)
    old_log_probs = torch.as_tensor(rollout.log_probs, dtype=torch.float32, device=device)
    advantages = torch.as_tensor(rollout.advantages, dtype=torch.float32, device=device)
    returns = torch.as_tensor(rollout.returns, dtype=torch.float32, device=device)
    optimizer = policy.optimizer
    for group in optimizer.param_groups:
        group["lr"] = settings.learning_rate
    policy.set_training_mode(True)
    autocast = torch.autocast(device.type, dtype=torch.bfloat16, enabled=settings.precision == "bfloat16")
    stats: dict[str, list[float]] = {k: [] for k in ("policy_gradient_loss", "value_loss", "entropy_loss",
                                                     "approx_kl", "clip_fraction", "loss")}
    clip = settings.clip_range
    for _ in range(settings.n_epochs):
        order = torch.as_tensor(rng.permutation(n), device=device)
        for start in range(0, n, settings.batch_size):
            rows = order[start:start + settings.batch_size]
            with autocast:
                logits, values = logits_and_values(policy, obs[rows])
            log_probs_all = masked_log_probs(logits, masks[rows])
            log_prob = log_probs_all.gather(1, actions[rows, None]).squeeze(1)
            entropy = -(log_probs_all.exp() * log_probs_all).masked_fill(~masks[rows], 0.0).sum(dim=1)
            adv = advantages[rows]
            if len(rows) > 1:
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            log_ratio = log_prob - old_log_probs[rows]
            ratio = log_ratio.exp()
            policy_loss = -torch.min(adv * ratio, adv * ratio.clamp(1 - clip, 1 + clip)).mean()
            value_loss = nn.functional.mse_loss(returns[rows], values.float())
            entropy_loss = -entropy.mean()
            loss = policy_loss + settings.ent_coef * entropy_loss + settings.vf_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(policy.parameters(), settings.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                stats["approx_kl"].append(((ratio - 1) - log_ratio).mean().item())
                stats["clip_fraction"].append(((ratio - 1).abs() > clip).float().mean().item())
            for key, value in (("policy_gradient_loss", policy_loss), ("value_loss", value_loss),
                               ("entropy_loss", entropy_loss), ("loss", loss)):
                stats[key].append(value.item())
    policy.set_training_mode(False)
    values_np = rollout.values
    variance = np.var(rollout.returns)
    explained = float("nan") if variance == 0 else float(1 - np.var(rollout.returns - values_np) / variance)
    return {**{k: float(np.mean(v)) for k, v in stats.items()}, "explained_variance": explained,
            "clip_range": clip}
