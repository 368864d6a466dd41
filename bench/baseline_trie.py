"""Baseline for bench/solver_speed.py: the classic recursive trie word-search solver, re-implemented here.

It follows the published "Basic Tries - Word Search Puzzle" approach (written from its description, not copied):
a trie of the words; from every cell a recursive search in each of the 8 directions; at every step the trie is
walked again from the root for the whole prefix so far; a found word is unmarked so it is reported once (its
first occurrence, as start and end cells).
"""
from __future__ import annotations

import sys

STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1),
         "up-left": (-1, -1), "up-right": (-1, 1), "down-left": (1, -1), "down-right": (1, 1)}


class Node:
    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.is_word = False


def node_for(root: Node, prefix: str) -> Node | None:
    """The trie node of ``prefix``, walked from the root every time (as the original does)."""
    node = root
    for ch in prefix:
        node = node.children.get(ch)
        if node is None:
            return None
    return node


def find_words(board: list[list[str]], words: list[str]) -> dict[str, list[tuple[int, int]]]:
    """{word: [start, end]} for the first occurrence found of each word. ``board`` is restored on return."""
    root = Node()
    for word in words:
        node = root
        for ch in word:
            node = node.children.setdefault(ch, Node())
        node.is_word = True
    rows, cols = len(board), len(board[0])
    found: dict[str, list[tuple[int, int]]] = {}

    def explore(r, c, direction, start, prefix):
        if not (0 <= r < rows and 0 <= c < cols) or board[r][c] == "#":
            return
        letter = board[r][c]
        node = node_for(root, prefix + letter)
        if node is None:
            return
        if node.is_word:
            found[prefix + letter] = [start or (r, c), (r, c)]
            node.is_word = False
        board[r][c] = "#"
        if direction is None:
            for name, (dr, dc) in STEPS.items():
                explore(r + dr, c + dc, name, (r, c), prefix + letter)
        else:
            dr, dc = STEPS[direction]
            explore(r + dr, c + dc, direction, start, prefix + letter)
        board[r][c] = letter

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 2 * max(map(len, words)) + 100))
    for r in range(rows):
        for c in range(cols):
            explore(r, c, None, None, "")
    return found
