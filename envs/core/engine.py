"""The rules-engine contract every game keeps. No PettingZoo here.

A `Game` holds the static facts of one rule variant (players, action count, observation size) and
creates states. A `State` is one position: it knows whose decision it is, which actions are legal,
and how to apply one. Arenas, tree search and tests drive states directly; `envs.core.adapter` wraps
them for PettingZoo.
"""

from __future__ import annotations

import copy
import importlib
from abc import ABC, abstractmethod
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from ultimata.envs.core.config import GameConfig, validate_config
from ultimata.envs.core.errors import ConfigError, IllegalActionError, UltimataError
from ultimata.envs.core.fields import Fields
from ultimata.envs.core.game_info import FromInfo, GameInfo, fact
from ultimata.envs.core.rng import Rng

ConfigT = TypeVar("ConfigT", bound=GameConfig)


class Game(Generic[ConfigT]):
    """One rule variant of one game. A game declares its facts once, as `info` (a `GameInfo`, whose fields
    say what each means); the class-wide facts below are read from it under the names callers use, and the
    game's own class adds only what is particular to it."""

    info: ClassVar[GameInfo]
    name = FromInfo()
    title = FromInfo()
    version = FromInfo()
    config_model = FromInfo("config")
    render_modes = FromInfo()
    has_board = FromInfo()
    supports_dense_reward = FromInfo("dense_reward")
    observation_dtype = FromInfo()
    perfect_information = FromInfo()
    observation_planes = FromInfo()

    def __init__(self, config: ConfigT) -> None:
        if config.dense_reward and not self.supports_dense_reward:
            raise ConfigError(f"{self.name} has no dense reward; set dense_reward: false")
        self.config = config

    @classmethod
    def from_config(cls, config: dict[str, Any] | None = None) -> Game:
        return cls(validate_config(cls.config_model, config, f"{cls.name} config"))

    # The sizes of a rule variant, worked out once per game from the declaration (after the game's own
    # `__init__`, whose layouts they may read), then plain attributes: the mask reads them every decision.
    @cached_property
    def num_players(self) -> int:
        return fact(self.info.players, self)

    @cached_property
    def num_actions(self) -> int:
        return fact(self.info.actions, self)

    @cached_property
    def observation_shape(self) -> tuple[int, ...]:
        return (fact(self.info.observation_size, self),)

    @cached_property
    def observation_bounds(self) -> tuple[float, float]:
        return fact(self.info.observation_bounds, self)

    def new_initial_state(self, rng: Rng) -> State:
        """A fresh game whose chance events (deal, dice) come from `rng`."""
        return self.info.state(self, rng)

    def make_renderer(self, mode: str, fps: int) -> Any:
        """The game's pygame picture: `info.renderer`, a class of its package's `render.py`."""
        if not self.has_board:
            raise NotImplementedError(f"{self.name} draws no board")
        package = type(self).__module__.rpartition(".")[0]
        return getattr(importlib.import_module(f"{package}.render"), self.info.renderer)(mode, fps)

    def state_from_dict(self, d: dict[str, Any]) -> State:
        state = self.new_initial_state(Rng(0))
        state.load_state_dict(d)
        return state


GameT = TypeVar("GameT", bound=Game)


