"""Solve a read grid and repair OCR errors: exact search first, then up to two mismatches for words still missing.

Repairs run in rounds: a cell corrected for one word is in the grid for the next round, so a word whose two
misread cells are each shared with other words is still found, one correction at a time.

A fuzzy hit must be believable: a mismatched cell should be one the OCR was unsure of, ideally with the needed
letter among its alternatives. Words under SHORT_WORD letters only get a fuzzy hit when the cell's own alternatives
include the needed letter (a random 3-letter near-miss is everywhere in a 15x15 grid), and so does a hit with two
mismatches, whatever its length (blurred lower case misreads a letter alike wherever it is: the two e's of
ECLIPSE both read s), unless a word of six letters or more has no other placement that fits as well (a word of
the list is in the grid; a night photo of an odd face reads PARROT's P as Z and its O as Q, with neither letter
among the alternatives); a word of eight letters or more may so take even a placement with three mismatches, and
one of seven where all three cells were read unsurely (see ALONE: a pen's circle drawn across COMPASS made its C
and O read Q and its M J). A hit with fewer mismatches is always preferred. A fuzzy hit never overrides an exact
one, never changes a cell an exact hit relies on, and two fuzzy hits never disagree about a cell. A misreading
repaired twice in a grid is one its print makes: its letters then count among the cells' alternatives, and a word
that lies in the grid, once only, when every cell read so may stand for the letter needed is found however many
cells that takes.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np

from solver import Mismatch, Occurrence, WordResult, solve
from solver.grid import normalize_word

SHORT_WORD = 5
"""Words shorter than this need the needed letter among the mismatched cell's OCR alternatives."""
MAX_ROUNDS = 3
"""Repair rounds: each may use the cells corrected by the previous ones."""
MAX_MISMATCHES = 2
"""Cells one word may have repaired at once (the solver's majority rule allows two from five letters on)."""
ALONE = (6, 8)
"""Words of ALONE[0] letters or more take their one placement within MAX_MISMATCHES, alternatives or not, and
words of ALONE[1] or more their one placement within MAX_MISMATCHES + 1: by chance a 6-letter word fits that well
somewhere in one random 15x15 grid of English letter frequencies in seven, a 7-letter word in one in a hundred,
an 8-letter word with three mismatches in one in seventy (where the word is there too, that makes two
placements, and neither is taken). A 7-letter word may too where its three cells were all read UNSURE: 30 words
of 7-9 letters the grid lacks, added to the lists of 204 read grids (the corpus and 169 generated pages), were
found 12 times in 6,120 without this, 15 times with it."""
UNSURE = 0.5
"""A cell read with less confidence than this (0..1) may be misread (see ALONE)."""
LEARNT = (2, 0.3)
"""A misreading repaired LEARNT[0] times in one grid (the letter read, the letter a word needed) is one its print
makes: in later rounds every cell read so has the needed letter among its alternatives at LEARNT[1] (a blurred
lower-case URW Gothic read e as o six times; OVEN, a 4-letter word, needed an E at a cell whose alternatives did
not name it). 204 read grids (the corpus and 169 generated pages): 3,090 -> 3,091 words at the right cells; 30
absent words per list found 15 times of 6,120 either way. Such a misreading is also read through for any number of
a word's cells (see _through_misreadings): 134 read grids (the corpus, seeds 13000-13011 and 3300-3311 of four
conditions): 1,845 -> 1,847 words, 60 absent words per list found 72 times of 8,080 either way."""


@dataclass(frozen=True)
class Repaired:
    """The outcome of solve + repair: one result per word, and the grid with the corrected letters put in."""

    results: list[WordResult]  # one per distinct word, input order; a repaired word's only occurrence is its fuzzy one
    letters: list[list[str]]
    corrections: list[Mismatch]  # applied to `letters`; `read` is the OCR's letter


