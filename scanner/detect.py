"""Find the letter grid(s) of a word search in an image and rectify them.

Detection works on the letters themselves, so ruled, boxed and gridless puzzles are handled alike:

1. grey, resized so the long side is ~1400 px (small images enlarged up to 3x); the background is flattened
   (divided by a local maximum) and thresholded, per ink polarity (white-on-dark panels) and per variant
   (light, heavy or no denoising, normal or strict threshold), stopping at the first settled result;
2. connected components -> letter-like blobs (size, aspect, fill; second moments flag stroke-like blobs);
3. the dominant orientation and candidate pitches along and across it come from nearest-neighbour vectors;
4. blobs one pitch apart (with similar heights) are linked; each linked cluster gets integer (col, row) lattice
   indices and a homography lattice -> image is fitted to them (RANSAC), which absorbs tilt and perspective;
5. the lattice rectangle grows and shrinks one row/column at a time: a row or column belongs to the grid when
   at least half of its nodes hold a letter of the grid's size and width (measured in local pitches), few
   letter-sized blobs sit between nodes, its letters are not packed like words, and they are not just strokes; a
   bad row inside splits the lattice. This keeps titles, instructions, word lists and page numbers out even when
   they line up with the grid;
6. ruled lines and frames are erased (long runs in the grid's deskewed frame) and the search repeated, so
   letters touching the rules count too; when every letter touches them, the rules' own outline gives the frame;
   a lattice standing on the rules' crossings (rules through its nodes, none between) is no grid, nor one turned
   45 degrees to the rules on the letters and the crossings at once (its twin on every other node is), nor a
   gappy one that took in a free-standing grid and the text beside it;
7. the outer corners are the homography applied to the lattice rectangle half a pitch beyond the outer letters,
   mapped back to input pixels; the polarity is read from the grid region itself.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from scanner import imaging
from solver.errors import NoGridError

WORK_SIDE = 1400
"""Long side (px) of the copy detection works on; corners are mapped back to the input's pixels."""
SMALL_SIDE = 800
"""Images with a shorter long side are enlarged (up to 3x) for detection."""
FINE_PITCH, FINER, FINER_GAIN = 18.0, 1.5, 2.0
"""When no lattice found is surely a grid (see _settled) and the largest has cells under FINE_PITCH px, the
search is made again on the image enlarged FINER times (to at most FINER times WORK_SIDE), and its lattices are
taken if one there is surely a grid or lines up FINER_GAIN times the letters: the 1 px rules of a 31x31 newsprint
grid at a 14 px pitch, thresholded, break into pieces joined to the letters (13x11 found), and enlarged they stay
whole, to be taken out as rules; a 25x25's came out as 22x24 from a 10x13 of 80 letters, where enlarged 619 of its
625 lined up, a little less regularly than a settled grid's."""
INK_VARIANTS = (("light", "otsu"), ("heavy", "otsu"), ("light", "strict"), ("none", "otsu"), ("gauss", "faint"))
"""(smoothing, threshold) binarisations tried in turn until one gives a clean grid (see _ink_mask). Unsmoothed
comes after the others: it keeps the hairline strokes of small print that even a 3x3 median erases, but also
keeps the noise. Faint comes last: grey print of a night photo, whose thin rules break into specks that join the
letters at any darker threshold."""
LAST_RESORTS = (("light", "core"), ("light", "black"), ("gauss", "local"))
"""The binarisations tried in turn when none of INK_VARIANTS lines up anything at all: bold letters that a night
photo's blur ran together, one blob a row, part at their strokes' cores; black print under pencil rings round
the words found, which join letters into rings at any lighter threshold; a thin pen's letters blurred to a grey
a tenth darker than the paper, told from it by the paper round them alone (a hand-lettered grid in a 380 px
photo, enlarged, under a bold title: the page's darkest ink set every threshold above). (Tried with the others,
the cores' lattice of a blurred hand-lettered grid's pieces and title outnumbered the grid.)"""
LOCAL_WINDOW, LOCAL_DROP = 20, 5
"""The "local" threshold (see _ink_mask): ink is LOCAL_DROP grey levels (of the paper's 255) darker than the
Gaussian-weighted mean round it, within a window of 1/LOCAL_WINDOW of the image's long side."""
PIECES = 0.6
"""A lattice whose letters are under this share of the width of a full grid's letters where it lies is made of
their pieces (see _loose)."""
MAX_BLOBS = 4000
"""Most blobs considered (a fine texture can make tens of thousands)."""
MAX_CLUSTERS = 4
"""Largest linked clusters fitted per pitch hypothesis."""
MAX_RESID = 0.12
"""Largest RMS distance (pitches) of letters from their lattice nodes: printed grids sit far tighter (corpus
<= 0.08); prose in a proportional font that happens to line up does not."""
MIN_SIDE_CELLS = 4
"""Smallest accepted grid: this many rows and columns."""
NODE_TOL = 0.33
"""A blob sits on a lattice node when both its lattice coordinates are within this many pitches of integers."""
FIT_ROUNDS = 60
"""Most grow/shrink rounds of a lattice fit."""
WIDE = 2.0
"""A blob this many times a grid letter's median width or wider is no letter of the grid but a word of text (an
instruction line's words blurred into one blob each); the widest grid letters, M and W, measure about 1.5."""
MIN_CONTRAST = 40
"""Grey levels below the paper from which a lattice's surroundings hold ink at all (see _lattice_ink)."""
SQUARE = (0.7, 1.4)
"""Cell width over height of a grid's cells (see _halved)."""
OPEN_FILL = 0.65
"""A ruled grid is a line-like component when its ink covers at most this share of its box: blurred rules and
the letters touching them cover up to 0.6 of a small grid photographed at night, a solid panel nearly all."""
ALONG_RULES = 15.0  # degrees: see _along
NO_RULE = 0.5
"""A lattice line along less than this share of whose length a rule runs has none (see _rules): where no line
between a lattice's cells has one, the grid is unruled."""
RULE = 0.85
"""A lattice line along at least this share of whose length a rule runs has one."""
SMEARED = 0.5
"""A lattice's rules one way are wiped out or faded by motion blur (see _rule_needed) only where the blur has left
under this share of its edges' gradient energy across them (see _smear)."""
FRAME_CELLS = 2
"""Cells round a lattice in which pen is looked for before its frame is (see _without_pen)."""
TURNED_BY = 0.5
"""How much more uniform (see _uniform) a lattice's letters' widths must be than their heights for its page to
be taken as turned sideways, their height lying along x: a turned grid's letters measure 0.97 against 0.28 (a
turned I is as wide as a letter is tall, not as tall), while the rule crossings of a grainy newsprint grid,
alike in width, measure 0.90 against 0.44."""
INK_SHARE, FAINT_SHARE = 0.25, 0.15
"""Ink is INK_SHARE of the way from the paper to the darkest ink near it (see _lattice_inks); rules that close a
lattice's new line (see _closes) are found at FAINT_SHARE, for thin rules printed light grey beside a black frame
and dark hand lettering fall under a quarter along most of their length (a hand-lettered 11x11 in perspective,
its lattice three columns short, grew back one: 11x9)."""


@dataclass(frozen=True)
class GridLocation:
    """Where a letter grid is: outer cell-boundary corners TL TR BR BL in input pixels, its shape and polarity."""

    corners: np.ndarray
    rows: int
    cols: int
    inverted: bool = False


@dataclass
class _Blobs:
    """Letter candidates on the working image: bounding-box centres, widths and heights (px)."""

    x: np.ndarray
    y: np.ndarray
    w: np.ndarray
    h: np.ndarray
    area: np.ndarray
    slender: np.ndarray  # bool: stroke-like (I, l, broken ruled-line pieces), by second moments

    def __len__(self) -> int:
        return len(self.x)


@dataclass
class _Lattice:
    """A fitted grid on the working image: lattice (col, row) -> image homography and the index rectangle."""

    H: np.ndarray
    c0: int
    c1: int
    r0: int
    r1: int
    nodes: int  # lattice nodes inside the rectangle holding a letter blob
    resid: float  # RMS distance (pitches) of those blobs from their nodes
    width_frac: float  # median letter width / column pitch
    height_frac: float  # median letter height / row pitch
    blob_ids: np.ndarray  # indices of those blobs
    uniform: float  # share of its letters within 15% of their median height (capitals are alike; prose is not)
    isolated: bool  # few letter-sized blobs in the ring of cells around it (it did not stop short of more)

    @property
    def rows(self) -> int:
        return self.r1 - self.r0 + 1

    @property
    def cols(self) -> int:
        return self.c1 - self.c0 + 1

    @property
    def fill(self) -> float:
        return self.nodes / (self.rows * self.cols)

    def corners(self) -> np.ndarray:
        return _apply(self.H, _outline(self.c0, self.r0, self.c1, self.r1))


def _outline(c0: int, r0: int, c1: int, r1: int) -> np.ndarray:
    """The outer cell-boundary corners TL TR BR BL, in lattice (column, row) units, of cells c0..c1 x r0..r1."""
    return np.array([[c0, r0], [c1 + 1, r0], [c1 + 1, r1 + 1], [c0, r1 + 1]], np.float64) - 0.5


