"""Image primitives shared by the stages: the paper's local brightness, print made dark on a flat white, and
which way round the ink is. Each stage calls them with the scale it works at (a page, a rectified grid, the
text around a grid)."""
from __future__ import annotations

import cv2
import numpy as np
from threadpoolctl import ThreadpoolController

_THREADPOOLS = ThreadpoolController()
LIGHT_BY = 1.1
"""How much further light print must stand out from its ground than dark print to be taken for light print
(see light_on_dark; generated and corpus grids: dark print's ratio at most 0.85 but for a photo under glare,
1.03; light print's at least 1.17)."""
PEN_CHROMA = 50
"""A pixel whose channels differ by more than this is coloured: pen (blue, red) rather than black or grey print."""
PEN_CELLS = 1.5
"""Pen strokes are longer than this many cells (a word's ellipse, a scribble): colour fringes are a letter long."""
PEN_PITCH = 24.0
"""The cell size (px) pen strokes are looked for at (see without_pen)."""
PEN_SHARE = 0.5
"""Under this share of a grid's ink coloured, the colour is pen over the print; over it, the print is coloured."""
BLOCK = 8
"""JPEG codes a picture in squares of this many pixels."""
BLOCKY = 1.8
"""Blockiness (see blockiness) from which a picture is treated as strongly compressed: night photos saved at
JPEG quality 30-50 measure 2.2-4.3; the corpus's photos, scans and screenshots at most 1.4, generated pages at
JPEG 60-95 at most 1.6."""
BLOCKINESS_SIDE = 1024
"""The side (px) of the middle of a picture that blockiness is measured on."""


def extremes(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's brightest and darkest channel of a BGR image."""
    b, g, r = cv2.split(image[:, :, :3])
    return cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r)


def coloured(bright: np.ndarray, dark: np.ndarray) -> np.ndarray:
    """Boolean mask of the coloured pixels, given each pixel's brightest and darkest channel (see extremes)."""
    return bright - dark > PEN_CHROMA  # never below 0


def without_pen(image: np.ndarray, gray: np.ndarray, pitch: float, region: np.ndarray | None = None) -> np.ndarray:
    """The grey levels ``gray`` of a BGR picture of print with coloured pen over it (a partly solved puzzle: words
    circled in blue or red through their letters), each pixel of a coloured stroke longer than PEN_CELLS cells of
    ``pitch`` px taking its brightest channel, in which the pen is light; ``gray`` itself when there is none. When
    PEN_SHARE of the ink (under 0.7 of the paper's level) or more is coloured, the print itself is (a grid printed
    in red or blue), and ``gray`` is kept throughout. Only pixels where the boolean ``region`` is set (the grid,
    when ``image`` is its bounding box) are judged: a red table beside a turned page is not pen. Strokes are
    looked for at PEN_PITCH px a cell (a 12-MP photo's grid costs a few ms when it has none)."""
    image = image[:, :, :3]
    scale = min(1.0, PEN_PITCH / max(pitch, 1.0))
    small = shrink(image, scale) if scale < 1.0 else image
    inside = np.ones(small.shape[:2], bool) if region is None else cv2.resize(
        region.astype(np.uint8), small.shape[1::-1], interpolation=cv2.INTER_NEAREST) > 0
    if not inside.any():
        return gray
    balance = np.diag(255.0 / np.maximum(np.percentile(small[inside], 90, axis=0), 1.0))

    def pen(picture: np.ndarray) -> np.ndarray:
        # judged with the paper made white (a lamp's cast colours the paper, not pen) and the sensor's colour
        # noise smoothed out (a night photo's is pen-strong, pixel by pixel, once its dim paper is made white)
        return coloured(*extremes(cv2.GaussianBlur(cv2.transform(picture, balance), (0, 0), 1.0)))

    found = pen(small) & inside
    small_gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    ink = (small_gray < 0.7 * float(np.percentile(small_gray[inside], 90))) & inside
    if not found.any() or np.count_nonzero(found & ink) >= PEN_SHARE * np.count_nonzero(ink):
        return gray
    # Only long strokes: JPEG's coarse colour fringes each letter of a photo under a lamp's cast with colour
    _, labels, stats, _ = cv2.connectedComponentsWithStats(found.astype(np.uint8), connectivity=8)
    strokes = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) > PEN_CELLS * pitch * scale
    strokes[0] = False
    if not strokes.any():
        return gray
    near = cv2.dilate(strokes[labels].astype(np.uint8), np.ones((3, 3), np.uint8))
    if scale < 1.0:
        near = cv2.resize(near, gray.shape[::-1], interpolation=cv2.INTER_NEAREST)
    return np.where((near > 0) & pen(image), extremes(image)[0], gray)


