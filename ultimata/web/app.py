"""The HTTP API and the page. Everything the browser gets is one seat's view; every bad request is a
4xx with a message and changes nothing."""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Query, Request, Response
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator

from ultimata.agents.base import Agent, game_base_name
from ultimata.agents.explain import hint
from ultimata.envs.core import safe_json
from ultimata.envs.core.errors import IllegalActionError, UltimataError
from ultimata.envs.core.registry import GAMES, game_class
from ultimata.envs.core.replay_checks import MAX_RULES_DEPTH, MAX_SEED
from ultimata.record import Filters, GameRecord
from ultimata.record.store import MAX_PAGE as MAX_LISTED
from ultimata.web.api_page import api_page
from ultimata.web.difficulty import load_difficulty
from ultimata.web.guards import MAX_BODY, BodyLimit, SecurityHeaders, quoted, refuse_malformed
from ultimata.web.hosts import HostGuard, allowed_hosts
from ultimata.web.opponents import Opponents, UnknownOpponent
from ultimata.web.page import STATIC, index_html, view_scripts
from ultimata.web.replays import LISTED, MAX_PAGE, PAGE, ReplayLibrary
from ultimata.web.sessions import GameSession, Limits, RequestReused, SessionError, SessionStore, TooManySessions

DEFAULT_BOT = "heuristic"


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    config: dict[str, Any] = {}
    human_seat: StrictInt | None = 0
    """None: watch bots play each other. Strict: "0", 0.0 and true are not seats."""
    opponents: dict[int, str] = {}
    """Spec per bot seat, from GET /api/games/{game}/opponents. Default heuristic."""
    seed: StrictInt | None = Field(None, ge=0, le=MAX_SEED)
    """None (rated): the server draws the deal's seed and shows it only once the game is over. A seed the
    client chooses replays a known deal: practice, recorded as unrated."""
    request_id: str | None = Field(None, min_length=1, max_length=64)
    """Any string the page picks per Start click: the same id again returns the same game (a double click
    or a retried request makes one game)."""

    @field_validator("config")
    @classmethod
    def _flat_rules(cls, config: dict[str, Any]) -> dict[str, Any]:
        return _shallow(config)

    def fingerprint(self) -> str:
        return json.dumps(self.model_dump(exclude={"request_id"}), sort_keys=True)


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: int = Field(description="The `action` of one of the legal moves: a JSON integer.")

    @field_validator("action", mode="before")
    @classmethod
    def _json_integer(cls, value: Any) -> int:
        if type(value) is not int:
            raise ValueError("must be a JSON integer, the `action` of one of the legal moves "
                             "(a string, a boolean or a decimal is not a move)")
        return value


class HintRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bot: str = Field(DEFAULT_BOT, max_length=200, description="The bot to ask: one of the game's opponents.")


MAX_ADVISERS = 8
"""Hint bots kept loaded at once (each holds a network or a search's settings)."""

EventsFrom = Query(0, ge=0, description="Send the game's events from this index on (default: all of them).")
Offset = Query(0, ge=0, le=10**9, description="Skip this many games (newest first).")
Limit = Query(LISTED, ge=1, le=MAX_LISTED, description="Send at most this many games.")
GameFilter = Query(None, max_length=64, description="Only this game, by its name without version (ultimatum_world).")
OpponentFilter = Query(None, max_length=200, description="Only games against this bot (a spec, e.g. hard).")
MAX_CONFIG_QUERY = 4096
"""Characters of a `config` query: a rule variant is a few keys."""


