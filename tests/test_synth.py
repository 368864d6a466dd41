"""The synthetic puzzle generator's truth must be exact: other tests and benchmarks score against it."""
from __future__ import annotations

import functools
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

from conftest import SAMPLES
from tools import synth
from solver import solve
from solver.errors import BadInputError


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


def _grid_patch(image: np.ndarray, corners, size: int = 240) -> np.ndarray:
    """The grid area cut out through its truth corners and squared to size x size grey levels."""
    dst = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    hom = cv2.getPerspectiveTransform(np.float32(corners), dst)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.warpPerspective(gray, hom, (size, size)).astype(np.float32)


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))


def test_simulated_photo_corners_frame_the_same_grid():
    """Cutting the grid out of a photo through the mapped corners gives the page's grid: correlation > 0.9 for
    the geometry alone (rotation 25 deg, perspective), and the degradations do not move the corners."""
    puzzle = synth.make_puzzle(np.random.default_rng(7), 12, 12, synth.THEMES["Ocean"][:14])
    page, truth = synth.render_page(puzzle, font_path=synth.available_fonts()[0], cell_px=40)
    geometry = dict(rotation=25, perspective=0.06, out_size=(900, 700))
    clean, ctruth = synth.simulate_photo(page, truth, np.random.default_rng(8), blur=0, noise=0, shadow=0,
                                         jpeg_quality=None, **geometry)
    photo, ptruth = synth.simulate_photo(page, truth, np.random.default_rng(8), blur=1.0, noise=4, shadow=0.4,
                                         **geometry)
    h, w = photo.shape[:2]
    assert (w, h) == (900, 700) and ptruth["kind"] == "photo"
    corners = np.array(ptruth["corners"])
    assert np.all((corners >= 0) & (corners <= [w, h]))
    assert np.allclose(corners, ctruth["corners"])
    assert _correlation(_grid_patch(page, truth["corners"]), _grid_patch(clean, corners)) > 0.9
    assert not np.array_equal(clean, photo)


def test_random_cases_are_deterministic_and_consistent():
    for seed in range(4):
        image, truth = synth.random_case(seed)
        again, _ = synth.random_case(seed)
        assert np.array_equal(image, again)
        h, w = image.shape[:2]
        assert np.all((np.array(truth["corners"]) >= 0) & (np.array(truth["corners"]) <= [w, h]))
        assert len(truth["grid"]) == truth["rows"] and {len(r) for r in truth["grid"]} == {truth["cols"]}
        for word, p in zip(truth["words"], truth["placements"]):
            assert _spells(truth["grid"], p, word)
        json.dumps(truth)


def test_theme_words_are_not_inside_each_other():
    """make_puzzle needs each word to occur once; a word inside another from its theme would always fail."""
    for theme, words in synth.THEMES.items():
        letters = [synth.letters_of(w) for w in words]
        assert len(set(letters)) == len(letters), theme
        for a in letters:
            assert not any(a != b and (a in b or a[::-1] in b) for b in letters), (theme, a)


def test_save_case_writes_exif_rotated_photo_and_sidecar(tmp_path):
    """Orientation 6 stores the pixels sideways; applying the tag gives back the image the truth describes."""
    puzzle = synth.make_puzzle(np.random.default_rng(9), 8, 10, synth.THEMES["Kitchen"][:8])
    image, truth = synth.render_page(puzzle, font_path=synth.available_fonts()[-1], cell_px=30, lined=False)
    path = tmp_path / "case.png"
    written = synth.save_case(path, image, truth, exif_orientation=6)
    with Image.open(path) as stored:
        assert stored.size == (image.shape[0], image.shape[1]) and stored.getexif()[0x0112] == 6
        shown = cv2.cvtColor(np.asarray(ImageOps.exif_transpose(stored).convert("RGB")), cv2.COLOR_RGB2BGR)
    assert np.array_equal(shown, image)
    assert json.loads(path.with_name("case.png.json").read_text()) == written
    assert written["exif_orientation"] == 6 and written["image_size"] == [image.shape[1], image.shape[0]]


