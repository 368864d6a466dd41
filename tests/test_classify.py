"""scanner.classify, the grey-level letter classifier, on generated pages it was not trained on.

Pages come from tools.synth's hard conditions with seeds from 300000 (training used 100000-101439, and
110000-110659 for the model of night photos), cut at their truth corners as detection would find them.
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner import classify, ocr
from scanner.detect import GridLocation, rectify
from scanner.engine import get_engine
from scanner.pipeline import CELL_PX
from tools.synth import condition_case


def truth_grid(condition: str, seed: int) -> tuple[np.ndarray, dict]:
    """The page's grid rectified at its truth corners, and its truth."""
    image, truth = condition_case(condition, seed)
    loc = GridLocation(np.asarray(truth["corners"], dtype=np.float64), truth["rows"], truth["cols"],
                       bool(truth.get("inverted")))
    return rectify(image, loc, cell_px=CELL_PX)[0], truth


def right(rows: list[str], truth: list[str]) -> float:
    return float(np.mean([a == b for row, want in zip(rows, truth) for a, b in zip(row, want)]))


def test_windows_centre_the_ink_and_scale_it_to_the_letter_height():
    flat = np.full((3 * CELL_PX, 3 * CELL_PX), 255, np.uint8)
    cv2.rectangle(flat, (CELL_PX + 36, CELL_PX + 20), (CELL_PX + 43, CELL_PX + 51), 0, -1)  # an I right of centre
    window = classify.cell_windows(flat, [(1, 1)], CELL_PX, letter_px=32)[0][0]
    ys, xs = np.nonzero(window > 0.5)
    assert abs((ys.min() + ys.max()) / 2 - classify.WINDOW / 2) <= 1.5
    assert abs((xs.min() + xs.max()) / 2 - classify.WINDOW / 2) <= 3  # pulled half-way: 4 px of 8 remain at most
    assert abs(ys.max() - ys.min() + 1 - classify.LETTER_H) <= 1
    assert window.max() == pytest.approx(1.0) and window.min() == pytest.approx(0.0)


@pytest.mark.parametrize("condition, threshold", [("dim", 0.85), ("small", 0.9), ("handwritten", 0.8)])
def test_classifier_reads_hard_conditions(condition, threshold):
    """The classifier alone, on six unseen pages per condition: mean share of cells right at least
    ``threshold`` (measured on seeds 300000-300005: dim 91%, small 99%, handwritten 91%; the
    scanner without it read 61%, 85% and 90% of the cells of bench/accuracy.py --conditions 5)."""
    scores = []
    for seed in range(300000, 300006):
        rectified, truth = truth_grid(condition, seed)
        rows, cols = truth["rows"], truth["cols"]
        flat = ocr.prepared(rectified, CELL_PX)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        height = ocr.letter_height(ocr.grid_masks(flat, rows, cols, CELL_PX), CELL_PX)
        windows, _ = classify.cell_windows(flat, cells, CELL_PX, height)
        p = classify.probabilities(windows)
        letters = "".join(classify.CLASSES[i] for i in p.argmax(axis=1))
        scores.append(right([letters[r * cols:(r + 1) * cols] for r in range(rows)], truth["grid"]))
    assert np.mean(scores) >= threshold, scores


def test_surest_size_reads_night_photos_whose_letter_height_is_mismeasured():
    """Letter blobs of a noisy grid merge with grid-line fragments and grain, so the measured height can be 1.5
    times too tall: given 1.4 times the measured height, the classifier at its surest size still reads the six
    unseen night photos (seeds 300000-300005: measured 93.4%; at the given height alone 91.1%, and 1.4 times
    that leaves letters too small to read)."""
    scores = []
    for seed in range(300000, 300006):
        rectified, truth = truth_grid("dim", seed)
        rows, cols = truth["rows"], truth["cols"]
        flat = ocr.prepared(rectified, CELL_PX)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        height = 1.4 * ocr.letter_height(ocr.grid_masks(flat, rows, cols, CELL_PX), CELL_PX)
        _, contrast = classify.cell_windows(flat, cells, CELL_PX, height)
        p = classify.surest_size(classify.size_cuts(flat, cells, CELL_PX, height),
                                 contrast >= 0.3 * np.median(contrast))
        letters = "".join(classify.CLASSES[i] for i in p.argmax(axis=1))
        scores.append(right([letters[r * cols:(r + 1) * cols] for r in range(rows)], truth["grid"]))
    assert np.mean(scores) >= 0.92, scores


