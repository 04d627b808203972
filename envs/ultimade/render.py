"""The pitch in pygame: green field, endzones behind thick lines, blue team A, red team B, the disc,
and the last throw as an arrow. Drawn as the ansi board is: row 18 (B's end) on top."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ultimata.envs.core.pictures import PygameRenderer
from ultimata.envs.ultimade.board import COL, COLUMNS, LENGTH, ROW, WIDTH
from ultimata.envs.ultimade.phases import OVER, PHASES
from ultimata.envs.ultimade.players import PLAYER_NAMES, TEAMS

if TYPE_CHECKING:
    from ultimata.envs.ultimade.state import UltimadeState

CELL = 34
LEFT, TOP = 34, 44
PANEL_X = LEFT + WIDTH * CELL + 24
GRASS = (52, 140, 72)
ENDZONE = (38, 112, 58)
GRID = (74, 160, 94)
CHALK = (240, 240, 232)
TEAM_COLOURS = ((40, 92, 205), (205, 52, 52))
DISC = (255, 244, 120)
INK = (28, 28, 28)
BACKGROUND = (246, 246, 240)


class UltimadeRenderer(PygameRenderer):
    size = (PANEL_X + 270, TOP + LENGTH * CELL + 34)

    def __init__(self, mode: str, fps: int) -> None:
        super().__init__(mode, fps)
        font = self.pygame.font
        font.init()
        self.small = font.Font(None, 20)
        self.label = font.Font(None, 22)
        self.big = font.Font(None, 34)

    # -- geometry ------------------------------------------------------------------------------
    @staticmethod
    def centre(f: int) -> tuple[int, int]:
        return LEFT + COL[f] * CELL + CELL // 2, TOP + (LENGTH - 1 - ROW[f]) * CELL + CELL // 2

    # -- drawing -------------------------------------------------------------------------------
    def draw(self, surface: Any, state: UltimadeState) -> None:
        pg = self.pygame
        surface.fill(BACKGROUND)
        depth = state.game.config.endzone_depth
        width, height = WIDTH * CELL, LENGTH * CELL
        pg.draw.rect(surface, GRASS, (LEFT, TOP, width, height))
        for rows in ((0, depth), (LENGTH - depth, LENGTH)):
            y = TOP + (LENGTH - rows[1]) * CELL
            pg.draw.rect(surface, ENDZONE, (LEFT, y, width, depth * CELL))
        for c in range(1, WIDTH):
            pg.draw.line(surface, GRID, (LEFT + c * CELL, TOP), (LEFT + c * CELL, TOP + height))
        for r in range(1, LENGTH):
            pg.draw.line(surface, GRID, (LEFT, TOP + r * CELL), (LEFT + width, TOP + r * CELL))
        for r in (depth, LENGTH - depth):
            y = TOP + (LENGTH - r) * CELL
            pg.draw.line(surface, CHALK, (LEFT, y), (LEFT + width, y), 4)
        pg.draw.rect(surface, CHALK, (LEFT, TOP, width, height), 3)
        self._labels(surface)
        self._last_throw(surface, state)
        self._players(surface, state)
        self._panel(surface, state)

    def _labels(self, surface: Any) -> None:
        for c, letter in enumerate(COLUMNS):
            text = self.small.render(letter, True, INK)
            x = LEFT + c * CELL + CELL // 2 - text.get_width() // 2
            surface.blit(text, (x, TOP - 18))
            surface.blit(text, (x, TOP + LENGTH * CELL + 6))
        for r in range(LENGTH):
            text = self.small.render(str(r + 1), True, INK)
            y = TOP + (LENGTH - 1 - r) * CELL + CELL // 2 - text.get_height() // 2
            surface.blit(text, (LEFT - 6 - text.get_width(), y))

    def _last_throw(self, surface: Any, state: UltimadeState) -> None:
        if not state.last_throw:
            return
        pg = self.pygame
        (x0, y0), (x1, y1) = self.centre(state.last_throw[0]), self.centre(state.last_throw[1])
        pg.draw.line(surface, DISC, (x0, y0), (x1, y1), 3)
        angle = math.atan2(y1 - y0, x1 - x0)
        tip = (x1 - 17 * math.cos(angle), y1 - 17 * math.sin(angle))
        wings = [(tip[0] - 10 * math.cos(angle + s), tip[1] - 10 * math.sin(angle + s)) for s in (0.45, -0.45)]
        pg.draw.polygon(surface, DISC, [tip, *wings])

    def _players(self, surface: Any, state: UltimadeState) -> None:
        pg = self.pygame
        radius = CELL // 2 - 3
        for p, f in enumerate(state.pos):
            if f < 0:
                continue
            x, y = self.centre(f)
            pg.draw.circle(surface, TEAM_COLOURS[p >> 2], (x, y), radius)
            ring = DISC if p == state.runner else (150, 150, 150) if state.moved >> p & 1 else CHALK
            pg.draw.circle(surface, ring, (x, y), radius, 3 if p == state.runner else 2)
            text = self.label.render(str((p & 3) + 1), True, CHALK)
            surface.blit(text, (x - text.get_width() // 2, y - text.get_height() // 2))
        if state.disc >= 0:
            x, y = self.centre(state.disc)
            if state.holder >= 0:
                x, y = x + CELL // 4, y - CELL // 4
            pg.draw.circle(surface, DISC, (x, y), 7)
            pg.draw.circle(surface, INK, (x, y), 7, 1)

    def _panel(self, surface: Any, state: UltimadeState) -> None:
        cfg = state.game.config
        y = TOP - 30
        surface.blit(self.big.render("ULTIMADE", True, INK), (PANEL_X, y))
        y += 40
        score = self.big.render(f"A {state.score[0]} : {state.score[1]} B", True, INK)
        surface.blit(score, (PANEL_X, y))
        y += 36
        lines = [
            f"to {cfg.points_to_win} points, cycle {state.cycle}/{cfg.max_cycles}",
            f"team {TEAMS[state.offense]} on offense",
        ]
        if state.holder >= 0:
            lines.append(f"disc: {PLAYER_NAMES[state.holder]}")
        if state.phase == OVER:
            lines.append("game over: " + (f"{TEAMS[state.winner]} wins" if state.winner >= 0 else "draw"))
        else:
            lines.append(f"player_{state.to_move} ({TEAMS[state.to_move]}):")
            lines.append(f"  {PHASES[state.phase]}")
        if state.marker_only >= 0:
            lines.append(f"only {PLAYER_NAMES[state.marker_only]} may run (Monster-D.)")
        lines.append("")
        lines += _wrap(f"last: {state.last_event}", 36) if state.last_event else []
        for line in lines:
            surface.blit(self.label.render(line, True, INK), (PANEL_X, y))
            y += 22
        y = TOP + LENGTH * CELL - 70
        for team, colour in enumerate(TEAM_COLOURS):
            self.pygame.draw.circle(surface, colour, (PANEL_X + 8, y + 8), 8)
            end = "bottom" if team == 0 else "top"
            text = f"team {TEAMS[team]} (player_{team}) defends the {end}"
            surface.blit(self.small.render(text, True, INK), (PANEL_X + 22, y + 1))
            y += 22
        self.pygame.draw.circle(surface, DISC, (PANEL_X + 8, y + 8), 7)
        surface.blit(self.small.render("disc; arrow: last throw", True, INK), (PANEL_X + 22, y + 1))


def _wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines
