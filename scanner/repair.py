"""Solve a read grid and repair single OCR errors: exact search first, then one mismatch for words still missing.

A fuzzy (one-mismatch) hit must be believable: the mismatched cell should be one the OCR was unsure of, ideally
with the needed letter among its alternatives. Words under SHORT_WORD letters only get a fuzzy hit when the cell's
own alternatives include the needed letter (a random 3-letter near-miss is everywhere in a 15x15 grid). A fuzzy hit
never overrides an exact one, never changes a cell an exact hit relies on, and two fuzzy hits never disagree about
a cell.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver import Occurrence, WordResult, solve

SHORT_WORD = 5
"""Words shorter than this need the needed letter among the mismatched cell's OCR alternatives."""


@dataclass(frozen=True)
class Repaired:
    """The outcome of solve + repair: one result per word, and the grid with the corrected letters put in."""

    results: list[WordResult]  # one per distinct word, input order; a repaired word's only occurrence is its fuzzy one
    letters: list[list[str]]
    corrections: list  # list[solver.Mismatch] applied to `letters`


def _candidate_score(occ, word_len: int, confidence: np.ndarray, alternatives) -> float | None:
    """How believable a one-mismatch occurrence is (higher is better); None when it must be rejected."""
    (miss,) = occ.mismatches
    r, c = miss.cell
    alt = alternatives[r][c].get(miss.needed, 0.0) if alternatives is not None else 0.0
    if word_len < SHORT_WORD and alt <= 0.0:
        return None
    return float(alt) + (1.0 - float(confidence[r, c]))


def _cell_letters(occ, letters: list[list[str]]) -> dict[tuple[int, int], str]:
    """The letter the word needs at each of the occurrence's cells."""
    need = {tuple(cell): letters[cell[0]][cell[1]] for cell in occ.cells}
    for miss in occ.mismatches:
        need[tuple(miss.cell)] = miss.needed
    return need


def solve_and_repair(letters: list[list[str]], words: list[str], confidence: np.ndarray,
                     alternatives=None) -> Repaired:
    """Find `words` in the read grid, repairing at most one misread cell per word (see the module docstring).

    `letters`: R x C single letters; `confidence`: (R, C) 0..1; `alternatives`: R x C dicts {letter: conf}.
    """
    rows = [list(row) for row in letters]
    if not words:
        return Repaired([], rows, [])
    results = solve(rows, words)
    missing = [i for i, res in enumerate(results) if not res.found]
    if not missing:
        return Repaired(results, rows, [])

    # Cells an exact hit relies on keep their letter.
    fixed: dict[tuple[int, int], str] = {}
    for res in results:
        if res.found:
            fixed.update({tuple(cell): rows[cell[0]][cell[1]] for cell in res.cells})

    fuzzy = solve(rows, [results[i].word for i in missing], max_mismatches=1, alternatives=alternatives)
    candidates = []  # (score, order, index into results, occurrence)
    for order, (i, res) in enumerate(zip(missing, fuzzy)):
        for occ in res.occurrences:
            if len(occ.mismatches) != 1:
                continue
            score = _candidate_score(occ, len(occ.cells), confidence, alternatives)
            if score is not None:
                candidates.append((score, order, i, occ))
    candidates.sort(key=lambda cand: (-cand[0], cand[1]))

    accepted: dict[int, Occurrence] = {}
    for _score, _order, i, occ in candidates:
        if i in accepted:
            continue
        need = _cell_letters(occ, rows)
        if all(fixed.get(cell, letter) == letter for cell, letter in need.items()):
            fixed.update(need)
            accepted[i] = occ

    corrections = {}
    final = list(results)
    for i in missing:
        occ = accepted.get(i)
        final[i] = WordResult(results[i].word, [occ] if occ is not None else [])
        if occ is not None:
            corrections.update({tuple(miss.cell): miss for miss in occ.mismatches})
    repaired = [row[:] for row in rows]
    for (r, c), miss in corrections.items():
        repaired[r][c] = miss.needed
    return Repaired(final, repaired, list(corrections.values()))