def night_photo_share(seeds: range, model: str) -> list[float]:
    """Share of cells right per night photo (dim condition, truth corners) by ``model`` at its surest size."""
    scores = []
    for seed in seeds:
        rectified, truth = truth_grid("dim", seed)
        rows, cols = truth["rows"], truth["cols"]
        flat = ocr.prepared(rectified, CELL_PX)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        height = ocr.letter_height(ocr.grid_masks(flat, rows, cols, CELL_PX), CELL_PX)
        _, contrast = classify.cell_windows(flat, cells, CELL_PX, height)
        p = classify.surest_size(classify.size_cuts(flat, cells, CELL_PX, height),
                                 contrast >= 0.3 * np.median(contrast), model)
        letters = "".join(classify.CLASSES[i] for i in p.argmax(axis=1))
        scores.append(right([letters[r * cols:(r + 1) * cols] for r in range(rows)], truth["grid"]))
    return scores


def test_faint_model_reads_night_photos_better_than_the_capitals_model():
    """The model trained on night photos (seeds 110000+), at its surest size, on twelve unseen night photos
    (seeds 300000-300011): mean share of cells right at least 0.95, and above the capitals model's
    (measured 97.1% against 96.2%; one page, seed 300002, is a 12x12 grid of 9 px letters at JPEG 33 that
    neither reads past 71%)."""
    faint = night_photo_share(range(300000, 300012), "faint")
    capitals = night_photo_share(range(300000, 300012), "capitals")
    assert np.mean(faint) >= 0.95 and np.mean(faint) > np.mean(capitals), (faint, capitals)


def test_steadied_reading_is_a_distribution_that_ignores_a_pixel_of_shift():
    flat = np.full((3 * CELL_PX, 3 * CELL_PX), 255, np.uint8)
    cv2.putText(flat, "E", (CELL_PX + 18, 2 * CELL_PX - 16), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 0, 4)
    windows, _ = classify.cell_windows(flat, [(1, 1)], CELL_PX, letter_px=30)
    p = classify.steadied(windows)
    assert p.shape == (1, len(classify.CLASSES)) and p.sum() == pytest.approx(1.0)
    assert classify.CLASSES[int(p.argmax())] == "E"
    moved = classify.steadied(np.roll(windows, 1, axis=2))
    assert classify.CLASSES[int(moved.argmax())] == "E"


@pytest.mark.parametrize("condition, seeds, threshold", [
    # night photos: measured 93.3% (seeds 300003-300005 alone: 97.6%; with the capitals model on the faint path
    # 92.4% and 96.3%); without the faint-grid reading at the classifier's surest letter size 87.1%, and the
    # scanner without the classifier read 61% of the dim pages of bench/accuracy.py --conditions 5
    ("dim", range(300000, 300006), 0.91),
    # lower case, with the lower-case model: measured 98.5% (the model before: 97.5%), without the classifier 94.7%
    # of the same cells
    ("lowercase", range(300000, 300004), 0.96),
])
def test_read_grid_with_the_classifier(condition, seeds, threshold):
    """Tesseract with the classifier's opinions: mean share of cells right on unseen pages at least
    ``threshold``."""
    engine = get_engine()
    scores = []
    for seed in seeds:
        rectified, truth = truth_grid(condition, seed)
        reading = ocr.read_grid(rectified, truth["rows"], truth["cols"], cell_px=CELL_PX, engine=engine,
                                lower=condition == "lowercase")
        scores.append(right(reading.rows, truth["grid"]))
    assert np.mean(scores) >= threshold, scores
