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


TOP_WORDS = 10
"""Board paths drawn on the picture (the best first); the JSON has every word."""


def path_shapes(path: list[tuple[int, int]], cell_px: float, shift: float = 0.0
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A board word's path in rectified pixels: the polyline through its tile centres (nudged by ``shift`` cells
    across so overlapping paths stay apart), an arrow head at its last tile and a start dot, as polygons."""
    centres = (np.array([[c, r] for r, c in path], float) + 0.5 + shift) * cell_px
    if len(centres) == 1:
        centres = np.vstack([centres, centres + [0.01, 0.0]])
    u = centres[-1] - centres[-2]
    u = u / max(float(np.hypot(*u)), 1e-9)
    v = np.array([-u[1], u[0]])
    tip = centres[-1] + 0.12 * cell_px * u
    head = np.array([tip, tip - 0.3 * cell_px * u + 0.16 * cell_px * v, tip - 0.3 * cell_px * u - 0.16 * cell_px * v])
    t = np.linspace(0, 2 * math.pi, 24, endpoint=False)
    dot = centres[0] + 0.13 * cell_px * np.stack([np.cos(t), np.sin(t)], axis=1)
    return centres, head, dot


def draw_board(out: np.ndarray, puzzle, top: int = TOP_WORDS) -> tuple[str, list[tuple[str, tuple]]]:
    """Draw the top found words of a board (puzzle.results, best first) on ``out`` in place, each as a line
    through its tiles with an arrow head and a numbered start dot, mapped through the inverse homography;
    returns the legend: a heading and (entry, colour) pairs keyed by number and colour."""
    found = [res for res in puzzle.results if res.found][:top]
    loc = puzzle.location
    pitch = cell_size_px(loc.corners, loc.rows, loc.cols)
    thickness = max(2, round(0.06 * pitch))
    colours = palette(len(found))
    shapes = []
    for k, res in enumerate(found):
        shift = (k - (len(found) - 1) / 2) * min(0.03, 0.3 / max(1, len(found)))
        shapes.append([to_image(shape, puzzle.homography) for shape in path_shapes(res.path, puzzle.cell_px, shift)])
    if shapes:  # drawn on a copy of the board's region only, then blended back: a 12 MP copy costs ~100 ms
        h, w = out.shape[:2]
        pts = np.concatenate([p for shape in shapes for p in shape])
        x0, y0 = np.maximum(np.floor(pts.min(axis=0) - pitch), 0).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0) + pitch).astype(int)
        roi = out[y0:min(y1, h), x0:min(x1, w)]
        overlay = roi.copy()
        for k, ((line, head, dot), colour) in enumerate(zip(shapes, colours)):
            fixed = [np.round((p - [x0, y0]) * 16).astype(np.int32) for p in (line, head, dot)]
            cv2.polylines(overlay, [fixed[0]], False, colour, thickness, cv2.LINE_AA, shift=4)
            cv2.fillPoly(overlay, [fixed[1]], colour, cv2.LINE_AA, shift=4)
            cv2.fillPoly(overlay, [fixed[2]], colour, cv2.LINE_AA, shift=4)
            x, y = dot.mean(axis=0) - [x0, y0]
            cv2.putText(overlay, str(k + 1), (int(x + 0.12 * pitch), int(y - 0.1 * pitch)), cv2.FONT_HERSHEY_SIMPLEX,
                        max(0.4, pitch / 90), colour, max(1, thickness // 2), cv2.LINE_AA)
        cv2.addWeighted(overlay, ALPHA + 0.2, roi, 0.8 - ALPHA, 0, dst=roi)
    entries = []
    for k, (res, colour) in enumerate(zip(found, colours)):
        score = puzzle.score(res) if hasattr(puzzle, "score") else None
        entries.append((f"{k + 1}. {res.word}" + (f"  {score}" if score is not None else ""), colour))
    total = sum(r.found for r in puzzle.results)
    return f"Top {len(found)} of {total} words" + (", with points:" if found and puzzle.score(found[0]) is not None
                                                    else ":"), entries


def add_keyed_legend(image: np.ndarray, heading: str, entries: list[tuple[str, tuple]]) -> np.ndarray:
    """A white margin below ``image``: the heading, then each entry in its own colour after a swatch of it, in
    as many columns as fit."""
    h, w = image.shape[:2]
    size = max(14, round(w / 45))
    font = _font(size)
    margin, line_h = size, round(size * 1.5)
    col_w = int(max([font.getlength(text) for text, _ in entries] + [1]) + 2.5 * size)
    per_row = max(1, (w - 2 * margin) // col_w)
    rows = (len(entries) + per_row - 1) // per_row
    legend = Image.new("RGB", (w, margin * 2 + line_h * (rows + 1)), "white")
    draw = ImageDraw.Draw(legend)
    draw.line([(0, 0), (w, 0)], fill=(180, 180, 180), width=max(1, size // 10))
    draw.text((margin, margin), heading, fill=(40, 40, 40), font=font)
    for k, (text, (b, g, r)) in enumerate(entries):
        x = margin + (k // rows) * col_w
        y = margin + line_h * (1 + k % rows)
        draw.rectangle([x, y + size * 0.2, x + size * 0.9, y + size * 1.1], fill=(r, g, b))
        draw.text((x + 1.4 * size, y), text, fill=(r, g, b), font=font)
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
    keyed: list[tuple[str, list]] = []
    for k, puzzle in enumerate(puzzles):
        if getattr(puzzle, "puzzle_type", "wordsearch") == "boggle":
            keyed.append(draw_board(out, puzzle, getattr(puzzle, "top", TOP_WORDS)))
            continue
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
    out = add_legend(out, missing) if missing else out
    for heading, entries in keyed:
        out = add_keyed_legend(out, heading, entries) if entries else out
    return out
