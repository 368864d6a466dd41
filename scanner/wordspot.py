"""Word spotting: list words Tesseract cannot read, matched letter by letter against the words the grid spells.

Tesseract reads a list of dim, blurred or tiny print as nothing or as junk, while the letter classifier still
reads the grid's own letters in it (scanner.classify). A listed word is a word the grid spells, so the question
for each word-shaped blob of ink beside the grid is not "what does it say" but "which of the grid's few dozen
dictionary words is it": each candidate word is laid over the blob letter by letter, every way its letters can
divide the blob's width (dynamic programming over cut points, each stretch of ink scored by the classifier), and
the blob takes the word that fits best when it fits well and clearly better than any other. Print too small or
blurred for its letters to be told apart still has a word's outline (its length, where its letters rise and
fall): a blob no word fits letter by letter is compared in outline with each word as printed in a plain font.
"""
from __future__ import annotations

import dataclasses
import functools

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from scanner import classify
from scanner.classify import CLASSES, LETTER_H, WINDOW
from solver.dictionary import inflected

STEP = 2  # px at the classifier's scale: where a letter may start or end
WIDTHS = np.arange(1, 12)  # a letter's width in STEPs (2-22 px for letters LETTER_H high)
MODELS = ("capitals", "lists", "faint")  # a letter's score is the best of these: lists are printed in any case
WORD_GAP = 0.45  # ink closer than this many letter heights is one word
LINES, LINE_GAP = 1.6, 0.3  # see _lines
WORD_WIDTH = 1.5  # letter heights: the narrowest word blob (a hand-lettered "train", 62 px wide on a line 34 px high)
LOCAL_INK = 0.35  # see _faint
MIN_SCORE = -0.45  # a word's mean log-probability per letter at its best division, to be taken
MIN_MARGIN = 0.15  # ... and by how much it must beat any other word that is not part of it or it of them
MIN_INK = 0.3  # a letter's stretch holds at least this share of the word's mean ink per column
SHORT = (4, -0.2, 0.3)  # words this short are common by chance in any grid: their score and margin to be taken
LONG = (8, -0.6)
"""Words this long seldom fit a blob by chance: the score they are taken at (a cursive hand-lettered list that
Tesseract read little of fitted LIGHTNING at -0.51 to -0.6, and taken, it led the search down its column to
HURRICANE and MONSOON; of 7 letters, chance words fitted as well as the list's: BRISTLE at -0.48, IMITATE at
-0.56)."""
SIZES = (0.8, 1.0, 1.25)  # letter heights tried, as factors of the measured one (blur blurs the measure)
MATCH_ROUNDS = 3  # boxes are matched to words again, at most this often, while a word taken elsewhere changes it
SPACE = 1.5  # letter heights: the widest space between the words of one entry (list columns stand further apart)
TWO_WORDS = 0.2  # two boxes on a line are tried as one entry as if its words fit this much better (see spot)
LEADER_MARGIN = 0.1  # a box cut after its leader is tried when a word fits it this much better (see spot)
LEADER, LEADER_DIP = (1.5, 3.5), 0.6  # see _after_leader: an entry's number ("18. ") is at most 3.5 letter heights
NO_FIT = -30.0
OUTLINE = (16, 64)  # rows, columns: a word's ink is compared in outline at this size (see _outline)
OUTLINE_INK = 0.4  # a word's outline spans the rows and columns with at least this share of its peak ink
OUTLINE_FONT_PX = 48  # a word is printed at this size, blurred by OUTLINE_BLUR, to compare with a blob's outline
OUTLINE_BLUR = 4.0
# Faces a word is also printed in for its outline, the first of each kind this machine has (Pillow finds them
# under the system's font folders): a serif and a monospaced face draw words of other widths and ascenders than
# Pillow's own sans, which is always used.
OUTLINE_FACES = (("LiberationSerif-Regular.ttf", "DejaVuSerif.ttf", "FreeSerif.ttf"),
                 ("DejaVuSansMono.ttf", "LiberationMono-Regular.ttf", "FreeMono.ttf"))
OUTLINE_FIT = (0.5, 0.15)  # an outline fit (see outline_fits) to be taken, and its margin over any other word
OUTLINE_SHORT = (4, 0.6, 0.2)  # words this short: their fit and margin to be taken
COLUMN_FIT = (0.3, 0.1)  # an outline fit to be taken in a blob down a column of the list, and its margin
COLUMN_STRICT = (0.4, 0.15)  # the other words down a column (see spot's column_strict): their fit and margin
COLUMN_SHORT = (4, 0.45, 0.2)  # words this short there (ROSE, LAWN, CRAB: a column's short words fit at 0.5)
AGREED = (-1.0, 0.2, 0.1)
"""A blob down a column of the list whose letters and outline (plus letters, see _both) both fit one word best
is that word when its letters fit at least AGREED[0], by AGREED[1] more than any other word's, and its outline
at least AGREED[2]: blurred REEF, WAVE and SAND under a night photo's OCTOPUS fit under the column's thresholds.
Words of AGREED_SHORT[0] letters or fewer need letters fitting at least AGREED_SHORT[1] (on fresh pages, chance
WORD and LAMB took blobs of CRAB and CLAM at -0.98 and -0.96; listed 4-letter words so taken fit -0.24 to -0.68)."""
AGREED_SHORT = (4, -0.7)
ADVANCE_WORDS, AS_LONG = 2, 1.6
"""A blob is compared in outline only with words within a factor of AS_LONG of the letters it holds at the width
per letter of the words taken letter by letter, when there are ADVANCE_WORDS of them: the outline's own width
penalty is soft, and a night photo's "kettle" fitted DEBT best in outline, another's "shower" SHOW."""
RIVAL_LONG = 1.3  # the boxes no word took are matched again letter by letter with words this near their length
COLUMN_LINES = 5.0  # letter heights: how far down a column of the list a blob may be from the next entry
LETTER_WEIGHT = 0.2  # how much a word's letter-by-letter fit (at least LETTER_FLOOR) adds to its outline fit
LETTER_FLOOR = -3.0


@dataclasses.dataclass
class PageInk:
    """A page's ink (bright on 0) scaled for each letter size of SIZES, (scale, ink), and the letter scores (see
    letter_scores) of the boxes tried on it, by (size index, box): spot tries a list's blobs against the grid's
    words, then the blobs left against other words, and a blob's letters score the same whatever the words."""
    inks: list[tuple[float, np.ndarray]]
    scores: dict[tuple[int, tuple[int, int, int, int]], np.ndarray] = dataclasses.field(default_factory=dict)
    windows: int = 0  # letter windows classified so far: the spotter's work, counted the same on any machine


def page_ink(flat: np.ndarray, letter_px: float) -> PageInk:
    """The PageInk of ``flat`` (dark print on white) scaled so that letters ``letter_px`` high are LETTER_H high,
    for each of the letter sizes SIZES."""
    return PageInk([(scale, cv2.resize(255.0 - flat.astype(np.float32), None, fx=scale, fy=scale,
                                       interpolation=cv2.INTER_AREA))
                    for scale in (LETTER_H / max(letter_px * f, 1.0) for f in SIZES)])


