"""Synthetic Boggle/Wordament/Ruzzle boards with exact truth, for tests and benchmarks.

* ``render_wordament``: a Wordament-style screenshot (phone or desktop resolution; themes "classic" cream tiles on
  wood, "online" orange tiles with white letters on blue, "dark" slate tiles), score digits in each tile's top-left
  corner, special tiles (digrams, either/or, prefix, suffix), and the game's surroundings (header, score boxes,
  word panel, buttons) as distractors.
* ``render_ruzzle``: a Ruzzle/Word Hunt-style board: beige rounded tiles on a purple field, points in the corner,
  some tiles framed in bonus colours.
* ``render_tray``: a physical Boggle tray seen from above (cream dice in a blue plastic grid, each die turned by
  0/90/180/270 degrees on its own, M/W/N/Z underlined, a "Qu" face), then photographed through
  tools.synth.simulate_photo (perspective, rotation, shadow, blur, noise, JPEG).

The truth follows the corpus sidecar schema (``puzzle: "boggle"``, ``grid`` rows of space-separated tiles,
``tiles``) plus ``points`` (each tile's corner score, or null), ``turns`` (quarter turns counter-clockwise of each
die) and ``corners`` (the board's outer corners, half a gap outside the outer tiles, TL TR BR BL).
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from tools.synth import FONT_DIR, make_background, simulate_photo

LETTER_FREQ = {
    "E": 12.0, "T": 9.1, "A": 8.2, "O": 7.5, "I": 7.0, "N": 6.7, "S": 6.3, "H": 6.1, "R": 6.0, "D": 4.3, "L": 4.0,
    "C": 2.8, "U": 2.8, "M": 2.4, "W": 2.4, "F": 2.2, "G": 2.0, "Y": 2.0, "P": 1.9, "B": 1.5, "V": 1.0, "K": 0.8,
    "J": 0.2, "X": 0.2, "Q": 0.1, "Z": 0.1,
}
"""English letter frequencies (per cent), for drawing tiles."""
POINTS = {"A": 2, "B": 5, "C": 3, "D": 3, "E": 1, "F": 5, "G": 4, "H": 4, "I": 2, "J": 10, "K": 6, "L": 3, "M": 4,
          "N": 2, "O": 2, "P": 4, "Q": 8, "R": 2, "S": 2, "T": 2, "U": 4, "V": 6, "W": 6, "X": 9, "Y": 5, "Z": 8}
"""Tile points as Wordament shows them for single letters (read off the corpus screenshots; Q, X, Z guessed)."""
SPECIAL_TILES = ("ER", "IN", "TH", "QU", "ES", "AN", "VE", "CH", "AT", "ING", "A/E", "U/M", "I/O", "SUB-", "RE-",
                 "UN-", "DIS-", "-ING", "-ED", "-ER", "-Y", "-LY")
"""Wordament's special tiles: digrams, either/or, prefixes and suffixes."""
UNDERLINED = frozenset("MWNZ")
"""Dice letters that read as another letter when turned: printed with a bar under them."""
SCREEN_FONTS = ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "FreeSans.ttf", "NimbusSans-Regular.otf",
                "URWGothic-Book.otf")
DICE_FONTS = ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "FreeSansBold.ttf", "NimbusSans-Bold.otf")
RESOLUTIONS = ((1080, 2400), (720, 1600), (1080, 1920), (1366, 768), (1920, 1080), (828, 1792))
THEMES = {  # tile, letter, background (RGB)
    "classic": ((246, 243, 236), (40, 40, 46), (196, 160, 120)),
    "online": ((247, 148, 30), (255, 255, 255), (18, 70, 140)),
    "dark": ((70, 84, 104), (235, 240, 245), (26, 30, 38)),
}


def tile_points(tile: str) -> int:
    """The corner score of a tile: a letter's POINTS; a special tile scores more (its letters' sum plus a bonus)."""
    letters = [ch for ch in tile.split("/")[0] if ch.isalpha()]
    base = sum(POINTS[ch] for ch in letters)
    return base if len(letters) == 1 and "/" not in tile and "-" not in tile else base + 3


def random_tiles(rng: np.random.Generator, size: int, special: int = 0, qu: bool = False) -> list[list[str]]:
    """A size x size board of letters drawn with English frequencies; ``special`` tiles replaced by special
    tiles; Q always as QU when ``qu`` (dice)."""
    letters = list(LETTER_FREQ)
    p = np.array(list(LETTER_FREQ.values()))
    flat = [letters[i] for i in rng.choice(len(letters), size * size, p=p / p.sum())]
    if qu:
        flat = ["QU" if t == "Q" else t for t in flat]
    for k in rng.choice(size * size, special, replace=False):
        flat[k] = SPECIAL_TILES[rng.integers(len(SPECIAL_TILES))]
    return [flat[r * size:(r + 1) * size] for r in range(size)]


