"""Straight-line solver: properties against a brute-force reference, and the awkward cases one by one."""
from __future__ import annotations

import json
from math import lcm

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import DIRECTIONS, parse_grid, solve
from solver.errors import GridFormatError, NoWordsError
from solver.grid import READING_ORDER, make_grid
from solver.straight import _dense, _walk

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def brute_force(rows: list[str], word: str, directions=DIRECTIONS, wrap=False) -> set[frozenset]:
    """Cell sets of every straight placement of ``word``, by trying each start cell and direction."""
    n, m = len(rows), len(rows[0])
    found = set()
    for r in range(n):
        for c in range(m):
            for d in directions:
                dr, dc = DIRECTIONS[d]
                cells = [(r + i * dr, c + i * dc) for i in range(len(word))]
                if wrap:
                    if len(word) > lcm(n if dr else 1, m if dc else 1):
                        continue
                    cells = [(a % n, b % m) for a, b in cells]
                elif not all(0 <= a < n and 0 <= b < m for a, b in cells):
                    continue
                if "".join(rows[a][b] for a, b in cells) == word:
                    found.add(frozenset(cells))
    return found


def spelled(rows, occ) -> str:
    return "".join(rows[r][c] for r, c in occ.cells)


@st.composite
def planted(draw, max_side=8, alphabet="ABC"):
    """A random small-alphabet grid (so words recur by chance) with words written in at random places."""
    n, m = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    grid = [[draw(st.sampled_from(alphabet)) for _ in range(m)] for _ in range(n)]
    words = []
    for _ in range(draw(st.integers(1, 4))):
        d = draw(st.sampled_from(sorted(DIRECTIONS)))
        dr, dc = DIRECTIONS[d]
        longest = min(n if dr else 99, m if dc else 99)
        word = draw(st.text(alphabet + "XYZ", min_size=1, max_size=min(longest, 6)))
        r = draw(st.integers(0, n - 1) if dr == 0 else st.integers(*((len(word) - 1, n - 1) if dr < 0 else (0, n - len(word)))))
        c = draw(st.integers(0, m - 1) if dc == 0 else st.integers(*((len(word) - 1, m - 1) if dc < 0 else (0, m - len(word)))))
        for i, ch in enumerate(word):
            grid[r + i * dr][c + i * dc] = ch
        words.append(word)
    return ["".join(row) for row in grid], words


@FAST
@given(planted())
def test_matches_brute_force_and_spells_every_word(case):
    rows, words = case
    for res in solve(rows, words):
        key = res.word.upper()
        got = [frozenset(o.cells) for o in res.occurrences]
        assert len(got) == len(set(got)), "an occurrence is reported twice"
        assert set(got) == brute_force(rows, key)
        for occ in res.occurrences:
            assert spelled(rows, occ) == key
            assert occ.cells[0] == occ.start and occ.cells[-1] == occ.end


@FAST
@given(planted(max_side=6), st.booleans())
def test_wrap_matches_brute_force(case, forward_only):
    rows, words = case
    directions = ["E", "S", "SE", "NE"] if forward_only else list(DIRECTIONS)
    for res in solve(rows, words, wrap=True, directions=directions):
        assert {frozenset(o.cells) for o in res.occurrences} == brute_force(rows, res.word, directions, wrap=True)
        assert all(spelled(rows, o) == res.word for o in res.occurrences)
        assert all(o.direction in directions for o in res.occurrences)


@FAST
@given(planted(max_side=10, alphabet="AB"), st.lists(st.text("AB", min_size=1, max_size=5), min_size=1, max_size=30))
def test_both_trie_walks_agree(case, extra):
    """The two engines (node-by-node trie walk for few words, table walk for many) find the same placements."""
    rows, words = case
    grid, patterns = make_grid(rows), sorted(set(words + extra))
    directions = list(DIRECTIONS)
    m = len(rows[0])

    def cell_sets(hits):
        out = {}
        for p, start, way in zip(*(a.tolist() for a in hits)):
            (r, c), (dr, dc) = divmod(start, m), DIRECTIONS[READING_ORDER[way]]
            out.setdefault(patterns[p], set()).add(frozenset((r + i * dr, c + i * dc) for i in range(len(patterns[p]))))
        return out

    assert cell_sets(_walk(grid, patterns, directions, False)) == cell_sets(_dense(grid, patterns, directions))


