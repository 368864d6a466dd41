"""Word spotting: list words Tesseract cannot read, matched against the words the grid spells.

Tesseract reads a list of dim, blurred or tiny print as nothing or as junk, while a reader trained on such print
(scanner.wordread) still sees the words in it. A listed word is a word the grid spells, so the question for each
word-shaped blob of ink beside the grid is not "what does it say" but "which of the grid's few dozen dictionary
words is it": each candidate word is weighed by its probability given the blob's print, against what the
reader reads there, and the blob takes the word that fits best when it fits well and clearly better than any
other. The reader sees whole words, numbers and bullets included, so a blob needs no cutting into letters.
"""
from __future__ import annotations

import dataclasses
import functools

import cv2
import numpy as np

from scanner import wordread
from solver.dictionary import inflected

CLASSES = wordread.SYMBOLS[:wordread.LETTERS]  # the letters a spotted word may hold
WORD_GAP = 0.45  # ink closer than this many letter heights is one word
WORD_LOW, X_HEIGHT = 0.6, 0.45  # letter heights: the least height of a word blob, of a lower-case one (word_boxes)
LINES, LINE_GAP = 1.6, 0.3  # see _lines
FRAGMENT = 0.4  # letter heights: the least height of a piece of a word (see _mended)
MEND_HEIGHT = 1.15  # the pieces of a word joined are at most this much taller than the taller piece (see _mended)
WORD_WIDTH = 1.5  # letter heights: the narrowest word blob (a hand-lettered "train", 62 px wide on a line 34 px high)
LOCAL_INK = 0.35  # see _faint
SLOT_CONTRAST, SLOT_FILL = 3.5, 0.75  # see slot_boxes
RULE_FILL, RULE_THICK, RULE_GAP = 0.9, 0.4, 0.25  # see _rule_rows
MIN_SCORE = -2.0  # a word's fit (see _fits) to be taken
MIN_MARGIN = 0.3  # ... and by how much it must beat any other word that is not part of it or it of them
DOUBT_COST = 3.0  # nats: how much worse a word the grid spells only but for a cell fits (see spot)
SHORT = (4, -0.6, 0.6)  # words this short are common by chance in any grid: their score and margin to be taken
CLEAR = (-2.0, 2.0)  # ... or, where no other word comes near (a hand-lettered "worm": WORM -1.42, the next -3.33)
LONG = (8, -2.5)  # words this long seldom fit a blob by chance: the score they are taken at
MATCH_ROUNDS = 3  # boxes are matched to words again, at most this often, while a word taken elsewhere changes it
SPACE = 2.0  # letter heights: the widest space between the words of one entry (list columns stand further apart)
TWO_WORDS = 0.2  # two boxes on a line are tried as one entry as if its words fit this much better (see spot)
NO_FIT = -30.0
COLUMN_FIT = (-2.5, 0.2)  # a fit to be taken in a blob down a column of the list, and its margin
COLUMN_SHORT = (4, -1.0, 0.4)  # words this short there
COLUMN_LINES = 5.0  # letter heights: how far down a column of the list a blob may be from the next entry
COLUMN_ALIGN = 1.5
"""Letter heights: how far apart the left edges of two blobs of one list column may be. An entry's bullet joins its
word's blob or stands apart, as the blur has it: a night photo's "• Reef" started 1.3 letter heights right of
"• Salmon" below it."""
PRINT_LEVEL = 4.0
"""A box whose darkest row is darker than its lightest by less than this (mean grey levels) holds no print (see
letter_heights): bare paper in a list column's empty place, its rows 1 level apart, measured a whole line high;
the faintest pieces of words on night photos' lists stand 8 levels apart and more."""
WIDE = (2.0, 2)
"""A word is not taken in a blob wider than WIDE[0] letter heights for each of its letters and WIDE[1] more (an
entry's number or bullet): the reader spreads a word's letters over any width, and specks of a cloth round a
no-list page, 27 letter heights long, fitted ASS."""


@dataclasses.dataclass
class PageInk:
    """A page (dark print on white) and what the word reader made of the boxes tried on it, by box: the list's blobs
    are tried on a page more than once (in the commonest print, then in larger), and a blob reads the same
    whatever the words."""
    flat: np.ndarray
    reads: dict[tuple[int, int, int, int], np.ndarray] = dataclasses.field(default_factory=dict)
    steps: int = 0  # steps the reader took so far (see wordread.log_probs): the spotter's work, the same anywhere

    @functools.cached_property
    def paper(self) -> float:
        """The page's wordread.paper_level, for wordread.crop."""
        return wordread.paper_level(self.flat)


