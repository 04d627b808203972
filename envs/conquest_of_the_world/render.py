"""The board in pygame: the 11 zones as boxes placed roughly where they lie on a world map, each country
a row with its PBU, filled in its holder's colour (solid = conquest, light = ally, H = homeland), and a
side panel with the POWER BASE RECORD, chips, player alliances, the battle and the latest events."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.phases import OVER, PHASES, WEAPON
from ultimata.envs.conquest_of_the_world.terms import ALLY, STAGES
from ultimata.envs.conquest_of_the_world.text import MARK, record_text
from ultimata.envs.core.pictures import PygameRenderer

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState

ZONE_AT = ((20, 40), (480, 40), (640, 250), (250, 40), (330, 250), (480, 360), (640, 470), (800, 250),
           (20, 300), (250, 450), (800, 470))
"""Top-left corner of each zone's box: the Americas left, Europe and Asia to the right, Oceania bottom right."""
BOX_W, ROW_H = 150, 17
PLAYER_COLOURS = ((205, 52, 52), (40, 92, 205), (40, 150, 70), (220, 150, 20), (140, 60, 170), (30, 160, 170))
INK = (28, 28, 28)
PANEL_X = 970


def light(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple(255 - (255 - v) // 3 for v in colour)  # type: ignore[return-value]


class ConquestRenderer(PygameRenderer):
    size = (1300, 640)

    def __init__(self, mode: str, fps: int) -> None:
        super().__init__(mode, fps)
        self.pygame.font.init()
        self.small = self.pygame.font.Font(None, 17)
        self.label = self.pygame.font.Font(None, 22)

    def draw(self, surface: Any, state: ConquestState) -> None:
        pg, b = self.pygame, board()
        surface.fill((236, 240, 246))
        for z, members in enumerate(b.zone_members):
            x, y = ZONE_AT[z]
            pg.draw.rect(surface, (250, 250, 250), (x, y, BOX_W, 22 + ROW_H * len(members)))
            pg.draw.rect(surface, (90, 90, 110), (x, y, BOX_W, 22 + ROW_H * len(members)), 1)
            surface.blit(self.label.render(f"Zone {z + 1}", True, INK), (x + 4, y + 3))
            for i, c in enumerate(members):
                top = y + 21 + i * ROW_H
                h = state.holder[c]
                if h >= 0:
                    colour = PLAYER_COLOURS[h]
                    fill = light(colour) if state.kind[c] == ALLY else colour
                    pg.draw.rect(surface, fill, (x + 1, top, BOX_W - 2, ROW_H - 1))
                ink = (255, 255, 255) if h >= 0 and state.kind[c] != ALLY else INK
                mark = " " + MARK[state.kind[c]] if h >= 0 else ""
                surface.blit(self.small.render(f"{b.names[c]}{mark}", True, ink), (x + 4, top + 2))
                value = self.small.render(str(b.value[c]), True, ink)
                surface.blit(value, (x + BOX_W - 6 - value.get_width(), top + 2))
        who = "" if state.phase == OVER else f", player_{state.current_player} to play"
        surface.blit(self.label.render(f"Turn {state.turn}: {STAGES[state.stage]}, {PHASES[state.phase]}{who}",
                                       True, INK), (20, 12))
        y = 40
        surface.blit(self.label.render("POWER BASE RECORD / chips", True, INK), (PANEL_X, y))
        y += 24
        for q in range(state.n):
            allies = ",".join(str(r) for r in range(state.n) if state.allied[q][r])
            text = f"player_{q}: {record_text(state.record[q])}  chips {state.chips[q]}" + (
                f"  allies {allies}" if allies else "") + ("" if state.alive[q] else "  (out)")
            pg.draw.rect(surface, PLAYER_COLOURS[q], (PANEL_X, y + 2, 12, 12))
            surface.blit(self.small.render(text, True, INK), (PANEL_X + 18, y))
            width = min(300, state.record[q])
            pg.draw.rect(surface, PLAYER_COLOURS[q], (PANEL_X + 18, y + 15, width, 3))
            y += 24
        lines = []
        if state.option >= 0 and state.phase != OVER:
            lines.append(f"attack option: player_{state.option}, may buy {state.buys}")
        if state.proposal[0] >= 0:
            lines.append(f"player_{state.proposal[0]} proposes an alliance to player_{state.proposal[1]}")
        if state.phase == WEAPON:
            a, d = state.fighters
            what = b.names[state.target] if state.target >= 0 else "end game"
            led = "" if state.director(0) == a else f" (directed by player_{state.director(0)})"
            lines += [f"battle for {what}", f"player_{a}{led}: energy {state.energy[0]}, won {state.wins[0]}",
                      f"player_{d}: energy {state.energy[1]}, won {state.wins[1]}"]
        for line in lines:
            surface.blit(self.small.render(line, True, INK), (PANEL_X, y))
            y += 18
        y += 10
        for e in state.events[-10:]:
            surface.blit(self.small.render(e[:52], True, INK), (PANEL_X, y))
            y += 18
