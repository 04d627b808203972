"""`mcts`: a search agent for every game, built on the engine contract alone (no per-game code).

Each simulation plans on `state.sample_consistent(me, rng)`: a full state that agrees with all this
seat may know, hidden parts re-drawn and future chance re-seeded, so search never reads another
seat's cards or the dice to come. One tree is shared across those samples, keyed by action
sequences (single-observer information-set MCTS, open loop): a child's availability counts how often
it was legal, which keeps UCB fair when samples disagree on what is legal. Perfect-information
games without chance reduce to plain UCT. Values are per seat (max-n), so it works for 2-6 players.

Spec: ``mcts`` or ``mcts:sims=200,rollout=heuristic,depth=40,c=1.4,time=0.2``. ``turn_time=5`` gives a
whole turn of this seat (its run of consecutive decisions) five seconds, shared out over the turn's
decisions (`TurnBudget`): a wargame turn of dozens of decisions then answers in about five seconds, where
a budget per decision would take dozens of times that. With
``rollout=pretrained,guide=pretrained`` the shipped bot's policy plays the rollouts and gives the prior
(search on top of the learned bot, as AlphaZero-style players do). A game's defaults may differ
from the built-in ones: they are data (the `mcts` key of configs/<game>.yaml), chosen by measurement.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ultimata.agents.base import StateReadingAgent, game_base_name
from ultimata.agents.explain import Explanation, from_shares
from ultimata.agents.options import split_options
from ultimata.agents.scripted_agent import has_scripted_bot, scripted_policy
from ultimata.agents.turn_budget import TurnBudget
from ultimata.envs.core.errors import CheckpointError, ConfigError
from ultimata.envs.core.rng import Rng

if TYPE_CHECKING:
    from ultimata.envs.core.engine import Game, State


class MctsOptions(BaseModel):
    """The options a spec string may set; the defaults keep a decision near 0.2 s on 2 cores."""

    model_config = ConfigDict(extra="forbid")
    sims: int = Field(200, ge=1, le=100_000)
    """Simulations per decision (the budget when `time` allows it)."""
    time: float = Field(0.2, gt=0, le=60)
    """Seconds per decision at most, whatever `sims` says."""
    rollout: Literal["auto", "random", "heuristic", "pretrained"] = "auto"
    """How a simulation plays on from a new leaf: uniform legal moves, the game's scripted bot, or the
    shipped bot's most likely move ('auto': the scripted bot where the game has one)."""
    depth: int = Field(30, ge=0, le=100_000)
    """Rollout decisions before the leaf is valued by the game's potentials (or as even)."""
    c: float = Field(1.4, ge=0, le=100)
    """UCB exploration constant."""
    opponents: Literal["search", "rollout"] = "search"
    """'search': the other seats' moves are searched too, each seat maximising its own value (max-n);
    'rollout': they play by the rollout policy inside the tree as well, so the tree holds this seat's
    moves only (an opponent model: exact against the scripted bot, and the budget goes to own moves)."""
    guide: Literal["auto", "none", "heuristic", "pretrained"] = "auto"
    """'heuristic': PUCT with the scripted bot's move as a prior, so the search starts from its
    choice and leaves it only where simulations find better (needed where branching is wide);
    'pretrained': the shipped bot's move probabilities as the prior; 'none': plain UCB; 'auto': the
    scripted bot where the game has one."""
    turn_time: float | None = Field(None, gt=0, le=600)
    """Seconds for a whole turn of this seat, shared out over its decisions (None: `time` per decision
    only). A decision then gets at most `time`, which defaults to `turn_time`."""
    floor: int = Field(1, ge=1, le=1000)
    """Simulations every decision runs, whatever its time, while its turn has time left: the late decisions of a
    long turn still search. Once a turn's time is spent, its remaining decisions take the guide's move."""

    @model_validator(mode="after")
    def _a_turn_budget_lifts_the_decision_cap(self) -> MctsOptions:
        if self.turn_time is not None and "time" not in self.model_fields_set:
            self.time = min(self.turn_time, 60.0)
        return self


@cache
def game_defaults() -> dict[str, dict[str, Any]]:
    """Game base name -> the options `mcts` starts from there (the `mcts` key of configs/<game>.yaml)."""
    from ultimata import configs
    from ultimata.envs.core.registry import GAMES

    out = {}
    for base in sorted({game_base_name(name) for name in GAMES}):
        options = configs.game_settings(base).get("mcts")
        if options is not None:
            out[base] = check_game_defaults(options, f"{configs.where(base)}, mcts")
    return out


def check_game_defaults(options: Any, where: str) -> dict[str, Any]:
    """A game's options, validated as a spec's are; a ConfigError says what they may be."""
    allowed = f"it maps options ({', '.join(MctsOptions.model_fields)}) to values"
    if not isinstance(options, dict):
        raise ConfigError(f"{where} is invalid: {allowed}")
    try:
        return MctsOptions(**options).model_dump(include=set(options))
    except ValidationError as err:
        raise ConfigError(f"{where}: {_problems(err)}; {allowed}") from None


