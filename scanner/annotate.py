"""Draw the answers on the ORIGINAL image: one translucent, anti-aliased ellipse per found word.

Each ellipse is built in the rectified grid's coordinates (cell (r, c) centred at ((c + .5) * cell_px,
(r + .5) * cell_px)) and mapped back through the inverse homography, so it follows the photo's perspective.
Words not found are listed in a legend on a margin added below the image; the original pixels keep their
positions and resolution. The region the word list was read from is framed.
"""
from __future__ import annotations

import colorsys
import math

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

ALPHA = 0.7
"""Opacity of the drawn outlines: strong enough to see, light enough to read the letters under them."""
HALF_WIDTH = 0.42
"""Ellipse semi-minor axis in cells (a letter is about 0.7 cell tall)."""
END_PAD = 0.5
"""How far the ellipse reaches beyond the first and last letter centres, in cells."""
LIST_FRAME_BGR = (160, 90, 40)


def palette(n: int) -> list[tuple[int, int, int]]:
    """`n` distinct saturated BGR colours (hues spaced by the golden ratio so neighbours differ)."""
    colours = []
    for i in range(n):
        r, g, b = colorsys.hsv_to_rgb((i * 0.618033988749895) % 1.0, 0.95, 0.9)
        colours.append((round(b * 255), round(g * 255), round(r * 255)))
    return colours


def word_ellipse(start: tuple[int, int], end: tuple[int, int], cell_px: float, points: int = 96) -> np.ndarray:
    """Polygon (points, 2) in rectified pixels: an ellipse whose long axis runs from the first to the last letter."""
    p0 = (np.array([start[1], start[0]], float) + 0.5) * cell_px
    p1 = (np.array([end[1], end[0]], float) + 0.5) * cell_px
    axis = p1 - p0
    length = float(np.hypot(*axis))
    u = axis / length if length > 0 else np.array([1.0, 0.0])
    v = np.array([-u[1], u[0]])
    a = length / 2 + END_PAD * cell_px
    b = HALF_WIDTH * cell_px
    t = np.linspace(0, 2 * math.pi, points, endpoint=False)
    return (p0 + p1) / 2 + np.outer(a * np.cos(t), u) + np.outer(b * np.sin(t), v)


def to_image(points: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """Map rectified-grid points back to input-image pixels (`homography` maps image -> rectified)."""
    inv = np.linalg.inv(homography)
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), inv).reshape(-1, 2)


def cell_size_px(corners: np.ndarray, rows: int, cols: int) -> float:
    """Average cell pitch in image pixels from the grid's outer corners (TL TR BR BL)."""
    c = np.asarray(corners, float)
    width = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
    height = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
    return float((width / cols + height / rows) / 2)


def _blend_polylines(image: np.ndarray, shapes: list[tuple[np.ndarray, tuple[int, int, int], int]]) -> None:
    """Draw closed anti-aliased polylines on a copy of the affected region and alpha-blend it back, in place."""
    if not shapes:
        return
    h, w = image.shape[:2]
    pts = np.concatenate([p for p, _, _ in shapes])
    pad = max(t for _, _, t in shapes) + 2
    x0, y0 = (np.floor(pts.min(axis=0)) - pad).astype(int)
    x1, y1 = (np.ceil(pts.max(axis=0)) + pad).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x0 >= x1 or y0 >= y1:
        return
    roi = image[y0:y1, x0:x1]
    overlay = roi.copy()
    for poly, colour, thickness in shapes:
        fixed = np.round((poly - [x0, y0]) * 16).astype(np.int32)  # 4 fractional bits: sub-pixel accuracy
        cv2.polylines(overlay, [fixed], True, colour, thickness, cv2.LINE_AA, shift=4)
    cv2.addWeighted(overlay, ALPHA, roi, 1 - ALPHA, 0, dst=roi)


def _font(size: int) -> ImageFont.ImageFont:
    """A scalable font with accents (DejaVu/Liberation/FreeSans from the system), else Pillow's own."""
    for name in ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "FreeSans.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size)


def _wrap(items: list[str], max_width: int, font: ImageFont.ImageFont) -> list[str]:
    """Greedy line wrap of comma-separated items to a pixel width."""
    lines, line = [], ""
    for item in items:
        trial = f"{line}, {item}" if line else item
        if line and font.getlength(trial) > max_width:
            lines.append(line + ",")
            line = item
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def add_legend(image: np.ndarray, sections: list[tuple[str, list[str]]]) -> np.ndarray:
    """A white margin below `image` listing items under headings, e.g. [("Not found:", ["OAK", "YEW"])].

    The original pixels are kept as they are in the top part of the result.
    """
    h, w = image.shape[:2]
    size = max(14, round(w / 50))
    font = _font(size)
    margin = size
    lines = []
    for heading, items in sections:
        lines.extend(_wrap([f"{heading} {items[0]}", *items[1:]], w - 2 * margin, font))
    line_h = round(size * 1.4)
    legend = Image.new("RGB", (w, margin * 2 + line_h * len(lines)), "white")
    draw = ImageDraw.Draw(legend)
    draw.line([(0, 0), (w, 0)], fill=(180, 180, 180), width=max(1, size // 10))
    for i, line in enumerate(lines):
        draw.text((margin, margin + line_h * i), line, fill=(160, 20, 20), font=font)
    return np.vstack([image, np.asarray(legend)[:, :, ::-1]])


def annotate(image: np.ndarray, puzzles: list, *, only: str | None = None) -> np.ndarray:
    """The original image (BGR, same size and orientation) with every found word circled.

    `puzzles`: scanner.pipeline.PuzzleResult items (uses location, homography, cell_px, results, word_list,
    list_on_page). A legend margin is added below only when some listed word was not found. `only`: circle that
    word alone, in the colour it has among all the answers (no list frame, no legend).
    """
    out = np.ascontiguousarray(image.copy())
    shapes = []
    missing: list[tuple[str, list[str]]] = []
    for k, puzzle in enumerate(puzzles):
        loc = puzzle.location
        thickness = max(2, round(0.09 * cell_size_px(loc.corners, loc.rows, loc.cols)))
        found = [res for res in puzzle.results if res.found]
        for res, colour in zip(found, palette(len(found))):
            if only is not None and res.word != only:
                continue
            ellipse = word_ellipse(res.start, res.end, puzzle.cell_px)
            shapes.append((to_image(ellipse, puzzle.homography), colour, thickness))
        if only is None and puzzle.list_on_page and len(puzzle.word_list.region) >= 3:
            region = np.asarray(puzzle.word_list.region, float)
            shapes.append((region, LIST_FRAME_BGR, max(2, thickness // 2)))
        not_found = [res.word for res in puzzle.results if not res.found]
        if not_found and only is None:
            heading = "Not found:" if len(puzzles) == 1 else f"Puzzle {k + 1}, not found:"
            missing.append((heading, not_found))
    _blend_polylines(out, shapes)
    return add_legend(out, missing) if missing else out
