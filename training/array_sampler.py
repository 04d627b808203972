"""The array sampler (`sampler.kind: array`): self-play on a game's array engine, never leaving the tensors.

`envs.batch(game, n, backend="array", device=...)` holds `sampler.games` games as tensors. Each game's
seats are dealt to the learner (one seat by rotation or `pool.learner_seats`; `mirror` seats too), to pool
snapshots, or to `random`; every step, the learner answers all its rows in one forward pass and each
snapshot all of its own, on the device the update runs on. Every seat the learner plays is a chain of
samples: a decision is closed by the same seat's next decision (whose value it bootstraps from) or by the
end of the game, with the rewards between summed onto it. GAE runs on the device over those chains; a
rollout is exactly `sampler.rollout` closed decisions, and what is left (the overflow and each live seat's
open decision) opens the next rollout, as in the batched sampler.

The pool's kinds here are `mirror`, `snapshots`, `random` and `heuristic`, the game's scripted bot, where its
array engine has one (`ArrayGame.scripted_actions`: the whole batch's scripted seats in one tensor pass, the
card game and ULTIMADE). Any other key is an agent spec that names a checkpoint (`pretrained`, a `.zip`): a fixed
network, seated on tensors like a snapshot and playing as that agent does in the arena (greedily, for the shipped
bots), so a run can train against the shipped bot and `ultimata exploit` can run on the array path. A pool that
gives weight to a kind this game cannot seat on tensors (the scripted bot of a game whose array engine has none,
search, a custom Python agent) is refused when the config loads.
A game cut at `max_decisions` bootstraps each open decision from its own value. `shaping: 1` plays the rules'
dense reward (the potentials the Python samplers shape with, summed the same way); the config allows 0 or 1.
"""

from __future__ import annotations

import time
from typing import Any

import torch

from ultimata.agents.checkpoint import load_policy
from ultimata.agents.policy import logits_and_values, masked_logits
from ultimata.agents.policy_agent import PolicyAgent
from ultimata.agents.specs import load_agent
from ultimata.envs.core.array.engine import has_scripted_actions
from ultimata.envs.core.engine import Game
from ultimata.training.config import ARRAY_POOL_KINDS, TrainConfig
from ultimata.training.pool import SNAPSHOTS
from ultimata.training.sampler import Rollout
from ultimata.training.sampler_workers import Batch, peak_rss_mb

LEARNER, RANDOM_SEAT, SCRIPTED_SEAT = 0, -1, -2
"""Seat owners: the learner, uniform random play, the scripted bot, or k >= 1 for the k-th seated network (the
fixed checkpoint agents first, then the pool's snapshots)."""
OWNER_OF_KIND = {"mirror": LEARNER, "random": RANDOM_SEAT, "heuristic": SCRIPTED_SEAT}
"""The owner code each pool kind seats (`snapshots` seats one of the snapshots, k >= 1, picked at random)."""

FIELDS = ("obs", "mask", "action", "value", "log_prob", "reward")



