"""Boggle, Wordament and Ruzzle boards in a picture: find the tiles, rectify the board, read every tile.

A board is a square lattice (4x4 to 6x6) of similar, roughly square tiles separated by gaps. Tiles are found as
the regions that edges enclose (whatever the colours: light tiles on wood, orange tiles on blue, dice in a tray),
grouped by size and spacing into a lattice, and a homography from lattice positions to tile centres gives the
board's outer corners (perspective included), so the board is rectified like a word-search grid.

Each tile is read upright: the ink is the minority class of the tile's own pixels (dark or light letters); the
small score digits in a corner are read apart, as points; a hyphen beside the letters makes a prefix (``SUB-``) or
suffix (``-ING``) tile. Physical dice may sit turned by 0/90/180/270 degrees: an underline (``M``/``W``,
``N``/``Z``) fixes the turn, otherwise every turn is read and the surest reading wins. All tile images of a board
go into one composite image read by Tesseract in one call (points in a second), never one call per tile.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import cv2
import numpy as np

from scanner.detect import GridLocation, rectify
from scanner.engine import Engine, Symbol
from scanner.imaging import light_on_dark, shrink

SIZES = (4, 5, 6)
"""Board sizes recognised (tiles per side): Boggle 4x4, Big Boggle 5x5, Super Big Boggle 6x6."""
WORK_SIDE = 1000
"""Tile search runs on a copy about this long on its long side."""
CELL_PX = 96
"""Rectified board cell (one tile and its share of the gaps) in pixels."""
TEXT_PX = 40
"""Cap height of a tile's letters in the composite read by Tesseract."""
SLOT_GAP = 48
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
WHITELIST = LETTERS + "u/"
BAR_CONF = 0.9
"""Confidence of an I recognised by its shape alone (one solid upright bar)."""
POINTS_LEVEL = 0.3
"""Corner digits are cut out this share of the way from the tile's grey to the ink's (see tile_ink)."""
UNSURE = 0.5
"""Tiles read with a confidence under this are reported as unsure, with their alternatives."""
MIN_FILL = 0.75
"""A lattice is a board when at least this share of its positions holds a tile."""
CONTINUED = 2  # see _continued
ONE_SIZE = 1.3
"""Tile candidates whose sizes (the root of width times height) differ by less than this factor are of one size."""
RING_CELL, RING_INK, RING_LETTERS = 32, (0.08, 0.6), 0.75  # see in_a_grid

_TILE_TEXT = re.compile(r"[A-Z]{1,3}|[A-Z]{1,3}/[A-Z]{1,3}|[A-Z]{1,4}-|-[A-Z]{1,4}")


@dataclass
class BoardReading:
    """The tiles of a board as read, in the notation of `wordsearch boggle` ("QU", "VE", "U/M", "SUB-", "-ER").

    ``tiles[r][c]`` is "" where nothing could be read; ``points`` holds the corner score or None; ``turns`` how
    many quarter turns counter-clockwise the tile (a die) is turned from upright.
    """

    tiles: list[list[str]]
    points: list[list[int | None]]
    confidence: np.ndarray
    alternatives: list[list[list[str]]]
    turns: list[list[int]]
    upright: bool = True  # a screen board (points in the corners); False: dice read in every orientation
    cell_px: int = CELL_PX

    def unsure(self, threshold: float = UNSURE) -> list[tuple[int, int]]:
        """Tiles read with a confidence below ``threshold`` (or not at all), in reading order."""
        return [(int(r), int(c)) for r, c in zip(*np.nonzero(self.confidence < threshold))]


@dataclass(frozen=True)
class BoardLocation(GridLocation):
    """A board's place in the image (see GridLocation) and the share of a cell its tile's face covers."""

    tile_share: float = 0.85


# --- finding the board ---------------------------------------------------------------------------------------

