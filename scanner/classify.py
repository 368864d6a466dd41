"""A letter classifier for degraded print: a small neural network that reads each cell's GREY image.

Tesseract reads cleaned, thresholded letters, and is excellent on print that thresholds cleanly. Dim, noisy,
blurred or tiny print does not: at 6-8 px a letter thresholds into a blob and the shape is gone, while the grey
levels still hold it. This classifier sees every cell as grey ink, centred on its ink and scaled so the grid's
median letter is LETTER_H px high, and gives a probability per letter. The OCR stage weighs it against
Tesseract's reading (see ocr._classifier_opinions).

The network is two layers over WINDOW x WINDOW pixels (NumPy only). There are three models: one for grids printed
in capitals, one for lower case (a bare bar is an I in one and an l in the other), and one for the faint grey
print of night photos; their weights ship in models/ and were trained by tools/train_letters.py on cells cut
from generated pages: every condition the generator makes (print and handwriting fonts, photos, scans, night
photos, small photos, newsprint), its lower-case pages for the lower-case model, and its night photos for the
faint model (which starts from the capitals model's weights).
"""
from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from scanner.imaging import one_blas_thread

WINDOW = 28  # px: the classifier's view of one cell
LETTER_H = 16  # px: the grid's median letter height in that view
MODELS = {"capitals": Path(__file__).parent / "models" / "letters.npz",  # grids printed in capitals
          "lower": Path(__file__).parent / "models" / "letters-lower.npz",  # in lower case
          "faint": Path(__file__).parent / "models" / "letters-faint.npz"}  # in capitals, faint (night photos)
