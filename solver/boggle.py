"""Path mode (Boggle, Wordament): words as chains of touching cells (8 neighbours), no cell used twice.

Tiles: letters, multi-letter tiles (``QU``, ``VE``), either/or tiles (``U/M``: one or the other), prefix tiles
(``SUB-``: only as a word's first tile) and suffix tiles (``-ER``: only as its last).

Every path is found and counted, and each word reports its first path in reading order (the smallest sequence of
cells). The walk is compiled (``solver/paths.pyx``, Cython): one depth-first walk for plain and special tiles alike,
with an explicit stack, so path length is bounded by the board and not by recursion. In plain Python the same walk
costs a Python step per path and neighbour, which on a 4x4 board is most of the time.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from solver.dictionary import load_dictionary
from solver.errors import NoWordsError
from solver.grid import normalize_word, parse_grid
from solver.paths import find_words
from solver.results import PathResult
from solver.trie import Trie


def parse_board(board: str | list[str] | list[list[str]]) -> list[list[str]]:
    """Tiles of a board: "ABCD EFGH ..." (rows separated by spaces), lines or comma-separated rows, or lists.

    In the one-line form a multi-letter or special tile is bracketed: ``"[QU]BCD EFGH [SUB-]JKL MNOP"``.
    """
    if isinstance(board, str):
        sep = "\n" if "\n" in board else "," if "," in board else None
        board = [row for row in board.strip().split(sep) if row.strip()] if board.strip() else []
    return parse_grid(board, special=True)


def find_paths(tiles: list[list[str]], trie: Trie, min_length: int = 1) -> dict[str, list]:
    """Every trie word of ``min_length`` letters or more spelled by a path: word -> [first path, its tiles, paths].

    The first path is the smallest in reading order (compared cell by cell); ``paths`` counts every path.
    """
    mask, base = trie.arrays()
    flat = [t for row in tiles for t in row]
    return find_words(mask, base, trie.letter_index(), flat, _cells(len(tiles), len(tiles[0])), len(tiles[0]),
                      min_length)


@lru_cache(maxsize=16)
def _cells(rows: int, cols: int) -> list[tuple[int, int]]:
    """(row, col) of each cell, in reading order."""
    return [divmod(i, cols) for i in range(rows * cols)]


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
