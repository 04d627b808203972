"""ULTIMADE's scripted bot (`envs/ultimade/scripted.py`) on the array state: every row's decision in one batched,
branch-free pass, so the array sampler can seat it without leaving the tensors.

Each part mirrors a function of the Python bot (named in its docstring) and is worked out for every row; the
phase then picks which part a row's scores come from (`torch.where`). The values are the same float64 sums in
the same order, so the scores are the Python bot's own, bit for bit. Where the Python bot breaks a tie (every
move within 1e-9 of the best) with its `rng`, a tie here is broken uniformly at random with the
`torch.Generator` passed in.

The bot's expensive part, `_run_options`, values the position after every run of every runner: here all of
them at once, as [B, 4 runners, 162 fields] candidate positions (a field no run reaches is left out by the
mask). Everything on the pitch is public, so it reads the state directly, as the Python bot does.
"""

from __future__ import annotations

import torch

from ultimata.envs.ultimade.actions import DONE, NO_ROLL
from ultimata.envs.ultimade.array.bits import index, nonzero, take, words
from ultimata.envs.ultimade.array.rules import Rules
from ultimata.envs.ultimade.board import FIELDS, LENGTH, WIDTH
from ultimata.envs.ultimade.phases import MONSTER, PLACE, PULL, RUN, SELECT, THROW
from ultimata.envs.ultimade.scripted import _EPS, _MIN_GAIN

State = dict[str, torch.Tensor]
_NONE = float("-inf")
"""The score of a move the bot does not consider (an illegal one)."""
_PLACE_COLUMNS = (7, 5, 3, 1)
"""scripted._place's column (b, d, f, h) by the number of the team's players still to place, 1..4."""


def _bits_or(bits: torch.Tensor) -> torch.Tensor:
    """[..., 4, 3] boards -> [..., 3], their union (a sum would carry where candidates overlap)."""
    return bits[..., 0, :] | bits[..., 1, :] | bits[..., 2, :] | bits[..., 3, :]


