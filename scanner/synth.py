"""Synthetic word-search puzzles with exact ground truth, for tests, benchmarks and the bundled samples.

``make_puzzle`` places words in a grid, ``render_page`` draws a printable page with Pillow, ``simulate_photo``
turns a page into a phone photo (background, perspective, rotation, shadow, blur, noise, JPEG) and
``random_case`` draws all of those at random from one seed. Every function is deterministic for a seeded
``numpy.random.Generator``. Truth coordinates are image pixels; cell (r, c) is 0-based from the top-left.
"""
from __future__ import annotations

import functools
import io
import os
import string
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from solver.errors import BadInputError

DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (-1, 0), "NE": (-1, 1), "E": (0, 1), "SE": (1, 1),
    "S": (1, 0), "SW": (1, -1), "W": (0, -1), "NW": (-1, -1),
}
ALPHABET = string.ascii_uppercase

FONT_DIR = Path("/usr/share/fonts")
# Upright faces from the Debian packages the Makefile installs (dejavu, liberation2, freefont, urw-base35).
FONT_FILES = (
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf", "DejaVuSansCondensed.ttf",
    "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf", "LiberationSerif-Regular.ttf",
    "LiberationMono-Regular.ttf", "FreeSans.ttf", "FreeSansBold.ttf", "FreeSerif.ttf", "FreeMono.ttf",
    "NimbusSans-Regular.otf", "NimbusSans-Bold.otf", "NimbusRoman-Regular.otf", "NimbusMonoPS-Regular.otf",
    "NimbusSansNarrow-Regular.otf", "URWGothic-Book.otf", "C059-Roman.otf", "P052-Roman.otf",
    "URWBookman-Light.otf",
)
TITLE_FONT_FILES = ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "NimbusSans-Bold.otf", "FreeSansBold.ttf")

THEMES: dict[str, list[str]] = {
    "Animals": ["ELEPHANT", "GIRAFFE", "ZEBRA", "LION", "TIGER", "MONKEY", "KANGAROO", "PANDA", "RABBIT", "TURTLE",
                "DOLPHIN", "PENGUIN", "SQUIRREL", "HIPPO", "CAMEL", "BEAVER", "OTTER", "FOX", "WOLF", "MOOSE",
                "SEA LION", "POLAR BEAR"],
    "Fruits": ["APPLE", "BANANA", "CHERRY", "GRAPE", "LEMON", "MANGO", "ORANGE", "PAPAYA", "PEACH", "PEAR",
               "PLUM", "KIWI", "MELON", "APRICOT", "COCONUT", "FIG", "GUAVA", "LIME", "PINEAPPLE", "RAISIN",
               "BLUEBERRY", "DATE"],
    "Space": ["PLANET", "COMET", "GALAXY", "NEBULA", "ORBIT", "ROCKET", "SATURN", "JUPITER", "MARS", "VENUS",
              "MERCURY", "NEPTUNE", "URANUS", "METEOR", "ASTEROID", "ECLIPSE", "MOON", "STAR", "TELESCOPE",
              "GRAVITY", "BLACK HOLE", "SPACE-TIME"],
    "Ocean": ["WHALE", "SHARK", "CORAL", "OCTOPUS", "SQUID", "CRAB", "LOBSTER", "SEAHORSE", "JELLYFISH", "OYSTER",
              "CLAM", "TIDE", "WAVE", "REEF", "KELP", "SALMON", "TUNA", "SHRIMP", "STARFISH", "ANCHOR", "SAND"],
    "Weather": ["RAIN", "SNOW", "THUNDER", "LIGHTNING", "CLOUD", "STORM", "SUNSHINE", "WIND", "FOG", "HAIL",
                "TORNADO", "RAINBOW", "DRIZZLE", "FROST", "BREEZE", "HUMID", "SLEET", "MONSOON", "BLIZZARD",
                "HURRICANE", "DROUGHT", "HEAT WAVE"],
    "Kitchen": ["SPOON", "FORK", "KNIFE", "PLATE", "BOWL", "OVEN", "KETTLE", "TOASTER", "BLENDER", "WHISK",
                "LADLE", "SKILLET", "COLANDER", "SPATULA", "GRATER", "MUG", "TEAPOT", "FREEZER", "NAPKIN",
                "APRON", "RECIPE", "PANTRY"],
    "Music": ["GUITAR", "PIANO", "VIOLIN", "DRUMS", "FLUTE", "TRUMPET", "CELLO", "HARP", "BANJO", "TUBA",
              "MELODY", "RHYTHM", "TEMPO", "CHORD", "SONG", "BALLAD", "OPERA", "CHOIR", "SAXOPHONE", "CLARINET",
              "HARMONY", "CONCERT"],
    "Sports": ["SOCCER", "TENNIS", "HOCKEY", "GOLF", "RUGBY", "CRICKET", "BOXING", "ROWING", "SKIING", "SURFING",
               "KARATE", "CYCLING", "BASEBALL", "FENCING", "ARCHERY", "DIVING", "JUDO", "SAILING", "POLO",
               "BADMINTON", "VOLLEYBALL", "TABLE TENNIS"],
    "Garden": ["ROSE", "TULIP", "DAISY", "LILY", "ORCHID", "POPPY", "VIOLET", "IRIS", "SHOVEL", "RAKE", "HOSE",
               "SEEDS", "SOIL", "COMPOST", "HEDGE", "LAWN", "BEETLE", "WORM", "BUTTERFLY", "SUNFLOWER",
               "WATERING CAN", "GREENHOUSE"],
    "Travel": ["AIRPORT", "TICKET", "PASSPORT", "LUGGAGE", "HOTEL", "MAP", "CRUISE", "TRAIN", "BUS", "TAXI",
               "VISA", "BEACH", "MUSEUM", "SUITCASE", "JOURNEY", "COMPASS", "CAMERA", "SOUVENIR", "TOURIST",
               "ITINERARY", "BACKPACK", "ROAD TRIP"],
}