def test_bundled_samples_match_their_truth():
    """Every samples/ image has a sidecar whose size, shape, placements and corners agree with the image, and
    the solver finds each listed word at its placement."""
    images = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".png", ".jpg"))
    assert {p.name for p in images} >= {"printable.png", "photo.jpg", "gridless.png"}
    for path in images:
        truth = json.loads(path.with_name(path.name + ".json").read_text())
        with Image.open(path) as im:
            shown = ImageOps.exif_transpose(im)
            assert list(shown.size) == truth["image_size"], path.name
        corners = np.array(truth["corners"])
        assert np.all((corners >= 0) & (corners <= truth["image_size"])), path.name
        assert len(truth["grid"]) == truth["rows"] and {len(r) for r in truth["grid"]} == {truth["cols"]}
        for word, p in zip(truth["words"], truth["placements"], strict=True):
            assert _spells(truth["grid"], p, word), (path.name, word)
        for result, p in zip(solve(truth["grid"], truth["words"]), truth["placements"]):  # the solver agrees
            assert result.found and [list(c) for c in result.cells] == p["cells"], (path.name, result.word)
    with Image.open(SAMPLES / "photo.jpg") as photo:
        assert photo.size[0] * photo.size[1] >= 12_000_000
    grid_text, words_text = (SAMPLES / "puzzle.txt").read_text().split("\n\n")
    grid, words = grid_text.split(), words_text.split("\n")[:-1]
    assert all(len(synth.occurrences(grid, w)) == 1 for w in words)


def test_compose_pages_moves_each_puzzles_truth_onto_the_sheet():
    rng = np.random.default_rng(11)
    pages = [synth.render_page(synth.make_puzzle(rng, n, n, synth.THEMES[t][:8]), cell_px=30)
             for t, n in (("Garden", 9), ("Travel", 11), ("Music", 10))]
    sheet, truth = synth.compose_pages(pages, columns=2)
    assert [t["rows"] for t in truth["puzzles"]] == [9, 11, 10]
    for (page, page_truth), moved in zip(pages, truth["puzzles"]):
        assert _correlation(_grid_patch(page, page_truth["corners"]), _grid_patch(sheet, moved["corners"])) > 0.99
    photo, ptruth = synth.simulate_photo(sheet, truth, rng, rotation=-12, out_size=(1000, 800))
    for moved in ptruth["puzzles"]:
        assert np.all((np.array(moved["corners"]) >= 0) & (np.array(moved["corners"]) <= [1000, 800]))


def test_make_puzzle_refuses_words_that_cannot_be_unique():
    rng = np.random.default_rng(0)
    for words in (["ELEPHANT"], ["CAT", "CAT"], ["ASH", "WASHING"], ["RAT", "STAR"]):
        with pytest.raises(BadInputError):
            synth.make_puzzle(rng, 6, 6, words)


def test_pen_marks_leave_the_truth_alone_and_mark_the_page():
    puzzle = synth.make_puzzle(np.random.default_rng(12), 10, 10, synth.THEMES["Sports"][:10])
    page, truth = synth.render_page(puzzle, cell_px=30)
    marked, mtruth = synth.add_pen_marks(page, truth, np.random.default_rng(13), circled=1.0, scribbles=1)
    assert mtruth["pen_marks"] == truth["words"]
    assert mtruth["grid"] == truth["grid"] and mtruth["corners"] == truth["corners"]
    assert not np.array_equal(page, marked)


def _pitch(truth: dict) -> float:
    """Mean cell pitch in image px along the truth corners' edges."""
    c = np.array(truth["corners"])
    across = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2 / truth["cols"]
    down = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2 / truth["rows"]
    return float((across + down) / 2)


@functools.cache
def _condition(condition: str, seed: int) -> tuple[np.ndarray, dict]:
    return synth.condition_case(condition, seed)


@pytest.mark.parametrize("condition", synth.CONDITIONS)
def test_condition_cases_have_exact_truth(condition):
    """Each hard condition's truth: an upper-case grid in which the solver finds every word exactly once, at its
    placement; corners inside the image; the size it declares; a printed list except for nolist; and the same
    case again from the same seed."""
    for seed in (0, 1):
        image, truth = _condition(condition, seed)
        h, w = image.shape[:2]
        assert truth["image_size"] == [w, h] and truth["exif_orientation"] == 1
        assert truth["case"]["condition"] == condition and truth["case"]["seed"] == seed
        grid = truth["grid"]
        assert len(grid) == truth["rows"] and {len(r) for r in grid} == {truth["cols"]}
        assert all(row.isalpha() and row.isupper() and row.isascii() for row in grid)
        for word, p, res in zip(truth["words"], truth["placements"], solve(grid, truth["words"]), strict=True):
            assert _spells(grid, p, word)
            assert len(res.occurrences) == 1 and [list(c) for c in res.cells] in (p["cells"], p["cells"][::-1])
        corners = np.array(truth["corners"])
        assert np.all((corners >= 0) & (corners <= [w, h]))
        assert truth["list_in_image"] == ("no" if condition == "nolist" else "yes")
        assert bool(truth["word_list_region"]) == (condition != "nolist")
        json.dumps(truth)
    again, again_truth = synth.condition_case(condition, 1)  # not cached
    assert np.array_equal(image, again) and again_truth == truth