def find_grids(image: np.ndarray) -> list[GridLocation]:
    """Every letter grid on the page (BGR or grey image), largest first; [] when there is none."""
    # The lattice fits sample at random (RANSAC): from a fixed seed, a page gives the same grid whatever ran
    # before in the process (the command line, a web worker, a batch), not one that a marginal fit tips.
    cv2.setRNGSeed(0)
    if image.ndim == 3 and image.shape[2] == 4:
        image = image[:, :, :3]  # BGRA: the letters are in the colour channels
    long_side = max(image.shape[:2])
    scale = 1.0
    if long_side > WORK_SIDE:
        scale = WORK_SIDE / long_side
    elif long_side < SMALL_SIDE:  # small images: tiny letters survive thresholding better enlarged
        scale = min(3.0, SMALL_SIDE * 1.5 / long_side)
    small, work, extremes, lattices = _candidates(image, scale)
    best = max(lattices, key=lambda g: g.nodes, default=None)
    finer = min(scale * FINER, FINER * WORK_SIDE / long_side)
    if best is not None and not _clean(lattices) and min(_pitches(best)) < FINE_PITCH and finer > scale:
        again = _candidates(image, finer)
        if _clean(again[3]) or max((lat.nodes for lat in again[3]), default=0) >= FINER_GAIN * best.nodes:
            (small, work, extremes, lattices), scale = again, finer
    lattices = [lat for lat in lattices if not any(_interleaved(lat, other) or _extends(other, lat) or
                                                   _halved(lat, other) or _loose(lat, other) for other in lattices)]
    polarity: dict[int, bool] = {}

    def light_on_dark(lat: _Lattice) -> bool:  # asked of a lattice twice
        if id(lat) not in polarity:
            polarity[id(lat)] = _light_on_dark(work, lat)
        return polarity[id(lat)]

    chosen: list[_Lattice] = []
    ordered = sorted(lattices, key=lambda g: g.nodes, reverse=True)
    crossed: set[int] = set()  # the lattices of cells made from lattices of rule crossings
    for lat in ordered:  # grows as it goes: those made from crossings are tried last
        if not np.isfinite(lat.corners()).all():
            continue
        quads = [cv2.convexHull(c.corners().astype(np.float32)) for c in chosen]
        centre = _apply(lat.H, np.array([[(lat.c0 + lat.c1) / 2, (lat.r0 + lat.r1) / 2]]))[0]
        if any(cv2.pointPolygonTest(q, (float(centre[0]), float(centre[1])), False) >= 0 for q in quads):
            continue
        if chosen and not _unmistakable(lat, chosen[0]):
            continue
        if id(lat) not in crossed:
            gray = 255 - work if light_on_dark(lat) else work
            px = 16  # the lattice's view: px a cell
            dark = _lattice_ink(gray, lat, px)  # one view of its ink for both questions
            cells = _between_crossings(lat) if _crossings(dark, lat, px) else _across_diagonals(gray, dark, lat, px)
            if cells is not None:  # asked last: they warp the lattice's surroundings
                crossed.add(id(cells))
                ordered.append(cells)
                continue
        chosen.append(lat)
    located = []
    for lat in _joined(chosen):
        inverted = light_on_dark(lat)
        pen = extremes is not None and _coloured_ink(*extremes, lat.corners())
        page = _without_pen(small, work, lat) if pen else work
        page = 255 - page if inverted else page
        lat = _within_frame(page, _off_the_frame(page, lat))
        lat = _to_frame(page, lat)
        located.append(GridLocation(corners=lat.corners() / scale, rows=lat.rows, cols=lat.cols, inverted=inverted))
    return located