def word_boxes(flat: np.ndarray, letter_px: float) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of the word-shaped blobs of ink of ``flat`` (dark print on white, letters roughly
    ``letter_px`` high): ink closed across letter gaps, blobs about one line high and a few letters long (an
    entry's number or bullet may be part of its box: see spot). Ink is told from paper by one threshold for the
    whole page, and where that finds no word, by the ink near it (see _faint): a global threshold set between a
    bold title's black and the paper puts faint print on the paper's side, while on grainy paper the local one
    makes words of grain."""
    ink = cv2.GaussianBlur(255 - flat, (0, 0), max(0.5, letter_px / 12))
    _, mask = cv2.threshold(ink, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    boxes = _blobs(mask, letter_px, lines=True)
    return boxes + [b for b in _blobs(_faint(ink, letter_px), letter_px) if not any(touch(b, c) for c in boxes)]


def touch(p: tuple, q: tuple) -> bool:
    """Whether boxes (x0, y0, x1, y1) overlap at all."""
    return min(p[2], q[2]) > max(p[0], q[0]) and min(p[3], q[3]) > max(p[1], q[1])


def _blobs(mask: np.ndarray, letter_px: float, lines: bool = False) -> list[tuple[int, int, int, int]]:
    """word_boxes of an ink mask (uint8, 255 ink); with ``lines``, a blob of lines of print joined is cut into
    them (see _lines: not in the faint mask, where grain joins print)."""
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((1, max(3, int(WORD_GAP * letter_px))), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    boxes = []
    for k, (x, y, w, h, area) in enumerate(stats[1:].tolist(), 1):
        boxes += _lines(labels[y:y + h, x:x + w] == k, x, y, letter_px) if lines else [(x, y, x + w, y + h, area)]
    return [(x0, y0, x1, y1) for x0, y0, x1, y1, area in boxes
            if 0.6 * letter_px <= y1 - y0 <= 3.0 * letter_px and x1 - x0 >= WORD_WIDTH * letter_px
            and area >= 0.15 * (x1 - x0) * (y1 - y0)]


def _lines(blob: np.ndarray, x: int, y: int, letter_px: float) -> list[tuple[int, int, int, int, int]]:
    """(x0, y0, x1, y1, px) of the lines of print in one blob (bool, ink closed across letter gaps), its top
    left at ``x``, ``y``: a blob more than LINES letter heights tall is cut at its faintest row, 0.6 of a letter
    height or more from its top and bottom, where that row holds under LINE_GAP of its usual row of ink (a hand-lettered
    "luggage" hangs its g's into "hotel" below, 0.2; a title's big letters hold 0.9 of theirs across their
    middle)."""
    rows = np.count_nonzero(blob, axis=1)
    top = np.flatnonzero(rows)
    if not top.size:
        return []
    if len(rows) > LINES * letter_px:
        lo, hi = int(0.6 * letter_px), len(rows) - int(0.6 * letter_px)
        cut = lo + int(np.argmin(rows[lo:hi]))
        if rows[cut] < LINE_GAP * np.median(rows[top]):
            return _lines(blob[:cut], x, y, letter_px) + _lines(blob[cut + 1:], x, y + cut + 1, letter_px)
    cols = np.flatnonzero(blob.any(axis=0))
    return [(x + int(cols[0]), y + int(top[0]), x + int(cols[-1]) + 1, y + int(top[-1]) + 1, int(rows.sum()))]


def _faint(ink: np.ndarray, letter_px: float) -> np.ndarray:
    """uint8 mask (255) of ink (``ink`` bright on 0) that is at least LOCAL_INK of the darkest ink within a couple
    of letters, where that is well above the paper's grain."""
    size = max(3, int(2 * letter_px)) | 1
    near = cv2.GaussianBlur(cv2.dilate(ink, np.ones((size, size), np.uint8)), (0, 0), letter_px / 2)
    level = float(np.median(ink))
    grain = level + 4.0 * float(np.median(np.abs(ink - level))) + 8.0
    return (((ink >= LOCAL_INK * near) & (near >= 2 * grain)) * 255).astype(np.uint8)


def letter_heights(flat: np.ndarray, boxes: list[tuple[int, int, int, int]]) -> np.ndarray:
    """The letter height of each box's print: the rows where its ink is at least half its peak (blur spreads a
    word's ink above and below its letters, and thresholding counts that spread)."""
    heights = []
    for x0, y0, x1, y1 in boxes:
        rows = (255.0 - flat[y0:y1, x0:x1].astype(np.float32)).mean(axis=1)
        rows -= rows.min()
        heights.append(np.count_nonzero(rows >= 0.5 * rows.max()) if rows.max() > 0 else 0)
    return np.array(heights, np.float64)


def letter_scores(ink: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """(cut points, len(WIDTHS), 26) log-probabilities of each letter for the stretch of ``ink`` (ink bright on 0,
    letters LETTER_H high) that starts at each cut point of ``box`` and is each of WIDTHS wide; NO_FIT where the
    stretch runs past the box or holds too little ink to be a letter. Each stretch is seen as the classifier sees
    a grid cell: a WINDOW square on the stretch's ink, the ink outside the stretch masked off. All stretches are
    measured at once from running sums of the box's ink (a loop over them cost more than the classifier)."""
    x0, y0, x1, y1 = box
    cuts = np.arange(x0 - STEP, x1 + STEP + 1, STEP)
    scores = np.full((len(cuts), len(WIDTHS), len(CLASSES)), NO_FIT)
    band = ink[y0:y1, :].astype(np.float64)
    by_rows = np.concatenate([np.zeros((band.shape[0], 1)), np.cumsum(band, axis=1)], axis=1)
    by_column = by_rows.sum(axis=0)  # running ink per column
    mean_ink = float(band[:, max(x0, 0):x1].sum(axis=0).mean()) if x1 > x0 else 0.0
    a, k = np.meshgrid(np.arange(len(cuts)), np.arange(len(WIDTHS)), indexing="ij")
    inside = a + WIDTHS[k] < len(cuts)
    a, k = a[inside], k[inside]
    start, end = cuts[a], cuts[a + WIDTHS[k]]
    lo, hi = np.clip(start, 0, band.shape[1]), np.clip(end, 0, band.shape[1])
    width = hi - lo
    inked = (width > 0) & ((by_column[hi] - by_column[lo]) >= MIN_INK * mean_ink * np.maximum(width, 1))
    if not inked.any():
        return scores
    a, k, start, end, lo, hi = a[inked], k[inked], start[inked], end[inked], lo[inked], hi[inked]
    rows = by_rows[:, hi] - by_rows[:, lo]  # (band rows, stretches)
    total = rows.sum(axis=0)
    middle = (rows * np.arange(len(rows))[:, None]).sum(axis=0) / np.maximum(total, 1e-12)
    yc = y0 + np.where(total > 0, middle, len(rows) / 2)
    yc = (yc + (y0 + y1) / 2) / 2  # the ink's centre pulled half-way back to the line's, as for a cell
    # the windows lie within a window's size of the box: only that much of the page is padded past its edges
    oy, ox = y0 - WINDOW, x0 - STEP - WINDOW  # the page px of the padded part's corner
    region = _padded(ink, oy, ox, y1 - y0 + 2 * WINDOW, x1 - x0 + 2 * (STEP + WINDOW))
    top = np.round(yc - WINDOW / 2).astype(int) - oy
    left = np.round((start + end) / 2 - WINDOW / 2).astype(int) - ox
    windows = classify.crops(region, np.stack([top, left], axis=1), WINDOW).astype(np.float32)
    steps = np.arange(WINDOW)[None, None, :]
    keep = ((steps >= np.maximum(0, start - ox - left)[:, None, None])
            & (steps < np.maximum(0, end - ox - left)[:, None, None]))
    windows, _ = classify.stretched(windows * keep)
    p = np.max([classify.probabilities(windows, m) for m in MODELS], axis=0)
    scores[a, k] = np.log(p + 1e-9)
    return scores


def _padded(image: np.ndarray, y: int, x: int, h: int, w: int) -> np.ndarray:
    """The ``h`` x ``w`` part of ``image`` whose corner is at (``y``, ``x``), zero where it lies past the image."""
    out = np.zeros((h, w), image.dtype)
    ys, xs = slice(max(y, 0), max(min(y + h, image.shape[0]), 0)), slice(max(x, 0), max(min(x + w, image.shape[1]), 0))
    part = image[ys, xs]
    out[ys.start - y:ys.start - y + part.shape[0], xs.start - x:xs.start - x + part.shape[1]] = part
    return out


def fits(scores: np.ndarray, words: list[str]) -> np.ndarray:
    """Each word's mean log-probability per letter at its best division of the box scored by ``scores`` (see
    letter_scores): the first letter starting at one of the box's first three cut points, the last ending at one
    of its last three."""
    n_cuts = scores.shape[0]
    out = np.full(len(words), NO_FIT)
    by_length: dict[int, list[int]] = {}
    for i, w in enumerate(words):
        by_length.setdefault(len(w), []).append(i)
    for n, idx in by_length.items():
        if n > n_cuts or n * WIDTHS[-1] < n_cuts - 4:
            continue
        codes = np.array([[CLASSES.index(ch) for ch in words[i]] for i in idx])
        best = np.full((len(idx), n_cuts), -1e9)
        best[:, :3] = 0.0
        for letter in range(n):
            nxt = np.full_like(best, -1e9)
            for k, w in enumerate(WIDTHS):
                if w >= n_cuts:
                    break
                step = best[:, :n_cuts - w] + scores[:n_cuts - w, k, :][:, codes[:, letter]].T
                nxt[:, w:] = np.maximum(nxt[:, w:], step)
            best = nxt
        out[idx] = best[:, n_cuts - 3:].max(axis=1) / n
    return out


def spot(flat: np.ndarray, boxes: list[tuple[int, int, int, int]], letter_px: float,
         words: list[str], listed: list[tuple] = (), column_words: list[str] = (),
         until: int | None = None, ink: PageInk | None = None,
         column_only: frozenset[str] = frozenset(),
         column_strict: bool = False) -> list[tuple[tuple[int, int, int, int], str, float]]:
    """[(box, word, how sure, 0-1)] for the boxes of ``flat`` (dark print on white, letters ``letter_px`` high)
    that one of ``words`` (upper-case letters only) fits (see _taken). A box that starts with a mark set off by
    a dip in its ink (a bullet or an entry number, see _after_leader) is also tried from each such dip where a word
    fits there by LEADER_MARGIN better than any fits the whole box (else the dip is a gap between letters: EDIT in
    the blob of "reef"), but not a word that ends another (the dip may be inside that one: PHONE of a
    hand-lettered "saxophone"), nor a short word (SHORT) from a dip past LEADER[0] where a word is taken for the
    whole box (CAME after the dip in a hand-lettered "suitcase"; LILY after a bullet stays); and each try, with
    the box after it on its line, as if its words fit TWO_WORDS better (HIGH JUMP is one entry, not two: its
    parts are words too). A list names each word once, so boxes and words are matched (see match): SAILING fits
    the blob of "surfing" a little better than SURFING does, and the blob of "sailing" better still; SAND beside
    SQUID is no rival in the blob of "squid" where the blob of "sand" took SAND. The boxes left are matched again
    with only the words of about as many letters as they hold (RIVAL_LONG, see _as_long) free. Boxes no word fits
    letter by letter are then matched in the same way to the words left, by their outline (see outline_fits) plus
    LETTER_WEIGHT times their letters' fit, to be taken by OUTLINE_FIT (OUTLINE_SHORT).
    Last, a box that starts where an entry of the list does (``listed``: the boxes of the entries already read, or
    one taken here, the search going on down from each), a few lines from it, is a list word: the
    ``column_words`` left are matched to it by outline at COLUMN_FIT (COLUMN_SHORT), or taken where its letters
    and its outline fit one of them best (AGREED, see _agreed).
    How sure: e to the mean log-probability per letter for a word fitted letter by letter; its outline fit,
    at most 1, for one matched in outline. ``until``: the count of letter windows classified on ``ink``
    (ink.windows) from which no further box is tried (an unreadable list's 40 blobs cost seconds; counted in work,
    not time, the same blobs are tried on any machine and under any load).
    ``ink``: the page_ink of ``flat`` at ``letter_px`` from an earlier call, with its boxes' letter scores.
    ``column_only``: those of ``words`` (and ``column_words``) taken only down a column of the list.
    ``column_strict``: the other ``words`` too are matched down the columns last, at COLUMN_STRICT (OUTLINE_SHORT)."""
    words = [w for w in words if w and all(ch in CLASSES for ch in w)]
    if not words or not boxes:
        return []
    ink = ink or page_ink(flat, letter_px)
    only = np.array([w in column_only for w in words])

    def barred(fit: np.ndarray) -> np.ndarray:
        """``fit`` with the words taken only down a column fitting nowhere."""
        return np.where(only, NO_FIT, fit)

    tail = np.array([any(v != w and v.endswith(w) for v in words) for w in words])
    short = np.array([len(w) <= SHORT[0] for w in words])
    tries = []  # (how well the try fits, for the order; the boxes' indices; the box tried; each word's fit)
    for i, box in enumerate(boxes):
        if until is not None and ink.windows >= until:
            break
        whole = _fits(box, ink, words)
        open_fit = barred(whole)
        best = open_fit.max()
        tries.append((best, (i,), box, whole))
        starts = [box[0]]
        whole_taken = _taken(open_fit, words, long=LONG) is not None
        for cut in _after_leader(flat, box, letter_px):
            far = whole_taken and cut[0] - box[0] > LEADER[0] * letter_px  # past a one-digit number or a bullet
            fit = np.where(tail | (short & far), NO_FIT, _fits(cut, ink, words))
            if (order := barred(fit).max()) > best + LEADER_MARGIN:  # a mark before the word, not a gap
                tries.append((order, (i,), cut, fit))
                starts.append(cut[0])
        j = _next_on_line(boxes, i, letter_px)
        for x0 in starts if j is not None else ():
            both = (x0, min(box[1], boxes[j][1]), boxes[j][2], max(box[3], boxes[j][3]))
            fit = _fits(both, ink, words)
            tries.append((barred(fit).max() + TWO_WORDS, (i, j), both, fit))
    found = match([(order, at, box, barred(fit)) for order, at, box, fit in tries], words, long=LONG)
    if (advance := _advance(found)) is not None:
        # the boxes left, with no rival of more or fewer letters than the box holds at the page's width per letter
        # (DOOR, each letter drawn wide, fitted a night photo's "ticket" about as well as TICKET)
        free = _untaken(words, [t for *_, t, _ in found])
        left = [(order, at, box, np.where(free & _as_long(box, advance, words, RIVAL_LONG), barred(fit), NO_FIT))
                for order, at, box, fit in tries if not any(touch(box, b) for _, b, *_ in found)]
        found = sorted(found + match(left, words, long=LONG))
    # the boxes no word fits letter by letter, compared in outline with the words not taken (nor part of one
    # taken, nor holding one), helped a little by how their letters fit
    free = _untaken(words, [t for *_, t, _ in found])
    advance = _advance(found)
    rest, letters = [], {}
    for _, at, box, fit in tries:
        if len(at) == 1 and not any(touch(box, b) for _, b, *_ in found):
            whole = _both(flat, box, words, fit)
            both = np.where(free & _as_long(box, advance, words), whole, NO_FIT)
            rest.append((barred(both).max(), at, box, both))
            letters[at] = fit, whole
    sure = [(i, box, word, float(np.exp(fit))) for i, box, word, fit in found]
    outlines = [(order, at, box, barred(both)) for order, at, box, both in rest]
    sure += [(i, box, word, min(fit, 1.0)) for i, box, word, fit in match(outlines, words, OUTLINE_FIT, OUTLINE_SHORT)]
    # a blob down a column of the list's entries is a list word: the words left are matched to it more freely,
    # and taken where its letters and its outline agree; the words taken only there, for the blobs no other word
    # takes (as rivals they cost a blurred column its CRAB)
    common = {at: (barred(fit), barred(whole)) for at, (fit, whole) in letters.items()}
    rounds = [([w for w in column_words if w not in column_only], common)]
    rounds += [(column_words, letters)] if column_only else []
    for free, fits in rounds:
        while more := (match(column := _down_column(rest, sure, listed, words, free, letter_px), words,
                             COLUMN_FIT, COLUMN_SHORT)  # each blob taken so puts the next one down in the column
                       or match(_agreed(column, fits, words), words, (AGREED[2], 0.0), (0, AGREED[2], 0.0))):
            sure += [(i, box, word, min(fit, 1.0)) for i, box, word, fit in more]
    others = [w for w in words if w not in column_words] if column_strict else []
    while others and (more := match(_down_column(rest, sure, listed, words, others, letter_px), words,
                                    COLUMN_STRICT, OUTLINE_SHORT)):
        sure += [(i, box, word, min(fit, 1.0)) for i, box, word, fit in more]
    return [(box, word, p) for _, box, word, p in _joined(sorted(sure, key=lambda f: f[0]), boxes, letter_px, words)]


def _advance(found: list[tuple[int, tuple, str, float]]) -> float | None:
    """The median width per letter of the boxes of the words ``found`` letter by letter (see match), None with
    fewer than ADVANCE_WORDS of them."""
    if len(found) < ADVANCE_WORDS:
        return None
    return float(np.median([(box[2] - box[0]) / len(word) for _, box, word, _ in found]))


def _as_long(box: tuple[int, int, int, int], advance: float | None, words: list[str],
             factor: float = AS_LONG) -> np.ndarray:
    """Which of ``words`` have about as many letters as ``box`` holds at ``advance`` px a letter (within
    ``factor``); all of them when the advance is not known."""
    lengths = np.array([len(w) for w in words], np.float64)
    if advance is None:
        return np.ones(len(words), bool)
    held = (box[2] - box[0]) / advance
    return (lengths <= factor * held) & (lengths >= held / factor)


def word_fits(flat: np.ndarray, box: tuple[int, int, int, int], letter_px: float, words: list[str]) -> np.ndarray:
    """Each of ``words``' fit to the print of ``box`` on ``flat`` (letters ``letter_px`` high) in outline, helped
    a little by its letters' fit, as boxes no word fits letter by letter are judged in spot."""
    words = [w if all(ch in CLASSES for ch in w) else "" for w in words]
    return _both(flat, box, words, _fits(box, page_ink(flat, letter_px), words))


def _both(flat: np.ndarray, box: tuple[int, int, int, int], words: list[str], fit: np.ndarray) -> np.ndarray:
    """The words' outline fits to ``box`` plus LETTER_WEIGHT times their letters' fit ``fit`` (at least
    LETTER_FLOOR)."""
    return outline_fits(flat, box, words) + LETTER_WEIGHT * np.maximum(fit, LETTER_FLOOR)


def _untaken(words: list[str], taken: list[str]) -> np.ndarray:
    """Which of ``words`` are free to take: neither one of ``taken`` nor part of one nor holding one."""
    return np.array([not any(w in t or t in w for t in taken) for w in words], bool)


def _down_column(rest: list[tuple], sure: list[tuple], listed: list[tuple], words: list[str],
                 column_words: list[str], letter_px: float) -> list[tuple]:
    """The ``rest`` tries (see spot) of blobs down a column of the list (see _in_column) from an entry ``listed``
    or taken (``sure``), touching none, with only the ``column_words`` not taken free to be matched."""
    placed = list(listed) + [box for _, box, *_ in sure]
    free = _untaken(words, [t for *_, t, _ in sure]) & np.isin(words, list(column_words))
    return [(order, at, box, np.where(free, both, NO_FIT)) for order, at, box, both in rest
            if not any(touch(box, b) for b in placed) and _in_column(box, placed, letter_px)]


def _agreed(column: list[tuple], letters: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]],
            words: list[str]) -> list[tuple]:
    """The ``column`` tries (see _down_column) whose word of best fit in outline (plus letters) fits their letters
    best too, of all the words (``letters``: each try's letter fits and outline fits, by its boxes' indices), is
    free, and fits at least AGREED[0] (AGREED_SHORT) and by AGREED[1] more than any other word that neither holds
    it nor is held in it: each with only that word free."""
    out = []
    for order, at, box, both in column:
        fit, whole = letters[at]
        k = int(np.argmax(whole))
        if both[k] <= NO_FIT or k != int(np.argmax(fit)):
            continue
        rival = _rival(fit, words, k)
        least = AGREED_SHORT[1] if len(words[k]) <= AGREED_SHORT[0] else AGREED[0]
        if fit[k] >= least and fit[k] - rival >= AGREED[1]:
            out.append((order, at, box, np.where(np.arange(len(words)) == k, both, NO_FIT)))
    return out


