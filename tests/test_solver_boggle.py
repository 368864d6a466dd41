"""Boggle / Wordament path mode: known boards, special tiles, and a brute-force check of the paths."""
from __future__ import annotations

import importlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import boggle
from solver.boggle import ANY, _walk_tiles, find_paths, parse_board
from solver.dictionary import load_dictionary
from solver.errors import BadInputError, GridFormatError, NoWordsError

from conftest import CORPUS

WORDAMENT = CORPUS / "blackmonk13__wordament_solver" / "sample_images"


def check_path(tiles, result) -> None:
    """A reported path touches cell to cell, uses no cell twice, spells the word, and places special tiles right."""
    path = result.path
    assert len(set(path)) == len(path)
    assert all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 for a, b in zip(path, path[1:]))
    assert result.tiles == [tiles[r][c] for r, c in path]
    assert all(not t.endswith("-") for t in result.tiles[1:]), "a prefix tile after the start"
    assert all(not t.startswith("-") for t in result.tiles[:-1]), "a suffix tile before the end"
    readings = [[t.strip("-")] if "/" not in t else t.split("/") for t in result.tiles]
    assert any(result.word.upper() == "".join(choice) for choice in _choices(readings))


def _choices(readings):
    if not readings:
        yield []
        return
    for first in readings[0]:
        for rest in _choices(readings[1:]):
            yield [first] + rest


