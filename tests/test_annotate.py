"""annotate: ellipses follow the perspective of the original image, which keeps its size and orientation.

The test page is synthetic: a letter grid drawn flat, warped into a wider-than-tall canvas by a known homography,
so where every letter lands is known exactly; the words are found by the real solver.
"""
from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from scanner.annotate import annotate, palette, to_image, word_ellipse
from scanner.detect import GridLocation
from scanner.pipeline import PuzzleResult
from solver import solve

GRID = ["CATXQZWB",
        "OPENMKLR",
        "DXQTRYPU",
        "ESWZOVJN",
        "JKMNPOHK",
        "LQXWVBRD"]
CELL = 40
CORNERS = np.array([[150, 90], [820, 140], [760, 640], [110, 590]], float)  # TL TR BR BL: a tilted keystone


@pytest.fixture(scope="module")
def page():
    """(image 700x900 BGR, homography image -> rectified) for GRID drawn on a perspective-warped plane."""
    rows, cols = len(GRID), len(GRID[0])
    flat = np.full((rows * CELL, cols * CELL, 3), 255, np.uint8)
    for r, row in enumerate(GRID):
        for c, ch in enumerate(row):
            cv2.putText(flat, ch, (c * CELL + 10, r * CELL + 31), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 0), 2,
                        cv2.LINE_AA)
    src = np.array([[0, 0], [cols * CELL, 0], [cols * CELL, rows * CELL], [0, rows * CELL]], np.float32)
    to_page = cv2.getPerspectiveTransform(src, CORNERS.astype(np.float32))
    image = cv2.warpPerspective(flat, to_page, (900, 700), borderValue=(235, 225, 215))
    return image, np.linalg.inv(to_page)


def puzzle_for(homography, words, **extra) -> PuzzleResult:
    loc = GridLocation(corners=CORNERS, rows=len(GRID), cols=len(GRID[0]))
    return PuzzleResult(source="page", location=loc, reading=None, results=solve(GRID, words),
                        letters=[list(r) for r in GRID], corrections=[], homography=homography, cell_px=CELL,
                        **extra)


def centre_in_image(cell, homography) -> np.ndarray:
    point = (np.array([[cell[1], cell[0]]], float) + 0.5) * CELL
    return to_image(point, homography)[0]


def test_each_found_word_is_circled_on_the_original_page(page):
    image, H = page
    puzzle = puzzle_for(H, ["CAT", "OPEN", "RUNK", "ODE", "ROOT", "TWKL"])
    assert all(r.found for r in puzzle.results)
    out = annotate(image, [puzzle])
    assert out.shape == image.shape and out.dtype == np.uint8  # same resolution and orientation
    changed = np.any(out != image, axis=2)
    for res in puzzle.results:
        outline = to_image(word_ellipse(res.start, res.end, CELL), H)
        xs, ys = np.round(outline).astype(int).T
        assert changed[ys, xs].mean() > 0.9, res.word  # the outline is drawn where the ellipse maps
        poly = outline.astype(np.float32)
        for cell in (res.start, res.end):  # first and last letters are inside their ellipse
            x, y = centre_in_image(cell, H)
            assert cv2.pointPolygonTest(poly, (float(x), float(y)), True) > CELL * 0.25
    assert not changed[:60, :].any() and not changed[:, 860:].any()  # far from the grid nothing moves


def test_outlines_are_translucent_and_distinct(page):
    image, H = page
    puzzle = puzzle_for(H, ["CAT", "OPEN"])
    out = annotate(image, [puzzle])
    cat, open_ = puzzle.results
    colours = []
    for res in (cat, open_):
        outline = np.round(to_image(word_ellipse(res.start, res.end, CELL), H)).astype(int)
        # points on the outline away from the other word's ellipse
        samples = out[outline[:, 1], outline[:, 0]].astype(int)
        colours.append(np.median(samples, axis=0))
    assert np.abs(colours[0] - colours[1]).sum() > 60
    assert len(set(palette(12))) == 12
    # translucent: an outline pixel over the white page is lighter than the pure colour it was drawn in
    pure = np.array(palette(2)[0], int)
    assert np.all(colours[0] >= pure - 2)


def test_words_not_found_go_in_a_legend_below_the_untouched_page(page):
    image, H = page
    puzzle = puzzle_for(H, ["CAT", "ZEBRA", "YAK"])
    out = annotate(image, [puzzle])
    h, w = image.shape[:2]
    assert out.shape[1] == w and out.shape[0] > h  # a margin is added, the page is not rescaled
    found_only = annotate(image, [puzzle_for(H, ["CAT"])])
    assert np.array_equal(out[:h], found_only)  # original pixels keep their place
    legend = out[h:]
    assert (legend < 128).any()  # some text is written there


def test_word_list_region_is_framed_when_read_from_the_image(page):
    image, H = page
    region = [[300.0, 650.0], [600.0, 650.0], [600.0, 690.0], [300.0, 690.0]]
    word_list = SimpleNamespace(region=region, entries=[], words=["CAT"])
    out = annotate(image, [puzzle_for(H, ["CAT"], word_list=word_list, words_source="image",
                                                list_on_page=True)])
    changed = np.any(out != image, axis=2)
    assert changed[650, 350:550].mean() > 0.9 and changed[660:680, 300].mean() > 0.9
    plain = annotate(image, [puzzle_for(H, ["CAT"], word_list=word_list, words_source="image")])  # other image
    assert not np.any(plain[640:700, 290:610] != image[640:700, 290:610])


def test_one_word_alone_keeps_its_colour(page):
    """`only`: the word's ellipse alone, pixel for pixel as among all the answers; no legend for missing words."""
    image, H = page
    puzzle = puzzle_for(H, ["CAT", "OPEN", "ZEBRA"])
    every = annotate(image, [puzzle])
    alone = annotate(image, [puzzle], only="OPEN")
    assert alone.shape == image.shape  # ZEBRA is not found, but no legend is added
    outline = np.round(to_image(word_ellipse(puzzle.results[1].start, puzzle.results[1].end, CELL), H)).astype(int)
    xs, ys = outline.T
    assert np.array_equal(alone[ys, xs], every[ys, xs])  # OPEN drawn in its own colour, the same pixels
    cat = np.round(to_image(word_ellipse(puzzle.results[0].start, puzzle.results[0].end, CELL), H)).astype(int)
    assert (alone[cat[:, 1], cat[:, 0]] != every[cat[:, 1], cat[:, 0]]).any()  # CAT is not drawn