def tile_candidates(gray: np.ndarray) -> np.ndarray:
    """Regions enclosed by edges that look like tiles: (n, 4) rows of centre x, centre y, width, height.

    Filled outlines (letters and corner digits are holes in them) must be nearly convex and fill most of their
    box, so a rounded square, or one seen in perspective, passes and textures do not.
    """
    blurred = cv2.GaussianBlur(gray, (0, 0), 1.0)
    edges = cv2.dilate(cv2.Canny(blurred, 20, 60), np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats((edges == 0).astype(np.uint8), connectivity=4)
    h, w = gray.shape
    out = []
    for i in range(1, n):
        x, y, bw, bh, _ = stats[i]
        if bw < 12 or bh < 12 or bw > w / 3 or bh > h / 3 or not 0.6 < bw / bh < 1.6:
            continue
        region = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        outline = max(contours, key=cv2.contourArea)
        area = cv2.contourArea(outline)
        hull = cv2.contourArea(cv2.convexHull(outline))
        if hull > 0 and area >= 0.9 * hull and area >= 0.55 * bw * bh:
            m = cv2.moments(outline)
            out.append((x + m["m10"] / m["m00"], y + m["m01"] / m["m00"], bw, bh))
    return np.asarray(out, float).reshape(-1, 4)


def _sizes(cands: np.ndarray) -> np.ndarray:
    """Each tile candidate's size: the root of its width times its height."""
    return np.sqrt(cands[:, 2] * cands[:, 3])


def _linked(cands: np.ndarray) -> list[np.ndarray]:
    """Groups of candidates of similar size that sit a tile's pitch from one another (largest first)."""
    size = _sizes(cands)
    d = np.hypot(cands[:, None, 0] - cands[None, :, 0], cands[:, None, 1] - cands[None, :, 1])
    mean = (size[:, None] + size[None, :]) / 2
    ratio = size[:, None] / size[None, :]
    near = (ratio < ONE_SIZE) & (ratio > 1 / ONE_SIZE) & (d > 0.95 * mean) & (d < 1.8 * mean)
    group = -np.ones(len(cands), int)
    groups = []
    for seed in range(len(cands)):
        if group[seed] >= 0:
            continue
        group[seed] = len(groups)
        members, todo = [seed], [seed]
        while todo:
            i = todo.pop()
            for j in np.flatnonzero(near[i] & (group < 0)):
                group[j] = len(groups)
                members.append(j)
                todo.append(j)
        groups.append(np.array(members))
    return sorted(groups, key=len, reverse=True)


def _lattice_indices(pts: np.ndarray, pitch: np.ndarray) -> np.ndarray | None:
    """Integer (col, row) for each tile centre, walking from tile to tile: neighbours one pitch apart along
    the board's axes (found from the nearest-neighbour directions) are one step apart."""
    d = pts[:, None, :] - pts[None, :, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    np.fill_diagonal(dist, np.inf)
    nearest = np.argmin(dist, axis=1)
    vec = pts[nearest] - pts
    angle = np.arctan2(vec[:, 1], vec[:, 0]) % (np.pi / 2)
    theta = float(np.angle(np.mean(np.exp(4j * angle))) / 4)  # circular mean, mod 90 degrees
    rot = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])
    unset = np.iinfo(int).min
    index = np.full((len(pts), 2), unset)
    index[0] = 0
    todo = [0]
    while todo:
        i = todo.pop()
        for j in np.flatnonzero(dist[i] < 1.6 * pitch[i]):
            if index[j, 0] != unset:
                continue
            step = rot @ (pts[j] - pts[i]) / pitch[i]
            rounded = np.round(step)
            if np.abs(step - rounded).max() > 0.3 or np.abs(rounded).max() > 1:
                continue
            index[j] = index[i] + rounded.astype(int)
            todo.append(j)
    if (index[:, 0] == unset).any():
        return None
    return index - index.min(axis=0)


def find_board(image: np.ndarray) -> BoardLocation | None:
    """The board's outer corners (TL TR BR BL, half a gap outside the outer tiles) and size, or None.

    A board is 4x4 to 6x6 tiles of one size in a square lattice; at most a quarter of the tiles may be missed
    (a tile merged with its shadow), the lattice fit fills them in.
    """
    h, w = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    small = shrink(image, scale) if scale < 1 else image
    gray = small if small.ndim == 2 else cv2.cvtColor(small[:, :, :3], cv2.COLOR_BGR2GRAY)
    cands = tile_candidates(gray)
    if len(cands) < min(SIZES) ** 2 * MIN_FILL:
        return None
    for members in _linked(cands):
        if len(members) < min(SIZES) ** 2 * MIN_FILL:
            break
        if len(members) > max(SIZES) ** 2:  # tiles on distinct lattice places: more than the largest board
            continue
        pts = cands[members, :2]
        d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
        np.fill_diagonal(d, np.inf)
        pitch = d.min(axis=1)
        index = _lattice_indices(pts, pitch)
        if index is None:
            continue
        cols, rows = index.max(axis=0) + 1
        if rows != cols or rows not in SIZES or len(members) < MIN_FILL * rows * cols:
            continue
        if len({tuple(ij) for ij in index}) != len(index):
            continue
        H, _ = cv2.findHomography(index.astype(np.float64) + 0.5, pts, 0)
        if H is None:
            continue
        fitted = cv2.perspectiveTransform((index.astype(np.float64) + 0.5).reshape(-1, 1, 2), H).reshape(-1, 2)
        if np.max(np.hypot(*(fitted - pts).T) / pitch) > 0.2 or _continued(cands, members, H, cols, rows):
            continue
        outer = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float64).reshape(-1, 1, 2)
        corners = cv2.perspectiveTransform(outer, H).reshape(-1, 2) / scale
        share = float(np.median(_sizes(cands[members])) / np.median(pitch))
        return BoardLocation(corners=corners, rows=int(rows), cols=int(cols), tile_share=min(share, 0.98))
    return None