CLASSES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SIZES = (0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2)  # letter heights size_cuts tries, as factors of the measured one
SHIFTS = ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))  # px (y, x): the windows steadied() reads
SURER_BY = 0.005  # see surest_model()


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
    pad = WINDOW + int(pitch)
    ink = cv2.copyMakeBorder(ink, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0.0)
    at = pad + (np.asarray(cells, dtype=np.float64).reshape(-1, 2) + 0.5) * pitch  # cell centres (y, x)
    reach = max(2, int(pitch / 2))
    around = crops(ink, at.astype(int) - reach, 2 * reach)
    weight = np.maximum(around - np.median(around, axis=(1, 2), keepdims=True), 0.0) ** 2
    total = weight.sum(axis=(1, 2))
    steps = np.arange(2 * reach)
    mass = np.stack([(weight.sum(axis=2) * steps).sum(axis=1), (weight.sum(axis=1) * steps).sum(axis=1)], axis=1)
    centre = at.astype(int) - reach + mass / np.maximum(total, 1e-9)[:, None]
    at = np.where(total[:, None] > 0, (at + centre) / 2, at)  # the ink's centre, pulled half-way back to the cell's
    return stretched(crops(ink, np.round(at).astype(int) - WINDOW // 2, WINDOW))


def stretched(windows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, WINDOW, WINDOW) float32 windows of ink (bright on 0) stretched as the classifier was trained on them:
    each window's 20th percentile (its paper) to 0 and its 99.5th (its darkest ink) to 1; and each window's contrast
    before the stretch."""
    low, high = np.percentile(windows, [20, 99.5], axis=(1, 2))
    out = (windows - low[:, None, None]) / np.maximum(high - low, 8.0)[:, None, None]
    return np.clip(out, 0.0, 1.0).astype(np.float32), (high - low).astype(np.float32)


def crops(image: np.ndarray, corners: np.ndarray, size: int) -> np.ndarray:
    """(n, size, size) squares of ``image`` whose top-left corners are ``corners`` (n, 2: y, x)."""
    steps = np.arange(size)
    ys = corners[:, 0, None, None] + steps[None, :, None]
    xs = corners[:, 1, None, None] + steps[None, None, :]
    return image[ys, xs]


@functools.cache
def _weights(model: str) -> dict[str, np.ndarray]:
    """The weights of ``model``, subnormal values set to 0: training leaves tens of thousands of weights too
    small for a normal float32, and BLAS multiplies by them about ten times slower (the spotter spent 8 s of a
    night page's 26 s list in forward()); at under 1e-38 they change no probability."""
    with np.load(MODELS[model]) as data:
        out = {name: data[name] for name in data.files}
    for w in out.values():
        w[np.abs(w) < np.finfo(w.dtype).tiny] = 0
    return out


def probabilities(windows: np.ndarray, model: str = "capitals") -> np.ndarray:
    """(n, len(CLASSES)) letter probabilities for (n, WINDOW, WINDOW) windows from cell_windows, by ``model``
    (a key of MODELS)."""
    return forward(_weights(model), windows)


def forward(w: dict[str, np.ndarray], windows: np.ndarray) -> np.ndarray:
    """probabilities() by the network of weights ``w`` (w1, b1, w2, b2)."""
    x = windows.reshape(len(windows), -1)
    with one_blas_thread():
        hidden = np.maximum(x @ w["w1"] + w["b1"], 0.0)
        logits = hidden @ w["w2"] + w["b2"]
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def size_cuts(flat: np.ndarray, cells: list[tuple[int, int]], cell_px: int, letter_px: float,
              sizes: tuple[float, ...] = SIZES) -> list[np.ndarray]:
    """cell_windows of ``cells`` cut at each of ``sizes`` times the letter height ``letter_px``: on noisy grids
    the measured height is unreliable (letter blobs merge with grid-line fragments and grain, up to 1.5 times too
    tall), and letters cut at the wrong size read badly while the model's confidence drops with them."""
    return [cell_windows(flat, cells, cell_px, letter_px * f)[0] for f in sizes]


def surest_size(cuts: list[np.ndarray], judged: np.ndarray, model: str = "capitals") -> np.ndarray:
    """steadied() probabilities of the windows of ``cuts`` (see size_cuts) that the model is surest of: the
    highest median top probability over the ``judged`` cells (the mean breaks ties). The classifier alone, at
    the measured height and this way (pages of seeds 200000+): 40 night photos 95.1% -> 98.1% of cells, 9
    hand-lettered pages 85.3% -> 86.2%, 10 small photos 96.0% -> 96.3%.
    """
    return steadied(max(cuts, key=lambda windows: sureness(probabilities(windows, model), judged)), model)


def surest_model(flat: np.ndarray, cells: list[tuple[int, int]], cell_px: int, letter_px: float,
                 judged: np.ndarray, models: tuple[str, ...]) -> np.ndarray:
    """surest_size() of ``cells`` cut at letter height ``letter_px`` by the first of ``models``, unless a later
    one is surer of the ``judged`` cells by more than SURER_BY.

    The faint path of the OCR takes night photos, but also some hand-lettered, small and newsprint photos; the
    model of night photos reads the first better, the capitals model (which learnt the others) the rest. Each is
    the surer on its own kind (at truth corners: 8 night photos 1,594 -> 1,641 cells of 1,706 against the
    capitals model alone, a hand-lettered page 78 of 81 where the night model reads 63), but where both are
    nearly certain the margin is small either way, and there the general model stands (a small photo and a
    newsprint page lost a cell each to the night model, which was surer by 0.005 and 0.001)."""
    cuts = size_cuts(flat, cells, cell_px, letter_px)
    best = None
    for model in models:
        p = surest_size(cuts, judged, model)
        if best is None or sureness(p, judged) > sureness(best, judged) + SURER_BY:
            best = p
    return best


def sureness(p: np.ndarray, judged: np.ndarray) -> float:
    """How sure a reading is of the ``judged`` cells: the median top probability (the mean breaks ties)."""
    top = p.max(axis=1)[judged]
    return float(np.median(top)) + 0.01 * float(np.mean(top))


def steadied(windows: np.ndarray, model: str = "capitals") -> np.ndarray:
    """probabilities() of ``windows`` and of the same windows moved by each of SHIFTS, combined (geometric
    mean): a reading that holds when the centring is a pixel off. 40 night photos at their surest size:
    97.8% -> 98.1% of cells (2 px shifts: 98.2%, but hand lettering 85.1% -> 84.7%)."""
    pad = max(max(abs(dy), abs(dx)) for dy, dx in SHIFTS)
    padded = np.pad(windows, ((0, 0), (pad, pad), (pad, pad)))
    size = windows.shape[1]
    log_p = sum(np.log(probabilities(padded[:, pad + dy:pad + dy + size, pad + dx:pad + dx + size], model) + 1e-9)
                for dy, dx in SHIFTS)
    p = np.exp(log_p / len(SHIFTS))
    return p / p.sum(axis=1, keepdims=True)
