"""Which way up is a grid? Photos arrive sideways or upside down with no EXIF tag (messaging apps strip it,
screenshots never had one), and a grid read the wrong way round has its rows and columns in the wrong order.

A letter classifier is confident on upright letters and unsure on turned ones, so letters from a band across the
middle of the rectified grid are read in each quarter turn and the turn read most confidently wins. Tesseract
reads the cleaned letters as one composite per turn: upright and upside down first, the sideways turns only
when neither reads surely. Each letter keeps its height on the line, so an upside-down p reads as a d that
climbs above the line rather than as a plain d, and the readings tell lower case from capitals. Thresholded
letters of a noisy, dim or hand-lettered photo read poorly in every turn, though; when no turn reads surely,
the grey-level classifier (scanner.classify), which sees through noise, decides if it clearly prefers a turn,
judging by its model of the letters' case (its capitals model is surer of some lower-case grids upside down).
On the corpus and 24 generated hard pages in all four turns (236 cases), Tesseract alone chooses 15 wrong turns
and the classifier alone 3; together, 1; on 36 other hard pages (seeds 304-309, 144 cases), 20, 9 and 6
(bench/orientation.py); on 10 lower-case photos upright and upside down, the scanner 2 of 20 (4 when the
capitals model judged them). Where letters read unsurely chose a turn across the lines of the page's own print
(title, instructions, word list: print_axis), the turn is taken along them instead.
Detection itself does not care which way up the page is; only the corner order changes (scanner.detect.turned).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from scanner import classify, imaging
from scanner.engine import Engine
from scanner.ocr import (LETTER_PX, both_cases, composite, grid_letters, grid_lines, grid_masks, prepared,
                         printed_lower, slot_of)

SAMPLE = 20
"""Letters read per candidate turn."""
PER_LINE = 10
"""Letters per line of the sample composite."""
LOWER_SPREAD = 1.2
"""Letter height spread (see scanner.imaging.height_spread) from which a grid read as lower case, not surely,
is lower case."""
TRUSTED = 70.0
"""A turn other than the picture as shot is taken only when it reads at least this confidently (0..100)..."""
MARGIN = 5.0
"""... and this much better than the picture as shot (corpus, right turns: 6-50 better, 74-96 absolute)."""
CLEAR = 0.06
"""When Tesseract reads no turn surely (SURE), the classifier's turn is taken if its mean certainty there beats
every other turn's by this much (its wrong turns led by at most 0.068; see bench/orientation.py), or Tesseract's
turn's where it is that turn upside down (lower-case pages of seeds 940-999 in four turns: right at 0.11 and
0.15, wrong at most 0.009 ahead)."""
CLEAR_AGREED = 0.04
"""... or by this much where Tesseract too read that turn best of the four, though not surely."""
LOWER_BY = 0.05
"""Letters read as lower case, well but under SURE, are capitals if the classifier's capitals model is surer of
them than its lower-case model by this much (mean certainty, 0..1; hand-lettered capitals of uneven height, read
as lower case at 70: 0.94 against 0.76; a small photo's blurred capitals read as lower case at 71: 0.83 against
0.73; on 56 lower-case pages the capitals model was never the surer, and on 22 more, seeds 2700-2759 read so,
it was less sure by 0.08 or more)."""
LOWER_LEAD = 0.05
"""Letters that read as lower case, but not surely (see _lower), are lower case if the classifier's lower-case
model is surer of them than its capitals model by this much. Generated pages decided so: capitals led by the
lower-case model by at most 0.045 once and by -0.08 or less on 15 pages of seeds 100-129; lower case led by
0.066-0.26 on 10 of 11 pages of seeds 100-149 and 200-229 (at 0.12, four of them were read as capitals: a
monospaced scan, a narrow sans and URW Gothic photographed small). Which model judges the turns of such letters
is decided alike, by each model's certainty in its best turn."""
LOWER_DOUBT = 0.75
"""... and only if that model's doubt of them (1 - its certainty) is at most this share of the capitals model's:
capitals are the default, and small blurred photos of capitals in a loopy hand, read as lower case at 47-51, led
the capitals model by 0.054 and 0.081 with the lower-case model itself unsure (0.66 and 0.75 against 0.58 and 0.69:
doubt 0.81 and 0.82 of the capitals model's), and read as lower case lost 65-82% of their cells; the lower-case
pages decided so (6 of 92 of seeds 2740-2759 and 3100-3171, and lowercase 990 upside down, 0.77 against 0.66) were
at most 0.68 of it."""
ACROSS = 0.1
"""Added to the lead the lower-case model needs (LOWER_LEAD) where its surest turn lies across the capitals
model's: the lower-case model is sure of capitals turned sideways, either way. Of 60 capitals pages read unsurely
(night, hand-lettered and small photos, seeds 11000+), its surest turn beat the capitals model's on 6, across it on
5 (by 0.006-0.135; a night photo led by 0.12 was read sideways, every cell lost); of 48 lower-case pages the
capitals model's surest turn lay across the lower-case model's on 2 (led by 0.04 and 0.20)."""
READ_LOWER = 80.0
"""Letters Tesseract reads as lower case at least this confidently, though not surely (SURE) and of even height,
are lower case where the classifier's lower-case model is at all surer of them than its capitals model, not by
LOWER_LEAD (nor LOWER_DOUBT): a photo of a lower-case URW Gothic grid read at 85, led by 0.0498, was read as
capitals (every e an O, every h a B). Capitals read as lower case reached 72.5 on 80 generated pages of seeds 3000+
(lower case 67-95 on 50 pages of seeds 2600+)."""
SURE = 88.0
"""A confidence (0..100) that only upright letters reach: when upright or upside down scores this, the
sideways turns are not tried (corpus: upright 58-96, any wrong turn at most 86)."""
LINE_VIEW = 16
"""px per grid cell in the view of the page round the grid that its print lines are judged in (see print_axis)."""
LINE_CLOSE, LINE_THICK = 0.4, (0.25, 1.2)
"""Ink is joined along each axis across gaps of LINE_CLOSE cells, and what is joined counts as a line of print when
its thickness is LINE_THICK cells (a letter's height, from small print to a title) and it is three times as long."""
LINE_LEAD = (10.0, 3.0)
"""The page's print runs along one axis when that axis's lines add up to LINE_LEAD[0] thicknesses or more and to
LINE_LEAD[1] times the other's (270 generated pages of eight conditions and the 35 corpus pictures, each as shot
and turned a quarter: 540 of 610 decided, 2 wrong, both of a corpus photo's letter-spaced list, whose lines stand
closer than its letters; Tesseract reads that photo's grid surely, so its print is not asked)."""
LINE_RULE = 3.0
"""Straight ink runs this many cells long and thinner than print (LINE_THICK[0]) are rules, and are set aside
before lines are joined: the sides of a boxed list, broken by a night photo's grain, counted as two long lines
across the page's print, and the words inside the box joined them instead of making lines of their own. (A small
blurred photo's title runs together into one long stroke too, but a letter high.)"""
PRINT_LEAD = 0.15
"""Letters read unsurely keep the turn they chose across the page's print when the classifier's two models
together (the sum of their certainties, 0..2) are surer of it than of either turn along the print by this much.
The letter-spaced list of a corpus photo at night passes for print running down the page, and its grid of plain
capitals, read at 68, is surer upright by 0.24; the ten turns the print put right on 494 generated cases (blurred
monospaced and hand-lettered capitals) led by 0.08 at most."""