def test_many_words_use_the_table_walk_and_stay_exact():
    rows = ["ARKANSAS", "XKANSASX", "SASNAKRA"]
    words = ["kansas", "arkansas", "sas", "ark"] + [f"zz{i}" for i in range(60)]
    res = {r.word: r for r in solve(rows, words)}
    for w in ("kansas", "arkansas", "sas", "ark"):
        assert {frozenset(o.cells) for o in res[w].occurrences} == brute_force(rows, w.upper())


def test_kansas_inside_arkansas_both_reported():
    res = solve(["ARKANSAS"], ["Arkansas", "Kansas"])
    assert [(r.start, r.end) for r in res] == [((0, 0), (0, 7)), ((0, 2), (0, 7))]


def test_every_occurrence_direction_and_phrase_fields():
    rows = ["CATXTAC", "AXXXXXA", "TXXXXXT"]
    (res,) = solve(rows, ["cat"])
    assert sorted((o.start, o.direction) for o in res.occurrences) == [
        ((0, 0), "E"), ((0, 0), "S"), ((0, 6), "S"), ((0, 6), "W")]
    assert res.found and res.start == (0, 0) and res.direction == "E" and res.cells == [(0, 0), (0, 1), (0, 2)]


def test_palindromes_and_single_letters_are_not_double_counted():
    (level,), (x,) = solve(["LEVEL", "XXXXX"], ["level"]), solve(["AXA"], ["x"])
    assert len(level.occurrences) == 1 and level.direction == "E"
    assert len(x.occurrences) == 1 and x.start == (0, 1)
    (aa,) = solve(["AA", "AA"], ["A"])
    assert len(aa.occurrences) == 4


def test_one_row_and_one_column_grids():
    assert solve(["ABCDE"], ["cde", "edc", "ace"])[0].cells == [(0, 2), (0, 3), (0, 4)]
    res = solve(list("ABCDE"), ["cde", "edc", "ace"])
    assert [r.direction for r in res] == ["S", "N", None]
    assert res[1].start == (4, 0)


def test_words_longer_than_the_grid_or_with_absent_letters_are_simply_not_found():
    res = solve(["AB", "CD"], ["abcde", "q", "ab"])
    assert [r.found for r in res] == [False, False, True]
    assert res[0].to_dict()["start"] is None and res[0].cells == []


def test_word_normalisation_and_duplicates():
    rows = ["HANSOLOX", "OBIWANXX", "FUMEEXXX"]
    res = solve(rows, ["Han Solo", "OBI-WAN", "obi wan", "fumée", "", "  ", "han solo"])
    assert [r.word for r in res] == ["Han Solo", "OBI-WAN", "fumée"]  # kept as given, duplicates once
    assert all(r.found for r in res)
    assert solve(["OBIWAN"], ["Obi-Wan's"])[0].found is False  # only the apostrophe is dropped: OBIWANS
    assert solve(["DONTX"], ["don't"])[0].found


def test_accents_fold_only_when_the_grid_has_none():
    assert solve(["FUMEE"], ["fumée"])[0].found
    assert solve(["FUMÉE"], ["fumée"])[0].found
    assert not solve(["FUMÉE"], ["fumee"])[0].found
    assert solve(["ДОМ"], ["дом"])[0].found  # non-Latin letters are letters too


def test_direction_restriction():
    rows = ["CAT", "AXX", "TXX"]
    assert solve(rows, ["tac"], directions="E,S")[0].found is False
    assert solve(rows, ["tac"], directions=["W", "N"])[0].direction == "W"
    assert solve(rows, ["tac"], directions=["left"])[0].start == (0, 2)
    with pytest.raises(Exception, match="unknown direction"):
        solve(rows, ["cat"], directions="sideways")


def test_wrap_around():
    rows = ["TXCA", "XXXX", "XXXX"]
    assert not solve(rows, ["cat"])[0].found
    (res,) = solve(rows, ["cat"], wrap=True)
    assert res.cells == [(0, 2), (0, 3), (0, 0)] and res.direction == "E" and res.end == (0, 0)
    assert not solve(["CAT"], ["catc"], wrap=True)[0].found  # no cell twice


