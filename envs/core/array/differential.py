"""The differential test of an array engine: the Python rules engine and the array engine, move for move.

Why: the Python engine is the readable source of truth, and an array engine is a second, branch-free
writing of the same rules. Played side by side on the same positions, the same actions and the Python
engine's own dice, any difference in a legal mask, an observation, a reward, the end of a game or the
next position shows up at the decision where it first happens, with the row and the position named.

Per decision, for every row: the seat to move, the legal mask and every seat's observation (bit for bit)
are compared; the chooser picks an action on the Python state; the Python engine applies it through
`engine.python_step` (which records its chance draws) and the array engine through `step(..., chance=)`
with those draws; then rewards, terminal and the whole next state (`engine.from_states` of the Python
states against the array state, its key and draw counter aside) are compared, and `to_states` is checked
to round-trip. A finished game is replaced by a new Python deal in both engines.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from ultimata.envs.core.array.engine import ArrayGame, ArrayState, array_game_class
from ultimata.envs.core.engine import State
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import game_class, game_package
from ultimata.envs.core.rng import Rng, derived_seed

RNG_FREE = frozenset(("key", "draws"))
"""Array state entries that are the array engine's own randomness, not part of the position."""

Chooser = Callable[[State, Rng], int]


@dataclass
class Mismatch:
    """The first disagreement: where it happened and what differed, in words."""

    row: int
    decision: int
    """The harness's decision count (over all rows) when it happened."""
    move: int
    """The row's game's own decision number (`state.decisions` before the move)."""
    what: str
    detail: str
    position: str = ""

    def describe(self) -> str:
        text = (f"row {self.row}, decision {self.decision} (move {self.move} of the row's game): "
                f"{self.what}: {self.detail}")
        return f"{text}\n{self.position}" if self.position else text


@dataclass
class DifferentialReport:
    env: str
    options: dict[str, Any]
    chooser: str
    rows: int
    decisions: int = 0
    games_finished: int = 0
    comparisons: dict[str, int] = field(default_factory=dict)
    mismatch: Mismatch | None = None

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    def as_dict(self) -> dict[str, Any]:
        return {"env": self.env, "options": self.options, "chooser": self.chooser, "rows": self.rows,
                "decisions": self.decisions, "games_finished": self.games_finished,
                "comparisons": self.comparisons, "mismatch": self.mismatch and self.mismatch.describe()}


def random_chooser(state: State, rng: Rng) -> int:
    legal = state.legal_actions()
    return legal[rng.below(len(legal))]


def make_chooser(spec: str | Chooser | Any, env: str, options: dict[str, Any] | None = None) -> Chooser:
    """`random`, `scripted` (the game package's `scripted.choose_action`), a callable `(state, rng) -> action`,
    an Agent (anything with `act(observation, mask, state)`), or any other agent spec `load_agent` knows
    (a checkpoint, `shipped`, ...)."""
    if callable(spec) and not hasattr(spec, "act"):
        return spec
    if spec == "random":
        return random_chooser
    if spec == "scripted":
        return importlib.import_module(f"{game_package(env)}.scripted").choose_action
    agent = spec  # an agent spec string is loaded by the caller (ultimata's CLI): envs/ does not import agents/
    if not hasattr(agent, "act"):
        raise ConfigError(f"a move chooser is 'random', 'scripted', an agent spec, an Agent or a callable "
                          f"(state, rng) -> action; got {spec!r}")

    def by_agent(state: State, rng: Rng) -> int:
        seat = state.current_player
        agent.reset(seat)
        return int(agent.act(state.observation(seat), state.legal_action_mask(), state))

    return by_agent


def _chooser_name(spec: Any) -> str:
    if isinstance(spec, str):
        return spec
    return getattr(spec, "spec", None) or getattr(spec, "__name__", type(spec).__name__)