Letter = tuple[np.ndarray, int]
"""A cleaned letter image (ink 0) and its offset down from its row's cap line (see scanner.ocr.composite)."""


@dataclass(frozen=True)
class Band:
    """Rows across the middle of a rectified grid, prepared to read (scanner.ocr.prepared) and with the letter
    of each cell that has one (scanner.ocr.grid_masks)."""

    flat: np.ndarray
    found: dict[tuple[int, int], tuple[int, int, np.ndarray]]
    rows: int
    cols: int


def middle_band(rectified_gray: np.ndarray, rows: int, cols: int, cell_px: int, count: int) -> Band:
    """The band of rows across the middle of the grid that holds about 1.5 x ``count`` cells."""
    band = min(rows, max(1, math.ceil(1.5 * count / cols)))
    top = (rows - band) // 2
    flat = prepared(rectified_gray[top * cell_px:(top + band) * cell_px], cell_px)
    return Band(flat, grid_masks(flat, band, cols, cell_px), band, cols)


def _spread(items: list, count: int) -> list:
    """At most ``count`` of ``items``, evenly spaced."""
    if len(items) <= count:
        return items
    return [items[i] for i in np.linspace(0, len(items) - 1, count).round().astype(int)]


def sample_letters(band: Band, cell_px: int, count: int = SAMPLE) -> list[Letter]:
    """Up to ``count`` cleaned letters of the band, evenly spaced over it."""
    chosen = {cell: band.found[cell] for cell in _spread(sorted(band.found), count)}
    return [letter for _, letter in sorted(grid_letters(band.flat, chosen, cell_px).items())]


