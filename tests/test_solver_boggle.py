"""Boggle / Wordament path mode: known boards, special tiles, and a brute-force check of the paths."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import boggle
from solver.boggle import find_paths, parse_board
from solver.dictionary import load_dictionary
from solver.errors import BadInputError, GridFormatError, NoWordsError
from solver.trie import ROOT, Trie

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


def reference_paths(tiles, trie: Trie, min_length: int) -> dict[str, list]:
    """``find_paths`` by plain recursion over every (cell, reading) path; the first path and count taken at the end."""
    rows, cols, index = len(tiles), len(tiles[0]), trie.letter_index()
    paths: dict[str, list] = {}

    def readings(tile):
        if tile.endswith("-"):
            return [(tile[:-1], "first")]
        if tile.startswith("-"):
            return [(tile[1:], "last")]
        return [(text, "any") for text in tile.split("/")]

    def step(path, word, node, text, where):
        for ch in text:
            node = trie.step(node, index[ch]) if ch in index else -1
            if node < 0:
                return
        word += text
        if trie.mask[node] & 1 and len(word) >= min_length and where != "first":
            paths.setdefault(word, []).append(path)
        if where == "last":
            return
        (r, c), _ = path[-1]
        for r2 in range(max(r - 1, 0), min(r + 2, rows)):
            for c2 in range(max(c - 1, 0), min(c + 2, cols)):
                if all(cell != (r2, c2) for cell, _ in path):
                    for k, (text2, where2) in enumerate(readings(tiles[r2][c2])):
                        if where2 != "first":
                            step(path + [((r2, c2), k)], word, node, text2, where2)

    for r in range(rows):
        for c in range(cols):
            for k, (text, where) in enumerate(readings(tiles[r][c])):
                if where != "last":
                    step([((r, c), k)], "", ROOT, text, where)
    found = {}
    for word, all_paths in paths.items():
        first = min(all_paths)  # cell by cell, then by reading
        found[word] = [[cell for cell, _ in first], [tiles[r][c] for (r, c), _ in first], len(all_paths)]
    return found


SPECIAL = ["QU", "VE", "TH", "U/M", "A/E", "S/T/R", "SUB-", "RE-", "-ER", "-ING"]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 4), st.data())
def test_the_walk_matches_a_plain_recursion_with_the_shipped_dictionary(rows, cols, min_length, data):
    """Every word, first path and path count agree with a plain recursion, on boards of letters and special tiles."""
    tiles = [[data.draw(st.sampled_from(list("AEIRSTNLO") + SPECIAL)) for _ in range(cols)] for _ in range(rows)]
    trie = load_dictionary()
    assert find_paths(tiles, trie, min_length) == reference_paths(tiles, trie, min_length)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_the_walk_matches_a_plain_recursion_past_63_letters(rows, cols, data):
    """A trie of more than 63 letters (Latin, Greek, Cyrillic) needs two 64-bit words per node mask."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ" + "АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
    few = "AΩЯBΨЮ"  # letters on both sides of bit 64, few enough that words are found
    words = data.draw(st.lists(st.text(few, min_size=1, max_size=5), min_size=1, max_size=30))
    trie = Trie.build(words + [letters])
    assert len(trie.alphabet) > 63 and trie.arrays()[0].shape[1] == 2
    tiles = [[data.draw(st.sampled_from(list(few) + ["AΩ-", "-ЯB", "Ψ/Ю"])) for _ in range(cols)] for _ in range(rows)]
    assert find_paths(tiles, trie, 1) == reference_paths(tiles, trie, 1)


def test_a_long_word_on_a_100x100_board():
    """A 250-letter word snaking over a 100x100 board of filler tiles: longer than any 64-cell bitmask allows."""
    word = "ABCDEFGHIJKLMNOPQRSTUVWXY" * 10
    snake = ([(0, c) for c in range(100)] + [(1, 99)] + [(2, c) for c in reversed(range(100))] + [(3, 0)]
             + [(4, c) for c in range(48)])  # rows 0, 2 and 4 with a filler row between: one path only
    tiles = [["Z"] * 100 for _ in range(100)]
    for (r, c), ch in zip(snake, word):
        tiles[r][c] = ch
    trie = Trie.build([word, word[:120], "ZA", "YZ"])
    found = find_paths(tiles, trie, 3)
    # the 120-letter prefix starts at any A with 119 more cells of the snake after it: 6 paths
    assert found == {word: [snake, list(word), 1], word[:120]: [snake[:120], list(word[:120]), 6]}
    assert found == reference_paths(tiles, trie, 3)


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