def _font_path(names: tuple[str, ...], rng: np.random.Generator) -> str:
    found = {p.name: str(p) for p in FONT_DIR.rglob("*") if p.name in names}
    choices = [found[n] for n in names if n in found]
    return choices[rng.integers(len(choices))]


def _fit_font(path: str, text: str, cap: float, max_w: float) -> ImageFont.FreeTypeFont:
    """The font size whose capital H is ``cap`` px tall, smaller when ``text`` would be wider than ``max_w``."""
    probe = ImageFont.truetype(path, 100)
    _, top, _, bottom = probe.getbbox("H", anchor="ls")
    size = 100 * cap / max(1, bottom - top)
    left, _, right, _ = probe.getbbox(text, anchor="ls")
    size = min(size, 100 * max_w / max(1, right - left))
    return ImageFont.truetype(path, max(6, round(size)))


def _text_centred(draw: ImageDraw.ImageDraw, text: str, font, cx: float, cy: float, fill) -> tuple[float, float, float]:
    """Draw ``text`` with its ink box centred horizontally and its capitals centred vertically on (cx, cy);
    returns (left, right, baseline) of the ink."""
    left, _, right, _ = font.getbbox(text, anchor="ls")
    _, top, _, bottom = font.getbbox("H", anchor="ls")
    x, y = cx - (left + right) / 2, cy - (top + bottom) / 2
    draw.text((x, y), text, font=font, fill=fill, anchor="ls")
    return x + left, x + right, y


def _truth(tiles, points, corners, kind: str, notes: str, puzzle_id: str, turns=None) -> dict:
    size = len(tiles)
    return {"kind": kind, "puzzle": "boggle", "rows": size, "cols": size,
            "grid": [" ".join(row) for row in tiles], "tiles": [list(row) for row in tiles],
            "points": points, "turns": turns or [[0] * size for _ in range(size)],
            "words": None, "puzzle_id": puzzle_id, "corners": np.round(np.asarray(corners, float), 2).tolist(),
            "word_list_region": [], "list_in_image": "no", "notes": notes}


def _draw_board(draw: ImageDraw.ImageDraw, tiles, points, x0: float, y0: float, pitch: float, gap: float,
                colours, font_path: str, corner: str = "tl", radius: float = 0.08) -> None:
    """Screen tiles: rounded squares with the text centred and the points small in a corner."""
    tile_c, ink_c = colours
    size = len(tiles)
    t = pitch - gap
    for r in range(size):
        for c in range(size):
            x, y = x0 + c * pitch + gap / 2, y0 + r * pitch + gap / 2
            draw.rounded_rectangle([x, y, x + t, y + t], radius=radius * t, fill=tile_c)
            tile = tiles[r][c]
            font = _fit_font(font_path, tile, 0.42 * t, 0.84 * t)
            _text_centred(draw, tile, font, x + t / 2, y + t * 0.55, ink_c)
            if points[r][c] is not None:
                small = _fit_font(font_path, "0", 0.12 * t, t)
                label = str(points[r][c])
                px = x + 0.07 * t if corner == "tl" else x + t - 0.07 * t - small.getlength(label)
                draw.text((px, y + 0.06 * t), label, font=small, fill=ink_c, anchor="lt")


def _corners(x0: float, y0: float, side: float) -> list[list[float]]:
    return [[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]]