def _turned_sample(rectified_gray: np.ndarray, rows: int, cols: int, cell_px: int, turns: int) -> list[Letter]:
    """sample_letters of the middle band once the grid is turned ``turns`` quarter turns (as np.rot90)."""
    turned = np.ascontiguousarray(np.rot90(rectified_gray, turns))
    return sample_letters(middle_band(turned, *((cols, rows) if turns % 2 else (rows, cols)), cell_px, SAMPLE), cell_px)


def classifier_turns(band: Band, cell_px: int, model: str = "capitals", count: int = 3 * SAMPLE,
                     turns: tuple[int, ...] = (0, 1, 2, 3)) -> dict[int, float]:
    """The classifier's mean certainty (0..1) over up to ``count`` letters of the band seen in each quarter
    turn of ``turns`` (as np.rot90), by ``model`` (scanner.classify.MODELS): the model of the letters' case, since
    each is sure of the other's letters turned (the lower-case model of turned capitals, the capitals model of
    upside-down lower case).

    Each letter's window is cut scaled by the letters' height (for the turns that keep rows as rows) or by their
    width (for the sideways turns, where the width stands upright), then turned; and since on a noisy page
    those measures are as noisy as the letters, at each of classify.SIZES times them (classify.size_cuts), the
    surest size counting.
    """
    cells = _spread(sorted(band.found), count)
    if not cells:
        return {}
    masks = [band.found[cell][2] for cell in cells]
    scores = dict.fromkeys(turns, 0.0)
    for axis in {turn % 2 for turn in turns}:
        extent = float(np.median([mask.shape[axis] for mask in masks]))
        for windows in classify.size_cuts(band.flat, cells, cell_px, extent):
            for turn in {axis, axis + 2} & set(turns):
                turned = np.ascontiguousarray(np.rot90(windows, turn, axes=(1, 2)))
                scores[turn] = max(scores[turn], float(np.mean(classify.probabilities(turned, model).max(axis=1))))
    return scores


def turned_letters(letters: list[Letter], turns: int) -> list[Letter]:
    """The letters turned ``turns`` quarter turns counter-clockwise (as np.rot90).

    Upside down, each letter keeps its place on the line: what hung below the others (the tail of a p) now
    rises above them, which is what tells a turned p from a d. Sideways, the letters are rescaled so their
    median height is LETTER_PX again and centred on the line."""
    if turns % 2 == 0:
        if turns == 0:
            return letters
        bottoms = [dy + image.shape[0] for image, dy in letters]
        line = float(np.median(bottoms))
        return [(np.rot90(image, 2), round(line - bottom)) for (image, _), bottom in zip(letters, bottoms)]
    rotated = [np.rot90(image, turns) for image, _ in letters]
    median = LETTER_PX / float(np.median([image.shape[0] for image in rotated]))
    out = []
    for image in rotated:
        # Within a composite slot, as scanner.ocr.letter_image keeps them (a bar turned sideways is wide).
        scale = min(median, 1.5 * LETTER_PX / image.shape[0], 1.6 * LETTER_PX / image.shape[1])
        size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
        resized = np.where(cv2.resize(np.ascontiguousarray(image), size, interpolation=cv2.INTER_AREA) < 128, 0, 255)
        out.append((resized.astype(np.uint8), round((LETTER_PX - size[1]) / 2)))
    return out