def _in_column(box: tuple, placed: list[tuple], letter_px: float) -> bool:
    """Whether ``box`` starts where one of ``placed`` does, within a letter height, at most COLUMN_LINES lines
    above or below it."""
    return any(abs(box[0] - b[0]) < letter_px and max(box[1], b[1]) - min(box[3], b[3]) < COLUMN_LINES * letter_px
               for b in placed)


def _joined(found: list[tuple[int, tuple, str, float]], boxes: list[tuple[int, int, int, int]], letter_px: float,
            words: list[str]) -> list[tuple[int, tuple, str, float]]:
    """``found`` ((first box index, box, word, how sure), in box order) with two words taken by neighbouring boxes
    of one line (see _next_on_line) made one entry where the two end to end are one of ``words``: ROAD fitted in
    outline and TRIP letter by letter are the entry ROAD TRIP, however each part was taken."""
    at = {i: k for k, (i, *_) in enumerate(found)}
    out, done = [], set()
    for k, (i, box, word, p) in enumerate(found):
        if k in done:
            continue
        j = _next_on_line(boxes, i, letter_px)
        if j in at and at[j] != k and word + found[at[j]][2] in words:
            _, after, second, q = found[at[j]]
            box, word, p = (box[0], min(box[1], after[1]), after[2], max(box[3], after[3])), word + second, min(p, q)
            done.add(at[j])
        out.append((i, box, word, p))
    return out


