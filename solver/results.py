"""What the solver returns: plain dataclasses with ``to_dict()`` for JSON (coordinates are 0-based [row, col])."""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.grid import DIRECTIONS

Cell = tuple[int, int]


@dataclass(frozen=True)
class Mismatch:
    """A fuzzy hit's disagreeing cell: the grid reads ``read`` there but the word needs ``needed``."""

    cell: Cell
    read: str
    needed: str

    def to_dict(self) -> dict:
        return {"cell": list(self.cell), "read": self.read, "needed": self.needed}


@dataclass(slots=True)
class Occurrence:
    """One straight-line placement of a word: ``length`` cells from ``start`` in ``direction``."""

    start: Cell
    direction: str
    length: int
    shape: tuple[int, int]  # grid (rows, cols), for wrap-around puzzles
    mismatches: tuple[Mismatch, ...] = ()

    @property
    def cells(self) -> list[Cell]:
        (r, c), (dr, dc), (rows, cols) = self.start, DIRECTIONS[self.direction], self.shape
        return [((r + i * dr) % rows, (c + i * dc) % cols) for i in range(self.length)]

    @property
    def end(self) -> Cell:
        return self.cells[-1]

    def to_dict(self) -> dict:
        return {"start": list(self.start), "end": list(self.end), "direction": self.direction,
                "cells": [list(c) for c in self.cells], "mismatches": [m.to_dict() for m in self.mismatches]}


@dataclass
class WordResult:
    """The answer for one word: where it is (the first/best occurrence) and every occurrence."""

    word: str
    occurrences: list[Occurrence] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return bool(self.occurrences)

    @property
    def start(self) -> Cell | None:
        return self.occurrences[0].start if self.occurrences else None

    @property
    def end(self) -> Cell | None:
        return self.occurrences[0].end if self.occurrences else None

    @property
    def direction(self) -> str | None:
        return self.occurrences[0].direction if self.occurrences else None

    @property
    def cells(self) -> list[Cell]:
        return self.occurrences[0].cells if self.occurrences else []

    @property
    def mismatches(self) -> list[Mismatch]:
        return list(self.occurrences[0].mismatches) if self.occurrences else []

    def to_dict(self) -> dict:
        first = self.occurrences[0].to_dict() if self.occurrences else {}
        return {"word": self.word, "found": self.found, "start": first.get("start"), "end": first.get("end"),
                "direction": first.get("direction"), "cells": first.get("cells", []),
                "mismatches": first.get("mismatches", []),
                "occurrences": [o.to_dict() for o in self.occurrences]}


@dataclass
class PathResult:
    """A Boggle/Wordament answer: one path of cells (no cell twice) and how many distinct paths spell the word."""

    word: str
    path: list[Cell] = field(default_factory=list)
    tiles: list[str] = field(default_factory=list)
    paths: int = 0

    @property
    def found(self) -> bool:
        return bool(self.path)

    @property
    def several(self) -> bool:
        return self.paths > 1

    def to_dict(self) -> dict:
        return {"word": self.word, "found": self.found, "path": [list(c) for c in self.path],
                "tiles": self.tiles, "paths": self.paths, "several": self.several}
