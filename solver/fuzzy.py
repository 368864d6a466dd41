"""Fuzzy straight-line search for OCR'd grids: placements where only a few cells disagree with the word.

A hit may have at most ``max_mismatches`` disagreeing cells, and a strict majority of its cells must agree (so a
3-letter word tolerates one wrong cell, a 2-letter word none). Hits are ranked by a cost: each mismatch costs
1 - the confidence the OCR gave the needed letter as an alternative reading of that cell (1 without alternatives).
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from solver.grid import DIRECTIONS, READING_ORDER, Grid, wrap_period
from solver.results import Mismatch, Occurrence

Alternatives = list[list[dict[str, float]]]


def find_fuzzy(grid: Grid, patterns: list[str], directions: list[str], wrap: bool, max_mismatches: int,
               alternatives: Alternatives | None = None) -> list[Occurrence]:
    """Inexact placements of any spelling in ``patterns``, best (cheapest) first."""
    rows, cols = grid.shape
    r, c = np.indices(grid.shape)
    scored = []
    for p in patterns:
        allowed = min(max_mismatches, (len(p) - 1) // 2)
        if allowed < 1:
            continue
        n = len(p) - 1
        padded = np.pad(grid.codes, n, mode="wrap" if wrap else "constant")
        # views[i][dr + 1, dc + 1]: the grid shifted i cells in direction (dr, dc); one strided view for all 8
        s0, s1 = padded.strides
        views = [as_strided(padded[n - i:, n - i:], (3, 3, rows, cols), (i * s0, i * s1, s0, s1))
                 for i in range(len(p))]
        count = sum(view != ord(ch) for view, ch in zip(views, p))
        for d in directions:
            dr, dc = DIRECTIONS[d]
            if wrap:
                if len(p) > wrap_period(grid.shape, d):
                    continue
                valid = np.ones(grid.shape, dtype=bool)
            else:
                valid = (0 <= r + n * dr) & (r + n * dr < rows) & (0 <= c + n * dc) & (c + n * dc < cols)
            for r0, c0 in zip(*(a.tolist() for a in np.nonzero(valid & (count[dr + 1, dc + 1] <= allowed)))):
                misses = tuple(Mismatch(((r0 + i * dr) % rows, (c0 + i * dc) % cols),
                                        grid.tile(int(view[dr + 1, dc + 1, r0, c0])), grid.tile(ord(ch)))
                               for i, (view, ch) in enumerate(zip(views, p)) if view[dr + 1, dc + 1, r0, c0] != ord(ch))
                occ = Occurrence((r0, c0), d, len(p), grid.shape, misses)
                scored.append((_cost(misses, alternatives), len(misses), occ.start, READING_ORDER.index(d), occ))
    scored.sort(key=lambda s: s[:4])
    return [s[-1] for s in scored]


def _cost(misses: tuple[Mismatch, ...], alternatives: Alternatives | None) -> float:
    """Sum over mismatches of 1 - confidence that the cell could be read as the needed letter."""
    total = 0.0
    for m in misses:
        (r, c), options = m.cell, {}
        if alternatives and r < len(alternatives) and c < len(alternatives[r]):
            options = alternatives[r][c] or {}
        conf = max((v for k, v in options.items() if k.upper() == m.needed), default=0.0)
        total += 1.0 - min(max(conf, 0.0), 1.0)
    return total
