"""Exact straight-line search: every placement of every pattern, by walking a trie of the patterns with NumPy.

Both walks move many candidate placements through the trie at once, so the cost grows with the trie and with
the candidates still alive, not with Python-level work per cell:

* ``_walk`` (few words, and wrap-around grids): node by node; each trie node carries, per direction, the array of
  start cells still alive, and a step to a child keeps those whose next cell holds the child's letter.
* ``_dense`` (many words): the trie as a transition table; per direction, the first three letters of *every* start
  cell are read through shifted views of the grid and looked up in a table of all 3-letter prefixes, then the
  survivors step down the table together.

Both are iterative (no recursion), so grid size and word length are unbounded. Patterns are strings of cell codes
(grid.py). Measured against an Aho-Corasick automaton (pyahocorasick) over the 4 line families joined into strings,
the table walk was ~2.5x faster on 1000x1000 / 10,000 words and the node walk ~3x faster on 7 words.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from solver.grid import DIRECTIONS, READING_ORDER, Grid, wrap_period
from solver.results import Occurrence

Hits = tuple[np.ndarray, np.ndarray, np.ndarray]  # pattern index, flat start cell, READING_ORDER index
DENSE_MIN_PATTERNS = 40  # from here on the table walk beats the node-by-node walk (bench/solver_speed.py)


def find_exact(grid: Grid, patterns: list[str], directions: list[str], wrap: bool = False) -> dict[str, list[Occurrence]]:
    """Every occurrence of each pattern reading in one of ``directions``, in reading order (row, col, direction).

    ``wrap``: lines continue at the opposite edge (a word still uses each cell at most once).
    """
    patterns = _distinct(tuple(patterns))
    if not patterns:
        return {}
    if wrap or len(patterns) < DENSE_MIN_PATTERNS:
        pid, start, way = _walk(grid, patterns, directions, wrap)
    else:
        pid, start, way = _dense(grid, patterns, directions)
    rows, cols = grid.shape
    if wrap:
        period = np.array([wrap_period(grid.shape, d) for d in READING_ORDER])
        keep = np.array([len(p) for p in patterns])[pid] <= period[way]
        pid, start, way = pid[keep], start[keep], way[keep]
    order = np.lexsort((way, start, pid))
    pid, start, way = pid[order], start[order], way[order]
    r, c = (a.tolist() for a in np.divmod(start, cols))
    way = [READING_ORDER[w] for w in way.tolist()]
    bounds = (np.flatnonzero(np.diff(pid)) + 1).tolist()  # where the next pattern's occurrences begin
    found, shape = {}, grid.shape
    for lo, hi in zip([0] + bounds, bounds + [len(way)] if way else []):
        p = patterns[pid[lo]]
        n = len(p)
        found[p] = [Occurrence(cell, w, n, shape) for cell, w in zip(zip(r[lo:hi], c[lo:hi]), way[lo:hi])]
    return found


@lru_cache(maxsize=2)
def _distinct(patterns: tuple[str, ...]) -> tuple[str, ...]:
    """The non-empty patterns, each once, in order (kept: a dictionary is searched grid after grid)."""
    return tuple(dict.fromkeys(p for p in patterns if p))


def _walk(grid: Grid, patterns: tuple[str, ...], directions: list[str], wrap: bool) -> Hits:
    """Vectorised trie walk over a padded grid (zeros, or wrapped copies) so that no step needs a bounds check."""
    rows, cols = grid.shape
    pad = max(len(p) for p in patterns) - 1 if wrap else 1
    padded = np.pad(grid.codes, pad, mode="wrap") if wrap and pad else np.pad(grid.codes, pad)
    width = padded.shape[1]
    cells = padded.ravel()
    origin = cells  # where words may start: the grid itself, not its wrapped copies
    if wrap:
        origin = np.zeros_like(padded)
        origin[pad:pad + rows, pad:pad + cols] = grid.codes
        origin = origin.ravel()
    steps = [DIRECTIONS[d][0] * width + DIRECTIONS[d][1] for d in directions]
    ways = [READING_ORDER.index(d) for d in directions]

    trie: dict = {}
    for i, p in enumerate(patterns):
        node = trie
        for ch in p:
            node = node.setdefault(ord(ch), {})
        node[None] = i
    hits: list[tuple[int, np.ndarray, int]] = []
    for code, starts in _cells_by_code(origin, list(trie)).items():
        node = trie[code]
        if None in node and starts.size:
            hits.append((node[None], starts, ways[0]))
        stack = [(node, 1, [starts] * len(steps))]  # node, its depth, start cells still alive per direction
        while stack:
            node, depth, alive = stack.pop()
            children = [(ch, child, [None] * len(steps)) for ch, child in node.items() if ch is not None]
            if not children:
                continue
            for k, starts in enumerate(alive):
                if starts is None or not starts.size:
                    continue
                letters = cells[starts + depth * steps[k]]
                for ch, child, kept in children:
                    kept[k] = starts[letters == ch]
                    if None in child and kept[k].size:
                        hits.append((child[None], kept[k], ways[k]))
            stack.extend((child, depth + 1, kept) for _, child, kept in children)
    if not hits:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
    r, c = np.divmod(np.concatenate([s for _, s, _ in hits]), width)
    sizes = [s.size for _, s, _ in hits]
    return (np.repeat([p for p, _, _ in hits], sizes), (r - pad) * cols + (c - pad),
            np.repeat([w for _, _, w in hits], sizes))


def _cells_by_code(cells: np.ndarray, codes: list[int]) -> dict[int, np.ndarray]:
    """Positions of each wanted code; for byte grids in one pass (select wanted cells, stable-sort by letter)."""
    if cells.dtype != np.uint8:
        return {code: np.flatnonzero(cells == code) for code in codes}
    codes = [code for code in codes if code < 256]
    wanted = np.zeros(256, dtype=bool)
    wanted[codes] = True
    where = np.flatnonzero(wanted[cells])
    letters = cells[where]
    where = where[np.argsort(letters, kind="stable")]
    counts = np.bincount(letters, minlength=256)
    ends = np.cumsum(counts)
    return {code: where[ends[code] - counts[code]:ends[code]] for code in codes}


def _trie_table(patterns: list[str], alphabet: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The trie of ``patterns`` built with array operations: (flat transition table, has_children, word).

    ``table[node * size + column]`` is the child (or -1) for the letter ``alphabet[column - 1]``; node 0 is the
    root; ``word[node]`` is the index of the pattern ending there (or -1; ``word[-1]`` is -1 as well).
    In sorted order, a pattern adds a node at each depth where it stops sharing the previous pattern's prefix.
    """
    size, count, longest = len(alphabet) + 1, len(patterns), max(map(len, patterns))
    order = sorted(range(count), key=patterns.__getitem__)
    text = "".join(patterns[i].ljust(longest, "\0") for i in order).encode("utf-32-le")
    codes = np.frombuffer(text, dtype=np.uint32).reshape(count, longest)
    letters = np.where(codes > 0, np.searchsorted(alphabet, codes) + 1, 0)  # alphabet column, 0 past the end
    shared = np.zeros((count, longest), dtype=bool)
    shared[1:] = np.cumprod(letters[1:] == letters[:-1], axis=1)
    new = (letters > 0) & ~shared  # pattern i brings the node of its prefix of length d + 1
    ids = np.cumsum(new.T).reshape(longest, count).T  # numbered depth by depth; the root is 0
    node = np.maximum.accumulate(np.where(new, ids, 0), axis=0)  # shared prefixes reuse the previous node
    parent = np.hstack([np.zeros((count, 1), dtype=ids.dtype), node[:, :-1]])
    table = np.full((int(new.sum()) + 1) * size, -1, dtype=np.int32)
    table[parent[new] * size + letters[new]] = node[new]
    has_children = np.zeros(len(table) // size, dtype=bool)
    has_children[parent[new]] = True
    word = np.full(len(has_children) + 1, -1)
    lengths = np.array([len(patterns[i]) for i in order])
    word[node[np.arange(count), lengths - 1]] = order
    return table, has_children, word


@lru_cache(maxsize=2)
def _prepared(patterns: tuple[str, ...]) -> tuple:
    """The transition table of ``patterns`` and its q-letter prefix tables, kept for the next grid searched with
    the same patterns (a dictionary's table takes ~150 ms to build, its search of a 15x15 grid a few ms)."""
    alphabet = np.array(sorted(map(ord, set("".join(patterns)))))
    size = len(alphabet) + 1  # column 0: a letter no pattern uses (or the padding)
    table, has_children, word = _trie_table(list(patterns), alphabet)
    q = min(3, max(len(p) for p in patterns), max(1, int(21 // np.log2(size))))  # prefix table <= 2M entries
    prefix = [table[:size]]  # prefix[i][code of i+1 letters] -> trie node, or -1
    for _ in range(1, q):
        nxt = table[np.maximum(prefix[-1], 0)[:, None] * size + np.arange(size)]
        nxt[prefix[-1] < 0] = -1
        prefix.append(nxt.ravel())
    lengths = set(map(len, patterns))
    short = [word[prefix[i]] if i + 1 in lengths else None for i in range(q - 1)]  # words shorter than q
    return alphabet, table, has_children, word, prefix, short


def _dense(grid: Grid, patterns: tuple[str, ...], directions: list[str]) -> Hits:
    """Level-synchronous walk of the trie as a transition table, one direction at a time over all cells.

    The first ``q`` letters of every (start, direction) are read at once through shifted views of the grid and
    looked up in a table of all q-letter prefixes; the few survivors then step down the trie together.
    """
    rows, cols = grid.shape
    alphabet, table, has_children, word, prefix, short = _prepared(tuple(patterns))
    size, q = len(alphabet) + 1, len(prefix)

    padded = np.pad(grid.codes, q)
    if padded.dtype == np.uint8:  # the column of each cell's letter
        lut = np.zeros(256, dtype=np.int32)
        lut[alphabet[alphabet < 256]] = np.flatnonzero(alphabet < 256) + 1
        letters = lut[padded]
    else:
        letters = np.searchsorted(alphabet, padded)
        letters = np.where(alphabet[np.minimum(letters, len(alphabet) - 1)] == padded, letters + 1, 0)
    width = padded.shape[1]
    flat_letters = letters.ravel()
    out = []

    def report(found, starts, way):
        hit = found >= 0
        out.append((found[hit], starts[hit], np.full(np.count_nonzero(hit), way)))

    code = letters[q:q + rows, q:q + cols]
    if q > 1 and short[0] is not None:  # one-letter words, reported once (in the first direction)
        report(short[0][code].ravel(), np.arange(rows * cols), READING_ORDER.index(directions[0]))
    for d in directions:
        (dr, dc), way = DIRECTIONS[d], READING_ORDER.index(d)
        code = letters[q:q + rows, q:q + cols]
        for i in range(1, q):
            code = code * size + letters[q + i * dr:q + i * dr + rows, q + i * dc:q + i * dc + cols]
            if i < q - 1 and short[i] is not None:
                report(short[i][code].ravel(), np.arange(rows * cols), way)
        node = prefix[q - 1][code].ravel()
        start = np.flatnonzero(node >= 0)
        node = node[start]
        if q > 1 or d == directions[0]:  # (q == 1: one-letter words, reported once)
            report(word[node], start, way)
        step = dr * width + dc
        at = (start // cols + q + q * dr) * width + start % cols + q + q * dc
        while start.size:
            more = has_children[node]
            start, node, at = start[more], node[more], at[more]
            node = table[node * size + flat_letters[at]]
            alive = node >= 0
            start, node, at = start[alive], node[alive], at[alive] + step
            report(word[node], start, way)
    return tuple(np.concatenate(parts) for parts in zip(*out))