def brute_force_paths(tiles, word: str) -> list[list[tuple[int, int]]]:
    """Every path spelling ``word`` (plain tiles only), by trying every start and extension."""
    rows, cols = len(tiles), len(tiles[0])
    found = []
    stack = [([(r, c)], tiles[r][c]) for r in range(rows) for c in range(cols)]
    while stack:
        path, text = stack.pop()
        if not word.startswith(text):
            continue
        if text == word:
            found.append(path)
            continue
        r, c = path[-1]
        for r2 in range(r - 1, r + 2):
            for c2 in range(c - 1, c + 2):
                if 0 <= r2 < rows and 0 <= c2 < cols and (r2, c2) not in path:
                    stack.append((path + [(r2, c2)], text + tiles[r2][c2]))
    return found


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_given_words_match_brute_force(rows, cols, data):
    tiles = [[data.draw(st.sampled_from("ABE")) for _ in range(cols)] for _ in range(rows)]
    words = data.draw(st.lists(st.text("ABE", min_size=1, max_size=6), min_size=1, max_size=6, unique=True))
    for word, res in zip(words, boggle(tiles, words)):
        paths = brute_force_paths(tiles, word)
        assert res.paths == len(paths)
        assert res.found == (res.paths > 0) and res.several == (res.paths > 1)
        if res.found:
            check_path(tiles, res)
            assert res.path == min(paths), "the first path in reading order"


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_level_walk_matches_the_depth_first_walk(rows, cols, data):
    """Single-letter boards take the NumPy level walk; the depth-first walk (for special tiles) must agree on every
    word, path and count, with the shipped dictionary, also when the start cells are walked a few at a time."""
    tiles = [[data.draw(st.sampled_from("AEIRSTNL")) for _ in range(cols)] for _ in range(rows)]
    options = [[(t, ANY, t)] for row in tiles for t in row]
    walked = _walk_tiles(options, rows, cols, load_dictionary())
    expected = {}
    for steps, count in walked.values():
        word = "".join(tiles[s // 4 // cols][s // 4 % cols] for s in steps)
        expected[word] = [[divmod(s // 4, cols) for s in steps], list(word), count]
    assert find_paths(tiles, load_dictionary(), 1) == expected
    module = importlib.import_module("solver.boggle")  # the package exports the function under the same name
    chunk, module.START_CHUNK = module.START_CHUNK, data.draw(st.integers(1, 5))
    try:
        assert find_paths(tiles, load_dictionary(), 1) == expected
    finally:
        module.START_CHUNK = chunk


def test_known_board_with_the_shipped_dictionary():
    results = boggle("ABCD EFGH IJKL MNOP")
    words = [r.word for r in results]
    assert "KNIFE" in words and "MINK" in words and "INK" in words
    assert all(len(w) >= 3 for w in words) and "IN" not in words
    assert [len(w) for w in words] == sorted((len(w) for w in words), reverse=True)
    trie = load_dictionary()
    for r in results:
        assert r.word in trie
        check_path(parse_board("ABCD EFGH IJKL MNOP"), r)
    assert [r.word for r in boggle("ABCD EFGH IJKL MNOP", min_length=5)] == ["KNIFE"]


def test_tiles_are_used_once_and_several_paths_are_counted():
    assert not boggle([["A", "B"]], ["aba"])[0].found
    assert boggle([["A", "B", "A"]], ["aba"])[0].found
    (ab,) = boggle([["A", "B"], ["B", "X"]], ["ab"])
    assert ab.paths == 2 and ab.several


def test_qu_and_digram_tiles():
    board = "[QU]EEN XXXX XXXX XXXX"
    queen, qeen = boggle(board, ["queen", "qeen"])
    assert queen.found and queen.tiles == ["QU", "E", "E", "N"] and queen.path[0] == (0, 0)
    assert not qeen.found
    (pave,) = boggle([["P", "A", "VE"]], ["pave"])
    assert pave.tiles == ["P", "A", "VE"]


def test_prefix_tile_only_at_the_start_and_suffix_only_at_the_end():
    board = [["SUB-", "M"], ["T", "I"]]
    submit, msub, sub = boggle(board, ["submit", "msub", "sub"])
    assert submit.found and submit.tiles[0] == "SUB-"
    assert not msub.found and not sub.found  # a prefix tile starts a longer word
    paper, era, er = boggle([["P", "A"], ["P", "-ER"]], ["paper", "erpa", "er"])
    assert paper.found and paper.tiles[-1] == "-ER"
    assert not era.found and not er.found


def test_either_or_tile_reads_one_letter_or_the_other():
    mat, uta, muta = boggle([["U/M", "A"], ["T", "X"]], ["mat", "uta", "muta"])
    assert mat.found and uta.found and not muta.found  # the tile is used once, as one reading
    assert mat.tiles[0] == "U/M"


def test_board_forms_and_errors(tmp_path, monkeypatch):
    assert parse_board("AB CD") == parse_board("A B, C D") == parse_board("AB\nCD") == [["A", "B"], ["C", "D"]]
    assert parse_board("[QU]B [SUB-][-ER]")[1] == ["SUB-", "-ER"]
    with pytest.raises(GridFormatError, match="row 2"):
        parse_board("ABC DE")
    with pytest.raises(GridFormatError):
        parse_board("A1 CD")
    with pytest.raises(NoWordsError):
        boggle("AB CD", [" "])
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    binary = tmp_path / "words.bin"
    binary.write_bytes(b"\x00\x01\x02abc")
    with pytest.raises(BadInputError, match="not a text file"):
        boggle("AB CD", dictionary=str(binary))
    words = tmp_path / "words.txt"
    words.write_text("abd\ncab\nDAB\n\nzzz\n")
    assert [r.word for r in boggle("AB CD", dictionary=str(words))] == ["ABD", "CAB", "DAB"]
    assert list((tmp_path / "cache" / "wordsearch").glob("*.pickle")), "the prepared trie is cached"


@pytest.mark.parametrize("sidecar", sorted(WORDAMENT.glob("*.json")) if WORDAMENT.is_dir() else [],
                         ids=lambda p: p.name)
def test_corpus_wordament_boards(sidecar):
    """Real Wordament boards (transcribed tiles, corpus truth): every path is legal and special tiles are used."""
    tiles = json.loads(sidecar.read_text())["tiles"]
    results = boggle(tiles)
    assert len(results) >= 30
    for r in results:
        check_path(tiles, r)
    special = [t for row in tiles for t in row if len(t) > 1]
    assert any(set(special) & set(r.tiles) for r in results), "no word uses the board's special tile"
