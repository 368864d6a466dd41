"""Text side of the word-search solver: find words in a letter grid (straight lines or Boggle paths).

    >>> from solver import solve
    >>> [r.start for r in solve(["CAT", "XOX", "XXW"], ["cat", "cow"])]
    [(0, 0), (0, 0)]
"""
from solver.boggle import boggle
from solver.grid import DIRECTIONS, PHRASES, parse_grid
from solver.results import Mismatch, Occurrence, PathResult, WordResult
from solver.search import solve

__all__ = ["DIRECTIONS", "PHRASES", "Mismatch", "Occurrence", "PathResult", "WordResult", "boggle", "parse_grid",
           "solve"]