class ArraySampler:
    """Rollouts of the learner's seats from `cfg.sampler.games` array-engine games on the policy's device."""

    def __init__(self, cfg: TrainConfig, game: Game, policy: Any, snapshots: list[str]) -> None:
        import ultimata.envs as envs

        self.cfg, self.game, self.policy = cfg, game, policy
        self.device = policy.device
        rules = {**cfg.rules, "dense_reward": True} if cfg.shaping else cfg.rules  # config: shaping is 0 or 1 here
        self.env = envs.batch(cfg.game, cfg.sampler.games, backend="array", seed=cfg.seed, device=self.device,
                              **rules)
        self.n, self.players = cfg.sampler.games, game.num_players
        self.gamma, self.lam = cfg.ppo.gamma, cfg.ppo.gae_lambda
        self.generator = torch.Generator(device=self.device).manual_seed(cfg.seed)
        self.snapshots: list[tuple[str, Any]] = []
        for path in snapshots:
            self.add_snapshot(path)
        weights = cfg.pool.weights
        self.fixed = fixed_networks(cfg, self.device)
        """(spec, policy, greedy) of each checkpoint agent the pool names, owner codes 1..len(fixed)."""
        self.weights = {k: float(weights.get(k, 0.0)) for k in (*ARRAY_POOL_KINDS, *(f[0] for f in self.fixed))}
        if self.weights["heuristic"] > 0 and not has_scripted_actions(self.env.engine):
            self.env.engine.scripted_actions({}, None)  # the ConfigError naming the games that have one
        fixed_owner = {spec: k for k, (spec, _, _) in enumerate(self.fixed, start=1)}
        self.kind_owner = torch.tensor([OWNER_OF_KIND.get(k, fixed_owner.get(k, LEARNER)) for k in self.weights],
                                       device=self.device)
        """Owner code per pool kind, in `self.weights`' order (a snapshots entry is replaced by its pick)."""
        self.snapshot_kind = list(self.weights).index(SNAPSHOTS)
        seats = cfg.pool.learner_seats
        self.learner_seats = None if seats is None else torch.tensor(seats, dtype=torch.float32, device=self.device)
        self.games_dealt = torch.zeros(self.n, dtype=torch.int64, device=self.device)
        self.rows = torch.arange(self.n, device=self.device)
        self.owner = torch.zeros(self.n, self.players, dtype=torch.int64, device=self.device)
        self._seat_new_games(self.rows)
        self.obs, self.mask, self.seat = self.env.reset()
        self.open = torch.full((self.n, self.players), -1, dtype=torch.int64, device=self.device)
        """Index into the buffer of each (row, seat)'s open learner decision, or -1."""
        self.buffer, self.size = self._empty(), 0
        self.decisions = self.steps = 0
        self._samples = cfg.sampler.rollout

    def _empty(self, capacity: int | None = None) -> dict[str, torch.Tensor]:
        """A buffer with room for `capacity` decisions (default: two rollouts and a step); `self.size` of
        them are in use."""
        d = self.device
        c = capacity or 2 * self.cfg.sampler.rollout + self.n
        return {"obs": torch.empty((c, *self.game.observation_shape), dtype=torch.float32, device=d),
                "mask": torch.empty((c, self.game.num_actions), dtype=torch.bool, device=d),
                "action": torch.empty(c, dtype=torch.int64, device=d), "value": torch.empty(c, device=d),
                "log_prob": torch.empty(c, device=d), "reward": torch.empty(c, device=d),
                "next": torch.empty(c, dtype=torch.int64, device=d), "done": torch.empty(c, dtype=torch.bool, device=d),
                "step": torch.empty(c, dtype=torch.int64, device=d)}

    # the pool -------------------------------------------------------------------------------------------

    def add_snapshot(self, path: str) -> None:
        """A new checkpoint joins the pool on this device; the oldest beyond `pool.keep` leaves it."""
        policy, _ = load_policy(path, self.game)
        self.snapshots = (self.snapshots + [(path, policy.to(self.device))])[-self.cfg.pool.keep:]

    def _seat_new_games(self, rows: torch.Tensor) -> None:
        """Who plays each seat of the games just dealt in `rows`."""
        k, g = len(rows), self.generator
        if self.learner_seats is None:
            mine = (rows + self.games_dealt[rows]) % self.players
        else:
            mine = torch.multinomial(self.learner_seats.expand(k, -1), 1, generator=g)[:, 0]
        self.games_dealt[rows] += 1
        kinds = [w if kind != SNAPSHOTS or self.snapshots else 0.0 for kind, w in self.weights.items()]
        total = sum(kinds)
        mirror_only = [float(kind == "mirror") for kind in self.weights]  # an empty pool: self-play
        chances = torch.tensor([w / total for w in kinds] if total > 0 else mirror_only, device=self.device)
        kind = torch.multinomial(chances.expand(k * self.players, -1), 1, replacement=True, generator=g)
        kind = kind.view(k, self.players)
        first = len(self.fixed) + 1
        pick = torch.randint(first, first + max(1, len(self.snapshots)), (k, self.players), generator=g,
                             device=self.device)
        owner = torch.where(kind == self.snapshot_kind, pick, self.kind_owner[kind])
        owner[torch.arange(k, device=self.device), mine] = LEARNER
        self.owner[rows] = owner

    # the trainer's interface -----------------------------------------------------------------------------

    def request(self, samples: int, weights: dict[str, Any] | None) -> None:
        self._samples = samples  # the policy is the learner's own module: its weights are always current

    def receive(self) -> Batch:
        start, decisions = time.process_time(), self.decisions
        rollout = self.collect(self._samples)
        return Batch(rollout, [], self.decisions - decisions, time.process_time() - start, peak_rss_mb())

    def close(self) -> None:
        pass

    # playing -------------------------------------------------------------------------------------------

    @torch.no_grad()
    def collect(self, samples: int) -> Rollout:
        """Play until `samples` learner decisions are closed; return exactly that many with their GAE."""
        while self._closed() < samples:
            self._step()
        return self._take(samples)

    def _closed(self) -> int:
        b, n = self.buffer, self.size
        return int(((b["next"][:n] >= 0) | b["done"][:n]).sum())

    def _step(self) -> None:
        obs, mask, seat = self.obs, self.mask.bool(), self.seat
        owner = self.owner[self.rows, seat]
        actions = torch.empty(self.n, dtype=torch.int64, device=self.device)
        learner = (owner == LEARNER).nonzero()[:, 0]
        if learner.numel():
            logits, values = logits_and_values(self.policy, obs[learner])
            a, logp = self._sample(logits, mask[learner])
            actions[learner] = a
            self._open(learner, seat[learner], obs[learner], mask[learner], a, values.float(), logp)
        seated = [(net, greedy) for _, net, greedy in self.fixed] + [(net, False) for _, net in self.snapshots]
        for k, (net, greedy) in enumerate(seated, start=1):
            rows = (owner == k).nonzero()[:, 0]
            if rows.numel():
                logits, _ = logits_and_values(net, obs[rows])
                if greedy:
                    actions[rows] = masked_logits(logits, mask[rows]).argmax(dim=-1)
                else:
                    actions[rows] = self._sample(logits, mask[rows])[0]
        rows = (owner == RANDOM_SEAT).nonzero()[:, 0]
        if rows.numel():
            actions[rows] = self._sample(torch.zeros(rows.numel(), mask.shape[1], device=self.device), mask[rows])[0]
        rows = (owner == SCRIPTED_SEAT).nonzero()[:, 0]
        if rows.numel():
            scripted = {name: value[rows] for name, value in self.env.state.items()}
            actions[rows] = self.env.engine.scripted_actions(scripted, self.generator)
        self.decisions += self.n
        self.steps += 1
        rewards, done, _ = self.env.apply(actions)
        self._credit(rewards.float(), done)
        self.obs, self.mask, self.seat = self.env.observe()

    def _sample(self, logits: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """An action per row from the masked distribution (Gumbel-max on the device's own generator), and
        its log-probability."""
        log_probs = torch.log_softmax(masked_logits(logits, mask), dim=-1)
        u = torch.rand(log_probs.shape, generator=self.generator, device=self.device).clamp_(1e-20, 1.0)
        actions = (log_probs - torch.log(-torch.log(u))).masked_fill(~mask, float("-inf")).argmax(dim=-1)
        return actions, log_probs.gather(1, actions[:, None])[:, 0]

    def _open(self, rows: torch.Tensor, seats: torch.Tensor, obs: torch.Tensor, mask: torch.Tensor,
              actions: torch.Tensor, values: torch.Tensor, log_probs: torch.Tensor) -> None:
        """New learner decisions; each closes the same (row, seat)'s previous one."""
        first, count = self.size, len(rows)
        if first + count > len(self.buffer["action"]):  # grow: a long stretch with few decisions closed
            grown = self._empty(2 * (first + count))
            for key, value in self.buffer.items():
                grown[key][:first] = value[:first]
            self.buffer = grown
        b = self.buffer
        index = torch.arange(first, first + count, device=self.device)
        previous = self.open[rows, seats]
        had = previous >= 0
        b["next"][previous[had]] = index[had]
        self.open[rows, seats] = index
        at = slice(first, first + count)
        b["obs"][at], b["mask"][at], b["action"][at] = obs, mask, actions
        b["value"][at], b["log_prob"][at] = values, log_probs
        b["reward"][at], b["next"][at], b["done"][at], b["step"][at] = 0.0, -1, False, self.steps
        self.size = first + count

    def _credit(self, rewards: torch.Tensor, done: torch.Tensor) -> None:
        """Each open learner decision gets its seat's reward; a finished game closes its decisions and its
        rows are seated afresh (the array backend has dealt them already)."""
        b, flat = self.buffer, self.open.flatten()
        live = flat >= 0
        b["reward"].index_add_(0, flat[live], rewards.flatten()[live])
        ended = done.bool()
        closing = self.open[ended]
        b["done"][closing[closing >= 0]] = True
        if bool(ended.any()):
            self.open[ended] = -1
            self._seat_new_games(ended.nonzero()[:, 0])

    def _take(self, samples: int) -> Rollout:
        """GAE over the buffer's chains, the first `samples` closed decisions out, the rest kept."""
        n = self.size
        b = {key: value[:n] for key, value in self.buffer.items()}
        closed = (b["next"] >= 0) | b["done"]
        nxt = b["next"].clamp(min=0)
        next_value = torch.where(b["next"] >= 0, b["value"][nxt], torch.zeros_like(b["value"]))
        delta = b["reward"] + self.gamma * next_value - b["value"]
        advantages = torch.zeros(n, device=self.device)
        chained = (b["next"] >= 0) & closed[nxt]  # GAE runs on only through a successor that is itself closed
        # a successor is always made at a later step: sweep back over the steps, each one block of the buffer
        _, counts = torch.unique_consecutive(b["step"], return_counts=True)
        ends = torch.cumsum(counts, 0).tolist()
        for start, end in zip([0, *ends[:-1]][::-1], ends[::-1]):
            block = slice(start, end)
            follow = torch.where(chained[block], advantages[nxt[block]], torch.zeros_like(advantages[block]))
            advantages[block] = delta[block] + self.gamma * self.lam * follow
        order = closed.nonzero()[:, 0][:samples]
        out = Rollout(obs=b["obs"][order], masks=b["mask"][order].to(torch.int8), actions=b["action"][order],
                      values=b["value"][order], log_probs=b["log_prob"][order], advantages=advantages[order],
                      returns=advantages[order] + b["value"][order], rewards=b["reward"][order],
                      episode_starts=torch.zeros(len(order), device=self.device))
        keep = torch.ones(n, dtype=torch.bool, device=self.device)
        keep[order] = False
        self._keep(b, keep)
        return out

    def _keep(self, b: dict[str, torch.Tensor], keep: torch.Tensor) -> None:
        """The buffer cut to the `keep` decisions at its front, every index into it renumbered."""
        kept = int(keep.sum())
        renumber = torch.full((len(keep) + 1,), -1, dtype=torch.int64, device=self.device)
        renumber[:-1][keep] = torch.arange(kept, device=self.device)
        for key, value in b.items():
            self.buffer[key][:kept] = value[keep]  # the boolean index copies before the write
        self.buffer["next"][:kept] = renumber[self.buffer["next"][:kept]]  # -1 indexes the last slot: -1
        self.open = renumber[self.open]
        self.size = kept


def fixed_networks(cfg: TrainConfig, device: torch.device) -> list[tuple[str, Any, bool]]:
    """The checkpoint agents `pool.weights` names beyond the array kinds, loaded on the learner's device
    (spec, policy, whether it plays greedily); config.py has refused any spec that is not a checkpoint."""
    out = []
    for spec, weight in cfg.pool.weights.items():
        if weight > 0 and spec not in ARRAY_POOL_KINDS:
            agent = load_agent(spec, cfg.game, cfg.rules)
            assert isinstance(agent, PolicyAgent)
            out.append((spec, agent.policy.to(device), agent.deterministic))
    return out