def in_a_grid(board: BoardLocation, image: np.ndarray) -> bool:
    """Whether ``board`` is the inside of a lined word search whose thick frame took in its outer ring of cells, so
    that no tile candidate continued the inner boxes (see _continued; a small 8x8 puzzle was read as a 6x6 board of
    187 words): the places a tile outside the board, RING_LETTERS of them or more on each of its four sides, hold a
    dark letter on the light paper (a share of RING_INK of the middle of the place). Round a board they hold the
    tray, the table or a screen's plain ground, at most a row of text on one side."""
    rows, cols = board.rows, board.cols
    lattice = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32)
    H = cv2.getPerspectiveTransform(lattice, np.asarray(board.corners, np.float32))
    ring = np.array([[[-1, -1], [cols + 1, -1], [cols + 1, rows + 1], [-1, rows + 1]]], np.float64)
    outer = cv2.perspectiveTransform(ring, H)[0]
    view, _ = rectify(image, GridLocation(outer, rows + 2, cols + 2), cell_px=RING_CELL)
    ink = cv2.threshold(view, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)[1]
    m = RING_CELL // 4  # the middle half of a place, clear of the rules and the frame

    def lettered(r: int, c: int) -> bool:
        share = float(ink[r * RING_CELL + m:(r + 1) * RING_CELL - m, c * RING_CELL + m:(c + 1) * RING_CELL - m].mean())
        return RING_INK[0] <= share <= RING_INK[1]

    sides = ([(0, c) for c in range(cols + 2)], [(rows + 1, c) for c in range(cols + 2)],
             [(r, 0) for r in range(rows + 2)], [(r, cols + 1) for r in range(rows + 2)])
    return all(np.mean([lettered(r, c) for r, c in side]) >= RING_LETTERS for side in sides)


def _continued(cands: np.ndarray, members: np.ndarray, H: np.ndarray, cols: int, rows: int) -> bool:
    """Whether CONTINUED or more tile-like candidates that are not ``members`` (the board's tiles, lattice ``H``
    of ``cols`` x ``rows``) sit on the lattice's places within two of its edges: the board is then a patch of a
    larger grid of boxes, a ruled word search whose other cells were cut by pen rings or touched by their
    letters (a 9x9 turned upside down read as a 5x5 board)."""
    size = float(np.median(_sizes(cands[members])))
    others = np.setdiff1d(np.arange(len(cands)), members)
    others = others[np.abs(np.log(_sizes(cands[others]) / size)) < np.log(ONE_SIZE)]
    if len(others) < CONTINUED:
        return False
    uv = cv2.perspectiveTransform(cands[others, :2].reshape(-1, 1, 2), np.linalg.inv(H)).reshape(-1, 2) - 0.5
    on_place = np.all(np.abs(uv - np.round(uv)) < 0.25, axis=1)
    c, r = np.round(uv).T
    outside = (c < 0) | (c >= cols) | (r < 0) | (r >= rows)
    near = (c >= -2) & (c < cols + 2) & (r >= -2) & (r < rows + 2)
    return int(np.count_nonzero(on_place & outside & near)) >= CONTINUED


# --- reading the tiles ---------------------------------------------------------------------------------------

@dataclass
class _Piece:
    """One ink component of a tile: its box (x, y, w, h) and its mask, in the tile crop."""

    x: int
    y: int
    w: int
    h: int
    mask: np.ndarray = field(repr=False)

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    @property
    def flat(self) -> bool:
        return self.w >= 1.8 * self.h


