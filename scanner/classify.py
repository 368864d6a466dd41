"""A letter classifier for degraded print: a small neural network that reads each cell's GREY image.

Tesseract reads cleaned, thresholded letters, and is excellent on print that thresholds cleanly. Dim, noisy,
blurred or tiny print does not: at 6-8 px a letter thresholds into a blob and the shape is gone, while the grey
levels still hold it. This classifier sees every cell as grey ink, centred on its ink and scaled so the grid's
median letter is LETTER_H px high, and gives a probability per capital letter. The OCR stage asks it about the
cells Tesseract is unsure of (see ocr.read_grid).

The network is two layers over WINDOW x WINDOW pixels (NumPy only); its weights ship in models/letters.npz and
were trained by tools/train_letters.py on cells cut from generated pages in every condition the generator
makes (print and handwriting fonts, photos, scans, night photos, small photos, newsprint).
"""
from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

WINDOW = 28  # px: the classifier's view of one cell
LETTER_H = 16  # px: the grid's median letter height in that view
MODEL = Path(__file__).parent / "models" / "letters.npz"
CLASSES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def cell_windows(flat: np.ndarray, cells: list[tuple[int, int]], cell_px: int,
                 letter_px: float) -> tuple[np.ndarray, np.ndarray]:
    """(len(cells), WINDOW, WINDOW) float32 ink images (0 paper .. 1 the window's darkest ink) of ``cells``,
    and each window's contrast before that stretch (grey levels from paper to ink: about 0 in a blank cell).

    ``flat``: the rectified grid with its lighting flattened (ink dark on 255). ``letter_px``: the grid's
    median letter height there. Each window is centred on its cell's ink (handwriting is not on a perfect
    lattice), looking no further than half a cell from the cell's centre.
    """
    scale = LETTER_H / max(letter_px, 1.0)
    ink = cv2.resize(255.0 - flat.astype(np.float32), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    pitch = cell_px * scale
    half = WINDOW // 2
    pad = WINDOW + int(pitch)
    ink = cv2.copyMakeBorder(ink, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0.0)
    out = np.zeros((len(cells), WINDOW, WINDOW), np.float32)
    contrast = np.zeros(len(cells), np.float32)
    reach = max(2, int(pitch / 2))
    for i, (r, c) in enumerate(cells):
        cy, cx = pad + (r + 0.5) * pitch, pad + (c + 0.5) * pitch
        y0, x0 = int(cy) - reach, int(cx) - reach
        around = ink[y0:y0 + 2 * reach, x0:x0 + 2 * reach]
        weight = np.maximum(around - np.percentile(around, 50), 0.0) ** 2
        total = float(weight.sum())
        if total > 0:  # the ink's centre of mass, pulled half-way back to the cell's centre
            ys, xs = np.mgrid[0:around.shape[0], 0:around.shape[1]]
            cy = (cy + y0 + float((weight * ys).sum()) / total) / 2
            cx = (cx + x0 + float((weight * xs).sum()) / total) / 2
        top, left = int(round(cy)) - half, int(round(cx)) - half
        window = ink[top:top + WINDOW, left:left + WINDOW]
        low, high = np.percentile(window, [20, 99.5])
        contrast[i] = high - low
        out[i] = np.clip((window - low) / max(high - low, 8.0), 0.0, 1.0)
    return out, contrast


@functools.cache
def _weights() -> dict[str, np.ndarray]:
    with np.load(MODEL) as data:
        return {name: data[name] for name in data.files}


def probabilities(windows: np.ndarray) -> np.ndarray:
    """(n, len(CLASSES)) letter probabilities for (n, WINDOW, WINDOW) windows from cell_windows."""
    w = _weights()
    x = windows.reshape(len(windows), -1)
    hidden = np.maximum(x @ w["w1"] + w["b1"], 0.0)
    logits = hidden @ w["w2"] + w["b2"]
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)
