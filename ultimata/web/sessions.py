"""Live games in the browser: a bounded, expiring store of sessions, each a game with a human seat
(or none, to watch) and bots on the other seats.

A slot is held only while a game can still be played: a finished or resigned game leaves the live set at
once (its last snapshot stays readable for a while), an idle one expires, and each client address has its
own share of the slots, so one person cannot lock the others out. Slots are counted before any bot is
loaded, and a creation repeated with the same request id returns the game the first one made.

Every game is in the record (ultimata/record/) from its start, each move logged as it is made, and ends
there however it ends: finished, resigned, left, expired, or interrupted when the server stops. A game
with a result is also written to the replay folder as a file to share."""

from __future__ import annotations

import logging
import random
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ultimata.agents.base import Agent
from ultimata.agents.explain import explain
from ultimata.envs.core.engine import State
from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.narration import apply_and_tell
from ultimata.envs.core.replay import Replay
from ultimata.envs.core.rng import Rng
from ultimata.record import GameRecord
from ultimata.record.importer import export
from ultimata.web.verdict import verdict
from ultimata.web.views import seat_view, view_module

log = logging.getLogger(__name__)


class SessionError(UltimataError):
    """A request that does not fit the session's state (not your turn, game over, ...)."""


class TooManySessions(UltimataError):
    pass


class RequestReused(UltimataError):
    """A request id sent again with a different game."""


@dataclass
class GameSession:
    id: str
    game_name: str
    seed: int
    state: State
    seats: list[str]
    """The spec playing each seat; 'human' for the person."""
    agents: dict[int, Agent]
    human: int | None
    client: str = ""
    actions: list[int] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    last_access: float = field(default_factory=time.monotonic)
    saved_as: str | None = None
    """The game's name in the record (and its replay file's), once it has ended."""
    levels: list[str | None] = field(default_factory=list)
    """The difficulty level that chose each seat's bot, where one did."""
    record_id: int | None = None
    logged: int = 0
    """Moves written to the record so far."""
    ended: str | None = None
    """How a game ended outside the rules: 'resigned'."""
    stopped: str | None = None
    """How the store ended the game ('finished', 'left', 'expired', ...), once it has (`_end`): a move
    that was waiting for the lock while the game was closed finds it over, not half torn down."""
    rated: bool = True
    """Whether the game counts in the ratings: the server drew its seed, and keeps it from the client until
    the game is over. A game from a seed the client chose is practice (its player can work out every hand)."""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    """Held by every move, by the snapshot and by the game's end, so none sees another half done."""

    @property
    def over(self) -> bool:
        return self.ended is not None or self.stopped is not None or self.state.is_terminal()

    @property
    def waiting_for(self) -> str | None:
        if self.over:
            return None
        return "human" if self.state.current_player == self.human else "bot"

    def _apply(self, action: int, why: str | None = None) -> None:
        seat = self.state.current_player
        label, outcome = apply_and_tell(self.state, action, self.human)
        self.actions.append(action)
        event = {"n": len(self.actions), "seat": seat, "who": self.seats[seat], "move": label}
        if outcome:
            event["outcome"] = outcome
        if why:
            event["why"] = why
        self.events.append(event)

    def human_move(self, action: int) -> None:
        if self.waiting_for != "human":
            raise SessionError("it is not your turn" if not self.over else "the game is over")
        self._apply(action)  # IllegalActionError (names the legal moves) leaves the game unchanged

    def bot_move(self) -> None:
        if self.waiting_for != "bot":
            raise SessionError("the game is over" if self.over else "it is your turn, not a bot's")
        seat = self.state.current_player
        agent = self.agents[seat]
        told = explain(agent, self.state.observation(seat), self.state.legal_action_mask(), state=self.state)
        # the other moves it weighed would show a bot's hidden hand to a player (a watcher may see every seat)
        shown = self.human is None or self.state.game.perfect_information
        self._apply(told.action, told.words(self.state.action_to_string, shown))

    def snapshot(self, perspective: int | None = None, events_from: int = 0) -> dict[str, Any]:
        """What the browser receives: the view from the human seat (or `perspective` when watching), and
        the game's events from the `events_from`-th on (all of them by default; `events_total` counts them)."""
        seat = self.human if self.human is not None else perspective
        your_turn = self.waiting_for == "human"
        view = seat_view(self.game_name, self.state, seat)
        returns = self.state.returns() if self.state.is_terminal() else None
        return {
            "id": self.id,
            "game": self.game_name,
            "seats": self.seats,
            "human": self.human,
            "view": view,
            "moves": view_module(self.game_name).moves(self.state) if your_turn else [],
            "waiting_for": self.waiting_for,
            "events": self.events[events_from:],
            "events_total": len(self.events),
            "over": self.over,
            "ended": self.ended,
            "returns": returns,
            "result": verdict(self.seats, self.human, returns, self.ended or self.stopped, view) if self.over else None,
            "replay": self.saved_as,
            "rated": self.rated,
            "seed": self.seed if self.over else None,  # a rated game's deal is not to be worked out while it runs
        }

    def replay(self) -> Replay:
        """The game so far; an unfinished one cut back to its last position with no hidden choice pending
        (kept whole where its moves do not replay from its seed: a position set by hand, as tests do)."""
        replay = Replay.of_game(self.state, self.seed, self.actions, self.seats)
        if self.state.is_terminal():
            return replay
        try:
            return replay.settled()
        except UltimataError:
            return replay