def shrink(image: np.ndarray, scale: float) -> np.ndarray:
    """``image`` scaled down by ``scale`` (< 1) with area averaging, like cv2.resize(fx=fy=scale, INTER_AREA).

    OpenCV averages by a whole factor several times faster than by an arbitrary one (a 12-MP photo: 35 against
    80 ms), so the largest whole factor goes first and the rest follows. The rows and columns the whole factor
    leaves over at the edges (fewer than the factor) are dropped.
    """
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    k = int(1 / scale + 1e-9)
    if k >= 2 and min(h, w) >= 2 * k:
        image = cv2.resize(image[:h - h % k, :w - w % k], (w // k, h // k), interpolation=cv2.INTER_AREA)
    return image if image.shape[1::-1] == size else cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def paper(gray: np.ndarray, window: int, *, method: str = "max", shrink: int = 1, premedian: int = 0,
          box: bool = False, sigma: float = 0.0) -> np.ndarray:
    """The paper's local brightness under every pixel (float32, the size of ``gray``).

    ``method`` "max" takes the brightest pixel within ``window`` (right for print of any size on clean paper);
    "median" the median (sees through grain, evens out a tinted box). The work is done on a copy ``shrink``
    times smaller (``window`` and ``sigma`` are in that copy's pixels), optionally median-filtered first
    (``premedian``: its aperture, so noise peaks do not count), and smoothed after by a box of the window's
    size (``box``) and/or a Gaussian (``sigma``).
    """
    h, w = gray.shape[:2]
    small = gray if shrink == 1 else cv2.resize(gray, (max(1, w // shrink), max(1, h // shrink)),
                                                interpolation=cv2.INTER_AREA)
    if premedian:
        small = cv2.medianBlur(small, premedian)
    k = max(3, int(window)) | 1
    if method == "max":
        level = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    elif method == "median":
        level = cv2.medianBlur(small, k)
    else:
        raise ValueError(f"unknown paper method {method!r}")
    if box:
        level = cv2.blur(level, (k, k))
    level = level.astype(np.float32)
    if sigma:
        level = cv2.GaussianBlur(level, (0, 0), sigma)
    if shrink != 1:
        level = cv2.resize(level, (w, h), interpolation=cv2.INTER_LINEAR)
    return level


def flatten(gray: np.ndarray, level: np.ndarray) -> np.ndarray:
    """``gray`` divided by the paper's brightness ``level`` (see paper): ink dark on a flat 255, whatever the
    lighting (shadows, a lamp's fall-off, tinted paper)."""
    return np.clip(gray.astype(np.float32) * 255.0 / np.maximum(level, 1.0), 0, 255).astype(np.uint8)


def grain(flat: np.ndarray) -> float:
    """Mean difference between the paper of a flattened image (no dark pixel within 2 px) and its 5x5 median:
    ~0.5 for clean prints, 5+ for grainy copies."""
    smooth = cv2.medianBlur(flat, 5)
    paper = cv2.erode(flat, np.ones((5, 5), np.uint8)) > 128
    if not paper.any():
        return 0.0
    return float(np.mean(np.abs(flat.astype(np.int16) - smooth.astype(np.int16))[paper]))


def edge_width(flat: np.ndarray) -> float:
    """How many pixels the step from paper to ink takes in a flattened image (ink near 0, paper near 255): the
    full contrast over the steep edges' gradient (90th percentile of the gradient on pixels between ink and
    paper). A few px for print photographed sharp, longer for blurred print; 0 when no pixel lies between ink and
    paper (binary or blank images)."""
    gx = cv2.Sobel(flat, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(flat, cv2.CV_32F, 0, 1, ksize=3) / 8
    edges = np.hypot(gx, gy)[(flat > 60) & (flat < 200)]
    steep = float(np.percentile(edges, 90)) if edges.size else 0.0
    return 255.0 / steep if steep > 0 else 0.0


def sharpen(gray: np.ndarray, sigma: float, amount: float) -> np.ndarray:
    """Unsharp mask: ``gray`` plus ``amount`` times its difference from a Gaussian blur of ``sigma`` px (about a
    stroke's width), so the strokes of blurred print stand apart instead of merging."""
    blurred = cv2.GaussianBlur(gray, (0, 0), sigma)
    return cv2.addWeighted(gray, 1 + amount, blurred, -amount, 0)


def blockiness(gray: np.ndarray) -> float:
    """How strongly the steps between JPEG's BLOCK-pixel squares stand out: the mean step between neighbouring
    pixels at the one phase (x mod BLOCK) where it is largest, over the median phase's, the lower of the two axes.
    1.0 when there is no such lattice; also 1.0 where a second phase comes near the peak (a pixel font's
    strokes step at several phases, JPEG's squares at one). Measured on the middle BLOCKINESS_SIDE px square of
    a big picture: the squares tile the whole picture."""
    h, w = gray.shape[:2]
    y, x = max(0, h // 2 - BLOCKINESS_SIDE // 2), max(0, w // 2 - BLOCKINESS_SIDE // 2)
    centre = gray[y:y + BLOCKINESS_SIDE, x:x + BLOCKINESS_SIDE].astype(np.float32)
    values = []
    for axis in (0, 1):
        step = np.abs(np.diff(centre, axis=axis)).mean(axis=1 - axis)
        phases = np.sort([step[k::BLOCK].mean() for k in range(BLOCK)])
        middle = max(float(np.median(phases)), 1e-6)
        values.append(phases[-1] / middle if phases[-2] <= 1.3 * middle else 1.0)
    return float(min(values))


def deblock(gray: np.ndarray) -> np.ndarray:
    """``gray`` with JPEG's block edges smoothed over: a Gaussian blur of an eighth of a block. (Re-applied JPEG,
    the mean of copies compressed again at shifts within a block, kept more of the strokes but read fewer list
    words of night photos.)"""
    return cv2.GaussianBlur(gray, (0, 0), BLOCK / 8)


def light_on_dark(gray: np.ndarray, window: int, region: np.ndarray | None = None) -> bool:
    """Is the print lighter than its ground (white letters on a dark panel)? Print stands out from the local
    median over ``window`` px (about a letter's cell, so shadows and a dark table do not count): dark ink
    deviates downwards, light ink upwards, and the larger deviation wins, by LIGHT_BY for light print: dark
    print is by far the commoner, and glare and blurred rules can make the paper's brightest pixels stand out as
    far as the letters do (a small photo under glare). ``region``: a boolean mask of the pixels to judge
    (default: all)."""
    small = cv2.resize(gray, (max(1, gray.shape[1] // 4), max(1, gray.shape[0] // 4)), interpolation=cv2.INTER_AREA)
    k = min(255, max(3, int(window) // 4) | 1)
    ground = cv2.resize(cv2.medianBlur(small, k), (gray.shape[1], gray.shape[0]), interpolation=cv2.INTER_LINEAR)
    deviation = gray.astype(np.int16) - ground.astype(np.int16)
    if region is not None:
        deviation = deviation[region]
    if deviation.size == 0:
        return False
    return bool(np.percentile(deviation, 99) > -LIGHT_BY * np.percentile(deviation, 1))


def height_spread(heights: np.ndarray) -> float:
    """How much letter heights vary: the upper quartile over the lower one. About 1.0 for capitals, 1.3-1.45
    for lower case (x-height letters beside ascenders and descenders)."""
    q25, q75 = np.percentile(heights, [25, 75])
    return float(q75 / max(q25, 1e-6))


def one_blas_thread():
    """A context in which NumPy's matrix products run on one thread. The products here are small (a grid's
    cells by a few hundred weights); BLAS threads only add overhead to them, and on a busy machine, where
    they spin waiting for a core, they cost 30 times the product itself."""
    return _THREADPOOLS.limit(limits=1, user_api="blas")