def tile_ink(crop: np.ndarray, inset: int, level: float | None = None) -> np.ndarray:
    """Ink mask (bool) of a tile crop: Otsu's split of the tile's face (the crop less ``inset`` px all round, so
    the gap and the tile's edges do not sway it), on the side the print lies (imaging.light_on_dark), so dark
    letters on light tiles and light letters on coloured tiles both come out as ink. ``level`` other than 0.5 puts the threshold that share
    of the way from the face's typical grey to the ink's (0.3 keeps the thin strokes of small corner digits
    whole)."""
    smooth = cv2.GaussianBlur(crop, (0, 0), 0.8)
    face = smooth[inset:smooth.shape[0] - inset, inset:smooth.shape[1] - inset]
    if face.size == 0 or np.percentile(face, 99.5) - np.percentile(face, 0.5) < 50:  # blank: Otsu would split noise
        return np.zeros(crop.shape, bool)
    t, _ = cv2.threshold(face, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    dark_ink = not light_on_dark(face, face.shape[0])
    if level is not None and level != 0.5:
        ink_grey, face_grey = (np.median(face[face <= t]), np.median(face[face > t]))
        if not dark_ink:
            ink_grey, face_grey = face_grey, ink_grey
        t = face_grey + level * (ink_grey - face_grey)
    return smooth <= t if dark_ink else smooth > t


def ink_pieces(ink: np.ndarray) -> list[_Piece]:
    """The tile's ink components big enough to be part of a letter or digit, not touching the crop's border
    (the crop reaches into the gap, so the gap, the tile's edges, bevels and shadows touch it; letters and corner
    digits do not)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    h, w = ink.shape
    pieces = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < 0.0008 * h * w or max(bw, bh) < 0.04 * h:
            continue
        if x == 0 or y == 0 or x + bw == w or y + bh == h or (bw > 0.75 * w and bh > 0.75 * h):
            continue  # the gap and tile edges, or a frame drawn round the tile (a bonus tile)
        if (bh > 0.5 * h and bw < 0.1 * w and (x + bw < 0.12 * w or x > 0.88 * w)) or \
                (bw > 0.5 * w and bh < 0.1 * h and (y + bh < 0.12 * h or y > 0.88 * h)):
            continue  # a piece of such a frame along one side
        pieces.append(_Piece(int(x), int(y), int(bw), int(bh), labels[y:y + bh, x:x + bw] == i))
    return pieces


@dataclass
class _TileParts:
    """A tile's pieces sorted into its text, its corner points, a hyphen side and an underline."""

    text: list[_Piece]
    points: list[_Piece]
    hyphen: str = ""  # "" | "before" | "after"
    underline: str = ""  # "" or the side the bar lies on: "below" | "above" | "left" | "right"


def sort_pieces(pieces: list[_Piece], side: int) -> _TileParts:
    """Letters are the tall pieces; small pieces off the letters' band are the corner points; a short flat bar
    level with the letters' middle, beside them, is a hyphen; a long flat bar under them is an underline. ``side``
    is the tile crop's size: letters are at least a fifth of it tall (smaller pieces alone are specks or digits)."""
    if not pieces:
        return _TileParts([], [])
    tall = max(p.h for p in pieces if not p.flat) if any(not p.flat for p in pieces) else max(p.h for p in pieces)
    if tall < 0.2 * side and max(max(p.w, p.h) for p in pieces) < 0.2 * side:
        return _TileParts([], [])
    text = [p for p in pieces if p.h >= 0.55 * tall and not (p.flat and p.h < 0.35 * tall)]
    if not text:
        return _TileParts([], [])
    top, bottom = min(p.y for p in text), max(p.y + p.h for p in text)
    left, right = min(p.x for p in text), max(p.x + p.w for p in text)
    parts = _TileParts(text, [])
    for p in pieces:
        if p in text:
            continue
        if p.flat and p.h < 0.35 * tall and top + 0.2 * tall < p.cy < bottom - 0.2 * tall:
            if p.x + p.w <= left + 2:
                parts.hyphen = "before"
            elif p.x >= right - 2:
                parts.hyphen = "after"
            else:
                parts.points.append(p)
        elif p.flat and p.w >= 0.5 * (right - left) and p.cy > bottom:
            parts.underline = "below"
        elif p.h < 0.55 * tall:
            parts.points.append(p)
    return parts


def _underline_side(pieces: list[_Piece]) -> int | None:
    """Quarter turns (counter-clockwise, as np.rot90) that put a die's underline below its letter, or None."""
    if len(pieces) < 2:
        return None
    bars = [p for p in pieces if max(p.w, p.h) >= 3.0 * min(p.w, p.h)]
    for bar in bars:
        rest = [p for p in pieces if p is not bar]
        big = max(rest, key=lambda p: p.w * p.h)
        horizontal = bar.w > bar.h
        if horizontal and bar.w >= 0.5 * big.w and bar.h <= 0.3 * big.h:
            if bar.y >= big.y + big.h - 1:
                return 0
            if bar.y + bar.h <= big.y + 1:
                return 2
        if not horizontal and bar.h >= 0.5 * big.h and bar.w <= 0.3 * big.w:
            if bar.x >= big.x + big.w - 1:
                return 3  # bar on the right: three turns counter-clockwise bring it below
            if bar.x + bar.w <= big.x + 1:
                return 1
    return None


def split_at_slash(text: list[_Piece]) -> list[list[_Piece]]:
    """An either/or tile's text split at its slash (a thin stroke as tall as the letters, rising to the right)
    into the pieces left and right of it; any other text as one group. The slash itself is left out: Tesseract
    reads a lone slash between letters as an I or merges it with them."""
    if len(text) < 3:
        return [text]
    tall = max(p.h for p in text)
    for p in sorted(text, key=lambda q: q.cx)[1:-1]:
        if p.h < 0.8 * tall or not 0.15 * p.h <= p.w <= 0.65 * p.h or np.count_nonzero(p.mask) > 0.4 * p.w * p.h:
            continue
        ys, xs = np.nonzero(p.mask)
        if len(xs) > 2 and np.corrcoef(xs, ys)[0, 1] < -0.85:
            left = [q for q in text if q.cx < p.cx and q is not p]
            right = [q for q in text if q.cx > p.cx and q is not p]
            if left and right:
                return [left, right]
    return [text]


def solid_bar(text: list[_Piece]) -> str:
    """"upright" when a tile's text is one solid bar standing (a sans-serif I), "lying" when it lies on its side
    (a turned I die), else ""."""
    if len(text) != 1 or np.count_nonzero(text[0].mask) < 0.8 * text[0].w * text[0].h:
        return ""
    p = text[0]
    return "upright" if p.h >= 3 * p.w else "lying" if p.w >= 3 * p.h else ""


def text_image(gray: np.ndarray, ink: np.ndarray, parts: list[_Piece], level: float = 0.5) -> np.ndarray:
    """The pieces as black on white, scaled so the tallest is TEXT_PX high: the tile's grey levels (ink 0, tile
    face 255, whichever is darker) are scaled and thresholded afterwards, so small corner digits come out smooth
    rather than blocky; thin bars (a sans-serif I, a 1) are thickened so Tesseract does not drop them."""
    x0, y0 = max(0, min(p.x for p in parts) - 1), max(0, min(p.y for p in parts) - 1)
    x1 = min(ink.shape[1], max(p.x + p.w for p in parts) + 1)
    y1 = min(ink.shape[0], max(p.y + p.h for p in parts) + 1)
    keep = np.zeros(ink.shape, np.uint8)
    for p in parts:
        keep[p.y:p.y + p.h, p.x:p.x + p.w] |= p.mask.astype(np.uint8)
    keep = cv2.dilate(keep, np.ones((3, 3), np.uint8))[y0:y1, x0:x1] > 0
    g = gray[y0:y1, x0:x1].astype(np.float32)
    ink_level = float(np.median(gray[ink])) if ink.any() else 0.0
    face_level = float(np.median(gray[~ink])) if (~ink).any() else 255.0
    norm = np.clip((g - ink_level) / (face_level - ink_level or 1.0) * 255.0, 0, 255)
    norm[~keep] = 255
    scale = TEXT_PX / max(p.h for p in parts)
    size = (max(1, round(norm.shape[1] * scale)), max(1, round(norm.shape[0] * scale)))
    big = cv2.resize(norm, size, interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA)
    img = np.where(big < 255 * (1 - level), 0, 255).astype(np.uint8)
    ys, xs = np.nonzero(img == 0)
    if len(ys):
        img = img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    n, _, stats, _ = cv2.connectedComponentsWithStats((img == 0).astype(np.uint8))
    if any(stats[i, 3] >= 3 * stats[i, 2] and stats[i, 2] < 6 for i in range(1, n)):
        img = cv2.erode(cv2.copyMakeBorder(img, 0, 0, 3, 3, cv2.BORDER_CONSTANT, value=255), np.ones((1, 3), np.uint8))
    return img


def _layout(images: list[np.ndarray], per_line: int = 8) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """Paste images on one white page, ``per_line`` to a line, SLOT_GAP apart; returns the page and each slot
    (x0, y0, x1, y1)."""
    slot_w = max(im.shape[1] for im in images) + SLOT_GAP
    slot_h = max(im.shape[0] for im in images) + SLOT_GAP
    lines = (len(images) + per_line - 1) // per_line
    page = np.full((lines * slot_h + SLOT_GAP, min(len(images), per_line) * slot_w + SLOT_GAP), 255, np.uint8)
    slots = []
    for k, im in enumerate(images):
        x0, y0 = SLOT_GAP // 2 + (k % per_line) * slot_w, SLOT_GAP // 2 + (k // per_line) * slot_h
        h, w = im.shape
        y, x = y0 + (slot_h - h) // 2, x0 + (slot_w - w) // 2
        page[y:y + h, x:x + w] = im
        slots.append((x0, y0, x0 + slot_w, y0 + slot_h))
    return page, slots


def read_slots(images: list[np.ndarray], engine: Engine, whitelist: str) -> list[list[Symbol]]:
    """Every image read in ONE Tesseract call on a composite page; the symbols of each image, left to right."""
    if not images:
        return []
    page, slots = _layout(images)
    found: list[list[Symbol]] = [[] for _ in images]
    for sym in engine.symbols(page, psm=6, whitelist=whitelist):
        cx, cy = sym.centre
        for k, (x0, y0, x1, y1) in enumerate(slots):
            if x0 <= cx < x1 and y0 <= cy < y1:
                found[k].append(sym)
                break
    return [sorted(s, key=lambda sym: sym.box[0]) for s in found]


def tile_text(symbols: list[Symbol], hyphen: str) -> tuple[str, float, list[str]]:
    """(tile in board notation, confidence 0..1, alternative readings) from a tile's symbols and hyphen side."""
    if not symbols:
        return "", 0.0, []
    text = "".join(s.text for s in symbols).upper().replace("|", "I")
    conf = min(max(0.0, s.conf) for s in symbols) / 100.0
    if hyphen == "before":
        text = "-" + text
    elif hyphen == "after":
        text = text + "-"
    if not _TILE_TEXT.fullmatch(text):
        return text, 0.0, []
    alternatives = []
    if len(symbols) == 1:
        for alt, alt_conf in symbols[0].choices[1:]:
            alt = alt.upper()
            if alt in LETTERS and alt != text.strip("-") and alt_conf >= symbols[0].conf - 30:
                alternatives.append(text.replace(text.strip("-"), alt))
        if alternatives:
            conf *= min(1.0, 0.5 + 4.0 * (symbols[0].conf - symbols[0].choices[1][1]) / 100.0)
    return text, conf, alternatives[:3]


def tile_crops(rectified: np.ndarray, rows: int, cols: int, cell_px: int, tile_share: float) -> list[np.ndarray]:
    """Each tile (row-major) from the rectified board: the cell less most of the gap around the tile, so the
    crop's border runs through the gap, outside the tile's edges."""
    margin = max(0, int(round(cell_px * (1 - tile_share) / 2)) - 2)
    return [rectified[r * cell_px + margin:(r + 1) * cell_px - margin, c * cell_px + margin:(c + 1) * cell_px - margin]
            for r in range(rows) for c in range(cols)]


def rectify_board(image: np.ndarray, loc: GridLocation, cell_px: int) -> tuple[np.ndarray, np.ndarray]:
    """detect.rectify on the board's neighbourhood only (a board often fills a small part of a 12 MP photo, and
    rectify shrinks the whole image first): the rectified board and the full image -> rectified homography."""
    h, w = image.shape[:2]
    x0, y0 = np.maximum(np.floor(loc.corners.min(axis=0)) - 8, 0).astype(int)
    x1, y1 = np.ceil(loc.corners.max(axis=0) + 8).astype(int)
    crop = image[y0:min(y1, h), x0:min(x1, w)]
    local = GridLocation(corners=loc.corners - [x0, y0], rows=loc.rows, cols=loc.cols, inverted=loc.inverted)
    rectified, H = rectify(crop, local, cell_px=cell_px)
    return rectified, H @ np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float)