def page_ink(flat: np.ndarray) -> PageInk:
    """The PageInk of ``flat``, nothing read yet."""
    return PageInk(flat)


def word_boxes(flat: np.ndarray, letter_px: float, lower: bool = False) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of the word-shaped blobs of ink of ``flat`` (dark print on white, letters roughly
    ``letter_px`` high): ink closed across letter gaps, blobs about one line high and a few letters long (an
    entry's number or bullet may be part of its box: see spot). Ink is told from paper by one threshold for the
    whole page, and where that finds no word, by the ink near it (see _faint): a global threshold set between a
    bold title's black and the paper puts faint print on the paper's side, while on grainy paper the local one
    makes words of grain. In ``lower`` case print, a blob X_HEIGHT to WORD_LOW letter heights high that touches
    no taller one is a word with no ascender or descender ("venus" in a hand-lettered list whose height Tesseract
    measured on "galaxy"), its box grown to the line's height about its middle, as the word reader sees words."""
    ink, mask = _thresholded(flat, letter_px)
    found = _blobs(mask, letter_px, lines=True, shortest=X_HEIGHT if lower else WORD_LOW)
    boxes = [b for b in found if b[3] - b[1] >= WORD_LOW * letter_px]
    short = [b for b in found if b[3] - b[1] < WORD_LOW * letter_px and not any(touch(b, c) for c in boxes)]
    grow = [int(round((letter_px - (y1 - y0)) / 2)) for _, y0, _, y1 in short]
    boxes += [(x0, max(0, y0 - g), x1, min(flat.shape[0], y1 + g)) for (x0, y0, x1, y1), g in zip(short, grow)]
    return boxes + [b for b in _blobs(_faint(ink, letter_px), letter_px) if not any(touch(b, c) for c in boxes)]


def slot_boxes(flat: np.ndarray, slots: list[tuple[int, int, int, int]],
               letter_px: float) -> list[tuple[int, int, int, int]]:
    """word_boxes within each of ``slots`` (boxes of ``flat`` where a list's column lacks an entry), the ink told
    from the paper there alone: the page's one threshold, set between a bold title's or the table's black and the
    paper, put a night photo's thin grey "Giraffe" on the paper's side, and the faint one (see _faint) wants
    print well above the paper's grain. Where the two sides of that threshold stand less than SLOT_CONTRAST times
    the paper's own spread apart, the slot holds grain alone (split at its mean, noise stands 2.7 apart); a blob
    filling more than SLOT_FILL of its box is no word but a solid band, the sheet's shadowed edge past a list's
    last line (0.8-0.97; words of blurred print 0.48-0.68)."""
    out = []
    pad = int(0.5 * letter_px)
    for slot in slots:
        x0, y0 = max(0, slot[0] - pad), max(0, slot[1] - pad)
        x1, y1 = min(flat.shape[1], slot[2] + pad), min(flat.shape[0], slot[3] + pad)
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        ink, mask = _thresholded(flat[y0:y1, x0:x1], letter_px)
        fore, back = ink[mask > 0], ink[mask == 0]
        if fore.size and back.size and fore.mean() - back.mean() >= SLOT_CONTRAST * max(float(back.std()), 1.0):
            out += [(b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0) for b in _blobs(mask, letter_px, lines=True)
                    if slot[1] - y0 <= (b[1] + b[3]) / 2 <= slot[3] - y0  # not the line above or below
                    and np.count_nonzero(mask[b[1]:b[3], b[0]:b[2]]) <= SLOT_FILL * (b[2] - b[0]) * (b[3] - b[1])]
    return out


def _thresholded(flat: np.ndarray, letter_px: float) -> tuple[np.ndarray, np.ndarray]:
    """(the ink of ``flat``, bright on 0, smoothed at a stroke's scale; its mask at Otsu's threshold, 255 ink)."""
    ink = cv2.GaussianBlur(255 - flat, (0, 0), max(0.5, letter_px / 12))
    return ink, cv2.threshold(ink, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]


def touch(p: tuple, q: tuple) -> bool:
    """Whether boxes (x0, y0, x1, y1) overlap at all."""
    return min(p[2], q[2]) > max(p[0], q[0]) and min(p[3], q[3]) > max(p[1], q[1])


def _blobs(mask: np.ndarray, letter_px: float, lines: bool = False,
           shortest: float = WORD_LOW) -> list[tuple[int, int, int, int]]:
    """word_boxes of an ink mask (uint8, 255 ink), at least ``shortest`` letter heights high; with ``lines``, a
    blob of lines of print joined is cut into them (see _lines) and the pieces of a word are joined (see
    _mended): not in the faint mask, where grain joins print, and where specks lie as close as letters."""
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((1, _gap(letter_px) + 1), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    boxes = []
    for k, (x, y, w, h, area) in enumerate(stats[1:].tolist(), 1):
        boxes += _lines(labels[y:y + h, x:x + w] == k, x, y, letter_px) if lines else [(x, y, x + w, y + h, area)]
    return [(x0, y0, x1, y1) for x0, y0, x1, y1, area in (_mended(boxes, letter_px) if lines else boxes)
            if shortest * letter_px <= y1 - y0 <= 3.0 * letter_px and x1 - x0 >= WORD_WIDTH * letter_px
            and area >= 0.15 * (x1 - x0) * (y1 - y0)]


def _gap(letter_px: float) -> int:
    """The widest gap in px between the ink of one word (WORD_GAP letter heights)."""
    return max(2, int(WORD_GAP * letter_px) - 1)


def _mended(boxes: list[tuple[int, int, int, int, int]], letter_px: float) -> list[tuple[int, int, int, int, int]]:
    """``boxes`` (x0, y0, x1, y1, px), in their order, with the pieces of a word that faint letters broke apart
    joined: boxes FRAGMENT to LINES letter heights high, level with each other (overlapping by half the taller,
    and together at most MEND_HEIGHT times as tall: a small photo's "RUGBY" took in a lower mark beside it and
    its box grew by half) and as close as the ink of one word (see _gap), though their ink met on no one row (see
    _blobs). A night photo's blurred "blender" was three boxes, none of them whole: the bars of a serif face hold
    more ink than its stems, and the ink of "BLE" lay in the top and bottom rows of its line where that of "NDER"
    lay in the middle."""
    piece = [FRAGMENT * letter_px <= b[3] - b[1] <= LINES * letter_px for b in boxes]
    gap = _gap(letter_px)
    out: list[list] = []  # [box, the index of its first piece in boxes]
    reach: list[int] = []  # the indices of out that a box further right may still join
    for i in sorted(np.flatnonzero(piece), key=lambda i: boxes[i]):
        b = boxes[i]
        reach = [k for k in reach if b[0] - out[k][0][2] <= gap]
        for k in reach:
            o = out[k][0]
            taller = max(b[3] - b[1], o[3] - o[1])
            if (min(b[3], o[3]) - max(b[1], o[1]) >= 0.5 * taller
                    and max(b[3], o[3]) - min(b[1], o[1]) <= MEND_HEIGHT * taller):
                out[k] = [(o[0], min(o[1], b[1]), max(o[2], b[2]), max(o[3], b[3]), o[4] + b[4]), min(out[k][1], i)]
                break
        else:
            reach.append(len(out))
            out.append([b, i])
    out += [[b, i] for i, (b, p) in enumerate(zip(boxes, piece)) if not p]
    return [b for b, _ in sorted(out, key=lambda o: o[1])]


def _lines(blob: np.ndarray, x: int, y: int, letter_px: float) -> list[tuple[int, int, int, int, int]]:
    """(x0, y0, x1, y1, px) of the lines of print in one blob (bool, ink closed across letter gaps), its top
    left at ``x``, ``y``: a blob more than LINES letter heights tall is cut at its faintest row, 0.6 of a letter
    height or more from its top and bottom, where that row holds under LINE_GAP of its usual row of ink (a
    hand-lettered "luggage" hangs its g's into "hotel" below, 0.2; a title's big letters hold 0.9 of theirs
    across their middle), both counted over the ink every row holds (the side of a frame its words touch). A
    rule along its top or bottom edge is cut off first (see _rule_rows)."""
    rows = np.count_nonzero(blob, axis=1)
    top = np.flatnonzero(rows)
    if not top.size:
        return []
    rule = _rule_rows(rows, blob.shape[1], letter_px)
    if rule.any():  # a frame's rule joined to the words under or over it: the words are apart from it
        rest = blob & ~rule[:, None]
        _, labels, stats, _ = cv2.connectedComponentsWithStats(rest.astype(np.uint8), connectivity=8)
        return [box for k, (bx, by, bw, bh, _) in enumerate(stats[1:].tolist(), 1)
                for box in _lines(labels[by:by + bh, bx:bx + bw] == k, x + bx, y + by, letter_px)]
    if len(rows) > LINES * letter_px:
        lo, hi = int(0.6 * letter_px), len(rows) - int(0.6 * letter_px)
        cut = lo + int(np.argmin(rows[lo:hi]))
        side = int(rows[top[0]:top[-1] + 1].min())  # a frame's side, in every row, joining a boxed list's lines
        above = rows[rows > side] - side
        if above.size and rows[cut] - side < LINE_GAP * np.median(above):
            return _lines(blob[:cut], x, y, letter_px) + _lines(blob[cut + 1:], x, y + cut + 1, letter_px)
    cols = np.flatnonzero(blob.any(axis=0))
    return [(x + int(cols[0]), y + int(top[0]), x + int(cols[-1]) + 1, y + int(top[-1]) + 1, int(rows.sum()))]


def _rule_rows(rows: np.ndarray, width: int, letter_px: float) -> np.ndarray:
    """Which rows of a blob (``rows``: each one's ink count; ``width``: the blob's) are a rule along its top or
    bottom edge: rows RULE_FILL full or more within RULE_THICK letter heights of the edge, set apart from the
    rest by a row under RULE_GAP full just past them, with a letter height of the blob beside them. The frame
    round a hand-lettered list, its side touched by "knife", made one blob of the rule and the word, whose box,
    as tall as a letter and the gap, measured its print 2 px high, not 16; the bars of hand-lettered capitals
    are as full and thin, but their strokes follow with no gap."""
    full = rows >= RULE_FILL * width
    band = int(RULE_THICK * letter_px)
    out = np.zeros(len(rows), bool)
    if len(rows) >= 2 * band + letter_px:
        for order in (slice(None), slice(None, None, -1)):  # from the top edge, then from the bottom
            near, past = full[order][:band], rows[order][band:2 * band]
            if near.any() and not full[order][band] and past.min() < RULE_GAP * width:
                out[order][:band] = near
    return out


def _faint(ink: np.ndarray, letter_px: float) -> np.ndarray:
    """uint8 mask (255) of ink (``ink`` bright on 0) that is at least LOCAL_INK of the darkest ink within a couple
    of letters, where that is well above the paper's grain."""
    size = max(3, int(2 * letter_px)) | 1
    near = cv2.GaussianBlur(cv2.dilate(ink, np.ones((size, size), np.uint8)), (0, 0), letter_px / 2)
    level = float(np.median(ink))
    grain = level + 4.0 * float(np.median(np.abs(ink - level))) + 8.0
    return (((ink >= LOCAL_INK * near) & (near >= 2 * grain)) * 255).astype(np.uint8)


def contrast(flat: np.ndarray, box: tuple[int, int, int, int]) -> float:
    """How dark the print of ``box`` (x0, y0, x1, y1) of ``flat`` (dark print on white) stands against its paper:
    its darkest ink (95th percentile) less its median, in grey levels (0 for an empty box)."""
    x0, y0, x1, y1 = (max(int(v), 0) for v in box)
    ink = 255.0 - flat[y0:y1, x0:x1].astype(np.float32)
    return float(np.percentile(ink, 95) - np.median(ink)) if ink.size else 0.0


def letter_heights(flat: np.ndarray, boxes: list[tuple[int, int, int, int]]) -> np.ndarray:
    """The letter height of each box's print: the span of rows from the first to the last where its ink is at
    least half its peak (blur spreads a word's ink above and below its letters, and thresholding counts that
    spread). The span, not the count of such rows: a thin monospaced face at night holds its ink in its serifs and
    bars, its stems under half the peak between them, and counted row by row its "GUITAR" measured 8 px high on a
    line whose "VIOLIN" measured 16, too low to be spotted as the list's print. A box of no print (PRINT_LEVEL)
    measures 0."""
    heights = []
    for x0, y0, x1, y1 in boxes:
        rows = (255.0 - flat[y0:y1, x0:x1].astype(np.float32)).mean(axis=1)
        rows -= rows.min()
        half = np.flatnonzero(rows >= 0.5 * rows.max())
        heights.append(half[-1] - half[0] + 1 if rows.max() >= PRINT_LEVEL else 0)
    return np.array(heights, np.float64)


def spot(flat: np.ndarray, boxes: list[tuple[int, int, int, int]], letter_px: float,
         words: list[str], listed: list[tuple] = (), column_words: list[str] = (),
         until: int | None = None, ink: PageInk | None = None, column_only: frozenset[str] = frozenset(),
         doubtful: dict[str, float] | None = None) -> list[tuple[tuple[int, int, int, int], str, float]]:
    """[(box, word, how sure, 0-1)] for the boxes of ``flat`` (dark print on white, letters ``letter_px`` high)
    that one of ``words`` (upper-case letters only) fits (see _fits, _taken). Each box is tried whole, and with
    the box after it on its line as if its words fit TWO_WORDS better: HIGH JUMP is one entry, not two (its
    parts are words too), and so is a word whose faint letters broke its ink in two. A list names each word once,
    so boxes and words are matched (see match): SAILING fits the blob of "surfing" a little better than SURFING
    does, and the blob of "sailing" better still; SAND beside SQUID is no rival in the blob of "squid" where the
    blob of "sand" took SAND. Then a box that starts where an entry of the list does (``listed``: the boxes of the
    entries already read, or one taken here, the search going on down from each), a few lines from it, is a list
    word: the ``column_words`` left are matched to it more freely, at COLUMN_FIT (COLUMN_SHORT).
    How sure: e to its fit, at most 1. ``until``: the count of the reader's steps on ``ink`` (ink.steps) from
    which no further box is tried (an unreadable list's 40 blobs cost seconds; counted in work, not time, the
    same blobs are tried on any machine and under any load). ``ink``: the page_ink of ``flat`` from an earlier
    call, with its boxes' readings. ``column_only``: those of ``words`` taken only down a column of the list.
    ``doubtful``: {word: nats} of those of ``words`` the grid spells only but for a cell, and how much less likely
    that makes each (at most DOUBT_COST): each fits that much worse over its letters (a misread cell is rarer
    than a chance likeness: CRUMPET, a cell from the grid's TRUMPET, fitted a blurred "trumpet" nearly as well;
    but where the grid's reader gave the cell's letter near-even odds, the word is likelier: see
    wordlist.UNSURE_LEAST)."""
    words = [w for w in words if w and all(ch in CLASSES for ch in w)]
    if not words or not boxes:
        return []
    ink = ink or page_ink(flat)
    doubt = np.array([min((doubtful or {}).get(w, 0.0), DOUBT_COST) / len(w) for w in words])
    # a doubtful word is not taken where the word inside it but for its first or last letter fits better: that letter
    # is not there (a night photo's "19. Pear" fitted the grid's PEAR at 0.0 a letter, PEARL, the grid's PEAR and a
    # cell after it, at -0.99); a shorter word, or one of three letters, fits a blurred word better by chance (CLIP
    # in ECLIPSE). It stays a rival there: without PEARL's -2.33, a tiny lower-case "pear" was clearly DEAR (-0.82)
    index = {w: j for j, w in enumerate(words)}
    inner = {k: js for k, w in enumerate(words) if doubt[k] > 0 and len(w) > SHORT[0]
             and (js := [index[v] for v in {w[1:], w[:-1]} if v in index])}
    only = np.isin(words, list(column_only))
    room = (np.array([len(w) for w in words]) + WIDE[1]) * WIDE[0] * letter_px  # see WIDE
    tries = []  # (how well the try fits, for the order; the boxes' indices; the box tried; each word's fit)
    untaken: dict[tuple, set[str]] = {}  # by box tried: the doubtful words not taken there
    following = next_on_line(boxes, SPACE * letter_px)
    for i, box in enumerate(boxes):
        if until is not None and ink.steps >= until:
            break
        j = following.get(i)
        both = None if j is None else (box[0], min(box[1], boxes[j][1]), boxes[j][2], max(box[3], boxes[j][3]))
        for at, tried, bonus in (((i,), box, 0.0), ((i, j), both, TWO_WORDS)):
            if tried is not None:
                fit = _fits(tried, ink, words)
                untaken[tried] = {words[k] for k, js in inner.items() if fit[js].max() > fit[k]}
                fit = np.where(tried[2] - tried[0] > room, NO_FIT, fit - doubt)
                tries.append((np.where(only, NO_FIT, fit).max() + bonus, at, tried, fit))
    tries = _wholes_first(tries, words, only)
    sure = match([(order, at, box, np.where(only, NO_FIT, fit)) for order, at, box, fit in tries], words, long=LONG)
    sure = [s for s in sure if s[2] not in untaken[s[1]]]
    # down the list's columns, each blob taken there putting the next one down in the column
    alone = [t for t in tries if len(t[1]) == 1]
    while more := match(_down_column(alone, sure, listed, words, column_words, letter_px), words, COLUMN_FIT,
                        COLUMN_SHORT):
        sure += more
    joined = _joined(sorted(sure, key=lambda f: f[0]), boxes, letter_px, words)
    return [(box, word, min(float(np.exp(fit)), 1.0)) for _, box, word, fit in joined]


def _wholes_first(tries: list[tuple], words: list[str], only: np.ndarray) -> list[tuple]:
    """``tries`` (see spot) with each try of two boxes whose likeliest word holds the likeliest word of one of its
    boxes alone ordered before that box's try: a hand-lettered "polar bear" fitted POLARBEAR at -1.84 a letter and
    its first box alone POLAR at -1.08, which took it and left BEAR unread; a word spread over two blobs fits
    worse per letter than its part in one, and is the better reading of both."""
    first = {t[1][0]: t for t in tries if len(t[1]) == 1}
    out = []
    for t in tries:
        order, at, box, fit = t
        if len(at) == 2:
            whole = words[int(np.argmax(np.where(only, NO_FIT, fit)))]
            # (a box's own try is missing where the reader's steps ran out before it)
            parts = [(p[0], words[int(np.argmax(np.where(only, NO_FIT, p[3])))]) for p in
                     (first[k] for k in at if k in first)]
            held = [alone for alone, part in parts if part in whole]
            if held and all(part != whole for _, part in parts):  # not where one box alone reads the whole
                order = max(order, max(held) + TWO_WORDS)
        out.append((order, at, box, fit))
    return out


def word_fits(flat: np.ndarray, box: tuple[int, int, int, int], words: list[str],
              ink: PageInk | None = None) -> np.ndarray:
    """Each of ``words``' fit to the print of ``box`` on ``flat`` (see _fits; NO_FIT for one the reader cannot
    spell). ``ink``: the page_ink of ``flat`` from an earlier call, with its boxes' readings (a box weighed
    against several sets of words is read once)."""
    return _fits(box, ink or page_ink(flat), words)


def _untaken(words: list[str], taken: list[str]) -> np.ndarray:
    """Which of ``words`` are free to take: neither one of ``taken`` nor part of one nor holding one."""
    return np.array([not any(w in t or t in w for t in taken) for w in words], bool)


def _down_column(tries: list[tuple], sure: list[tuple], listed: list[tuple], words: list[str],
                 column_words: list[str], letter_px: float) -> list[tuple]:
    """The ``tries`` (see spot) of blobs down a column of the list (see in_column) from an entry ``listed`` or
    taken (``sure``), touching none, with only the ``column_words`` not taken free to be matched."""
    placed = list(listed) + [box for _, box, *_ in sure]
    free = _untaken(words, [t for *_, t, _ in sure]) & np.isin(words, list(column_words))
    return [(order, at, box, np.where(free, fit, NO_FIT)) for order, at, box, fit in tries
            if not any(touch(box, b) for b in placed) and in_column(box, placed, letter_px)]


def in_column(box: tuple, placed: list[tuple], letter_px: float) -> bool:
    """Whether ``box`` starts where one of ``placed`` does, within COLUMN_ALIGN letter heights, at most
    COLUMN_LINES lines above or below it."""
    return any(abs(box[0] - b[0]) < COLUMN_ALIGN * letter_px
               and max(box[1], b[1]) - min(box[3], b[3]) < COLUMN_LINES * letter_px for b in placed)


def _joined(found: list[tuple[int, tuple, str, float]], boxes: list[tuple[int, int, int, int]], letter_px: float,
            words: list[str]) -> list[tuple[int, tuple, str, float]]:
    """``found`` ((first box index, box, word, how sure), in box order) with two words taken by neighbouring boxes
    of one line (see next_on_line) made one entry where the two end to end are one of ``words``: ROAD taken down
    a column and TRIP beside it are the entry ROAD TRIP, however each part was taken."""
    at = {i: k for k, (i, *_) in enumerate(found)}
    following = next_on_line(boxes, SPACE * letter_px)
    out, done = [], set()
    for k, (i, box, word, p) in enumerate(found):
        if k in done:
            continue
        j = following.get(i)
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


def next_on_line(boxes: list[tuple[int, int, int, int]], gap: float, overlap: bool = True,
                 of: range | list[int] | None = None) -> dict[int, int]:
    """{i: the index of the box that follows box i on its line}, for the boxes (x0, y0, x1, y1) some box follows
    (of those indexed ``of``; None: all): the one that starts nearest after it, within ``gap`` px of its end and
    ending past it, overlapping it by half the lower one's height. ``overlap``: it may start inside box i (the
    rest of a word whose faint letters broke its ink in two; the spotter's SPACE letter heights on, the second
    word of an entry such as POLAR BEAR); if not, only at its end or beyond (the next word of a sentence)."""
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    order = np.argsort(b[:, 0], kind="stable")
    starts = b[order, 0]
    out = {}
    for i in range(len(b)) if of is None else of:
        x0, y0, x1, y1 = b[i]
        first = np.searchsorted(starts, x0, side="right") if overlap else np.searchsorted(starts, x1)
        near = order[first:np.searchsorted(starts, x1 + gap, side="right")]
        near = near[(near != i) & (b[near, 2] >= x1)]
        top, bottom = b[near, 1], b[near, 3]
        level = np.minimum(y1, bottom) - np.maximum(y0, top) >= 0.5 * np.minimum(y1 - y0, bottom - top)
        if level.any():
            out[i] = int(near[level][0])  # near is in order of starts: the first level one is the nearest
    return out


def _fits(box: tuple[int, int, int, int], ink: PageInk, words: list[str]) -> np.ndarray:
    """Each word's fit to the print of ``box``: its log-probability given the print (wordread.word_scores) less
    that of what the reader reads there (wordread.read), per letter (about 0: the word is what the reader sees;
    a letter read otherwise costs a few)."""
    if box not in ink.reads:
        ink.reads[box] = wordread.log_probs(wordread.crop(ink.flat, box, ink.paper))
        ink.steps += len(ink.reads[box])
    logp = ink.reads[box]
    lengths = np.array([max(len(w), 1) for w in words], np.float64)
    return np.maximum((wordread.word_scores(logp, words) - wordread.read(logp)[1]) / lengths, NO_FIT)


def _taken(fit: np.ndarray, words: list[str], least: tuple[float, float] = (MIN_SCORE, MIN_MARGIN),
           short: tuple[int, float, float] = SHORT, long: tuple[int, float] | None = None) -> int | None:
    """The index of the word that fits (``fit``: each word's) at least ``least[0]`` and by ``least[1]`` more
    than any other word that neither holds it nor is held in it (PLANE and PLANET are the same blob read shorter
    or longer), or for words of at most ``short[0]`` letters, ``short[1]`` and ``short[2]`` or CLEAR, and if
    ``long`` is given, for words of at least ``long[0]`` letters ``long[1]`` by ``least[1]``; None when none does."""
    k = int(np.argmax(fit))
    # of a word and those that hold it or are held in it, the blob is the one likeliest as a whole: per letter,
    # BUTTER fitted the blob of a blurred "butterfly" better, its FLY read as nothing at a cost spread over 6
    same = [i for i in range(len(words)) if (words[i] in words[k] or words[k] in words[i])
            and fit[i] >= _least(words[i], least, short, long)[0]]
    k = max(same, key=lambda i: fit[i] * len(words[i]), default=k)
    least_fit, margin = _least(words[k], least, short, long)
    gap = fit[k] - _rival(fit, words, k)
    clear = len(words[k]) <= short[0] and fit[k] >= CLEAR[0] and gap >= CLEAR[1]
    return k if clear or fit[k] >= least_fit and gap >= margin else None


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


