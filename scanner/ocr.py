"""Read a rectified letter grid: one letter, a confidence and alternatives per cell.

Every cell is cleaned first (flatten the lighting, median-filter grainy images, threshold, drop grid-line
remnants and specks, keep the letter blob nearest the cell centre, crop it and rescale it to a fixed height;
narrow the letters of very wide fonts), then all cells are pasted into ONE composite image, a slot per cell
with gaps between them, and Tesseract reads that image once.
Each recognised symbol goes back to the cell whose slot holds its box centre. Cells left empty or read as
garbage are re-read one by one as single characters (cheap in process) and get a lower confidence; unsure
cells get a second opinion from the LSTM engine; unsure cells outvoted by their look-alikes in the same grid
take the look-alikes' letter; small shape checks settle O vs Q, K vs R and the bare I.
With the pytesseract engine that is at most three tesseract runs per grid, never one per cell.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import cv2
import numpy as np

from scanner import classify, imaging
from scanner.engine import Engine, Symbol, get_engine

DEFAULT_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LETTER_PX = 32  # letter height in the composite image
SLOT_W = 2 * LETTER_PX  # a slot holds the widest letter (width capped at 1.6 x height)
GAP = 20  # white space between slots of the composite
LINE_GAP = 28  # white space between its lines (room for tails and accents)
SHARPEN_SIGMA, SHARPEN_AMOUNT = 16, 2.0
INK_LEVEL = 0.5  # re-threshold a rescaled letter this far from its darkest pixel to the paper
MIN_STROKE = 5  # px: narrower letters (a thin I) are thickened for Tesseract
MAX_ALTERNATIVES = 3
ALT_WINDOW = 30.0  # alternatives: choices within this many points (0..100) of the best
ODDS_FLOOR = 0.01  # a confidence counts as at least this in GridReading.unsure's odds
CAL_ZERO, CAL_SPAN = 0.38, 0.6  # see calibrate()
SECOND_OPINION_BELOW = 0.68  # raw confidence under which the LSTM engine is asked too (calibrated 0.5)
BAR_CONF = 0.6  # confidence of an I recognised by its shape alone
FALLBACK_CONF = 0.55  # a cell read in the composite below this (0..1) is re-read on its own
HOLE_AREA = 0.03  # see holes()
WIDE_FONT, WIDE_FONT_TO = 1.1, 0.8  # see narrowed()
GRAIN_LEVEL, GRAIN_MEDIAN = 6.0, 13  # see denoise()
THICK_LINE, LINE_BAND = 3, 0.2  # see unruled()
LOOK_ALIKE, SURE, OUTVOTE = 0.9, 0.85, 0.1  # see _same_shapes()
BARS = ("l", "I", "|")  # see _normalise()
# see _classifier_opinions()
DEGRADED_BELOW, CLASSIFIER_SURE, CLASSIFIER_SURE_MOSTLY, CLASSIFIER_OVERRIDES = 0.6, 0.92, 0.7, 0.95
BLANK_CONTRAST, INK_CONTRAST, GIVES_WAY, LOWER_UNSURE = 0.3, 12.0, 0.5, 0.2
# Blur swells thresholded letters, and rules that touch them add to their height (a blurred ruled lower-case grid's
# measured 0.75 of a cell, for 0.5; a small photo's bold capitals, each in its own box, 48 px for 35): a grid
# Tesseract is unsure of is also cut smaller (never larger, where letters fill the window and the model is near
# certain of nonsense), and the surest size taken when the model is SMALLER_SURER surer of it than of the measured
# one (the boxed capitals: 0.83 sure at the measured size, 170 of 210 cells; 0.999 at 0.7 of it, all 210).
SMALLER_SIZES, SMALLER_SURER = tuple(f for f in classify.SIZES if f < 1.0), 0.1
# A grid Tesseract is unsure of is in the other case where the classifier's model of that case is CASE_SURER surer
# of its cells: Tesseract read a small photo's blurred bold lower case as O's and A's, capitals, where the capitals
# model was 0.51 sure and the lower-case one 0.94 (capitals grids of night, small and hand-lettered photos: the
# capitals model 0.94-1.0, the lower-case one 0.61-0.93; an illegible night photo 0.64 and 0.75).
CASE_SURER = 0.25
FAINT_INK = 150.0  # grey levels from paper to ink of a grid's median cell under which its print is faint
LOWER_SHAPES = "abdefghmnqrty"  # lower-case letters unlike their capitals (see printed_lower())


@dataclass
class GridReading:
    """The letters of a grid as read, with confidence (0..1) and alternative readings per cell."""

    letters: list[list[str]]
    confidence: np.ndarray
    alternatives: list[list[dict[str, float]]]

    @property
    def rows(self) -> list[str]:
        return ["".join(row) for row in self.letters]

    def low_confidence(self, threshold: float = 0.5) -> list[tuple[int, int]]:
        """Cells read with a confidence below ``threshold``, in reading order."""
        return [(int(r), int(c)) for r, c in zip(*np.nonzero(self.confidence < threshold))]

    def unsure(self, threshold: float = 0.5) -> tuple[tuple[int, int, str, float], ...]:
        """(row, column, letter, odds) of each other letter a cell read with a confidence below ``threshold`` may
        be; odds: how much likelier the cell is the letter read, in nats (log of the ratio of their confidences;
        0 where the other letter is as likely)."""
        def odds(r: int, c: int, p: float) -> float:
            return max(0.0, float(np.log(max(self.confidence[r, c], ODDS_FLOOR) / max(p, ODDS_FLOOR))))

        return tuple((r, c, alt, odds(r, c, p)) for r, c in self.low_confidence(threshold)
                     for alt, p in self.alternatives[r][c].items() if alt != self.letters[r][c] and len(alt) == 1)


def flatten(gray: np.ndarray, cell_px: int) -> np.ndarray:
    """Divide out the paper's brightness so ink is dark on a flat 255: the paper is the local maximum over
    about a cell, taken on a quarter-size median-filtered copy (so noise peaks do not count, and it is fast)."""
    return imaging.flatten(gray, imaging.paper(gray, int(cell_px * 0.9 / 4), shrink=4, premedian=3,
                                               sigma=max(1.0, cell_px / 12)))


def denoise(flat: np.ndarray, cell_px: int) -> np.ndarray:
    """A median filter a thirteenth of a cell wide (5 px at 64 px cells), for grainy images only (it would
    round off clean serifs): sharpening would otherwise turn the grain into specks and streaks across the
    letters (corpus: typewriter scan 42 -> 51 of 64 cells, grainy render 214 -> 219 of 225)."""
    if imaging.grain(flat) < GRAIN_LEVEL:
        return flat
    return cv2.medianBlur(flat, max(3, cell_px // GRAIN_MEDIAN) | 1)


def sharpen(flat: np.ndarray, cell_px: int) -> np.ndarray:
    """Unsharp mask at about a stroke's width: blurred photos of small print have strokes that merge."""
    return imaging.sharpen(flat, cell_px / SHARPEN_SIGMA, SHARPEN_AMOUNT)