class ScriptedBot:
    """The scripted bot of one rule variant, for batches of rows."""

    def __init__(self, game, rules: Rules) -> None:
        cfg, t = game.config, rules.t
        self.rules, self.t, self.device = rules, t, rules.device
        self.throw_needs_free_field = bool(cfg.throw_needs_free_field)
        self.monster = bool(cfg.monster_defense)
        self.front = cfg.endzone_depth - 1
        self.monster_row = LENGTH - cfg.endzone_depth - 5
        """scripted._monster: the defense rolls when the catcher has come this far forward."""
        dev = self.device
        self.attack = torch.tensor([words(z) for z in game.attack_zone], dtype=torch.int64, device=dev)
        """[team, 3]: the endzone each team scores in."""
        self.row, self.col = t.row.to(torch.int16), t.col.to(torch.int16)
        """Rows and columns as int16: the bot takes king steps between every candidate's players (most of its
        work), and on a CPU small integers go through it four times faster than int64."""
        fields = torch.arange(FIELDS, device=dev)
        self.field_row, self.field_col = fields // WIDTH, fields % WIDTH
        self.place_columns = torch.tensor((0, *_PLACE_COLUMNS), device=dev)
        self.four = torch.arange(4, device=dev)
        self.earlier = torch.tril(torch.ones(4, 4, dtype=torch.bool, device=dev), diagonal=-1)
        """earlier[q, q']: catcher q' comes before q in the Python bot's loop."""

    def f64(self, x: float) -> torch.Tensor:
        """A float64 scalar tensor: `torch.where` makes float32 of two Python numbers, and 0.3 or 0.05 in float32
        is not the Python bot's number."""
        return torch.tensor(x, dtype=torch.float64, device=self.device)

    # -- geometry on field tensors ---------------------------------------------------------------
    def rc(self, f: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        i = index(f)
        return take(self.row, i), take(self.col, i)

    @staticmethod
    def steps(a: tuple[torch.Tensor, torch.Tensor], b: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        """King steps between fields given as (row, col) (board.chebyshev), broadcast."""
        return torch.maximum((a[0] - b[0]).abs(), (a[1] - b[1]).abs())

    @staticmethod
    def forward(team: torch.Tensor, row: torch.Tensor) -> torch.Tensor:
        """scripted._forward: rows gained toward `team`'s attacking endzone; `team` broadcasts against `row`."""
        return torch.where(team == 0, row, LENGTH - 1 - row)

    def framed(self, board_scores: torch.Tensor, seat: torch.Tensor) -> torch.Tensor:
        """[B, 162] scores by absolute field -> by the field action of `seat` (actions.from_field)."""
        return torch.where((seat == 1)[:, None], board_scores.index_select(1, self.t.flip), board_scores)

    # -- the position value --------------------------------------------------------------------
    def threat(self, s: State, off_pos: torch.Tensor, def_pos: torch.Tensor, off_rc, def_rc,
               holder_f: torch.Tensor) -> torch.Tensor:
        """scripted._threat for candidate positions: [B, C] from the offense's and defense's fields [B, C, 4]
        and the holder's field [B, C]."""
        t, offense, holder = self.t, s["offense"], s["holder"]
        defenders = _bits_or(take(t.bit, index(def_pos)))
        empty = t.full & ~(defenders | _bits_or(take(t.bit, index(off_pos))))
        lanes = take(t.between, index(holder_f)[..., None] * (FIELDS + 1) + index(off_pos))  # [B, C, 4, 3]
        ok = nonzero(lanes) & ~nonzero(lanes & defenders[..., None, :])
        if self.throw_needs_free_field:
            ok &= nonzero(lanes & empty[..., None, :])
        holder_rc = self.rc(holder_f)
        team = offense.view(-1, 1, 1)
        gain = self.forward(team, off_rc[0]) - self.forward(team[..., 0], holder_rc[0])[..., None]
        distance = self.steps(off_rc, (holder_rc[0][..., None], holder_rc[1][..., None]))
        v = 1.0 + 0.25 * gain.clamp(min=-2).to(torch.float64) + torch.where(distance == 2, self.f64(0.3), self.f64(0.0))
        attack = take(self.attack, offense)[:, None, None, :]
        v = torch.where(nonzero(take(t.bit, index(off_pos)) & attack), v + 6.0, v)
        if self.monster:
            marked = (self.steps((off_rc[0][..., None], off_rc[1][..., None]),
                                 (def_rc[0][..., None, :], def_rc[1][..., None, :])) == 1).any(-1)
            v = torch.where(marked, v - 0.4, v)
        dr = torch.sign(off_rc[0] - holder_rc[0][..., None])
        dc = torch.sign(off_rc[1] - holder_rc[1][..., None])
        direction = dr * 3 + dc
        same = (direction[..., :, None] == direction[..., None, :]) & ok[..., None, :] & self.earlier
        v = torch.where(same.any(-1), v * 0.4, v)
        value = torch.zeros(off_pos.shape[:-1], dtype=torch.float64, device=self.device)
        for q in range(4):  # the Python bot's order of additions, for bit-equal sums
            value = value + torch.where(ok[..., q], v[..., q], 0.0)
        return torch.where((holder >= 0)[:, None], value, 0.0)

    def value(self, s: State, pos: torch.Tensor, team: torch.Tensor) -> torch.Tensor:
        """scripted._value of candidate positions `pos` [B, C, 8] from `team`'s side ([B]): [B, C] float64."""
        offense, holder = s["offense"], s["holder"]
        o = (offense == 0).view(-1, 1, 1)
        off_pos = torch.where(o, pos[..., :4], pos[..., 4:])
        def_pos = torch.where(o, pos[..., 4:], pos[..., :4])
        off_rc, def_rc = self.rc(off_pos), self.rc(def_pos)
        receiver = (offense[:, None] * 4 + self.four != holder[:, None])[:, None, :]  # [B, 1, 4]
        forward_off = self.forward(offense.view(-1, 1, 1), off_rc[0])
        advance = (forward_off * receiver).sum(-1).to(torch.float64)
        cover = (self.steps((off_rc[0][..., None], off_rc[1][..., None]),
                            (def_rc[0][..., None, :], def_rc[1][..., None, :])).min(-1).values * receiver).sum(-1)
        cover = cover.to(torch.float64)
        # the disc on the ground: the offense gathers near it, the defense closes in
        disc_rc = self.rc(s["disc"])
        to_disc = self.steps(off_rc, (disc_rc[0].view(-1, 1, 1), disc_rc[1].view(-1, 1, 1))).clamp(max=6)
        spread = (to_disc * receiver).sum(-1).to(torch.float64)
        ground_offense = 0.05 * advance - 0.05 * spread
        ground_defense = -0.1 * cover
        # the disc held
        holder_f = pos.gather(-1, holder.clamp(0).view(-1, 1, 1).expand(-1, pos.shape[1], 1))[..., 0]
        threat = self.threat(s, off_pos, def_pos, off_rc, def_rc, holder_f)
        held_offense = threat + 0.04 * advance
        holder_row = self.forward(offense[:, None], self.rc(holder_f)[0])
        goal_side = (self.forward(offense.view(-1, 1, 1), def_rc[0]) > holder_row[..., None]).sum(-1)
        held_defense = -threat - 0.08 * cover + 0.05 * goal_side.to(torch.float64)
        on_offense = (team == offense)[:, None]
        ground = (holder < 0)[:, None]
        return torch.where(ground, torch.where(on_offense, ground_offense, ground_defense),
                           torch.where(on_offense, held_offense, held_defense))

    def run_values(self, s: State, seat: torch.Tensor) -> torch.Tensor:
        """scripted._run_options for the players of `seat`'s team that may be asked about (all four in SELECT,
        the runner in RUN): [B, 4, 162] the value after each run, -inf where none ends. Only the K fields some
        run reaches are valued (K: the most any player of the batch reaches), not all 162."""
        rules = self.rules
        phase, b = s["phase"], seat.shape[0]
        runner = self.four[None] == (s["runner"] - 4 * seat)[:, None]
        asked = ((phase == SELECT)[:, None] | ((phase == RUN)[:, None] & runner))  # [B, 4]
        reach = self.t.fields(rules.destinations(s, rules.team_bb(s), seat)) & asked[:, :, None]  # [B, 4, 162]
        k = max(int(reach.sum(-1).max()), 1)
        fields = torch.sort(reach.to(torch.int8), dim=-1, descending=True, stable=True).indices[..., :k]
        ends = reach.gather(-1, fields)  # [B, 4, K]: a run ends there (the rest is padding)
        pos = s["pos"][:, None, None, :].expand(b, 4, k, 8).clone()
        player = (seat[:, None] * 4 + self.four).view(b, 4, 1, 1).expand(b, 4, k, 1)
        pos.scatter_(3, player, fields[..., None])
        values = self.value(s, pos.view(b, 4 * k, 8), seat).view(b, 4, k)
        out = torch.full((b, 4, FIELDS), _NONE, dtype=torch.float64, device=self.device)
        return out.scatter_(2, fields, torch.where(ends, values, self.f64(_NONE)))

    # -- one decision per row ----------------------------------------------------------------------
    def scores(self, s: State) -> torch.Tensor:
        """[B, NUM_ACTIONS] float64: each phase's score of every action, as its scripted function scores it
        (legal or not; the caller keeps the legal ones)."""
        t, rules = self.t, self.rules
        phase, seat = s["phase"], s["to_move"].clamp(0, 1)
        b = phase.shape[0]
        out = torch.full((b, FIELDS + 2), _NONE, dtype=torch.float64, device=self.device)

        # scripted._place: spread over the endzone's front row (the action is in the seat's frame already)
        still = (rules.team_pos(s, seat) < 0).sum(1)
        column = take(self.place_columns, still)
        place = -(self.field_row - self.front).abs() - (self.field_col - column[:, None]).abs()
        # scripted._pull: as far from every receiver as the endzone allows
        receivers_rc = self.rc(rules.team_pos(s, 1 - seat))
        far = self.steps((self.row[:FIELDS].view(1, FIELDS, 1), self.col[:FIELDS].view(1, FIELDS, 1)),
                         (receivers_rc[0][:, None, :], receivers_rc[1][:, None, :])).min(-1).values
        pull = self.framed(far, seat)
        # scripted._throw: score if possible, else the catcher furthest forward with the fewest markers
        defenders_rc = self.rc(rules.team_pos(s, 1 - seat))
        markers = (self.steps((self.row[:FIELDS].view(1, FIELDS, 1), self.col[:FIELDS].view(1, FIELDS, 1)),
                              (defenders_rc[0][:, None, :], defenders_rc[1][:, None, :])) == 1).sum(-1)
        scores_here = nonzero(t.bit[:FIELDS][None] & take(self.attack, seat)[:, None, :])
        throw = (100.0 * scores_here.to(torch.float64) + self.forward(seat[:, None], self.field_row[None])
                 - 1.5 * markers.to(torch.float64))
        throw = self.framed(throw, seat)
        # scripted._run / _select: the value after each run; a runner's score is his best run's gain
        values = self.run_values(s, seat)
        runner = (s["runner"] - 4 * seat).clamp(0, 3)
        run = self.framed(values.gather(1, runner.view(-1, 1, 1).expand(-1, 1, FIELDS))[:, 0], seat)
        now = self.value(s, s["pos"][:, None, :], seat)[:, 0]
        gains = values.max(2).values - now[:, None]  # [B, 4]
        gains = torch.where(torch.isinf(gains), -1.0, gains)
        select = torch.full((b, FIELDS), _NONE, dtype=torch.float64, device=self.device)
        own = rules.team_pos(s, seat)
        select.scatter_(1, index(own).clamp(max=FIELDS - 1), gains)
        select = self.framed(select, seat)
        # scripted._monster: gamble only when the catcher is close to scoring: the lowest legal marker, or
        # NO_ROLL (a unique best either way)
        close = self.forward(s["offense"], take(t.row, index(s["disc"]))) >= self.monster_row
        first_marker = torch.where(close[:, None], -torch.arange(FIELDS, device=self.device, dtype=torch.float64),
                                   -1e9)

        boards = torch.zeros(b, FIELDS, dtype=torch.float64, device=self.device)
        for which, part in ((PLACE, place.to(torch.float64)), (PULL, pull.to(torch.float64)), (SELECT, select),
                            (RUN, run), (THROW, throw), (MONSTER, first_marker)):
            boards = torch.where((phase == which)[:, None], part, boards)
        out[:, :FIELDS] = boards
        out[:, DONE] = torch.where(phase == SELECT, self.f64(_MIN_GAIN), self.f64(_NONE))
        no_roll = torch.where(close, self.f64(-2e9), self.f64(0.0))
        out[:, NO_ROLL] = torch.where(phase == MONSTER, no_roll, self.f64(_NONE))
        return out

    def actions(self, s: State, generator: torch.Generator | None = None) -> torch.Tensor:
        """scripted.choose_action for every row's current player ([B] int64): the best-scored legal action, a
        tie (within 1e-9) broken uniformly at random by `generator`. A finished row gets 0."""
        legal = self.rules.legal(s)
        scores = torch.where(legal, self.scores(s), _NONE)
        best = scores.max(1, keepdim=True).values
        ties = legal & (scores >= best - _EPS)
        draw = torch.rand(scores.shape, generator=generator, device=self.device, dtype=torch.float64)
        return torch.where(ties, draw, -1.0).argmax(1)