def _candidate_score(occ, word_len: int, confidence: np.ndarray, alternatives, alone: bool) -> float | None:
    """How believable a fuzzy occurrence is (higher is better): its mismatched cells' mean of the needed letter's
    alternative confidence plus the OCR's doubt; None when it must be rejected. ``alone``: no other placement of
    the word has as few mismatches."""
    score = 0.0
    for miss in occ.mismatches:
        r, c = miss.cell
        alt = alternatives[r][c].get(miss.needed, 0.0) if alternatives is not None else 0.0
        if alt <= 0.0 and (word_len < SHORT_WORD or len(occ.mismatches) > 1) and not (alone and word_len >= ALONE[0]):
            return None
        score += float(alt) + (1.0 - float(confidence[r, c]))
    return score / len(occ.mismatches)


def _cell_letters(occ, letters: list[list[str]]) -> dict[tuple[int, int], str]:
    """The letter the word needs at each of the occurrence's cells."""
    need = {tuple(cell): letters[cell[0]][cell[1]] for cell in occ.cells}
    for miss in occ.mismatches:
        need[tuple(miss.cell)] = miss.needed
    return need


def _repair_round(grid: list[list[str]], words: list[str], fixed: dict, confidence: np.ndarray,
                  alternatives) -> dict[int, Occurrence]:
    """Fuzzy hits for `words` in the current grid, fewest mismatches and then best first, consistent with `fixed`
    (updated in place).

    Returns {index into words: occurrence}.
    """
    fuzzy = solve(grid, words, max_mismatches=MAX_MISMATCHES + 1, alternatives=alternatives)
    candidates = []  # (mismatches, score, word index, occurrence)
    for k, res in enumerate(fuzzy):
        misses = [len(occ.mismatches) for occ in res.occurrences]
        for occ, n in zip(res.occurrences, misses):
            alone = sum(m <= n for m in misses) == 1  # no other placement fits as well
            if n > MAX_MISMATCHES and not (alone and len(occ.cells) >= ALONE[1] - all(
                    confidence[miss.cell[0], miss.cell[1]] < UNSURE for miss in occ.mismatches)):
                continue
            if occ.mismatches:
                score = _candidate_score(occ, len(occ.cells), confidence, alternatives, alone)
                if score is not None:
                    candidates.append((len(occ.mismatches), score, k, occ))
    candidates.sort(key=lambda cand: (cand[0], -cand[1], cand[2]))
    accepted: dict[int, Occurrence] = {}
    for _n, _score, k, occ in candidates:
        if k in accepted:
            continue
        need = _cell_letters(occ, grid)
        if all(fixed.get(cell, letter) == letter for cell, letter in need.items()):
            fixed.update(need)
            accepted[k] = occ
    return accepted


def _misreadings(corrections: Iterable[Mismatch]) -> dict[str, list[str]]:
    """{letter read: [letters needed there]} of the misreadings ``corrections`` made LEARNT[0] times or more."""
    made = Counter((m.read, m.needed) for m in corrections)
    instead: dict[str, list[str]] = {}
    for (letter, needed), n in made.items():
        if n >= LEARNT[0]:
            instead.setdefault(letter, []).append(needed)
    return instead


def _through_misreadings(grid: list[list[str]], words: list[str], fixed: dict,
                         instead: dict[str, list[str]]) -> dict[int, Occurrence]:
    """{index into ``words``: its placement} where a word lies, one placement only, in ``grid`` read through the
    misreadings ``instead`` (a cell read as one stands for the letter read or the one needed), every cell it
    differs at one so, none against ``fixed`` (updated in place). A misreading its print makes everywhere is no
    chance mismatch, however many cells of a word it takes: a blurred lower-case URW Gothic read t as f (sure,
    0.85) and e as o, and KETTLE and TOASTER were four and three cells off."""
    one: dict[str, str] = {}  # letter -> the first letter of its class: letters a misreading joins are one

    def first(ch: str) -> str:
        while one.get(ch, ch) != ch:
            ch = one[ch]
        return ch

    for letter, needs in instead.items():
        for needed in needs:
            a, b = sorted((first(letter), first(needed)))
            one[b] = a

    def as_read(text: str) -> str:
        return "".join(first(ch) for ch in text)

    plain = [normalize_word(w) for w in words]
    keys = [as_read(w) for w in plain]
    distinct = [k for k in dict.fromkeys(keys) if k]  # TOE and TOO are one key where e reads as o
    hits = dict(zip(distinct, solve([[as_read(ch) for ch in row] for row in grid], distinct))) if distinct else {}
    found = {}
    for k, key in enumerate(keys):
        if key not in hits or len(hits[key].occurrences) != 1:
            continue
        occ = hits[key].occurrences[0]
        need = dict(zip(map(tuple, occ.cells), plain[k]))
        misses = tuple(Mismatch(cell, grid[cell[0]][cell[1]], letter) for cell, letter in need.items()
                       if grid[cell[0]][cell[1]] != letter)
        if misses and all(fixed.get(cell, letter) == letter for cell, letter in need.items()):
            fixed.update(need)
            found[k] = replace(occ, mismatches=misses)
    return found