class _Differ:
    """Plays `rows` games in both engines; `first` holds the first mismatch once one is seen."""

    def __init__(self, engine: ArrayGame, rows: int, chooser: Chooser, seed: int, compare_all_seats: bool,
                 roundtrip_every: int) -> None:
        self.engine, self.game = engine, engine.game
        self.rows, self.seed, self.chooser = rows, seed, chooser
        self.compare_all_seats, self.roundtrip_every = compare_all_seats, roundtrip_every
        self.moves = 0
        self.dense = bool(self.game.config.dense_reward)
        self.max_decisions = self.game.config.max_decisions
        self.episodes = [0] * rows
        self.pick = [Rng(derived_seed(seed, row, 1_000_003)) for row in range(rows)]
        self.python = [self._deal(row) for row in range(rows)]
        self.array = engine.from_states(self.python)
        self.decisions = 0
        self.games_finished = 0
        self.first: Mismatch | None = None
        self.counts = {"masks": 0, "observations": 0, "rewards": 0, "states": 0, "round_trips": 0}

    def _deal(self, row: int) -> State:
        self.episodes[row] += 1
        return self.game.new_initial_state(Rng(derived_seed(self.seed, row, self.episodes[row])))

    def _fail(self, row: int, what: str, detail: str, state: State | None = None) -> None:
        if self.first is None:
            shown = state if state is not None else self.python[row]
            try:
                position = shown.render_text()
            except Exception as err:  # noqa: BLE001 (a broken position's text must not hide the mismatch)
                position = f"(render_text failed: {err})"
            self.first = Mismatch(row, self.decisions, shown.decisions, what, detail, position)

    # -- comparisons -------------------------------------------------------------------------
    def _compare_states(self, reference: ArrayState, got: ArrayState, what: str,
                        previous: ArrayState | None = None) -> bool:
        names = sorted(set(reference) - RNG_FREE)
        missing = sorted((set(reference) ^ set(got)) - RNG_FREE)
        if missing:
            self._fail(0, what, f"the array states hold different entries: {missing}")
            return False
        for name in names:
            ref, val = reference[name].cpu(), got[name].cpu()
            if ref.shape != val.shape or ref.dtype != val.dtype:
                self._fail(0, what, f"entry {name!r}: shape {tuple(val.shape)} {val.dtype}, expected "
                                    f"{tuple(ref.shape)} {ref.dtype}")
                return False
            same = (ref == val).reshape(ref.shape[0], -1).all(dim=1) if ref.dim() else (ref == val).view(1)
            if not bool(same.all()):
                row = int((~same).nonzero()[0, 0])
                self._fail(row, what, f"entry {name!r} of row {row} is {val[row].tolist()}, the Python engine's "
                                      f"state gives {ref[row].tolist()}",
                           self._before(previous, row) if previous is not None else None)
                return False
        return True

    def check_decision(self) -> None:
        """Seat, mask and observations of every row, before the move."""
        engine, states = self.engine, self.python
        seats = engine.current_player(self.array).cpu().numpy()
        for row, state in enumerate(states):
            if seats[row] != state.current_player:
                self._fail(row, "seat to move", f"array engine waits on seat {seats[row]}, Python on "
                                                f"{state.current_player}")
                return
        mask = engine.legal_mask(self.array).cpu().numpy().astype(bool)
        for row, state in enumerate(states):
            want = state.legal_action_mask().astype(bool)
            if not np.array_equal(mask[row], want):
                extra = np.flatnonzero(mask[row] & ~want).tolist()
                lacking = np.flatnonzero(want & ~mask[row]).tolist()
                self._fail(row, "legal mask", f"the array engine also allows {extra} and lacks {lacking}")
                return
        self.counts["masks"] += len(states)
        viewers = range(self.game.num_players) if self.compare_all_seats else [None]
        for viewer in viewers:
            who = torch.as_tensor(seats if viewer is None else np.full(len(states), viewer), dtype=torch.int64,
                                  device=engine.device)
            obs = engine.observe(self.array, who).cpu().numpy()
            for row, state in enumerate(states):
                seat = int(who[row])
                if seat < 0:
                    continue
                want = np.asarray(state.observation(seat), dtype=obs.dtype)
                if want.shape != obs[row].shape or want.tobytes() != obs[row].tobytes():
                    diff = np.flatnonzero(want.reshape(-1) != obs[row].reshape(-1))[:8].tolist()
                    shown = ", ".join(f"[{i}] {obs[row].reshape(-1)[i]} (Python {want.reshape(-1)[i]})" for i in diff)
                    self._fail(row, f"observation of seat {seat}", f"differs at {shown or 'its bit patterns'}")
                    return
                self.counts["observations"] += 1

    def play_decision(self) -> None:
        """One move in every row; a row whose game ended is dealt afresh in both engines."""
        engine, states = self.engine, self.python
        actions, chance, rewards = [], [], []
        for row, state in enumerate(states):
            action = int(self.chooser(state, self.pick[row]))
            potential = state.potentials() if self.dense else None
            actions.append(action)
            chance.append(engine.python_step(state, action))
            reward = np.subtract(state.potentials(), potential) if self.dense else np.zeros(self.game.num_players)
            if state.is_terminal():
                reward = reward + np.asarray(state.returns())
            rewards.append(reward)
        previous = self.array
        a = torch.as_tensor(actions, dtype=torch.int64, device=engine.device)
        forced = torch.stack([c.to(engine.device) for c in chance])
        self.array, got_rewards, got_terminal = engine.step(self.array, a, chance=forced)
        self.decisions += len(states)
        got_rewards, got_terminal = got_rewards.cpu().numpy(), got_terminal.cpu().numpy()
        for row, state in enumerate(states):
            want = np.asarray(rewards[row], dtype=np.float32)
            if not np.array_equal(got_rewards[row].astype(np.float32), want):
                self._fail(row, f"rewards after action {actions[row]}",
                           f"array {got_rewards[row].tolist()}, Python {want.tolist()}", self._before(previous, row))
                return
            if bool(got_terminal[row]) != state.is_terminal():
                self._fail(row, f"terminal after action {actions[row]}",
                           f"array says {bool(got_terminal[row])}, Python {state.is_terminal()}",
                           self._before(previous, row))
                return
        self.counts["rewards"] += len(states)
        if not self._compare_states(engine.from_states(states), self.array,
                                    "next state (array step against the Python engine's)", previous):
            return
        self.counts["states"] += len(states)
        self.moves += 1
        if self.roundtrip_every and self.moves % self.roundtrip_every == 0:
            if not self._compare_states(self.array, engine.from_states(engine.to_states(self.array)),
                                        "to_states round trip"):
                return
            self.counts["round_trips"] += len(states)
        self._redeal_finished()

    def _before(self, previous: ArrayState, row: int) -> State | None:
        """The position a move started from, for the report: the array state before the step, which matched
        the Python engine's (so the harness keeps no copy of every Python state)."""
        try:
            return self.engine.to_states({k: v[row : row + 1] for k, v in previous.items()})[0]
        except Exception:  # noqa: BLE001 (the report then shows the position after the move)
            return None

    def _redeal_finished(self) -> None:
        finished = [row for row, s in enumerate(self.python) if s.is_terminal() or s.decisions >= self.max_decisions]
        if not finished:
            return
        self.games_finished += len(finished)
        for row in finished:
            self.python[row] = self._deal(row)
        fresh = self.engine.from_states([self.python[row] for row in finished])
        index = torch.as_tensor(finished, dtype=torch.int64, device=self.engine.device)
        # out of place: the previous step's tensors stay as they were (a report may read them)
        self.array = {name: value.index_put((index,), fresh[name]) for name, value in self.array.items()}