def parse_mcts_spec(spec: str) -> MctsOptions:
    """'mcts:sims=100,rollout=heuristic' -> options; a clear ConfigError for anything else."""
    allowed = f"options: {', '.join(MctsOptions.model_fields)}"
    head, _, tail = spec.partition(":")
    if head.strip() != "mcts":
        raise ConfigError(f"not an mcts spec: {spec!r}")
    raw = split_options(tail, spec, allowed)
    try:
        return MctsOptions(**raw)
    except ValidationError as err:
        raise ConfigError(f"bad mcts spec {spec!r}: {_problems(err)}; {allowed}") from None


def _problems(err: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors())


def check_searchable(game: Game) -> None:
    """Refuse a game search could only play by peeking: hidden information and no sampler."""
    from ultimata.envs.core.engine import State

    state = game.new_initial_state(Rng(0))
    if not game.perfect_information and type(state).sample_consistent is State.sample_consistent:
        raise ConfigError(f"mcts cannot play {game.name}: it hides information and has no sample_consistent yet")


class _Node:
    __slots__ = ("children", "visits", "avail", "value", "prior")

    def __init__(self, players: int) -> None:
        self.prior: dict[int, float] | None = None
        """The guide's move distribution where the node was first reached (one move for a scripted bot)."""
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.value = np.zeros(players)