def test_unknown_condition_is_refused():
    with pytest.raises(BadInputError):
        synth.condition_case("sideways", 0)
    with pytest.raises(BadInputError):  # a turned page is an ordinary random page: no page options
        synth.condition_case("rotated", 0, grid_case="lower")


def test_page_options_force_a_condition_s_choices_and_keep_the_rest():
    """The letter trainer's hand-lettered pages in lower case: the same puzzle, font, jitter and photo as the
    condition draws from that seed, only printed in lower case."""
    image, truth = synth.condition_case("handwritten", 3)
    lower, lower_truth = synth.condition_case("handwritten", 3, grid_case="lower", list_case="lower")
    assert lower_truth["case"]["page"]["grid_case"] == "lower" and lower_truth["case"]["page"]["list_case"] == "lower"
    for key in ("grid", "words", "placements", "corners"):
        assert lower_truth[key] == truth[key]
    assert lower_truth["case"]["font"] == truth["case"]["font"] and not np.array_equal(lower, image)


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_rotate_quarter_keeps_the_grid_in_reading_order(turns):
    """The turned image cut through the turned corners (TL TR BR BL as read) gives back the upright grid."""
    puzzle = synth.make_puzzle(np.random.default_rng(21), 9, 12, synth.THEMES["Music"][:9])
    page, truth = synth.render_page(puzzle, cell_px=30)
    turned, ttruth = synth.rotate_quarter(page, truth, turns)
    h, w = page.shape[:2]
    assert ttruth["image_size"] == ([h, w] if turns % 2 else [w, h]) and ttruth["grid"] == truth["grid"]
    assert _correlation(_grid_patch(page, truth["corners"]), _grid_patch(turned, ttruth["corners"])) > 0.99
    region = np.array(ttruth["word_list_region"])
    assert np.all((region >= 0) & (region <= ttruth["image_size"]))