def read_confidence(letters: list[Letter], engine: Engine, whitelist: str) -> tuple[float, list[str]]:
    """Mean classifier confidence (0..100) over the letters, read as one composite (a letter read as nothing
    or as several symbols scores 0), and what was read."""
    lines = math.ceil(len(letters) / PER_LINE)
    page = composite({(i // PER_LINE, i % PER_LINE): (np.ascontiguousarray(image), dy)
                      for i, (image, dy) in enumerate(letters)}, lines, PER_LINE)
    symbols = engine.symbols(page, psm=6, whitelist=whitelist)
    by_slot: dict[tuple[int, int], list[float]] = {}
    for symbol in symbols:
        by_slot.setdefault(slot_of(symbol), []).append(symbol.conf)
    score = sum(confs[0] for confs in by_slot.values() if len(confs) == 1) / max(1, len(letters))
    return score, [symbol.text for symbol in symbols]


@dataclass(frozen=True)
class Orientation:
    """How a grid is printed: quarter turns counter-clockwise (as np.rot90) that bring it upright, and whether
    its letters are lower case."""

    turns: int = 0
    lower: bool = False


def _readings(letters: list[Letter], turns: tuple[int, ...], engine: Engine, alphabet: str,
              enough: float = 101.0) -> dict[int, tuple[float, list[str]]]:
    """(confidence, texts) of the letters read in each turn, in order, until upright or upside down reaches
    ``enough``."""
    out: dict[int, tuple[float, list[str]]] = {}
    for turn in turns:
        out[turn] = read_confidence(turned_letters(letters, turn), engine, both_cases(alphabet))
        if turn == 2 and max(score for score, _ in out.values()) >= enough:
            break
    return out


def _most_confident(readings: dict[int, tuple[float, list[str]]]) -> int:
    """The turn read most confidently, the picture as shot on a tie."""
    return max(readings, key=lambda turn: (readings[turn][0], turn == 0))


def _best(readings: dict[int, tuple[float, list[str]]]) -> int:
    """The turn read most confidently, if it reads well (TRUSTED) and clearly better than the picture as shot
    (MARGIN); else the picture as shot. Blurred, tiny or hand-drawn capitals can read about as well upside
    down, and turning a grid wrongly loses every cell."""
    best = _most_confident(readings)
    score, as_shot = readings[best][0], readings.get(0, (0.0, []))[0]
    return best if best == 0 or (score >= TRUSTED and score >= as_shot + MARGIN) else 0


def print_axis(image: np.ndarray, corners: np.ndarray, rows: int, cols: int) -> int | None:
    """Which way the lines of print on the page round a grid (title, instructions, word list) run in the grid's
    frame: 0 along its rows, 1 along its columns, None where the page shows no clear lines (see LINE_LEAD).

    The page is viewed as the grid is rectified, at LINE_VIEW px a cell, the grid itself blanked, and only
    where the paper is about as bright as round the grid (not the table or cloth it lies on). Ink is joined
    along each axis in turn; what joins into strokes a letter high and several letters long is print running
    that way (a sheet's edge or a rule, one long stroke, is not; rules LINE_RULE long are set aside first)."""
    px = LINE_VIEW
    w, h = cols * px, rows * px
    m = max(w, h)
    size = (w + 2 * m, h + 2 * m)
    H = cv2.getPerspectiveTransform(corners.astype(np.float32),
                                    np.float32([[m, m], [m + w, m], [m + w, m + h], [m, m + h]]))
    view = cv2.warpPerspective(image, H, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    gray = view if view.ndim == 2 else cv2.cvtColor(view[:, :, :3], cv2.COLOR_BGR2GRAY)
    inside = cv2.warpPerspective(np.full(image.shape[:2], 255, np.uint8), H, size, flags=cv2.INTER_NEAREST) > 0
    ring = np.zeros(gray.shape, bool)
    ring[m - px:m + h + px, m - px:m + w + px] = True
    ring[m:m + h, m:m + w] = False
    around = ring & inside
    if not around.any():
        return None
    level = imaging.paper(gray, 2 * px + 1, box=True)
    sheet = (level >= 0.7 * np.median(level[around])) & inside
    sheet = cv2.erode(sheet.astype(np.uint8), np.ones((2 * px, 2 * px), np.uint8))
    ink = ((imaging.flatten(gray, level) < 0.75 * 255) & (sheet > 0)).astype(np.uint8)
    ink[m - px // 2:m + h + px // 2, m - px // 2:m + w + px // 2] = 0
    _, pieces = cv2.connectedComponents(ink)
    rim = (sheet > 0) & (cv2.erode(sheet, np.ones((3, 3), np.uint8)) == 0)
    ink[np.isin(pieces, pieces[rim & (ink > 0)])] = 0  # the sheet's edge, cut where the paper ends
    ink[grid_lines(ink, px, LINE_RULE, thinner=LINE_THICK[0])] = 0
    k = max(3, round(LINE_CLOSE * px))
    lines = []
    for along_rows in (True, False):
        kernel = (k, 1) if along_rows else (1, k)  # (width, height)
        _, _, stats, _ = cv2.connectedComponentsWithStats(
            cv2.morphologyEx(ink, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, kernel)))
        length, thick = (stats[1:, 2], stats[1:, 3]) if along_rows else (stats[1:, 3], stats[1:, 2])
        ok = ((thick >= LINE_THICK[0] * px) & (thick <= LINE_THICK[1] * px) & (length >= 3 * thick)
              & (stats[1:, 4] >= 0.3 * length * thick))
        for i in np.flatnonzero(ok & (length > 15 * thick)):
            x, y, bw, bh = stats[i + 1, :4]
            ok[i] = cv2.connectedComponents(ink[y:y + bh, x:x + bw])[0] > 2
        lines.append(float(np.sum(length[ok] / thick[ok])))
    most = max(lines)
    if most < LINE_LEAD[0] or most < LINE_LEAD[1] * min(lines):
        return None
    return int(np.argmax(lines))


def orientation(rectified_gray: np.ndarray, rows: int, cols: int, cell_px: int, engine: Engine,
                alphabet: str, axis: Callable[[], int | None] | None = None) -> Orientation:
    """Which way up the rectified grid is printed, and in which case. ``axis``, if given, says which way the
    page's print runs in the grid's frame (see print_axis); it is asked only when the letters read unsurely."""
    bands: dict[int, Band] = {}
    certainty: dict[str, dict[int, float]] = {}

    def band(count: int) -> Band:
        if count not in bands:
            bands[count] = middle_band(rectified_gray, rows, cols, cell_px, count)
        return bands[count]

    def turns_by(model: str) -> dict[int, float]:
        """classifier_turns of the wider band by ``model``, asked once."""
        if model not in certainty:
            certainty[model] = classifier_turns(band(3 * SAMPLE), cell_px, model)
        return certainty[model]

    def upright(turn: int) -> tuple[list[Letter], dict[int, tuple[float, list[str]]]]:
        """The band's letters once the grid is turned ``turn`` quarter turns, and Tesseract's reading of them."""
        turned = _turned_sample(rectified_gray, rows, cols, cell_px, turn)
        return turned, _readings(turned, (0,), engine, alphabet)

    def sureness(model: str, turn: int) -> float:
        """The classifier's certainty of the wider band in ``turn`` by ``model`` (from turns_by once asked)."""
        if model in certainty:
            return certainty[model].get(turn, 0.0)
        return classifier_turns(band(3 * SAMPLE), cell_px, model, turns=(turn,)).get(turn, 0.0)

    if len(band(SAMPLE).found) < 2:
        return Orientation()
    best, readings, letters = _tesseract_turn(rectified_gray, rows, cols, cell_px, engine, alphabet, band)
    if max(score for score, _ in readings.values()) < SURE:
        # Letters read as lower case are judged by both models, each turn by the surer: blurred serif capitals
        # photographed small read as lower case at 72, and the lower-case model, unsure of them upright, took
        # them for sideways. Letters Tesseract cannot tell the case of are judged by the capitals model unless
        # the lower-case model is surer of them in its best turn by LOWER_LEAD: the capitals model took a
        # lower-case URW Gothic grid for upside down (0.90 against 0.82 upright), of which the lower-case model
        # was surer upright (0.96); the lower-case model took a dim capitals grid for sideways at 0.85, of which
        # the capitals model was sure upright at 0.83.
        read_lower = _lower(readings, letters)
        if read_lower is None:
            read_lower = _lower_model_leads(turns_by("lower"), turns_by("capitals"), _lead(readings))
        models = ("lower", "capitals") if read_lower else ("capitals",)
        scores = {turn: max(turns_by(model)[turn] for model in models) for turn in turns_by(models[0])}
        turn = _classifier_turn(scores, best, readings)
        if turn != best:
            turned, read = upright(turn)
            if read_lower and _lower(read, turned) is False:
                # Turned so for the lower-case model, the letters read as capitals: which way up capitals are is
                # the capitals model's say (hand-lettered capitals read as junk every way, unsure upright at 0.60
                # but surer there than turned, 0.46-0.53, were turned sideways at the lower-case model's 0.75).
                again = _classifier_turn(turns_by("capitals"), best, readings)
                if again == best:
                    turn, turned, read = best, letters, readings
                elif again != turn:
                    turn = again
                    turned, read = upright(turn)
            best, letters, readings = turn, turned, read
        along = axis() if axis is not None else None
        if along is not None and best % 2 != along:
            # The page's print runs across the turn the letters chose. Unless both classifier models together
            # are clearly surer of the letters that way (PRINT_LEAD), of the two turns along the print the one
            # Tesseract reads clearly better is taken, else the one both models are surer of.
            both = {turn: turns_by("lower")[turn] + turns_by("capitals")[turn] for turn in range(4)}
            if both[best] < max(both[along], both[along + 2]) + PRINT_LEAD:
                read_by = {turn: upright(turn) for turn in (along, along + 2)}
                confidence = {turn: read[0][0] for turn, (_, read) in read_by.items()}
                ranked = sorted(confidence, key=confidence.get, reverse=True)
                if confidence[ranked[0]] < TRUSTED or confidence[ranked[0]] < confidence[ranked[1]] + MARGIN:
                    ranked = sorted(read_by, key=both.get, reverse=True)
                best = ranked[0]
                letters, readings = read_by[best]
    lower = _lower(readings, letters)
    if lower is None or (lower and readings[_best(readings)][0] < SURE):  # the classifier decides, or may overrule
        sure = {model: sureness(model, best) for model in ("lower", "capitals")}
        if lower is None:
            lead = _lead(readings)
            lower = sure["lower"] > sure["capitals"] + lead and (
                not lead or 1 - sure["lower"] <= LOWER_DOUBT * (1 - sure["capitals"]))
        else:
            lower = sure["capitals"] < sure["lower"] + LOWER_BY
    return Orientation(best, lower)


def _classifier_turn(scores: dict[int, float], best: int, readings: dict[int, tuple[float, list[str]]]) -> int:
    """The turn the classifier's certainty ``scores`` (by turn) clearly prefers to Tesseract's ``best`` (its
    ``readings`` by turn), else ``best``.

    Upside down, lower case is letters still (p d, n u): Tesseract reads it about as well either way up, so
    there the classifier need only clearly prefer its turn to Tesseract's, not to every other (a lower-case grid
    upright at 0.97, upside down at 0.82, sideways at 0.91 was read upside down). Sideways, capitals read about as
    well turned either way (H I N O S X Z): a turn on the other axis than Tesseract's need only clearly beat the
    turns of Tesseract's axis (a ruled scan turned 90 degrees: 0.943 against 0.884 turned the other way, 0.827 as
    shot; a night photo Tesseract read at 53-56 every way: 0.774 against 0.726 the other way, 0.621 upside down,
    where Tesseract took the picture as shot). Where Tesseract too read the classifier's turn best of the four,
    though not well, a smaller lead does (night photos upside down, read at 52-55 turned back and 47-54 as shot:
    led by 0.052-0.057)."""
    ranked = sorted(scores, key=scores.get, reverse=True)
    if len(ranked) < 2 or ranked[0] == best:
        return best
    if ranked[0] == (best + 2) % 4:
        rival = best
    elif ranked[0] % 2 != best % 2:
        rival = max((turn for turn in ranked if turn % 2 == best % 2), key=scores.get)
    else:
        rival = ranked[1]
    agreed = len(readings) == 4 and ranked[0] == _most_confident(readings)
    return ranked[0] if scores[ranked[0]] >= scores[rival] + (CLEAR_AGREED if agreed else CLEAR) else best


def _lower(readings: dict[int, tuple[float, list[str]]], letters: list[Letter]) -> bool | None:
    """Whether the letters read in the chosen turn (see _best) are lower case, or None if Tesseract cannot say.

    Blurred capitals can read as lower-case shapes: lower case must read as lower case surely (SURE), or well
    (TRUSTED) and show in the letters' mixed heights (a sample can hold mostly x-height letters, though: a bold
    lower case read at 93 spread 1.16-1.19); read as lower case but poorly or all of a height, it is None.
    Capitals, by far the commonest, are the default."""
    score, texts = readings[_best(readings)]
    if not printed_lower(texts):
        return False
    if score >= SURE or (score >= TRUSTED and
                         imaging.height_spread(np.array([image.shape[0] for image, _ in letters])) >= LOWER_SPREAD):
        return True
    return None


def _lower_model_leads(lower: dict[int, float], capitals: dict[int, float], lead: float) -> bool:
    """Whether the classifier's lower-case model, in its surest turn, is surer of the letters than its capitals
    model in its own by ``lead``, or by ACROSS more where the two turns lie across each other: the lower-case
    model is sure of capitals turned sideways, either way."""
    best_lower, best_capitals = max(lower, key=lower.get), max(capitals, key=capitals.get)
    across = ACROSS if (best_lower - best_capitals) % 2 else 0.0
    return lower[best_lower] >= capitals[best_capitals] + lead + across


def _lead(readings: dict[int, tuple[float, list[str]]]) -> float:
    """How much surer the classifier's lower-case model must be than its capitals model of letters Tesseract
    cannot tell the case of (see _lower): LOWER_LEAD, or none where Tesseract read them as lower case at
    READ_LOWER or more."""
    score, texts = readings[_best(readings)]
    return 0.0 if score >= READ_LOWER and printed_lower(texts) else LOWER_LEAD


def _tesseract_turn(rectified_gray: np.ndarray, rows: int, cols: int, cell_px: int, engine: Engine, alphabet: str,
                    band: Callable[[int], Band]) -> tuple[int, dict[int, tuple[float, list[str]]], list[Letter]]:
    """The turn that brings the grid upright as Tesseract reads letters of the middle band (``band(count)``:
    the band holding about ``count`` letters), with the last readings and the letters they were of."""
    letters = sample_letters(band(SAMPLE), cell_px)
    readings = _readings(letters, (0, 2, 1, 3), engine, alphabet, enough=SURE)
    best = _best(readings)
    if best == 0 and _most_confident(readings) != 0:
        # Another turn read better, but not clearly: ask three times as many letters before deciding.
        letters = sample_letters(band(3 * SAMPLE), cell_px, 3 * SAMPLE)
        readings = _readings(letters, (0, 2, 1, 3), engine, alphabet, enough=SURE)
        best = _best(readings)
    if best % 2:
        # Sideways letters were read without their places on the line; turned upright, which way up they
        # are is decided with them (an upside-down p climbs above the line).
        letters = _turned_sample(rectified_gray, rows, cols, cell_px, best)
        readings = _readings(letters, (0, 2), engine, alphabet)
        best = (best + _best(readings)) % 4
    return best, readings, letters