class MctsAgent(StateReadingAgent):
    """Information-set UCT over the engine contract; `act` needs the engine state (drivers pass it)."""

    def __init__(self, game_name: str, options: MctsOptions | None = None, seed: int | None = None,
                 spec: str = "mcts", config: dict[str, Any] | None = None) -> None:
        super().__init__(seed)
        given = options or MctsOptions()
        preset = {k: v for k, v in game_defaults().get(game_base_name(game_name), {}).items()
                  if k not in given.model_fields_set}
        """The game's defaults (configs/<game>.yaml, mcts) for the options the spec leaves unset."""
        self.spec = spec
        scripted = has_scripted_bot(game_name)
        from ultimata.agents.specs import load_agent

        self._bot = None
        """The shipped bot, when rollouts or the prior use it (a PolicyAgent)."""
        if "pretrained" in (given.rollout, given.guide):  # asked for by the spec: it must load
            self._bot = load_agent("pretrained", game_name, config)
        elif "pretrained" in preset.values():
            try:
                self._bot = load_agent("pretrained", game_name, config)
            except CheckpointError:  # the shipped bot does not fit these rules: keep the built-in default
                preset = {k: v for k, v in preset.items() if v != "pretrained"}
        self.options = opts = given.model_copy(update=preset)
        self._rollout_policy = None
        if opts.rollout == "pretrained":
            self._rollout_policy = self._bot_move
        elif opts.rollout == "heuristic" or (opts.rollout == "auto" and scripted):
            self._rollout_policy = scripted_policy(game_name)
        self._prior: Callable[[State, list[int]], dict[int, float]] | None = None
        """The guide: a node's prior over its legal moves (None: plain UCB)."""
        if opts.guide == "pretrained":
            self._prior = self._bot_probabilities
        elif opts.guide == "heuristic" or (opts.guide == "auto" and scripted):
            choose = scripted_policy(game_name)
            self._prior = lambda sim, legal: {int(choose(sim, self._rng)): 1.0}
        self.last_simulations = 0
        self.last_root: _Node | None = None
        """The last search's tree (its first moves' visits and values explain the move)."""
        self.last_budget = opts.time
        """The seconds the last search was given (its share of the turn, with `turn_time`)."""
        self.turn = TurnBudget(opts.turn_time) if opts.turn_time is not None else None

    def reset(self, seat: int, seed: int | None = None) -> None:
        super().reset(seat, seed)
        if self.turn is not None:
            self.turn = TurnBudget(self.turn.seconds)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None) -> int:
        state = self._require(state)
        legal = np.flatnonzero(action_mask).tolist()
        if len(legal) == 1:
            if self.turn is not None:
                self.turn.forced(state.decisions)
            return int(legal[0])
        if self.turn is None:
            return self.search(state)
        start = time.perf_counter()
        share = self.turn.share(state.decisions)
        if self.turn.left > 0:
            action = self.search(state, min(self.options.time, share))
        else:  # the turn's time is spent (its floors cost more than their shares): the guide alone answers
            action = self._unsearched_move(state)
        self.turn.spent(time.perf_counter() - start)
        return action

    def _unsearched_move(self, state: State) -> int:
        """The move search would start from: the guide's likeliest, else the rollout policy's, else a random one."""
        self.last_simulations, self.last_budget = 0, 0.0
        legal = state.legal_actions()
        if self._prior is not None:
            prior = self._prior(state, legal)
            return max(legal, key=lambda a: (prior.get(a, 0.0), -a))
        return self._rollout_move(state)

    def search(self, state: State, seconds: float | None = None) -> int:
        """The most visited first move after the budget (`seconds`, default the `time` option) is spent;
        `floor` simulations run whatever the time."""
        me, players = state.current_player, state.game.num_players
        root = _Node(players)
        self.last_budget = self.options.time if seconds is None else seconds
        start = time.perf_counter()
        deadline, sims = start + self.last_budget, 0
        while sims < self.options.sims:
            now = time.perf_counter()
            if sims >= self.options.floor and now + (now - start) / sims > deadline:  # the next would overrun
                break
            self._simulate(root, state.sample_consistent(me, self._rng), me)
            sims += 1
        self.last_simulations = sims
        self.last_root = root
        legal = state.legal_actions()
        return max(legal, key=lambda a: (root.children[a].visits if a in root.children else -1, -a))

    def explain(self, observation: np.ndarray | None, action_mask: np.ndarray,
                state: State | None = None) -> Explanation:
        """The move `act` plays, with each first move's share of the visits and its mean value for the mover;
        a move taken unsearched (forced, or the turn's time spent) says so by a share of 1 and no value."""
        self.last_root = None
        action = self.act(observation, action_mask, state)
        root, me = self.last_root, self._require(state).current_player
        if root is None or not root.children:
            return from_shares(action, "search", {action: 1.0})
        visits = sum(c.visits for c in root.children.values()) or 1
        shares = {a: c.visits / visits for a, c in root.children.items()}
        values = {a: float(c.value[me] / c.visits) for a, c in root.children.items() if c.visits}
        return from_shares(action, "search", shares, values)

    def _simulate(self, root: _Node, sim: State, me: int) -> None:
        """Select down the tree, expand one new child, roll out, back the value up."""
        path, node = [root], root
        modelled = self.options.opponents == "rollout"
        while not sim.is_terminal():
            if modelled and sim.current_player != me:
                sim.apply(self._rollout_move(sim))
                continue
            legal = sim.legal_actions()
            mover = sim.current_player
            for a in legal:  # availability: how often each child was legal when its parent was reached
                if a in node.children:
                    node.children[a].avail += 1
            action = self._puct(node, sim, legal, mover) if self._prior else self._ucb(node, legal, mover)
            child = node.children.get(action)
            sim.apply(action)
            if child is None:
                child = node.children[action] = _Node(len(root.value))
                child.avail = 1
                path.append(child)
                break
            node = child
            path.append(node)
        value = self._rollout(sim)
        for visited in path:
            visited.visits += 1
            visited.value += value

    def _ucb(self, node: _Node, legal: list[int], mover: int) -> int:
        """An untried move at random first; then UCB1 over availability (ISMCTS's fix for moves that
        are legal in some samples only)."""
        untried = [a for a in legal if a not in node.children]
        if untried:
            return untried[self._rng.below(len(untried))]
        c = self.options.c

        def score(a: int) -> float:
            child = node.children[a]
            return child.value[mover] / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)

        return max(legal, key=score)

    def _puct(self, node: _Node, sim: State, legal: list[int], mover: int) -> int:
        """Half the prior on the guide's moves (the scripted bot's one, or the shipped bot's
        probabilities), half spread evenly; unvisited moves count 0."""
        if node.prior is None:
            node.prior = self._prior(sim, legal)
        prior = node.prior
        spread, scale = 0.5 / len(legal), self.options.c * math.sqrt(node.visits + 1)
        best, best_score = legal[0], -math.inf
        for a in legal:
            child = node.children.get(a)
            visits = child.visits if child is not None else 0
            q = child.value[mover] / visits if visits else 0.0
            score = q + scale * (spread + 0.5 * prior.get(a, 0.0)) / (1 + visits)
            if score > best_score:
                best, best_score = a, score
        return best

    def _bot_logits(self, sim: State, legal: list[int]) -> np.ndarray:
        return self._bot.logits(sim.observation(sim.current_player))[legal]

    def _bot_move(self, sim: State, rng: Rng) -> int:
        """The shipped bot's most likely legal move."""
        legal = sim.legal_actions()
        return legal[int(np.argmax(self._bot_logits(sim, legal)))]

    def _bot_probabilities(self, sim: State, legal: list[int]) -> dict[int, float]:
        logits = self._bot_logits(sim, legal).astype(float)
        weights = np.exp(logits - logits.max())
        return dict(zip(legal, (weights / weights.sum()).tolist()))

    def _rollout_move(self, sim: State) -> int:
        if self._rollout_policy is not None:
            return int(self._rollout_policy(sim, self._rng))
        legal = sim.legal_actions()
        return legal[self._rng.below(len(legal))]

    def _rollout(self, sim: State) -> np.ndarray:
        """Play on to the end or `depth`; value the leaf by returns, else squashed potentials."""
        for _ in range(self.options.depth):
            if sim.is_terminal():
                break
            sim.apply(self._rollout_move(sim))
        if sim.is_terminal():
            return np.asarray(sim.returns(), dtype=float)
        try:
            return np.tanh(np.asarray(sim.potentials(), dtype=float))
        except NotImplementedError:
            return np.zeros(sim.game.num_players)