def orientations(ink: np.ndarray, upright: bool, parts0: _TileParts) -> list[tuple[int, _TileParts]]:
    """The quarter turns (counter-clockwise, as np.rot90) worth reading a tile in, each with its sorted parts:
    upright only on a screen; for a die, the turn its underline shows, else all four."""
    if upright:
        return [(0, parts0)]
    known = _underline_side(ink_pieces(ink))
    turns = [known] if known is not None else [0, 1, 2, 3]
    return [(t, sort_pieces(ink_pieces(np.rot90(ink, t)), ink.shape[0])) for t in turns]


def read_texts(crops: list[np.ndarray], inks: list[np.ndarray], options: list[list[tuple[int, _TileParts]]],
               engine: Engine) -> dict[int, list[tuple[float, str, float, list[str], int]]]:
    """Every tile's text in every orientation to try, in one Tesseract call: tile -> [(Tesseract's raw score,
    tile text, confidence, alternatives, turns)]. A lone upright bar is an I without asking (Tesseract reads
    nothing there); an either/or tile is read side by side of its slash."""
    images, owners = [], []
    tried: dict[int, list[tuple[float, str, float, list[str], int]]] = {}
    for k, opts in enumerate(options):
        for t, parts in opts:
            bar = solid_bar(parts.text)
            if bar == "upright" and not parts.hyphen:
                tried.setdefault(k, []).append((BAR_CONF, "I", BAR_CONF, [], t))
            elif parts.text and bar != "lying":
                groups = split_at_slash(parts.text)
                for group in groups:
                    images.append(text_image(np.rot90(crops[k], t), np.rot90(inks[k], t), group))
                owners.append((k, t, parts, len(groups)))
    readings = iter(read_slots(images, engine, WHITELIST))
    for k, t, parts, n_groups in owners:
        if n_groups == 1:
            symbols = next(readings)
            text, conf, alts = tile_text(symbols, parts.hyphen)
        else:
            sides = [next(readings) for _ in range(n_groups)]
            symbols = [sym for side in sides for sym in side]
            text = "/".join("".join(sym.text for sym in side).upper() for side in sides)
            ok = all(sides) and _TILE_TEXT.fullmatch(text)
            conf, alts = (min(max(0.0, sym.conf) for sym in symbols) / 100.0 if ok else 0.0), []
        raw = min(max(0.0, s.conf) for s in symbols) / 100.0 if conf > 0 else 0.0
        tried.setdefault(k, []).append((raw, text, conf, alts, t))
    return tried


