"""The map in pygame: nations as discs at their place on a world map (ringed in their alliance's colour,
filled in their holder's, with the troop count), blockades as numbered dark-blue squares and anchors as
white discs with their numbers (vessels as 'battleships/submarines'), borders and sea lanes as lines,
the six laser stations, and a panel with money, lasers, cards and the latest events."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.core.pictures import PygameRenderer
from ultimata.envs.ultimatum_world.content import ALLIANCES, world
from ultimata.envs.ultimatum_world.phases import OVER, PHASES

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState

W = world()
PLAYER_COLOURS = ((205, 52, 52), (40, 92, 205), (40, 150, 70), (220, 150, 20), (140, 60, 170), (30, 160, 170))
ALLIANCE_COLOURS = ((40, 160, 60), (200, 40, 40), (230, 200, 40), (20, 20, 20))
"""The book's alliance colours: Western green, Communist red, Peace yellow, Oil black."""
SEA, INK, PANEL_X = (196, 218, 240), (28, 28, 28), 1010


class WorldRenderer(PygameRenderer):
    size = (1330, 640)

    def __init__(self, mode: str, fps: int) -> None:
        super().__init__(mode, fps)
        self.pygame.font.init()
        self.small = self.pygame.font.Font(None, 16)
        self.label = self.pygame.font.Font(None, 21)

    def draw(self, surface: Any, state: WorldState) -> None:
        pg = self.pygame
        surface.fill(SEA)
        for x, near in enumerate(W.borders):
            for y in near:
                if x < y:
                    pg.draw.line(surface, (120, 110, 90), W.nation_at[x], W.nation_at[y], 2)
        for t, links in enumerate(W.sea_links):
            for u in links:
                if t < u:
                    pg.draw.line(surface, (250, 250, 250), W.sea_at[t], W.sea_at[u], 1)
        for b, shore in enumerate(W.coast):
            for x in shore:
                pg.draw.line(surface, (60, 90, 150), W.sea_at[b], W.nation_at[x], 1)
        for i, (sx, sy) in enumerate(W.station_at):
            pg.draw.polygon(surface, (90, 90, 110), [(sx, sy - 9), (sx + 9, sy), (sx, sy + 9), (sx - 9, sy)])
            surface.blit(self.small.render(f"laser station {i + 1}", True, INK), (sx - 30, sy + 10))
        for t in range(W.sea_size):
            cx, cy = W.sea_at[t]
            blockade = t < 14
            colour = (20, 40, 110) if blockade else (250, 250, 250)
            if blockade:
                pg.draw.rect(surface, colour, (cx - 13, cy - 10, 26, 20))
            else:
                pg.draw.circle(surface, colour, (cx, cy), 11)
            owner = state.sea_owner[t]
            if owner >= 0:
                pg.draw.rect(surface, PLAYER_COLOURS[owner], (cx - 13, cy + 11, 26, 11))
                text = self.small.render(f"{state.bs[t]}/{state.subs[t]}", True, (255, 255, 255))
                surface.blit(text, (cx - text.get_width() // 2, cy + 12))
            number = str(t + 1) if blockade else ",".join(map(str, W.anchor_numbers[t - 14]))
            text = self.small.render(number, True, (255, 255, 255) if blockade else INK)
            surface.blit(text, (cx - text.get_width() // 2, cy - 5))
        for x in range(W.size):
            cx, cy = W.nation_at[x]
            pg.draw.circle(surface, ALLIANCE_COLOURS[W.alliance[x]], (cx, cy), 13)
            owner = state.owner[x]
            pg.draw.circle(surface, PLAYER_COLOURS[owner] if owner >= 0 else (240, 240, 240), (cx, cy), 10)
            if W.worldpower[x]:
                pg.draw.circle(surface, (255, 255, 255), (cx, cy), 15, 2)
            text = self.small.render(str(state.troops[x]), True, (255, 255, 255) if owner >= 0 else INK)
            surface.blit(text, (cx - text.get_width() // 2, cy - 5))
            name = self.small.render(W.names[x], True, INK)
            dx, dy = W.nation_label[x]
            surface.blit(name, (cx + dx - name.get_width() // 2, cy + dy - name.get_height() // 2))
        pg.draw.rect(surface, (240, 242, 246), (PANEL_X - 10, 0, 400, 640))
        who = "" if state.phase == OVER else f", player_{state.current_player}"
        surface.blit(self.label.render(f"Round {state.round}, {PHASES[state.phase]}{who}", True, INK), (PANEL_X, 12))
        y = 40
        for q in range(state.n):
            held = "".join(ALLIANCES[a][0] for a in range(4) if state.holds_alliance(q, a))
            text = (
                f"player_{q}: ${state.bank[q]}bn, {state.lasers[q]} lasers, {sum(state.hands[q])} cards"
                + (f", holds {held}" if held else "")
                + (" (out)" if state.out[q] else "")
            )
            pg.draw.rect(surface, PLAYER_COLOURS[q], (PANEL_X, y + 2, 12, 12))
            surface.blit(self.small.render(text, True, INK), (PANEL_X + 18, y + 2))
            y += 20
        y += 10
        for event in state.events[-12:]:
            surface.blit(self.small.render(event[:56], True, INK), (PANEL_X, y))
            y += 17
