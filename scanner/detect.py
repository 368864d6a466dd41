"""Find the letter grid(s) of a word search in an image and rectify them.

Detection works on the letters themselves, so ruled, boxed and gridless puzzles are handled alike:

1. grey, downscaled to ~1400 px; the background is flattened (divide by a local maximum) and thresholded, once
   per ink polarity (white-on-dark puzzles);
2. connected components -> letter-like blobs (size, aspect and fill);
3. the dominant orientation and the pitches along and across it come from nearest-neighbour vectors;
4. blobs one pitch apart (with similar heights) are linked; each linked cluster gets integer (col, row) lattice
   indices, and a homography lattice -> image is fitted to them (RANSAC), which absorbs tilt and perspective;
5. the lattice rectangle grows and shrinks one row/column at a time: a row or column belongs to the grid when at
   least half of its nodes hold a blob of the grid's letter size and few such blobs sit between nodes (that is
   what keeps word lists, titles and page numbers out even when they happen to line up with the grid);
6. the outer corners are the homography applied to the lattice rectangle half a pitch outside the outer letters.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from solver.errors import NoGridError

WORK_SIDE = 1400
"""Long side (px) of the copy detection works on; corners are mapped back to the input's pixels."""
MIN_SIDE_CELLS = 4
"""Smallest accepted grid: this many rows and columns."""
NODE_TOL = 0.33
"""A blob sits on a lattice node when both its lattice coordinates are within this many pitches of integers."""


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
    letter_h: float
    nodes: int  # lattice nodes inside the rectangle holding a letter blob
    resid: float  # RMS distance (pitches) of those blobs from their nodes
    width_frac: float  # median letter width / column pitch
    inverted: bool = False

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
        pts = np.array([[self.c0 - 0.5, self.r0 - 0.5], [self.c1 + 0.5, self.r0 - 0.5],
                        [self.c1 + 0.5, self.r1 + 0.5], [self.c0 - 0.5, self.r1 + 0.5]])
        return _apply(self.H, pts)