def best_reading(tried: list[tuple[float, str, float, list[str], int]]) -> tuple[str, float, list[str], int]:
    """A tile's (text, confidence, alternatives, turns) from its readings in several orientations: the one
    Tesseract is surest of (its raw score: the discount for close alternatives would favour a turned letter that
    has none); a reading as another tile nearly as sure in another orientation lowers the confidence and becomes
    an alternative."""
    tried = sorted(tried, key=lambda o: -o[0])
    raw, text, conf, alts, t = tried[0]
    rivals = [o for o in tried[1:] if o[0] > 0 and o[1] != text]
    if rivals:
        conf *= min(1.0, 0.5 + 5.0 * (raw - rivals[0][0]))
    if not _TILE_TEXT.fullmatch(text):
        text, conf = "", 0.0
    extra = [o[1] for o in rivals if o[1] != text and _TILE_TEXT.fullmatch(o[1])]
    return text, conf, list(dict.fromkeys(alts + extra))[:3], t


def read_points(crops: list[np.ndarray], turns: list[int], inset: int, engine: Engine) -> list[int | None]:
    """Each tile's corner score (None where there is none or it is not a number), all in one Tesseract call.
    The digits are small: each is cut out at the tile's own threshold and, for thin strokes that break there,
    also nearer the tile's grey (POINTS_LEVEL); the number Tesseract is surer of counts."""
    images, owner = [], []
    for k, (crop, t) in enumerate(zip(crops, turns)):
        turned = np.rot90(crop, t)
        for level in (0.5, POINTS_LEVEL):
            ink = tile_ink(turned, inset, level=level)
            parts = sort_pieces(ink_pieces(ink), ink.shape[0])
            if parts.points:
                images.append(text_image(turned, ink, parts.points, level=level))
                owner.append(k)
    points: list[int | None] = [None] * len(crops)
    surest = [0.0] * len(crops)
    for k, symbols in zip(owner, read_slots(images, engine, "0123456789")):
        digits = "".join(s.text for s in symbols)
        conf = min((s.conf for s in symbols), default=0.0)
        if digits.isdigit() and conf > surest[k]:
            points[k], surest[k] = int(digits), conf
    return points


