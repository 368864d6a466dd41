"""Path mode (Boggle, Wordament): words as chains of touching cells (8 neighbours), no cell used twice.

Tiles: letters, multi-letter tiles (``QU``, ``VE``), either/or tiles (``U/M``: one or the other), prefix tiles
(``SUB-``: only as a word's first tile) and suffix tiles (``-ER``: only as its last). The search is an iterative
depth-first walk of the board in step with a compact trie (trie.py), so it never recurses.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

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

    From each cell the walk only tries the trie children that some unused neighbour can supply: the node's child
    bits AND the bits of the neighbours' letters, so most dead ends cost nothing.
    """
    rows, cols = len(tiles), len(tiles[0])
    index = trie.letter_index()
    mask, base = trie.mask, trie.base
    cells = [divmod(i, cols) for i in range(rows * cols)]
    options = [[(text, [index.get(ch, -1) for ch in text], where, tiles[r][c])
                for text, where in _options(tiles[r][c])] for r, c in cells]
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
    first_path: dict[int, tuple[int, ...]] = {}  # trie node of a word -> its first path
    count: dict[int, int] = {}
    for node, path in hits:
        if node in count:
            count[node] += 1
        else:
            count[node], first_path[node] = 1, path
    text_of, tile_of, cell_of = {}, {}, {}
    for i, (r, c) in enumerate(cells):
        for k, (text, _, _, tile) in enumerate(options[i]):
            text_of[i * 4 + k], tile_of[i * 4 + k], cell_of[i * 4 + k] = text, tile, (r, c)
    found = {}
    for node, path in first_path.items():
        word = "".join(map(text_of.__getitem__, path))
        if len(word) >= min_length:
            found[word] = [list(map(cell_of.__getitem__, path)), list(map(tile_of.__getitem__, path)), count[node]]
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
