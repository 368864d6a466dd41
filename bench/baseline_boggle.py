"""Baseline for bench/solver_speed.py: the classic recursive Boggle/Wordament solver, re-implemented here.

It follows the published "Solving Wordament" approach (written from its description, not copied): a trie whose
nodes hold 26 child slots (one per letter) and a word flag; a visited matrix; from every tile a recursive
traversal that appends the tile's letter to the word so far, steps to the letter's child, records a word of 3+
letters in a set, marks the tile visited and recurses into each unvisited neighbour. Tiles are single letters.
The trie is built once (``build``) and reused for every board, like our prepared dictionary.
"""
from __future__ import annotations

ORD_A = ord("a")


class Node:
    __slots__ = ("branches", "word")

    def __init__(self) -> None:
        self.branches: list[Node | None] = [None] * 26
        self.word = False


def build(words: list[str]) -> Node:
    """The 26-way trie of ``words`` (letters a-z, any case)."""
    root = Node()
    for word in words:
        node = root
        for ch in word.lower():
            i = ord(ch) - ORD_A
            if node.branches[i] is None:
                node.branches[i] = Node()
            node = node.branches[i]
        node.word = True
    return root


def solve(root: Node, grid: list[str]) -> set[str]:
    """Every trie word of 3+ letters traced through touching tiles of ``grid`` (rows of lower-case letters)."""
    rows, cols = len(grid), len(grid[0])
    visited = [[False] * cols for _ in range(rows)]
    found: set[str] = set()

    def traverse(i: int, j: int, node: Node, current: str) -> None:
        c = grid[i][j]
        word = current + c
        nxt = node.branches[ord(c) - ORD_A]
        if nxt is None:
            return
        visited[i][j] = True
        if nxt.word and len(word) > 2:
            found.add(word)
        last_i, last_j = i < rows - 1, j < cols - 1  # the eight directions checked one by one, as published
        if last_j and not visited[i][j + 1]:
            traverse(i, j + 1, nxt, word)
        if last_i and not visited[i + 1][j]:
            traverse(i + 1, j, nxt, word)
        if j > 0 and not visited[i][j - 1]:
            traverse(i, j - 1, nxt, word)
        if i > 0 and not visited[i - 1][j]:
            traverse(i - 1, j, nxt, word)
        if last_i and last_j and not visited[i + 1][j + 1]:
            traverse(i + 1, j + 1, nxt, word)
        if last_i and j > 0 and not visited[i + 1][j - 1]:
            traverse(i + 1, j - 1, nxt, word)
        if i > 0 and j > 0 and not visited[i - 1][j - 1]:
            traverse(i - 1, j - 1, nxt, word)
        if i > 0 and last_j and not visited[i - 1][j + 1]:
            traverse(i - 1, j + 1, nxt, word)
        visited[i][j] = False

    for i in range(rows):
        for j in range(cols):
            traverse(i, j, root, "")
    return found
