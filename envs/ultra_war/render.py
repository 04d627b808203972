"""The map in pygame: terrain, upper levels shaded, objectives, pawns as discs with a facing tick and a
life bar (blue player_0, red player_1), power tokens as triangles, and a side panel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.core.pictures import PygameRenderer
from ultimata.envs.ultra_war.content import SIZE
from ultimata.envs.ultra_war.geometry import COL, DIRS, FIELDS, ROW

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState

CELL = 40
LEFT, TOP = 20, 40
PANEL_X = LEFT + SIZE * CELL + 20
SIDE_COLOURS = ((40, 92, 205), (205, 52, 52))
INK = (28, 28, 28)


class UltraWarRenderer(PygameRenderer):
    size = (PANEL_X + 330, TOP + SIZE * CELL + 30)

    def __init__(self, mode: str, fps: int) -> None:
        super().__init__(mode, fps)
        self.pygame.font.init()
        self.small = self.pygame.font.Font(None, 18)
        self.label = self.pygame.font.Font(None, 22)

    def draw(self, surface: Any, state: UltraWarState) -> None:
        pg = self.pygame
        surface.fill((246, 246, 240))
        b = state.board
        for f in range(FIELDS):
            x, y = LEFT + COL[f] * CELL, TOP + ROW[f] * CELL
            colour = (150, 150, 140) if b.level[f] else (205, 200, 185)
            if b.solid(f, state.breached):
                colour = (60, 60, 60)
            elif b.door[f]:
                colour = (140, 90, 40)
            elif b.obstruction[f]:
                colour = (90, 160, 90)
            elif b.stairs[f]:
                colour = (180, 150, 110)
            if b.objective[f]:
                colour = (235, 210, 80)
            if b.escape[f]:
                colour = (120, 200, 230)
            pg.draw.rect(surface, colour, (x, y, CELL, CELL))
            pg.draw.rect(surface, (120, 120, 110), (x, y, CELL, CELL), 1)
        for s in state.sources:
            if s.pos >= 0 and (s.kind == "crystal" or s.life > 0):
                cx, cy = LEFT + COL[s.pos] * CELL + CELL // 2, TOP + ROW[s.pos] * CELL + CELL // 2
                pg.draw.polygon(surface, SIDE_COLOURS[s.side], [(cx, cy - 12), (cx - 11, cy + 9), (cx + 11, cy + 9)])
        for u in state.units:
            if not u.on_map:
                continue
            cx, cy = LEFT + COL[u.pos] * CELL + CELL // 2, TOP + ROW[u.pos] * CELL + CELL // 2
            pg.draw.circle(surface, SIDE_COLOURS[u.side], (cx, cy), 15)
            if u.flying:
                pg.draw.circle(surface, (250, 250, 250), (cx, cy), 17, 2)
            dr, dc = DIRS[u.facing]
            pg.draw.line(surface, (255, 255, 255), (cx, cy), (cx + dc * 15, cy + dr * 15), 3)
            text = self.small.render(u.name[:2], True, (255, 255, 255))
            surface.blit(text, (cx - text.get_width() // 2, cy - 6))
            w = int(30 * u.life / u.ch.life)
            pg.draw.rect(surface, (40, 170, 60), (cx - 15, cy + 15, w, 3))
        title = f"{state.game.scenario.title}: round {state.round}, player_{state.turn}"
        surface.blit(self.label.render(title, True, INK), (LEFT, 12))
        y = TOP
        for side in (0, 1):
            surface.blit(self.label.render(f"player_{side} power {state.pool(side)}", True, SIDE_COLOURS[side]),
                         (PANEL_X, y))
            y += 22
            for u in state.side_units(side):
                line = f"{u.name} {u.life}/{u.ch.life}" + (" turned" if u.turned else "")
                surface.blit(self.small.render(line, True, INK if u.on_map else (160, 160, 160)), (PANEL_X, y))
                y += 17
            y += 10
        for e in state.events[-8:]:
            surface.blit(self.small.render(e[:48], True, INK), (PANEL_X, y))
            y += 17
