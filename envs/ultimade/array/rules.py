"""ULTIMADE's rules as batched, branch-free tensor functions (envs/ultimade/state.py is their source of truth).

Each function takes a state dict of [B]-first tensors and a row mask and returns a new dict in which only
the masked rows changed, so one step runs every phase's code for every row and keeps what applies with
`torch.where`. Names follow state.py's methods, so each can be read beside its Python original.
"""

from __future__ import annotations

import torch

from ultimata.envs.core.array import rng
from ultimata.envs.ultimade.array.bits import WORDS, Tables, index, nonzero, take
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
        shadows = tables.pull_shadows(endzones)
        self.shadows = torch.stack([shadows[self.zone_fields[z]] for z in (0, 1)])
        """[receiving team, its endzone's fields, origin]: tables.pull_shadows, cut to each endzone."""
        self.faces = torch.zeros(7, dtype=torch.bool, device=dev)
        self.faces[list(config.monster_turn_faces)] = True
        self.arange8 = torch.arange(8, device=dev)

    # -- geometry ------------------------------------------------------------------------------
    def team_bb(self, s: S) -> torch.Tensor:
        """[B, 2, 3]: each team's fields."""
        return take(self.t.bit, index(s["pos"])).view(-1, 2, 4, WORDS).sum(2)

    def team_pos(self, s: S, team: torch.Tensor) -> torch.Tensor:
        """[B, 4]: the fields of `team`'s players (team per row)."""
        pos = s["pos"].view(-1, 2, 4)
        return torch.where(team[:, None] == 0, pos[:, 0], pos[:, 1])

    def adjacent(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        """[B, n, m]: field a[i] is one king step from field b[j] (both on the pitch)."""
        ia, ib = index(a), index(b)
        dr = (take(self.t.row, ia)[:, :, None] - take(self.t.row, ib)[:, None, :]).abs()
        dc = (take(self.t.col, ia)[:, :, None] - take(self.t.col, ib)[:, None, :]).abs()
        return (torch.maximum(dr, dc) == 1) & (a[:, :, None] >= 0) & (b[:, None, :] >= 0)

    def destinations(self, s: S, bb: torch.Tensor, team: torch.Tensor) -> torch.Tensor:
        """[B, 4, 3]: where each player of `team` (per row) may run now (state.destinations, four at once)."""
        t, cfg = self.t, self.cfg
        pos = self.team_pos(s, team)
        occupied = bb[:, 0] | bb[:, 1]
        empty = (t.full & ~occupied)[:, None, :]
        if cfg.run_through == "empty":
            passable = empty
        elif cfg.run_through == "team":
            passable = empty | torch.where((team == 0)[:, None], bb[:, 0], bb[:, 1])[:, None, :]
        else:
            passable = torch.full_like(empty, t.full)
        start = take(t.bit, index(pos))
        cur, ends = start, torch.zeros_like(start)
        for _ in range(cfg.run_length):
            nxt = t.grow(cur)
            ends = ends | (nxt & empty)
            cur = (nxt & passable) | cur
        ends = ends & ~start
        on_offense = (team == s["offense"])[:, None, None]
        # the defense: not onto a disc on the ground, not where the marking rule forbids
        ground = (s["holder"] < 0) & (s["disc"] >= 0)
        disc_bit = torch.where(ground[:, None], take(t.bit, index(s["disc"])), 0)
        defense_ends = ends & ~disc_bit[:, None, :] & ~self.forbidden(s)
        ball = take(t.ball.view(-1, WORDS), index(s["disc"]) * (LENGTH + 1) + s["chase"].clamp(0, LENGTH))
        offense_ends = torch.where((s["chase"] >= 0)[:, None, None], ends & ball[:, None, :], ends)
        return torch.where(on_offense, offense_ends, defense_ends)

    def forbidden(self, s: S) -> torch.Tensor:
        """[B, 4, 3]: for each defender (in the defense's player order), the fields the marking rule closes."""
        t = self.t
        offense = s["offense"]
        off_pos, def_pos = self.team_pos(s, offense), self.team_pos(s, 1 - offense)
        adj = self.adjacent(off_pos, def_pos)  # [B, offense player, defender]
        count = adj.sum(2)
        around = take(t.neighbours, index(off_pos))  # [B, 4, 3]
        closed = torch.zeros_like(around)
        for o in range(4):
            shut = (count[:, o, None] >= 2) | ((count[:, o, None] == 1) & ~adj[:, o, :])  # [B, defender]
            closed = closed | torch.where(shut[:, :, None], around[:, o, None, :], 0)
        return closed

    def open_lanes(self, origin: torch.Tensor, targets: torch.Tensor, blockers: torch.Tensor,
                   empty: torch.Tensor) -> torch.Tensor:
        """[B, n]: a throw from origin[i] to targets[i, j] obeys the book (state._open_lane)."""
        lane = take(self.t.between, index(origin)[:, None] * (FIELDS + 1) + index(targets))
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
        zone = take(self.endzone, offense) & empty
        if not self.cfg.straight_pull:
            return zone
        fields = take(self.zone_fields, offense)  # [B, Z]
        blockers = torch.where((offense == 0)[:, None], bb[:, 0], bb[:, 1])  # the receivers block the pull
        ok = self.open_lanes(self.holder_field(s), fields, blockers, empty)
        ok &= t.fields(empty).gather(1, fields)
        return (take(t.bit, fields) * ok[:, :, None]).sum(1)

    def place_fields(self, s: S, bb: torch.Tensor) -> torch.Tensor:
        """[B, 3]: where the team to move may put its next player (state.place_fields)."""
        t, team = self.t, s["to_move"].clamp(0, 1)
        empty = t.full & ~(bb[:, 0] | bb[:, 1])
        fields = take(self.endzone, team) & empty
        if not self.cfg.straight_pull:
            return fields
        first_puller = (team != s["offense"]) & (s["pos"].view(-1, 2, 4)[:, :, 0].gather(1, team[:, None])[:, 0] < 0)
        offense = s["offense"]
        landing = t.fields(empty).gather(1, take(self.zone_fields, offense)).float()  # [B, Z]: free landings
        reach = torch.where((offense == 0)[:, None], landing @ self.shadows[0], landing @ self.shadows[1])
        origins = t.pack(reach > 0)  # the fields some pull can fly from
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
        """([B, 4] which players of the team to move may be picked to run, [B] DONE is legal) in SELECT;
        `dest` is that team's `destinations`."""
        to_move, offense = s["to_move"].clamp(0, 1), s["offense"]
        players = to_move[:, None] * 4 + self.arange8[None, :4]
        moved = (s["moved"][:, None] >> players) & 1
        candidate = (moved == 0) & (players != s["holder"][:, None])
        marker_only = s["marker_only"]
        on_defense = to_move != offense
        candidate &= ~(on_defense & (marker_only >= 0))[:, None] | (players == marker_only[:, None])
        can = candidate & nonzero(dest)
        surplus_markers = self.markers_of_holder(s) & self.surplus_now(s)[:, None]  # [B, 4] defense order
        surplus_blocks = on_defense & (surplus_markers & can).any(1)
        done = ~(((to_move == offense) & (s["chase"] >= 0)) | surplus_blocks)
        return can, done

    # -- the legal mask ------------------------------------------------------------------------
    def legal(self, s: S) -> torch.Tensor:
        t = self.t
        bb = self.team_bb(s)
        phase, to_move = s["phase"], s["to_move"].clamp(0, 1)
        dest = self.destinations(s, bb, to_move)
        can, done = self.runners(s, dest)
        runner = (s["runner"] - 4 * to_move).clamp(0, 3)
        run = dest.gather(1, runner[:, None, None].expand(-1, 1, WORDS))[:, 0]
        select = (take(t.bit, index(self.team_pos(s, to_move))) * can[:, :, None]).sum(1)
        mates = self.team_pos(s, s["offense"])
        throw = (take(t.bit, index(mates)) * self.receivers(s, bb)[:, :, None]).sum(1)
        def_pos = self.team_pos(s, 1 - s["offense"])
        markers = self.markers_of_holder(s)
        monster = (take(t.bit, index(def_pos)) * markers[:, :, None]).sum(1)
        board = torch.zeros_like(run)
        for which, value in ((RUN, run), (SELECT, select), (THROW, throw), (MONSTER, monster),
                             (PLACE, self.place_fields(s, bb)), (PULL, self.pull_targets(s, bb))):
            board = torch.where((phase == which)[:, None], value, board)
        fields = t.fields(board)
        fields = torch.where((s["to_move"] == 1)[:, None], fields.index_select(1, t.flip), fields)
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
        offense = s["offense"]
        dest = self.destinations(s, self.team_bb(s), offense)
        ends = dest[:, 0] | dest[:, 1] | dest[:, 2] | dest[:, 3]
        distance = take(self.t.distance, index(s["disc"]))  # [B, 162]
        now = distance.gather(1, index(self.team_pos(s, offense)).clamp(max=FIELDS - 1)).min(1).values
        best = torch.where(self.t.fields(ends), distance, 99).min(1).values
        return torch.where(best < now, best.long(), -1)

    def start_cycle(self, s: S, rows: torch.Tensor) -> S:
        s = put(s, rows, moved=0, runner=-1)
        capped = rows & (s["cycle"] >= self.cfg.max_cycles)
        s = self.finish(s, capped)
        go = rows & ~capped
        s = put(s, go, cycle=s["cycle"] + 1, phase=SELECT, to_move=s["offense"], chase=-1)
        chase = self.chase_distance(s)
        return put(s, go & (s["holder"] < 0), chase=chase)

    def catch_scores(self, s: S) -> torch.Tensor:
        disc = take(self.t.bit, index(s["disc"]))
        return nonzero(disc & take(self.endzone, 1 - s["offense"]))

    def score(self, s: S, rows: torch.Tensor) -> S:
        team = s["offense"]
        gain = torch.stack([team == 0, team == 1], dim=1) & rows[:, None]
        s = put(s, rows, score=s["score"] + gain.long())
        won = s["score"].gather(1, team[:, None])[:, 0] >= self.cfg.points_to_win
        over = rows & (won | (s["cycle"] >= self.cfg.max_cycles))
        s = self.finish(s, over)
        return self.new_point(s, rows & ~over, 1 - team)

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
        cheb = take(t.distance, thrower).gather(1, def_pos.clamp(max=FIELDS - 1)).long()
        dr = take(t.row, def_pos) - take(t.row, thrower)[:, None]
        dc = take(t.col, def_pos) - take(t.col, thrower)[:, None]
        seen_row = torch.where((defense == 1)[:, None], LENGTH - 1 - take(t.row, def_pos), take(t.row, def_pos))
        key = (((cheb * 400 + dr * dr + dc * dc) * 9 + take(t.col, def_pos)) * LENGTH + seen_row) * 4 + torch.arange(
            4, device=self.device)
        return defense * 4 + key.argmin(1)

    def end_step(self, s: S, rows: torch.Tensor) -> tuple[S, torch.Tensor]:
        """state._end_step, less its start of the next cycle: the rows that start one are returned, so that a
        step starts every row's cycle at once (one reach search for the chase rule, not one per route)."""
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
        return s, ground | turn

    def settle(self, s: S) -> S:
        """End running steps by themselves while the team to move can only say DONE (state._settle)."""
        while True:
            dest = self.destinations(s, self.team_bb(s), s["to_move"].clamp(0, 1))
            can, done = self.runners(s, dest)
            stuck = (s["phase"] == SELECT) & done & ~can.any(1)
            if not bool(stuck.any()):
                return s
            s, cycle_rows = self.end_step(s, stuck)
            s = self.start_cycle(s, cycle_rows)

    def step(self, s: S, actions: torch.Tensor, chance: torch.Tensor | None) -> tuple[S, torch.Tensor, torch.Tensor]:
        t, cfg = self.t, self.cfg
        live = s["phase"] != OVER
        before = self.potentials(s) if cfg.dense_reward else None
        phase, seat = s["phase"], s["to_move"].clamp(0, 1)
        is_field = actions < FIELDS
        field_action = actions.clamp(max=FIELDS - 1)
        f = torch.where(seat == 1, take(t.flip, field_action), field_action)
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
            contested = nonzero(take(t.neighbours, index(f)) & defenders)
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
        turn = rows & take(self.faces, roll.clamp(0, 6))
        s = self.turn_to(s, turn, pc)
        cycle_rows = cycle_rows | turn
        stands = rows & ~turn
        scores = stands & self.catch_scores(s)
        s = put(s, stands & ~scores, marker_only=pc)
        cycle_rows = cycle_rows | (stands & ~scores)

        s, ended = self.end_step(s, end_rows)
        # a catch that stands (state._after_catch): a point in the attacking endzone, else the next cycle
        catch_scores = catch_rows & self.catch_scores(s)
        s = self.score(s, scores | catch_scores)
        s = self.start_cycle(s, cycle_rows | ended | (catch_rows & ~catch_scores))
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
        row = take(self.t.row, index(s["disc"])).to(torch.float64)
        carried = torch.where(s["offense"] == 0, row / (LENGTH - 1), -(LENGTH - 1 - row) / (LENGTH - 1))
        in_play = (s["phase"] >= SELECT) & (s["phase"] <= MONSTER) & (s["disc"] >= 0)
        value = torch.where(in_play, value + 0.1 * carried, value)
        return torch.stack([value, -value], dim=1)