@dataclass
class _Creation:
    """A slot held while a game's bots load; a repeat of the same request waits for it."""

    client: str
    fingerprint: str
    done: threading.Event = field(default_factory=threading.Event)
    session: GameSession | None = None


@dataclass(frozen=True)
class Limits:
    total: int = 32
    """Live games on the server."""
    per_client: int = 4
    """Live games per client address."""
    idle_seconds: float = 600
    """A live game untouched this long expires."""
    finished_kept: int = 64
    """Finished games whose last snapshot stays readable (they hold no slot and no bots)."""
    finished_seconds: float = 600


BuildGame = Callable[[], tuple[list[str], dict[int, Agent]]]
"""Loads the bots of a new game: (spec per seat, agent per bot seat). Called once a slot is held."""


class SessionStore:
    """Live games within `limits`, finished games' last snapshots, and the request ids that made them.
    Ids are unguessable (128 random bits)."""

    def __init__(self, limits: Limits | None = None, replays: Path | None = None,
                 record: GameRecord | None = None) -> None:
        self.limits = limits or Limits()
        self.replays = replays
        self.record = record if record is not None else GameRecord(None)
        self._live: dict[str, GameSession] = {}
        self._finished: OrderedDict[str, GameSession] = OrderedDict()
        self._creating: list[_Creation] = []
        self._requests: dict[tuple[str, str], _Creation] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """Slots in use: live games and games whose bots are loading."""
        return len(self._live) + len(self._creating)

    def live_for(self, client: str) -> list[GameSession]:
        """The live games of one address, oldest first: the per-person limit counts them, so any browser
        there may list them to go back to one or leave it."""
        with self._lock:
            return [s for s in self._live.values() if s.client == client]

    def _expire(self) -> list[GameSession]:
        """Drop idle live games and old finished ones; returns the live games dropped, which the caller
        records (`_abandon`) once it has let go of the store's lock."""
        now = time.monotonic()
        limit = self.limits.idle_seconds
        idle = [self._live.pop(k) for k, s in list(self._live.items()) if now - s.last_access > limit]
        for session in idle:
            self._forget(session)
        while self._finished and (
            len(self._finished) > self.limits.finished_kept
            or now - next(iter(self._finished.values())).last_access > self.limits.finished_seconds
        ):
            self._forget(self._finished.popitem(last=False)[1])
        return idle

    def _abandon(self, sessions: list[GameSession], ending: str) -> None:
        """Record games that stopped without a result: 'expired', 'left' or 'interrupted'."""
        for session in sessions:
            with session.lock:
                self._end(session, ending)

    def _forget(self, session: GameSession) -> None:
        for key in [k for k, c in self._requests.items() if c.session is session]:
            del self._requests[key]

    def _check_room(self, client: str) -> None:
        if len(self) >= self.limits.total:
            raise TooManySessions(f"the server's {self.limits.total} game slots are all in use; finish a game or "
                                  f"try again later (idle games expire after {self._idle_minutes})")
        mine = sum(s.client == client for s in self._live.values()) + sum(c.client == client for c in self._creating)
        if mine >= self.limits.per_client:
            raise TooManySessions(f"you have {mine} games in play (at most {self.limits.per_client} a person); "
                                  f"finish or leave one (idle games expire after {self._idle_minutes})")

    @property
    def _idle_minutes(self) -> str:
        return f"{self.limits.idle_seconds / 60:g} minutes"

    def create(
        self, game_name: str, config: dict[str, Any], human: int | None, seed: int | None, build: BuildGame,
        client: str = "", request_id: str | None = None, fingerprint: str = "", levels: list[str | None] | None = None,
    ) -> GameSession:
        """A new game, or the one an earlier request with this `request_id` made. The slot is taken before
        `build` loads any bot, so a full server refuses at once (TooManySessions)."""
        from ultimata.envs.core.registry import game_class

        key = (client, request_id) if request_id is not None else None
        while True:
            with self._lock:
                idle = self._expire()
                earlier = self._requests.get(key) if key else None
                if earlier is None:
                    self._check_room(client)
                    creation = _Creation(client, fingerprint)
                    self._creating.append(creation)
                    if key:
                        self._requests[key] = creation
                    break
            self._abandon(idle, "expired")
            if earlier.fingerprint != fingerprint:
                raise RequestReused(f"request_id {request_id!r} already started another game; "
                                    "send a new request_id for a new game")
            earlier.done.wait()
            if earlier.session is not None:
                return self.get(earlier.session.id)
            # the first attempt failed and left nothing behind: this one tries again by itself
        self._abandon(idle, "expired")
        try:
            seats, agents = build()
            game = game_class(game_name).from_config(config)
            rated = seed is None  # a seed the client chose is practice: it could work out every hand
            seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
            session = GameSession(
                id=secrets.token_urlsafe(16), game_name=game_name, seed=seed, rated=rated,
                state=game.new_initial_state(Rng(seed)), seats=seats, agents=agents, human=human, client=client,
                levels=list(levels) if levels is not None else [None] * len(seats),
            )
            for seat, agent in agents.items():
                agent.reset(seat, seed + seat)
            session.record_id = self._recorded(lambda: self.record.start(
                game_name, game.config.model_dump(mode="json"), seed, seats, session.levels, human, "web",
                rated=rated))
        except BaseException:
            with self._lock:
                self._creating.remove(creation)
                if key:
                    self._requests.pop(key, None)
            creation.done.set()
            raise
        with self._lock:
            self._creating.remove(creation)
            self._live[session.id] = session
            creation.session = session
        creation.done.set()
        return session

    def get(self, session_id: str) -> GameSession:
        """A live game, or a finished one still kept. KeyError if neither."""
        with self._lock:
            idle = self._expire()
            session = self._live.get(session_id) or self._finished.get(session_id)
            if session is not None:
                session.last_access = time.monotonic()
                if session_id in self._finished:
                    self._finished.move_to_end(session_id)  # the oldest read goes first
        self._abandon(idle, "expired")
        if session is None:
            raise KeyError(session_id)
        return session

    def settle(self, session: GameSession) -> None:
        """After a move: the move goes to the record; a finished game is recorded with its replay (and saved to
        the replay folder), lets go of its bots and leaves the live set, so it holds no slot. Call with the
        session's lock held."""
        self._log_moves(session)
        if not session.over or session.id not in self._live:
            return
        self._end(session, "resigned" if session.ended == "resigned" else "finished")
        with self._lock:
            self._live.pop(session.id, None)
            self._finished[session.id] = session
            idle = self._expire()
        self._abandon(idle, "expired")

    def resign(self, session: GameSession) -> None:
        """The person gives the game up: a loss, recorded as such. Call with the session's lock held."""
        if session.human is None:
            raise SessionError("nobody plays here to resign: leave the game to stop watching")
        if session.over:
            raise SessionError("the game is over")
        session.ended = "resigned"
        self.settle(session)

    def close(self, session_id: str) -> None:
        """The player left: the game stops at once and is recorded as left, unfinished. KeyError if there is no
        such game."""
        with self._lock:
            session = self._live.pop(session_id, None) or self._finished.pop(session_id, None)
            if session is None:
                raise KeyError(session_id)
            self._forget(session)
        self._abandon([session], "left")

    def close_all(self) -> None:
        """The server stops: every game still in play is recorded as interrupted."""
        with self._lock:
            live = list(self._live.values())
            self._live.clear()
        self._abandon(live, "interrupted")

    def _log_moves(self, session: GameSession) -> None:
        if session.record_id is None:
            return
        while session.logged < len(session.actions):
            n = session.logged + 1
            if self._recorded(lambda n=n: self.record.move(session.record_id, n, session.actions[n - 1])) is None:
                return
            session.logged = n

    def _end(self, session: GameSession, ending: str) -> None:
        """Record how the game ended (once); a game with a result is also saved to the replay folder. Call
        with the session's lock held (`settle`, `_abandon`): a move must not run while its bots are dropped."""
        if session.stopped is None:
            session.stopped = ending
        if session.saved_as is not None:
            return
        session.agents = {}
        replay = session.replay()
        if session.record_id is not None:
            self._log_moves(session)
            name = self._recorded(lambda: self.record.finish(session.record_id, replay, ending))
        elif ending in ("finished", "resigned"):  # not in the record: its file is all that is kept
            name = f"{session.game_name}-{time.strftime('%Y%m%d-%H%M%S')}-{session.id[:6]}.json"
        else:
            name = None
        if name is None:
            return
        session.saved_as = name
        if self.replays is not None and ending in ("finished", "resigned"):
            try:
                if session.record_id is not None:
                    export(self.record, name, self.replays, replay)
                else:
                    replay.save(self.replays / name)
            except (OSError, UltimataError) as err:  # a full or read-only disk costs the file, not the game
                log.warning("replay of %s not saved: %s", session.id[:6], err)

    @staticmethod
    def _recorded(write: Callable[[], Any]) -> Any:
        """A write to the record, or None (logged) when the record refuses it: a full disk, a file locked
        for longer than the record waits. The game goes on; its replay file is still saved at the end."""
        try:
            return write()
        except (UltimataError, sqlite3.Error, OSError) as err:
            log.warning("the game record refused a write: %s", err)
            return None