def run_differential(env: str, options: dict[str, Any] | None = None, *, decisions: int = 10_000, rows: int = 64,
                     chooser: str | Chooser | Any = "random", seed: int = 0, device: str = "cpu",
                     engine: ArrayGame | None = None, compare_all_seats: bool = True, roundtrip_every: int = 1,
                     on_progress: Callable[[int], None] | None = None,
                     on_decision: Callable[[list[State], ArrayGame, ArrayState], None] | None = None,
                     ) -> DifferentialReport:
    """Play `rows` games side by side for at least `decisions` decisions (rows x moves), or until the first
    mismatch; `engine` overrides the env's own array engine (a test's deliberately broken one). The
    `to_states` round trip runs every `roundtrip_every` moves (0: never): it loads and checks every row as a
    Python state, which costs more than the rest of a decision. `on_decision(python states, engine, array
    state)` sees every position once both engines agree on it, before its move (a test's extra check)."""
    options = dict(options or {})
    game = game_class(env).from_config(options)
    engine = engine or array_game_class(env)(game, device)
    if rows < 1 or decisions < 1:
        raise ConfigError(f"rows and decisions must be 1 or more, got rows={rows}, decisions={decisions}")
    report = DifferentialReport(env, options, _chooser_name(chooser), rows)
    differ = _Differ(engine, rows, make_chooser(chooser, env, options), seed, compare_all_seats, roundtrip_every)
    _check_deal(engine, rows, seed, differ)
    while differ.first is None and differ.decisions < decisions:
        differ.check_decision()
        if differ.first is None and on_decision is not None:
            on_decision(differ.python, engine, differ.array)
        if differ.first is None:
            differ.play_decision()
        if on_progress is not None:
            on_progress(differ.decisions)
    report.decisions, report.games_finished = differ.decisions, differ.games_finished
    report.comparisons, report.mismatch = dict(differ.counts), differ.first
    return report


def _check_deal(engine: ArrayGame, rows: int, seed: int, differ: _Differ) -> None:
    """The array engine's own deals must be positions the Python engine accepts (its consistency check runs
    as `to_states` loads them), and must convert back to the same arrays."""
    from ultimata.envs.core.array import rng

    keys = rng.game_keys(seed, torch.arange(rows, device=engine.device), torch.ones(rows, dtype=torch.int64,
                                                                                     device=engine.device))
    dealt = engine.deal(keys)
    try:
        states = engine.to_states(dealt)
    except Exception as err:  # noqa: BLE001 (the report names what the Python engine refused)
        differ._fail(0, "array deal", f"the Python engine refuses the array engine's deal: {err}")
        return
    differ._compare_states(dealt, engine.from_states(states), "array deal round trip", dealt)


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """`key=value` rule options from the command line; each value is read as YAML (`true`, `3`, `[1, 6]`)."""
    import yaml

    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"a rule option is key=value, e.g. run_length=3; got {pair!r}")
        try:
            out[key.strip()] = yaml.safe_load(value)
        except yaml.YAMLError:
            raise ConfigError(f"rule option {key.strip()}: {value!r} is not a YAML value") from None
    return out