def create_app(
    checkpoints: Path | None = None,
    own_agents: tuple[str, ...] = (),
    replays: Path | None = None,
    max_sessions: int = 32,
    idle_seconds: float = 600,
    max_per_client: int = 4,
    max_body: int = MAX_BODY,
    hosts: Iterable[str] = (),
    record: Path | None = None,
) -> FastAPI:
    """The app; ConfigError here (a bad configs/<game>.yaml, difficulty, a bad host name, a record it cannot open)
    stops the server before it starts. It answers to loopback names and `hosts` (the bound host and
    --allow-host) only. `record`: the game record's file (None: kept in memory, for tests); the JSON files
    in `replays` are imported into it now and whenever new ones appear."""
    difficulty = load_difficulty()
    allowed = allowed_hosts(None, hosts)
    games_record = GameRecord(record)
    store = SessionStore(Limits(total=max_sessions, per_client=max_per_client, idle_seconds=idle_seconds), replays,
                         games_record)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close_all()  # games still in play when the server stops are recorded as interrupted

    # No /api/docs: Swagger's page loads its scripts from a CDN, and a user's machine may have no network;
    # /docs is a page of the API drawn from its own schema instead.
    app = FastAPI(title="ultimata", docs_url=None, redoc_url=None, openapi_url="/api/openapi.json", lifespan=lifespan)
    app.add_middleware(BodyLimit, limit=max_body)
    app.add_middleware(HostGuard, hosts=allowed)
    app.add_middleware(SecurityHeaders)  # added last, so outermost: refusals of a host carry the headers too
    refuse_malformed(app)
    library = ReplayLibrary(games_record, replays)
    bots = Opponents(checkpoints, own_agents)
    app.state.store = store
    app.state.opponents = bots
    app.state.record = games_record
    app.state.imported = library.sync(quiet=True)  # `serve` prints what it skipped
    level_of = {game: {lv["agent"]: lv["level"] for lv in levels.as_list()} for game, levels in difficulty.items()}
    """Game base name -> bot spec -> the difficulty level that plays it."""

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
                "difficulty": difficulty[game_base_name(name)].as_list(),
            })
        return out

    @app.get("/api/games/{game}/opponents")
    def opponents(game: str, config: str | None = None) -> list[dict[str, str]]:
        """The bots that can play these rules (`config`: the rule variant as JSON; default rules if omitted)."""
        _known_game(game)
        return bots.offered(game, _rules_from_query(game, config))

    # -- live games --------------------------------------------------------------------------------
    @app.post("/api/sessions", status_code=201)
    def new_game(req: NewGame, request: Request) -> dict[str, Any]:
        """Everything is checked before a slot is taken, and the slot before any bot loads."""
        _known_game(req.game)
        try:
            n = game_class(req.game).from_config(req.config).num_players
        except UltimataError as err:
            raise HTTPException(400, _public(str(err))) from None
        if req.human_seat is not None and not 0 <= req.human_seat < n:
            raise HTTPException(400, f"human_seat must be a seat 0..{n - 1}, or null to watch")
        unknown = [s for s in req.opponents if not 0 <= s < n or s == req.human_seat]
        if unknown:
            raise HTTPException(400, f"opponents name seats {unknown} that are not bot seats")
        specs = {seat: req.opponents.get(seat, DEFAULT_BOT) for seat in range(n) if seat != req.human_seat}
        try:
            for spec in specs.values():
                bots.check(spec, req.game)
        except UnknownOpponent as err:
            raise HTTPException(400, _public(str(err))) from None

        def load_bots() -> tuple[list[str], dict[int, Agent]]:
            agents = {seat: bots.load(spec, req.game, req.config) for seat, spec in specs.items()}
            return [specs.get(seat, "human") for seat in range(n)], agents

        levels = [level_of[game_base_name(req.game)].get(specs[s]) if s in specs else None for s in range(n)]
        try:
            session = store.create(req.game, req.config, req.human_seat, req.seed, load_bots, client=_client(request),
                                   request_id=req.request_id, fingerprint=req.fingerprint(), levels=levels)
        except TooManySessions as err:
            raise HTTPException(429, str(err)) from None
        except RequestReused as err:
            raise HTTPException(409, str(err)) from None
        except UltimataError as err:
            raise HTTPException(400, _public(str(err))) from None
        return session.snapshot()

    @app.get("/api/sessions")
    def live_games(request: Request) -> list[dict[str, Any]]:
        """Your address's live games (the per-person limit counts them): any browser there can go back to
        one or leave it."""
        return [{"id": s.id, "game": s.game_name, "human": s.human, "events_total": len(s.events)}
                for s in store.live_for(_client(request))]

    advisers: OrderedDict[tuple[str, str], Agent] = OrderedDict()
    """The bots that give hints, by (game, spec): loaded once, the least recently asked dropped first."""

    @app.post("/api/sessions/{session_id}/hint")
    def hint_for_you(session_id: str, req: HintRequest) -> dict[str, Any]:
        """What `req.bot` would play in your seat now, and why, from your seat's view only (search re-draws
        the hidden parts, as it does for its own moves)."""
        session = _session(session_id)
        try:
            bots.check(req.bot, session.game_name)
        except UnknownOpponent as err:
            raise HTTPException(400, _public(str(err))) from None
        key = (session.game_name, req.bot)
        if key not in advisers:
            try:
                advisers[key] = bots.load(req.bot, session.game_name, session.state.game.config.model_dump(mode="json"))
            except UltimataError as err:
                raise HTTPException(400, _public(str(err))) from None
            while len(advisers) > MAX_ADVISERS:
                advisers.popitem(last=False)
        advisers.move_to_end(key)
        with session.lock:
            if session.waiting_for != "human":
                raise HTTPException(409, "a hint is for your own turn: it is not your turn now")
            told = hint(advisers[key], session.state, session.seed + len(session.actions))
            return {"bot": req.bot, "action": told.action, "hint": told.words(session.state.action_to_string)}

    def _session(session_id: str) -> GameSession:
        try:
            return store.get(session_id)
        except KeyError:
            raise HTTPException(404, "no such game (finished and idle games expire)") from None

    def _check_perspective(session: GameSession, perspective: int | None) -> None:
        """Validated before anything happens: a bad seat must neither leak (negative indexing) nor act."""
        if perspective is None:
            return
        if session.human is not None:
            raise HTTPException(403, "a player sees only their own seat")
        _seat_in_range(perspective, session.state.game.num_players)

    @app.get("/api/sessions/{session_id}")
    def show(session_id: str, perspective: int | None = None, events_from: int = EventsFrom) -> dict[str, Any]:
        session = _session(session_id)
        _check_perspective(session, perspective)
        with session.lock:  # not while a move is half applied
            return session.snapshot(perspective, events_from)

    @app.post("/api/sessions/{session_id}/move")
    def move(session_id: str, req: Move, events_from: int = EventsFrom) -> dict[str, Any]:
        session = _session(session_id)
        with session.lock:
            try:
                session.human_move(req.action)
            except SessionError as err:
                raise HTTPException(409, str(err)) from None
            except IllegalActionError as err:
                raise HTTPException(422, _public(str(err))) from None
            store.settle(session)
            return session.snapshot(None, events_from)

    @app.post("/api/sessions/{session_id}/advance")
    def advance(session_id: str, perspective: int | None = None, events_from: int = EventsFrom) -> dict[str, Any]:
        """One bot move: the browser calls this to show bots' moves one by one."""
        session = _session(session_id)
        _check_perspective(session, perspective)
        with session.lock:
            try:
                session.bot_move()
            except SessionError as err:
                raise HTTPException(409, str(err)) from None
            store.settle(session)
            return session.snapshot(perspective, events_from)

    @app.post("/api/sessions/{session_id}/resign")
    def resign(session_id: str) -> dict[str, Any]:
        """The person gives up: the game ends as their loss (rated), and its replay is kept."""
        session = _session(session_id)
        with session.lock:
            try:
                store.resign(session)
            except SessionError as err:
                raise HTTPException(409, str(err)) from None
            return session.snapshot()

    @app.delete("/api/sessions/{session_id}", status_code=204)
    def leave(session_id: str) -> Response:
        """The player leaves the game: it stops at once, is kept in the record as left (unrated), and its slot
        is free."""
        try:
            store.close(session_id)
        except KeyError:
            raise HTTPException(404, "no such game (finished and idle games expire)") from None
        return Response(status_code=204)

    # -- replays and your record ---------------------------------------------------------------------
    @app.get("/api/replays")
    def list_replays(response: Response, offset: int = Offset, limit: int = Limit,
                     game: str | None = GameFilter) -> list[dict[str, Any]]:
        """Newest first, a page at a time (`X-Total-Count`: how many there are), with what a person picks a
        replay by: game, players, result, moves, date."""
        total, games = library.listing(_family(game), offset, limit)
        response.headers["X-Total-Count"] = str(total)
        return games

    @app.get("/api/record")
    def your_games(offset: int = Offset, limit: int = Limit, game: str | None = GameFilter,
                   opponent: str | None = OpponentFilter) -> dict[str, Any]:
        """Your games (every game with a person's seat, however it ended), newest first, filtered by game and
        opponent; your rating against each opponent with its uncertainty; the filters' choices; and each
        game's difficulty levels by the spec that plays them, to name an opponent by its level."""
        total, games = games_record.listing(Filters(_family(game), opponent, yours=True), offset, limit)
        return {"total": total, "offset": offset, "games": games, "ratings": games_record.ratings(),
                "choices": games_record.choices(), "levels": level_of}

    @app.get("/api/replays/{name}")
    def open_replay(
        name: str,
        start: int = Query(0, ge=0, description="The first frame to send."),
        count: int = Query(PAGE, ge=1, le=MAX_PAGE, description="How many frames to send."),
        perspective: int | None = None,
    ) -> dict[str, Any]:
        """Frames start..start+count-1 of a saved game; `total` is the game's number of frames."""
        try:
            return library.page(name, start, count, perspective)
        except KeyError:
            raise HTTPException(404, f"no replay named {quoted(name)} in the record or the replay folder") from None
        except UltimataError as err:
            raise HTTPException(422, _public(str(err))) from None

    @app.get("/api/replays/{name}/export")
    def export_replay(name: str) -> JSONResponse:
        """The game as a replay file, to share: `ultimata replay FILE` and any server's replay folder read it."""
        try:
            data = library.exported(name)
        except KeyError:
            raise HTTPException(404, f"no replay named {quoted(name)} in the record or the replay folder") from None
        except UltimataError as err:
            raise HTTPException(422, _public(str(err))) from None
        filename = re.sub(r"[^\w.\-]", "_", name)
        return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    # -- the page ----------------------------------------------------------------------------------
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    page, drawings = index_html(), {name: script.read_text() for name, script in view_scripts().items()}

    @app.get("/views/{name}.js", include_in_schema=False)
    def drawing(name: str) -> Response:
        """A game's drawing, from its own package (envs/<game>/view.js)."""
        if name not in drawings:
            raise HTTPException(404, f"no drawing named {quoted(name)}; drawings: {', '.join(drawings)}")
        return Response(drawings[name], media_type="text/javascript")

    @app.get("/", include_in_schema=False)
    def index() -> HTMLResponse:
        return HTMLResponse(page)

    @app.get("/docs", include_in_schema=False)
    def api_description() -> HTMLResponse:
        """The API in a page, drawn from its own schema: nothing loaded from elsewhere."""
        return HTMLResponse(api_page(app.openapi()))

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    return app