INSTRUCTIONS = (
    "Find the words below. Words can go in any direction.",
    "Find and circle all of the words hidden in the grid.",
    "Words may be hidden forwards, backwards or diagonally.",
    "Search for the words listed below the puzzle.",
)


@dataclass(frozen=True)
class Placement:
    """Where one word sits: first and last cell, direction name and every cell in reading order."""

    word: str
    start: tuple[int, int]
    end: tuple[int, int]
    direction: str
    cells: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Puzzle:
    """A filled grid (one string per row) and where each listed word was placed."""

    grid: list[str]
    words: list[str]
    placements: list[Placement]

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0])


def letters_of(word: str) -> str:
    """The grid letters a listed word occupies: upper case, spaces, hyphens and other marks dropped."""
    return "".join(ch for ch in word.upper() if ch.isalpha())


# ---------------------------------------------------------------------------------------------------------------
# Grid generation


def _line_cells(rows: int, cols: int) -> list[list[tuple[int, int]]]:
    """Every maximal straight line of cells in the E, S, SE and NE orientations."""
    lines = [[(r, c) for c in range(cols)] for r in range(rows)]
    lines += [[(r, c) for r in range(rows)] for c in range(cols)]
    for dr, dc in ((1, 1), (-1, 1)):
        for r0 in range(rows):
            for c0 in range(cols):
                pr, pc = r0 - dr, c0 - dc
                if 0 <= pr < rows and 0 <= pc < cols:
                    continue  # not the first cell of its diagonal
                line, r, c = [], r0, c0
                while 0 <= r < rows and 0 <= c < cols:
                    line.append((r, c))
                    r, c = r + dr, c + dc
                lines.append(line)
    return lines


def occurrences(grid: list[str], word: str) -> set[frozenset[tuple[int, int]]]:
    """The distinct cell sets where ``word`` reads in a straight line (a palindrome's two readings count once)."""
    target = letters_of(word)
    found: set[frozenset[tuple[int, int]]] = set()
    for line in _line_cells(len(grid), len(grid[0])):
        text = "".join(grid[r][c] for r, c in line)
        for needle in {target, target[::-1]}:
            i = text.find(needle)
            while i >= 0:
                found.add(frozenset(line[i:i + len(needle)]))
                i = text.find(needle, i + 1)
    return found


