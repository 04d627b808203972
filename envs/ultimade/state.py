"""The rules of ULTIMADE as a chain of small masked decisions.

A point: the receiving team places its four in its endzone, the pulling team places its four, the
pull lands on an empty field of the receiving endzone. Then cycles repeat: the offense's running
step (pick a runner, pick his field, ... done), the defense's running step, the throw (or a turn),
and after a catch next to a defender the defense's Monster-Defense choice.

Players are numbered 0..7: team t (= seat t) owns players 4t..4t+3, printed A1..A4 / B1..B4.
Player_0 (team A) defends rows 1..depth and attacks up; teams keep their ends all game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ultimata.envs.core.engine import State
from ultimata.envs.core.fields import SHARED, Bool, Derived, Fields, Int, ListOf, Nullable, Str
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimade import consistency
from ultimata.envs.ultimade.actions import DONE, NO_ROLL, from_field, to_field
from ultimata.envs.ultimade.board import (
    BALL,
    BETWEEN,
    BIT,
    COL,
    FIELDS,
    FLIP,
    FULL,
    LENGTH,
    NAMES,
    NEIGHBOURS,
    ROW,
    chebyshev,
    fields_of,
    reach,
)
from ultimata.envs.ultimade.explain import no_free_team_mate
from ultimata.envs.ultimade.observation import encode
from ultimata.envs.ultimade.phases import (
    MONSTER,
    OVER,
    PHASES,
    PLACE,
    PULL,
    RUN,
    SELECT,
    THROW,
)
from ultimata.envs.ultimade.players import PLAYER_NAMES, TEAMS
from ultimata.envs.ultimade.text import board_text
from ultimata.envs.ultimade.words import describe_action

if TYPE_CHECKING:
    from ultimata.envs.ultimade.game import UltimadeGame

_IDENTITY = list(range(FIELDS))
_PLAYER = Int(-1, 7)
"""One of the eight players, or none."""


def _team_bitboards(s: UltimadeState) -> list[int]:
    """Each team's fields as a bitboard, from where its players stand."""
    return [sum(BIT[f] for f in s.pos[4 * t : 4 * t + 4] if f >= 0) for t in (0, 1)]


