"""Puzzles without a list (hidden dictionary words), hidden messages (unused letters), and PDFs through `solve`."""
from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

from scanner import pdf
from tools import synth
from scanner.cli import main
from solver.dictionary import hidden_vocabulary, inflected, list_vocabulary
from solver.hidden import find_hidden, unused_letters
from solver import solve

VOCABULARY = ("PASS", "TEACH", "PORT", "TEACHER", "PLANET", "BLACK", "HOLE", "STOOL", "LOOTS", "LEVEL", "RADAR",
              "PASSPORT", "FREE", "ZERO", "FREEZER", "YANG", "RAPE", "GRAPE", "PLATE", "PLATED", "RUGBY", "SURF", "SURFING", "POLAR", "BEAR", "BEARS")


def found(rows, **kw) -> dict[str, list[tuple]]:
    return {r.word: [(o.start, o.direction) for o in r.occurrences] for r in find_hidden(rows, VOCABULARY, **kw)}


def test_hidden_words_are_read_as_a_person_would():
    """A word inside a longer one is not reported (TEACH in TEACHER), a plural or past form counts as its stem when
    the stem is a word (PLANET + S, PLATE + D), two common words end to end are one compound (BLACK HOLE), a reversal on the same cells
    (STOOL/LOOTS) and a palindrome read both ways (LEVEL) are reported once; a word is not split into a compound
    of two commoner words (PASSPORT, not PASS PORT)."""
    rows = ["TEACHERXX",
            "PLANETSXX",
            "BLACKHOLE",
            "STOOLXXXX",
            "LEVELXXXX",
            "PASSPORTX",
            "PLATEDXXX"]
    assert found(rows) == {"BLACK HOLE": [((2, 0), "E")], "TEACHER": [((0, 0), "E")], "PLANET": [((1, 0), "E")],
                           "STOOL": [((3, 0), "E")], "LEVEL": [((4, 0), "E")], "PASSPORT": [((5, 0), "E")],
                           "PLATE": [((6, 0), "E")]}
    assert found(rows, min_length=7) == {"BLACK HOLE": [((2, 0), "E")], "TEACHER": [((0, 0), "E")],
                                         "PASSPORT": [((5, 0), "E")]}


def test_a_word_across_the_join_of_two_words_is_the_hidden_one():
    """Two common words end to end are not one compound where a word runs across their join: the word across it
    is the placed one and the rest chance letters beside it (FREEZER + a chance O read as FREE ZERO, G + RAPE
    after a chance YAN read as YANG RAPE, on generated puzzles); nor where a longer word runs on from one of them
    (RUGBY beside SURFING is not RUGBY SURF). With no word across it, BLACK HOLE stays one, and POLAR BEAR with a
    chance S after it."""
    rows = ["FREEZEROXXXX",
            "XYANGRAPEXXX",
            "BLACKHOLEXXX",
            "RUGBYSURFING",
            "POLARBEARSXX"]
    assert found(rows) == {"FREEZER": [((0, 0), "E")], "GRAPE": [((1, 4), "E")], "BLACK HOLE": [((2, 0), "E")],
                           "RUGBY": [((3, 0), "E")], "SURFING": [((3, 5), "E")], "POLAR BEAR": [((4, 0), "E")]}


def test_the_hidden_vocabulary_leaves_out_rare_run_ons_of_its_words():
    """A rare word that is another with a letter more at an end (BALLADE, NEBULAR, BROCKET) would hide that word
    in a puzzle; words wordfreq has never seen (ABACIST, SCAPPLE) are no puzzle's words. The words they hold stay,
    as do run-ons less rare (GRATER, STORMY)."""
    words = set(hidden_vocabulary())
    assert not words & {"BALLADE", "NEBULAR", "BROCKET", "ABACIST", "SCAPPLE"}
    assert {"BALLAD", "NEBULA", "ROCKET", "APPLE", "GRATER", "STORMY"} <= words


