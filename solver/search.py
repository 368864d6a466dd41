"""``solve()``: the straight-line word search API (exact first, then fuzzy for what is still missing)."""
from __future__ import annotations

from collections.abc import Iterable

from solver.errors import BadInputError, NoWordsError
from solver.fuzzy import Alternatives, find_fuzzy
from solver.grid import DIRECTIONS, PHRASES, READING_ORDER, make_grid, normalize_word
from solver.results import Occurrence, WordResult
from solver.straight import find_exact

_NAMES = {**{d.lower(): d for d in DIRECTIONS}, **{p: d for d, p in PHRASES.items()}}


def parse_directions(directions: Iterable[str] | str | None) -> list[str]:
    """Direction names ("E", "sw", "down-left", comma separated or a list) in reading order; None: all 8."""
    if directions is None:
        return list(READING_ORDER)
    if isinstance(directions, str):
        directions = directions.split(",")
    wanted = set()
    for name in directions:
        name = name.strip().lower()
        if name not in _NAMES:
            raise BadInputError(f"unknown direction {name!r}; use N NE E SE S SW W NW")
        wanted.add(_NAMES[name])
    if not wanted:
        raise BadInputError("no directions given")
    return [d for d in READING_ORDER if d in wanted]


def solve(rows, words: Iterable[str], *, directions: Iterable[str] | str | None = None, wrap: bool = False,
          max_mismatches: int = 0, alternatives: Alternatives | None = None) -> list[WordResult]:
    """Find every occurrence of each word in the grid ``rows``: one WordResult per distinct word, in input order.

    Words ignore case, spaces, hyphens and apostrophes (and accents when the grid has none). Exact occurrences
    always win; with ``max_mismatches=k`` a word with none is looked for with up to k wrong cells, preferring
    cells whose ``alternatives`` (rows x cols dicts {letter: confidence}) hold the needed letter.
    """
    grid = make_grid(rows)
    directions = parse_directions(directions)
    fold = not grid.has_accents
    given: dict[str, str] = {}
    for word in words:
        key = normalize_word(word, fold)
        if key and key not in given:
            given[key] = word.strip()
    if not given:
        raise NoWordsError("the word list is empty")
    spellings = {key: grid.patterns(key) for key in given}
    exact = find_exact(grid, [p for ps in spellings.values() for p in ps], directions, wrap)
    results = []
    for key, word in given.items():
        ways = spellings[key]
        found = exact.get(ways[0], [])
        if len(ways) > 1:
            found = sorted((occ for p in ways for occ in exact.get(p, ())),
                           key=lambda occ: (occ.start, READING_ORDER.index(occ.direction)))
        if not found and max_mismatches > 0:
            found = find_fuzzy(grid, ways, directions, wrap, max_mismatches, alternatives)
        if found and (wrap or key == key[::-1] or len(ways) > 1):
            found = _distinct(found)
        results.append(WordResult(word, found))
    return results


def _distinct(occurrences: list[Occurrence]) -> list[Occurrence]:
    """Drop occurrences covering the same cells as an earlier one (a palindrome read from its other end)."""
    seen, kept = set(), []
    for occ in occurrences:
        cells = frozenset(occ.cells)
        if cells not in seen:
            seen.add(cells)
            kept.append(occ)
    return kept