def read_board(image: np.ndarray, loc: GridLocation, engine: Engine, *, upright: bool | None = None,
               cell_px: int = CELL_PX) -> tuple[BoardReading, np.ndarray]:
    """Read every tile of the board at ``loc``: (the reading, the image -> rectified-board homography).

    ``upright``: True for screen boards, False for dice that may be turned; None decides: tiles with corner
    points on half the tiles or more are a screen board.
    """
    rectified, homography = rectify_board(image, loc, cell_px)
    rows, cols = loc.rows, loc.cols
    crops = tile_crops(rectified, rows, cols, cell_px, getattr(loc, "tile_share", 0.85))
    inks = [tile_ink(crop, round(0.08 * cell_px)) for crop in crops]
    parts0 = [sort_pieces(ink_pieces(ink), ink.shape[0]) for ink in inks]
    if upright is None:
        upright = sum(bool(p.points) for p in parts0) >= len(parts0) / 2
    options = [orientations(ink, upright, p) for ink, p in zip(inks, parts0)]
    tried = read_texts(crops, inks, options, engine)
    best = [best_reading(tried[k]) if k in tried else ("", 0.0, [], 0) for k in range(len(crops))]
    turns = [t for *_, t in best]
    points = read_points(crops, turns, round(0.08 * cell_px), engine) if upright else [None] * len(crops)

    def grid(values: list) -> list[list]:
        return [values[r * cols:(r + 1) * cols] for r in range(rows)]

    return BoardReading(tiles=grid([b[0] for b in best]), points=grid(points),
                        confidence=np.array([b[1] for b in best], float).reshape(rows, cols),
                        alternatives=grid([b[2] for b in best]), turns=grid([int(-t % 4) for t in turns]),
                        upright=bool(upright), cell_px=cell_px), homography


