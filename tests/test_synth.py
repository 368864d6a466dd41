"""The synthetic puzzle generator's truth must be exact: other tests and benchmarks score against it."""
from __future__ import annotations

import numpy as np

from scanner import synth


def _spells(grid: list[str], placement: dict, word: str) -> bool:
    return "".join(grid[r][c] for r, c in placement["cells"]) == synth.letters_of(word)


def test_make_puzzle_places_every_word_exactly_once():
    words = synth.THEMES["Space"]
    puzzle = synth.make_puzzle(np.random.default_rng(3), 15, 15, words)
    assert len(puzzle.grid) == 15 and all(len(row) == 15 and row.isalpha() and row.isupper() for row in puzzle.grid)
    for word, p in zip(words, puzzle.placements):
        assert "".join(puzzle.grid[r][c] for r, c in p.cells) == synth.letters_of(word)
        assert p.start == p.cells[0] and p.end == p.cells[-1]
        assert synth.occurrences(puzzle.grid, word) == {frozenset(p.cells)}


def test_render_page_truth_is_consistent_and_deterministic():
    puzzle = synth.make_puzzle(np.random.default_rng(5), 10, 12, synth.THEMES["Fruits"][:12])
    image, truth = synth.render_page(puzzle, font_path=synth.available_fonts()[0], cell_px=30)
    again, _ = synth.render_page(puzzle, font_path=synth.available_fonts()[0], cell_px=30)
    assert np.array_equal(image, again)
    h, w = image.shape[:2]
    assert (truth["rows"], truth["cols"]) == (10, 12)
    corners = np.array(truth["corners"])
    assert np.all((corners >= 0) & (corners <= [w, h]))
    for word, p in zip(truth["words"], truth["placements"]):
        assert _spells(truth["grid"], p, word)