def _try_place(rng: np.random.Generator, cells: np.ndarray, word: str, letters: str,
               directions: tuple[str, ...]) -> Placement | None:
    rows, cols = cells.shape
    n = len(letters)
    options = []
    for name in directions:
        dr, dc = DIRECTIONS[name]
        for r in range(rows):
            for c in range(cols):
                er, ec = r + dr * (n - 1), c + dc * (n - 1)
                if not (0 <= er < rows and 0 <= ec < cols):
                    continue
                path = [(r + dr * i, c + dc * i) for i in range(n)]
                if all(cells[p] in ("", ch) for p, ch in zip(path, letters)):
                    options.append((name, path))
    if not options:
        return None
    name, path = options[rng.integers(len(options))]
    for p, ch in zip(path, letters):
        cells[p] = ch
    return Placement(word, path[0], path[-1], name, tuple(path))


def make_puzzle(rng: np.random.Generator, rows: int, cols: int, words: list[str], *,
                directions: tuple[str, ...] = tuple(DIRECTIONS), alphabet: str = ALPHABET,
                attempts: int = 200) -> Puzzle:
    """Place ``words`` at random positions and directions (crossing where letters agree), fill the rest at random.

    Every word ends up occurring exactly once in the grid, so the truth placements are the only answers.
    Raises BadInputError when no such layout is found (a word longer than the grid, or one inside another).
    """
    order = sorted(range(len(words)), key=lambda i: -len(letters_of(words[i])))
    for _ in range(attempts):
        cells = np.full((rows, cols), "", dtype=object)
        placed: dict[int, Placement] = {}
        for i in order:
            placement = _try_place(rng, cells, words[i], letters_of(words[i]), directions)
            if placement is None:
                break
            placed[i] = placement
        else:
            free = cells == ""
            cells[free] = rng.choice(list(alphabet), size=int(free.sum()))
            grid = ["".join(row) for row in cells]
            if all(len(occurrences(grid, w)) == 1 for w in words):
                return Puzzle(grid, list(words), [placed[i] for i in range(len(words))])
    raise BadInputError(f"cannot place {len(words)} words each exactly once in a {rows}x{cols} grid")


# ---------------------------------------------------------------------------------------------------------------
# Rendering a printable page


@functools.cache
def available_fonts() -> tuple[str, ...]:
    """Paths of the grid fonts installed on this machine, in FONT_FILES order."""
    found = {p.name: str(p) for p in FONT_DIR.rglob("*") if p.suffix in (".ttf", ".otf")}
    return tuple(found[name] for name in FONT_FILES if name in found)


@functools.cache
def _title_font_path() -> str:
    found = {Path(p).name: p for p in available_fonts()}
    for name in TITLE_FONT_FILES:
        if name in found:
            return found[name]
    return available_fonts()[0]


@functools.cache
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def _font_for_cap_height(path: str, cap_px: float) -> ImageFont.FreeTypeFont:
    """The font at the size whose capital H is ``cap_px`` pixels tall."""
    probe = _font(path, 100)
    left, top, right, bottom = probe.getbbox("H", anchor="ls")
    return _font(path, max(4, round(100 * cap_px / max(1, bottom - top))))


def _draw_centered(draw: ImageDraw.ImageDraw, font: ImageFont.FreeTypeFont, ch: str, cx: float, cy: float,
                   fill) -> None:
    """Draw one glyph with its ink box centred on (cx, cy)."""
    left, top, right, bottom = font.getbbox(ch, anchor="ls")
    draw.text((cx - (left + right) / 2, cy - (top + bottom) / 2), ch, font=font, fill=fill, anchor="ls")


def _list_label(word: str, index: int, style: str, case: str) -> str:
    text = {"upper": word.upper(), "lower": word.lower(), "title": word.title()}.get(case, word)
    if style == "numbered":
        return f"{index + 1}. {text}"
    if style == "bullet":
        return f"\u2022 {text}"
    return text