def test_multi_letter_tiles():
    rows = ["QU E E N", "A B C D", "QU I T E"]
    res = solve(rows, ["queen", "quite", "queue", "abcd"])
    assert [r.found for r in res] == [True, True, False, True]
    assert res[0].cells == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert solve(["Q U E E N"], ["queen"])[0].found  # separate Q and U tiles spell it too
    fillers = [f"ZZ{chr(65 + i % 26)}{chr(65 + i // 26)}" for i in range(60)]  # enough words for the table walk
    many = solve(rows, ["queen", "quite", "queue", "abcd"] + fillers)[:4]
    assert [(r.found, r.cells) for r in many] == [(r.found, r.cells) for r in res]


def test_deep_and_long_grids_do_not_recurse():
    word = "AB" * 1500
    tall = list("X" + word + "X")
    (res,) = solve(tall, [word[::-1]])
    assert res.found and res.direction == "N" and len(res.cells) == len(word)
    (wide,) = solve(["X" + word], [word, "B" * 10])[:1]
    assert wide.start == (0, 1)


def test_fuzzy_reports_the_disagreeing_cells_and_exact_wins():
    rows = ["CXTDOG", "XXXXXX", "BIRXXX"]
    res = {r.word: r for r in solve(rows, ["cat", "dog", "bird"], max_mismatches=1)}
    assert res["dog"].mismatches == [] and res["dog"].found
    cat = res["cat"]
    assert cat.found and cat.start == (0, 0) and cat.direction == "E"
    assert [(m.cell, m.read, m.needed) for m in cat.mismatches] == [((0, 1), "X", "A")]
    assert res["bird"].mismatches[0].cell == (2, 3)
    assert not solve(rows, ["cat"])[0].found  # exact only by default
    assert not solve(["AXC"], ["ab"], max_mismatches=1)[0].found  # a hit needs a majority of right cells


def test_fuzzy_prefers_cells_whose_alternative_reading_fits():
    rows = ["CXT", "XXX", "TOX"]  # C?T along row 0 and down column 0, each with an X where A belongs
    alternatives = [[{} for _ in range(3)] for _ in range(3)]
    plain = solve(rows, ["cat"], max_mismatches=1)[0]
    alternatives[1][0] = {"A": 0.6}
    preferred = solve(rows, ["cat"], max_mismatches=1, alternatives=alternatives)[0]
    assert plain.start == (0, 0) and plain.direction == "E"
    assert preferred.direction == "S" and preferred.mismatches[0].cell == (1, 0)
    assert len(preferred.occurrences) >= 2  # every fuzzy placement is listed, best first


def test_result_to_dict_is_json_ready():
    (res,) = solve(["CXT"], ["cat"], max_mismatches=1)
    d = json.loads(json.dumps(res.to_dict()))
    assert d["start"] == [0, 0] and d["end"] == [0, 2] and d["cells"] == [[0, 0], [0, 1], [0, 2]]
    assert d["mismatches"] == [{"cell": [0, 1], "read": "X", "needed": "A"}]
    assert d["occurrences"][0]["direction"] == "E" and d["found"] is True


def test_parse_grid_forms_and_errors():
    assert parse_grid("ab c d\nd e f") == [["AB", "C", "D"], ["D", "E", "F"]]
    assert parse_grid(["abc", "def"]) == [["A", "B", "C"], ["D", "E", "F"]]
    assert parse_grid("[QU]BC\nDEF") == [["QU", "B", "C"], ["D", "E", "F"]]
    with pytest.raises(GridFormatError, match="row 2 has 2 letters but row 1 has 3"):
        parse_grid("ABC\nDE")
    with pytest.raises(GridFormatError, match="empty"):
        parse_grid("  \n")
    with pytest.raises(GridFormatError, match="row 2 .*'1'"):
        parse_grid("ABC\nD1F")
    with pytest.raises(GridFormatError, match="row 1"):
        solve(["AB-"], ["ab"])
    with pytest.raises(NoWordsError):
        solve(["AB"], ["", " - "])