def test_rotated_condition_is_a_turned_page():
    for seed in range(2):
        image, truth = _condition("rotated", seed)
        assert truth["case"]["turned"] in (90, 180, 270)
        base, base_truth = synth.random_case(truth["case"]["base"]["seed"])
        assert truth["grid"] == base_truth["grid"]
        assert np.array_equal(synth.rotate_quarter(base, base_truth, truth["case"]["turned"] // 90)[0], image)


def test_lower_case_grid_prints_the_lower_case_letters():
    """grid_case="lower" draws exactly what an all-lower-case grid draws, and keeps the truth upper case."""
    puzzle = synth.make_puzzle(np.random.default_rng(22), 8, 8, synth.THEMES["Garden"][:6])
    lower = synth.Puzzle([row.lower() for row in puzzle.grid], puzzle.words, puzzle.placements)
    page, truth = synth.render_page(puzzle, cell_px=30, grid_case="lower")
    want, _ = synth.render_page(lower, cell_px=30)
    upper, _ = synth.render_page(puzzle, cell_px=30)
    assert np.array_equal(page, want) and not np.array_equal(page, upper)
    assert truth["grid"] == puzzle.grid


def test_hand_lettering_keeps_each_letter_in_its_cell():
    """Jitter 0.15 moves each letter's ink centre (within its cell) by at most 0.2 of the pitch from where the
    same letter prints without jitter."""
    puzzle = synth.make_puzzle(np.random.default_rng(23), 8, 8, synth.THEMES["Travel"][:6])
    opts = dict(font_path=synth.handwriting_fonts()[0], cell_px=40, lined=False, title=None, word_list_layout="none")
    plain, truth = synth.render_page(puzzle, **opts)
    hand, _ = synth.render_page(puzzle, **opts, jitter=0.15, rng=np.random.default_rng(1))
    assert not np.array_equal(plain, hand)
    x0, y0 = np.round(truth["corners"][0]).astype(int)
    yy, xx = np.mgrid[0:40, 0:40]
    moved = []
    for r in range(8):
        for c in range(8):
            centres = []
            for img in (plain, hand):
                ink = 255.0 - img[y0 + 40 * r:y0 + 40 * (r + 1), x0 + 40 * c:x0 + 40 * (c + 1), 0]
                centres.append(np.array([(ink * yy).sum(), (ink * xx).sum()]) / ink.sum())
            moved.append(np.linalg.norm(centres[0] - centres[1]))
    assert max(moved) < 0.2 * 40 * np.sqrt(2) and np.mean(moved) > 1.0


def test_condition_sizes_and_light():
    """small photos are 640x480..800x600 with cells 11-17 px apart; tiny grids 10-11.5 px; newsprint grids
    25-40 cells on grey paper; dim photos dark and warm."""
    for seed in range(2):
        image, truth = _condition("small", seed)
        assert 640 <= max(image.shape[:2]) <= 800 and 480 <= min(image.shape[:2]) <= 600
        assert 11 <= _pitch(truth) <= 17
        image, truth = _condition("tiny", seed)
        assert 9.5 <= _pitch(truth) <= 12
    image, truth = _condition("newsprint", 0)
    assert 25 <= min(truth["rows"], truth["cols"]) and max(truth["rows"], truth["cols"]) <= 40
    assert np.median(_grid_patch(image, truth["corners"])) < 225
    image, truth = _condition("dim", 0)
    patch = image.reshape(-1, 3).astype(float)
    assert patch.mean() < 110 and patch[:, 0].mean() < patch[:, 2].mean()  # dark, more red than blue


def test_page_options_force_a_random_case_s_choices_and_keep_the_rest():
    """The letter trainer prints some random pages in faces the generator does not draw: the same puzzle,
    layout and capture as the seed draws, in the face asked for."""
    image, truth = synth.random_case(5)
    face = synth.available_fonts()[-1]
    other, other_truth = synth.random_case(5, font_path=face)
    assert other_truth["font"] == Path(face).name != truth["font"]
    assert other_truth["grid"] == truth["grid"] and other_truth["case"] == truth["case"]
    assert not np.array_equal(other, image)


@pytest.mark.parametrize("condition", ["dim", "small"])
def test_a_finished_picture_put_into_a_condition(condition):
    """bench/accuracy.py --corpus-conditions: a picture (here a rendered page, cells 64 px apart) made a night
    photo (dark, warm, cells 18-36 px apart unless that would make it under 640 px long) or a small photo
    (640-800 px long, cells at least 12 px apart); the same seed draws the same picture."""
    page, truth = synth.render_page(synth.make_puzzle(np.random.default_rng(0), 15, 15, ["APPLE"]), cell_px=64)
    image, how = synth.in_condition(page, condition, 64.0, np.random.default_rng(1))
    again, _ = synth.in_condition(page, condition, 64.0, np.random.default_rng(1))
    assert np.array_equal(image, again) and how["scale"] < 1
    pitch = 64 * how["scale"]
    if condition == "dim":
        assert 18 <= pitch <= 36 or max(image.shape[:2]) == 640
        assert image.mean() < 0.6 * page.mean() and image[..., 0].mean() < image[..., 2].mean()
    else:
        assert 640 <= max(image.shape[:2]) <= 800 and pitch >= 12
    with pytest.raises(BadInputError):
        synth.in_condition(page, "newsprint", 64.0, np.random.default_rng(1))


@pytest.mark.parametrize("condition", ["rotated", "handwritten"])
def test_word_boxes_hold_each_listed_word_s_ink(condition):
    """The truth's ``word_boxes`` (each listed word's ink, its number or bullet left out) and ``entry_boxes``
    (with it) move with the page as the grid's corners do, turned or not: each word box lies inside its entry box
    on the picture, and holds ink: its darkest pixel well under the paper round it."""
    image, truth = synth.condition_case(condition, 7)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert len(truth["word_boxes"]) == len(truth["entry_boxes"]) == len(truth["words"])
    for word, entry in zip(truth["word_boxes"], truth["entry_boxes"]):
        w, e = np.asarray(word, np.float64), np.asarray(entry, np.float64)
        assert (w.min(0) >= e.min(0) - 1).all() and (w.max(0) <= e.max(0) + 1).all()
        x0, y0 = np.floor(w.min(0)).astype(int)
        x1, y1 = np.ceil(w.max(0)).astype(int)
        inside = gray[max(y0, 0):y1, max(x0, 0):x1]
        pad = max(y1 - y0, x1 - x0)
        around = gray[max(y0 - pad, 0):y1 + pad, max(x0 - pad, 0):x1 + pad]
        assert inside.size and inside.min() < np.percentile(around, 90) - 30, word


def test_a_page_can_draw_its_list_from_other_words():
    """``themes`` replaces the generator's themes (the word reader's training pages list words the benchmarks
    never use): the page lists the given words, and its truth places each of them."""
    words = ["ORBIT", "LANTERN", "MEADOW", "QUILL", "HARBOR", "TIMBER"]
    image, truth = synth.random_case(11, themes={"Other": words})
    assert set(truth["words"]) <= set(words) and truth["words"]
    for word in truth["words"]:
        assert synth.occurrences([row.replace(" ", "") for row in truth["grid"]], word)