def match(tries: list[tuple[float, tuple[int, ...], tuple, np.ndarray]], words: list[str],
          least: tuple[float, float] = (MIN_SCORE, MIN_MARGIN),
          short: tuple[int, float, float] = SHORT,
          long: tuple[int, float] | None = None) -> list[tuple[int, tuple, str, float]]:
    """[(first box index, box tried, word, its fit)], in box order, for the ``tries`` ((order, indices of the
    boxes it covers, box tried, each of ``words``' fit there)) that take a word (see _taken), each box and each
    word once at most: tries best first (highest order), later ones taking neither a word nor a box an earlier
    one took; then again, up to MATCH_ROUNDS times, with no rival in a box that another box took, whole or in
    part, with a better fit. A plural or past form is taken only where it fits by the margin better than its
    word: a night photo's "Shower" and "Drought" fitted SHOWERS and DROUGHTS a little better, which a chance S
    or a misread cell after the placed words spelt. ``least``, ``short`` and ``long``: see _taken."""
    held = np.array([[w in word for word in words] for w in words])  # [i, j]: words[i] is part of words[j]
    stems = np.array([[inflected(w, v) for v in words] for w in words])  # [i, j]: words[i] is a form of words[j]
    forms = np.eye(len(words), dtype=bool) | stems | stems.T  # [i, j]: one word, or a form of the other
    found: dict[tuple[int, ...], tuple] = {}
    for _ in range(MATCH_ROUNDS):
        before, found, used = found, {}, set()
        free = np.ones(len(words), bool)
        for _, at, box, fit in sorted(tries, key=lambda t: -t[0]):
            hit = None if used & set(at) else _taken(np.where(free & ~_elsewhere(before, at, fit, held), fit,
                                                              NO_FIT), words, least, short, long)
            if hit is not None:
                margin = _least(words[hit], least, short, long)[1]
                plain = np.flatnonzero(stems[hit] & free & (fit >= fit[hit] - margin))
                hit = int(plain[np.argmax(fit[plain])]) if plain.size else hit
                free &= ~forms[hit]
                used |= set(at)
                found[at] = (box, hit, float(fit[hit]))
        if found == before:
            break
    return [(at[0], box, words[hit], fit) for at, (box, hit, fit) in sorted(found.items())]


