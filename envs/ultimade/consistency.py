"""What a loaded ULTIMADE state must be beyond each field's type and range (`UltimadeState.FIELDS` declares
them and the engine checks them first): a position the rules can reach (`check`). Each refusal is one
ValueError naming the field and what is allowed, so a hostile or broken state dict is refused at the door
instead of crashing a later move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimade.actions import DONE, from_field
from ultimata.envs.ultimade.board import BIT, NEIGHBOURS
from ultimata.envs.ultimade.phases import MONSTER, OVER, PHASES, PLACE, PULL, RUN, SELECT, THROW
from ultimata.envs.ultimade.players import PLAYER_NAMES, TEAMS

if TYPE_CHECKING:
    from ultimata.envs.ultimade.state import UltimadeState

_IN_PLAY = (SELECT, RUN, THROW, MONSTER)


def _require(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(what)


def check(s: UltimadeState) -> None:
    """Cross-field facts: the set-up order, one disc where the rules put it, whose decision it is in each
    phase, the score and the end. `chase`, which the position decides, must be what it gives."""
    cfg, phase, pos = s.game.config, s.phase, s.pos
    placed = [f for f in pos if f >= 0]
    _require(len(set(placed)) == len(placed), "pos: no two players may stand on one field")
    _require(s.last_throw is None or s.last_throw[0] != s.last_throw[1], "last_throw must go from one field to another")
    for team in (0, 1):
        placed = [f >= 0 for f in pos[4 * team : 4 * team + 4]]
        _require(placed == sorted(placed, reverse=True), f"pos: team {TEAMS[team]} sets up in player order")
    if phase != OVER:
        _require(s.winner == -1, "winner must be -1 while the game is live")
        _require(s.to_move in (0, 1), f"to_move must be a team (0 or 1) in phase {PHASES[phase]!r}")
        _require(max(s.score) < cfg.points_to_win, f"score: a team with {cfg.points_to_win} points has won")
    if phase != RUN:
        _require(s.runner == -1, "runner must be -1 outside the run phase")
    if s.holder >= 0:
        _require(pos[s.holder] == s.disc, f"disc: the holder {PLAYER_NAMES[s.holder]} must stand on the disc's field")
    _require(s.cycle >= 1 or s.score == [0, 0], "cycle: a point needs a cycle of play")
    expected = s.expected_chase()
    _require(s.chase == expected, f"chase must be {expected} in this position, got {s.chase}")
    if phase in (PLACE, PULL):
        _set_up(s)
    elif phase == OVER:
        _over(s)
    else:
        _in_play(s)


def _set_up(s: UltimadeState) -> None:
    pos, receiver, puller_team = s.pos, s.offense, 1 - s.offense
    for p, f in enumerate(pos):
        _require(f < 0 or bool(BIT[f] & s.game.endzone[p >> 2]), f"pos: {PLAYER_NAMES[p]} sets up in his own endzone")
    receivers_placed = sum(f >= 0 for f in pos[4 * receiver : 4 * receiver + 4])
    pullers_placed = sum(f >= 0 for f in pos[4 * puller_team : 4 * puller_team + 4])
    _require(receivers_placed == 4 or pullers_placed == 0, "pos: the receiving team sets up first")
    _require(s.moved == 0 and s.marker_only == -1 and not s.surplus, "moved, marker_only, surplus are clear at set-up")
    _require(s.cycle < s.game.config.max_cycles, "cycle: a point in the last allowed cycle ends the game")
    if s.phase == PULL:
        _require(receivers_placed == pullers_placed == 4, "the pull comes after all eight players are set up")
        _require(s.to_move == puller_team, "to_move: the pulling team pulls")
    else:
        _require(pullers_placed < 4, "phase: with all eight set up, the pull is next")
        _require(s.to_move == (receiver if receivers_placed < 4 else puller_team), "to_move: the team setting up")
    puller = 4 * puller_team
    if pullers_placed:
        _require(s.holder == puller, f"holder: the first player placed of the pulling team ({PLAYER_NAMES[puller]})")
        _require(bool(s.pull_targets()), f"pos: no pull can fly from {PLAYER_NAMES[puller]}'s field")
    else:
        _require(s.holder == -1 and s.disc == -1, "holder and disc are -1 until the pulling team sets up")


def _over(s: UltimadeState) -> None:
    cfg = s.game.config
    a, b = s.score
    _require(s.to_move == -1, "to_move must be -1 when the game is over")
    _require(s.winner == (0 if a > b else 1 if b > a else -1), "winner: the team with more points")
    _require(max(a, b) >= cfg.points_to_win or s.cycle >= cfg.max_cycles, "phase: the game ends on points or time")
    _require(min(a, b) < cfg.points_to_win, "score: only one team can reach the target")


def _in_play(s: UltimadeState) -> None:
    phase, pos, offense = s.phase, s.pos, s.offense
    _require(min(pos) >= 0, f"pos: all 8 players are on the pitch in phase {PHASES[phase]!r}")
    _require(s.cycle >= 1, "cycle: play starts in cycle 1")
    _require(s.disc >= 0, "disc: in play the disc is on the pitch")
    if s.holder >= 0:
        _require(s.holder >> 2 == offense, "holder: the offense holds the disc")
    else:
        _require(s.disc not in pos, "disc: a disc on the ground lies on an empty field")
        _require(bool(BIT[s.disc] & s.game.endzone[offense]), "disc: a disc on the ground lies where the pull put it")
        _require(phase in (SELECT, RUN), f"holder: phase {PHASES[phase]!r} needs a disc holder")
    if s.surplus:  # set by a turn at the start of this cycle, so the new holder has not run
        _require(s.holder >= 0 and not s.moved >> s.holder & 1, "surplus: only a holder who got the disc by a turn")
        crowded = s.to_move != offense or bool(s.surplus_markers())
        _require(crowded, "surplus: in the new offense's step two or more markers still stand next to the holder")
    if phase in (THROW, MONSTER):
        _require(s.marker_only == -1 and not s.surplus, "marker_only and surplus last only for the running steps")
    if phase == THROW:
        _require(s.to_move == offense and bool(s.receivers()), "to_move: the offense throws to a free team-mate")
    elif phase == MONSTER:
        _monster(s)
    else:
        _step(s)


def _monster(s: UltimadeState) -> None:
    cfg = s.game.config
    _require(s.to_move == 1 - s.offense, "to_move: the defense decides on Monster-Defense")
    _require(cfg.monster_defense, "phase: Monster-Defense is switched off in this rule config")
    marked = bool(NEIGHBOURS[s.disc] & s.team_bb[1 - s.offense])
    _require(marked, "phase: Monster-Defense needs a defender next to the catcher")
    scoring = bool(BIT[s.disc] & s.game.attack_zone[s.offense])
    _require(not scoring or cfg.monster_defense_in_endzone, "phase: no Monster-Defense on a catch in the endzone here")


def _step(s: UltimadeState) -> None:
    """A running step: who ran fits whose step it is, the Monster-Defense restriction fits its marker,
    and the step has a decision left (one with only 'done' ends by itself)."""
    offense, defense = s.offense, 1 - s.offense
    defense_ran = s.moved >> (4 * defense) & 15
    if s.to_move == offense:
        _require(not defense_ran, "moved: the defense runs after the offense")
    m = s.marker_only
    if m >= 0:
        _require(m >> 2 == defense, "marker_only: the marker is a defender")
        _require(not defense_ran & ~(1 << (m - 4 * defense)), "moved: after a failed roll only the marker runs")
        ran = s.moved >> m & 1
        next_to = bool(NEIGHBOURS[s.pos[m]] & BIT[s.disc])
        _require(bool(ran) or next_to, "marker_only: the marker stands next to the catcher until he runs")
    actions = s.select_actions()
    if s.phase == RUN:
        r = s.runner
        may_run = r >= 0 and from_field(s.pos[r], s.to_move) in actions
        _require(may_run, "runner: a player of the team to move who may run now")
    else:
        _require(actions != [DONE], "phase: a step with nothing but 'done' left ends by itself")