def test_a_list_may_hold_rarer_five_letter_words_and_short_plurals_that_a_puzzle_without_one_is_not_searched_for():
    """Random letters spell short rare words by chance, and a placed PEAR with a chance S after it is no PEARS, so
    the hidden vocabulary leaves LADLE, SLEET, SEEDS and DRUMS out; a printed list's words are vouched for by
    their print as well, so the list vocabulary has them, but not rare plurals (AWLS); the hidden words keep
    their order."""
    hidden, listed = hidden_vocabulary(), list_vocabulary()
    assert not {"LADLE", "SLEET", "SEEDS", "DRUMS"} & set(hidden)
    assert {"LADLE", "SLEET", "SEEDS", "DRUMS", "ANTS"} <= set(listed)
    assert "AWLS" not in listed
    assert listed[:len(hidden)] == hidden


def test_a_word_ending_in_d_is_a_past_form_only_after_an_e():
    """PLATED is PLATE's past form, but WIND is no form of WIN, nor HAND of HAN: they are words of their own, and
    hidden and list words (a weather list's WIND was left out of both)."""
    assert inflected("PLATED", "PLATE") and inflected("SEEDS", "SEED")
    assert not inflected("WIND", "WIN") and not inflected("HAND", "HAN")
    assert {"WIND", "HAND", "BRAND", "ROUND"} <= set(hidden_vocabulary()) <= set(list_vocabulary())


def test_a_name_that_ends_in_s_is_no_plural():
    """MARS, which lists of space words hold, is web2's name for the planet, not MAR with a filler S: names with no
    lower-case twin are kept in both vocabularies, while plurals of common words stay out (PEARS above)."""
    assert {"MARS", "PARIS"} <= set(hidden_vocabulary()) <= set(list_vocabulary())
    assert not {"PEARS", "LAWNS", "SEEDS"} & set(hidden_vocabulary())


def test_hidden_words_spell_themselves_in_all_directions():
    """Every reported occurrence spells its word (compounds without the space); words are found in the 8
    directions, against a brute-force check on a random grid with planted words."""
    rng = np.random.default_rng(4)
    puzzle = synth.make_puzzle(rng, 14, 14, ["ELEPHANT", "GIRAFFE", "KANGAROO", "PENGUIN", "SQUIRREL", "DOLPHIN"])
    results = find_hidden(puzzle.grid, hidden_vocabulary())
    for res in results:
        for occ in res.occurrences:
            assert "".join(puzzle.grid[r][c] for r, c in occ.cells) == res.word.replace(" ", "")
    cells = {frozenset(o.cells) for res in results for o in res.occurrences}
    assert all(frozenset(p.cells) in cells for p in puzzle.placements)
    assert {p.direction for p in puzzle.placements} <= set(synth.DIRECTIONS)


def test_unused_letters_spell_the_hidden_message():
    """A generated puzzle whose free cells spell a message: once the list is solved, the letters no word uses,
    in reading order, start with the message (the rest is the generator's random fill, read from its truth)."""
    message = "WELL DONE YOU FOUND THEM ALL"
    rng = np.random.default_rng(11)
    words = ["WHALE", "SHARK", "CORAL", "OCTOPUS", "SQUID", "LOBSTER", "OYSTER", "SALMON"]
    puzzle = synth.make_puzzle(rng, 12, 12, words, message=message)
    used = {cell for p in puzzle.placements for cell in p.cells}
    truth = "".join(ch for r, row in enumerate(puzzle.grid) for c, ch in enumerate(row) if (r, c) not in used)
    got = unused_letters(puzzle.grid, solve(puzzle.grid, words))
    assert got == truth and got.startswith(message.replace(" ", ""))


