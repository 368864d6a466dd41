"""Boggle/Wordament/Ruzzle boards from pictures: finding and reading the tiles, solving in path mode, the JSON,
the CLI, the annotated picture and batch mode.

Data: the corpus Wordament screenshots (../shared/corpus, `puzzle: boggle` sidecars; skipped when absent),
samples/boards/tray.jpg (a 12 MP photo of a Boggle tray, made by tools.synth_board), and synthetic boards
drawn by tools.synth_board from fixed seeds. Real OpenCV, real Tesseract, the shipped dictionary.
"""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from conftest import SAMPLES, corpus_items
from tools import synth_board
from scanner.annotate import to_image
from scanner.batch import Options, PageTask, run_page
from scanner.board import BoardReading, find_board, read_board, unsure_tiles, word_score
from scanner.cli import main
from scanner.engine import get_engine
from scanner.load import load_image
from scanner.pipeline import annotate, solve_image
from solver.boggle import boggle

TRAY = SAMPLES / "boards" / "tray.jpg"
BOARDS = corpus_items("boggle")


def truth_of(image: Path) -> dict:
    return json.loads(image.with_name(image.name + ".json").read_text())


def assert_paths_spell_words(doc: dict) -> None:
    """Every found word's path steps between touching tiles, never twice on one, and its tiles spell the word."""
    tiles = doc["grid"]["tiles"]
    for entry in doc["words"]:
        if not entry["found"]:
            continue
        path = [tuple(cell) for cell in entry["path"]]
        assert len(set(path)) == len(path), entry
        assert all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 for a, b in zip(path, path[1:])), entry
        assert [tiles[r][c] for r, c in path] == entry["tiles"], entry
        spelled = "".join(t.strip("-") for t in entry["tiles"])
        if "/" not in spelled:
            assert spelled == entry["word"], entry


@pytest.mark.parametrize("image,truth", BOARDS, ids=[p.name for p, _ in BOARDS])
def test_corpus_wordament_boards_are_read_completely(image, truth):
    """Every tile of every corpus Wordament screenshot, special tiles (VE, CH, AT, SUB-, -Y) included, is read
    right (threshold 100%), with a score read in each tile's corner."""
    picture = load_image(image)
    loc = find_board(picture)
    assert loc is not None and (loc.rows, loc.cols) == (truth["rows"], truth["cols"])
    reading, _ = read_board(picture, loc, get_engine())
    assert reading.tiles == truth["tiles"]
    assert reading.upright and all(isinstance(p, int) and 1 <= p <= 20 for row in reading.points for p in row)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_synthetic_boards_tiles_points_and_turns(seed):
    """Synthetic boards (seeds 0-5: two Wordament screenshots, two Ruzzle-style boards, two Boggle tray photos,
    one 5x5): every tile and every corner score read right (threshold 100% on these), and each die's turn found
    where the letter shows it (not for O, S, X, Z, H, N, I, which look alike turned)."""
    image, truth = synth_board.random_board(seed)
    loc = find_board(image)
    assert loc is not None and loc.rows == truth["rows"]
    reading, _ = read_board(image, loc, get_engine())
    assert reading.tiles == truth["tiles"]
    if truth["puzzle_id"] == "syn-tray":
        assert not reading.upright
        for r, row in enumerate(truth["tiles"]):
            for c, tile in enumerate(row):
                if tile not in ("O", "S", "X", "Z", "H", "N", "I"):
                    assert reading.turns[r][c] == truth["turns"][r][c], (r, c, tile)
    else:
        assert reading.points == truth["points"]


def test_pictures_without_a_board_are_not_boards():
    """The word-search samples (ruled, gridless, inverted, photo) hold no board."""
    for name in ("printable.png", "gridless.png", "inverted.png", "photo.jpg"):
        assert find_board(load_image(SAMPLES / name)) is None, name


def test_a_ruled_grid_whose_pen_rings_leave_a_square_patch_of_boxes_is_no_board():
    """A generated photo (tools.synth, turned condition, seed 17007): a ruled 9x9 turned upside down, three words
    ringed in pen. The rings and letters touching the rules leave a 5x5 patch of closed cells, the rest of the
    grid's cells beside it: a piece of a grid, not a board, so the picture is read as its 9x9 word search."""
    from tools.synth import condition_case

    image, truth = condition_case("rotated", 17007)[:2]
    assert find_board(image) is None
    puzzle = solve_image(image, source="turned", words=truth["words"])[0]
    assert (puzzle.rows, puzzle.cols) == (truth["rows"], truth["cols"]) == (9, 9)
    assert sum(r.found for r in puzzle.results) >= len(truth["words"]) - 1