def _elsewhere(found: dict[tuple[int, ...], tuple], at: tuple[int, ...], fit: np.ndarray,
               held: np.ndarray) -> np.ndarray:
    """Which words a try of other boxes than ``at`` took in ``found`` ({box indices: (box, word index, fit)}),
    whole or as part of its word (``held``, see match: ORAL of CORAL), fitting it better than they fit the boxes
    ``at`` (``fit``): no rival there."""
    out = np.zeros(len(fit), bool)
    for other, (_, word, there) in found.items():
        if not set(other) & set(at):
            out |= held[:, word] & (fit < there)
    return out


def _next_on_line(boxes: list[tuple[int, int, int, int]], i: int, letter_px: float) -> int | None:
    """The index of the box that follows box ``i`` on its line within SPACE letter heights (the second word of
    an entry such as POLAR BEAR), or None."""
    x0, y0, x1, y1 = boxes[i]
    after = [(b[0], j) for j, b in enumerate(boxes) if x1 < b[0] <= x1 + SPACE * letter_px
             and min(y1, b[3]) - max(y0, b[1]) >= 0.5 * min(y1 - y0, b[3] - b[1])]
    return min(after)[1] if after else None


def _fits(box: tuple[int, int, int, int], ink: PageInk, words: list[str]) -> np.ndarray:
    """Each word's fit (see fits) to ``box`` at the best of the letter sizes of ``ink``."""
    out = []
    for k, (scale, image) in enumerate(ink.inks):
        if (k, box) not in ink.scores:
            ink.scores[k, box] = letter_scores(image, tuple(int(round(v * scale)) for v in box))
            ink.windows += scored_windows(ink.scores[k, box])
        out.append(fits(ink.scores[k, box], words))
    return np.max(out, axis=0)