@pytest.fixture(scope="module")
def message_page(tmp_path_factory):
    """A rendered page without a printed list (only a line of instructions, which is not a list) whose free cells
    spell a message."""
    rng = np.random.default_rng(3)
    words = ["APPLE", "LEMON", "MANGO", "PEACH", "GRAPE", "MELON", "CHERRY"]
    puzzle = synth.make_puzzle(rng, 10, 10, words, message="YOU FOUND THEM ALL")
    image, truth = synth.render_page(puzzle, cell_px=40, word_list_layout="none", title=None,
                                     instructions="Find and circle all of the words hidden in the grid.")
    path = tmp_path_factory.mktemp("hidden") / "page.png"
    Image.fromarray(image[:, :, ::-1]).save(path)
    return path, puzzle


def test_cli_without_a_list_reports_the_hidden_words(message_page, tmp_path, capsys):
    """No list printed or given: exit 0, the grid, one line saying no list was found, and the hidden words,
    each marked "source": "dictionary" and circled. Data: a clean 10x10 render of 7 fruit words, all in the
    dictionary; threshold: every one of them found at its cells, at most 2 chance words (the bench measures
    ~2 per 10x10-25x25 puzzle)."""
    page, puzzle = message_page
    out = tmp_path / "answer.png"
    assert main(["solve", str(page), "-o", str(out), "--json", "-"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert "no word list found" in captured.err.splitlines()[0]
    assert doc["grid"]["letters"] == puzzle.grid
    assert doc["word_list"]["source"] == "none" and doc["word_list"]["min_length"] == 5
    assert doc["unused_letters"] is None
    assert all(w["source"] == "dictionary" and w["found"] for w in doc["words"])
    cells = {frozenset(map(tuple, w["cells"])): w["word"] for w in doc["words"]}
    assert all(frozenset(p.cells) in cells for p in puzzle.placements)
    assert len(cells) - len(puzzle.placements) <= 2
    assert Image.open(out).size == Image.open(page).size


def test_cli_reports_the_unused_letters(message_page, capsys):
    """With the list given, every word is "source": "list" and the unused letters (JSON and summary line) start
    with the page's hidden message."""
    page, puzzle = message_page
    assert main(["solve", str(page), "--words", ",".join(puzzle.words), "--json", "-"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert all(w["source"] == "list" and w["found"] for w in doc["words"])
    assert doc["unused_letters"].startswith("YOUFOUNDTHEMALL")
    assert f"  unused letters: {doc['unused_letters']}" in captured.err.splitlines()


def test_cli_min_length_and_own_dictionary(message_page, tmp_path, capsys):
    """--dictionary looks for the words of a file instead; --min-length drops shorter ones."""
    page, _ = message_page
    words = tmp_path / "words.txt"
    words.write_text("cherry\napple\nlemon\n")
    assert main(["solve", str(page), "--dictionary", str(words), "--min-length", "6", "--json", "-"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [w["word"] for w in doc["words"]] == ["CHERRY"]
    assert doc["word_list"]["dictionary"] == str(words)


@pytest.fixture(scope="module")
def two_page_pdf(tmp_path_factory):
    """A two-page PDF of generated pages (different themes), rendered as a scanner would print them."""
    rng = np.random.default_rng(21)
    pages, puzzles = [], []
    for theme in ("Kitchen", "Music"):
        puzzle = synth.make_puzzle(rng, 9, 9, [w for w in synth.THEMES[theme] if len(w) <= 7][:6])
        image, _ = synth.render_page(puzzle, cell_px=34, word_list_layout="none", title=theme)
        pages.append(Image.fromarray(image[:, :, ::-1]))
        puzzles.append(puzzle)
    path = tmp_path_factory.mktemp("pdf") / "worksheet.pdf"
    pages[0].save(path, save_all=True, append_images=pages[1:], resolution=150)
    return path, puzzles


def test_solve_reads_every_page_of_a_pdf(two_page_pdf, tmp_path, capsys):
    """`solve doc.pdf` solves both pages: a JSON list with "page" 1 and 2, each page's grid and words; -o with an
    image type writes OUT-p1.png and OUT-p2.png, with .pdf one two-page PDF."""
    path, puzzles = two_page_pdf
    words = ",".join(w for p in puzzles for w in p.words)
    out = tmp_path / "answer.png"
    assert main(["solve", str(path), "--words", words, "-o", str(out), "--json", "-"]) == 0
    docs = json.loads(capsys.readouterr().out)
    assert [d["page"] for d in docs] == [1, 2]
    for doc, puzzle in zip(docs, puzzles):
        assert doc["grid"]["letters"] == puzzle.grid
        assert {w["word"] for w in doc["words"] if w["found"]} == set(puzzle.words)
    assert (tmp_path / "answer-p1.png").is_file() and (tmp_path / "answer-p2.png").is_file()
    assert not out.exists()
    assert main(["solve", str(path), "--words", words, "-o", str(tmp_path / "answer.pdf")]) == 0
    assert pdf.page_count(tmp_path / "answer.pdf") == 2


def test_solve_one_page_of_a_pdf(two_page_pdf, tmp_path, capsys):
    """--page 2 solves only that page (one JSON object, "page": 2, -o written as named); a page the PDF does not
    have is one line and exit code 3."""
    path, puzzles = two_page_pdf
    out = tmp_path / "p2.jpg"
    assert main(["solve", str(path), "--page", "2", "--words", ",".join(puzzles[1].words), "-o", str(out),
                 "--json", "-"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["page"] == 2 and doc["grid"]["letters"] == puzzles[1].grid and out.is_file()
    assert main(["solve", str(path), "--page", "3", "--words", "A"]) == 3
    assert capsys.readouterr().err.strip() == f"wordsearch: error: cannot read {path}: no page 3 (the PDF has 2)"


def test_pdf_pages_without_a_grid_are_skipped(two_page_pdf, tmp_path, capsys):
    """A blank cover page is skipped with a line saying so and the puzzle page is solved; --page on an image other
    than 1 is one line and exit code 3."""
    path, puzzles = two_page_pdf
    blank = Image.new("RGB", (1240, 1754), "white")
    first = Image.fromarray(pdf.render_page(path, 1, dpi=150)[:, :, ::-1])  # page 1 of the worksheet
    doc_path = tmp_path / "cover.pdf"
    blank.save(doc_path, save_all=True, append_images=[first], resolution=150)
    assert main(["solve", str(doc_path), "--words", ",".join(puzzles[0].words), "--json", "-"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert doc["page"] == 2 and doc["grid"]["letters"] == puzzles[0].grid
    assert f"{doc_path} page 1: no letter grid found (skipped)" in captured.err.splitlines()
    png = tmp_path / "page.png"
    blank.save(png)
    assert main(["solve", str(png), "--page", "2"]) == 3
    assert capsys.readouterr().err.strip() == f"wordsearch: error: cannot read {png}: no page 2 (an image has one page)"


def test_text_that_the_grid_holds_none_of_is_not_a_list():
    """A generated page (random_case seed 1028) printed without a list, whose instructions line ("Find and circle
    all of the words hidden in the grid.") the list reader takes for entries ALL, GRID: the grid holds none of them,
    so it is not the list, and the hidden words are reported. Threshold: at least 10 of its 12 placed words of 5+
    letters found (two of them, WATERING CAN and SEEDS, are not in the vocabulary)."""
    from scanner.pipeline import solve_image

    image, truth = synth.random_case(1028)
    puzzle = solve_image(image, source="1028")[0]
    assert puzzle.hidden and puzzle.word_list is None
    cells = {frozenset(o.cells) for r in puzzle.results for o in r.occurrences}
    placed = [frozenset(map(tuple, p["cells"])) for p in truth["placements"] if len(synth.letters_of(p["word"])) >= 5]
    assert len(placed) == 12 and sum(p in cells for p in placed) >= 10
