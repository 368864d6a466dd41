"""Grids and words as the solver sees them: tiles, one integer code per cell, normalised words, directions.

A cell holds a *tile*: usually one letter, sometimes several (Boggle ``QU``, Wordament ``VE``). Every cell gets an
integer code: the code point of a one-letter tile, or a private-use code for a multi-letter tile, so that a word
becomes a short string of codes ("patterns") whatever the tiles are.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from math import lcm

import numpy as np

from solver.errors import GridFormatError

#: (row step, col step) of the 8 straight directions, clockwise from up. Coordinates are 0-based (row, col).
DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (-1, 0), "NE": (-1, 1), "E": (0, 1), "SE": (1, 1),
    "S": (1, 0), "SW": (1, -1), "W": (0, -1), "NW": (-1, -1),
}
PHRASES = {"N": "up", "NE": "up-right", "E": "right", "SE": "down-right",
           "S": "down", "SW": "down-left", "W": "left", "NW": "up-left"}
READING_ORDER = ("E", "S", "SE", "NE", "W", "N", "NW", "SW")  # forward readings first: the tie-break order
OPPOSITE = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}

MULTI_BASE = 0xF0000  # codes of multi-letter tiles (Unicode supplementary private use area)
_IGNORED_IN_WORDS = str.maketrans("", "", " \t-'\u2019\u2010\u2011")
_TOKEN = re.compile(r"\[([^\]]*)\]|(.)")  # a compact row: letters, or [QU]-style bracketed tiles
_SPECIAL_TILE = re.compile(r"[^\W\d_]+-|-[^\W\d_]+|[^\W\d_]+(?:/[^\W\d_]+)+")  # SUB-, -ER, U/M


def wrap_period(shape: tuple[int, int], direction: str) -> int:
    """Cells a wrapped line in ``direction`` visits before it repeats: the longest word it can hold."""
    dr, dc = DIRECTIONS[direction]
    return lcm(shape[0] if dr else 1, shape[1] if dc else 1)


def fold_accents(text: str) -> str:
    """Drop diacritics: 'fumée' -> 'fumee'."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def normalize_word(word: str, fold: bool = True) -> str:
    """The letters to look for: upper case, without spaces, hyphens and apostrophes (accents folded if asked)."""
    key = word.translate(_IGNORED_IN_WORDS).upper()
    return fold_accents(key) if fold and not key.isascii() else key


def split_row(row: str) -> list[str]:
    """Tiles of one row: space/comma separated tokens, or one letter per character ([QU] groups a tile)."""
    row = row.strip()
    if re.search(r"[\s,;]", row):
        tiles = [t for t in re.split(r"[\s,;]+", row) if t]
    else:
        tiles = [group or ch for group, ch in _TOKEN.findall(row)]
    return [t.strip("[]").upper() for t in tiles]


def _check_tiles(tiles: list[str], row: int, special: bool) -> None:
    if not tiles or not all(tiles):
        raise GridFormatError(f"row {row} of the grid is empty")
    for tile in tiles:
        if not (tile.isalpha() or (special and _SPECIAL_TILE.fullmatch(tile))):
            bad = next((ch for ch in tile if not ch.isalpha()), tile)
            raise GridFormatError(f"row {row} of the grid holds {bad!r}, which is not a letter")


def parse_grid(text_or_rows: str | list[str] | list[list[str]], *, special: bool = False) -> list[list[str]]:
    """Tiles per row from text (one row per line) or a list of rows (strings or tile lists).

    Rows may separate their letters with spaces (needed for multi-letter tiles like ``QU``) or not.
    ``special=True`` also accepts Wordament tiles: ``SUB-`` (prefix), ``-ER`` (suffix), ``U/M`` (either/or).
    Raises GridFormatError naming the row when the grid is empty, ragged or holds non-letters.
    """
    lines = text_or_rows.strip().splitlines() if isinstance(text_or_rows, str) else list(text_or_rows)
    if not lines:
        raise GridFormatError("the grid is empty")
    rows = []
    for i, line in enumerate(lines, 1):
        tiles = split_row(line) if isinstance(line, str) else [str(t).strip().upper() for t in line]
        _check_tiles(tiles, i, special)
        rows.append(tiles)
    for i, tiles in enumerate(rows, 1):
        if len(tiles) != len(rows[0]):
            raise GridFormatError(f"row {i} has {len(tiles)} letters but row 1 has {len(rows[0])}: the grid is ragged")
    return rows


@dataclass(frozen=True)
class Grid:
    """A rectangular grid as an array of cell codes plus the tile behind each multi-letter code."""

    codes: np.ndarray  # (rows, cols) uint8 for ASCII grids, else uint32
    multi: dict[str, int]  # multi-letter tile -> its code

    @property
    def shape(self) -> tuple[int, int]:
        return self.codes.shape

    def tile(self, code: int) -> str:
        return chr(code) if code < MULTI_BASE else self._tile_of[code]

    @cached_property
    def _tile_of(self) -> dict[int, str]:
        return {code: tile for tile, code in self.multi.items()}

    @cached_property
    def has_accents(self) -> bool:
        if self.codes.dtype == np.uint8:
            return False
        letters = "".join(map(chr, np.unique(self.codes[self.codes < MULTI_BASE]))) + "".join(self.multi)
        return fold_accents(letters) != letters

    def patterns(self, key: str, limit: int = 64) -> list[str]:
        """Every way to spell ``key`` with this grid's tiles, as strings of cell codes (usually just ``key``)."""
        if not self.multi:
            return [key]
        ways: list[list[str]] = [[""]] + [[] for _ in key]  # ways[i]: spellings of key[:i]
        for i in range(len(key)):
            for prefix in ways[i][:limit]:
                ways[i + 1].append(prefix + key[i])
                for tile, code in self.multi.items():
                    if key.startswith(tile, i):
                        ways[i + len(tile)].append(prefix + chr(code))
        return ways[-1][:limit]


def make_grid(rows: str | list[str] | list[list[str]]) -> Grid:
    """Grid from text or rows; plain one-letter-per-character rows take a fast path (no per-cell objects)."""
    if isinstance(rows, list) and rows and all(isinstance(r, str) for r in rows):
        joined = "".join(rows).upper()
        if joined.isascii() and all(len(r) == len(rows[0]) for r in rows):
            data = joined.encode("ascii")
            if data.isalpha():
                return Grid(np.frombuffer(data, dtype=np.uint8).reshape(len(rows), -1).copy(), {})
    tiles = parse_grid(rows)
    multi = {t: MULTI_BASE + i for i, t in enumerate(sorted({t for row in tiles for t in row if len(t) > 1}))}
    codes = np.array([[multi[t] if len(t) > 1 else ord(t) for t in row] for row in tiles], dtype=np.uint32)
    return Grid(codes.astype(np.uint8) if codes.max() < 128 else codes, multi)