def scored_windows(scores: np.ndarray) -> int:
    """The letter windows classified for a box's ``scores`` (see letter_scores): the spotter's work."""
    return int(np.count_nonzero(scores[:, :, 0] > NO_FIT))


def _taken(fit: np.ndarray, words: list[str], least: tuple[float, float] = (MIN_SCORE, MIN_MARGIN),
           short: tuple[int, float, float] = SHORT, long: tuple[int, float] | None = None) -> int | None:
    """The index of the word that fits (``fit``: each word's) at least ``least[0]`` and by ``least[1]`` more
    than any other word that neither holds it nor is held in it (PLANE and PLANET are the same blob read shorter
    or longer), or for words of at most ``short[0]`` letters, ``short[1]`` and ``short[2]``, and if ``long`` is
    given, for words of at least ``long[0]`` letters ``long[1]`` by ``least[1]``; None when none does."""
    k = int(np.argmax(fit))
    least, margin = _least(words[k], least, short, long)
    return k if fit[k] >= least and fit[k] - _rival(fit, words, k) >= margin else None


def _least(word: str, least: tuple[float, float], short: tuple[int, float, float],
           long: tuple[int, float] | None = None) -> tuple[float, float]:
    """The fit and margin ``word`` is taken at (see _taken): ``short``'s for words of at most short[0] letters,
    ``long``'s fit for words of at least long[0]."""
    if len(word) <= short[0]:
        return short[1:]
    return (long[1], least[1]) if long is not None and len(word) >= long[0] else least


