"""The HTTP API and the page. Everything the browser gets is one seat's view; every bad request is a
4xx with a message and changes nothing."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from ultimata.agents.base import Agent
from ultimata.envs.core.errors import IllegalActionError, ReplayError, UltimataError
from ultimata.envs.core.registry import GAMES, game_class
from ultimata.envs.core.replay import Replay
from ultimata.web.sessions import GameSession, SessionError, SessionStore, TooManySessions
from ultimata.web.views import view_module

STATIC = Path(__file__).parent / "static"
BUILTIN_OPPONENTS = ("random", "heuristic", "mcts", "pretrained")


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    config: dict[str, Any] = {}
    human_seat: int | None = 0
    """None: watch bots play each other."""
    opponents: dict[int, str] = {}
    """Spec per bot seat: random, heuristic, pretrained, or checkpoint:<file in the folder>. Default heuristic."""
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: int


def create_app(
    checkpoints: Path | None = None,
    replays: Path | None = None,
    max_sessions: int = 32,
    idle_seconds: float = 1800,
) -> FastAPI:
    app = FastAPI(title="ultimata", docs_url="/api/docs", openapi_url="/api/openapi.json")
    store = SessionStore(max_sessions, idle_seconds, replays)
    app.state.store = store

    # -- catalogue ---------------------------------------------------------------------------------
    @app.get("/api/games")
    def games() -> list[dict[str, Any]]:
        out = []
        for name in GAMES:
            cls = game_class(name)
            game = cls.from_config({})
            out.append({
                "name": name,
                "title": cls.title or name,
                "summary": (cls.__doc__ or "").strip().splitlines()[0],
                "players": game.num_players,
                "config_schema": cls.config_model.model_json_schema(),
                "defaults": game.config.model_dump(mode="json"),
            })
        return out

    @app.get("/api/games/{game}/opponents")
    def opponents(game: str, config: str | None = None) -> list[dict[str, str]]:
        """The bots that can play these rules (`config`: the rule variant as JSON; default rules if omitted)."""
        _known_game(game)
        rules = _rules_from_query(game, config)
        offered = {"pretrained": _pretrained_fits(game, rules), "mcts": _searchable(game)}
        out = [{"spec": s, "label": s} for s in BUILTIN_OPPONENTS if offered.get(s, True)]
        for name in _checkpoints_for(game):
            out.append({"spec": f"checkpoint:{name}", "label": f"checkpoint {name}"})
        return out

    def _pretrained_fits(game: str, rules: dict[str, Any]) -> bool:
        """The shipped bot was trained under one rule config; it is offered only for those rules."""
        from ultimata.agents.checkpoint import check_compatible, read_meta
        from ultimata.agents.specs import pretrained_path

        path = pretrained_path(game)
        if not path.exists():
            return False
        try:
            check_compatible(read_meta(path), game_class(game).from_config(rules), "the shipped bot")
        except UltimataError:
            return False
        return True

    def _searchable(game: str) -> bool:
        from ultimata.agents.mcts import check_searchable

        try:
            check_searchable(game_class(game).from_config({}))
        except UltimataError:
            return False
        return True

    def _checkpoints_for(game: str) -> list[str]:
        """Checkpoint files in the configured folder (never elsewhere) trained for `game`."""
        from ultimata.agents.checkpoint import read_meta

        if checkpoints is None or not checkpoints.is_dir():
            return []
        names = []
        for path in sorted(checkpoints.glob("*.zip")):
            try:
                if read_meta(path).game == game:
                    names.append(path.name)
            except UltimataError:
                continue
        return names

    def _agent(spec: str, game: str, config: dict[str, Any], seed: int | None) -> Agent:
        from ultimata.agents.specs import load_agent

        if spec in BUILTIN_OPPONENTS:
            return load_agent(spec, game, config, seed=seed)
        if spec.startswith("checkpoint:") and spec.removeprefix("checkpoint:") in _checkpoints_for(game):
            return load_agent(str(checkpoints / spec.removeprefix("checkpoint:")), game, config, seed=seed)
        allowed = [o["spec"] for o in opponents(game, json.dumps(config))]
        raise HTTPException(400, f"unknown opponent {spec!r}; allowed: {', '.join(allowed)}")

    # -- live games --------------------------------------------------------------------------------
    @app.post("/api/sessions", status_code=201)
    def new_game(req: NewGame) -> dict[str, Any]:
        _known_game(req.game)
        try:
            n = game_class(req.game).from_config(req.config).num_players
        except UltimataError as err:
            raise HTTPException(400, str(err)) from None
        if req.human_seat is not None and not 0 <= req.human_seat < n:
            raise HTTPException(400, f"human_seat must be a seat 0..{n - 1}, or null to watch")
        unknown = [s for s in req.opponents if not 0 <= s < n or s == req.human_seat]
        if unknown:
            raise HTTPException(400, f"opponents name seats {unknown} that are not bot seats")
        seats, agents = [], {}
        for seat in range(n):
            if seat == req.human_seat:
                seats.append("human")
                continue
            spec = req.opponents.get(seat, "heuristic")
            try:
                agents[seat] = _agent(spec, req.game, req.config, None)
            except UltimataError as err:
                raise HTTPException(400, _without_paths(str(err))) from None
            seats.append(spec)
        try:
            session = store.create(req.game, req.config, seats, agents, req.human_seat, req.seed)
        except TooManySessions as err:
            raise HTTPException(429, str(err)) from None
        return session.snapshot()

    def _session(session_id: str) -> GameSession:
        try:
            return store.get(session_id)
        except KeyError:
            raise HTTPException(404, "no such game (finished games expire when idle)") from None

    def _check_perspective(session: GameSession, perspective: int | None) -> None:
        """Validated before anything happens: a bad seat must neither leak (negative indexing) nor act."""
        if perspective is None:
            return
        if session.human is not None:
            raise HTTPException(403, "a player sees only their own seat")
        _seat_in_range(perspective, session.state.game.num_players)

    @app.get("/api/sessions/{session_id}")
    def show(session_id: str, perspective: int | None = None) -> dict[str, Any]:
        session = _session(session_id)
        _check_perspective(session, perspective)
        return _snapshot(session, perspective)

    @app.post("/api/sessions/{session_id}/move")
    def move(session_id: str, req: Move) -> dict[str, Any]:
        session = _session(session_id)
        with session.lock:
            try:
                session.human_move(req.action)
            except SessionError as err:
                raise HTTPException(409, str(err)) from None
            except IllegalActionError as err:
                raise HTTPException(422, str(err)) from None
            return _snapshot(session, None)

    @app.post("/api/sessions/{session_id}/advance")
    def advance(session_id: str, perspective: int | None = None) -> dict[str, Any]:
        """One bot move: the browser calls this to show bots' moves one by one."""
        session = _session(session_id)
        _check_perspective(session, perspective)
        with session.lock:
            try:
                session.bot_move()
            except SessionError as err:
                raise HTTPException(409, str(err)) from None
            return _snapshot(session, perspective)

    def _snapshot(session: GameSession, perspective: int | None) -> dict[str, Any]:
        snap = session.snapshot(perspective)
        snap["replay"] = store.save_if_over(session)
        return snap

    # -- replays -----------------------------------------------------------------------------------
    def replay_names() -> list[str]:
        if replays is None or not replays.is_dir():
            return []
        return sorted((p.name for p in replays.glob("*.json")), reverse=True)

    @app.get("/api/replays")
    def list_replays() -> list[dict[str, Any]]:
        """Newest first, with what a person picks a replay by: game, players, result, date."""
        out = []
        for name in replay_names():
            path = replays / name
            try:
                replay = Replay.load(path)
            except ReplayError:
                out.append({"name": name, "game": None, "players": [], "result": "unreadable", "date": None})
                continue
            out.append({"name": name, "game": replay.game, "players": replay.players, "result": _result(replay),
                        "date": time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))})
        return out

    @app.get("/api/replays/{name}")
    def open_replay(name: str, perspective: int | None = None) -> dict[str, Any]:
        if name not in replay_names():
            raise HTTPException(404, f"no replay named {name!r} in the replay folder")
        try:
            replay = Replay.load(replays / name)
            if perspective is not None:
                _seat_in_range(perspective, len(replay.players))
            frames, labels = [], []
            views = view_module(replay.game)
            for state, action in replay.states():
                frames.append(views.view(state, perspective))
                move = None if action is None else state.narrate(action)
                labels.append(move)
        except (ReplayError, UltimataError) as err:
            raise HTTPException(422, str(err)) from None
        return {"name": name, "game": replay.game, "players": replay.players, "frames": frames, "moves": labels}

    # -- the page ----------------------------------------------------------------------------------
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    return app


def _without_paths(message: str) -> str:
    """Errors reach the browser without the server's directories: a path shows as its file name."""
    return re.sub(r"(?:/[\w.\-]+)+/([\w.\-]+)", r"\1", message)


def _result(replay: Replay) -> str:
    if not replay.returns:
        return "unfinished"
    best = max(replay.returns)
    winners = [f"player_{p}" for p, r in enumerate(replay.returns) if r == best]
    return "draw" if len(winners) == len(replay.returns) else f"won by {', '.join(winners)}"


def _rules_from_query(game: str, config: str | None) -> dict[str, Any]:
    if config is None:
        return {}
    try:
        rules = json.loads(config)
        if not isinstance(rules, dict):
            raise ValueError("config must be a JSON object")
        game_class(game).from_config(rules)
    except (ValueError, UltimataError) as err:
        raise HTTPException(422, f"bad config for {game}: {err}") from None
    return rules


def _seat_in_range(seat: int, players: int) -> None:
    if not 0 <= seat < players:
        raise HTTPException(422, f"perspective must be a seat 0..{players - 1}, or omitted for the public view")


def _known_game(game: str) -> None:
    if game not in GAMES:
        raise HTTPException(404, f"unknown game {game!r}; games: {', '.join(GAMES)}")