class State(ABC):
    """One position. Subclasses implement the `_`-prefixed hooks; the public API validates."""

    def __init__(self, game: Game, rng: Rng) -> None:
        self.game = game
        self.rng = rng
        self._mask: np.ndarray | None = None
        self.decisions = 0

    # -- what subclasses provide -------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat whose decision it is; -1 once the game is over."""

    @abstractmethod
    def _legal_actions(self) -> list[int]:
        """The legal actions of the current player (empty when terminal)."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply a legal action (validation has been done)."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Per-seat result: zero until the game ends, then zero-sum."""

    @abstractmethod
    def observation(self, player: int) -> np.ndarray:
        """What `player` may see, seat-relative, as a flat array of `game.observation_shape`."""

    @abstractmethod
    def _action_to_string(self, action: int) -> str:
        """The move as its player reads it (may say 'you'). `action` is an index in range, legal or not:
        the public `action_to_string` checked it."""

    def _narrate(self, action: int) -> str:
        """The move as everyone else reads it, in the third person: 'player_2 offers 3 to player_0'.
        Games whose action names say 'you' override this; `action` is an index in range."""
        return f"player_{self.current_player}: {self._action_to_string(action)}"

    last_event_per_move: ClassVar[bool] = False
    """How a game tells what its rules did by themselves after a move (narration.py, `apply_and_tell`).
    True: it keeps `move_events: list[str]`, every sentence its rules logged during the latest move, in
    order and uncapped, emptied as each move starts (in `_apply`), not saved and not observed. False: it
    may keep `last_event`, one sentence that stays until something new happens (told when it changes)."""

    FIELDS: ClassVar[Fields] = Fields()
    """The position's one declaration (envs/core/fields.py): its saved fields with their kinds, and every other
    attribute with what a clone does with it. `_to_dict`, `_from_dict` and `clone` come from it."""
    ENGINE_ATTRS: ClassVar[frozenset[str]] = frozenset(("game", "rng", "_mask", "decisions"))
    """The attributes this class sets up itself (and `clone` treats itself): a game's FIELDS leaves them out."""

    def _to_dict(self) -> dict[str, Any]:
        """The saved fields; they may be the live objects: `state_dict` copies them."""
        if not self.FIELDS.keys:
            raise NotImplementedError(f"{type(self).__name__} declares no FIELDS")
        return self.FIELDS.save(self)

    def _from_dict(self, d: dict[str, Any]) -> None:
        """Restore the saved fields, each checked against its kind first, and recompute the derived ones
        rather than trusting them. `d` is this state's own copy (`load_state_dict` made it), so its objects
        may be kept as they are."""
        if not self.FIELDS.keys:
            raise NotImplementedError(f"{type(self).__name__} declares no FIELDS")
        self.FIELDS.load(self, d)

    def _check_consistency(self) -> None:  # noqa: B027 (an optional hook; games override it)
        """Raise ValueError naming what is wrong when a loaded state breaks the game's invariants
        (pieces on two places, counts out of range, a phase that does not fit the position)."""

    def hidden_choice_pending(self) -> bool:
        """True while a choice one seat made waits, unseen by the others, for another seat's (a battle's
        first weapon): a game saved here would hold it. Games with such choices override this."""
        return False

    def sample_consistent(self, viewer: int, rng: Rng) -> State:
        """A full state that agrees with everything `viewer` may see or remember, with the hidden
        parts (other hands, deck order) drawn at random, and future chance drawn from `rng`: what
        search may plan on without cheating. Games with hidden information override this."""
        if not self.game.perfect_information:
            raise NotImplementedError(f"{self.game.name} hides information and has no sample_consistent")
        other = self.clone()
        other.rng = Rng(rng.below(2**62))
        return other

    def potentials(self) -> list[float]:
        """Per-seat shaping potential; the dense reward is its change. Zero-sum games keep it zero-sum."""
        raise NotImplementedError

    @abstractmethod
    def render_text(self, viewer: int | None = None) -> str:
        """A readable table; with `viewer`, only what that seat may see."""

    # -- the contract ------------------------------------------------------------------------
    def legal_action_mask(self) -> np.ndarray:
        """int8 mask over `game.num_actions`; cached until the next apply. Do not mutate it."""
        if self._mask is None:
            mask = bytearray(self.game.num_actions)  # set byte by byte: cheaper than numpy's list indexing
            for action in self._legal_actions():
                mask[action] = 1
            self._mask = np.frombuffer(mask, dtype=np.int8)
        return self._mask

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self.legal_action_mask()).tolist()

    def action_to_string(self, action: int) -> str:
        """The move as its player reads it (may say 'you'). Anything but an action index of this game,
        legal now or not, is an IllegalActionError: no game code sees it."""
        return self._action_to_string(self._action_index(action))

    def narrate(self, action: int) -> str:
        """The move as everyone else reads it, in the third person; checked like `action_to_string`."""
        return self._narrate(self._action_index(action))

    def check_legal(self, action: int) -> int:
        """`action` as an index if it is legal for the current player now; else IllegalActionError. Callers
        that describe a move before applying it check it here first, so no game code describes a bad one."""
        mask = self.legal_action_mask()
        index = self._action_index(action)
        if not mask[index]:
            raise IllegalActionError(self._illegal_message(index))
        return index

    def apply(self, action: int) -> None:
        """Apply `action` for the current player, or raise IllegalActionError and change nothing."""
        self._apply_checked(self.check_legal(action))

    def _apply_checked(self, index: int) -> None:
        """Apply an action index already checked against this state's mask (`envs.batch` checks a whole
        batch before it applies any, and does not pay for the check twice)."""
        self._mask = None
        self.decisions += 1
        self._apply(index)

    def _action_index(self, action: Any) -> int:
        """`action` as an int in 0..num_actions-1, or IllegalActionError saying what an action is."""
        # bool is an int subclass and 1.0 == 1: both would slip through int(); only true integers are actions
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(
                f"action must be an integer in 0..{self.game.num_actions - 1}, got {_shown(action)} "
                f"({type(action).__name__})"
            )
        index = int(action)
        if not 0 <= index < self.game.num_actions:
            over = "over" if self.is_terminal() else "not over"
            raise IllegalActionError(
                f"action {_shown(index)} is out of range: {self.game.name}'s actions are 0..{self.game.num_actions - 1}"
                f" (the game is {over})"
            )
        return index

    def _illegal_message(self, index: int) -> str:
        if self.is_terminal():
            return f"action {index} refused: {self.game.name} is over, no action is legal"
        legal = self.legal_actions()
        shown = ", ".join(f"{a} ({self._action_to_string(a)})" for a in legal[:12])
        more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
        return (
            f"action {index} ({self._action_to_string(index)}) is not legal for player {self.current_player} now; "
            f"legal actions: {shown}{more}"
        )

    def clone(self) -> State:
        """An independent copy: what play changes in place is copied as FIELDS declares, the rest shared."""
        other = self.FIELDS.clone(self)
        other.rng = self.rng.copy()
        return other

    def state_dict(self) -> dict[str, Any]:
        """JSON-serialisable and exact: a loaded state continues identically, dice included. A snapshot:
        it shares nothing with this state, so it stays as it was while play goes on."""
        return {
            "game": self.game.name,
            "version": self.game.version,
            "config": self.game.config.model_dump(mode="json"),
            "decisions": self.decisions,
            "rng": copy.deepcopy(self.rng.state_dict()),
            "state": copy.deepcopy(self._to_dict()),
        }

    def load_state_dict(self, d: dict[str, Any]) -> None:
        """Restore a state saved by `state_dict`; on any problem raise and leave this state as it was."""
        if not isinstance(d, dict) or not {"game", "version", "config", "rng", "state"} <= d.keys():
            raise UltimataError("a state dict must be a mapping with keys game, version, config, rng, state")
        if d["game"] != self.game.name or d["version"] != self.game.version:
            raise UltimataError(
                f"state dict is for {d['game']} v{d['version']}, this is {self.game.name} v{self.game.version}"
            )
        if d["config"] != self.game.config.model_dump(mode="json"):
            raise UltimataError("state dict was saved under another rule config; build the env with that config")
        decisions = d.get("decisions", 0)
        if not isinstance(decisions, int) or isinstance(decisions, bool) or decisions < 0:
            raise UltimataError(f"state dict for {self.game.name} refused: decisions must be a whole number "
                                f"0 or more, got {decisions!r}")
        fresh = self.game.new_initial_state(Rng(0))
        try:
            fresh.rng = Rng.from_state_dict(copy.deepcopy(d["rng"]))
            fresh.decisions = decisions
            fresh._from_dict(copy.deepcopy(d["state"]))  # the caller's dict stays theirs: nothing shared
            fresh._mask = None
            fresh._check_consistency()
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, RecursionError) as err:
            raise UltimataError(f"state dict for {self.game.name} refused: {err}") from None
        if not fresh.is_terminal() and not fresh.legal_actions():
            raise UltimataError(f"inconsistent state dict for {self.game.name}: the game is live but nothing is legal")
        self.__dict__.update(fresh.__dict__)


def _shown(value: Any) -> str:
    """A refused value for a message, kept short: Python will not even print an int of 4,300 digits."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        number = abs(int(value))
        if number < 10**60:
            return str(int(value))
        digits = int((number.bit_length() - 1) * 0.30102999566398) + 1  # at most one short
        digits += number >= 10**digits
        return f"(a {'negative ' if value < 0 else ''}{digits}-digit number)"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 (a hostile object's repr may fail: its type still says enough)
        text = f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."