def _rival(fit: np.ndarray, words: list[str], k: int) -> float:
    """The best fit of the words other than ``words[k]`` that neither hold it nor are held in it (NO_FIT if none):
    a word read shorter or longer is the same blob, no rival."""
    return max((fit[i] for i in range(len(words)) if i != k and words[i] not in words[k]
                and words[k] not in words[i]), default=NO_FIT)


def outline_fits(flat: np.ndarray, box: tuple[int, int, int, int], words: list[str]) -> np.ndarray:
    """Each word's likeness in outline to the ink of ``box`` on ``flat`` (dark print on white): the correlation
    of the two outlines (see _outline) less half the log of the ratio of their widths to heights, at the best of
    the word in capitals, in lower case and in title case; NO_FIT where the box holds no ink."""
    x0, y0, x1, y1 = box
    pad = (y1 - y0) // 3  # blur spreads the ink past the box a little
    ink = 255.0 - flat[max(0, y0 - pad):y1 + pad, max(0, x0 - 2):x1 + 2].astype(np.float32)
    seen = _outline(ink)
    if seen is None:
        return np.full(len(words), NO_FIT)
    shape, aspect = seen
    return np.array([max(float((shape * w_shape).mean()) - 0.5 * abs(np.log(aspect / w_aspect))
                         for w_shape, w_aspect in filter(None, (_printed(text, face) for face in _faces()
                                                                for text in (w, w.lower(), w.title()))))
                     if w else NO_FIT for w in words])


def _outline(ink: np.ndarray) -> tuple[np.ndarray, float] | None:
    """(the outline of the ink (bright on dark) of one word: its box, the rows and columns with at least
    OUTLINE_INK of its peak, resampled to OUTLINE, blurred a little, scaled to zero mean and unit variance; the
    box's width over its height), None when there is no ink."""
    ink = np.clip(ink - np.percentile(ink, 10), 0, None)  # the paper's level, whatever the print covers
    if ink.max() <= 0:
        return None
    ys, xs = np.nonzero(ink >= OUTLINE_INK * ink.max())
    ink = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    shape = cv2.GaussianBlur(cv2.resize(ink, OUTLINE[::-1], interpolation=cv2.INTER_AREA), (0, 0), 1.0)
    return (shape - shape.mean()) / (shape.std() + 1e-6), ink.shape[1] / ink.shape[0]


@functools.lru_cache(maxsize=1)
def _faces() -> tuple[ImageFont.FreeTypeFont | ImageFont.ImageFont, ...]:
    """Pillow's own font and the first face of each kind of OUTLINE_FACES found, at OUTLINE_FONT_PX."""
    faces = [ImageFont.load_default(size=OUTLINE_FONT_PX)]
    for kind in OUTLINE_FACES:
        for name in kind:
            try:
                faces.append(ImageFont.truetype(name, OUTLINE_FONT_PX))
                break
            except OSError:
                continue
    return tuple(faces)


@functools.lru_cache(maxsize=16384)
def _printed(text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> tuple[np.ndarray, float] | None:
    """The outline of ``text`` printed in ``font`` (one of _faces), blurred as small print in a photo is."""
    page = Image.new("L", (OUTLINE_FONT_PX * (len(text) + 1), 2 * OUTLINE_FONT_PX), 0)
    ImageDraw.Draw(page).text((OUTLINE_FONT_PX // 2, OUTLINE_FONT_PX // 4), text, font=font, fill=255)
    return _outline(cv2.GaussianBlur(np.asarray(page, np.float32), (0, 0), OUTLINE_BLUR))


def _after_leader(flat: np.ndarray, box: tuple[int, int, int, int], letter_px: float) -> list[tuple]:
    """``box`` from the faintest column of ink within LEADER[0] letter heights of its start, and from the faintest
    from there to LEADER[1], where each is a clear dip between a mark before it (a bullet, an entry number) and the
    word after it. A blurred "13. ARCHERY" dips between its digits, then after the number."""
    x0, y0, x1, y1 = box
    column = (255.0 - flat[y0:y1, x0:x1].astype(np.float32)).sum(axis=0)
    cuts = []
    for a, b in ((0.0, LEADER[0]), LEADER):
        a, b = max(1, int(a * letter_px)), min(int(b * letter_px), len(column) - int(2 * letter_px))
        if b - a < 1:
            continue
        at = a + int(np.argmin(column[a:b]))
        if column[at] <= LEADER_DIP * min(column[:at].max(), float(np.median(column[at:]))):
            cuts.append((x0 + at, y0, x1, y1))
    return cuts
