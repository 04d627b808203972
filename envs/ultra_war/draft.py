"""Army drafting as decisions (book: The Game Setup, Step 2: "the sum total of all Characters chosen for
your Army must not exceed [the Army Total] ... you must at least choose 1 General"), with the config key
`army: draft`. Gap (ours): player_0 drafts its whole army, then player_1, in the open; each pick is placed
at once (Step 3) on the next start space; the first picks bear the side's crystals (Step 4). The whole
draft lives here: who may be drafted, a pick, the end of a side's draft, and the check of a loaded army."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultra_war.content import MAX_ARMY, Character, content, roster
from ultimata.envs.ultra_war.phases import SETUP

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState as _Base
else:
    _Base = object


class DraftRules(_Base):
    """The army draft, a part of UltraWarState (state.py says how the rule modules are composed)."""

    def roster(self, side: int) -> tuple[str, ...]:
        sc = self.game.scenario
        return roster(sc.factions[side], sc.prisoner)

    def army_room(self, side: int) -> int:
        """How many characters the side's army may hold: 8, and a start space each beside its power tokens."""
        return min(MAX_ARMY, len(self.start_spaces(side)) - self.game.scenario.power_sources)

    def army_value(self, side: int) -> int:
        return sum(u.ch.value for u in self.side_units(side) if not u.imprisoned)

    def draftable(self, side: int) -> list[int]:
        """Roster indices the side may draft now: within the army total, Minion limits and one of each other
        character, room on the start area, and - until the army has a General - a General still affordable
        after the pick (so the draft can always end with the book's army rule kept)."""
        army = [u.name for u in self.side_units(side)]
        if len(army) >= self.army_room(side):
            return []
        chars = content().characters
        total, budget = self.army_value(side), self.game.scenario.army_total
        names = self.roster(side)
        general = any(chars[n].rank == "General" for n in army)
        out = []
        for s, name in enumerate(names):
            ch = chars[name]
            if total + ch.value > budget or army.count(name) >= _limit(ch):
                continue
            if not general and ch.rank != "General" and not (
                len(army) + 1 < self.army_room(side)
                and any(chars[g].rank == "General" and g not in army and total + ch.value + chars[g].value <= budget
                        for g in names)):
                continue
            out.append(s)
        return out

    def draft_done_ok(self, side: int) -> bool:
        """END_TURN ends the side's draft once its army has a General."""
        return any(u.ch.rank == "General" for u in self.side_units(side))

    def check_army(self, side: int, names: list[str], finished: bool) -> None:
        """A drafted army keeps the draft's rules (for loaded states)."""
        chars = content().characters
        allowed = self.roster(side)
        if any(n not in allowed for n in names):
            faction = self.game.scenario.factions[side]
            raise ValueError(f"player_{side}: a drafted character not in the {faction} roster")
        if sum(chars[n].value for n in names) > self.game.scenario.army_total or len(names) > self.army_room(side):
            raise ValueError(f"player_{side}: the drafted army breaks the army total or the start area")
        if any(names.count(n) > _limit(chars[n]) for n in names):
            raise ValueError(f"player_{side}: a character drafted more often than allowed")
        if finished and not any(chars[n].rank == "General" for n in names):
            raise ValueError(f"player_{side}: a finished draft without a General")

    def _draft(self, side: int, s: int) -> None:
        """SELECT s in the draft: roster character s joins the army, placed at once."""
        name = self.roster(side)[s]
        self._place_new(side, name)
        self.log(f"player_{side} drafts {name}")

    def _finish_draft(self, side: int) -> None:
        """END_TURN in the draft: the side's power sources are placed; after player_1's draft, the prisoner,
        then the set-up's card payments (step 5) begin."""
        self._add_sources(side)
        if side == 0:
            self.setup_side = 1
            return
        if self.game.scenario.prisoner:
            self._add_prisoner()
        self.phase, self.setup_side = SETUP, self.first


def _limit(ch: Character) -> int:
    return ch.minion_limit if ch.rank == "Minion" else 1
