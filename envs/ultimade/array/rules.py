"""ULTIMADE's rules as batched, branch-free tensor functions (envs/ultimade/state.py is their source of truth).

Each function takes a state dict of [B]-first tensors and a row mask and returns a new dict in which only
the masked rows changed, so one step runs every phase's code for every row and keeps what applies with
`torch.where`. Names follow state.py's methods, so each can be read beside its Python original.
"""

from __future__ import annotations

import torch

from ultimata.envs.core.array import rng
from ultimata.envs.ultimade.array.bits import WORDS, Tables, index, nonzero
from ultimata.envs.ultimade.board import FIELDS, LENGTH
from ultimata.envs.ultimade.config import UltimadeConfig
from ultimata.envs.ultimade.phases import MONSTER, OVER, PLACE, PULL, RUN, SELECT, THROW

S = dict[str, torch.Tensor]


def put(s: S, rows: torch.Tensor, **values: torch.Tensor | int) -> S:
    """`s` with the given entries replaced in `rows` only."""
    out = dict(s)
    for name, value in values.items():
        old = s[name]
        c = rows.view(-1, *([1] * (old.dim() - 1)))
        out[name] = torch.where(c, torch.as_tensor(value, dtype=old.dtype, device=old.device), old)
    return out


class Rules:
    """One rule variant's batched rules; built once per engine."""

    def __init__(self, config: UltimadeConfig, endzones: tuple[int, int], tables: Tables) -> None:
        from ultimata.envs.ultimade.array.bits import words

        self.cfg, self.t = config, tables
        dev = tables.device
        self.device = dev
        self.endzone = torch.tensor([words(z) for z in endzones], dtype=torch.int64, device=dev)
        """[team, 3]: the endzone each team defends and sets up in."""
        depth = config.endzone_depth
        self.zone_fields = torch.stack([torch.arange(9 * depth, device=dev),
                                        torch.arange(FIELDS - 9 * depth, FIELDS, device=dev)])
        """[team, 9 * depth]: the fields of each team's endzone."""
        self.shadows = tables.pull_shadows(endzones) if config.straight_pull else None
        self.faces = torch.zeros(7, dtype=torch.bool, device=dev)
        self.faces[list(config.monster_turn_faces)] = True
        self.arange8 = torch.arange(8, device=dev)

    # -- geometry ------------------------------------------------------------------------------
    def team_bb(self, s: S) -> torch.Tensor:
        """[B, 2, 3]: each team's fields."""
        return self.t.bit[index(s["pos"])].view(-1, 2, 4, WORDS).sum(2)

    def team_pos(self, s: S, team: torch.Tensor) -> torch.Tensor:
        """[B, 4]: the fields of `team`'s players (team per row)."""
        pos = s["pos"].view(-1, 2, 4)
        return torch.where(team[:, None] == 0, pos[:, 0], pos[:, 1])

    def adjacent(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        """[B, n, m]: field a[i] is one king step from field b[j] (both on the pitch)."""
        ia, ib = index(a), index(b)
        dr = (self.t.row[ia][:, :, None] - self.t.row[ib][:, None, :]).abs()
        dc = (self.t.col[ia][:, :, None] - self.t.col[ib][:, None, :]).abs()
        return (torch.maximum(dr, dc) == 1) & (a[:, :, None] >= 0) & (b[:, None, :] >= 0)

    def destinations(self, s: S, bb: torch.Tensor) -> torch.Tensor:
        """[B, 8, 3]: where each player may run now (state.destinations, for all eight at once)."""
        t, cfg, pos = self.t, self.cfg, s["pos"]
        occupied = bb[:, 0] | bb[:, 1]
        empty = (t.full & ~occupied)[:, None, :]
        if cfg.run_through == "empty":
            passable = empty
        elif cfg.run_through == "team":
            passable = empty | bb.repeat_interleave(4, dim=1)
        else:
            passable = t.full.expand(pos.shape[0], 1, WORDS)
        start = t.bit[index(pos)]
        cur, ends = start, torch.zeros_like(start)
        for _ in range(cfg.run_length):
            nxt = t.grow(cur)
            ends = ends | (nxt & empty)
            cur = (nxt & passable) | cur
        ends = ends & ~start
        offense = s["offense"]
        team = self.arange8[None, :] >> 2
        on_offense = team == offense[:, None]
        # the defense: not onto a disc on the ground, not where the marking rule forbids
        ground = (s["holder"] < 0) & (s["disc"] >= 0)
        disc_bit = torch.where(ground[:, None], t.bit[index(s["disc"])], 0)
        forbidden = self.forbidden(s, bb)
        defense_ends = ends & ~disc_bit[:, None, :] & ~forbidden
        ball = t.ball[index(s["disc"]), s["chase"].clamp(0, LENGTH)]
        offense_ends = torch.where((s["chase"] >= 0)[:, None, None], ends & ball[:, None, :], ends)
        return torch.where(on_offense[:, :, None], offense_ends, defense_ends)

    def forbidden(self, s: S, bb: torch.Tensor) -> torch.Tensor:
        """[B, 8, 3]: for each defender, the fields the marking rule closes to him (zero for the offense)."""
        t = self.t
        offense = s["offense"]
        off_pos, def_pos = self.team_pos(s, offense), self.team_pos(s, 1 - offense)
        adj = self.adjacent(off_pos, def_pos)  # [B, offense player, defender]
        count = adj.sum(2)
        around = t.neighbours[index(off_pos)]  # [B, 4, 3]
        closed = torch.zeros_like(around)
        for o in range(4):
            shut = (count[:, o, None] >= 2) | ((count[:, o, None] == 1) & ~adj[:, o, :])  # [B, defender]
            closed = closed | torch.where(shut[:, :, None], around[:, o, None, :], 0)
        zero = torch.zeros_like(closed)
        # closed is per defender in the defense's own order; place it at the absolute players
        first = torch.where((offense == 1)[:, None, None], closed, zero)
        second = torch.where((offense == 0)[:, None, None], closed, zero)
        return torch.cat([first, second], dim=1)

    def open_lanes(self, origin: torch.Tensor, targets: torch.Tensor, blockers: torch.Tensor,
                   empty: torch.Tensor) -> torch.Tensor:
        """[B, n]: a throw from origin[i] to targets[i, j] obeys the book (state._open_lane)."""
        lane = self.t.between[index(origin)[:, None] * (FIELDS + 1) + index(targets)]
        ok = nonzero(lane) & ~nonzero(lane & blockers[:, None, :])
        if self.cfg.throw_needs_free_field:
            ok &= nonzero(lane & empty[:, None, :])
        return ok

    def holder_field(self, s: S) -> torch.Tensor:
        h = s["holder"]
        return torch.where(h >= 0, s["pos"].gather(1, h.clamp(0)[:, None])[:, 0], -1)

    def receivers(self, s: S, bb: torch.Tensor) -> torch.Tensor:
        """[B, 4]: which of the offense's players the holder can reach with a legal throw."""
        offense = s["offense"]
        mates = self.team_pos(s, offense)
        empty = self.t.full & ~(bb[:, 0] | bb[:, 1])
        blockers = torch.where((offense == 0)[:, None], bb[:, 1], bb[:, 0])
        ok = self.open_lanes(self.holder_field(s), mates, blockers, empty)
        return ok & (s["holder"] >= 0)[:, None]

    def pull_targets(self, s: S, bb: torch.Tensor) -> torch.Tensor:
        """[B, 3]: where the pull may land (state.pull_targets)."""
        t, offense = self.t, s["offense"]
        empty = t.full & ~(bb[:, 0] | bb[:, 1])
        zone = self.endzone[offense] & empty
        if not self.cfg.straight_pull:
            return zone
        fields = self.zone_fields[offense]  # [B, Z]
        blockers = torch.where((offense == 0)[:, None], bb[:, 0], bb[:, 1])  # the receivers block the pull
        ok = self.open_lanes(self.holder_field(s), fields, blockers, empty)
        ok &= t.fields(empty).gather(1, fields)
        return (t.bit[fields] * ok[:, :, None]).sum(1)

    def place_fields(self, s: S, bb: torch.Tensor) -> torch.Tensor:
        """[B, 3]: where the team to move may put its next player (state.place_fields)."""
        t, team = self.t, s["to_move"].clamp(0, 1)
        empty = t.full & ~(bb[:, 0] | bb[:, 1])
        fields = self.endzone[team] & empty
        if not self.cfg.straight_pull:
            return fields
        first_puller = (team != s["offense"]) & (s["pos"].view(-1, 2, 4)[:, :, 0].gather(1, team[:, None])[:, 0] < 0)
        landing = t.fields(self.endzone[s["offense"]] & empty).float()
        can_pull = (landing @ self.shadows) > 0  # [B, 162]: origins some pull can fly from
        origins = (t.bit[:FIELDS][None] * can_pull[:, :, None]).sum(1)
        return torch.where(first_puller[:, None], fields & origins, fields)

    def markers_of_holder(self, s: S) -> torch.Tensor:
        """[B, 4]: which defenders stand next to the holder (state._markers_of(holder))."""
        def_pos = self.team_pos(s, 1 - s["offense"])
        return self.adjacent(self.holder_field(s)[:, None], def_pos)[:, 0] & (s["holder"] >= 0)[:, None]

    def surplus_now(self, s: S) -> torch.Tensor:
        """[B]: surplus markers must still leave (state.surplus_markers() is not empty)."""
        return s["surplus"] & (self.markers_of_holder(s).sum(1) >= 2)

    # -- what the team to move may do in its running step ----------------------------------------
    def runners(self, s: S, dest: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """([B, 8] players who may be picked to run, [B] DONE is legal) in phase SELECT."""
        team = self.arange8[None, :] >> 2
        to_move, offense = s["to_move"], s["offense"]
        moved = (s["moved"][:, None] >> self.arange8) & 1
        candidate = (team == to_move[:, None]) & (moved == 0) & (self.arange8 != s["holder"][:, None])
        marker_only = s["marker_only"]
        on_defense = to_move != offense
        candidate &= ~(on_defense & (marker_only >= 0))[:, None] | (self.arange8 == marker_only[:, None])
        can = candidate & nonzero(dest)
        surplus_markers = self.markers_of_holder(s) & self.surplus_now(s)[:, None]  # [B, 4] defense order
        runners_rel = torch.where((offense == 1)[:, None], can[:, :4], can[:, 4:])
        surplus_blocks = on_defense & (surplus_markers & runners_rel).any(1)
        done = ~(((to_move == offense) & (s["chase"] >= 0)) | surplus_blocks)
        return can, done

    # -- the legal mask ------------------------------------------------------------------------
    def legal(self, s: S) -> torch.Tensor:
        t = self.t
        bb = self.team_bb(s)
        phase, pos = s["phase"], s["pos"]
        dest = self.destinations(s, bb)
        can, done = self.runners(s, dest)
        run = dest.gather(1, s["runner"].clamp(0)[:, None, None].expand(-1, 1, WORDS))[:, 0]
        select = (t.bit[index(pos)] * can[:, :, None]).sum(1)
        mates = self.team_pos(s, s["offense"])
        throw = (t.bit[index(mates)] * self.receivers(s, bb)[:, :, None]).sum(1)
        def_pos = self.team_pos(s, 1 - s["offense"])
        markers = self.markers_of_holder(s)
        monster = (t.bit[index(def_pos)] * markers[:, :, None]).sum(1)
        board = torch.zeros_like(run)
        for which, value in ((RUN, run), (SELECT, select), (THROW, throw), (MONSTER, monster),
                             (PLACE, self.place_fields(s, bb)), (PULL, self.pull_targets(s, bb))):
            board = torch.where((phase == which)[:, None], value, board)
        fields = t.fields(board)
        fields = torch.where((s["to_move"] == 1)[:, None], fields[:, t.flip], fields)
        extra = torch.stack([(phase == SELECT) & done, phase == MONSTER], dim=1)
        return torch.cat([fields, extra], dim=1)

    # -- applying ------------------------------------------------------------------------------
    def new_point(self, s: S, rows: torch.Tensor, receiver: torch.Tensor) -> S:
        return put(s, rows, pos=-1, holder=-1, disc=-1, offense=receiver, phase=PLACE, to_move=receiver, moved=0,
                   runner=-1, chase=-1, marker_only=-1, surplus=False)

    def finish(self, s: S, rows: torch.Tensor) -> S:
        a, b = s["score"][:, 0], s["score"][:, 1]
        winner = torch.where(a > b, 0, torch.where(b > a, 1, -1))
        return put(s, rows, phase=OVER, to_move=-1, runner=-1, winner=winner)

    def chase_distance(self, s: S) -> torch.Tensor:
        """[B] (state._chase_distance): with `chase` already -1 in the rows asked about."""
        bb = self.team_bb(s)
        dest = self.destinations(s, bb)
        offense = s["offense"]
        off_dest = torch.where((offense == 0)[:, None, None], dest[:, :4], dest[:, 4:])
        ends = off_dest[:, 0] | off_dest[:, 1] | off_dest[:, 2] | off_dest[:, 3]
        distance = self.t.distance[index(s["disc"])]  # [B, 162]
        now = distance.gather(1, index(self.team_pos(s, offense)).clamp(max=FIELDS - 1)).min(1).values
        best = torch.where(self.t.fields(ends), distance, 99).min(1).values
        return torch.where(best < now, best, -1)

    def start_cycle(self, s: S, rows: torch.Tensor) -> S:
        s = put(s, rows, moved=0, runner=-1)
        capped = rows & (s["cycle"] >= self.cfg.max_cycles)
        s = self.finish(s, capped)
        go = rows & ~capped
        s = put(s, go, cycle=s["cycle"] + 1, phase=SELECT, to_move=s["offense"], chase=-1)
        chase = self.chase_distance(s)
        return put(s, go & (s["holder"] < 0), chase=chase)

    def catch_scores(self, s: S) -> torch.Tensor:
        disc = self.t.bit[index(s["disc"])]
        return nonzero(disc & self.endzone[1 - s["offense"]])

    def score(self, s: S, rows: torch.Tensor) -> S:
        team = s["offense"]
        gain = torch.stack([team == 0, team == 1], dim=1) & rows[:, None]
        s = put(s, rows, score=s["score"] + gain.long())
        won = s["score"].gather(1, team[:, None])[:, 0] >= self.cfg.points_to_win
        over = rows & (won | (s["cycle"] >= self.cfg.max_cycles))
        s = self.finish(s, over)
        return self.new_point(s, rows & ~over, 1 - team)

    def after_catch(self, s: S, rows: torch.Tensor) -> S:
        scores = self.catch_scores(s)
        s = self.score(s, rows & scores)
        return self.start_cycle(s, rows & ~scores)

    def turn_to(self, s: S, rows: torch.Tensor, p: torch.Tensor) -> S:
        f = s["pos"].gather(1, p[:, None])[:, 0]
        new_offense = p >> 2
        others = torch.where((new_offense == 0)[:, None], s["pos"][:, 4:], s["pos"][:, :4])
        markers = self.adjacent(f[:, None], others)[:, 0].sum(1)
        return put(s, rows, offense=new_offense, holder=p, disc=f, surplus=markers >= 2, marker_only=-1)

    def turn_taker(self, s: S) -> torch.Tensor:
        t = self.t
        defense = 1 - s["offense"]
        thrower = index(self.holder_field(s))
        def_pos = index(self.team_pos(s, defense))
        cheb = t.distance[thrower].gather(1, def_pos.clamp(max=FIELDS - 1))
        dr = t.row[def_pos] - t.row[thrower][:, None]
        dc = t.col[def_pos] - t.col[thrower][:, None]
        seen_row = torch.where((defense == 1)[:, None], LENGTH - 1 - t.row[def_pos], t.row[def_pos])
        key = (((cheb * 400 + dr * dr + dc * dc) * 9 + t.col[def_pos]) * LENGTH + seen_row) * 4 + torch.arange(
            4, device=self.device)
        return defense * 4 + key.argmin(1)

    def end_step(self, s: S, rows: torch.Tensor) -> S:
        offense_done = rows & (s["to_move"] == s["offense"])
        s = put(s, offense_done, to_move=1 - s["offense"], chase=-1)
        rows = rows & ~offense_done
        s = put(s, rows, marker_only=-1, surplus=False)
        ground = rows & (s["holder"] < 0)
        held = rows & ~ground
        bb = self.team_bb(s)
        can_throw = held & self.receivers(s, bb).any(1)
        s = put(s, can_throw, phase=THROW, to_move=s["offense"])
        turn = held & ~can_throw
        s = self.turn_to(s, turn, self.turn_taker(s))
        return self.start_cycle(s, ground | turn)

    def settle(self, s: S) -> S:
        """End running steps by themselves while the team to move can only say DONE (state._settle)."""
        while True:
            dest = self.destinations(s, self.team_bb(s))
            can, done = self.runners(s, dest)
            stuck = (s["phase"] == SELECT) & done & ~can.any(1)
            if not bool(stuck.any()):
                return s
            s = self.end_step(s, stuck)

    def step(self, s: S, actions: torch.Tensor, chance: torch.Tensor | None) -> tuple[S, torch.Tensor, torch.Tensor]:
        t, cfg = self.t, self.cfg
        live = s["phase"] != OVER
        before = self.potentials(s) if cfg.dense_reward else None
        phase, seat = s["phase"], s["to_move"].clamp(0, 1)
        is_field = actions < FIELDS
        field_action = actions.clamp(max=FIELDS - 1)
        f = torch.where(seat == 1, t.flip[field_action], field_action)
        at = s["pos"] == f[:, None]
        player = torch.where(at.any(1), at.long().argmax(1), -1)
        s = put(s, live, decisions=s["decisions"] + 1)
        pc = player.clamp(0)

        # place (state._place)
        rows = live & (phase == PLACE)
        team_slots = s["pos"].view(-1, 2, 4).gather(1, seat[:, None, None].expand(-1, 1, 4))[:, 0]
        slot = (team_slots >= 0).sum(1)
        p = seat * 4 + slot.clamp(max=3)
        placed_pos = torch.where(self.arange8[None] == p[:, None], f[:, None], s["pos"])
        s = put(s, rows, pos=placed_pos)
        first_puller = rows & (seat != s["offense"]) & (slot == 0)
        s = put(s, first_puller, holder=p, disc=f)
        last = rows & (slot == 3)
        s = put(s, last & (seat == s["offense"]), to_move=1 - seat)
        s = put(s, last & (seat != s["offense"]), phase=PULL)

        # pull (state._pull)
        rows = live & (phase == PULL)
        s = put(s, rows, last_throw=torch.stack([self.holder_field(s), f], dim=1), holder=-1, disc=f)
        cycle_rows = rows

        # select a runner, or DONE
        rows = live & (phase == SELECT) & is_field
        s = put(s, rows, runner=pc, phase=RUN)
        end_rows = live & (phase == SELECT) & ~is_field

        # run (state._run)
        rows = live & (phase == RUN)
        runner = s["runner"].clamp(0)
        run_pos = torch.where(self.arange8[None] == runner[:, None], f[:, None], s["pos"])
        offense_run = rows & ((runner >> 2) == s["offense"])
        picks_up = offense_run & (s["holder"] < 0) & (f == s["disc"])
        ran = s["moved"] | torch.bitwise_left_shift(torch.ones_like(runner), runner)
        s = put(s, rows, pos=run_pos, moved=ran, runner=-1, phase=SELECT)
        s = put(s, offense_run, chase=-1)
        s = put(s, picks_up, holder=runner)

        # throw (state._throw)
        rows = live & (phase == THROW)
        s = put(s, rows, last_throw=torch.stack([self.holder_field(s), f], dim=1), holder=pc, disc=f)
        catch_rows = torch.zeros_like(rows)
        if cfg.monster_defense:
            bb = self.team_bb(s)
            defenders = torch.where((s["offense"] == 0)[:, None], bb[:, 1], bb[:, 0])
            contested = nonzero(t.neighbours[index(f)] & defenders)
            if not cfg.monster_defense_in_endzone:
                contested &= ~self.catch_scores(s)
            s = put(s, rows & contested, phase=MONSTER, to_move=1 - s["offense"])
            catch_rows = rows & ~contested
        else:
            catch_rows = rows

        # Monster-Defense (state._monster), or NO_ROLL
        rows = live & (phase == MONSTER) & is_field
        catch_rows = catch_rows | (live & (phase == MONSTER) & ~is_field)
        roll = rng.roll(s["key"], s["draws"], 6) if chance is None else chance[:, 0]
        s = put(s, rows, last_roll=roll, draws=s["draws"] + 1)
        turn = rows & self.faces[roll.clamp(0, 6)]
        s = self.turn_to(s, turn, pc)
        cycle_rows = cycle_rows | turn
        stands = rows & ~turn
        scores = stands & self.catch_scores(s)
        s = put(s, stands & ~scores, marker_only=pc)
        cycle_rows = cycle_rows | (stands & ~scores)

        s = self.end_step(s, end_rows)
        s = self.after_catch(s, catch_rows)
        s = self.score(s, scores)
        s = self.start_cycle(s, cycle_rows)
        s = self.settle(s)

        terminal = s["phase"] == OVER
        a, b = s["score"][:, 0], s["score"][:, 1]
        result = torch.where(terminal & live & (a != b), torch.where(a > b, 1.0, -1.0), 0.0).to(torch.float64)
        rewards = torch.stack([result, 0.0 - result], dim=1)
        if before is not None:
            rewards = torch.where(live[:, None], (self.potentials(s) - before) + rewards, rewards)
        return s, rewards.to(torch.float32), terminal

    def potentials(self, s: S) -> torch.Tensor:
        """[B, 2] float64 (state.potentials), in the Python engine's order of operations."""
        score = s["score"].to(torch.float64)
        value = 0.5 * (score[:, 0] - score[:, 1]) / self.cfg.points_to_win
        row = self.t.row[index(s["disc"])].to(torch.float64)
        carried = torch.where(s["offense"] == 0, row / (LENGTH - 1), -(LENGTH - 1 - row) / (LENGTH - 1))
        in_play = (s["phase"] >= SELECT) & (s["phase"] <= MONSTER) & (s["disc"] >= 0)
        value = torch.where(in_play, value + 0.1 * carried, value)
        return torch.stack([value, -value], dim=1)