def render_wordament(rng: np.random.Generator, tiles: list[list[str]], *, resolution: tuple[int, int] = (1080, 2400),
                     theme: str = "classic") -> tuple[np.ndarray, dict]:
    """A Wordament-style screenshot of ``tiles`` (BGR) and its truth."""
    width, height = resolution
    tile_c, ink_c, bg_c = THEMES[theme]
    size = len(tiles)
    points = [[tile_points(t) for t in row] for row in tiles]
    if theme == "classic":
        bg = make_background(rng, width, height, "table")[:, :, ::-1] * 1.35
        image = Image.fromarray(bg.clip(0, 255).astype(np.uint8))
    else:
        image = Image.new("RGB", (width, height), bg_c)
    draw = ImageDraw.Draw(image)
    font_path = _font_path(SCREEN_FONTS, rng)
    portrait = height > width
    if portrait:
        side = width * rng.uniform(0.9, 0.98)
        x0, y0 = (width - side) / 2, height * rng.uniform(0.18, 0.24)
    else:
        side = height * rng.uniform(0.33, 0.6)
        x0, y0 = width * rng.uniform(0.5, 0.95) - side, height * rng.uniform(0.2, 0.35)
        x0 = min(x0, width - side - 10)
    pitch = side / size
    gap = pitch * rng.uniform(0.05, 0.12)
    header = _fit_font(font_path, "Puzzle 23", height * 0.018, width)
    draw.rectangle([0, 0, width, height * 0.08], fill=(110, 30, 40) if theme == "classic" else bg_c)
    draw.text((width * 0.35, height * 0.02), f"Puzzle {rng.integers(1, 99)}  Digram", font=header, fill=(255, 255, 255))
    draw.rounded_rectangle([width * 0.1, y0 - height * 0.05, width * 0.9, y0 - height * 0.015], radius=10,
                           fill=(90, 70, 60) if theme == "classic" else (30, 50, 90))
    draw.text((width * 0.15, y0 - height * 0.045), f"Score: {rng.integers(0, 400)}/{rng.integers(900, 3500)}",
              font=header, fill=(230, 230, 230))
    panel_top = y0 + side + height * 0.02
    if portrait:
        draw.rounded_rectangle([width * 0.02, panel_top, width * 0.48, min(height - 5, panel_top + height * 0.25)],
                               radius=12, fill=(95, 80, 70) if theme == "classic" else (30, 45, 80))
        for k, word in enumerate(("tad", "sod", "rep", "rad")):
            draw.text((width * 0.05, panel_top + 15 + k * height * 0.04), f"7   {word}", font=header, fill=(230, 230, 230))
    _draw_board(draw, tiles, points, x0, y0, pitch, gap, (tile_c, ink_c), font_path)
    out = cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR)
    if rng.random() < 0.5:  # phone screenshots are often JPEG
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 95))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    notes = f"synthetic Wordament screenshot {width}x{height}, theme {theme}, font {Path(font_path).name}"
    return out, _truth(tiles, points, _corners(x0, y0, side), "screenshot", notes, "syn-wordament")


