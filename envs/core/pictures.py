"""pygame drawing for board games: one surface, shown in a window (human) or returned (rgb_array)."""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from typing import Any

import numpy as np


class PygameRenderer(ABC):
    """Subclasses draw a state on `surface`; this class owns the window, the clock and the array copy."""

    size: tuple[int, int] = (640, 480)

    def __init__(self, mode: str, fps: int) -> None:
        if mode == "rgb_array":
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        import pygame

        self.pygame = pygame
        self.mode = mode
        self.fps = fps
        pygame.init()
        self.surface = pygame.Surface(self.size)
        self.window: Any = None
        self.clock: Any = None

    @abstractmethod
    def draw(self, surface: Any, state: Any) -> None: ...

    def render(self, state: Any) -> np.ndarray | None:
        self.draw(self.surface, state)
        if self.mode == "rgb_array":
            return np.transpose(self.pygame.surfarray.array3d(self.surface), (1, 0, 2)).astype(np.uint8)
        if self.window is None:
            self.pygame.display.init()
            self.window = self.pygame.display.set_mode(self.size)
            self.clock = self.pygame.time.Clock()
        self.pygame.event.pump()
        self.window.blit(self.surface, (0, 0))
        self.pygame.display.flip()
        if self.pygame.display.get_driver() != "dummy":  # pace frames only for someone watching
            self.clock.tick(self.fps)
        return None

    def close(self) -> None:
        if self.window is not None:
            self.pygame.display.quit()
            self.window = None