def grid_lines(ink: np.ndarray, cell_px: int, length: float = 1.0, band: float = 0.5, *,
               thinner: float = 0.0) -> np.ndarray:
    """Boolean mask of straight ink runs at least ``length`` cells long (grid lines), widened by their soft
    edges. Only runs within ``band`` cells of a cell boundary count (0.5: anywhere), and, given ``thinner``,
    only runs whose ink is mostly thinner than that many cells across (a rule, not letters run together)."""
    run = max(5, int(cell_px * length))
    horizontal, vertical = _runs(ink, (run, 1), thinner * cell_px), _runs(ink, (1, run), thinner * cell_px)
    if band < 0.5:
        def off_band(n: int) -> np.ndarray:
            offset = (np.arange(n) + 0.5) % cell_px / cell_px
            return np.minimum(offset, 1 - offset) > band
        horizontal[off_band(ink.shape[0]), :] = 0
        vertical[:, off_band(ink.shape[1])] = 0
    edge = max(3, cell_px // 12) | 1
    return cv2.dilate(horizontal | vertical, np.ones((edge, edge), np.uint8)) > 0


def _runs(ink: np.ndarray, kernel: tuple[int, int], thinner: float) -> np.ndarray:
    """The straight runs of ``ink`` a ``kernel`` (width, height) long, less those whose ink is mostly at least
    ``thinner`` px thick across them (none are dropped at 0)."""
    runs = cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, kernel))
    if thinner < 1 or not runs.any():
        return runs
    across = (1, round(thinner)) if kernel[0] > kernel[1] else (round(thinner), 1)
    thick = cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, across)) > 0
    count, labels = cv2.connectedComponents(runs)
    share = np.bincount(labels.ravel(), thick.ravel(), count) / np.bincount(labels.ravel(), minlength=count)
    return np.where((share[labels] < 0.5) & (labels > 0), runs, 0).astype(runs.dtype)