def _client(request: Request) -> str:
    """Whose share of the game slots a request uses: the client's address."""
    return request.client.host if request.client else "unknown"


def _public(message: str, limit: int = 1000) -> str:
    """Errors reach the browser without the server's directories (a path shows as its file name), and
    short: a refusal never echoes a large input back."""
    message = re.sub(r"(?:/[\w.\-]+)+/([\w.\-]+)", r"\1", message)
    return message if len(message) <= limit else message[: limit - 3] + "..."


def _shallow(rules: dict[str, Any]) -> dict[str, Any]:
    """Rules nested deeper than any game's are refused before a validator walks them (a 1,000-deep value
    would exhaust the stack of the code that prints it)."""
    if safe_json.nesting_depth(rules, MAX_RULES_DEPTH) > MAX_RULES_DEPTH:
        raise ValueError(f"a rule variant is a mapping of keys to plain values, nested at most {MAX_RULES_DEPTH} deep")
    return rules


def _rules_from_query(game: str, config: str | None) -> dict[str, Any]:
    if config is None:
        return {}
    if len(config) > MAX_CONFIG_QUERY:
        raise HTTPException(422, f"config: a rule variant is at most {MAX_CONFIG_QUERY} characters of JSON")
    try:
        rules = safe_json.loads(config)
        if not isinstance(rules, dict):
            raise ValueError("config must be a JSON object")
        game_class(game).from_config(_shallow(rules))
    except ValueError as err:  # UltimataError included
        raise HTTPException(422, _public(f"bad config for {game}: {err}")) from None
    return rules


def _seat_in_range(seat: int, players: int) -> None:
    if not 0 <= seat < players:
        raise HTTPException(422, f"perspective must be a seat 0..{players - 1}, or omitted for the public view")


def _family(game: str | None) -> str | None:
    """A listing's game filter: a game's name without version (its versions' games together)."""
    if game is None:
        return None
    families = sorted({game_base_name(name) for name in GAMES})
    if game not in families:
        raise HTTPException(422, f"game: unknown game {quoted(game)}; use one of {', '.join(families)}")
    return game


def _known_game(game: str) -> None:
    if game not in GAMES:
        raise HTTPException(404, f"unknown game {quoted(game)}; games: {', '.join(GAMES)}")
