"""Live games in the browser: a bounded, expiring store of sessions, each a game with a human seat
(or none, to watch) and bots on the other seats."""

from __future__ import annotations

import random
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ultimata.agents.base import Agent
from ultimata.envs.core.engine import State
from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.narration import apply_and_tell
from ultimata.envs.core.replay import Replay
from ultimata.envs.core.rng import Rng
from ultimata.web.views import view_module


class SessionError(UltimataError):
    """A request that does not fit the session's state (not your turn, game over, ...)."""


class TooManySessions(UltimataError):
    pass


@dataclass
class GameSession:
    id: str
    game_name: str
    config: dict[str, Any]
    seed: int
    state: State
    seats: list[str]
    """The spec playing each seat; 'human' for the person."""
    agents: dict[int, Agent]
    human: int | None
    actions: list[int] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    last_access: float = field(default_factory=time.monotonic)
    saved_as: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    @property
    def waiting_for(self) -> str | None:
        if self.over:
            return None
        return "human" if self.state.current_player == self.human else "bot"

    def _apply(self, action: int) -> None:
        seat = self.state.current_player
        label, outcome = apply_and_tell(self.state, action, self.human)
        self.actions.append(action)
        event = {"n": len(self.actions), "seat": seat, "who": self.seats[seat], "move": label}
        if outcome:
            event["outcome"] = outcome
        self.events.append(event)

    def human_move(self, action: Any) -> None:
        if self.waiting_for != "human":
            raise SessionError("it is not your turn" if not self.over else "the game is over")
        if not isinstance(action, int) or isinstance(action, bool):
            raise SessionError(f"action must be an integer, got {action!r}")
        self._apply(action)  # IllegalActionError (names the legal moves) leaves the game unchanged

    def bot_move(self) -> None:
        if self.waiting_for != "bot":
            raise SessionError("the game is over" if self.over else "it is your turn, not a bot's")
        seat = self.state.current_player
        agent = self.agents[seat]
        action = agent.act(self.state.observation(seat), self.state.legal_action_mask(), state=self.state)
        self._apply(int(action))

    def snapshot(self, perspective: int | None = None) -> dict[str, Any]:
        """What the browser receives: the view from the human seat (or `perspective` when watching)."""
        views = view_module(self.game_name)
        seat = self.human if self.human is not None else perspective
        your_turn = self.waiting_for == "human"
        return {
            "id": self.id,
            "game": self.game_name,
            "seats": self.seats,
            "human": self.human,
            "view": views.view(self.state, seat),
            "moves": views.moves(self.state) if your_turn else [],
            "waiting_for": self.waiting_for,
            "events": self.events[-30:],
            "over": self.over,
            "returns": self.state.returns() if self.over else None,
        }

    def replay(self) -> Replay:
        cls = type(self.state.game)
        return Replay(
            game=self.game_name,
            version=cls.version,
            config=self.config,
            seed=self.seed,
            actions=list(self.actions),
            players=self.seats,
            returns=list(self.state.returns()),
            final_state=self.state.state_dict() if self.over else None,
        )


class SessionStore:
    """At most `max_sessions` live games; a game untouched for `idle_seconds` is dropped. Ids are
    unguessable (128 random bits)."""

    def __init__(self, max_sessions: int = 32, idle_seconds: float = 1800, replays: Path | None = None) -> None:
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self.replays = replays
        self._sessions: dict[str, GameSession] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sessions)

    def _expire(self) -> None:
        now = time.monotonic()
        for key in [k for k, s in self._sessions.items() if now - s.last_access > self.idle_seconds]:
            del self._sessions[key]

    def create(
        self,
        game_name: str,
        config: dict[str, Any],
        seats: list[str],
        agents: dict[int, Agent],
        human: int | None,
        seed: int | None,
    ) -> GameSession:
        from ultimata.envs.core.registry import game_class

        game = game_class(game_name).from_config(config)
        seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        with self._lock:
            self._expire()
            if len(self._sessions) >= self.max_sessions:
                raise TooManySessions(f"{self.max_sessions} games are live; finish or wait for one to expire")
            session = GameSession(
                id=secrets.token_urlsafe(16),
                game_name=game_name,
                config=config,
                seed=seed,
                state=game.new_initial_state(Rng(seed)),
                seats=seats,
                agents=agents,
                human=human,
            )
            for seat, agent in agents.items():
                agent.reset(seat, seed + seat)
            self._sessions[session.id] = session
        return session

    def get(self, session_id: str) -> GameSession:
        with self._lock:
            self._expire()
            session = self._sessions.get(session_id)
        if session is None:
            raise KeyError(session_id)
        session.last_access = time.monotonic()
        return session

    def save_if_over(self, session: GameSession) -> str | None:
        """A finished game is saved once as a replay, if a replay folder is configured."""
        if session.over and self.replays and session.saved_as is None:
            name = f"{session.game_name}-{time.strftime('%Y%m%d-%H%M%S')}-{session.id[:6]}.json"
            session.replay().save(self.replays / name)
            session.saved_as = name
        return session.saved_as