def test_a_small_lined_grid_whose_frame_took_its_outer_cells_is_no_board():
    """A generated photo of an 8x8 lined word search with no list (tools.synth, no-list condition, seed 24008): its
    thick frame took in the outer ring of cells, so the inner 6x6 boxes stood alone as a board, and the picture came
    back as a Boggle board of 187 dictionary words. The word-search grid round those boxes, a ring larger each way,
    makes it a word search again: 8x8, its hidden words found."""
    from tools.synth import condition_case

    image, truth = condition_case("nolist", 24008)[:2]
    assert find_board(image) is not None
    puzzle = solve_image(image, source="nolist 24008")[0]
    assert puzzle.puzzle_type == "wordsearch" and (puzzle.rows, puzzle.cols) == (truth["rows"], truth["cols"]) == (8, 8)
    assert puzzle.words_source == "none" and [r.word for r in puzzle.results if r.found], puzzle.results


def test_solve_a_tray_photo_from_the_command_line(tmp_path, capsys):
    """`wordsearch solve tray.jpg`: auto-detected as a board; the JSON has puzzle_type, the tiles as in the truth,
    every found word with a valid path, longest first (no points on dice); the annotated picture is the original
    (untouched outside the drawn paths) with a legend below."""
    if not TRAY.exists():
        pytest.skip("samples/boards/tray.jpg is not there")
    out_png, out_json = tmp_path / "out.png", tmp_path / "out.json"
    assert main(["solve", str(TRAY), "-o", str(out_png), "--json", str(out_json), "--top", "5"]) == 0
    doc = json.loads(out_json.read_text())
    truth = truth_of(TRAY)
    assert doc["puzzle_type"] == "boggle" and doc["grid"]["tiles"] == truth["tiles"]
    assert doc["grid"]["letters"] == truth["grid"] and doc["scoring"] == "length"
    found = [w for w in doc["words"] if w["found"]]
    assert len(found) > 50 and all(w["points"] is None for w in found)
    assert [len(w["word"]) for w in found] == sorted((len(w["word"]) for w in found), reverse=True)
    assert_paths_spell_words(doc)
    expected = {r.word for r in boggle(truth["tiles"])}
    assert {w["word"] for w in found} == expected
    summary = capsys.readouterr().out
    assert "4x4 board" in summary and found[0]["word"] in summary

    original = load_image(TRAY)
    drawn = load_image(out_png)
    assert drawn.shape[1] == original.shape[1] and drawn.shape[0] > original.shape[0]  # legend below
    top = drawn[:original.shape[0]].astype(int)
    changed = np.abs(top - original.astype(int)).max(axis=2) > 40
    assert changed.any()
    # the start dot of the best word sits on its first tile's centre, mapped back through the perspective
    corners = np.array(doc["grid"]["corners"])
    rect = np.array([[0, 0], [4, 0], [4, 4], [0, 4]], float)
    H = cv2.getPerspectiveTransform(corners.astype(np.float32), rect.astype(np.float32))
    r, c = found[0]["path"][0]
    x, y = to_image(np.array([[c + 0.5, r + 0.5]]), H)[0]
    assert changed[int(y) - 3:int(y) + 4, int(x) - 3:int(x) + 4].all()
    # far from the board nothing changed (the JPEG round trip aside)
    assert not changed[:original.shape[0] // 10].any()


def test_wordament_json_is_scored_and_ordered_by_points():
    """A synthetic Wordament screenshot: scoring "wordament", each word's points are the sum of its tiles' points
    times the length bonus, and the words come best first."""
    image, truth = synth_board.random_board(0, "wordament")
    puzzles = solve_image(image, source="syn.png")
    doc = puzzles[0].to_json()
    assert doc["puzzle_type"] == "boggle" and doc["scoring"] == "wordament"
    assert doc["grid"]["points"] == truth["points"] and doc["grid"]["tiles"] == truth["tiles"]
    found = [w for w in doc["words"] if w["found"]]
    scores = [w["points"] for w in found]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    for w in found:
        tile_sum = sum(truth["points"][r][c] for r, c in w["path"])
        bonus = 1 if len(w["word"]) < 5 else {5: 1.5, 6: 2, 7: 2.5}.get(len(w["word"]), 3)
        assert w["points"] == int(tile_sum * bonus)
    assert_paths_spell_words(doc)


def test_given_words_on_a_board_and_the_puzzle_override(tmp_path, capsys):
    """--words looks for those words only (found ones with a path, missing ones reported); --puzzle wordsearch
    reads the same picture as a word search."""
    image, truth = synth_board.random_board(3, "wordament")
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), image)
    found = next(r.word for r in boggle(truth["tiles"]) if len(r.word) >= 4)
    code = main(["solve", str(path), "--words", f"{found},zzzq", "--json", "-"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(w["word"], w["found"]) for w in doc["words"]] == [(found, True), ("zzzq", False)]
    assert main(["solve", str(path), "--puzzle", "wordsearch", "--words", "abc", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["puzzle_type"] == "wordsearch"


def test_puzzle_boggle_on_a_picture_without_a_board_exits_4(capsys):
    """A word-search page with --puzzle boggle: one clear line naming the file, exit code 4."""
    code = main(["solve", str(SAMPLES / "printable.png"), "--puzzle", "boggle"])
    err = capsys.readouterr().err
    assert code == 4
    assert err.count("\n") == 1 and "no Boggle/Wordament board found in" in err and "printable.png" in err


def test_an_unreadable_tile_is_reported_and_the_rest_solved():
    """A Wordament tile whose letter is painted over: reported unsure (read nothing), no word passes through it,
    every other tile still read and the board still solved."""
    image, truth = synth_board.random_board(0, "wordament")
    loc = find_board(image)
    corners = np.asarray(loc.corners)
    rect = np.array([[0, 0], [4, 0], [4, 4], [0, 4]], float)
    H = cv2.getPerspectiveTransform(corners.astype(np.float32), rect.astype(np.float32))
    centre = to_image(np.array([[1.5, 1.5]]), H)[0]
    pitch = np.linalg.norm(corners[1] - corners[0]) / 4
    x0, y0 = (centre - 0.3 * pitch).astype(int)
    x1, y1 = (centre + 0.35 * pitch).astype(int)
    face = image[int(centre[1] - 0.4 * pitch), int(centre[0])].tolist()
    image[y0:y1, x0:x1] = face  # the letter of tile (1, 1) is gone
    puzzle = solve_image(image, source="blank.png")[0]
    doc = puzzle.to_json()
    assert doc["grid"]["tiles"][1][1] == ""
    assert [u["cell"] for u in doc["grid"]["unsure"]] == [[1, 1]] and doc["grid"]["unsure"][0]["read"] is None
    others = [(r, c) for r in range(4) for c in range(4) if (r, c) != (1, 1)]
    assert all(doc["grid"]["tiles"][r][c] == truth["tiles"][r][c] for r, c in others)
    found = [w for w in doc["words"] if w["found"]]
    assert found and all([1, 1] not in w["path"] for w in found)


def test_unsure_tiles_list_the_words_each_alternative_would_add():
    """An unsure tile's alternatives: the words that would appear only if the tile were that alternative, each
    passing through the tile (real solver, shipped dictionary)."""
    tiles = [["C", "A", "T", "S"], ["O", "R", "E", "N"], ["D", "I", "L", "E"], ["M", "U", "S", "T"]]
    reading = BoardReading(tiles=tiles, points=[[None] * 4 for _ in range(4)], confidence=np.full((4, 4), 0.9),
                           alternatives=[[[] for _ in range(4)] for _ in range(4)], turns=[[0] * 4 for _ in range(4)])
    reading.confidence[0, 0] = 0.3
    reading.alternatives[0][0] = ["B"]

    def solve(board):
        return boggle(board)

    found = {r.word for r in solve(tiles)}
    report = unsure_tiles(reading, found, solve)
    assert [u["cell"] for u in report] == [[0, 0]] and report[0]["read"] == "C"
    extra = report[0]["words_needing"]["B"]
    assert extra and not set(extra) & found
    with_b = {r.word: r for r in solve([["B", *tiles[0][1:]], *tiles[1:]])}
    assert all((0, 0) in with_b[w].path for w in extra)


def test_word_score_follows_the_wordament_rule():
    points = [[1, 2], [3, 4]]
    assert word_score("ABC", [(0, 0), (0, 1), (1, 0)], points) == 6
    assert word_score("ABCDE", [(0, 0), (0, 1), (1, 0), (1, 1), (0, 0)], points) == int(11 * 1.5)
    assert word_score("AB", [(0, 0), (0, 1)], [[1, None], [3, 4]]) is None


def test_batch_mode_solves_a_board_through_the_same_call():
    """Batch's per-page task on the tray photo: a board JSON and an annotated image, the summary row filled."""
    if not TRAY.exists():
        pytest.skip("samples/boards/tray.jpg is not there")
    outcome = run_page(PageTask(str(TRAY), None, "tray"), Options(fmt="jpg"))
    assert outcome.error is None
    doc = outcome.docs["tray-1.json"]
    assert doc["puzzle_type"] == "boggle" and doc["grid"]["tiles"] == truth_of(TRAY)["tiles"]
    assert "tray-1.jpg" in outcome.images and outcome.rows[0]["words_found"] > 50
