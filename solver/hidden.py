"""Hidden words: the dictionary words a grid holds in straight lines, for puzzles that come without their list.

Every vocabulary word of ``min_length``+ letters is looked for at once with the straight-line trie search, then
the hits are read the way a person checking the answer expects:

* two common words end to end on one line are one compound (GRIZZLY BEAR, BLACK HOLE), as puzzles print them;
* a plural or past form whose stem is itself a hit at the same place counts as the stem (PLANET followed by a
  chance S is PLANET): themed lists are mostly singular, and a filler S after a word is common;
* two words end to end are not one where a word of the grid runs across their join (YANG RAPE round GRAPE,
  FREE ZERO round FREEZER): the word across the join is the placed one, the rest chance letters beside it;
* a word sharing two or more cells with a longer kept one (so lying along it) is dropped: inside it (TEACH in
  TEACHER, STAR in STARFISH) or running on past its end (RANGER from ORANGE + R), as is the second of two words
  on the same cells (a word and its reversal, a palindrome read both ways; the commoner is kept).
"""
from __future__ import annotations

import math
from collections import ChainMap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from solver.dictionary import INFLECTIONS
from solver.grid import DIRECTIONS, READING_ORDER, make_grid
from solver.results import Occurrence, WordResult
from solver.search import parse_directions
from solver.straight import find_exact

DEFAULT_MIN_LENGTH = 5
"""Shortest hidden word reported (bench/hidden_words.py: 4 letters give several chance words per grid)."""
PART_LENGTHS = (4, 5)
"""Each word of a compound has 4-5 letters (3-letter words follow others by chance too often; a longer word next
to a short one is more often a listed word beside a chance one: RAMP ASTEROID)."""
PART_MAX_RANK = 10_000
"""Compound parts are among this many commonest vocabulary words."""


def find_hidden(rows, vocabulary: Sequence[str], *, min_length: int = DEFAULT_MIN_LENGTH,
                directions: Iterable[str] | str | None = None) -> list[WordResult]:
    """The ``vocabulary`` words (upper case, commonest first) of ``min_length``+ letters found in the grid.

    One WordResult per word, longest first then alphabetical, each with its kept occurrences.
    """
    grid = make_grid(rows)
    words, rank = _searched(tuple(vocabulary), min(min_length, PART_LENGTHS[0]))
    if grid.multi:  # tiles such as QU: a word may have several spellings
        spelled = {p: w for w in words for p in grid.patterns(w)}
        found = find_exact(grid, list(spelled), parse_directions(directions))
    else:
        spelled, found = {}, find_exact(grid, words, parse_directions(directions))
    hits: dict[str, list[Occurrence]] = {}
    for pattern, occurrences in found.items():
        hits.setdefault(spelled.get(pattern, pattern), []).extend(occurrences)
    parts = {w: occs for w, occs in hits.items() if rank[w] < PART_MAX_RANK and len(w) in PART_LENGTHS}
    hits = {w: occs for w, occs in hits.items() if len(w) >= min_length}
    joined = {}
    for word, occs in compounds(parts).items():
        occs = [o for o in occs if not _crossed(o, len(word.split()[0]), hits)]
        if len(word.replace(" ", "")) >= min_length and occs:
            hits.setdefault(word, []).extend(occs)
            joined[word] = max(rank[w] for w in word.split())
    return outermost(as_stems(hits), ChainMap(joined, rank))


@lru_cache(maxsize=4)
def _searched(vocabulary: tuple[str, ...], shortest: int) -> tuple[tuple[str, ...], dict[str, int]]:
    """The words of ``shortest``+ letters and their ranks (kept: the same vocabulary is searched grid after grid)."""
    words = tuple(w for w in vocabulary if len(w) >= shortest)
    return words, {w: i for i, w in enumerate(words)}


def compounds(parts: dict[str, list[Occurrence]]) -> dict[str, list[Occurrence]]:
    """Two of the ``parts`` hits end to end in one direction, as one hit named "FIRST SECOND"."""
    starting = {}
    for word, occs in parts.items():
        for occ in occs:
            starting.setdefault((occ.start, occ.direction), []).append((word, occ))
    out: dict[str, list[Occurrence]] = {}
    for first, occ in (h for hs in starting.values() for h in hs):
        (r, c), (dr, dc) = occ.start, DIRECTIONS[occ.direction]
        after = (r + dr * occ.length, c + dc * occ.length)
        for second, nxt in starting.get((after, occ.direction), ()):
            if not nxt.mismatches and not occ.mismatches:
                out.setdefault(f"{first} {second}", []).append(
                    replace(occ, length=occ.length + nxt.length))
    return out


def _crossed(occ: Occurrence, first: int, hits: dict[str, list[Occurrence]]) -> bool:
    """Whether a hit holds cells of the compound ``occ`` on both sides of its join (after ``first`` cells), or
    holds one of its parts and runs on past it (RUGBY + SURFING is not RUGBY SURF), other than as an inflection of
    that part (POLAR BEARS is POLAR BEAR)."""
    cells = occ.cells
    before, after, whole = frozenset(cells[:first]), frozenset(cells[first:]), frozenset(cells)
    for word, occs in hits.items():
        for other in occs:
            across = frozenset(other.cells)
            if across & before and across & after and not whole <= across:
                return True
            if any(part < across and not across <= whole and not any(
                    word.endswith(end) and len(across) - len(part) == len(end) for end in INFLECTIONS)
                   for part in (before, after)):
                return True
    return False


def as_stems(hits: dict[str, list[Occurrence]]) -> dict[str, list[Occurrence]]:
    """Drop an inflected hit (PLANETS) whose stem (PLANET) was found at the same start, in the same direction."""
    places = {(w, o.start, o.direction) for w, occs in hits.items() for o in occs}
    out = {}
    for word, occs in hits.items():
        stems = [word[:-len(end)] for end in INFLECTIONS if word.endswith(end)]
        kept = [o for o in occs if not any((s, o.start, o.direction) in places for s in stems)]
        if kept:
            out[word] = kept
    return out


def outermost(hits: dict[str, list[Occurrence]], rank: Mapping[str, int]) -> list[WordResult]:
    """Keep the hits that do not lie along a longer (or equally long: a single word before a compound, then the
    commoner by ``rank``, lower is commoner) kept hit: longest first, a hit sharing 2+ cells with a kept one is
    dropped (PASSPORT, not PASS PORT)."""
    order = sorted(((word, occ) for word, occs in hits.items() for occ in occs),
                   key=lambda h: (-len(h[1].cells), " " in h[0], rank.get(h[0], math.inf), h[1].start,
                                  READING_ORDER.index(h[1].direction)))
    kept: dict[str, list[Occurrence]] = {}
    covers: list[frozenset] = []
    for word, occ in order:
        cells = frozenset(occ.cells)
        if not any(len(cells & other) >= 2 for other in covers):
            covers.append(cells)
            kept.setdefault(word, []).append(occ)
    return [WordResult(word, sorted(kept[word], key=lambda o: (o.start, READING_ORDER.index(o.direction))))
            for word in sorted(kept, key=lambda w: (-len(w), w))]


def unused_letters(rows: list[str] | list[list[str]], results: Iterable[WordResult]) -> str:
    """The letters of the cells no found word uses (its first occurrence, the one circled), in reading order:
    what many puzzles spell as a hidden message."""
    used = {tuple(cell) for res in results for cell in res.cells}
    return "".join(letter for r, row in enumerate(rows) for c, letter in enumerate(row) if (r, c) not in used)