def render_ruzzle(rng: np.random.Generator, tiles: list[list[str]], *, resolution: tuple[int, int] = (1080, 1920)
                  ) -> tuple[np.ndarray, dict]:
    """A Ruzzle/Word Hunt-style screenshot (BGR) and its truth: beige tiles, points top-left, bonus frames."""
    width, height = resolution
    size = len(tiles)
    points = [[tile_points(t) for t in row] for row in tiles]
    image = Image.new("RGB", (width, height), (70, 40, 110))
    draw = ImageDraw.Draw(image)
    for k in range(0, height, 8):  # a vertical gradient
        shade = int(30 * k / height)
        draw.rectangle([0, k, width, k + 8], fill=(70 + shade, 40 + shade // 2, 110 - shade))
    font_path = _font_path(DICE_FONTS, rng)
    side = min(width, height) * rng.uniform(0.82, 0.95)
    x0, y0 = (width - side) / 2, height * rng.uniform(0.3, 0.4) if height > width else height * 0.1
    pitch = side / size
    gap = pitch * rng.uniform(0.06, 0.14)
    ink = (60, 40, 30)
    _draw_board(draw, tiles, points, x0, y0, pitch, gap, ((250, 240, 215), ink), font_path, radius=0.15)
    t = pitch - gap
    for k in rng.choice(size * size, 3, replace=False):  # bonus tiles: a coloured frame inside the tile
        r, c = divmod(int(k), size)
        x, y = x0 + c * pitch + gap / 2, y0 + r * pitch + gap / 2
        colour = [(60, 170, 80), (40, 110, 200), (220, 160, 30), (200, 40, 40)][rng.integers(4)]
        draw.rounded_rectangle([x, y, x + t, y + t], radius=0.15 * t, outline=colour, width=max(2, round(0.03 * t)))
    score_font = _fit_font(font_path, "0", height * 0.02, width)
    draw.text((width * 0.1, height * 0.05), f"{rng.integers(0, 300)} pts   1:{rng.integers(10, 59)}",
              font=score_font, fill=(255, 255, 255))
    out = cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR)
    notes = f"synthetic Ruzzle-style screenshot {width}x{height}, font {Path(font_path).name}"
    return out, _truth(tiles, points, _corners(x0, y0, side), "screenshot", notes, "syn-ruzzle")


def _die_face(tile: str, side: int, font_path: str, turns: int) -> np.ndarray:
    """A cream die face (RGB) with the letter drawn upright, underlined when ambiguous, then turned by ``turns``
    quarter turns counter-clockwise; rounded corners and a darker bevel are added afterwards by the caller."""
    face = Image.new("RGB", (side, side), (238, 232, 215))
    draw = ImageDraw.Draw(face)
    text = "Qu" if tile == "QU" else tile
    font = _fit_font(font_path, text, 0.5 * side, 0.75 * side)
    left, right, base = _text_centred(draw, text, font, side / 2, side * 0.48, (25, 30, 60))
    if tile in UNDERLINED:
        bar = max(2, round(0.05 * side))
        draw.rectangle([left, base + 0.07 * side, right, base + 0.07 * side + bar], fill=(25, 30, 60))
    return np.rot90(np.asarray(face), turns).copy()


def render_tray(rng: np.random.Generator, tiles: list[list[str]], *, side_px: int = 900) -> tuple[np.ndarray, dict]:
    """A Boggle tray seen from above (RGB->BGR image) and its truth: each die turned on its own."""
    size = len(tiles)
    font_path = _font_path(DICE_FONTS, rng)
    margin = int(side_px * 0.06)
    pitch = (side_px - 2 * margin) / size
    gap = pitch * rng.uniform(0.1, 0.18)
    die = int(pitch - gap)
    tray = np.zeros((side_px, side_px, 3), np.float32)
    tray[:] = np.array(rng.uniform([20, 60, 120], [50, 100, 190]), np.float32)  # blue plastic (RGB)
    turns = [[int(rng.integers(4)) for _ in range(size)] for _ in range(size)]
    yy, xx = np.mgrid[0:die, 0:die].astype(np.float32) / die
    bevel = 1.0 - 0.25 * np.clip(1 - np.minimum.reduce([xx, yy, 1 - xx, 1 - yy]) / 0.08, 0, 1)
    rad = max(2, int(0.12 * die))
    corner = np.zeros((die, die), np.uint8)
    cv2.rectangle(corner, (rad, 0), (die - rad - 1, die - 1), 1, -1)
    cv2.rectangle(corner, (0, rad), (die - 1, die - rad - 1), 1, -1)
    for cy, cx in ((rad, rad), (rad, die - rad - 1), (die - rad - 1, rad), (die - rad - 1, die - rad - 1)):
        cv2.circle(corner, (cx, cy), rad, 1, -1)
    for r in range(size):
        for c in range(size):
            face = _die_face(tiles[r][c], die, font_path, turns[r][c]).astype(np.float32) * bevel[..., None]
            x = int(margin + c * pitch + gap / 2 + rng.uniform(-0.03, 0.03) * pitch)
            y = int(margin + r * pitch + gap / 2 + rng.uniform(-0.03, 0.03) * pitch)
            region = tray[y:y + die, x:x + die]
            region[:] = np.where(corner[..., None] > 0, face, region)
    page = cv2.cvtColor(tray.clip(0, 255).astype(np.uint8), cv2.COLOR_RGB2BGR)
    corners = _corners(margin, margin, side_px - 2 * margin)
    truth = _truth(tiles, [[None] * size for _ in range(size)], corners, "photo", f"font {Path(font_path).name}",
                   "syn-tray", turns)
    return page, truth


def photograph_tray(rng: np.random.Generator, tiles: list[list[str]], *, out_size: tuple[int, int] = (1600, 1200),
                    rotation: float | None = None, perspective: float | None = None, blur: float | None = None,
                    shadow: float | None = None) -> tuple[np.ndarray, dict]:
    """A phone photo of a Boggle tray: render_tray, then simulate_photo (random amounts unless given)."""
    page, truth = render_tray(rng, tiles)
    rotation = rng.uniform(-12, 12) if rotation is None else rotation
    perspective = rng.uniform(0.0, 0.08) if perspective is None else perspective
    blur = rng.uniform(0.4, 1.6) if blur is None else blur
    shadow = rng.uniform(0.0, 0.4) if shadow is None else shadow
    out, new = simulate_photo(page, truth, rng, rotation=rotation, perspective=perspective, blur=blur,
                              noise=rng.uniform(1, 4), shadow=shadow, background="table", out_size=out_size,
                              page_fill=rng.uniform(0.6, 0.85))
    new["notes"] = f"synthetic Boggle tray photo, {new['notes']}"
    new.pop("page_to_photo", None)
    return out, new


KINDS = ("wordament", "ruzzle", "tray")


def random_board(seed: int, kind: str | None = None) -> tuple[np.ndarray, dict]:
    """One synthetic board from one seed: a Wordament screenshot, a Ruzzle screenshot or a tray photo (in turn
    when ``kind`` is None), 4x4 mostly, 5x5 sometimes."""
    rng = np.random.default_rng(seed)
    kind = kind or KINDS[seed % len(KINDS)]
    size = 5 if rng.random() < 0.2 else 4
    if kind == "wordament":
        tiles = random_tiles(rng, size, special=int(rng.integers(0, 3)))
        theme = list(THEMES)[rng.integers(len(THEMES))]
        return render_wordament(rng, tiles, resolution=RESOLUTIONS[rng.integers(len(RESOLUTIONS))], theme=theme)
    if kind == "ruzzle":
        return render_ruzzle(rng, random_tiles(rng, size), resolution=((1080, 1920), (750, 1334))[rng.integers(2)])
    return photograph_tray(rng, random_tiles(rng, size, qu=True))
