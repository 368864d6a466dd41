"""Path mode (Boggle, Wordament): words as chains of touching cells (8 neighbours), no cell used twice.

Tiles: letters, multi-letter tiles (``QU``, ``VE``), either/or tiles (``U/M``: one or the other), prefix tiles
(``SUB-``: only as a word's first tile) and suffix tiles (``-ER``: only as its last).

Every path is found and counted, and each word reports its first path in reading order (the smallest sequence of
cells). Boards of single letters are walked level by level with NumPy: all paths of k cells that spell a trie prefix
at once, so a 100x100 board costs a few dozen array operations per level instead of a Python step per path. Boards
with special tiles take a depth-first walk in plain Python. Neither recurses.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

import numpy as np

from solver.dictionary import load_dictionary
from solver.errors import NoWordsError
from solver.grid import normalize_word, parse_grid
from solver.results import PathResult
from solver.trie import ROOT, Trie

ANY, FIRST, LAST = 0, 1, 2  # where a tile may stand in a word


def parse_board(board: str | list[str] | list[list[str]]) -> list[list[str]]:
    """Tiles of a board: "ABCD EFGH ..." (rows separated by spaces), lines or comma-separated rows, or lists.

    In the one-line form a multi-letter or special tile is bracketed: ``"[QU]BCD EFGH [SUB-]JKL MNOP"``.
    """
    if isinstance(board, str):
        sep = "\n" if "\n" in board else "," if "," in board else None
        board = [row for row in board.strip().split(sep) if row.strip()] if board.strip() else []
    return parse_grid(board, special=True)


def _options(tile: str) -> list[tuple[str, int]]:
    """The readings of a tile with where each may stand: 'U/M' -> [('U', ANY), ('M', ANY)], 'SUB-' -> FIRST."""
    if tile.endswith("-"):
        return [(tile[:-1], FIRST)]
    if tile.startswith("-"):
        return [(tile[1:], LAST)]
    return [(t, ANY) for t in tile.split("/")]


def find_paths(tiles: list[list[str]], trie: Trie, min_length: int = 1) -> dict[str, list]:
    """Every trie word of ``min_length`` letters or more spelled by a path: word -> [first path, its tiles, paths].

    The first path is the smallest in reading order (compared cell by cell); ``paths`` counts every path.
    """
    rows, cols = len(tiles), len(tiles[0])
    flat = [t for row in tiles for t in row]
    cells = _cells(rows, cols)
    if all(len(t) == 1 for t in flat) and len(trie.alphabet) < 62:
        return _walk_letters(flat, rows, cols, trie, min_length)
    options = [[(text, where, tile) for text, where in _options(tile)] for tile in flat]
    text_of, tile_of, cell_of = {}, {}, {}
    for i, cell in enumerate(cells):  # a path step is cell * 4 + the tile's reading
        for k, (text, _, tile) in enumerate(options[i]):
            text_of[i * 4 + k], tile_of[i * 4 + k], cell_of[i * 4 + k] = text, tile, cell
    found = {}
    for steps, count in _walk_tiles(options, rows, cols, trie).values():
        word = "".join([text_of[s] for s in steps])
        if len(word) >= min_length:
            found[word] = [[cell_of[s] for s in steps], [tile_of[s] for s in steps], count]
    return found


START_CHUNK = 2500  # start cells walked together: a 100x100 board peaks near 40 MB, not 150


def _walk_letters(letters: list[str], rows: int, cols: int, trie: Trie, min_length: int) -> dict[str, list]:
    """``find_paths`` for a board of single letters (``letters`` in reading order).

    Level k holds every path of k cells that spells a trie prefix: its trie nodes and its cells, one row per path.
    A level grows by taking each row's 8 neighbours whose letter is a child of its node; a cell already on the path
    sends its row to a dead node. Rows stay in reading order, so the first row of a word is its first path.
    """
    mask, base = trie.arrays()
    dead = len(mask) - 1  # a node with no children and no word, for rows whose prefix is not in the trie
    index = trie.letter_index()
    bits = np.array([2 << index[ch] if ch in index else 0 for ch in letters] + [0], dtype=np.int64)  # + off board
    below = bits - 2  # a node's child for a letter is the node's base + the number of its child bits below it
    near, cells, chars = _neighbour_table(rows, cols), _cells(rows, cols), np.array(letters, dtype="U1")
    starts, found = (bits & mask[ROOT]).nonzero()[0], {}
    for chunk in range(0, len(starts), START_CHUNK):  # a few thousand start cells at a time bound the memory
        path = starts[chunk:chunk + START_CHUNK, None]
        node = base[ROOT] + np.bitwise_count(mask[ROOT] & below.take(path[:, 0]))
        node_mask = mask.take(node)
        for k in range(1, rows * cols + 1):
            ends = (node_mask & 1).nonzero()[0] if k >= min_length else ()  # rows that spell a word
            if len(ends):
                nodes = node.take(ends).tolist()
                counts = Counter(nodes)
                first = dict(zip(reversed(nodes), reversed(ends.tolist())))  # the earliest row of each word
                paths = path.take(list(first.values()), 0)
                words = chars.take(paths).view(f"<U{k}").ravel().tolist()
                for word, steps, n in zip(words, paths.tolist(), first):
                    if word in found:  # found from an earlier chunk's start, so on an earlier path
                        found[word][2] += counts[n]
                    else:
                        found[word] = [[cells[i] for i in steps], list(word), counts[n]]
            nbr = near.take(path[:, -1], 0)
            nbr_bits = bits.take(nbr)
            hit = (nbr_bits & node_mask[:, None]).ravel().nonzero()[0]  # (row, neighbour) pairs the trie allows
            if not len(hit):
                break
            row, end = hit >> 3, nbr.ravel().take(hit)
            prev = path.take(row, 0)
            node = base.take(node.take(row)) + np.bitwise_count(node_mask.take(row) & below.take(end))
            node = np.where((prev != end[:, None]).all(1), node, dead)  # a cell used twice ends the path
            path = np.concatenate((prev, end[:, None]), 1)
            node_mask = mask.take(node)
    return found


@lru_cache(maxsize=16)
def _cells(rows: int, cols: int) -> list[tuple[int, int]]:
    """(row, col) of each cell, in reading order."""
    return [divmod(i, cols) for i in range(rows * cols)]


@lru_cache(maxsize=16)
def _neighbour_table(rows: int, cols: int) -> np.ndarray:
    """(cells, 8) neighbour indices in reading order, padded with ``rows * cols`` (a cell off the board)."""
    table = np.full((rows * cols, 8), rows * cols, dtype=np.int64)
    for i, near in enumerate(_neighbours(rows, cols)):
        table[i, :len(near)] = near
    return table


def _walk_tiles(options: list[list[tuple[str, int, str]]], rows: int, cols: int, trie: Trie) -> dict[int, tuple]:
    """Any tiles: trie node -> (first path's steps, paths), by a depth-first walk with an explicit stack.

    From each cell the walk only tries the trie children that some unused neighbour can supply: the node's child
    bits AND the bits of the neighbours' letters, so most dead ends cost nothing.
    """
    index = trie.letter_index()
    mask, base = trie.mask, trie.base
    options = [[(text, [index.get(ch, -1) for ch in text], where, tile) for text, where, tile in o] for o in options]
    plain = [len(o) == 1 and len(o[0][1]) == 1 and o[0][1][0] >= 0 and o[0][2] == ANY for o in options]
    letter_bits: list[int] = []  # per cell: OR of the letter bits of its plain neighbours
    by_bit: list[dict[int, list]] = []  # per cell: letter bit -> plain neighbours with that letter
    special: list[list[int]] = []  # per cell: neighbours with other tiles (digrams, either/or, prefix, suffix)
    for near in _neighbours(rows, cols):
        groups: dict[int, list[int]] = {}
        for j in near:
            if plain[j]:
                groups.setdefault(2 << options[j][0][1][0], []).append(j)
        letter_bits.append(sum(groups))
        by_bit.append(groups)
        special.append([j for j in near if not plain[j]])
    # letter bits worth trying after each cell: a node with none of them (and no special neighbour) is a dead end
    reach = [bits if not sp else -2 for bits, sp in zip(letter_bits, special)]
    for groups in by_bit:  # each plain neighbour with what a step onto it needs: (cell, its bit, path step, reach)
        for bit, near in groups.items():
            groups[bit] = [(j, 1 << j, (j * 4,), reach[j]) for j in near]
    hits: list[tuple[int, tuple[int, ...]]] = []  # (trie node of a word, path of cell * 4 + option)

    def walk(node: int, letters: list[int]) -> int:
        for letter in letters:
            if letter < 0 or not mask[node] & 2 << letter:
                return -1
            m, bit = mask[node], 2 << letter
            node = base[node] + (m & (bit - 2)).bit_count()
        return node

    stack = []
    for cell in range(rows * cols):
        for k, (_, letters, where, _) in enumerate(options[cell]):
            node = walk(ROOT, letters) if where != LAST else -1
            if node >= 0:
                if mask[node] & 1 and where == ANY:
                    hits.append((node, (cell * 4 + k,)))
                stack.append((cell, node, 1 << cell, (cell * 4 + k,)))
    push, pop, hit = stack.append, stack.pop, hits.append
    while stack:
        cell, node, seen, path = pop()
        m = mask[node]
        todo = m & letter_bits[cell]
        if todo:
            first, groups = base[node], by_bit[cell]
        while todo:
            bit = todo & -todo
            todo ^= bit
            child = first + (m & (bit - 2)).bit_count()
            cm = mask[child]
            for nb, nb_bit, step, nb_reach in groups[bit]:
                if not seen & nb_bit:
                    longer = path + step
                    if cm & 1:
                        hit((child, longer))
                    if cm & nb_reach:
                        push((nb, child, seen | nb_bit, longer))
        for nb in special[cell]:
            if not seen >> nb & 1:
                for k, (_, letters, where, _) in enumerate(options[nb]):
                    child = walk(node, letters) if where != FIRST else -1
                    if child >= 0:
                        longer = path + (nb * 4 + k,)
                        if mask[child] & 1:
                            hits.append((child, longer))
                        if where != LAST and mask[child] > 1:
                            stack.append((nb, child, seen | 1 << nb, longer))
    found: dict[int, tuple] = {}
    for node, path in hits:
        if node not in found:
            found[node] = (path, 1)
        else:
            first, count = found[node]
            found[node] = (min(first, path), count + 1)
    return found


@lru_cache(maxsize=16)
def _neighbours(rows: int, cols: int) -> list[list[int]]:
    """Per cell (row-major index), the indices of its up to 8 neighbours."""
    return [[r2 * cols + c2 for r2 in range(r - 1, r + 2) for c2 in range(c - 1, c + 2)
             if (r2, c2) != (r, c) and 0 <= r2 < rows and 0 <= c2 < cols]
            for r in range(rows) for c in range(cols)]


def boggle(board, words: Iterable[str] | None = None, *, dictionary: str | None = None,
           min_length: int = 3) -> list[PathResult]:
    """Words on a Boggle/Wordament board.

    With ``words``: one PathResult per distinct given word, in input order (found or not; ``paths`` counts the
    distinct paths). Without: every word of ``dictionary`` (a word-list file; default the shipped English
    dictionary) with at least ``min_length`` letters found on the board, longest first, then alphabetical.
    """
    tiles = parse_board(board)
    if words is not None:
        given: dict[str, str] = {}
        for word in words:
            key = normalize_word(word)
            if key and key not in given:
                given[key] = word.strip()
        if not given:
            raise NoWordsError("the word list is empty")
        found = find_paths(tiles, Trie.build(list(given)))
        return [PathResult(word, *found.get(key, ([], [], 0))) for key, word in given.items()]
    found = find_paths(tiles, load_dictionary(dictionary), min_length)
    hits = sorted(found, key=lambda w: (-len(w), w))
    return [PathResult(w, *found[w]) for w in hits]