def find_grids(image: np.ndarray) -> list[GridLocation]:
    """Every letter grid on the page (BGR or grey image), largest first; [] when there is none."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scale = min(1.0, WORK_SIDE / max(gray.shape[:2]))
    work = gray if scale == 1.0 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    lattices: list[_Lattice] = []
    for inverted in _polarities(work):
        for denoise in (False, True):
            blobs = _letter_blobs(_ink_mask(255 - work if inverted else work, denoise))
            for lat in _lattices(blobs):
                lat.inverted = inverted
                lattices.append(lat)
    chosen: list[_Lattice] = []
    for lat in sorted(lattices, key=lambda g: g.nodes, reverse=True):
        quads = [cv2.convexHull(c.corners().astype(np.float32)) for c in chosen]
        centre = _apply(lat.H, np.array([[(lat.c0 + lat.c1) / 2, (lat.r0 + lat.r1) / 2]]))[0]
        if any(cv2.pointPolygonTest(q, (float(centre[0]), float(centre[1])), False) >= 0 for q in quads):
            continue
        if chosen and not _unmistakable(lat, chosen[0]):
            continue
        chosen.append(lat)
    return [GridLocation(corners=lat.corners() / scale, rows=lat.rows, cols=lat.cols, inverted=lat.inverted)
            for lat in chosen]


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


def rectify(image: np.ndarray, loc: GridLocation, cell_px: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """Warp the grid to a (rows*cell_px, cols*cell_px) grey image, dark letters on light, one cell per cell_px
    square; also return the 3x3 homography mapping input pixels -> rectified pixels."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    w, h = loc.cols * cell_px, loc.rows * cell_px
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    H = cv2.getPerspectiveTransform(loc.corners.astype(np.float32), dst.astype(np.float32)).astype(np.float64)
    # Shrinking a lot in one warp aliases; pre-shrink with area averaging first.
    src_cell = np.linalg.norm(loc.corners[1] - loc.corners[0]) / loc.cols
    shrink = min(1.0, 2.0 * cell_px / max(src_cell, 1e-6))
    if shrink < 0.9:
        small = cv2.resize(gray, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        S = np.diag([1 / shrink, 1 / shrink, 1.0])
        warped = cv2.warpPerspective(small, H @ S, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    else:
        warped = cv2.warpPerspective(gray, H, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if loc.inverted:
        warped = 255 - warped
    return warped, H


# --- binarisation and blobs -------------------------------------------------------------------------------------

def _polarities(gray: np.ndarray) -> list[bool]:
    """Ink polarities worth trying: dark-on-light always, light-on-dark when much of the image is dark."""
    dark = np.count_nonzero(gray < 110) / gray.size
    return [False, True] if dark > 0.2 else [False]


def _ink_mask(gray: np.ndarray, denoise: bool) -> np.ndarray:
    """Dark ink as 255 on 0: the background is flattened by dividing by a local maximum, then Otsu.

    `denoise` smooths harder first (grainy scans and photos); the light version keeps tiny letters intact.
    """
    k = max(15, round(max(gray.shape) / 60)) | 1
    smooth = cv2.GaussianBlur(cv2.medianBlur(gray, 5), (0, 0), 1.5) if denoise else cv2.medianBlur(gray, 3)
    bg = cv2.dilate(smooth, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    bg = cv2.blur(bg, (k, k))
    ratio = smooth.astype(np.float32) / np.maximum(bg.astype(np.float32), 1.0)
    norm = np.clip(ratio * 255.0, 0, 255).astype(np.uint8)
    t, _ = cv2.threshold(norm, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t = float(np.clip(t, 0.55 * 255, 0.88 * 255))
    return ((norm < t) * 255).astype(np.uint8)


def _letter_blobs(mask: np.ndarray) -> _Blobs:
    """Connected components that could be letters (or two touching letters)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    x, y, w, h, area = (stats[1:, i].astype(np.float64) for i in range(5))
    side = min(mask.shape)
    keep = ((h >= 6) & (area >= 12) & (h <= side / 4) & (w <= side / 4)
            & (w <= 3.0 * h) & (h <= 12.0 * w) & (area >= 0.06 * w * h))
    return _Blobs(x=(x + w / 2)[keep], y=(y + h / 2)[keep], w=w[keep], h=h[keep], area=area[keep])


# --- lattice search ---------------------------------------------------------------------------------------------

def _apply(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.c_[pts, np.ones(len(pts))] @ H.T
    return p[:, :2] / p[:, 2:3]


def _neighbours(b: _Blobs, k: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Indices (i, j) of each blob's k nearest neighbours."""
    pts = np.c_[b.x, b.y].astype(np.float32)
    n = len(pts)
    k = min(k, n - 1)
    out = np.empty((n, k), dtype=np.int64)
    for s in range(0, n, 512):
        d = ((pts[s:s + 512, None, :] - pts[None, :, :]) ** 2).sum(-1)
        d[np.arange(d.shape[0]), np.arange(s, s + d.shape[0])] = np.inf
        out[s:s + 512] = np.argpartition(d, k - 1, axis=1)[:, :k]
    return np.repeat(np.arange(n), k), out.ravel()


def _angle_mod90(vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
    """Angles folded to [-45, 45) degrees."""
    a = np.degrees(np.arctan2(vy, vx))
    return (a + 45.0) % 90.0 - 45.0


def _peaks(values: np.ndarray, lo: float, hi: float, count: int) -> list[float]:
    """Up to `count` modes of positive values (log-spaced histogram, lightly smoothed)."""
    values = values[(values > lo) & (values < hi)]
    if len(values) < 4:
        return []
    bins = np.linspace(np.log(lo), np.log(hi), 120)
    hist, edges = np.histogram(np.log(values), bins=bins)
    hist = np.convolve(hist, [1, 2, 3, 2, 1], mode="same").astype(np.float64)
    found = []
    for _ in range(count):
        i = int(np.argmax(hist))
        if hist[i] < max(4.0, 0.15 * (found[0][1] if found else 0)):
            break
        sel = values[(np.log(values) >= edges[max(i - 3, 0)]) & (np.log(values) <= edges[min(i + 4, len(edges) - 1)])]
        found.append((float(np.median(sel)), hist[i]))
        hist[max(i - 8, 0):i + 9] = 0
    return [f[0] for f in found]


def _lattices(b: _Blobs) -> list[_Lattice]:
    """Candidate grids among the blobs, best (most letter nodes) first; at most one per linked cluster."""
    if len(b) < MIN_SIDE_CELLS * MIN_SIDE_CELLS:
        return []
    i, j = _neighbours(b)
    vx, vy = b.x[j] - b.x[i], b.y[j] - b.y[i]
    similar = np.abs(np.log(b.h[i] / b.h[j])) < np.log(1.5)
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
    for px in px_cands:
        for py in py_cands:
            if not 0.4 < px / py < 2.5:
                continue
            out.extend(_lattices_for_pitch(b, i, j, ax, ay, px, py))
    out.sort(key=lambda g: g.nodes, reverse=True)
    return out


def _lattices_for_pitch(b: _Blobs, i, j, ax, ay, px: float, py: float) -> list[_Lattice]:
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
    out = []
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
        if len(members) < 12:
            continue
        m = np.array(members)
        lat = _fit_lattice(b, m, idx[m].astype(np.float64))
        if lat is not None:
            out.append(lat)
    return out


def _fit_lattice(b: _Blobs, members: np.ndarray, ij: np.ndarray) -> _Lattice | None:
    """Fit lattice -> image to a linked cluster, then settle the row/column extent on all blobs."""
    pts = np.c_[b.x[members], b.y[members]]
    H, inl = cv2.findHomography(ij, pts, cv2.RANSAC, 0.3 * float(np.median(b.h[members])) + 1.0)
    if H is None or inl.sum() < 12:
        return None
    keep = inl.ravel().astype(bool)
    letter_h = float(np.median(b.h[members][keep]))
    ij = ij[keep]
    c0, r0 = ij.min(0).astype(int)
    c1, r1 = ij.max(0).astype(int)
    size_ok = (b.h > 0.6 * letter_h) & (b.h < 1.6 * letter_h)
    # Only solid, letter-sized blobs count against a row/column: not I's or broken ruled-line fragments.
    letter_area = float(np.median(b.area[members][keep]))
    solid = size_ok & (b.area > 0.35 * letter_area) & (np.minimum(b.w, b.h) > 0.25 * letter_h)
    allpts = np.c_[b.x, b.y]
    for it in range(60):
        try:
            uv = _apply(np.linalg.inv(H), allpts)
        except np.linalg.LinAlgError:
            return None
        rnd = np.round(uv)
        on = size_ok & (np.abs(uv - rnd) < NODE_TOL).all(1)
        changed = False
        for axis in (0, 1):
            lo, hi = (c0, c1) if axis == 0 else (r0, r1)
            olo, ohi = (r0, r1) if axis == 0 else (c0, c1)
            other = uv[:, 1 - axis]
            band = size_ok & (other > olo - 0.5) & (other < ohi + 0.5)
            span = ohi - olo + 1

            def good(k: int) -> bool:
                inside = band & (np.abs(uv[:, axis] - k) < 0.5)
                hits = inside & on
                nodes = len(np.unique(rnd[hits, 1 - axis]))
                off = np.count_nonzero(inside & ~on & solid)
                return nodes >= 0.5 * span and off <= 0.25 * nodes + 1

            if good(hi + 1):
                hi += 1
                changed = True
            elif hi - lo + 1 > MIN_SIDE_CELLS and not good(hi):
                hi -= 1
                changed = True
            if good(lo - 1):
                lo -= 1
                changed = True
            elif hi - lo + 1 > MIN_SIDE_CELLS and not good(lo):
                lo += 1
                changed = True
            if axis == 0:
                c0, c1 = lo, hi
            else:
                r0, r1 = lo, hi
        inside = on & (rnd[:, 0] >= c0) & (rnd[:, 0] <= c1) & (rnd[:, 1] >= r0) & (rnd[:, 1] <= r1)
        if inside.sum() >= 8:
            Hn, _ = cv2.findHomography(rnd[inside], allpts[inside], 0)
            if Hn is not None:
                H = Hn
        if not changed and it > 0:
            break
    uv = _apply(np.linalg.inv(H), allpts)
    rnd = np.round(uv)
    on = size_ok & (np.abs(uv - rnd) < NODE_TOL).all(1)
    inside = on & (rnd[:, 0] >= c0) & (rnd[:, 0] <= c1) & (rnd[:, 1] >= r0) & (rnd[:, 1] <= r1)
    nodes = len({(int(u), int(v)) for u, v in rnd[inside]})
    resid = float(np.sqrt(np.mean((uv[inside] - rnd[inside]) ** 2))) if inside.any() else 1.0
    mid = _apply(H, np.array([[(c0 + c1) / 2, (r0 + r1) / 2], [(c0 + c1) / 2 + 1, (r0 + r1) / 2]]))
    width_frac = float(np.median(b.w[inside])) / max(float(np.linalg.norm(mid[1] - mid[0])), 1e-6) if inside.any() else 1.0
    lat = _Lattice(H=H, c0=int(c0), c1=int(c1), r0=int(r0), r1=int(r1), letter_h=letter_h, nodes=nodes,
                   resid=resid, width_frac=width_frac)
    if lat.rows < MIN_SIDE_CELLS or lat.cols < MIN_SIDE_CELLS or lat.fill < 0.6:
        return None
    return lat