def _candidates(image: np.ndarray, scale: float) -> tuple[np.ndarray, np.ndarray, tuple | None, list[_Lattice]]:
    """The image at ``scale`` (as given, grey, and its brightest and darkest channels when in colour:
    imaging.extremes) and the lattices found on it."""
    small = image if scale == 1.0 else imaging.shrink(image, scale) if scale < 1 else cv2.resize(
        image, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    work = small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    lattices = _search(work)
    if small.ndim == 2:
        return small, work, None, lattices
    bright, dark = imaging.extremes(small)
    if np.array_equal(bright, dark):  # grey stored as colour: its channels show nothing the grey does not
        return small, work, None, lattices
    # Pen marks (circled words) are coloured, print mostly is not: in the brightest channel they vanish.
    # (Also a second chance when nothing was found at all.)
    best = max(lattices, key=lambda g: g.nodes, default=None)
    if best is None or _coloured_ink(bright, dark, best.corners()):
        lattices += _search(bright)
    if best is None and not lattices:  # print in colour (red or blue letters) is darkest in its darkest channel
        lattices += _search(dark)
    return small, work, (bright, dark), lattices


def _without_pen(image: np.ndarray, gray: np.ndarray, lat: _Lattice) -> np.ndarray:
    """``gray`` with the coloured pen over the lattice and the cells round it made light (imaging.without_pen), for
    the rules that bound it: a blue ring round a column of letters of an unruled grid ran along half the boundary
    beside it and passed for the box, and the grid lost its last column."""
    pitch = min(_pitches(lat))
    around = replace(lat, r0=lat.r0 - FRAME_CELLS, r1=lat.r1 + FRAME_CELLS, c0=lat.c0 - FRAME_CELLS,
                     c1=lat.c1 + FRAME_CELLS)
    region = cv2.fillConvexPoly(np.zeros(gray.shape, np.uint8), np.round(around.corners()).astype(np.int32), 1)
    x, y, w, h = cv2.boundingRect(region)
    if w == 0 or h == 0:
        return gray
    box = np.s_[y:y + h, x:x + w]  # only the lattice's part of the page is judged: a big page costs no more
    out = gray.copy()
    out[box] = imaging.without_pen(image[box], gray[box], pitch, region[box] > 0)
    return out


def _joined(lattices: list[_Lattice]) -> list[_Lattice]:
    """The lattices with the pieces of one grid joined (see _join), in the same order."""
    out = list(lattices)
    i = 0
    while i < len(out):
        for j in range(i + 1, len(out)):
            whole = _join(out[i], out[j])
            if whole is not None:
                out[i] = whole
                del out[j]
                break
        else:
            i += 1
    return out


def _join(a: _Lattice, b: _Lattice) -> _Lattice | None:
    """``a`` and ``b`` as one lattice when they are two pieces of one grid: ``b``'s corners fall on ``a``'s cell
    boundaries (within a quarter cell), over the same columns with rows overlapping ``a``'s, or over the same rows
    with columns overlapping. (A tilted white-on-dark grid whose middle rows blurred came out as an upper 10x15
    and a lower 8x15 sharing three rows.) Separate puzzles never overlap. None when they are not."""
    try:
        uv = _apply(np.linalg.inv(a.H), b.corners()) + 0.5  # cell boundaries at whole numbers
    except np.linalg.LinAlgError:
        return None
    edges = np.round(uv)
    if not np.isfinite(uv).all() or np.abs(uv - edges).max() > 0.25:
        return None
    (c0, r0), (c1, r1) = edges.min(axis=0).astype(int).tolist(), (edges.max(axis=0).astype(int) - 1).tolist()
    if not ((c0, c1) == (a.c0, a.c1) and r0 <= a.r1 and r1 >= a.r0 or
            (r0, r1) == (a.r0, a.r1) and c0 <= a.c1 and c1 >= a.c0):
        return None
    H, _ = cv2.findHomography(np.vstack([_outline(a.c0, a.r0, a.c1, a.r1), _outline(c0, r0, c1, r1)]),
                              np.vstack([a.corners(), b.corners()]), 0)
    if H is None:
        return None
    c0, r0, c1, r1 = min(a.c0, c0), min(a.r0, r0), max(a.c1, c1), max(a.r1, r1)
    return replace(a, H=H, c0=c0, c1=c1, r0=r0, r1=r1, nodes=min(a.nodes + b.nodes, (c1 - c0 + 1) * (r1 - r0 + 1)))


def _axes(lat: _Lattice) -> tuple[np.ndarray, float, float]:
    """The lattice's centre (working px), the angle of its rows (degrees) and its mean pitch (px) there."""
    cm, rm = (lat.c0 + lat.c1) / 2, (lat.r0 + lat.r1) / 2
    o, ex, ey = _apply(lat.H, np.array([[cm, rm], [cm + 1, rm], [cm, rm + 1]]))
    angle = float(np.degrees(np.arctan2(ex[1] - o[1], ex[0] - o[0])))
    return o, angle, float(np.linalg.norm(ex - o) + np.linalg.norm(ey - o)) / 2


def _interleaved(lat: _Lattice, other: _Lattice) -> bool:
    """Whether `lat` is `other` turned 45 degrees at 1/sqrt(2) of its pitch over the same place: its nodes then
    alternate between the other grid's letters and its cell corners (where ruled lines cross, blurred into dots),
    so it is not a grid itself. (A real grid has no such coarser twin: the letters between its nodes would sit
    off that twin's nodes and end its rows.)"""
    centre, angle, pitch = _axes(lat)
    _, o_angle, o_pitch = _axes(other)
    if abs((angle - o_angle) % 90 - 45) > 6 or not 1.25 < o_pitch / pitch < 1.6 or other.fill < 0.7:
        return False
    return _covers(other, centre)


def _covers(lat: _Lattice, point: np.ndarray) -> bool:
    """Whether ``point`` (x, y working px) lies within the lattice's outline."""
    return cv2.pointPolygonTest(lat.corners().astype(np.float32), (float(point[0]), float(point[1])), False) >= 0


def _loose(lat: _Lattice, other: _Lattice) -> bool:
    """Whether `lat` is a loose lattice over `other`, a free-standing, nearly full grid that counts nearly as
    many nodes: gappy and not free-standing, it took in part of the grid and text beside it (a night photo's
    14x14 at a 10 px pitch came out as 12x21, 194 nodes to the grid's 188); made of its letters' pieces, it took
    in a column more (a hand-lettered 8x8 as 8x9, 70 nodes to 64, its letters 0.19 of a pitch wide to the
    grid's 0.45) or, free-standing too, the title above (a hand-lettered 8x12 as 9x12, 102 nodes to 96). Pieces
    are judged against a grid of the same pitch: against one at half its pitch across, a lattice of letters and
    rule pieces, every grid's letters are narrow."""
    if not other.isolated or other.fill < 0.9 or other.nodes < 0.9 * lat.nodes:
        return False
    pieces = lat.width_frac < PIECES * other.width_frac and np.allclose(_pitches(lat), _pitches(other), rtol=0.15)
    return (pieces or lat.fill < 0.8 and not lat.isolated) and _covers(lat, _axes(other)[0])


def _crossings(dark: np.ndarray, lat: _Lattice, px: int) -> bool:
    """Whether the lattice's nodes are where a ruled grid's rules cross, not its letters (``dark``: its ink, see
    _lattice_ink): rules run through its nodes and none between them. (Small ruled cells on grainy newsprint: the
    letters and the rules join, and what stands apart at each crossing forms a lattice half a cell off the
    letters', a row or a column larger.)"""
    between = _rule_shares(dark, lat, px)
    inner = np.r_[between[0][1:-1], between[1][1:-1]]
    nodes = np.concatenate(_through_letters(dark, lat, px))
    return inner.size > 0 and float(np.median(nodes)) >= RULE and float(inner.max()) < NO_RULE


def _between_crossings(lat: _Lattice) -> _Lattice:
    """The lattice of the cells round the nodes of ``lat``, where a ruled grid's rules cross: half a cell off, a
    row and a column larger (a blurred photo of small white-on-dark cells: the light rules' crossings stand
    apart, the letters break up). A rule crossing at the frame makes it a row and a column too large, which
    _within_frame trims."""
    half = np.array([[1.0, 0.0, -0.5], [0.0, 1.0, -0.5], [0.0, 0.0, 1.0]])
    return replace(lat, H=lat.H @ half, c1=lat.c1 + 1, r1=lat.r1 + 1)


def _across_diagonals(gray: np.ndarray, dark: np.ndarray, lat: _Lattice, px: int) -> _Lattice | None:
    """The lattice of a ruled grid's cells when ``lat`` (its ink ``dark``, see _lattice_ink) stands on its letters
    and its rules' crossings at once, turned 45 degrees to them at 1/sqrt(2) of their pitch (a small night photo
    of a ruled 8x8, its rules blurred into dots where they cross, came out as an 11x11 of letters and dots); None
    when it is no such lattice: rules run along its own lines, or along neither twin's cell boundaries. The twin
    on every other node of ``lat`` starts well inside the grid, as large a square as the lattice holds (_to_frame
    then grows it to the frame)."""
    if min(lat.rows, lat.cols) < 5:
        return None
    rows, cols = _rule_shares(dark, lat, px)
    if np.max(np.r_[rows[1:-1], cols[1:-1]], initial=0.0) >= NO_RULE:
        return None
    cm, rm = (lat.c0 + lat.c1) / 2, (lat.r0 + lat.r1) / 2
    o, ex, ey = _apply(lat.H, np.array([[cm, rm], [cm + 1, rm], [cm, rm + 1]]))
    J = np.c_[ex - o, ey - o]  # lattice steps (column, row) in image px
    axes = [np.array(a) for a in ((1, 1), (-1, -1), (1, -1), (-1, 1))]
    along = max(axes, key=lambda a: (J @ a)[0])  # the twin's rows run rightwards
    down = max((a for a in axes if abs(a @ along) == 0), key=lambda a: (J @ a)[1])
    half = min(lat.c1 - lat.c0, lat.r1 - lat.r0) / 4  # the largest square inside the lattice, in twin cells
    for start in ((round(cm), round(rm)), (round(cm) + 1, round(rm))):  # the twin on either set of nodes
        A = np.array([[along[0], down[0], start[0]], [along[1], down[1], start[1]], [0, 0, 1]], np.float64)
        centre = np.linalg.solve(A, [cm, rm, 1.0])[:2]
        x0, y0 = np.ceil(centre - half).astype(int)
        x1, y1 = np.floor(centre + half).astype(int)
        twin = replace(lat, H=lat.H @ A, c0=int(x0), c1=int(x1), r0=int(y0), r1=int(y1),
                       nodes=int((x1 - x0 + 1) * (y1 - y0 + 1)), width_frac=lat.width_frac / np.sqrt(2),
                       height_frac=lat.height_frac / np.sqrt(2))
        rows, cols = _rules(gray, twin, px)
        # rules one way at least: motion blur across the others can wipe them out (see _rule_needed)
        if max(float(np.median(rows[1:-1])), float(np.median(cols[1:-1]))) >= RULE:
            return twin
    return None


def _extends(lat: _Lattice, other: _Lattice) -> bool:
    """Whether `lat` is a free-standing grid that covers `other`, a larger version of the same lattice: `other`
    then stopped short of rows or columns that continue it (a binarisation that recovers more letters can also
    break up a few rows, and so count more nodes over less of the grid)."""
    if not lat.isolated or other.isolated or lat.rows * lat.cols <= other.rows * other.cols:
        return False
    _, angle, pitch = _axes(lat)
    _, o_angle, o_pitch = _axes(other)
    if abs((angle - o_angle + 45) % 90 - 45) > 3 or not 0.9 < o_pitch / pitch < 1.1:
        return False
    quad = lat.corners().astype(np.float32)
    return all(cv2.pointPolygonTest(quad, (float(x), float(y)), True) > -0.5 * pitch for x, y in other.corners())


def _halved(lat: _Lattice, other: _Lattice) -> bool:
    """Whether `lat` is `other`, a grid of square cells, with every row or every column cut in two: in a blurred
    photo of a ruled grid the rules break into letter-sized blobs between the letters, and a lattice of letters
    and rule pieces counts twice the nodes. A grid's cells are about square, so cells twice as tall as wide (or
    twice as wide as tall) are the rules' doing: over the same corners as a full grid, or inside a free-standing,
    nearly full one at half its pitch across and its pitch along (a night photo's 16x13 of small ruled cells came
    out as 14x23, 287 nodes to its 188; another's 11x15, 96% full, as 11x30)."""
    if not SQUARE[0] < _aspect(other) < SQUARE[1] or SQUARE[0] < _aspect(lat) < SQUARE[1]:
        return False
    if (lat.rows, lat.cols) in ((2 * other.rows, other.cols), (other.rows, 2 * other.cols)) and other.fill >= 0.9:
        return _near(lat.corners(), other.corners(), other.cols)
    if lat.isolated or not other.isolated or other.fill < 0.9 or not _covers(other, _axes(lat)[0]):
        return False
    ratios = np.sort(np.array(_pitches(lat)) / np.array(_pitches(other)))  # halved axis first
    return bool(np.all(np.abs(ratios - [0.5, 1.0]) < [0.05, 0.1]))


def _pitches(lat: _Lattice) -> tuple[float, float]:
    """A lattice's cell width and height, working px (mean over opposite sides)."""
    c = lat.corners()
    width = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2 / lat.cols
    height = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2 / lat.rows
    return float(width), float(height)


def _aspect(lat: _Lattice) -> float:
    """A lattice's cell width over its cell height."""
    width, height = _pitches(lat)
    return width / max(height, 1e-6)


def _coloured_ink(bright: np.ndarray, dark: np.ndarray, corners: np.ndarray) -> bool:
    """Whether some ink over the grid is strongly coloured (saturated, darker than the paper): pen marks.
    `bright` and `dark` are the per-pixel largest and smallest channel."""
    region = np.zeros(bright.shape[:2], np.uint8)
    cv2.fillConvexPoly(region, np.round(corners).astype(np.int32), 1)
    hi = bright[region > 0]
    if hi.size == 0:
        return False
    paper = float(np.percentile(hi, 95))
    return np.count_nonzero(imaging.coloured(hi, dark[region > 0]) & (hi < 0.85 * paper)) > 0.002 * hi.size


def _lattice_ink(gray: np.ndarray, lat: _Lattice, px: int) -> np.ndarray:
    """The lattice's ink at INK_SHARE (see _lattice_inks)."""
    return _lattice_inks(gray, lat, px, (INK_SHARE,))[0]


def _lattice_view(gray: np.ndarray, lat: _Lattice, px: int) -> np.ndarray:
    """The lattice's grid, and a cell round it, warped to ``px`` pixels a cell: its outer boundaries at ``px`` and
    ``px`` + cols x ``px`` (x), ``px`` and ``px`` + rows x ``px`` (y)."""
    to_lattice = np.array([[1 / px, 0, lat.c0 - 1.5], [0, 1 / px, lat.r0 - 1.5], [0, 0, 1]])
    size = (lat.cols * px + 2 * px, lat.rows * px + 2 * px)
    return cv2.warpPerspective(gray, np.linalg.inv(lat.H @ to_lattice), size, flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def _lattice_inks(gray: np.ndarray, lat: _Lattice, px: int, shares: tuple[float, ...]) -> tuple[np.ndarray, ...]:
    """The lattice's grid, and a cell round it, warped to ``px`` pixels a cell with the lighting flattened: ink
    1 on 0, for each of ``shares``. Ink is that share of the way from the paper to the darkest ink within two cells
    (rules are often printed light grey, and glare over part of a photo makes its ink grey), where that ink is
    MIN_CONTRAST grey levels darker than the paper at all (not grain on blank paper). The lattice's outer
    boundaries lie at ``px`` and ``px`` + cols x ``px`` (x), ``px`` and ``px`` + rows x ``px`` (y)."""
    flat = _lattice_view(gray, lat, px)
    flat = imaging.flatten(flat, imaging.paper(flat, px, premedian=3))
    paper = float(np.percentile(flat, 80))
    ink = cv2.GaussianBlur(cv2.erode(flat, np.ones((2 * px + 1, 2 * px + 1), np.uint8)).astype(np.float32), (0, 0), px)
    return tuple(((flat < paper - share * (paper - ink)) & (paper - ink > MIN_CONTRAST)).astype(np.uint8)
                 for share in shares)


def _runs(dark: np.ndarray, px: int) -> np.ndarray:
    """The dark runs along x longer than 1.5 cells (letters are shorter): rules."""
    return cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((1, round(1.5 * px)), np.uint8))


def _rules(gray: np.ndarray, lat: _Lattice, px: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """The share of each row boundary's and each column boundary's length (outer ones included, top to bottom
    and left to right) along which a rule runs, found within 0.3 cell of the boundary (a page's bend or the
    lattice's small misfit moves it). Only 1 px breaks along a rule are bridged (grain breaks thin rules into
    pieces shorter than a run: a grainy corpus grid upside down lost its outer row). The ink is not grown:
    grown, a blurred line of small print joined into a run (a night photo's instruction line above its grid
    read as the frame)."""
    return _rule_shares(_lattice_ink(gray, lat, px), lat, px)


def _rule_shares(dark: np.ndarray, lat: _Lattice, px: int, offset: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """_rules on the lattice's ink ``dark`` (see _lattice_ink), at the lines ``offset`` px past its row and column
    boundaries (half a cell: through its nodes)."""
    near = round(0.3 * px)

    def shares(dark: np.ndarray, count: int) -> np.ndarray:
        bridged = cv2.morphologyEx(dark, cv2.MORPH_CLOSE, np.ones((1, 2), np.uint8))
        share = np.count_nonzero(_runs(bridged, px)[:, px:-px], axis=1) / (dark.shape[1] - 2 * px)
        at = [px + k * px + offset for k in range(count + 1)]
        return np.array([share[max(a - near, 0):a + near + 1].max(initial=0.0) for a in at])

    return shares(dark, lat.rows), shares(np.ascontiguousarray(dark.T), lat.cols)


def _through_letters(dark: np.ndarray, lat: _Lattice, px: int) -> tuple[np.ndarray, np.ndarray]:
    """_rule_shares along the lines through each row's and each column's letters (half a cell past its boundary)."""
    rows, cols = _rule_shares(dark, lat, px, px // 2)
    return rows[:-1], cols[:-1]


def _to_frame(gray: np.ndarray, lat: _Lattice, most: int = 6, px: int = 16) -> _Lattice:
    """The lattice grown, by up to ``most`` rows or columns a side, to its ruled frame (see _closes): glare over
    a photo's edge columns, a last row that fits its lattice loosely, or tall letters joined to the rules left
    them out (8x6, 11x12 and 12x8 grids of 8x8, 12x12 and 12x12)."""
    grown = dict.fromkeys(("c0", "c1", "r0", "r1"), 0)
    rules = _rules(gray, lat, px)
    # Motion blur across one set of rules wipes them out or fades them while the other set stands (a night photo's
    # ruled 14x14, shaken up and down, showed its column rules along 0.9 and more of their length and its row
    # rules along none): a new line is not asked for rules across it that the grid shows nowhere or less.
    needed = _rule_needed(rules, _smear(_lattice_view(gray, lat, px), px))
    while True:
        unruled = np.max(np.r_[rules[0][1:-1], rules[1][1:-1]], initial=0.0) < NO_RULE
        for side, count in grown.items():
            if count == most:
                continue
            bigger = replace(lat, **{side: getattr(lat, side) + _outward(side)})
            dark, faint = _lattice_inks(gray, bigger, px, (INK_SHARE, FAINT_SHARE))
            if _closes(dark, faint, side, px, needed[0 if side in ("c0", "c1") else 1]):
                lat, grown[side] = bigger, count + 1
                rules = _rule_shares(dark, lat, px)  # the grown lattice's rules, from the ink just warped
                break
            # an unruled lattice reaches the box round it a line at a time, or where the box stands further off
            # (a small photo's boxed 8x8 of thin capitals came out 8x6), every line at once
            boxed = _to_box(gray, lat, rules, {side: most - count}, px) if unruled else None
            if boxed is not None:
                lat, dark, lines = boxed
                grown[side] = count + lines[side]
                rules = _rule_shares(dark, lat, px)
                break
        else:
            # no side reaches the box alone where the box stands off every side (a small photo's ruled 13x11 came
            # out as its inner 11x9): the box's lines beside each side lie beyond the lattice too
            boxed = _to_box(gray, lat, rules, {side: most - count for side, count in grown.items()}, px) \
                if unruled else None
            if boxed is None:
                return lat
            lat, dark, lines = boxed
            grown = {side: count + lines.get(side, 0) for side, count in grown.items()}
            rules = _rule_shares(dark, lat, px)


def _to_box(gray: np.ndarray, lat: _Lattice, rules: tuple[np.ndarray, np.ndarray], most: dict[str, int],
            px: int) -> tuple[_Lattice, np.ndarray, dict[str, int]] | None:
    """(the lattice grown, its ink, by how many lines each side) where an unruled lattice ``lat`` (its _rules
    ``rules``) grown on the sides of ``most`` (side: at most how many lines) that no rule bounds, each by 1 to its
    most lines, reaches the box round the grid (see _boxed) on each of them; None if it does not. The box is looked
    for once a side, on the lattice grown by its most: the nearest line a rule runs along."""
    bound = {"r0": rules[0][0], "r1": rules[0][-1], "c0": rules[1][0], "c1": rules[1][-1]}
    lines = {}
    for side, n in most.items():
        if bound[side] >= NO_RULE:
            continue  # the box, or a rule, already bounds the lattice there
        if n < 1:
            return None
        far = replace(lat, **{side: getattr(lat, side) + n * _outward(side)})
        rows, cols = _rule_shares(_lattice_ink(gray, far, px), far, px)
        edges = {"r0": rows[n - 1::-1], "r1": rows[lat.rows + 1:], "c0": cols[n - 1::-1], "c1": cols[lat.cols + 1:]}
        ruled = np.flatnonzero(edges[side] >= NO_RULE)
        if not ruled.size:
            return None
        lines[side] = int(ruled[0]) + 1
    if not lines:
        return None
    bigger = replace(lat, **{side: getattr(lat, side) + n * _outward(side) for side, n in lines.items()})
    dark = _lattice_ink(gray, bigger, px)
    return (bigger, dark, lines) if all(_boxed(dark, bigger, side, px, n) for side, n in lines.items()) else None


def _outward(side: str) -> int:
    """The step that grows a lattice on ``side`` (c0, c1, r0 or r1) by a line."""
    return -1 if side in ("c0", "r0") else 1


def _boxed(dark: np.ndarray, bigger: _Lattice, side: str, px: int, lines: int) -> bool:
    """Whether ``bigger`` (its ink ``dark``: see _lattice_ink), an unruled lattice with no rule along its edge on
    ``side`` (see _to_box) grown by ``lines`` lines there, reaches the box drawn round the grid: the box runs along
    ``bigger``'s edge there and along the two sides beside it, and each new line holds letters a pitch apart: ink
    in most of its cells and little across the boundaries between them, as a line of text has. (Glare over a small
    photo's last row of a boxed 13x13 left it out of the lattice: 12x13.)"""
    BOX, INKED, APART = 0.85, 0.03, 0.5
    big_rows, big_cols = _rule_shares(dark, bigger, px)
    edge, beside = {"r0": (big_rows[0], big_cols[[0, -1]]), "r1": (big_rows[-1], big_cols[[0, -1]]),
                    "c0": (big_cols[0], big_rows[[0, -1]]), "c1": (big_cols[-1], big_rows[[0, -1]])}[side]
    if edge < BOX or beside.min() < BOX:
        return False
    dark = dark.astype(np.float32)
    if side in ("c0", "c1"):
        dark = np.ascontiguousarray(dark.T)  # columns become rows: one check for both
    q = px // 4

    def letters(line: np.ndarray) -> bool:
        line = line[q:-q, px:-px]  # the line's cells, clear of the rules above and below
        cells = line.reshape(line.shape[0], -1, px).mean(axis=(0, 2))
        centres = np.concatenate([line[:, k * px + q:(k + 1) * px - q] for k in range(line.shape[1] // px)], axis=1)
        bounds = np.concatenate([line[:, max(k * px - q // 2, 0):k * px + q // 2]
                                 for k in range(1, line.shape[1] // px)], axis=1)
        return float(np.mean(cells > INKED)) >= 0.5 and bounds.mean() <= APART * centres.mean()

    starts = [px * (1 + k) for k in range(lines)] if side in ("r0", "c0") else \
        [dark.shape[0] - px * (2 + k) for k in range(lines)]
    return all(letters(dark[a:a + px]) for a in starts)


def _rule_needed(rules: tuple[np.ndarray, np.ndarray], smear: tuple[float, float]) -> tuple[float, float]:
    """The share of its length along which the rules across a new column, and across a new row, must run for the
    line to be one of the grid's (see _closes), given a lattice's ``rules`` (see _rules) and how much motion blur
    across each set left of its letters' edges (``smear``: see _smear; a set is smeared under SMEARED): RULE,
    unless the picture is smeared across that set. Then none where the blur wiped those rules out while the
    others stand: no inner one shows along half NO_RULE of its length (a night photo's lattice that a line of
    instructions beside the grid would have grown by showed 0.34 along one) and the others along RULE (median;
    a clean page of a white-on-dark grid turned sideways, whose lattice showed rules one way only, is not
    smeared). Where the blur only faded them, as much as the lattice's own inner rules of that set show (their
    median, from half NO_RULE, in a ruled grid: the others along NO_RULE), for a new line's show no more (a night
    photo of a ruled 16x16 shaken up and down showed its row rules along 0.45 of their length, and its first
    column, whose rules showed along 0.62, was left out)."""
    inner = [r[1:-1] for r in rules]

    def needed(these: np.ndarray, others: np.ndarray, smeared: float) -> float:
        if these.size == 0 or others.size == 0 or smeared >= SMEARED:
            return RULE
        if float(these.max()) < NO_RULE / 2 and float(np.median(others)) >= RULE:
            return 0.0
        shown = float(np.median(these))
        return shown if NO_RULE / 2 <= shown < RULE and float(np.median(others)) >= NO_RULE else RULE

    return needed(inner[0], inner[1], smear[0]), needed(inner[1], inner[0], smear[1])


def _smear(view: np.ndarray, px: int) -> tuple[float, float]:
    """How much of the edges of a lattice's letters (``view``: see _lattice_view, ``px`` a cell) a blur across
    its rows has left, against those across its columns, and the other way round: the energy of the grey
    levels' gradient down the columns over that along the rows, and its inverse, within the cells clear of
    their boundaries, where rules run (a night photo of letters shaken up and down: 0.3; unblurred pages about
    1)."""
    view = view.astype(np.float32)

    def clear(n: int) -> np.ndarray:  # the pixels of a line of cells a quarter cell or more from its boundaries
        k = np.arange(n) % px
        return (k >= px // 4) & (k < px - px // 4)

    cells = np.ix_(clear(view.shape[0]), clear(view.shape[1]))
    along = float(np.mean(cv2.Sobel(view, cv2.CV_32F, 1, 0)[cells] ** 2))
    down = float(np.mean(cv2.Sobel(view, cv2.CV_32F, 0, 1)[cells] ** 2))
    return down / max(along, 1e-6), along / max(down, 1e-6)


def _closes(dark: np.ndarray, faint: np.ndarray, side: str, px: int, needed: float) -> bool:
    """Whether the outer row or column ``side`` (c0, c1, r0, r1) of a lattice (its ink ``dark``, and ``faint``
    where its rules are looked for: see _lattice_inks) is a line of the grid's ruled cells: the rules between the
    cells run across it (``needed`` of their length there, at most FADED where the rule beyond runs its whole
    length and every cell holds a letter's ink; see _rule_needed), most of its cells hold ink, not all alike (UNEVEN)
    and full (SOLID), and a rule closes it on the far side (along BEYOND of its length: glare breaks it)."""
    FADED, BEYOND, INKED, UNEVEN, SOLID = 0.6, 0.7, 0.03, 0.9, 0.7
    bounds = _across(faint, side, px)
    if side in ("r0", "r1"):  # rows become columns: one check for both
        dark, faint = np.ascontiguousarray(dark.T), np.ascontiguousarray(faint.T)
    new = slice(px, 2 * px) if side in ("c0", "r0") else slice(-2 * px, -px)
    outer = px if side in ("c0", "r0") else dark.shape[1] - px
    near = round(0.3 * px)
    along_y = _runs(np.ascontiguousarray(faint.T), px).T
    beyond = along_y[px:-px, outer - near:outer + near + 1].any(axis=1).mean()
    ink = np.array([dark[px + k * px + px // 4:px + (k + 1) * px - px // 4, new][:, px // 4:-(px // 4)].mean()
                    for k in range(dark.shape[0] // px - 2)])
    inked = float(np.mean(ink > INKED))
    # Glare fades a side's thin rules before its frame: a frame along the whole side and a letter's ink in every
    # cell (not a solid ground: the paper round a white-on-dark panel, turned dark) let the rules across show
    # along less of the line.
    rule = min(needed, FADED) if beyond >= 0.95 and inked >= 0.9 and np.median(ink) < 0.5 else needed
    # Nor is a line of cells filled alike with ink one of letters, whatever runs across it: letters differ (an I,
    # an M; the least inked cell of a line held 0.28-0.55 where the median held 0.48-0.80), while the paper round a
    # white-on-dark panel, turned dark, fills every cell alike (0.88 or 1.0 in each; 0.75-0.81 in a small, grainy
    # photo). Blur evens out small letters' ink, but not to most of a cell (a small photo's last row, 0.45 to 0.55
    # in each).
    return (beyond >= BEYOND and np.median(bounds) >= rule and inked >= 0.5
            and (ink.min() < UNEVEN * np.median(ink) or np.median(ink) < SOLID))


def _across(dark: np.ndarray, side: str, px: int) -> np.ndarray:
    """For each boundary between the cells of the outer row or column ``side`` (c0, c1, r0, r1) of a lattice (its
    ink ``dark``: see _lattice_inks), the share of that line's width along which a rule runs across it."""
    if side in ("r0", "r1"):  # rows become columns: one check for both
        dark = np.ascontiguousarray(dark.T)
    new = slice(px, 2 * px) if side in ("c0", "r0") else slice(-2 * px, -px)
    near = round(0.3 * px)
    along = _runs(dark, px)  # rules along x, across the line of cells
    return np.array([along[px + k * px - near:px + k * px + near + 1, new].any(axis=0).mean()
                     for k in range(dark.shape[0] // px - 1)])


def _off_the_frame(gray: np.ndarray, lat: _Lattice) -> _Lattice:
    """The lattice without an outer row or column that a rule runs through, along NO_RULE past RULE of its length
    where it would hold its letters, while no rule runs so through the lines inside: the box round a grid, broken
    into dashes by a night photo's grain, lines up with the rows beside it as a column of I's (a boxed 11x11 read
    as 11x12, its last column the box's side)."""
    px = 16
    rows, cols = _through_letters(_lattice_ink(gray, lat, px), lat, px)
    cut = [bool(len(side) > MIN_SIDE_CELLS + 1 and side[end] >= RULE
                and np.max(np.delete(side, [0, -1]), initial=0.0) < NO_RULE)
           for side in (rows, cols) for end in (0, -1)]
    return replace(lat, r0=lat.r0 + cut[0], r1=lat.r1 - cut[1], c0=lat.c0 + cut[2], c1=lat.c1 - cut[3])


def _within_frame(gray: np.ndarray, lat: _Lattice) -> _Lattice:
    """The lattice without outer rows or columns that lie outside the grid's frame: a line of text above a
    ruled or boxed grid (an instruction, a title in a monospaced face) can line up with its columns. Such a row
    has no rule along its outer side and the frame along its inner side; the trim stands if the frame then runs
    along all four sides, or along the opposite side where nothing at all runs along the line's far side (a
    lattice that took in a line leans with it, and the rules across it then fall off its boundaries along part
    of their length; grain breaks a grid's thin outer rule to under half its length, and the far side is not
    nothing then), along half of it where not a dot of a rule runs there (a hand-lettered line leaned a ruled
    8x8's lattice so that its bottom rule showed along 0.77), or if no rule runs between the grid's other rows
    and columns: an unruled grid's box may stand off its letters at the other sides, and then only its edge
    between the line and the grid falls on a cell boundary."""
    px = 16
    dark = _lattice_ink(gray, lat, px)
    rows, cols = _rule_shares(dark, lat, px)
    inner = np.r_[rows[2:-2], cols[2:-2]]
    unruled = np.max(inner, initial=0.0) < NO_RULE
    ruled = inner.size > 0 and float(np.median(inner)) >= RULE
    # An unruled grid's box edge is found along only part of its length when the lattice leans with a line of
    # hand lettering it took in (0.59, and none on the line's far side); a box half a cell off the letters shows
    # on both sides of its last cells alike (0.45 and 0.5). So does a ruled grid's frame under a line that leaned
    # its lattice further (0.55, where the rules inside showed along 0.9 and more, and not a dot beyond the line),
    # where no rule runs across the line: a ruled grid's own last row, its frame faded away, has them.
    cut = [bool(len(side) > MIN_SIDE_CELLS + 1 and side[end] < NO_RULE and
                (side[end + step] >= RULE or (unruled or ruled and side[end] == 0.0 and
                                              np.median(_across(dark, name, px)) < NO_RULE)
                 and side[end + step] - side[end] >= NO_RULE))
           for side, names in ((rows, ("r0", "r1")), (cols, ("c0", "c1")))
           for (end, step), name in zip(((0, 1), (-1, -1)), names)]
    if not any(cut):
        return lat
    frame = [rows[1 if cut[0] else 0], rows[-2 if cut[1] else -1], cols[1 if cut[2] else 0],
             cols[-2 if cut[3] else -1]]
    opposite, outer = [frame[1], frame[0], frame[3], frame[2]], [rows[0], rows[-1], cols[0], cols[-1]]
    framed = unruled or min(frame) >= RULE
    if not all(framed or far < NO_RULE / 2 and o >= (NO_RULE if far == 0.0 else RULE)
               for c, o, far in zip(cut, opposite, outer) if c):
        return lat
    return replace(lat, r0=lat.r0 + cut[0], r1=lat.r1 - cut[1], c0=lat.c0 + cut[2], c1=lat.c1 - cut[3])


def _light_on_dark(gray: np.ndarray, lat: _Lattice) -> bool:
    """Whether the grid's letters are lighter than its background, judged inside the grid. (The ink polarity a
    lattice was found with does not tell: halos around white letters also form a lattice.)"""
    corners = lat.corners()
    x, y, w, h = cv2.boundingRect(np.round(corners).astype(np.int32))
    x, y = max(x, 0), max(y, 0)
    crop = gray[y:y + h, x:x + w]  # the grid's box: no need to filter the whole page for it
    if crop.size == 0:
        return False
    region = np.zeros(crop.shape, np.uint8)
    cv2.fillConvexPoly(region, np.round(corners - [x, y]).astype(np.int32), 1)
    pitch = float(np.linalg.norm(corners[1] - corners[0])) / lat.cols
    return imaging.light_on_dark(crop, round(pitch), region.astype(bool))


def _search(work: np.ndarray) -> list[_Lattice]:
    """Candidate lattices over the ink polarities and binarisations, stopping as soon as one is settled."""
    lattices: list[_Lattice] = []
    polarities = _polarities(work)
    for n, inverted in enumerate(polarities):
        src = 255 - work if inverted else work
        for smoothing, threshold in INK_VARIANTS:
            mask = _ink_mask(src, smoothing, threshold)
            found = _lattices(_letter_blobs(mask))
            if found:
                again = _lattices(_blobs_without_lines(mask, _lattice_frame(found[0])))
                if again and _agree(found[0], again[0]):
                    return lattices + found + again  # the same full grid with and without its rules
                found += again
            if not any(lat.isolated and lat.fill >= 0.8 for lat in found):
                for frame in _ruled_frames(mask):
                    found += [lat for lat in _lattices(_blobs_without_lines(mask, frame)) if _along(lat, frame)]
                    if _clean(found):
                        break
            lattices += found
            if _clean(found):
                # A monospaced list turned sideways is as regular as a grid: the other polarity is looked at
                # once before stopping, for a white-on-dark grid beside it.
                for other in polarities[n + 1:]:
                    lattices += _lattices(_letter_blobs(_ink_mask(255 - work if other else work, *INK_VARIANTS[0])))
                return lattices
    for variant in LAST_RESORTS:
        if lattices:
            break
        for inverted in _polarities(work):
            lattices += _lattices(_letter_blobs(_ink_mask(255 - work if inverted else work, *variant)))
    return lattices


def _agree(a: _Lattice, b: _Lattice) -> bool:
    """Same shape, corners within a fifth of a pitch, full and regular, and not a small piece of something
    larger."""
    if (a.rows, a.cols) != (b.rows, b.cols) or a.fill < 0.97 or not _settled(a):
        return False
    return _near(a.corners(), b.corners(), a.cols)


def _settled(lat: _Lattice) -> bool:
    """Whether a lattice is surely a grid, so the search can stop: full, regular, free-standing, more than a
    patch, and with its letters well apart both ways. A word list set in a monospaced font also lines up, but
    its letters nearly touch: 0.74 of the pitch wide, where settled grids of the corpus and 90 generated pages
    are at most 0.61; on a page turned sideways they nearly touch down the columns, 0.70-0.83 of the pitch
    high, where grids are at most 0.67, and four lines of a list make 4x4 patches of letters that line up by
    chance. The real grid may be white on dark, found only with the other polarity."""
    return (lat.fill >= 0.9 and lat.resid < 0.06 and lat.isolated and min(lat.rows, lat.cols) > MIN_SIDE_CELLS
            and lat.width_frac < 0.7 and lat.height_frac < 0.75)


def _clean(lattices: list[_Lattice]) -> bool:
    """Whether one of the lattices is settled (no need to look further)."""
    return any(_settled(lat) for lat in lattices)


def _unmistakable(lat: _Lattice, first: _Lattice) -> bool:
    """Whether a further lattice on the page is surely a second puzzle, not a word list set in columns: nearly
    full, regular, letters well apart (list words have letters almost touching)."""
    return (min(lat.rows, lat.cols) >= 6 and lat.fill >= 0.9 and lat.resid < 0.12 and lat.width_frac < 0.75
            and lat.nodes >= 0.25 * first.nodes)


def find_grid(image: np.ndarray, source: str) -> GridLocation:
    """The largest letter grid in the image; NoGridError naming `source` when there is none."""
    grids = find_grids(image)
    if not grids:
        raise NoGridError(f"no letter grid found in {source}")
    return grids[0]


def turned(loc: GridLocation, turns: int) -> GridLocation:
    """The same grid seen turned ``turns`` quarter turns counter-clockwise (as np.rot90 turns an array):
    the corner that becomes the top-left comes first, rows and columns swap on odd turns."""
    rows, cols = (loc.cols, loc.rows) if turns % 2 else (loc.rows, loc.cols)
    return GridLocation(np.roll(loc.corners, -turns, axis=0), rows, cols, loc.inverted)


def quarter_turn(shape: tuple[int, ...], turns: int) -> np.ndarray:
    """The 3x3 matrix taking points of an image of ``shape`` to the same points once np.rot90 has turned the image
    ``turns`` quarter turns counter-clockwise (x, y on pixel boundaries, as GridLocation corners are: pixel i
    spans i..i+1)."""
    matrix, width = np.eye(3), shape[1]
    for turn in range(turns % 4):
        matrix = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, width], [0.0, 0.0, 1.0]]) @ matrix
        width = shape[turn % 2]  # the turned image's width is the height before the turn
    return matrix


def moved(loc: GridLocation, matrix: np.ndarray) -> GridLocation:
    """The grid with its corners mapped by a 3x3 matrix (e.g. quarter_turn's or its inverse)."""
    corners = cv2.perspectiveTransform(loc.corners.reshape(-1, 1, 2).astype(np.float64), matrix).reshape(-1, 2)
    return GridLocation(corners, loc.rows, loc.cols, loc.inverted)


def shared_area(a: GridLocation, b: GridLocation) -> float:
    """The area the outlines of grids ``a`` and ``b`` share, as a share of the larger one's (0..1)."""
    pa, pb = (np.ascontiguousarray(g.corners, np.float32) for g in (a, b))
    shared, _ = cv2.intersectConvexConvex(pa, pb)
    return float(shared) / max(cv2.contourArea(pa), cv2.contourArea(pb), 1e-6)


def _near(a: np.ndarray, b: np.ndarray, cols: int) -> bool:
    """Are corners ``a`` and ``b`` (4x2) of a grid ``cols`` wide within a fifth of its pitch of each other?"""
    pitch = np.linalg.norm(a[1] - a[0]) / cols
    return bool(np.max(np.linalg.norm(a - b, axis=1)) < 0.2 * pitch)


def rectify(image: np.ndarray, loc: GridLocation, cell_px: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """Warp the grid to a (rows*cell_px, cols*cell_px) grey image, dark letters on light, one cell per cell_px
    square, coloured pen over its letters made light (imaging.without_pen); also return the 3x3 homography
    mapping input pixels -> rectified pixels."""
    w, h = loc.cols * cell_px, loc.rows * cell_px
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    H = cv2.getPerspectiveTransform(loc.corners.astype(np.float32), dst.astype(np.float32)).astype(np.float64)
    src_cell = float(np.linalg.norm(loc.corners[1] - loc.corners[0])) / loc.cols
    if image.ndim == 2:
        gray = image
    else:  # pen judged over the grid's box alone: a 12-MP photo costs no more
        gray = cv2.cvtColor(image[:, :, :3], cv2.COLOR_BGR2GRAY)
        x, y, bw, bh = cv2.boundingRect(np.round(loc.corners).astype(np.int32))
        x0, y0 = max(x - 2, 0), max(y - 2, 0)
        box = np.s_[y0:y + bh + 2, x0:x + bw + 2]
        view = gray[box]
        if view.size:
            region = np.zeros(view.shape, np.uint8)
            cv2.fillConvexPoly(region, np.round(loc.corners - [x0, y0]).astype(np.int32), 1)
            lightened = imaging.without_pen(image[box], view, src_cell, region.astype(bool))
            if lightened is not view:
                view[...] = lightened
    # Shrinking a lot in one warp aliases; pre-shrink with area averaging first.
    shrink = min(1.0, 2.0 * cell_px / max(src_cell, 1e-6))
    if shrink < 0.9:
        small = imaging.shrink(gray, shrink)
        S = np.diag([1 / shrink, 1 / shrink, 1.0])
        warped = cv2.warpPerspective(small, H @ S, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    else:
        warped = cv2.warpPerspective(gray, H, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if loc.inverted:
        warped = 255 - warped
    return warped, H


# --- binarisation and blobs -------------------------------------------------------------------------------------

def _polarities(gray: np.ndarray) -> list[bool]:
    """Ink polarities worth trying: dark-on-light always, light-on-dark when part of the image is dark."""
    dark = np.count_nonzero(gray < 0.45 * float(np.percentile(gray, 95))) / gray.size
    return [False, True] if dark > 0.03 else [False]


def _ink_mask(gray: np.ndarray, smoothing: str, threshold: str) -> np.ndarray:
    """Dark ink as 255 on 0: the background is flattened by dividing by a local maximum, then thresholded.

    `smoothing` first: "heavy" for grainy scans and photos, "light" (a 3x3 median) keeps tiny letters intact,
    "none" also keeps strokes one pixel wide (thin small print on newsprint, which a median breaks into specks),
    "gauss" (sigma 1 px) evens out a night photo's sensor grain without eating its faint strokes.
    `threshold`: "otsu" follows the page's contrast; "strict" keeps only ink 30% darker than its surroundings
    (blurred letters then stay apart from the rules); "faint" takes ink 12% darker (grey print on grey paper);
    "core" only ink half as dark as its surroundings (bold letters blurred into each other part at their cores);
    "black" only ink under 30% of its surroundings (black print, not the grey of pencil marks over it); "local"
    ink a little darker than the paper round it, whatever the rest of the page (see LOCAL_WINDOW).
    """
    k = max(15, round(max(gray.shape) / 60)) | 1
    smooth = {"heavy": lambda g: cv2.GaussianBlur(cv2.medianBlur(g, 5), (0, 0), 1.5),
              "light": lambda g: cv2.medianBlur(g, 3), "none": lambda g: g,
              "gauss": lambda g: cv2.GaussianBlur(g, (0, 0), 1.0)}[smoothing](gray)
    norm = imaging.flatten(smooth, imaging.paper(smooth, k, box=True))
    if threshold == "local":
        window = max(3, round(max(gray.shape) / LOCAL_WINDOW)) | 1
        return cv2.adaptiveThreshold(norm, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C, cv2.THRESH_BINARY_INV, window,
                                     LOCAL_DROP)
    if threshold == "otsu":
        t, _ = cv2.threshold(norm, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        # Otsu follows the page's contrast, but a heavy frame or panel drags it down: faint or thin letters
        # 20% darker than their surroundings are ink anyway.
        t = max(float(np.clip(t, 0.55 * 255, 0.88 * 255)), 0.8 * 255)
    else:
        t = {"strict": 0.7, "faint": 0.88, "core": 0.5, "black": 0.3}[threshold] * 255
    return ((norm < t) * 255).astype(np.uint8)


def _letter_blobs(mask: np.ndarray) -> _Blobs:
    """Connected components that could be letters (or two touching letters)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    x, y, w, h, area = (stats[1:, i].astype(np.float64) for i in range(5))
    side = min(mask.shape)
    keep = np.flatnonzero((h >= 5) & (area >= 10) & (h <= side / 4) & (w <= side / 4)
                          & (w <= 3.0 * h) & (h <= 12.0 * w) & (area >= 0.06 * w * h))
    if len(keep) > MAX_BLOBS:  # a texture, not a page of text: keep the most common sizes
        keep = keep[np.argsort(np.abs(np.log(h[keep] / np.median(h[keep]))))[:MAX_BLOBS]]
    elongation = np.empty(len(keep))
    for k, c in enumerate(keep):
        x0, y0, ww, hh = stats[c + 1, :4]
        m = cv2.moments((labels[y0:y0 + hh, x0:x0 + ww] == c + 1).astype(np.uint8), binaryImage=True)
        sxx, syy, sxy = m["mu20"] / m["m00"] + 1 / 12, m["mu02"] / m["m00"] + 1 / 12, m["mu11"] / m["m00"]
        half, root = (sxx + syy) / 2, np.hypot((sxx - syy) / 2, sxy)
        elongation[k] = np.sqrt((half + root) / max(half - root, 1e-6))
    return _Blobs(x=(x + w / 2)[keep], y=(y + h / 2)[keep], w=w[keep], h=h[keep], area=area[keep],
                  slender=elongation > 4.5)


def _lattice_frame(lat: _Lattice) -> tuple[np.ndarray, float, float, float, int]:
    """(centre, angle in degrees, run x, run y, gap) for line removal: lines run longer than 1.6 pitches, and
    breaks in them up to an eighth of a pitch are bridged."""
    cm, rm = (lat.c0 + lat.c1) / 2, (lat.r0 + lat.r1) / 2
    o, ex, ey = _apply(lat.H, np.array([[cm, rm], [cm + 1, rm], [cm, rm + 1]]))
    angle = float(np.degrees(np.arctan2(ex[1] - o[1], ex[0] - o[0])))
    px, py = float(np.linalg.norm(ex - o)), float(np.linalg.norm(ey - o))
    return o, angle, 1.6 * px, 1.6 * py, round(0.12 * min(px, py))


def _ruled_frames(mask: np.ndarray, count: int = 2) -> list[tuple[np.ndarray, float, float, float, int]]:
    """Line-removal frames for the largest open (line-like) components: ruled grids whose letters all touch the
    rules leave no letter blobs at all, so no lattice can give the orientation. Runs longer than a fifth of
    the component's side are lines (a grid has at least 4 cells a side)."""
    joined = cv2.dilate(mask, np.ones((3, 3), np.uint8))  # rules broken by blur or JPEG reconnect
    n, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    x, y, w, h, area = (stats[1:, i] for i in range(5))
    side = min(mask.shape) / 8
    big = np.flatnonzero((w > side) & (h > side) & (area < OPEN_FILL * w * h))
    frames, fallbacks = [], []
    for c in big[np.argsort(area[big])[::-1][:count]]:
        component = (labels[y[c]:y[c] + h[c], x[c]:x[c] + w[c]] == c + 1).astype(np.uint8)
        ys, xs = np.nonzero(component)
        pts = np.c_[xs + x[c], ys + y[c]].astype(np.float32)
        # The outline has the pixels' convex hull, so the same rectangle, from a fraction of the points.
        outline = cv2.findContours(component, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
        (cx, cy), (rw, rh), angle = cv2.minAreaRect((np.concatenate(outline) + [x[c], y[c]]).astype(np.float32))
        angle = (angle + 45) % 90 - 45
        # The rules repeat every pitch: read it from the deskewed pixels' profiles.
        flat = cv2.transform(pts[None], cv2.getRotationMatrix2D((cx, cy), angle, 1.0))[0]
        pitch = [_period(flat[:, axis]) for axis in (0, 1)]
        if all(pitch):
            frames.append((np.array([cx, cy]), float(angle), 1.6 * pitch[0], 1.6 * pitch[1],
                           round(0.12 * min(pitch))))
        run = min(rw, rh) / 5  # and without trusting that pitch: a grid has at least 4 cells a side
        fallbacks.append((np.array([cx, cy]), float(angle), run, run, 3))
    return frames + fallbacks


def _period(coords: np.ndarray) -> float | None:
    """Dominant period (px) of the pixels' positions along one axis, from the profile's autocorrelation."""
    profile = np.bincount(np.round(coords - coords.min()).astype(np.int64)).astype(np.float64)
    if len(profile) < 24:
        return None
    profile -= profile.mean()
    ac = np.correlate(profile, profile, "full")[len(profile) - 1:]
    lo, hi = 6, len(profile) // 3
    if hi <= lo or ac[0] <= 0:
        return None
    lag = lo + int(np.argmax(ac[lo:hi]))
    if ac[lag] < 0.15 * ac[0]:
        return None
    half = lag // 2
    if half >= lo and ac[half] > 0.7 * ac[lag]:  # a peak at twice the period
        lag = half
    return float(lag)


def _along(lat: _Lattice, frame: tuple[np.ndarray, float, float, float, int]) -> bool:
    """Whether ``lat`` runs along the rules of ``frame`` (within ALONG_RULES degrees): a grid's rules run between
    its rows and columns. Stubs of thick rules left at their crossings stand between the letters, and letters
    and stubs together make a lattice turned 45 degrees, its pitch the cells' diagonal over two."""
    turn = (_lattice_frame(lat)[1] - frame[1]) % 90
    return min(turn, 90 - turn) <= ALONG_RULES


def _blobs_without_lines(mask: np.ndarray, frame: tuple[np.ndarray, float, float, float, int]) -> _Blobs:
    """Letter blobs once ruled lines and frames are erased: letters touching them would otherwise be lost.

    The mask is deskewed to the frame's angle, ink runs longer than the frame's run lengths along either axis
    are removed, and blob centres are mapped back to the mask's frame. Empty when there are no such lines.
    """
    o, angle, run_x, run_y, gap = frame
    h, w = mask.shape
    A = cv2.getRotationMatrix2D((float(o[0]), float(o[1])), angle, 1.0)
    box = cv2.transform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], dtype=np.float64), A)[0]
    A[:, 2] -= box.min(0)
    size = np.ceil(box.max(0) - box.min(0)).astype(int)
    rot = cv2.warpAffine(mask, A, (int(size[0]), int(size[1])), flags=cv2.INTER_NEAREST)
    # Thickening across the line first keeps slightly bent (perspective) or broken lines continuous.
    gap = max(3, gap) | 1
    rect = cv2.getStructuringElement
    lines = cv2.morphologyEx(cv2.dilate(rot, rect(cv2.MORPH_RECT, (gap, 5))), cv2.MORPH_OPEN,
                             rect(cv2.MORPH_RECT, (round(run_x), 1)))
    lines |= cv2.morphologyEx(cv2.dilate(rot, rect(cv2.MORPH_RECT, (5, gap))), cv2.MORPH_OPEN,
                              rect(cv2.MORPH_RECT, (1, round(run_y))))
    if np.count_nonzero(lines) < 5 * (run_x + run_y):
        return _Blobs(*(np.empty(0),) * 5, slender=np.empty(0, dtype=bool))
    clean = rot & ~lines
    b = _letter_blobs(clean)
    if not len(b):
        return b
    back = cv2.transform(np.c_[b.x, b.y][None], cv2.invertAffineTransform(A))[0]
    b.x, b.y = back[:, 0], back[:, 1]
    return b


# --- lattice search ---------------------------------------------------------------------------------------------

def _apply(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.c_[pts, np.ones(len(pts))] @ H.T
    with np.errstate(divide="ignore", invalid="ignore"):  # points on the horizon line: inf/nan, rejected later
        return p[:, :2] / p[:, 2:3]


def _neighbours(b: _Blobs, k: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Indices (i, j) of each blob's k nearest neighbours (FLANN k-d tree)."""
    pts = np.c_[b.x, b.y].astype(np.float32)
    n = len(pts)
    k = min(k, n - 1)
    index = cv2.flann_Index(pts, {"algorithm": 1, "trees": 1})
    found, _ = index.knnSearch(pts, k + 1, params={"checks": 64})
    found = found.astype(np.int64)
    is_self = found == np.arange(n)[:, None]
    is_self[~is_self.any(1), k] = True  # self not listed (duplicate points): drop the farthest instead
    return np.repeat(np.arange(n), k), found[~is_self].reshape(n, k).ravel()


def _angle_mod90(vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
    """Angles folded to [-45, 45) degrees."""
    a = np.degrees(np.arctan2(vy, vx))
    return (a + 45.0) % 90.0 - 45.0


def _peaks(values: np.ndarray, lo: float, hi: float, count: int) -> list[float]:
    """Up to `count` modes of positive values (log-spaced histogram, lightly smoothed), strongest first.

    A mode is a local maximum separated from every stronger mode by a clear dip: two puzzles on a page whose
    pitches differ by only 20-30% give two modes, while one mode's shoulders give none.
    """
    values = values[(values > lo) & (values < hi)]
    if len(values) < 4:
        return []
    bins = np.linspace(np.log(lo), np.log(hi), 120)
    hist, edges = np.histogram(np.log(values), bins=bins)
    hist = np.convolve(hist, [1, 2, 3, 2, 1], mode="same").astype(np.float64)
    padded = np.r_[np.zeros(2), hist, np.zeros(2)]
    tops = [i for i in np.argsort(-hist, kind="stable") if hist[i] >= padded[i:i + 5].max() and hist[i] > 0]
    found: list[int] = []
    for i in tops:
        if len(found) == count or hist[i] < max(4.0, 0.15 * (hist[found[0]] if found else 0)):
            break
        if any(hist[min(i, f):max(i, f) + 1].min() > 0.6 * hist[i] for f in found):
            continue  # no dip between it and a stronger mode: the same mode
        found.append(int(i))
    return [float(np.median(values[(np.log(values) >= edges[max(i - 3, 0)])
                                   & (np.log(values) <= edges[min(i + 4, len(edges) - 1)])])) for i in found]


def _lattices(b: _Blobs) -> list[_Lattice]:
    """Candidate grids among the blobs, best (most letter nodes) first; at most one per linked cluster."""
    if len(b) < MIN_SIDE_CELLS * MIN_SIDE_CELLS:
        return []
    i, j = _neighbours(b)
    vx, vy = b.x[j] - b.x[i], b.y[j] - b.y[i]
    similar = (np.abs(np.log(b.h[i] / b.h[j])) < np.log(1.5)) & ~b.slender[i] & ~b.slender[j]
    i, j, vx, vy = i[similar], j[similar], vx[similar], vy[similar]
    if len(i) < 8:
        return []
    # Dominant orientation from each blob's nearest similar neighbour.
    dist = np.hypot(vx, vy)
    order = np.lexsort((dist, i))
    first = order[np.r_[True, i[order][1:] != i[order][:-1]]]
    ang = _angle_mod90(vx[first], vy[first])
    hist = np.histogram(ang, bins=90, range=(-45, 45))[0].astype(np.float64)
    hist = np.convolve(np.r_[hist[-3:], hist, hist[:3]], [1, 2, 3, 2, 1], mode="same")[3:-3]
    peak = -45 + int(np.argmax(hist)) + 0.5
    near = np.abs((ang - peak + 45) % 90 - 45) < 3
    theta = np.radians(peak + float(np.mean((ang[near] - peak + 45) % 90 - 45)) if near.any() else peak)
    c, s = np.cos(theta), np.sin(theta)
    ax, ay = c * vx + s * vy, -s * vx + c * vy  # neighbour vectors in the grid's frame
    along_x = np.abs(ay) < 0.2 * np.abs(ax)
    along_y = np.abs(ax) < 0.2 * np.abs(ay)
    hmed = float(np.median(b.h))
    lo, hi = 0.5 * max(4.0, 0.3 * hmed), 30 * hmed
    px_cands = _peaks(np.abs(ax[along_x]), lo, hi, 3)
    py_cands = _peaks(np.abs(ay[along_y]), lo, hi, 3)
    out: list[_Lattice] = []
    claimed = np.zeros(len(b), dtype=bool)  # blobs already explained by a fitted lattice
    for px in px_cands:
        for py in py_cands:
            if not 0.4 < px / py < 2.5:
                continue
            out.extend(_lattices_for_pitch(b, i, j, ax, ay, px, py, claimed))
    out.sort(key=lambda g: g.nodes, reverse=True)
    return out


def _lattices_for_pitch(b: _Blobs, i, j, ax, ay, px: float, py: float, claimed: np.ndarray) -> list[_Lattice]:
    """Link blobs one pitch apart, give each linked cluster lattice indices and fit it (new clusters only)."""
    tol = 0.22
    hor = (np.abs(np.abs(ax) - px) < tol * px) & (np.abs(ay) < tol * py)
    ver = (np.abs(np.abs(ay) - py) < tol * py) & (np.abs(ax) < tol * px)
    step = np.zeros((len(i), 2), dtype=np.int64)
    step[hor, 0] = np.sign(ax[hor]).astype(np.int64)
    step[ver, 1] = np.sign(ay[ver]).astype(np.int64)
    use = hor | ver
    ei, ej, es = i[use], j[use], step[use]
    n = len(b)
    adj: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    for a, c, (dc, dr) in zip(ei.tolist(), ej.tolist(), es.tolist()):
        adj[a].append((c, dc, dr))
        adj[c].append((a, -dc, -dr))
    seen = np.full(n, -1, dtype=np.int64)
    idx = np.zeros((n, 2), dtype=np.int64)
    out: list[_Lattice] = []
    clusters: list[np.ndarray] = []
    for start in range(n):
        if seen[start] >= 0 or not adj[start]:
            continue
        members = [start]
        seen[start] = start
        stack = [start]
        while stack:
            a = stack.pop()
            for c, dc, dr in adj[a]:
                if seen[c] < 0:
                    seen[c] = start
                    idx[c] = idx[a] + (dc, dr)
                    members.append(c)
                    stack.append(c)
        if len(members) >= 12:
            clusters.append(np.array(members))
    clusters.sort(key=len, reverse=True)
    for m in clusters[:MAX_CLUSTERS]:
        if len(m) < 0.2 * len(clusters[0]) or claimed[m].mean() > 0.5:
            continue
        with np.errstate(divide="ignore", invalid="ignore"):  # nodes past a steep horizon: inf, then rejected
            lat = _fit_lattice(b, m, idx[m].astype(np.float64))
        if lat is not None:
            claimed[lat.blob_ids] = True
            out.append(lat)
    return out


def _uniform(sizes: np.ndarray) -> float:
    """The share of ``sizes`` within 15% of their median. Over a lattice's letters, the larger of this for their
    heights and their widths: printed letters share a height, which lies across the columns on a page turned
    sideways."""
    return float(np.mean(np.abs(sizes / np.median(sizes) - 1) < 0.15))


def _fit_lattice(b: _Blobs, members: np.ndarray, ij: np.ndarray) -> _Lattice | None:
    """Fit lattice -> image to a linked cluster, then settle the row/column extent on all blobs.

    Blobs are sized against the cluster's letters along the axis their height lies on: y on an upright or
    upside-down page, x on one turned sideways (letters share their height, not their width: the more uniform of
    the two, by TURNED_BY). Judged by their length instead, the short words of a line of print beside a turned
    grid pass for letters, and the line for one more row or column of the grid."""
    pts = np.c_[b.x[members], b.y[members]]
    H, inl = cv2.findHomography(ij, pts, cv2.RANSAC, 0.3 * float(np.median(b.h[members])) + 1.0)
    if H is None or inl.sum() < 12:
        return None
    keep = inl.ravel().astype(bool)
    tall = 0 if _uniform(b.w[members][keep]) > _uniform(b.h[members][keep]) + TURNED_BY else 1  # letters' height axis
    ij = ij[keep]
    lo = [int(ij[:, 0].min()), int(ij[:, 1].min())]  # [c0, r0]
    hi = [int(ij[:, 0].max()), int(ij[:, 1].max())]  # [c1, r1]
    allpts = np.c_[b.x, b.y]
    letter = None  # median letter height, area and width in pitches, fixed from the linked cluster
    seen: dict[tuple[int, ...], int] = {}  # rectangle -> iteration that ended on it
    states = []  # (lo, hi, H, size_ok, extent) after each iteration
    for _ in range(FIT_ROUNDS):
        try:
            uv = _apply(np.linalg.inv(H), allpts)
        except np.linalg.LinAlgError:
            return None
        rnd = np.round(uv)
        # Blob sizes in local pitches, so letters shrinking with perspective still match.
        o = _apply(H, uv)
        px = np.linalg.norm(_apply(H, uv + [1, 0]) - o, axis=1)
        py = np.linalg.norm(_apply(H, uv + [0, 1]) - o, axis=1)
        extent = np.c_[b.w / px, b.h / py]
        area = b.area / (px * py)
        if letter is None:
            letter = (float(np.median(extent[members[keep], tall])), float(np.median(area[members[keep]])),
                      float(np.median(extent[members[keep], 1 - tall])))
            # Lower case mixes x-height letters, ascenders and descenders (a row of a, c, e, m, n stands 30%
            # lower than one of b, d, f, h, k): the size checks widen by the grid's own spread, up to 1.5.
            spread = float(np.clip(imaging.height_spread(extent[members[keep], tall]) / 1.1, 1.0, 1.5))
        hrel = extent[:, tall] / letter[0]
        size_ok = (hrel > 0.6 / spread) & (hrel < 1.6 * spread)
        on = size_ok & (np.abs(uv - rnd) < NODE_TOL).all(1)
        # Only solid, letter-sized blobs count against a row/column: not I's, nor pieces of broken ruled lines
        # (thin, or small and on a cell boundary).
        boundary = (np.abs(uv - rnd) > 0.35).any(1) & (area < 0.4 * letter[1])
        solid = size_ok & ~b.slender & (area > 0.15 * letter[1]) & ~boundary
        # Rows and columns are judged on the blobs around the current rectangle only (speed).
        near = np.flatnonzero(((uv > np.array(lo) - 1.5) & (uv < np.array(hi) + 1.5)).all(1))
        n_uv, n_rnd, n_on, n_size, n_solid = uv[near], rnd[near], on[near], size_ok[near], solid[near]
        n_hrel, n_extent, n_slender = hrel[near], extent[near], b.slender[near]
        n_plain = ~n_slender & ~boundary[near]

        def quality(axis: int, k: int) -> int:
            """2: row/column k (axis 1/0) is grid-like; 1: tolerable inside a grid; 0: not part of it."""
            other = n_uv[:, 1 - axis]
            band = (np.abs(n_uv[:, axis] - k) < 0.5) & (other > lo[1 - axis] - 0.5) & (other < hi[1 - axis] + 0.5)
            inside = band & n_size
            hits = inside & n_on & (n_extent[:, 1 - tall] < WIDE * letter[2])
            span = hi[1 - axis] - lo[1 - axis] + 1
            nodes = len(np.unique(n_rnd[hits, 1 - axis]))
            # A thin outline or rule breaks into dashes a letter high where it steps a pixel: too narrow for
            # letters, though not always slender enough to be flagged. (A column narrower than this throughout
            # would be all I's.)
            thin = n_slender | (n_extent[:, 1 - tall] < 0.4 * letter[2]) if axis == 1 - tall else n_slender
            stout = len(np.unique(n_rnd[hits & ~thin, 1 - axis]))
            if nodes < 0.3 * span or stout < 0.5 * nodes:
                return 0  # too few letters, or mostly strokes: the pieces of a frame or ruled line
            off = np.count_nonzero(inside & ~n_on & n_solid)
            ratio = float(np.median(n_hrel[hits]))
            # Words in a line of text nearly touch (lower-case letters too); grid letters are a pitch apart.
            sel = np.flatnonzero(band & n_plain & (n_hrel > 0.3))
            sel = sel[np.argsort(other[sel])]
            step = np.diff(other[sel])
            gaps = step - (n_extent[sel[1:], 1 - axis] + n_extent[sel[:-1], 1 - axis]) / 2
            touching, whole = gaps < 0.12, step > 0.3  # whole: not pieces of one letter
            across = letter[0] if 1 - axis == tall else letter[2]  # a letter's extent along the line, in pitches
            text = (np.count_nonzero(touching & whole) >= max(2, 0.25 * len(sel))
                    # or a line of smaller print, more than two letters to a node, side by side (the pieces of
                    # one letter overlap)
                    or len(sel) > 2 * nodes and np.count_nonzero(touching & (gaps > -0.03)) >= 0.25 * len(sel)
                    # or its words, a node apart, closer than the grid's letters by half
                    or np.count_nonzero(whole) >= 4 and np.median(gaps[whole]) < 0.5 * (1 - across))
            if text or off > 0.5 * nodes + 1 or not 0.7 / spread < ratio < 1.4 * spread:
                return 0
            # A line whose every node holds a letter, none off them, is a row however its letters' size measures
            # (a night photo's first row, under the lamp's fall-off, thresholded to 0.64 of its letters' height).
            full = nodes == span and off == 0
            return 2 if full or (nodes >= 0.5 * span and off <= 0.25 * nodes + 1
                                 and 0.85 / spread < ratio < 1.18 * spread) else 1

        changed = False
        for axis in (0, 1):
            if quality(axis, hi[axis] + 1) == 2:
                hi[axis] += 1
                changed = True
            elif hi[axis] - lo[axis] + 1 > MIN_SIDE_CELLS and quality(axis, hi[axis]) < 2:
                hi[axis] -= 1
                changed = True
            if quality(axis, lo[axis] - 1) == 2:
                lo[axis] -= 1
                changed = True
            elif hi[axis] - lo[axis] + 1 > MIN_SIDE_CELLS and quality(axis, lo[axis]) < 2:
                lo[axis] += 1
                changed = True
        if not changed:
            # A bad row/column inside (a title row glued on by another one) splits the lattice: keep the
            # part with the most letters.
            for axis in (0, 1):
                ks = np.arange(lo[axis], hi[axis] + 1)
                bad = np.array([quality(axis, int(k)) == 0 for k in ks])
                if bad.all():
                    return None
                if bad.any():
                    counts = np.bincount((rnd[on, axis] - lo[axis]).astype(int).clip(0, len(ks) - 1)
                                         [(rnd[on, axis] >= lo[axis]) & (rnd[on, axis] <= hi[axis])],
                                         minlength=len(ks))
                    seg = np.cumsum(bad)
                    best = max(set(seg[~bad]), key=lambda g: counts[(seg == g) & ~bad].sum())
                    run = ks[(seg == best) & ~bad]
                    lo[axis], hi[axis] = int(run[0]), int(run[-1])
                    changed = True
        inside = on & (rnd[:, 0] >= lo[0]) & (rnd[:, 0] <= hi[0]) & (rnd[:, 1] >= lo[1]) & (rnd[:, 1] <= hi[1])
        if inside.sum() >= 8:
            Hn, _ = cv2.findHomography(rnd[inside], allpts[inside], 0)
            if Hn is not None:
                H = Hn
        if not changed:
            break
        states.append((lo.copy(), hi.copy(), H, size_ok, extent))
        first = seen.setdefault((*lo, *hi), len(states) - 1)
        if first < len(states) - 1:
            # The edges oscillate and would cycle until the last round: take the state that round would end in.
            lo, hi, H, size_ok, extent = states[first + (FIT_ROUNDS - 1 - first) % (len(states) - 1 - first)]
            break
    uv = _apply(np.linalg.inv(H), allpts)
    rnd = np.round(uv)
    on = size_ok & (np.abs(uv - rnd) < NODE_TOL).all(1)  # size_ok from the last refit: close enough
    inside = on & (rnd[:, 0] >= lo[0]) & (rnd[:, 0] <= hi[0]) & (rnd[:, 1] >= lo[1]) & (rnd[:, 1] <= hi[1])
    if not inside.any():
        return None
    nodes = len({(int(u), int(v)) for u, v in rnd[inside]})
    # Isolated: on no side does the lattice continue (half the next row/column's nodes holding letters).
    isolated = True
    for axis in (0, 1):
        along = (rnd[:, 1 - axis] >= lo[1 - axis]) & (rnd[:, 1 - axis] <= hi[1 - axis])
        for k in (lo[axis] - 1, hi[axis] + 1):
            nxt = len(np.unique(rnd[on & along & (rnd[:, axis] == k), 1 - axis]))
            isolated &= nxt < 0.5 * (hi[1 - axis] - lo[1 - axis] + 1)
    resid = float(np.sqrt(np.mean((uv[inside] - rnd[inside]) ** 2)))
    mid = _apply(H, np.array([[(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2], [(lo[0] + hi[0]) / 2 + 1, (lo[1] + hi[1]) / 2]]))
    width_frac = float(np.median(b.w[inside])) / max(float(np.linalg.norm(mid[1] - mid[0])), 1e-6)
    lat = _Lattice(H=H, c0=lo[0], c1=hi[0], r0=lo[1], r1=hi[1], nodes=nodes,
                   resid=resid, width_frac=width_frac, height_frac=float(np.median(extent[inside, 1])),
                   blob_ids=np.flatnonzero(inside),
                   uniform=max(_uniform(extent[inside, 1]), _uniform(extent[inside, 0])),
                   isolated=bool(isolated))
    if lat.rows < MIN_SIDE_CELLS or lat.cols < MIN_SIDE_CELLS or lat.fill < 0.6 or lat.resid > MAX_RESID:
        return None
    if lat.resid > 0.08 and lat.fill < 0.88 and lat.uniform < 0.75:
        return None  # loose, gappy and of mixed letter heights at once: lines of prose that happen to align
    if np.median(b.area[inside] / (b.w[inside] * b.h[inside])) > 0.8:
        return None  # solid squares (tiles, a chessboard, checkboxes) are not letters
    if min(lat.rows, lat.cols) < 8 and (lat.resid > 0.07 or lat.fill < 0.85 or lat.uniform < 0.75):
        return None  # a small patch must be a clean one (prose lines align by chance over a few letters)
    return lat