# --- solving and scoring -------------------------------------------------------------------------------------

LENGTH_BONUS = {5: 1.5, 6: 2.0, 7: 2.5}
"""Wordament's length bonus: the tile points of a word of 5 letters count 1.5 times, 6 letters twice, 7 letters
2.5 times, 8 or more 3 times; shorter words count their points once."""
NO_TILE = "\u0298"
"""Stands in for an unreadable tile when solving: a letter that no word holds, so no path crosses it."""


def length_bonus(length: int) -> float:
    """The multiplier of a word's tile points for its length (see LENGTH_BONUS)."""
    return 1.0 if length < 5 else LENGTH_BONUS.get(length, 3.0)


def word_score(word: str, path: list[tuple[int, int]], points: list[list[int | None]]) -> int | None:
    """The Wordament score of a word traced along ``path``: the sum of its tiles' points times the length bonus
    (rounded down); None when a tile's points were not read."""
    values = [points[r][c] for r, c in path]
    if not values or any(v is None for v in values):
        return None
    return int(sum(values) * length_bonus(len(word)))


def solvable(tiles: list[list[str]]) -> list[list[str]]:
    """The tiles with every unreadable one replaced by NO_TILE."""
    return [[tile or NO_TILE for tile in row] for row in tiles]


def ranked(results: list, points: list[list[int | None]]) -> list:
    """Found words best first: by score when every tile's points were read, else longest first; then A-Z."""
    scored = all(p is not None for row in points for p in row)
    key = (lambda r: (-(word_score(r.word, r.path, points) or 0), -len(r.word), r.word)) if scored else \
        (lambda r: (-len(r.word), r.word))
    found = sorted((r for r in results if r.found), key=key)
    return found + [r for r in results if not r.found]


def unsure_tiles(reading: BoardReading, found: set[str], solve) -> list[dict]:
    """Each unsure or unreadable tile with what it was read as, its alternatives and, for each alternative, the
    words that would appear if the tile were that (``solve(tiles)`` -> results)."""
    report = []
    for r, c in reading.unsure():
        needs = {}
        for alt in reading.alternatives[r][c]:
            tiles = solvable(reading.tiles)
            tiles[r][c] = alt
            words = [res.word for res in solve(tiles) if res.found and (r, c) in res.path and res.word not in found]
            needs[alt] = words
        report.append({"cell": [r, c], "read": reading.tiles[r][c] or None,
                       "confidence": round(float(reading.confidence[r, c]), 3),
                       "alternatives": list(reading.alternatives[r][c]), "words_needing": needs})
    return report
