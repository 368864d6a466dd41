"""Exact straight-line search: every placement of every pattern, with one of two trie walks.

* Few words: a trie of the patterns walked by NumPy over *all* start cells and directions at once. Each trie node
  carries the arrays of (start, direction) candidates still alive; a step to a child keeps those whose next cell
  holds the child's letter. Cost grows with trie nodes, not with grid cells, so a handful of words on a
  1000x1000 grid takes a few array passes.
* Many words: an Aho-Corasick automaton (a trie with failure links, pyahocorasick) over the words and their
  reversals, run once along each of the 4 line families (rows, columns, both diagonals) of the grid.

Both are iterative (no recursion), so grid size and word length are unbounded.
A placement is ``(row, col, direction, length)``, start cell first; patterns are strings of cell codes (grid.py).
"""
from __future__ import annotations

from collections import defaultdict
from math import lcm

import ahocorasick
import numpy as np

from solver.grid import DIRECTIONS, OPPOSITE, Grid

Placement = tuple[int, int, str, int]
AUTOMATON_MIN_PATTERNS = 40  # below this the NumPy trie walk is faster (bench/solver_speed.py)


def find_exact(grid: Grid, patterns: list[str], directions: list[str], wrap: bool = False) -> dict[str, list[Placement]]:
    """All placements of each pattern reading in one of ``directions`` (wrap: lines continue at the far edge)."""
    patterns = list(dict.fromkeys(p for p in patterns if p))
    if not patterns:
        return {}
    if wrap or len(patterns) < AUTOMATON_MIN_PATTERNS:
        found = _walk(grid, patterns, directions, wrap)
    else:
        found = _automaton(grid, patterns, directions)
    if wrap:  # a word may run round a line but not reuse a cell
        rows, cols = grid.shape
        period = {d: lcm(rows if dr else 1, cols if dc else 1) for d, (dr, dc) in DIRECTIONS.items()}
        found = {p: [pl for pl in pls if pl[3] <= period[pl[2]]] for p, pls in found.items()}
    return found


def _walk(grid: Grid, patterns: list[str], directions: list[str], wrap: bool) -> dict[str, list[Placement]]:
    """Vectorised trie walk; the grid is padded (zeros, or wrapped copies) so no step needs a bounds check."""
    rows, cols = grid.shape
    pad = max(len(p) for p in patterns) - 1 if wrap else 1
    padded = np.pad(grid.codes, pad, mode="wrap") if wrap and pad else np.pad(grid.codes, pad)
    width = padded.shape[1]
    cells = padded.ravel()
    origin = np.zeros_like(padded)  # start cells: the grid itself, not its wrapped copies
    origin[pad:pad + rows, pad:pad + cols] = grid.codes
    origin = origin.ravel()
    steps = np.array([DIRECTIONS[d][0] * width + DIRECTIONS[d][1] for d in directions], dtype=np.int64)

    trie: dict = {}
    for p in patterns:
        node = trie
        for ch in p:
            node = node.setdefault(ord(ch), {})
        node[None] = p
    hits: dict[str, list[tuple[np.ndarray, np.ndarray]]] = defaultdict(list)
    for code, node in trie.items():
        starts = np.flatnonzero(origin == code)
        if not starts.size:
            continue
        if None in node:
            hits[node[None]].append((starts, np.zeros(starts.size, dtype=np.int64)))
        if len(node) == (None in node):
            continue
        dirs = np.repeat(np.arange(len(steps)), starts.size)
        starts = np.tile(starts, len(steps))
        stack = [(node, starts, starts + steps[dirs], dirs)]
        while stack:
            node, starts, at, dirs = stack.pop()
            letters = cells[at]
            for ch, child in node.items():
                if ch is None:
                    continue
                keep = np.flatnonzero(letters == ch)
                if not keep.size:
                    continue
                s, d = starts[keep], dirs[keep]
                if None in child:
                    hits[child[None]].append((s, d))
                if len(child) > (None in child):
                    stack.append((child, s, at[keep] + steps[d], d))

    found = {}
    for p, parts in hits.items():
        starts = np.concatenate([s for s, _ in parts])
        dirs = np.concatenate([d for _, d in parts])
        r, c = np.divmod(starts, width)
        found[p] = [(r_, c_, directions[d_], len(p))
                    for r_, c_, d_ in zip((r - pad).tolist(), (c - pad).tolist(), dirs.tolist())]
    return found


def _families(codes: np.ndarray):
    """The 4 line families as (reading direction, lines matrix padded with 0 separators, cell of (line, offset))."""
    rows, cols = codes.shape
    r, c = np.indices(codes.shape)
    for name, lines, line, offset, cell in (
        ("E", cols + 1, r, c, lambda ln, off: (ln, off)),
        ("S", rows + 1, c, r, lambda ln, off: (off, ln)),
        ("SE", rows + 1, c - r + rows - 1, r, lambda ln, off: (off, ln - rows + 1 + off)),
        ("SW", rows + 1, r + c, r, lambda ln, off: (off, ln - off)),
    ):
        matrix = np.zeros((line.max() + 1, lines), dtype=codes.dtype)
        matrix[line, offset] = codes
        yield name, matrix, cell


def _automaton(grid: Grid, patterns: list[str], directions: list[str]) -> dict[str, list[Placement]]:
    """Aho-Corasick over each line family; a reversed pattern found reading forward is the word read backwards."""
    targets: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for p in patterns:
        targets[p].append((p, False))
        if p[::-1] != p:
            targets[p[::-1]].append((p, True))
        else:  # a palindrome also reads backwards from its other end
            targets[p].append((p, True))
    keys = list(targets)
    automaton = ahocorasick.Automaton()
    for i, key in enumerate(keys):
        automaton.add_word(key, i)
    automaton.make_automaton()
    key_len = np.array([len(k) for k in keys], dtype=np.int64)

    small = int(grid.codes.max()) < 256
    codes = grid.codes.astype(np.uint8) if small else grid.codes
    found: dict[str, list[Placement]] = defaultdict(list)
    for forward, matrix, cell in _families(codes):
        backward = OPPOSITE[forward]
        if forward not in directions and backward not in directions:
            continue
        text = matrix.tobytes().decode("latin-1" if small else "utf-32-le")
        hits = np.array(list(automaton.iter(text)), dtype=np.int64).reshape(-1, 2)
        if not hits.size:
            continue
        order = np.argsort(hits[:, 1], kind="stable")
        ends, ids = hits[order, 0], hits[order, 1]
        first = ends - key_len[ids] + 1
        r0, c0 = cell(*np.divmod(first, matrix.shape[1]))
        r1, c1 = cell(*np.divmod(ends, matrix.shape[1]))
        bounds = np.flatnonzero(np.diff(ids)) + 1
        for lo, hi in zip(np.r_[0, bounds].tolist(), np.r_[bounds, len(ids)].tolist()):
            for p, reverse in targets[keys[ids[lo]]]:
                d = backward if reverse else forward
                if d in directions:
                    r, c = (r1, c1) if reverse else (r0, c0)
                    found[p].extend((a, b, d, len(p)) for a, b in zip(r[lo:hi].tolist(), c[lo:hi].tolist()))
    return found
