"""The masked PPO update, written out in torch in CleanRL's style, on SB3's policy module.

The loss is MaskablePPO's, term for term: the clipped surrogate on per-minibatch normalised advantages,
the unclipped value MSE, the entropy bonus of the masked distribution (masked logits set to `MASKED_LOGIT`, as
sb3-contrib's MaskableCategorical does; agents/policy.py), gradient clipping, SB3's Adam. What is gone is the machinery
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

from ultimata.agents.policy import logits_and_values, masked_entropy, masked_log_probs
from ultimata.training.sampler import Rollout


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


@dataclass
class LossTerms:
    loss: torch.Tensor
    policy_loss: torch.Tensor
    value_loss: torch.Tensor
    entropy_loss: torch.Tensor
    ratio: torch.Tensor
    log_ratio: torch.Tensor


def ppo_loss(logits: torch.Tensor, values: torch.Tensor, masks: torch.Tensor, actions: torch.Tensor,
             old_log_probs: torch.Tensor, advantages: torch.Tensor, returns: torch.Tensor, clip: float,
             ent_coef: float, vf_coef: float) -> LossTerms:
    """The masked PPO loss of one minibatch: the clipped surrogate on the minibatch's normalised
    advantages, the value MSE and the masked distribution's entropy bonus. `logits` are unmasked."""
    log_probs_all = masked_log_probs(logits, masks)
    log_prob = log_probs_all.gather(1, actions[:, None]).squeeze(1)
    entropy = masked_entropy(log_probs_all, masks)
    adv = advantages
    if len(adv) > 1:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    log_ratio = log_prob - old_log_probs
    ratio = log_ratio.exp()
    policy_loss = -torch.min(adv * ratio, adv * ratio.clamp(1 - clip, 1 + clip)).mean()
    value_loss = nn.functional.mse_loss(returns, values.float())
    entropy_loss = -entropy.mean()
    loss = policy_loss + ent_coef * entropy_loss + vf_coef * value_loss
    return LossTerms(loss, policy_loss, value_loss, entropy_loss, ratio, log_ratio)


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
            terms = ppo_loss(logits, values, masks[rows], actions[rows], old_log_probs[rows], advantages[rows],
                             returns[rows], clip, settings.ent_coef, settings.vf_coef)
            optimizer.zero_grad()
            terms.loss.backward()
            nn.utils.clip_grad_norm_(policy.parameters(), settings.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                stats["approx_kl"].append(((terms.ratio - 1) - terms.log_ratio).mean().item())
                stats["clip_fraction"].append(((terms.ratio - 1).abs() > clip).float().mean().item())
            for key, value in (("policy_gradient_loss", terms.policy_loss), ("value_loss", terms.value_loss),
                               ("entropy_loss", terms.entropy_loss), ("loss", terms.loss)):
                stats[key].append(value.item())
    policy.set_training_mode(False)
    returns_all = torch.as_tensor(rollout.returns, dtype=torch.float64)
    variance = float(returns_all.var(unbiased=False))
    residual = float((returns_all - torch.as_tensor(rollout.values, dtype=torch.float64)).var(unbiased=False))
    explained = float("nan") if variance == 0 else 1 - residual / variance
    return {**{k: float(np.mean(v)) for k, v in stats.items()}, "explained_variance": explained,
            "clip_range": clip}