def _rough_ink(flat: np.ndarray, cell_px: int) -> tuple[np.ndarray, np.ndarray]:
    """(``flat`` lightly smoothed, which tames noise specks; its ink (255) by Otsu's threshold, lines and all)."""
    smooth = cv2.GaussianBlur(flat, (0, 0), max(0.5, cell_px / 40))
    _, rough = cv2.threshold(smooth, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    return smooth, rough


def unruled(flat: np.ndarray, cell_px: int) -> np.ndarray:
    """``flat`` with its grid lines and frame painted over with paper: straight runs a cell long within
    LINE_BAND of a cell boundary (a letter's stem beside a shaded cell's edge also runs a cell long), and not in
    dark expanses a THICK_LINE-th of a cell thick both ways (the table or shadow beyond the page's edge: painting
    them over would take the letters beside them too)."""
    _, rough = _rough_ink(flat, cell_px)
    k = max(3, cell_px // THICK_LINE)
    expanse = cv2.dilate(cv2.morphologyEx(rough, cv2.MORPH_OPEN, np.ones((k, k), np.uint8)), np.ones((k, k), np.uint8))
    out = flat.copy()
    out[grid_lines(rough, cell_px, band=LINE_BAND) & (expanse == 0)] = 255
    return out


def ink_mask(flat: np.ndarray, cell_px: int) -> np.ndarray:
    """Ink (255) vs paper (0), with the grid lines removed.

    The threshold is chosen without the grid lines, so dark heavy lines do not push pale letters into the
    paper class; lines that only show at that lighter threshold are found and removed in a second pass.
    """
    smooth, rough = _rough_ink(flat, cell_px)
    lines = grid_lines(rough, cell_px)
    rest = smooth[~lines]
    if rest.size == 0 or float(rest.max()) - float(rest.min()) < 40:
        return np.zeros_like(rough)  # blank
    threshold, _ = cv2.threshold(rest.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    ink = ((smooth <= threshold) & ~lines).astype(np.uint8) * 255
    if np.count_nonzero(ink) > 0.5 * rest.size:
        return np.zeros_like(rough)  # no letters: Otsu split the noise
    # The lighter threshold also catches the lines' soft edges, cut at every crossing into runs a bit
    # shorter than a cell: take those near the cell boundaries only, where no letter stroke runs that long.
    ink[grid_lines(ink, cell_px, 0.75, band=0.2)] = 0
    return ink


def letter_masks(ink: np.ndarray, rows: int, cols: int, cell_px: int,
                 accents: bool = False) -> dict[tuple[int, int], tuple[int, int, np.ndarray]]:
    """The letter of each cell that has one: (top, left, boolean mask cropped to the letter) in ``ink``
    coordinates.

    Every ink blob belongs to the cell holding its centre. A cell's letter is its largest blob near the
    centre plus the pieces that belong to it (accents, the tail of a Q, strokes broken by thresholding);
    thin blobs along the cell border (grid-line remnants) and specks are dropped. With ``accents``, smaller
    pieces right over or under the letter are kept too (an acute accent can be 2% of its E).
    """
    n, labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    x, y, w, h, area = (stats[1:, i].astype(np.float64) for i in range(5))
    col = (centres[1:, 0] // cell_px).astype(int)
    row = (centres[1:, 1] // cell_px).astype(int)
    half = cell_px / 2
    dx = (centres[1:, 0] - (col + 0.5) * cell_px) / half
    dy = (centres[1:, 1] - (row + 0.5) * cell_px) / half
    thin = np.minimum(w, h) < 0.12 * cell_px
    remnant = thin & (np.maximum(abs(dx), abs(dy)) > 0.7) & (np.maximum(w, h) > 0.3 * cell_px)
    # Shorter thin blobs along a cell's edge, lying along it: pieces of a faint rule that broke up, unless they
    # touch the letter (see below).
    flat_edge = thin & (abs(dy) > 0.7) & (w >= 2.5 * h)
    tall_edge = thin & (abs(dx) > 0.7) & (h >= 2.5 * w)
    usable = (area >= max(3.0, (0.05 * cell_px) ** 2)) & ~remnant & (row >= 0) & (row < rows) & \
             (col >= 0) & (col < cols)
    score = area * np.maximum(0.05, 1.0 - np.hypot(dx, dy) / 1.2)
    by_cell: dict[tuple[int, int], list[int]] = {}
    for i in np.nonzero(usable)[0]:
        by_cell.setdefault((int(row[i]), int(col[i])), []).append(int(i))
    found = {}
    bridge = max(2.0, 0.08 * cell_px)
    for cell, members in by_cell.items():
        main = max(members, key=lambda i: score[i])
        keep = [main]
        for i in members:
            if i == main:
                continue
            gap_x = max(0.0, max(x[i], x[main]) - min(x[i] + w[i], x[main] + w[main]))
            gap_y = max(0.0, max(y[i], y[main]) - min(y[i] + h[i], y[main] + h[main]))
            stacked = accents and gap_x == 0 and gap_y > 0
            dash = flat_edge[i] and gap_y > 0 or tall_edge[i] and gap_x > 0  # a rule's piece, apart from the letter
            if area[i] >= (0.02 if stacked else 0.06) * area[main] and gap_x <= bridge and gap_y <= 0.25 * cell_px \
                    and not dash:
                keep.append(i)
        top, left = int(min(y[keep])), int(min(x[keep]))
        bottom, right = int(max(y[keep] + h[keep])), int(max(x[keep] + w[keep]))
        found[cell] = top, left, np.isin(labels[top:bottom, left:right], [i + 1 for i in keep])
    return found


def grid_masks(flat: np.ndarray, rows: int, cols: int, cell_px: int,
               accents: bool = False) -> dict[tuple[int, int], tuple[int, int, np.ndarray]]:
    """The letter of each cell of a prepared grid that has one (see letter_masks), grid lines removed."""
    return letter_masks(ink_mask(flat, cell_px), rows, cols, cell_px, accents)


def letter_height(found: dict[tuple[int, int], tuple[int, int, np.ndarray]], cell_px: int) -> float:
    """The median height in px of the letters ``found`` by letter_masks (half a cell when there are none)."""
    return float(np.median([mask.shape[0] for _, _, mask in found.values()])) if found else cell_px / 2


def letter_image(flat: np.ndarray, top: int, left: int, mask: np.ndarray, scale: float) -> np.ndarray:
    """The letter (``mask`` placed at top, left of ``flat``) scaled by ``scale``, ink 0 on 255,
    re-thresholded at that size.

    Scaling the gray crop and thresholding afterwards keeps small letters smooth instead of blocky. The
    result is at most 1.5 x LETTER_PX high and 1.6 x LETTER_PX wide (a blob merged with junk is shrunk).
    """
    h, w = mask.shape
    near = cv2.dilate(np.pad(mask, 1).astype(np.uint8), np.ones((3, 3), np.uint8))
    y0, x0 = top - 1, left - 1
    gray = np.full(near.shape, 255, np.uint8)
    sy0, sx0 = max(0, y0), max(0, x0)
    sy1, sx1 = min(flat.shape[0], y0 + h + 2), min(flat.shape[1], x0 + w + 2)
    gray[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = flat[sy0:sy1, sx0:sx1]
    gray[near == 0] = 255
    values = gray[1:-1, 1:-1][mask]
    darkest = float(np.partition(values, len(values) // 20)[len(values) // 20])  # 5th percentile
    scale = min(scale, 1.5 * LETTER_PX / h, 1.6 * LETTER_PX / w)
    size = (max(1, round(gray.shape[1] * scale)), max(1, round(gray.shape[0] * scale)))
    big = cv2.resize(gray, size, interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA)
    # Thresholding the scaled gray keeps small letters smooth. If that splits the letter into more pieces
    # than it had (thin serif hairlines, e.g. a D into "I)"), a lighter threshold keeps the hairlines.
    pieces = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)[0]
    for level in (INK_LEVEL, 0.5 * (1 + INK_LEVEL)):
        out = np.where(big < darkest + level * (255.0 - darkest), 0, 255).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(255 - out, connectivity=8)
        if n <= pieces:
            break
    for width in (3, 5, 7):  # side-by-side pieces (a D broken into "I)") are one letter: bridge them
        if n <= 2 or _stacked_pieces(stats):
            break
        out = cv2.erode(out, np.ones((1, width), np.uint8))
        out = cv2.dilate(out, np.ones((1, width), np.uint8))
        n, _, stats, _ = cv2.connectedComponentsWithStats(255 - out, connectivity=8)
    ys, xs = np.nonzero(out == 0)
    if len(ys) == 0:
        return out
    out = out[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    if out.shape[1] < MIN_STROKE:  # Tesseract drops bars thinner than this (a thin I)
        out = cv2.erode(cv2.copyMakeBorder(out, 0, 0, 2, 2, cv2.BORDER_CONSTANT, value=255), np.ones((1, 3), np.uint8))
    return out


def _stacked_pieces(stats: np.ndarray) -> bool:
    """Do the pieces of a letter sit over one another (accents, the dots of a diaeresis) rather than side
    by side? Only side-by-side pieces are bridged."""
    main = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    top, bottom = stats[main, 1], stats[main, 1] + stats[main, 3]
    return all(stats[i, 1] + stats[i, 3] <= top + 1 or stats[i, 1] >= bottom - 1
               for i in range(1, len(stats)) if i != main)


def composite(letters: dict[tuple[int, int], tuple[np.ndarray, int]], rows: int, cols: int) -> np.ndarray:
    """All letter images on one page: cell (r, c) centred in slot (r, c), slots GAP px apart.

    ``letters`` maps a cell to (image, dy): dy shifts the letter down from the slot's top (cap line), so
    tails (Q, J) and accents keep their place relative to the other letters of the row.
    """
    pitch_y = LETTER_PX + LINE_GAP
    page = np.full((rows * pitch_y + LINE_GAP, cols * (SLOT_W + GAP) + GAP), 255, np.uint8)
    for (r, c), (img, dy) in letters.items():
        h, w = img.shape
        x = GAP + c * (SLOT_W + GAP) + (SLOT_W - w) // 2
        y = LINE_GAP + r * pitch_y + dy
        y = min(max(y, LINE_GAP // 3 + r * pitch_y), (r + 1) * pitch_y + LINE_GAP * 2 // 3 - h)
        page[y:y + h, x:x + w] = np.minimum(page[y:y + h, x:x + w], img)
    return page


def slot_of(symbol: Symbol) -> tuple[int, int]:
    """The (row, col) of the composite slot that holds the symbol's box centre."""
    x, y = symbol.centre
    return int((y - LINE_GAP / 2) // (LETTER_PX + LINE_GAP)), int((x - GAP / 2) // (SLOT_W + GAP))


def clean_letters(flat: np.ndarray, found: dict[tuple[int, int], tuple[int, int, np.ndarray]],
                  cell_px: int) -> dict[tuple[int, int], tuple[np.ndarray, int]]:
    """Every non-empty cell's letter image for the composite, with its vertical offset (see composite):
    blobs ``found`` by letter_masks, gray levels from ``flat``.

    All letters get the same scale (the median letter height becomes LETTER_PX), so Q's tail, a narrow I
    or an accent keep their proportions; offsets are measured from the row's median letter top.
    """
    if not found:
        return {}
    scale = LETTER_PX / letter_height(found, cell_px)
    tops: dict[int, list[int]] = {}
    for (r, _), (top, _, _) in found.items():
        tops.setdefault(r, []).append(top)
    row_top = {r: float(np.median(values)) for r, values in tops.items()}
    return {(r, c): (letter_image(flat, top, left, mask, scale), int(round((top - row_top[r]) * scale)))
            for (r, c), (top, left, mask) in found.items()}


def narrowed(letters: dict[tuple[int, int], tuple[np.ndarray, int]]) -> dict[tuple[int, int], tuple[np.ndarray, int]]:
    """The letters squeezed sideways when the font is much wider than usual (median width over height above
    WIDE_FONT, e.g. a pixel font), to WIDE_FONT_TO: the legacy classifier knows normal proportions (corpus
    pixel font 55 -> 66 of 96 cells in the composite read; fonts of usual width are left alone)."""
    aspect = float(np.median([image.shape[1] / image.shape[0] for image, _ in letters.values()] or [0.0]))
    if aspect <= WIDE_FONT:
        return letters
    factor = WIDE_FONT_TO / aspect
    return {cell: (np.where(cv2.resize(image, (max(1, round(image.shape[1] * factor)), image.shape[0]),
                                       interpolation=cv2.INTER_AREA) < 128, 0, 255).astype(np.uint8), dy)
            for cell, (image, dy) in letters.items()}


def is_bar(image: np.ndarray) -> bool:
    """Is this letter image (ink 0) a plain upright bar, i.e. a sans-serif I?"""
    h, w = image.shape
    return h >= 3 * w and np.count_nonzero(image == 0) >= 0.7 * h * w


def tail_fraction(image: np.ndarray) -> float:
    """Share of a letter's ink outside the ellipse fitted to its outline: ~0 for an O, > 0.01 for a Q."""
    ink = (image == 0).astype(np.uint8)
    contours, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(contours, key=cv2.contourArea)
    if len(outline) < 5:
        return 0.0
    (cx, cy), (w, h), angle = cv2.fitEllipse(outline)
    inside = np.zeros_like(ink)
    cv2.ellipse(inside, ((cx, cy), (w + 3, h + 3), angle), 1, -1)
    return float(np.count_nonzero(ink & (1 - inside))) / max(1, np.count_nonzero(ink))


def holes(image: np.ndarray) -> int:
    """Enclosed counters of a letter image (ink 0), each at least HOLE_AREA of its box: an R has one, a K none
    (corpus: R 416 of 426, K 145/145; smaller holes are blur or grain)."""
    paper = np.pad((image != 0).astype(np.uint8), 1, constant_values=1)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=4)
    return sum(1 for i in range(1, n) if i != labels[0, 0] and stats[i, cv2.CC_STAT_AREA] >= HOLE_AREA * image.size)


def calibrate(raw: np.ndarray) -> np.ndarray:
    """Map Tesseract-derived scores to confidences where 0.5 is a useful "check this cell" line.

    Measured on 9900 synthetic cells: right readings score 0.90 median (5th percentile 0.68), wrong ones 0.55
    median; raw 0.68 becomes 0.5, so low_confidence(0.5) flags ~6% of cells and catches ~80% of the errors.
    """
    return np.clip((raw - CAL_ZERO) / CAL_SPAN, 0.0, 1.0)


def _apply_marks(grid, confidence, alternatives, marks, tall: dict[tuple[int, int], bool], alphabet: str) -> None:
    """Put each cell's diacritics on its base letter when the result is in ``alphabet``. ``tall``: cells whose
    base letter reaches well below the others (a C with its cedilla attached)."""
    for (r, c), mark in marks.items():
        base = grid[r][c]
        accented = unicodedata.normalize("NFC", base + mark)
        if mark and accented in alphabet:
            grid[r][c] = accented
            alternatives[r][c] = {unicodedata.normalize("NFC", k + mark): v for k, v in alternatives[r][c].items()
                                  if unicodedata.normalize("NFC", k + mark) in alphabet}
        elif mark:  # a mark this alphabet has no letter for: keep the base, but flag the cell
            confidence[r, c] *= 0.5
        elif base in "CG" and "Ç" in alphabet and tall.get((r, c)):  # a cedilla joined to its C (read C or G)
            grid[r][c] = "Ç"
            alternatives[r][c] = {k: v for k, v in {**alternatives[r][c], base: confidence[r, c] * 0.5}.items()
                                  if k in alphabet and k != "Ç"}
            confidence[r, c] *= 0.8
    for r, row in enumerate(grid):
        for c, letter in enumerate(row):
            if letter not in alphabet:  # a base letter the alphabet only has accented
                grid[r][c], confidence[r, c], alternatives[r][c] = alphabet[0], 0.0, {}


def split_marks(image: np.ndarray) -> tuple[np.ndarray, str, int]:
    """Separate diacritics from a letter image (ink 0): (base letter image, combining marks, rows cut off
    the top). Marks are the blobs wholly above the letter's main blob (acute, grave, circumflex, diaeresis,
    ring) or wholly below it (cedilla); a cedilla joined to its C is not seen.
    """
    n, labels, stats, _ = cv2.connectedComponentsWithStats((image == 0).astype(np.uint8), connectivity=8)
    if n <= 2:
        return image, "", 0
    main = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    top, bottom = stats[main, 1], stats[main, 1] + stats[main, 3]
    above = [i for i in range(1, n) if i != main and stats[i, 1] + stats[i, 3] <= top + 1]
    below = [i for i in range(1, n) if i != main and stats[i, 1] >= bottom - 1  # small, unlike a J's hook
             and stats[i, cv2.CC_STAT_AREA] < 0.15 * stats[main, cv2.CC_STAT_AREA]]
    if not above and not below:
        return image, "", 0
    marks = _mark_above(labels, stats, above) if above else ""
    marks += "\u0327" if below else ""
    base = np.where(np.isin(labels, [i for i in range(1, n) if i not in above and i not in below]), 0, 255)
    ys, xs = np.nonzero(base == 0)
    return base[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.uint8), marks, int(ys.min())


def _mark_above(labels: np.ndarray, stats: np.ndarray, above: list[int]) -> str:
    """The combining character for the blobs above a letter (by shape)."""
    big = sorted(above, key=lambda i: -stats[i, cv2.CC_STAT_AREA])
    if len(big) >= 2:
        (xa, _, wa, _, aa), (xb, _, wb, _, ab) = stats[big[0]], stats[big[1]]
        if (xa + wa <= xb or xb + wb <= xa) and ab >= 0.4 * aa:
            return "\u0308"  # two dots side by side: diaeresis
    x, y, w, h, _ = stats[big[0]]
    blob = (labels[y:y + h, x:x + w] == big[0]).astype(np.uint8)
    filled = np.pad(blob, 1)
    cv2.floodFill(filled, None, (0, 0), 1)
    if np.count_nonzero(filled == 0) > 0:
        return "\u030a"  # a hole: ring
    low, high = blob[h - max(1, h * 2 // 5):], blob[:max(1, h * 2 // 5)]
    if np.count_nonzero(np.diff(low.any(axis=0).astype(np.int8)) == 1) + low[:, 0].any() >= 2:
        return "\u0302"  # two feet: circumflex
    rises_right = np.nonzero(high)[1].mean() > np.nonzero(low)[1].mean()
    return "\u0301" if rises_right else "\u0300"  # acute rises to the right, grave to the left


def _normalise(text: str, lower: bool = False) -> str:
    """A reading as the grid letter it stands for: upper case; a bare bar (l, I, |) is an I in a grid of
    capitals and an l in a grid printed in lower case."""
    if text in BARS:
        return "L" if lower else "I"
    return unicodedata.normalize("NFC", text).upper()


def both_cases(alphabet: str) -> str:
    """The alphabet's letters in both cases: Tesseract is asked for either, the grid is reported upper case."""
    return "".join(dict.fromkeys(alphabet + alphabet.lower()))


def printed_lower(texts: list[str]) -> bool:
    """Is the grid printed in lower case? Most of its letters whose two cases differ in shape say so."""
    lower = sum(text in LOWER_SHAPES for text in texts)
    return lower > sum(text in LOWER_SHAPES.upper() for text in texts)


def _reading(symbol: Symbol | None, alphabet: str, lower: bool = False) -> tuple[str, float, dict[str, float]] | None:
    """(letter, confidence 0..1, alternatives) of a symbol, or None when it is not one alphabet letter."""
    if symbol is None:
        return None
    choices = [(_normalise(t, lower), c) for t, c in symbol.choices]
    choices = [(t, c) for t, c in choices if len(t) == 1 and t in alphabet]
    if not choices or choices[0][0] != _normalise(symbol.text, lower):
        return None
    best, best_conf = choices[0]
    alternatives: dict[str, float] = {}
    for text, conf in choices[1:]:
        if text != best and text not in alternatives and conf >= best_conf - ALT_WINDOW:
            alternatives[text] = round(max(0.0, conf) / 100.0, 3)
        if len(alternatives) == MAX_ALTERNATIVES:
            break
    confidence = max(0.0, min(1.0, best_conf / 100.0))
    if alternatives:  # a close second choice means the reading is uncertain
        margin = (best_conf - max(alternatives.values()) * 100.0) / 100.0
        confidence *= min(1.0, 0.5 + 4.0 * margin)
    return best, confidence, alternatives


@dataclass
class _Cells:
    """The reading in progress: letters, raw confidences (0..1, calibrated at the end), alternatives."""

    grid: list[list[str]]
    conf: np.ndarray
    alts: list[list[dict[str, float]]]
    lower: bool | None = None  # printed in lower case (a bare bar is an l, not an I); None: not known yet

    @property
    def bar(self) -> str:
        """The letter a bare bar stands for: I in capitals, l in lower case."""
        return _normalise("|", self.lower)

    def whitelist(self, alphabet: str) -> str:
        """What Tesseract may read: capitals for a grid of capitals (fewer look-alikes), else both cases."""
        return alphabet if self.lower is False else both_cases(alphabet)

    def set(self, cell: tuple[int, int], letter: str, conf: float, alts: dict[str, float]) -> None:
        self.grid[cell[0]][cell[1]], self.conf[cell], self.alts[cell[0]][cell[1]] = letter, conf, alts

    def replace(self, cell: tuple[int, int], letter: str, conf: float, keep_old_as: float) -> None:
        """Read ``letter`` instead, offering the old reading as an alternative scored ``keep_old_as``."""
        r, c = cell
        old = self.grid[r][c]
        alts = {k: v for k, v in self.alts[r][c].items() if k != letter}
        if self.conf[cell] > 0.0:
            alts[old] = round(keep_old_as, 3)
        self.set(cell, letter, conf, alts)


def _padded(image: np.ndarray) -> np.ndarray:
    pad = LETTER_PX // 2
    return cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)


def _read_composite(cells: _Cells, letters, engine: Engine, alphabet: str) -> None:
    """One Tesseract pass over the composite; cells it leaves empty, garbled or unsure are re-read alone."""
    found: dict[tuple[int, int], list[Symbol]] = {}
    rows, cols = cells.conf.shape
    symbols = engine.symbols(composite(letters, rows, cols), psm=6, whitelist=cells.whitelist(alphabet))
    if cells.lower is None:
        cells.lower = printed_lower([symbol.text for symbol in symbols])
    for symbol in symbols:
        found.setdefault(slot_of(symbol), []).append(symbol)
    retry = []
    for cell in letters:
        symbols = found.get(cell, [])
        reading = _reading(symbols[0], alphabet, cells.lower) if len(symbols) == 1 else None
        if reading is None or reading[1] < FALLBACK_CONF:
            retry.append(cell)
        if reading is not None:
            cells.set(cell, *reading)
    for cell, symbol in zip(retry, engine.read_chars([_padded(letters[c][0]) for c in retry],
                                                     whitelist=cells.whitelist(alphabet))):
        reading = _reading(symbol, alphabet, cells.lower)
        if reading is None:
            continue
        letter, conf, alts = reading
        first, first_conf = cells.grid[cell[0]][cell[1]], float(cells.conf[cell])
        if first_conf == 0.0:  # nothing usable from the composite: trust the single read, less
            cells.set(cell, letter, conf * 0.8, alts)
        elif letter != first:  # the two reads disagree: keep the surer one, offer the other
            if conf > first_conf:
                cells.set(cell, letter, max(conf, first_conf) * 0.7, {**alts, first: round(first_conf, 3)})
            else:
                cells.set(cell, first, first_conf * 0.7, {**cells.alts[cell[0]][cell[1]], letter: round(conf, 3)})


def _second_opinions(cells: _Cells, letters, engine: Engine, alphabet: str) -> None:
    """Unsure cells are read again by the LSTM engine. Measured on the corpus's unsure cells: when it
    disagrees with the legacy engine it is right 3.6x as often. The cell stays unsure, with the legacy
    reading as an alternative."""
    unsure = [cell for cell in letters if cells.conf[cell] < SECOND_OPINION_BELOW]
    for cell, letter in zip(unsure, engine.second_opinion([_padded(letters[c][0]) for c in unsure],
                                                          cells.whitelist(alphabet))):
        letter = _normalise(letter or "", cells.lower)
        image = letters[cell][0]
        if letter == cells.bar and image.shape[1] > 0.35 * image.shape[0]:
            continue  # the LSTM engine reads too many wide shapes (a serif J, a blot) as I
        if len(letter) == 1 and letter in alphabet and letter != cells.grid[cell[0]][cell[1]]:
            old = float(cells.conf[cell])
            cells.replace(cell, letter, min(max(old, 0.45), 0.6), keep_old_as=old * 0.8)


def _shape_checks(cells: _Cells, letters, alphabet: str) -> None:
    """Where Tesseract is weak: O vs Q (the tail outside the fitted ellipse), a K with a closed counter and
    R among its alternatives (a handwriting-style R; not G -> Q, blurred G's close up), a bare bar (an I, or an
    l in a lower-case grid)."""
    bar = cells.bar
    for cell, (image, _) in letters.items():
        letter, conf = cells.grid[cell[0]][cell[1]], float(cells.conf[cell])
        if letter in "OQ" and conf > 0.0 and "O" in alphabet and "Q" in alphabet:
            tail = tail_fraction(image)
            settled = "Q" if 0.01 <= tail <= 0.2 else "O" if tail < 0.002 else letter
            if settled != letter:
                cells.replace(cell, settled, conf * 0.8, keep_old_as=conf * 0.5)
        elif letter == "K" and "R" in cells.alts[cell[0]][cell[1]] and holes(image) > 0:
            cells.replace(cell, "R", conf * 0.8, keep_old_as=conf * 0.5)
        elif conf == 0.0 and bar in alphabet and is_bar(image):  # Tesseract calls a bare bar "|", never "I"
            cells.set(cell, bar, BAR_CONF, {a: 0.5 for a in "ILJT" if a in alphabet and a != bar})


def shape_vector(image: np.ndarray) -> np.ndarray:
    """A letter image (ink 0) as a zero-mean unit vector for normalised correlation: placed top-centre on a
    canvas the size of the largest letter image (so size and tails count), blurred by a pixel (so a pixel of
    misalignment does not)."""
    canvas = np.zeros((round(1.5 * LETTER_PX), round(1.6 * LETTER_PX)), np.float32)
    h, w = min(image.shape[0], canvas.shape[0]), min(image.shape[1], canvas.shape[1])
    x = (canvas.shape[1] - w) // 2
    canvas[:h, x:x + w] = image[:h, :w] == 0
    vector = cv2.GaussianBlur(canvas, (0, 0), LETTER_PX / 32).ravel()
    vector -= vector.mean()
    return vector / max(1e-6, float(np.linalg.norm(vector)))


def _same_shapes(cells: _Cells, letters) -> None:
    """One letter, one shape: a grid repeats each letter many times in one font, so an unsure cell is
    compared with its look-alikes (correlation >= LOOK_ALIKE). It takes another letter when that letter is
    among its alternatives, its look-alikes' confidences add up to OUTVOTE more than those of its own
    reading, and its closest look-alike reads that letter (so a Q keeps its Q when O's are many).
    Corpus: 8 more cells right (OliverW10 photo 2.1 215 -> 220 of 225: G -> Q, C -> O, E -> F, K -> R)."""
    order = list(letters)
    conf = np.array([float(cells.conf[cell]) for cell in order])
    if len(order) < 2 or not ((conf > 0) & (conf < SURE)).any():
        return  # no unsure cell to vote on
    vectors = np.stack([shape_vector(letters[cell][0]) for cell in order])
    with imaging.one_blas_thread():
        score = vectors @ vectors.T
    np.fill_diagonal(score, -1.0)
    read = [cells.grid[r][c] for r, c in order]
    changes = []
    for i, cell in enumerate(order):
        if not 0.0 < conf[i] < SURE:
            continue
        votes, nearest = {read[i]: conf[i]}, {}
        for j in np.nonzero(score[i] >= LOOK_ALIKE)[0]:
            votes[read[j]] = votes.get(read[j], 0.0) + conf[j]
            nearest[read[j]] = max(nearest.get(read[j], -1.0), score[i, j])
        winner = max(votes, key=votes.get)
        if winner != read[i] and winner in cells.alts[cell[0]][cell[1]] and \
                votes[winner] >= votes[read[i]] + OUTVOTE and nearest[winner] > nearest.get(read[i], -1.0):
            changes.append((cell, winner, conf[i]))
    for cell, winner, old in changes:  # after the vote, so every cell votes with its own reading
        cells.replace(cell, winner, max(old, 0.45), keep_old_as=old * 0.8)


def prepared(rectified_gray: np.ndarray, cell_px: int) -> np.ndarray:
    """A rectified grid made ready to read: light on dark inverted, the lighting flattened, grain filtered."""
    if imaging.light_on_dark(rectified_gray, cell_px):
        rectified_gray = 255 - rectified_gray
    return denoise(flatten(rectified_gray, cell_px), cell_px)


def _classifier_opinions(cells: _Cells, flat: np.ndarray, cell_px: int, alphabet: str, letter_px: float) -> None:
    """The grey-level classifier's say (scanner.classify), by its model for the grid's case.

    A grid Tesseract is unsure of (median calibrated confidence under DEGRADED_BELOW) is read in the case whose
    model is surer of it (see CASE_SURER): Tesseract's unsure reading decided the case too; and cut smaller too,
    where its letters measured taller than they are (see SMALLER_SIZES). It is degraded when the
    classifier's median probability over the cells where the two disagree is at least CLASSIFIER_SURE: every cell
    takes the classifier's letter. Over the disputed cells, not all: of a clean screenshot in a pixel font it never
    saw, the classifier is sure of the letters Tesseract reads too, and unsure of the rest (median 0.85 there, where
    hand-lettered, small and night photos measure 0.97-0.99). When the two disagree on most cells, one of them
    reads nonsense, and CLASSIFIER_SURE_MOSTLY is enough: small blurred lower-case photos (0.84 there, with
    Tesseract's median confidence 0.12; the screenshot disputes 30% of its cells).
    When its print is also faint (the median cell spans under FAINT_INK grey levels: a night photo, not a clean
    screenshot in a font the classifier never saw), the classifier reads the cells at the letter size it is
    surest of, steadied over pixel shifts (classify.surest_size), since the measured letter height is as
    unreliable there as Tesseract's reading, by the capitals model or the model of night photos, whichever is
    surer (classify.surest_model); and short of degraded, a cell takes the classifier's letter where the
    classifier is surer than Tesseract (night photos, bench seeds 50-59: cells 80.3% -> 88.4% with the capitals
    model alone, 97.5% now). Not in lower case: cut larger than the measured height, letters fill the window
    and the lower-case model is near certain of nonsense there (a blurred lower-case photo: 36 of 270 cells at
    its surest size, 232 at the measured one).
    Elsewhere a cell takes it when the classifier is CLASSIFIER_OVERRIDES sure, or, flagged unsure, when
    Tesseract read nothing there. A bare bar gives way at GIVES_WAY: thresholding drops thin strokes (a J's hook,
    the foot of an L, the bar of a T) that the grey image keeps (corpus and hard pages: the classifier right 63
    times, Tesseract 3).
    In a lower-case grid so does any reading under LOWER_UNSURE: there the classifier alone reads more than
    Tesseract (10 generated lower-case pages, seeds 200000+: 99.5% against 97.3%; this rule 99.4% -> 99.6%);
    and where Tesseract is unsure of the whole lower-case grid, any cell the classifier is surer of than Tesseract,
    as on faint grids (a small blurred photo of white-on-dark lower case, Tesseract right in 25 of 208 cells and
    the classifier unsure at 0.6 in 123: 81 -> 121 cells).
    Blank cells (less than BLANK_CONTRAST of the median cell's contrast, or INK_CONTRAST grey levels) are left
    alone.
    Tuned on 35 corpus grids and 25 generated hard pages (seeds 200000+): corpus cells 99.25% -> 99.16%,
    hard pages 83% -> 95% (before the word list repairs anything).
    """
    if alphabet != classify.CLASSES:
        return
    rows, cols = cells.conf.shape
    everything = [(r, c) for r in range(rows) for c in range(cols)]
    flat = unruled(flat, cell_px)  # a thick frame beside an edge cell would pull its window off the letter
    windows, contrast = classify.cell_windows(flat, everything, cell_px, letter_px)
    inked = contrast >= max(BLANK_CONTRAST * float(np.median(contrast)), INK_CONTRAST)
    if not inked.any():
        return
    calibrated = calibrate(cells.conf).ravel()
    tesseract_unsure = np.median(calibrated[inked]) < DEGRADED_BELOW
    model = "lower" if cells.lower else "capitals"
    p = classify.probabilities(windows, model)
    if tesseract_unsure:  # Tesseract's reading decided the case too
        other = "capitals" if cells.lower else "lower"
        q = classify.probabilities(windows, other)
        if classify.sureness(q, inked) >= classify.sureness(p, inked) + CASE_SURER:
            cells.lower, model, p = not cells.lower, other, q
    faint = tesseract_unsure and not cells.lower and np.median(contrast[inked]) < FAINT_INK
    if faint:  # its letter height, measured on the same noisy blobs Tesseract read, may be off too
        p = classify.surest_model(flat, everything, cell_px, letter_px, inked, ("capitals", "faint"))
    elif tesseract_unsure:
        smaller = classify.surest_size(classify.size_cuts(flat, everything, cell_px, letter_px, SMALLER_SIZES),
                                       inked, model)
        if classify.sureness(smaller, inked) >= classify.sureness(p, inked) + SMALLER_SURER:
            p = smaller
    best, sure = p.argmax(axis=1), p.max(axis=1)
    disputed = inked & np.array([alphabet[best[i]] != cells.grid[r][c] for i, (r, c) in enumerate(everything)])
    degraded = tesseract_unsure and disputed.any() and np.median(sure[disputed]) >= (
        CLASSIFIER_SURE_MOSTLY if disputed.sum() > 0.5 * inked.sum() else CLASSIFIER_SURE)
    for i, (r, c) in enumerate(everything):
        letter, read, conf = alphabet[best[i]], cells.grid[r][c], float(cells.conf[r, c])
        if not inked[i] or (letter == read and conf > 0):
            continue
        unsure = read == cells.bar or (cells.lower and calibrated[i] < LOWER_UNSURE)
        if degraded or sure[i] >= CLASSIFIER_OVERRIDES or conf == 0 or (unsure and sure[i] >= GIVES_WAY) or \
                ((faint or tesseract_unsure and cells.lower) and sure[i] > calibrated[i]):
            runners_up = np.argsort(p[i])[::-1][1:MAX_ALTERNATIVES]
            alts = {alphabet[j]: CAL_ZERO + CAL_SPAN * float(p[i, j]) for j in runners_up if p[i, j] >= 0.05}
            if conf > 0:
                alts[read] = conf
            trust = 1.0 if degraded or conf > 0 else 0.5
            cells.set((r, c), letter, CAL_ZERO + CAL_SPAN * trust * float(sure[i]), alts)


def grid_letters(flat: np.ndarray, found: dict[tuple[int, int], tuple[int, int, np.ndarray]],
                 cell_px: int) -> dict[tuple[int, int], tuple[np.ndarray, int]]:
    """The cleaned letter image of every non-empty cell (see clean_letters) of a prepared grid, its letters
    ``found`` by grid_masks."""
    # Blobs are found on the plain image; the letter images are cut from a sharpened one (blurred photos
    # of small print: simulated photos 82% -> 91% of cells; sharpening the blob search too broke hairlines).
    return clean_letters(sharpen(flat, cell_px), found, cell_px)


def read_grid(rectified_gray: np.ndarray, rows: int, cols: int, *, cell_px: int,
              alphabet: str = DEFAULT_ALPHABET, engine: Engine | None = None,
              lower: bool | None = None) -> GridReading:
    """Read every cell of a rectified grid (dark letters on light, cell (r, c) at [r*cell_px:(r+1)*cell_px,
    c*cell_px:(c+1)*cell_px]; light on dark is detected and inverted). Every cell gets one letter of
    ``alphabet``; blank or unreadable cells get the alphabet's first letter with confidence 0.

    ``lower``: the grid is printed in lower case (True), in capitals (False), or not known (None: read in
    both cases and decided by the letters whose two cases differ in shape). Letters come back in capitals.

    Accented alphabets: Tesseract reads the base letters (the legacy English model has no accented
    classes) and the diacritics are split off and recognised by their shape.
    """
    if rectified_gray.ndim != 2 or rectified_gray.shape[:2] != (rows * cell_px, cols * cell_px):
        raise ValueError(f"expected a gray image of {rows * cell_px}x{cols * cell_px}, got {rectified_gray.shape}")
    alphabet = _normalise(alphabet)
    engine = engine or get_engine()
    accents = any(unicodedata.combining(ch) for ch in unicodedata.normalize("NFD", alphabet))
    flat = prepared(rectified_gray, cell_px)
    found = grid_masks(flat, rows, cols, cell_px, accents)
    letters = narrowed(grid_letters(flat, found, cell_px))
    bases = alphabet
    marks: dict[tuple[int, int], str] = {}
    if accents:
        bases = "".join(dict.fromkeys(unicodedata.normalize("NFD", ch)[0] for ch in alphabet))
        for cell, (image, dy) in list(letters.items()):
            base, marks[cell], cut = split_marks(image)
            letters[cell] = base, dy + cut

    cells = _Cells([[bases[0]] * cols for _ in range(rows)], np.zeros((rows, cols)),
                   [[{} for _ in range(cols)] for _ in range(rows)], lower)
    _read_composite(cells, letters, engine, bases)
    _second_opinions(cells, letters, engine, bases)
    _same_shapes(cells, letters)
    _shape_checks(cells, letters, bases)
    _classifier_opinions(cells, flat, cell_px, bases, letter_height(found, cell_px))
    if accents:
        tall = {cell: image.shape[0] > 1.15 * LETTER_PX for cell, (image, _) in letters.items()}
        _apply_marks(cells.grid, cells.conf, cells.alts, marks, tall, alphabet)
    alternatives = [[{k: round(float(calibrate(np.float64(v))), 3) for k, v in alts.items()} for alts in row]
                    for row in cells.alts]
    return GridReading(cells.grid, calibrate(cells.conf), alternatives)