class UltimadeState(State):
    game: UltimadeGame

    def __init__(self, game: UltimadeGame, rng: Rng) -> None:
        super().__init__(game, rng)
        cfg = game.config
        self.score = [0, 0]
        self.cycle = 0
        self.winner = -1
        self.last_event = ""
        self.last_roll = 0
        first = cfg.first_receiver
        self._new_point(rng.below(2) if first == "random" else int(first[-1]))

    def _new_point(self, receiver: int) -> None:
        """Empty pitch; the receiving team sets up first (book: 'the team without the disc')."""
        self.pos = [-1] * 8
        self.team_bb = [0, 0]
        self.holder = -1
        self.disc = -1
        self.offense = receiver
        self.phase = PLACE
        self.to_move = receiver
        self.moved = 0
        self.runner = -1
        self.chase = -1
        self.marker_only = -1
        self.surplus = False
        """A turn left the new holder with two or more markers: in this cycle the surplus must leave."""
        self.last_throw: list[int] | None = None
        self._legal: list[int] | None = None

    # -- whose decision ------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.to_move

    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def defense(self) -> int:
        return 1 - self.offense

    # -- geometry of the current position ------------------------------------------------------
    def _empty(self) -> int:
        return FULL ^ (self.team_bb[0] | self.team_bb[1])

    def _marking(self) -> tuple[int, list[tuple[int, int]]]:
        """Where defenders may not end a run (book: only one marker in the 8 fields around a player
        of the other team): around offense players marked twice or more, closed to every defender;
        around a player marked once, closed to all but his marker, as (marker bit, fields) pairs."""
        defenders = self.team_bb[1 - self.offense]
        closed, single = 0, []
        base = self.offense * 4
        for f in self.pos[base : base + 4]:
            around = NEIGHBOURS[f]
            adjacent = around & defenders
            if adjacent:
                if adjacent & (adjacent - 1):
                    closed |= around
                else:
                    single.append((adjacent, around))
        return closed, single

    def _forbidden(self, p: int, marking: tuple[int, list[tuple[int, int]]] | None = None) -> int:
        """Fields defender p may not end a run on."""
        closed, single = marking or self._marking()
        me = BIT[self.pos[p]]
        for marker, around in single:
            if marker != me:
                closed |= around
        return closed

    def destinations(self, p: int) -> int:
        """Bitboard of the fields player p may run to now (not his own field)."""
        cfg = self.game.config
        team = p >> 2
        empty = self._empty()
        through = cfg.run_through
        if through == "empty":
            passable = empty
        elif through == "team":
            passable = empty | self.team_bb[team]
        else:
            passable = FULL
        ends = reach(self.pos[p], passable, empty, cfg.run_length)
        if team != self.offense:
            if self.holder < 0 and self.disc >= 0:
                ends &= ~BIT[self.disc]
            ends &= ~self._forbidden(p)
        elif self.chase >= 0:
            ends &= BALL[self.disc][self.chase]
        return ends

    def _open_lane(self, origin: int, target: int, team: int, team_bb: list[int] | None = None) -> bool:
        """A throw of `team` from `origin` to `target` obeys the book: a straight line at least two fields
        long, no opponent on the way and (by default) at least one empty field passed over."""
        bb = team_bb or self.team_bb
        lane = BETWEEN[origin][target]
        if not lane or lane & bb[1 - team]:
            return False
        return not self.game.config.throw_needs_free_field or bool(lane & ~(bb[0] | bb[1]))

    def receivers(self, run: tuple[int, int] | None = None) -> list[int]:
        """Team-mates the holder can reach with a legal throw; with `run` = (player, field), as if that
        player stood there (the move labels warn of a run that leaves the holder no free team-mate)."""
        h = self.holder
        if h < 0:
            return []
        pos, bb, team = self.pos, self.team_bb, self.offense
        if run is not None:
            p, f = run
            pos, bb = pos[:], bb[:]
            bb[p >> 2] ^= BIT[pos[p]] | BIT[f]
            pos[p] = f
        return [q for q in range(team * 4, team * 4 + 4) if self._open_lane(pos[h], pos[q], team, bb)]

    def pull_targets(self, origin: int | None = None) -> int:
        """Where a pull from `origin` (default: the puller's field) may land: an empty field of the receiving
        endzone, and with `straight_pull` one a legal throw reaches (book: 'always thrown straight-lined')."""
        zone = self.game.endzone[self.offense] & self._empty()
        if not self.game.config.straight_pull:
            return zone
        origin = self.pos[self.holder] if origin is None else origin
        puller_team = 1 - self.offense
        return sum(BIT[t] for t in fields_of(zone) if self._open_lane(origin, t, puller_team))

    def place_fields(self, team: int) -> int:
        """Where `team` may put its next player: an empty field of its own endzone. Under `straight_pull`
        the pulling team's first player (who holds the disc) must stand where some pull can fly."""
        fields = self.game.endzone[team] & self._empty()
        if not self.game.config.straight_pull or team == self.offense or self.pos[4 * team] >= 0:
            return fields
        return sum(BIT[f] for f in fields_of(fields) if self.pull_targets(f))

    def _markers_of(self, p: int) -> list[int]:
        """Players of the other team standing in the 8 fields around player p."""
        around = NEIGHBOURS[self.pos[p]]
        base = (1 - (p >> 2)) * 4
        return [d for d in range(base, base + 4) if self.pos[d] >= 0 and around & BIT[self.pos[d]]]

    def surplus_markers(self) -> list[int]:
        """The new holder's markers while, after a turn, two or more still stand next to him (book: 'the
        surplus markers must depart at the next possible step'); empty otherwise. Read from the position,
        so it empties as soon as one marker is left."""
        if not self.surplus or self.holder < 0:
            return []
        markers = self._markers_of(self.holder)
        return markers if len(markers) >= 2 else []

    def _chase_distance(self) -> int:
        """With the disc on the ground the offense must run toward it (book). The first run of the
        step must end as close to it as any run can, if that is closer than anyone stands now."""
        disc = self.disc
        base = self.offense * 4
        now = min(chebyshev(self.pos[p], disc) for p in range(base, base + 4))
        ends = 0
        for p in range(base, base + 4):
            ends |= self.destinations(p)
        if ends:
            for k in range(now):
                if ends & BALL[disc][k]:
                    return k
        return -1

    # -- legal actions -------------------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        if self._legal is not None:
            return self._legal
        phase, seat, pos = self.phase, self.to_move, self.pos
        if phase == RUN:
            return fields_of(self.destinations(self.runner), seat)
        if phase == SELECT:
            return self.select_actions()
        if phase == PLACE:
            return fields_of(self.place_fields(seat), seat)
        if phase == PULL:
            return fields_of(self.pull_targets(), seat)
        if phase == THROW:
            return [from_field(pos[q], seat) for q in self.receivers()]
        if phase == MONSTER:
            return [from_field(pos[d], seat) for d in self._markers_of(self.holder)] + [NO_ROLL]
        return []

    def select_actions(self) -> list[int]:
        """Fields of the team's players who can still run, and DONE unless a rule forbids stopping.
        A cheap test first (an open neighbour field), the full run search only when boxed in."""
        team, pos, moved = self.to_move, self.pos, self.moved
        base = team * 4
        candidates = [p for p in range(base, base + 4) if not moved >> p & 1 and p != self.holder]
        empty = FULL ^ (self.team_bb[0] | self.team_bb[1])
        frame = FLIP if team == 1 else _IDENTITY
        if team == self.offense:
            if self.chase >= 0:  # the disc lies on the ground: the first run must be toward it
                ball = BALL[self.disc][self.chase]
                return [frame[pos[p]] for p in candidates if self.destinations(p) & ball]
            actions = [frame[pos[p]] for p in candidates if NEIGHBOURS[pos[p]] & empty or self.destinations(p)]
        else:
            if self.marker_only >= 0:  # failed Monster-Defense roll: only the marker may run
                candidates = [p for p in candidates if p == self.marker_only]
            if self.holder < 0 and self.disc >= 0:
                empty &= ~BIT[self.disc]
            marking = self._marking()
            runners = [
                p
                for p in candidates
                if NEIGHBOURS[pos[p]] & empty & ~self._forbidden(p, marking) or self.destinations(p)
            ]
            actions = [frame[pos[p]] for p in runners]
            if any(p in runners for p in self.surplus_markers()):
                return actions  # after a turn, surplus markers must depart: no DONE yet
        actions.append(DONE)
        return actions

    # -- applying ------------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        self._legal = None
        phase, seat = self.phase, self.to_move
        if action == DONE:
            self._end_step()
        elif action == NO_ROLL:
            self.last_event = f"{TEAMS[seat]} does not roll the Monster-Defense die"
            self._after_catch()
        else:
            f = to_field(action, seat)
            if phase == RUN:
                self._run(self.runner, f)
            elif phase == SELECT:
                self.runner = self.pos.index(f)
                self.phase = RUN
            elif phase == THROW:
                self._throw(self.pos.index(f))
            elif phase == PLACE:
                self._place(seat, f)
            elif phase == PULL:
                self._pull(f)
            elif phase == MONSTER:
                self._monster(self.pos.index(f))
        self._settle()

    def _settle(self) -> None:
        """End a running step by itself when nobody of the team can run any more."""
        while self.phase == SELECT:
            legal = self.select_actions()
            if len(legal) == 1 and legal[0] == DONE:
                self._end_step()
            else:
                self._legal = legal
                return

    def _place(self, team: int, f: int) -> None:
        base = team * 4
        slot = sum(1 for x in self.pos[base : base + 4] if x >= 0)
        p = base + slot
        self.pos[p] = f
        self.team_bb[team] |= BIT[f]
        self.last_event = f"{PLAYER_NAMES[p]} set up at {NAMES[f]}"
        if team != self.offense and slot == 0:
            self.holder, self.disc = p, f  # gap: the first player placed holds the disc
        if slot == 3:
            if team == self.offense:
                self.to_move = 1 - team
            else:
                self.phase = PULL

    def _pull(self, f: int) -> None:
        puller = self.holder
        self.last_throw = [self.pos[puller], f]
        self.holder, self.disc = -1, f
        self.last_event = f"{PLAYER_NAMES[puller]} pulls to {NAMES[f]}"
        self._start_cycle()

    def _start_cycle(self) -> None:
        self.moved = 0
        self.runner = -1
        if self.cycle >= self.game.config.max_cycles:
            self.last_event += f"; time cap after {self.cycle} cycles"
            self._finish()
            return
        self.cycle += 1
        self.phase = SELECT
        self.to_move = self.offense
        self.chase = -1
        if self.holder < 0:
            self.chase = self._chase_distance()

    def _run(self, p: int, f: int) -> None:
        team = p >> 2
        start = self.pos[p]
        self.pos[p] = f
        self.team_bb[team] ^= BIT[start] | BIT[f]
        self.moved |= 1 << p
        self.runner = -1
        self.phase = SELECT
        self.last_event = f"{PLAYER_NAMES[p]} runs {NAMES[start]}->{NAMES[f]}"
        if team == self.offense:
            self.chase = -1
            if self.holder < 0 and f == self.disc:
                self.holder = p
                self.last_event += " and picks up the disc"

    def _end_step(self) -> None:
        if self.to_move == self.offense:
            self.to_move = 1 - self.offense
            self.chase = -1
            return
        self.marker_only = -1
        self.surplus = False
        if self.holder < 0:
            self._start_cycle()
            return
        catchers = self.receivers()
        if catchers:
            self.phase = THROW
            self.to_move = self.offense
            self._legal = [from_field(self.pos[q], self.offense) for q in catchers]
            return
        taker = self.turn_taker()
        self.last_event = (
            f"turn: {PLAYER_NAMES[self.holder]} on {NAMES[self.disc]} finds no free team-mate "
            f"({no_free_team_mate(self)}), so {PLAYER_NAMES[taker]}, the nearest defender, takes the disc"
        )
        self._turn_to(taker)
        self._start_cycle()

    def turn_taker(self) -> int:
        """The defender who takes the disc if the holder finds no free team-mate (book: 'the next player of
        the other team'; gap: the nearest)."""
        thrower = self.pos[self.holder]
        frame = FLIP if self.defense == 1 else _IDENTITY  # the new offense's view of the pitch

        def nearness(d: int) -> tuple[int, int, int, int, int]:
            """Nearest by king steps, then straight-line distance; a tie goes by what both seats see
            and what survives the mirror: the column, then the row, in the new offense's frame."""
            f = self.pos[d]
            seen = frame[f]
            distance = (ROW[f] - ROW[thrower]) ** 2 + (COL[f] - COL[thrower]) ** 2
            return chebyshev(f, thrower), distance, COL[seen], ROW[seen], d

        base = self.defense * 4
        return min(range(base, base + 4), key=nearness)

    def _turn_to(self, p: int) -> None:
        self.offense = p >> 2
        self.holder = p
        self.disc = self.pos[p]
        self.surplus = len(self._markers_of(p)) >= 2  # only then must surplus markers leave
        self.marker_only = -1

    def _throw(self, q: int) -> None:
        thrower = self.holder
        self.last_throw = [self.pos[thrower], self.pos[q]]
        self.holder = q
        self.disc = self.pos[q]
        self.last_event = f"{PLAYER_NAMES[thrower]} throws to {PLAYER_NAMES[q]} at {NAMES[self.disc]}"
        cfg = self.game.config
        contested = cfg.monster_defense and NEIGHBOURS[self.disc] & self.team_bb[self.defense]
        if contested and (cfg.monster_defense_in_endzone or not self._catch_scores()):
            self.phase = MONSTER
            self.to_move = self.defense
        else:
            self._after_catch()

    def _catch_scores(self) -> bool:
        """The disc holder stands in the endzone his team attacks (only a caught pass gets him there)."""
        return bool(BIT[self.disc] & self.game.attack_zone[self.offense])

    def _after_catch(self) -> None:
        """A catch that stands: a point in the attacking endzone, else the next cycle."""
        if self._catch_scores():
            self._score()
        else:
            self._start_cycle()

    def _monster(self, marker: int) -> None:
        roll = self.rng.roll(6)
        self.last_roll = roll
        who, catcher = PLAYER_NAMES[marker], PLAYER_NAMES[self.holder]
        faces = " or ".join(str(f) for f in self.game.config.monster_turn_faces)
        if roll in self.game.config.monster_turn_faces:
            self.last_event = f"Monster-Defense: {who} rolls {roll}, turn! {who} has the disc"
            self._turn_to(marker)
            self._start_cycle()
        elif self._catch_scores():
            self.last_event = f"Monster-Defense: {who} rolls {roll}, no turn (that needs {faces}): the catch stands"
            self._score()
        else:
            self.last_event = (
                f"Monster-Defense: {who} rolls {roll}, no turn (that needs {faces}): {catcher} keeps the disc, "
                f"and in the defense's next step only {who} may run"
            )
            self.marker_only = marker
            self._start_cycle()

    def _score(self) -> None:
        team = self.offense
        self.score[team] += 1
        self.last_event += f": point for {TEAMS[team]} ({self.score[0]}:{self.score[1]})"
        if self.score[team] >= self.game.config.points_to_win or self.cycle >= self.game.config.max_cycles:
            self._finish()  # won, or time is up: no set-up and pull that cannot change the result
            return
        throw = self.last_throw
        self._new_point(1 - team)  # book: the winner team always starts as defense team
        self.last_throw = throw

    def _finish(self) -> None:
        self.phase = OVER
        self.to_move = -1
        self.runner = -1
        a, b = self.score
        self.winner = 0 if a > b else 1 if b > a else -1

    # -- results -------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """+1 / -1 for the team with more points at the end; equal points (time cap) is a draw."""
        if self.phase != OVER or self.winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def potentials(self) -> list[float]:
        """Zero-sum shaping: half a unit per point of lead (over points_to_win) plus a tenth for
        how far the team in possession has carried the disc toward its attacking endzone."""
        value = 0.5 * (self.score[0] - self.score[1]) / self.game.config.points_to_win
        if self.phase in (SELECT, RUN, THROW, MONSTER) and self.disc >= 0:
            row = ROW[self.disc]
            value += 0.1 * (row / (LENGTH - 1) if self.offense == 0 else -(LENGTH - 1 - row) / (LENGTH - 1))
        return [value, -value]

    # -- views ---------------------------------------------------------------------------------
    def observation(self, player: int) -> np.ndarray:
        return encode(self, player)

    def _action_to_string(self, action: int) -> str:
        return describe_action(self, action)

    def render_text(self, viewer: int | None = None) -> str:
        return board_text(self)

    # -- serialisation -------------------------------------------------------------------------
    FIELDS = Fields(
        pos=ListOf(Int(-1, FIELDS - 1), size=8), holder=_PLAYER, disc=Int(-1, FIELDS - 1), offense=Int(0, 1),
        phase=Int(0, len(PHASES) - 1), to_move=Int(-1, 1), moved=Int(0, 255), runner=_PLAYER,
        chase=Int(-1, FIELDS), marker_only=_PLAYER, surplus=Bool(),
        score=ListOf(Int(0, lambda s: s.game.config.points_to_win), size=2),
        cycle=Int(0, lambda s: s.game.config.max_cycles), winner=Int(-1, 1),
        last_throw=Nullable(ListOf(Int(0, FIELDS - 1), size=2)), last_roll=Int(0, 6), last_event=Str(),
        kept={"team_bb": Derived(_team_bitboards), "_legal": SHARED},
    )

    def _check_consistency(self) -> None:
        """Refuse positions the rules cannot reach, naming the broken rule (envs/ultimade/consistency.py)."""
        consistency.check(self)

    def expected_chase(self) -> int:
        """What `chase` is in this position: set while the offense's first run of a step must go toward a
        disc on the ground (recomputed from the position alone, whatever `chase` holds now)."""
        offense_ran = self.moved >> (4 * self.offense) & 15
        if self.phase not in (SELECT, RUN) or self.to_move != self.offense or self.holder >= 0 or offense_ran:
            return -1
        saved, self.chase = self.chase, -1
        try:
            return self._chase_distance()
        finally:
            self.chase = saved
