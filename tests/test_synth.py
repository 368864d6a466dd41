"""The synthetic puzzle generator's truth must be exact: other tests and benchmarks score against it."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

from conftest import SAMPLES
from scanner import synth
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