def _learnt(read: list[list[str]], alternatives, instead: dict[str, list[str]]):
    """``alternatives`` with the needed letter added to every cell read as one of the misreadings ``instead`` (see
    _misreadings, LEARNT)."""
    if not instead:
        return alternatives
    out = [[dict(alternatives[r][c]) if alternatives is not None else {} for c in range(len(row))]
           for r, row in enumerate(read)]
    for r, row in enumerate(read):
        for c, letter in enumerate(row):
            for needed in instead.get(letter, ()):
                out[r][c][needed] = max(out[r][c].get(needed, 0.0), LEARNT[1])
    return out


def solve_and_repair(letters: list[list[str]], words: list[str], confidence: np.ndarray,
                     alternatives=None, keep: Iterable[tuple[int, int]] = ()) -> Repaired:
    """Find `words` in the read grid, repairing at most MAX_MISMATCHES misread cells per word and round.

    Corrections made in one round are in the grid for the next (up to MAX_ROUNDS), so a word with two misread
    cells is found when another word has already corrected one of them; its result lists every cell where the
    OCR's letter differs from the word's. `letters`: R x C single letters; `confidence`: (R, C) 0..1;
    `alternatives`: R x C dicts {letter: confidence}; `keep`: cells known to be right (a user's correction), never
    repaired.
    """
    read = [list(row) for row in letters]
    if not words:
        return Repaired([], read, [])
    results = solve(read, words)
    grid = [row[:] for row in read]
    # Cells an exact hit relies on keep their letter.
    fixed = {tuple(cell): read[cell[0]][cell[1]] for res in results if res.found for cell in res.cells}
    fixed.update({(int(r), int(c)): read[r][c] for r, c in keep})
    final = list(results)
    missing = [i for i, res in enumerate(results) if not res.found]
    corrections: dict[tuple[int, int], Mismatch] = {}
    for _round in range(MAX_ROUNDS):
        if not missing:
            break
        words_left = [results[i].word for i in missing]
        instead = _misreadings(corrections.values())
        accepted = _repair_round(grid, words_left, fixed, confidence, _learnt(read, alternatives, instead))
        if instead:
            left = [k for k in range(len(missing)) if k not in accepted]
            through = _through_misreadings(grid, [words_left[k] for k in left], fixed, instead)
            accepted.update({left[j]: occ for j, occ in through.items()})
        if not accepted:
            break
        for k, occ in accepted.items():
            for miss in occ.mismatches:
                (r, c) = cell = (int(miss.cell[0]), int(miss.cell[1]))
                corrections[cell] = Mismatch(cell, read[r][c], miss.needed)
                grid[r][c] = miss.needed
            word_cells = [(int(r), int(c)) for r, c in occ.cells]
            misses = tuple(corrections[cell] for cell in word_cells if cell in corrections)
            final[missing[k]] = WordResult(results[missing[k]].word, [replace(occ, mismatches=misses)])
        missing = [i for k, i in enumerate(missing) if k not in accepted]
    for i in missing:
        final[i] = WordResult(results[i].word, [])
    return Repaired(final, grid, list(corrections.values()))