def render_page(puzzle: Puzzle, *, font_path: str | None = None, cell_px: float = 48.0,
                row_px: float | None = None, lined: bool = True, frame: int = 0, inverted: bool = False,
                title: str | None = "Word Search", instructions: str | None = None,
                word_list_layout: str = "below", list_columns: int = 3, list_style: str = "plain",
                list_case: str = "upper", letter_scale: float = 0.5, line_px: int = 2,
                line_gray: int = 0, paper: tuple[int, int, int] = (255, 255, 255), letter_page: bool = False
                ) -> tuple[np.ndarray, dict]:
    """Draw ``puzzle`` as a printable page; return (BGR uint8 image, truth dict).

    ``lined`` rules every cell; otherwise the letters are just evenly spaced (gridless). ``frame`` > 0 draws an
    outer frame that many pixels thick (on the cell boundary when lined, a little outside it when gridless).
    ``inverted`` prints the grid white on a dark panel. ``word_list_layout`` is "below", "right" or "none";
    ``list_style`` "plain", "numbered" or "bullet"; ``list_case`` "upper", "lower", "title" or "as_given".
    ``letter_scale`` is the capital height as a fraction of the cell pitch. ``letter_page`` pads the page to
    US-letter proportions. Truth ``corners`` are the grid's outer cell boundary (TL TR BR BL, image px).
    """
    font_path = font_path or available_fonts()[0]
    pitch_x, pitch_y = float(cell_px), float(row_px or cell_px)
    rows, cols = puzzle.rows, puzzle.cols
    margin = round(1.2 * pitch_x)
    ink = (0, 0, 0)
    line_color = (line_gray,) * 3

    text_px = max(10.0, 0.38 * pitch_y)
    title_font = _font_for_cap_height(_title_font_path(), 1.5 * text_px) if title else None
    instr_font = _font_for_cap_height(font_path, 0.8 * text_px) if instructions else None
    list_font = _font_for_cap_height(font_path, text_px)
    letter_font = _font_for_cap_height(font_path, letter_scale * min(pitch_x, pitch_y))

    labels = [_list_label(w, i, list_style, list_case) for i, w in enumerate(puzzle.words)]
    list_w = max((list_font.getbbox(s)[2] for s in labels), default=0)
    list_line = 1.9 * text_px
    gap = round(0.9 * pitch_x)
    grid_w, grid_h = cols * pitch_x, rows * pitch_y
    pad = round(0.35 * pitch_x) if (frame and not lined) or inverted else 0

    n_cols = 1 if word_list_layout == "right" else max(1, min(list_columns, len(labels)))
    per_col = -(-len(labels) // n_cols) if labels else 0
    col_w = list_w + gap
    block_w = n_cols * col_w - gap if word_list_layout != "none" else 0
    block_h = per_col * list_line if word_list_layout != "none" else 0
    if word_list_layout == "right" and per_col * list_line > grid_h:
        n_cols = 2
        per_col = -(-len(labels) // 2)
        block_w, block_h = 2 * col_w - gap, per_col * list_line

    y = float(margin)
    title_h = 2.6 * text_px if title else 0
    instr_h = 1.8 * text_px if instructions else 0
    content_w = grid_w + 2 * pad + (gap + block_w if word_list_layout == "right" else 0)
    if word_list_layout == "below":
        content_w = max(content_w, block_w)
    width = round(content_w + 2 * margin)
    height = margin + title_h + instr_h + pad + grid_h + pad + margin
    if word_list_layout == "below":
        height += gap + block_h
    elif word_list_layout == "right":
        height = max(height, margin + title_h + instr_h + block_h + margin)
    if letter_page:
        height = max(height, width * 11 / 8.5)
        width = max(width, round(height * 8.5 / 11))
    width, height = int(width), int(round(height))

    page = Image.new("RGB", (width, height), paper)
    draw = ImageDraw.Draw(page)
    if title:
        draw.text((width / 2, y + title_h * 0.45), title, font=title_font, fill=ink, anchor="mm")
        y += title_h
    if instructions:
        draw.text((width / 2, y + instr_h * 0.4), instructions, font=instr_font, fill=ink, anchor="mm")
        y += instr_h

    gx0 = (width - content_w) / 2 + pad
    gy0 = y + pad
    letter_fill, rule = ink, line_color
    if inverted:
        draw.rectangle([gx0 - pad, gy0 - pad, gx0 + grid_w + pad, gy0 + grid_h + pad], fill=(25, 25, 25))
        letter_fill, rule = (255, 255, 255), (200, 200, 200)
    if lined:
        for r in range(rows + 1):
            yy = gy0 + r * pitch_y
            draw.line([(gx0, yy), (gx0 + grid_w, yy)], fill=rule, width=line_px)
        for c in range(cols + 1):
            xx = gx0 + c * pitch_x
            draw.line([(xx, gy0), (xx, gy0 + grid_h)], fill=rule, width=line_px)
    if frame:
        off = 0 if lined else pad
        half = frame / 2
        frame_color = rule if inverted else ink
        draw.rectangle([gx0 - off - half, gy0 - off - half, gx0 + grid_w + off + half, gy0 + grid_h + off + half],
                       outline=frame_color, width=frame)
    for r, row in enumerate(puzzle.grid):
        for c, ch in enumerate(row):
            _draw_centered(draw, letter_font, ch, gx0 + (c + 0.5) * pitch_x, gy0 + (r + 0.5) * pitch_y,
                           letter_fill)

    region: list[list[float]] = []
    if word_list_layout != "none" and labels:
        if word_list_layout == "below":
            lx0, ly0 = (width - block_w) / 2, gy0 + grid_h + pad + gap
        else:
            lx0, ly0 = gx0 + grid_w + pad + gap, gy0
        boxes = []
        for i, label in enumerate(labels):
            x = lx0 + (i // per_col) * col_w
            yy = ly0 + (i % per_col) * list_line + text_px
            draw.text((x, yy), label, font=list_font, fill=ink, anchor="ls")
            boxes.append(draw.textbbox((x, yy), label, font=list_font, anchor="ls"))
        b = np.array(boxes, dtype=float)
        x0, y0 = float(b[:, 0].min() - 4), float(b[:, 1].min() - 4)
        x1, y1 = float(b[:, 2].max() + 4), float(b[:, 3].max() + 4)
        region = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]

    corners = [[gx0, gy0], [gx0 + grid_w, gy0], [gx0 + grid_w, gy0 + grid_h], [gx0, gy0 + grid_h]]
    truth = {
        "kind": "rendered",
        "puzzle": "wordsearch",
        "rows": rows,
        "cols": cols,
        "grid": list(puzzle.grid),
        "words": list(puzzle.words),
        "list_in_image": "yes" if region else "no",
        "image_size": [width, height],
        "exif_orientation": 1,
        "corners": corners,
        "word_list_region": region,
        "placements": [_placement_dict(p) for p in puzzle.placements],
        "font": Path(font_path).name,
        "lined": lined,
        "inverted": inverted,
        "notes": _notes(lined, frame, inverted, word_list_layout, font_path),
    }
    return cv2.cvtColor(np.asarray(page), cv2.COLOR_RGB2BGR), truth


def _placement_dict(p: Placement) -> dict:
    d = asdict(p)
    d["start"], d["end"], d["cells"] = list(p.start), list(p.end), [list(c) for c in p.cells]
    return d


def _notes(lined: bool, frame: int, inverted: bool, layout: str, font_path: str) -> str:
    parts = ["lined grid" if lined else "gridless"]
    if frame:
        parts.append(f"{frame}px outer frame")
    if inverted:
        parts.append("white on dark")
    parts.append(f"word list {layout}" if layout != "none" else "no word list")
    parts.append(f"font {Path(font_path).stem}")
    return "synthetic page from scanner.synth: " + ", ".join(parts)
