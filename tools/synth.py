"""Synthetic word-search puzzles with exact ground truth, for tests, benchmarks and the bundled samples.

``make_puzzle`` places words in a grid, ``render_page`` draws a printable page with Pillow, ``compose_pages``
puts several on one sheet, ``simulate_photo`` turns a page into a phone photo (background, perspective,
rotation, paper curl, shadow, blur, noise, JPEG), ``simulate_scan`` into a flatbed scan, ``save_case`` writes
an image with its truth sidecar, and ``random_case`` draws all of those at random from one seed.
``condition_case`` draws pages and photos in the conditions the scanner finds hard (turned without an EXIF tag,
lower case, dim, small, hand-lettered, newsprint, tiny, no list). Every function
is deterministic for a seeded ``numpy.random.Generator``. Truth coordinates are image pixels; cell (r, c) is
0-based from the top-left.
"""
from __future__ import annotations

import functools
import io
import string
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from solver.files import write_bytes_atomic, write_json_atomic
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
                "GRIZZLY BEAR", "POLAR BEAR"],
    "Fruits": ["APPLE", "BANANA", "CHERRY", "GRAPE", "LEMON", "MANGO", "ORANGE", "PAPAYA", "PEACH", "PEAR",
               "PLUM", "KIWI", "MELON", "APRICOT", "COCONUT", "FIG", "GUAVA", "LIME", "DATE", "RAISIN",
               "BLUEBERRY", "POMEGRANATE"],
    "Space": ["PLANET", "COMET", "GALAXY", "NEBULA", "ORBIT", "ROCKET", "SATURN", "JUPITER", "MARS", "VENUS",
              "MERCURY", "NEPTUNE", "URANUS", "METEOR", "ASTEROID", "ECLIPSE", "MOON", "STAR", "TELESCOPE",
              "GRAVITY", "BLACK HOLE", "SPACE-TIME"],
    "Ocean": ["WHALE", "SHARK", "CORAL", "OCTOPUS", "SQUID", "CRAB", "LOBSTER", "SEAHORSE", "JELLYFISH", "OYSTER",
              "CLAM", "TIDE", "WAVE", "REEF", "KELP", "SALMON", "TUNA", "SHRIMP", "STARFISH", "ANCHOR", "SAND"],
    "Weather": ["SHOWER", "SNOW", "THUNDER", "LIGHTNING", "CLOUD", "STORM", "SUNSHINE", "WIND", "FOG", "HAIL",
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
               "BADMINTON", "VOLLEYBALL", "HIGH JUMP"],
    "Garden": ["ROSE", "TULIP", "DAISY", "LILY", "ORCHID", "POPPY", "VIOLET", "IRIS", "SHOVEL", "RAKE", "HOSE",
               "SEEDS", "SOIL", "COMPOST", "HEDGE", "LAWN", "BEETLE", "WORM", "BUTTERFLY", "SUNFLOWER",
               "WATERING CAN", "GREENHOUSE"],
    "Travel": ["AIRPORT", "TICKET", "PASSPORT", "LUGGAGE", "HOTEL", "MAP", "CRUISE", "TRAIN", "BUS", "TAXI",
               "VISA", "BEACH", "MUSEUM", "SUITCASE", "JOURNEY", "COMPASS", "CAMERA", "SOUVENIR", "TOURIST",
               "ITINERARY", "BACKPACK", "ROAD TRIP"],
}
# Not drawn by random_case: for tests of --alphabet with accented letters (fill with FRENCH_ALPHABET).
FRENCH_THEMES: dict[str, list[str]] = {
    "Cuisine": ["CAFÉ", "CRÈME", "GÂTEAU", "FROMAGE", "BAGUETTE", "CRÊPE", "SOUPE", "POMME", "FRAISE", "CÉLERI",
                "PÂTES", "THÉ", "BEURRE", "ÉPINARD", "NOËL", "FORÊT"],
}
FRENCH_ALPHABET = ALPHABET * 4 + "ÀÂÇÉÈÊËÎÔÛ"  # repeats weight the draw: accents are rarer than plain letters

INSTRUCTIONS = (
    "Find the words below. Words can go in any direction.",
    "Find and circle all of the words hidden in the grid.",
    "Words may be hidden forwards, backwards or diagonally.",
    "Search for the words listed below the puzzle.",
)

FOOTERS = ("www.puzzle-fun.example", "Page 12", "(c) Weekly Puzzles", "Answers on page 31")


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
    r, c = np.indices(cells.shape)
    options = []  # by direction, then start cell in reading order
    for name in directions:
        dr, dc = DIRECTIONS[name]
        fits = (0 <= r + dr * (n - 1)) & (r + dr * (n - 1) < rows) & (0 <= c + dc * (n - 1)) & (c + dc * (n - 1) < cols)
        for i, ch in enumerate(letters):
            cell = cells[np.clip(r + dr * i, 0, rows - 1), np.clip(c + dc * i, 0, cols - 1)]
            fits &= (cell == "") | (cell == ch)
        options += [(name, r0, c0) for r0, c0 in zip(*(a.tolist() for a in np.nonzero(fits)))]
    if not options:
        return None
    name, r0, c0 = options[rng.integers(len(options))]
    dr, dc = DIRECTIONS[name]
    path = [(r0 + dr * i, c0 + dc * i) for i in range(n)]
    for p, ch in zip(path, letters):
        cells[p] = ch
    return Placement(word, path[0], path[-1], name, tuple(path))


def make_puzzle(rng: np.random.Generator, rows: int, cols: int, words: list[str], *,
                directions: tuple[str, ...] = tuple(DIRECTIONS), alphabet: str = ALPHABET,
                attempts: int = 200, message: str = "") -> Puzzle:
    """Place ``words`` at random positions and directions (crossing where letters agree), fill the rest at random.

    Fill letters are drawn uniformly from ``alphabet`` (repeat a letter to make it commoner); with ``message``,
    the free cells in reading order spell its letters first (a hidden message), then the random fill follows.
    Every word ends up occurring exactly once in the grid, so the truth placements are the only answers.
    Raises BadInputError for a word that cannot fit or cannot be unique (longer than the grid, listed twice,
    inside another word), or when no layout is found.
    """
    letters = [letters_of(w) for w in words]
    for word, a in zip(words, letters):
        if not 0 < len(a) <= max(rows, cols):
            raise BadInputError(f"cannot place {word!r} in a {rows}x{cols} grid")
        inside = [w for w, b in zip(words, letters) if w != word and (a in b or a[::-1] in b)]
        if inside or letters.count(a) > 1:
            raise BadInputError(f"{word!r} would occur more than once (listed twice or inside {inside})")
    order = sorted(range(len(words)), key=lambda i: -len(letters[i]))
    for _ in range(attempts):
        cells = np.full((rows, cols), "", dtype=object)
        placed: dict[int, Placement] = {}
        for i in order:
            placement = _try_place(rng, cells, words[i], letters[i], directions)
            if placement is None:
                break
            placed[i] = placement
        else:
            free = cells == ""
            hidden = letters_of(message)
            if len(hidden) > free.sum():
                continue
            cells[free] = list(hidden) + list(rng.choice(list(alphabet), size=int(free.sum()) - len(hidden)))
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
    fonts = tuple(found[name] for name in FONT_FILES if name in found)
    if not fonts:
        raise BadInputError(f"no fonts for the puzzle generator under {FONT_DIR}: run `make setup`")
    return fonts


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


def _font_for_cap_height(path: str, cap_px: float, max_w_px: float | None = None) -> ImageFont.FreeTypeFont:
    """The font at the size whose capital H is ``cap_px`` tall, smaller if a W or M would be wider than
    ``max_w_px`` (wide faces must not make neighbouring letters touch)."""
    probe = _font(path, 100)
    left, top, right, bottom = probe.getbbox("H", anchor="ls")
    size = 100 * cap_px / max(1, bottom - top)
    if max_w_px:
        widest = max(probe.getbbox(ch, anchor="ls")[2] - probe.getbbox(ch, anchor="ls")[0] for ch in "MW")
        size = min(size, 100 * max_w_px / max(1, widest))
    return _font(path, max(4, round(size)))


def _draw_centered(draw: ImageDraw.ImageDraw, font: ImageFont.FreeTypeFont, ch: str, cx: float, cy: float,
                   fill) -> None:
    """Draw one glyph centred on (cx, cy): its ink box horizontally, a capital H's vertically (so letters share
    a baseline as in print; accents rise above it, tails hang below)."""
    left, _, right, _ = font.getbbox(ch, anchor="ls")
    _, top, _, bottom = font.getbbox("H", anchor="ls")
    draw.text((cx - (left + right) / 2, cy - (top + bottom) / 2), ch, font=font, fill=fill, anchor="ls")


def _draw_by_hand(page: Image.Image, font_path: str, size: int, ch: str, cx: float, cy: float, fill,
                  pitch: float, jitter: float, rng: np.random.Generator) -> None:
    """Draw one glyph near (cx, cy) as a hand would: moved, resized and tilted at random within ``jitter``."""
    font = _font(font_path, max(4, round(size * (1 + 1.2 * jitter * rng.uniform(-1, 1)))))
    angle = 80 * jitter * rng.uniform(-1, 1)
    dx, dy = jitter * pitch * rng.uniform(-1, 1, 2)
    half = int(np.ceil(pitch))
    glyph = Image.new("L", (2 * half, 2 * half), 0)
    _draw_centered(ImageDraw.Draw(glyph), font, ch, half, half, 255)
    glyph = glyph.rotate(angle, resample=Image.BICUBIC, center=(half, half))
    page.paste(fill, (round(cx + dx) - half, round(cy + dy) - half), glyph)


def _text_width(font: ImageFont.FreeTypeFont, text: str) -> float:
    """Ink width of ``text`` in ``font``."""
    left, _, right, _ = font.getbbox(text)
    return right - left


def _printed(word: str, case: str) -> str:
    """A listed word as the page prints it in ``case`` ("upper", "lower", "title"; anything else: as given)."""
    return {"upper": word.upper(), "lower": word.lower(), "title": word.title()}.get(case, word)


def _list_label(text: str, index: int, style: str) -> str:
    if style == "numbered":
        return f"{index + 1}. {text}"
    if style == "bullet":
        return f"\u2022 {text}"
    return text


def _quad(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    """The box (x0, y0, x1, y1) as a quad like the truth's ``corners`` (TL TR BR BL)."""
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def render_page(puzzle: Puzzle, *, font_path: str | None = None, cell_px: float = 48.0,
                row_px: float | None = None, lined: bool = True, frame: int = 0, inverted: bool = False,
                title: str | None = "Word Search", instructions: str | None = None,
                word_list_layout: str = "below", list_columns: int = 3, list_style: str = "plain",
                list_case: str = "upper", letter_scale: float = 0.5, line_px: int = 2,
                line_gray: int = 0, paper: tuple[int, int, int] = (255, 255, 255), letter_page: bool = False,
                list_box: bool = False, footer: str | None = None, grid_case: str = "upper",
                jitter: float = 0.0, rng: np.random.Generator | None = None,
                list_scale: float = 1.0) -> tuple[np.ndarray, dict]:
    """Draw ``puzzle`` as a printable page; return (BGR uint8 image, truth dict).

    ``lined`` rules every cell; otherwise the letters are just evenly spaced (gridless). ``frame`` > 0 draws an
    outer frame that many pixels thick (on the cell boundary when lined, a little outside it when gridless).
    ``inverted`` prints the grid white on a dark panel. ``word_list_layout`` is "below", "above", "right" or
    "none"; ``list_style`` "plain", "numbered" or "bullet"; ``list_case`` "upper", "lower", "title" or
    "as_given"; ``list_box`` draws a box around the list. ``letter_scale`` is the capital height as a fraction
    of the cell pitch. ``letter_page`` pads the page to US-letter proportions. ``footer`` is page furniture
    (a site name, a page number) printed at the bottom. ``grid_case`` "lower" prints the grid in lower case (the
    truth grid stays upper case, as the scanner reports it). ``jitter`` > 0 letters it by hand: each letter moves
    by up to that fraction of the pitch, grows or shrinks by up to its 1.2 times and tilts by up to its 80 times
    in degrees, drawn from ``rng``; the truth lattice stays the nominal one. ``list_scale`` enlarges the list, title
    and instructions relative to the pitch. Truth ``corners`` are the grid's outer cell boundary
    (TL TR BR BL, image px); ``word_list_region`` the list's bounding box (its box when boxed); ``words`` the
    list as printed (case applied, no numbering or bullets), like the corpus sidecars; ``word_boxes`` each listed
    word's ink box as printed (its number or bullet left out), a quad like ``corners``, and ``entry_boxes`` the
    same with the number or bullet.
    """
    font_path = font_path or available_fonts()[0]
    pitch_x, pitch_y = float(cell_px), float(row_px or cell_px)
    rows, cols = puzzle.rows, puzzle.cols
    margin = round(1.2 * pitch_x)
    ink = (0, 0, 0)
    line_color = (line_gray,) * 3

    text_px = max(10.0, 0.38 * pitch_y * list_scale)
    title_font = _font_for_cap_height(_title_font_path(), 1.5 * text_px) if title else None
    instr_font = _font_for_cap_height(font_path, 0.8 * text_px) if instructions else None
    list_font = _font_for_cap_height(font_path, text_px)
    letter_font = _font_for_cap_height(font_path, letter_scale * min(pitch_x, pitch_y), 0.78 * pitch_x)

    printed = [_printed(w, list_case) for w in puzzle.words] if word_list_layout != "none" else list(puzzle.words)
    labels = [_list_label(w, i, list_style) for i, w in enumerate(printed)]
    list_w = max((list_font.getbbox(s)[2] for s in labels), default=0)
    list_line = 1.9 * text_px
    gap = round(0.9 * pitch_x)
    grid_w, grid_h = cols * pitch_x, rows * pitch_y
    pad = round(0.35 * pitch_x) if (frame and not lined) or inverted else 0

    n_cols = 1 if word_list_layout == "right" else max(1, min(list_columns, len(labels)))
    if word_list_layout == "above":
        n_cols = max(n_cols, min(3, len(labels)))  # a long single column above the grid is not a real layout
    per_col = -(-len(labels) // n_cols) if labels else 0
    col_w = list_w + gap
    block_w = n_cols * col_w - gap if word_list_layout != "none" else 0
    block_h = per_col * list_line if word_list_layout != "none" else 0
    box_m = 0.8 * text_px if list_box else 0.0
    if word_list_layout == "right" and per_col * list_line > grid_h:
        n_cols = 2
        per_col = -(-len(labels) // 2)
        block_w, block_h = 2 * col_w - gap, per_col * list_line

    y = float(margin)
    title_h = 3.0 * text_px if title else 0
    instr_h = 1.8 * text_px if instructions else 0
    above_h = block_h + 2 * box_m + 1.5 * gap if word_list_layout == "above" else 0
    footer_h = 2.5 * text_px if footer else 0
    body_w = grid_w + 2 * pad + (gap + block_w + 2 * box_m if word_list_layout == "right" else 0)
    content_w = max(body_w, block_w + 2 * box_m) if word_list_layout in ("below", "above") else body_w
    header_w = max([_text_width(f, t) for f, t in ((title_font, title), (instr_font, instructions)) if t], default=0)
    width = round(max(content_w, header_w) + 2 * margin)
    height = margin + title_h + instr_h + above_h + pad + grid_h + pad + margin + footer_h
    if word_list_layout == "below":
        height += gap + block_h + 2 * box_m
    elif word_list_layout == "right":
        height = max(height, margin + title_h + instr_h + block_h + 2 * box_m + margin + footer_h)
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
    list_y = y + 0.5 * gap + box_m
    y += above_h

    gx0 = (width - body_w) / 2 + pad
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
            ch = ch.lower() if grid_case == "lower" else ch
            cx, cy = gx0 + (c + 0.5) * pitch_x, gy0 + (r + 0.5) * pitch_y
            if jitter > 0:
                _draw_by_hand(page, font_path, letter_font.size, ch, cx, cy, letter_fill, pitch_x, jitter,
                              rng if rng is not None else np.random.default_rng(0))
            else:
                _draw_centered(draw, letter_font, ch, cx, cy, letter_fill)

    region: list[list[float]] = []
    word_boxes: list[list[list[float]]] = []
    entry_boxes: list[list[list[float]]] = []
    if word_list_layout != "none" and labels:
        if word_list_layout == "below":
            lx0, ly0 = (width - block_w) / 2, gy0 + grid_h + pad + gap + box_m
        elif word_list_layout == "above":
            lx0, ly0 = (width - block_w) / 2, list_y
        else:
            lx0, ly0 = gx0 + grid_w + pad + gap + box_m, gy0 + box_m
        boxes = []
        for i, (label, word) in enumerate(zip(labels, printed)):
            x = lx0 + (i // per_col) * col_w
            yy = ly0 + (i % per_col) * list_line + text_px
            draw.text((x, yy), label, font=list_font, fill=ink, anchor="ls")
            boxes.append(draw.textbbox((x, yy), label, font=list_font, anchor="ls"))
            entry_boxes.append(_quad(*boxes[-1]))
            lead = list_font.getlength(label[:len(label) - len(word)])  # the entry's number or bullet
            word_boxes.append(_quad(*draw.textbbox((x + lead, yy), word, font=list_font, anchor="ls")))
        b = np.array(boxes, dtype=float)
        m = box_m or 0.3 * text_px
        x0, y0 = float(b[:, 0].min() - m), float(b[:, 1].min() - m)
        x1, y1 = float(b[:, 2].max() + m), float(b[:, 3].max() + m)
        region = _quad(x0, y0, x1, y1)
        if list_box:
            draw.rectangle([x0, y0, x1, y1], outline=(90, 90, 90), width=max(1, line_px))
    if footer:
        footer_font = _font_for_cap_height(font_path, 0.7 * text_px)
        draw.text((width / 2, height - margin * 0.6 - footer_h / 2), footer, font=footer_font, fill=ink, anchor="mm")

    corners = [[gx0, gy0], [gx0 + grid_w, gy0], [gx0 + grid_w, gy0 + grid_h], [gx0, gy0 + grid_h]]
    truth = {
        "kind": "rendered",
        "puzzle": "wordsearch",
        "rows": rows,
        "cols": cols,
        "grid": list(puzzle.grid),
        "words": printed,
        "list_in_image": "yes" if region else "no",
        "image_size": [width, height],
        "exif_orientation": 1,
        "corners": corners,
        "word_list_region": region,
        "word_boxes": word_boxes,
        "entry_boxes": entry_boxes,
        "placements": [_placement_dict(p, w) for p, w in zip(puzzle.placements, printed)],
        "font": Path(font_path).name,
        "lined": lined,
        "inverted": inverted,
        "notes": _notes(lined, frame, inverted, word_list_layout, font_path),
    }
    return cv2.cvtColor(np.asarray(page), cv2.COLOR_RGB2BGR), truth


def _placement_dict(p: Placement, printed: str) -> dict:
    d = asdict(p)
    d["word"] = printed
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
    return "synthetic page from tools.synth: " + ", ".join(parts)


def add_pen_marks(image: np.ndarray, truth: dict, rng: np.random.Generator, *, circled: float = 0.3,
                  scribbles: int = 2) -> tuple[np.ndarray, dict]:
    """A partly solved page: ellipses in pen around about ``circled`` of the placed words and a few free-hand
    ``scribbles``. Returns (marked copy, truth with ``pen_marks`` naming the circled words); the grid is unchanged.
    """
    out = image.copy()
    src = np.float64([[0, 0], [truth["cols"], 0], [truth["cols"], truth["rows"]], [0, truth["rows"]]])
    to_image = cv2.getPerspectiveTransform(src.astype(np.float32), np.float32(truth["corners"]))
    pitch = np.linalg.norm(np.subtract(truth["corners"][1], truth["corners"][0])) / truth["cols"]
    color = tuple(int(v) for v in rng.choice([(170, 60, 20), (40, 40, 200), (90, 90, 90)]))  # blue, red, pencil
    width = max(1, round(0.07 * pitch))
    marked = []
    for p in truth["placements"]:
        if rng.random() >= circled:
            continue
        (r0, c0), (r1, c1) = p["start"], p["end"]
        ends = _map_points(to_image, [[c0 + 0.5, r0 + 0.5], [c1 + 0.5, r1 + 0.5]])
        (x0, y0), (x1, y1) = ends
        centre = (round((x0 + x1) / 2), round((y0 + y1) / 2))
        axes = (round(np.hypot(x1 - x0, y1 - y0) / 2 + 0.55 * pitch), round(0.45 * pitch))
        angle = float(np.degrees(np.arctan2(y1 - y0, x1 - x0)))
        cv2.ellipse(out, centre, axes, angle, 0, 360, color, width, cv2.LINE_AA)
        marked.append(p["word"])
    h, w = out.shape[:2]
    for _ in range(scribbles):
        steps = rng.normal(0, 0.6 * pitch, (int(rng.integers(6, 14)), 2)).cumsum(axis=0)
        points = steps + rng.uniform([0, 0], [w, h])
        cv2.polylines(out, [np.int32(points)], False, color, width, cv2.LINE_AA)
    return out, dict(truth, pen_marks=marked, notes=f"{truth['notes']}; pen marks: {len(marked)} words circled")


def compose_pages(pages: list[tuple[np.ndarray, dict]], *, columns: int = 2, gap: int = 60,
                  paper: tuple[int, int, int] = (255, 255, 255)) -> tuple[np.ndarray, dict]:
    """Lay several rendered pages out on one sheet, row by row, ``columns`` wide (a puzzle book's two-up page).

    Returns (BGR image, truth) where truth ``puzzles`` holds each page's truth with its points moved onto the
    sheet, in layout order; simulate_photo and simulate_scan accept it.
    """
    rows = [pages[i:i + columns] for i in range(0, len(pages), columns)]
    row_h = [max(im.shape[0] for im, _ in row) for row in rows]
    width = max(sum(im.shape[1] for im, _ in row) + gap * (len(row) - 1) for row in rows)
    height = sum(row_h) + gap * (len(rows) - 1)
    sheet = np.empty((height, width, 3), np.uint8)
    sheet[:] = paper[::-1]
    truths, y = [], 0
    for row, h in zip(rows, row_h):
        x = (width - sum(im.shape[1] for im, _ in row) - gap * (len(row) - 1)) // 2
        for im, truth in row:
            sheet[y:y + im.shape[0], x:x + im.shape[1]] = im
            dx, dy = x, y
            truths.append(_move_truth(truth, lambda pts, dx=dx, dy=dy: [[px + dx, py + dy] for px, py in pts]))
            x += im.shape[1] + gap
        y += h + gap
    return sheet, {"kind": "rendered", "puzzle": "wordsearch", "image_size": [width, height], "exif_orientation": 1,
                   "puzzles": truths, "notes": f"synthetic sheet of {len(pages)} puzzles from tools.synth"}


# ---------------------------------------------------------------------------------------------------------------
# Simulated phone photos


def _smooth_field(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Low-frequency noise in [0, 1]: random values on a coarse lattice, upsampled smoothly to ``shape``."""
    coarse = rng.random(cells).astype(np.float32)
    return cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def make_background(rng: np.random.Generator, width: int, height: int, style: str = "table") -> np.ndarray:
    """A float32 BGR background (0..255): "table" (wood grain), "cloth" (dark mottled), "noise" (grey blotches)
    or "scanner" (a flatbed's light grey lid)."""
    shape = (height, width)
    if style == "table":
        grain = 0.6 * _smooth_field(rng, shape, (160, 6)) + 0.4 * _smooth_field(rng, shape, (12, 3))
        base = np.array(rng.uniform([40, 80, 120], [90, 130, 180]), dtype=np.float32)
        bg = base * (0.75 + 0.45 * grain[..., None])
    elif style == "cloth":
        mottle = _smooth_field(rng, shape, (24, 24))
        base = np.array(rng.uniform([30, 30, 30], [80, 70, 60]), dtype=np.float32)
        bg = base * (0.8 + 0.4 * mottle[..., None])
    elif style == "scanner":
        bg = np.full((height, width, 3), rng.uniform(215, 240), dtype=np.float32)
    else:
        blotch = _smooth_field(rng, shape, (8, 8))
        bg = np.repeat((90 + 120 * blotch)[..., None], 3, axis=2)
    return bg.astype(np.float32)


def _lighting(rng: np.random.Generator, width: int, height: int, shadow: float) -> np.ndarray:
    """Multiplicative light field: a gradient across the frame and a soft-edged cast shadow over one side."""
    h, w = max(2, height // 8), max(2, width // 8)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    yy, xx = yy / h - 0.5, xx / w - 0.5
    angle = rng.uniform(0, 2 * np.pi)
    along = np.cos(angle) * xx + np.sin(angle) * yy
    field = 1.0 - 0.5 * shadow * (along + 0.5)
    if shadow > 0:
        a2 = rng.uniform(0, 2 * np.pi)
        edge = np.cos(a2) * xx + np.sin(a2) * yy - rng.uniform(0.15, 0.4)
        field *= 1.0 - shadow / (1.0 + np.exp(-edge / 0.04))
    return cv2.resize(field, (width, height), interpolation=cv2.INTER_LINEAR)


def simulate_photo(image: np.ndarray, truth: dict, rng: np.random.Generator, *, rotation: float = 0.0,
                   perspective: float = 0.05, blur: float = 1.0, noise: float = 3.0, shadow: float = 0.35,
                   jpeg_quality: int | None = 85, background: str = "table",
                   out_size: tuple[int, int] = (1600, 1200), page_fill: float = 0.8,
                   curl: float = 0.0, glare: float = 0.0) -> tuple[np.ndarray, dict]:
    """Photograph a rendered page: lay it on a background, rotate it by ``rotation`` degrees, tilt the camera
    (keystone and corner jitter, ``perspective`` as a fraction of the page size), shade it (``shadow`` 0..1),
    blur (Gaussian sigma px), add sensor noise (sigma in grey levels) and JPEG artefacts.

    ``out_size`` is the photo's (width, height); the page's rotated bounding box fills ``page_fill`` of it.
    ``curl`` bends the paper: horizontal lines bow by up to that fraction of the page height (0 = flat).
    ``glare`` adds a specular highlight on the page washing it out by up to that fraction of white.
    Returns (BGR uint8 image, truth) with ``corners`` and ``word_list_region`` mapped through the same
    transform, ``kind`` "photo"; ``page_to_photo`` is the homography, exact for points when ``curl`` is 0.
    """
    ph, pw = image.shape[:2]
    width, height = out_size
    theta = np.deg2rad(rotation)
    cos, sin = abs(np.cos(theta)), abs(np.sin(theta))
    scale = page_fill * min(width / (pw * cos + ph * sin), height / (pw * sin + ph * cos))

    # Shrink big pages first: warpPerspective samples without area averaging, so it aliases when minifying.
    pre = min(1.0, 1.5 * scale)
    page = cv2.resize(image, (round(pw * pre), round(ph * pre)), interpolation=cv2.INTER_AREA) if pre < 1 else image
    sheet = np.full(page.shape[:2], 255, np.uint8)
    if curl:
        sh, sw = page.shape[:2]
        map_x, map_y = np.meshgrid(np.arange(sw, dtype=np.float32), np.arange(sh, dtype=np.float32))
        map_y -= _curl_offset(map_x / pre, pw, ph, curl) * pre
        page = cv2.remap(page, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        sheet = cv2.remap(sheet, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], dtype=np.float64)

    slack = (1 - page_fill) / 2
    centre = np.array([width, height]) * (0.5 + rng.uniform(-slack, slack, 2) * 0.5)
    keystone = rng.uniform(-perspective, perspective)
    local = (src - [pw / 2, ph / 2]) * scale
    local[:2, 0] *= 1 - keystone  # top edge narrower or wider than the bottom: the camera is tilted
    local += rng.uniform(-1, 1, (4, 2)) * perspective * 0.4 * scale * max(pw, ph)
    rot = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    dst = local @ rot.T + centre
    hom = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    warp = hom @ np.diag([1 / pre, 1 / pre, 1.0])

    bg = make_background(rng, width, height, background)
    mask = cv2.warpPerspective(sheet, warp, (width, height), flags=cv2.INTER_LINEAR)
    mask = (mask.astype(np.float32) / 255)[..., None]
    paper = cv2.warpPerspective(page, warp, (width, height), flags=cv2.INTER_LINEAR).astype(np.float32)
    photo = paper * mask + bg * (1 - mask)
    photo *= _lighting(rng, width, height, shadow)[..., None]
    photo *= np.array(rng.uniform([0.85, 0.93, 0.97], [1.0, 1.0, 1.0]), dtype=np.float32)  # warm light
    if glare > 0:
        gx, gy = dst.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * (dst.max(axis=0) - dst.min(axis=0))
        sigma = rng.uniform(0.04, 0.1) * np.hypot(width, height)
        yy, xx = np.ogrid[0:height, 0:width]
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma ** 2)).astype(np.float32)
        photo += (255 - photo) * (glare * spot)[..., None]
    if blur > 0:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    if noise > 0:
        photo += rng.standard_normal(photo.shape, dtype=np.float32) * noise
    out = photo.clip(0, 255).astype(np.uint8)
    if jpeg_quality:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)

    def to_photo(points: list[list[float]]) -> list[list[float]]:
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2).copy()
        pts[:, 1] += _curl_offset(pts[:, 0], pw, ph, curl)
        return _map_points(hom, pts.tolist())

    new = _move_truth(truth, to_photo)
    new["page_to_photo"] = hom.tolist()
    new["kind"] = "photo"
    new["image_size"] = [width, height]
    new["notes"] = (f"{truth['notes']}; simulated photo: rotation {rotation:.1f} deg, perspective {perspective:.2f},"
                    f" blur {blur:.1f}, noise {noise:.1f}, shadow {shadow:.2f}, curl {curl:.3f}, glare {glare:.2f},"
                    f" {background} background")
    return out, new


def _move_truth(truth: dict, move) -> dict:
    """A copy of ``truth`` with every point (corners and list regions, of each puzzle on a composed page) moved."""
    new = dict(truth)
    if "puzzles" in truth:
        new["puzzles"] = [_move_truth(t, move) for t in truth["puzzles"]]
        return new
    new["corners"] = move(truth["corners"])
    new["word_list_region"] = move(truth["word_list_region"]) if truth["word_list_region"] else []
    for key in ("word_boxes", "entry_boxes"):
        if key in truth:
            new[key] = [move(quad) for quad in truth[key]]
    return new


def _curl_offset(x: np.ndarray, pw: int, ph: int, curl: float) -> np.ndarray:
    """Downward shift of page points at x for a sheet bowed by ``curl`` (its middle sags, its edges do not)."""
    return curl * ph * (1 - (2 * np.asarray(x) / pw - 1) ** 2)


def _map_points(hom: np.ndarray, points: list[list[float]]) -> list[list[float]]:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, hom).reshape(-1, 2).tolist()


def simulate_scan(image: np.ndarray, truth: dict, rng: np.random.Generator, *, rotation: float = 1.5,
                  scale: float = 1.0, noise: float = 2.0, jpeg_quality: int | None = 90) -> tuple[np.ndarray, dict]:
    """Scan a rendered page: flat (no perspective), slightly skewed by ``rotation`` degrees, resampled by
    ``scale``, on a scanner lid, with faint uneven light and noise. Truth as simulate_photo, ``kind`` "scan"."""
    ph, pw = image.shape[:2]
    theta = np.deg2rad(rotation)
    cos, sin = abs(np.cos(theta)), abs(np.sin(theta))
    fill = 0.97
    size = (round(scale * (pw * cos + ph * sin) / fill), round(scale * (pw * sin + ph * cos) / fill))
    out, new = simulate_photo(image, truth, rng, rotation=rotation, perspective=0.0, blur=0.6, noise=noise,
                              shadow=0.06, jpeg_quality=jpeg_quality, background="scanner", out_size=size,
                              page_fill=fill)
    new["kind"] = "scan"
    new["notes"] = f"{truth['notes']}; simulated scan: skew {rotation:.1f} deg, scale {scale:.2f}, noise {noise:.1f}"
    return out, new


# ---------------------------------------------------------------------------------------------------------------
# Writing images and truth sidecars


def save_case(path: str | Path, image: np.ndarray, truth: dict, *, jpeg_quality: int = 85,
              exif_orientation: int = 1) -> dict:
    """Write ``image`` (format from the suffix) and its truth sidecar ``<path>.json``; return the truth written.

    ``exif_orientation=6`` stores the pixels rotated 90 degrees counter-clockwise with EXIF orientation 6, as
    phones do, so a viewer that applies the tag shows ``image`` (truth stays in that displayed orientation).
    """
    path = Path(path)
    stored = cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE) if exif_orientation == 6 else image
    pil = Image.fromarray(cv2.cvtColor(stored, cv2.COLOR_BGR2RGB))
    exif = Image.Exif()
    if exif_orientation != 1:
        exif[0x0112] = exif_orientation
    buf = io.BytesIO()
    if path.suffix.lower() in (".jpg", ".jpeg"):
        pil.save(buf, "JPEG", quality=jpeg_quality, exif=exif.tobytes())
    else:
        pil.save(buf, Image.registered_extensions()[path.suffix.lower()], exif=exif.tobytes())
    write_bytes_atomic(path, buf.getvalue())
    truth = dict(truth, exif_orientation=exif_orientation, image_size=[image.shape[1], image.shape[0]])
    write_json_atomic(path.with_name(path.name + ".json"), truth)
    return truth


# ---------------------------------------------------------------------------------------------------------------
# Random cases for tests and benchmarks


def random_puzzle(rng: np.random.Generator, rows: int, cols: int,
                  themes: dict[str, list[str]] = THEMES) -> tuple[str, Puzzle]:
    """A themed puzzle sized to the grid: (theme, puzzle) with 6-20 words of one of ``themes`` that fit."""
    theme = list(themes)[rng.integers(len(themes))]
    fits = [w for w in themes[theme] if len(letters_of(w)) <= max(rows, cols) - 1]
    n = int(np.clip(rows * cols // 12, 6, 20))
    words = [fits[i] for i in sorted(rng.choice(len(fits), size=min(n, len(fits)), replace=False))]
    return theme, make_puzzle(rng, rows, cols, words)


def _random_page_options(rng: np.random.Generator, theme: str) -> dict:
    """render_page options drawn at random: font, pitch, lines, frame, inversion, title, list layout, paper."""
    fonts = available_fonts()
    return dict(
        font_path=fonts[rng.integers(len(fonts))],
        cell_px=float(rng.integers(28, 65)),
        lined=bool(rng.random() < 0.6),
        frame=int(rng.choice([0, 0, 2, 3, 6])),
        inverted=bool(rng.random() < 0.1),
        title=f"{theme} Word Search" if rng.random() < 0.8 else None,
        instructions=INSTRUCTIONS[rng.integers(len(INSTRUCTIONS))] if rng.random() < 0.5 else None,
        word_list_layout=str(rng.choice(["below", "below", "right", "above", "none"])),
        list_columns=int(rng.integers(1, 5)),
        list_style=str(rng.choice(["plain", "plain", "numbered", "bullet"])),
        list_case=str(rng.choice(["upper", "upper", "title", "lower"])),
        letter_scale=float(rng.uniform(0.4, 0.6)),
        line_gray=int(rng.choice([0, 0, 120, 190])),
        paper=tuple(int(v) for v in rng.integers(235, 256, 3)) if rng.random() < 0.3 else (255, 255, 255),
        list_box=bool(rng.random() < 0.25),
        footer=FOOTERS[rng.integers(len(FOOTERS))] if rng.random() < 0.3 else None,
    )


def photo_size(page_shape: tuple[int, ...], cell_px: float, pitch: float, page_fill: float,
               rotation: float) -> tuple[int, int]:
    """The 4:3 or 3:4 photo (width, height) in which a page of ``page_shape`` with cells ``cell_px`` apart, turned
    by ``rotation`` degrees and filling ``page_fill`` of the frame, shows its cells ``pitch`` px apart."""
    theta = np.deg2rad(rotation)
    ph, pw = page_shape[:2]
    k = pitch / cell_px / page_fill
    bw = k * (pw * abs(np.cos(theta)) + ph * abs(np.sin(theta)))
    bh = k * (pw * abs(np.sin(theta)) + ph * abs(np.cos(theta)))
    aspect = 4 / 3 if bw >= bh else 3 / 4
    width = int(max(bw, bh * aspect))
    return width, int(width / aspect)


def _random_photo_options(rng: np.random.Generator, page_shape: tuple[int, ...], cell_px: float) -> dict:
    """simulate_photo options drawn at random, sized so the cells come out 12-40 px apart."""
    cell_target = rng.uniform(12, 40)
    page_fill = float(rng.uniform(0.6, 0.9))
    rotation = float(rng.uniform(-30, 30)) if rng.random() < 0.7 else float(rng.uniform(-3, 3))
    return dict(
        rotation=rotation, perspective=float(rng.uniform(0, 0.08)), blur=float(rng.uniform(0, 1.5)),
        noise=float(rng.uniform(1, 6)), shadow=float(rng.uniform(0, 0.5)),
        jpeg_quality=int(rng.integers(60, 96)), background=str(rng.choice(["table", "cloth", "noise"])),
        out_size=photo_size(page_shape, cell_px, cell_target, page_fill, rotation), page_fill=page_fill,
        curl=float(rng.uniform(0, 0.008)) if rng.random() < 0.3 else 0.0,
        glare=float(rng.uniform(0.2, 0.6)) if rng.random() < 0.2 else 0.0,
    )


def _random_scan_options(rng: np.random.Generator) -> dict:
    return dict(rotation=float(rng.uniform(-4, 4)), scale=float(rng.uniform(0.5, 1.0)),
                noise=float(rng.uniform(0.5, 4)), jpeg_quality=int(rng.integers(70, 96)))


def random_case(seed: int, *, photo: bool | None = None, themes: dict[str, list[str]] = THEMES,
                **page) -> tuple[np.ndarray, dict]:
    """One random page from ``seed``: a simulated photo half the time (always when ``photo`` is True, never when
    False); otherwise the rendered page, or 30% of the time a simulated scan of it.

    Draws grid size (8x8..20x20, sometimes rectangular), font, lined/gridless, frame, inversion (rarely),
    word-list layout, style and box, paper tint, a footer, pen marks (15%: some words circled, scribbles), and
    for photos rotation (within 30 deg), perspective, paper curl, glare, blur, noise, shadow, JPEG quality and
    a size giving cells of 12-40 px.
    The truth's ``case`` field records every choice. ``page`` forces options of the printed page (render_page's)
    over the drawn ones, which are drawn all the same (the letter trainer prints some pages in other faces).
    ``themes``: the word lists a puzzle's words are drawn from (the word trainer's are not the benchmarks').
    """
    rng = np.random.default_rng(seed)
    rows = int(rng.integers(8, 21))
    cols = rows if rng.random() < 0.6 else int(np.clip(rows + rng.integers(-5, 6), 8, 20))
    theme, puzzle = random_puzzle(rng, rows, cols, themes)
    page_opts = _random_page_options(rng, theme) | page
    image, truth = render_page(puzzle, **page_opts)
    case: dict = {"seed": seed, "page": {k: v for k, v in page_opts.items() if k != "font_path"}}
    if rng.random() < 0.15:
        pen_opts = dict(circled=float(rng.uniform(0.2, 0.6)), scribbles=int(rng.integers(0, 3)))
        image, truth = add_pen_marks(image, truth, rng, **pen_opts)
        case["pen"] = pen_opts
    if photo if photo is not None else rng.random() < 0.5:
        photo_opts = _random_photo_options(rng, image.shape, page_opts["cell_px"])
        image, truth = simulate_photo(image, truth, rng, **photo_opts)
        case["photo"] = photo_opts
    elif rng.random() < 0.3:
        scan_opts = _random_scan_options(rng)
        image, truth = simulate_scan(image, truth, rng, **scan_opts)
        case["scan"] = scan_opts
    truth["case"] = case
    return image, truth


# ---------------------------------------------------------------------------------------------------------------
# Hard conditions: pages and photos the scanner finds difficult, each drawn from a seed


# Handwriting-style faces from the Debian packages the Makefile installs (fonts-dkg-handwriting, fonts-breip,
# fonts-sjfonts).
HAND_FONT_FILES = ("dkg.ttf", "Breip.ttf", "Delphine.ttf")  # not SteveHand: its capitals vary 2x in height
CONDITIONS = ("rotated", "lowercase", "dim", "small", "handwritten", "newsprint", "tiny", "nolist")


@functools.cache
def handwriting_fonts() -> tuple[str, ...]:
    """Paths of the installed handwriting-style fonts (the grid fonts when none is installed)."""
    found = {p.name: str(p) for p in FONT_DIR.rglob("*") if p.suffix in (".ttf", ".otf")}
    return tuple(found[name] for name in HAND_FONT_FILES if name in found) or available_fonts()


def rotate_quarter(image: np.ndarray, truth: dict, turns: int) -> tuple[np.ndarray, dict]:
    """The image turned clockwise by ``turns`` quarter turns, with no EXIF tag: the truth grid stays in reading
    order and its points (corners TL TR BR BL as read, list regions) move with the pixels."""
    turns %= 4
    h, w = image.shape[:2]
    w, h = w - 1, h - 1  # points are in pixel-centre coordinates: pixel (0, 0) goes to (h - 1, 0) on a turn
    turn = [np.eye(3), [[0, -1, h], [1, 0, 0], [0, 0, 1]], [[-1, 0, w], [0, -1, h], [0, 0, 1]],
            [[0, 1, 0], [-1, 0, w], [0, 0, 1]]][turns]
    turn = np.asarray(turn, dtype=np.float64)
    if turns:
        image = cv2.rotate(image, (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE)[turns - 1])
    new = _move_truth(truth, lambda pts: _map_points(turn, pts) if pts else [])
    if "page_to_photo" in truth:
        new["page_to_photo"] = (turn @ np.asarray(truth["page_to_photo"])).tolist()
    new["image_size"] = [image.shape[1], image.shape[0]]
    new["exif_orientation"] = 1
    new["notes"] = f"{truth['notes']}; turned {90 * turns} deg clockwise, no EXIF tag"
    return image, new


def print_on_newsprint(image: np.ndarray, rng: np.random.Generator, back: np.ndarray | None = None, *,
                       show_through: float = 0.12) -> np.ndarray:
    """A rendered page printed on grey newsprint: tinted fibrous paper, ink a little short of black, and the
    mirrored print of ``back`` (the other side of the sheet) showing through at ``show_through`` strength."""
    h, w = image.shape[:2]
    ink = 1 - image.astype(np.float32) / 255
    paper = np.array(rng.uniform([175, 190, 195], [205, 215, 220]), dtype=np.float32)
    fibre = cv2.GaussianBlur(rng.standard_normal((h, w), dtype=np.float32), (0, 0), 0.8) * 0.04
    mottle = 0.06 * (_smooth_field(rng, (h, w), (max(2, h // 60), max(2, w // 60))) - 0.5)
    light = (1 + fibre + mottle)[..., None]
    if back is not None:
        other = 1 - cv2.resize(cv2.flip(back, 1), (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        light = light * (1 - show_through * cv2.GaussianBlur(other, (0, 0), 1.2))
    out = paper * light * (1 - rng.uniform(0.8, 0.9) * ink)
    return out.clip(0, 255).astype(np.uint8)


def dim_light(image: np.ndarray, rng: np.random.Generator, *, exposure: float = 0.45, vignette: float = 0.5,
              motion: float = 3.0, noise: float = 8.0, jpeg_quality: int = 40) -> np.ndarray:
    """A photo taken at night under a lamp: underexposed by ``exposure``, a strong warm cast, corners darkened
    by up to ``vignette``, a straight motion streak ``motion`` px long, sensor noise (sigma in grey levels, partly
    colour noise) and strong JPEG. Geometry is unchanged, so the photo's truth still holds."""
    h, w = image.shape[:2]
    out = image.astype(np.float32) * exposure
    out *= np.array(rng.uniform([0.45, 0.7, 0.95], [0.65, 0.85, 1.0]), dtype=np.float32)
    yy, xx = np.ogrid[0:h, 0:w]
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    out *= (1 - vignette * np.clip(r2 / 2, 0, 1)).astype(np.float32)[..., None]
    if motion > 0:
        size = int(np.ceil(motion)) | 1
        kernel = np.zeros((size, size), np.float32)
        angle = rng.uniform(0, np.pi)
        dx, dy = np.cos(angle) * (size - 1) / 2, np.sin(angle) * (size - 1) / 2
        c = (size - 1) / 2
        cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
        out = cv2.filter2D(out, -1, kernel / kernel.sum())
    grain = (0.8 * rng.standard_normal((h, w, 1), dtype=np.float32)  # brightness noise, and some colour noise
             + 0.6 * rng.standard_normal((h, w, 3), dtype=np.float32))
    out = (out + grain * noise).clip(0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def condition_case(condition: str, seed: int, themes: dict[str, list[str]] = THEMES,
                   **page) -> tuple[np.ndarray, dict]:
    """One page or photo in a hard ``condition`` (one of CONDITIONS) from ``seed``; truth exact, in the sidecar
    schema, grid upper case in reading order; ``case`` records the condition, the seed and every choice.
    ``page`` forces options of the printed page (render_page's) over the condition's own choices, which are
    drawn all the same: the letter trainer asks for hand-lettered pages in lower case. ``themes``: as random_case.

    rotated: a random_case page or photo turned 90, 180 or 270 degrees with no EXIF tag. lowercase: grid and
    list in lower case. dim: a night photo under a lamp (low contrast, noise, motion blur, JPEG 30-50, warm
    cast, vignetting). small: the whole photo 640x480-800x600, cells 12-16 px apart. handwritten: handwriting
    fonts (60%) or print fonts, each letter jittered up to 8-15% of the pitch in position, size and angle.
    newsprint: 25x25 to 40x40 grids of small letters on grey newsprint with show-through. tiny: a large gridless
    grid in a thin outline box, cells 10-11 px apart. nolist: no word list printed (truth ``words`` are the
    hidden words). Every condition but nolist prints its list, in the same condition.
    """
    if condition not in CONDITIONS:
        raise BadInputError(f"unknown condition {condition!r}: choose from {', '.join(CONDITIONS)}")
    if page and condition == "rotated":
        raise BadInputError("a rotated case is an ordinary random page turned: it takes no page options")
    rng = np.random.default_rng([zlib.crc32(condition.encode()), seed])
    image, truth, case = _CONDITION_MAKERS[condition](rng, page, themes)
    truth["case"] = {"condition": condition, "seed": seed, **case}
    return image, truth


def _condition_page(rng: np.random.Generator, rows: int, cols: int, forced: dict, themes: dict[str, list[str]],
                    **overrides) -> tuple[np.ndarray, dict, dict]:
    """A random page of rows x cols, its words from one of ``themes``, with a printed list, the random choices
    overridden by ``overrides`` and then by ``forced``."""
    theme, puzzle = random_puzzle(rng, rows, cols, themes)
    opts = _random_page_options(rng, theme) | {"list_scale": float(rng.uniform(1.0, 1.4))}
    if opts["word_list_layout"] == "none":
        opts["word_list_layout"] = "below"
    opts.update(overrides)
    opts.update(forced)
    image, truth = render_page(puzzle, **opts, rng=rng)
    return image, truth, {"page": {k: v for k, v in opts.items() if k != "font_path"},
                          "font": Path(opts["font_path"]).name}


def _capture(rng: np.random.Generator, image: np.ndarray, truth: dict, cell_px: float, case: dict, *,
             photo: float = 0.5, scan: float = 0.25, **photo_overrides) -> tuple[np.ndarray, dict, dict]:
    """The page photographed (probability ``photo``), scanned (``scan``) or kept as rendered."""
    draw = rng.random()
    if draw < photo:
        opts = _random_photo_options(rng, image.shape, cell_px) | photo_overrides
        image, truth = simulate_photo(image, truth, rng, **opts)
        case["photo"] = opts
    elif draw < photo + scan:
        opts = _random_scan_options(rng)
        image, truth = simulate_scan(image, truth, rng, **opts)
        case["scan"] = opts
    return image, truth, case


def _grid_size(rng: np.random.Generator, low: int, high: int) -> tuple[int, int]:
    rows = int(rng.integers(low, high + 1))
    return rows, rows if rng.random() < 0.6 else int(np.clip(rows + rng.integers(-4, 5), low, high))


def _rotated(rng: np.random.Generator, page: dict, themes: dict[str, list[str]]) -> tuple[np.ndarray, dict, dict]:
    while True:  # a page that prints its list, so that reading the list turned is measured too
        image, truth = random_case(int(rng.integers(2**31)), themes=themes)
        if truth["word_list_region"]:
            break
    turns = int(rng.integers(1, 4))
    image, truth = rotate_quarter(image, truth, turns)
    return image, truth, {"turned": 90 * turns, "base": truth.pop("case")}


def _lowercase(rng: np.random.Generator, page: dict, themes: dict[str, list[str]]) -> tuple[np.ndarray, dict, dict]:
    image, truth, case = _condition_page(rng, *_grid_size(rng, 8, 20), page, themes, grid_case="lower",
                                         list_case="lower")
    return _capture(rng, image, truth, case["page"]["cell_px"], case)


def _dim(rng: np.random.Generator, page: dict, themes: dict[str, list[str]]) -> tuple[np.ndarray, dict, dict]:
    contrast = float(rng.uniform(0.55, 0.8))
    image, truth, case = _condition_page(rng, *_grid_size(rng, 8, 18), page, themes, inverted=False)
    image = (255 - contrast * (255 - image.astype(np.float32))).astype(np.uint8)  # grey ink on greyish paper
    pitch, fill, rotation = rng.uniform(18, 36), float(rng.uniform(0.6, 0.9)), float(rng.uniform(-20, 20))
    photo = dict(rotation=rotation, perspective=float(rng.uniform(0, 0.06)), blur=float(rng.uniform(0.4, 1.2)),
                 noise=0.0, shadow=float(rng.uniform(0, 0.4)), jpeg_quality=None,
                 background=str(rng.choice(["table", "cloth"])), page_fill=fill,
                 out_size=photo_size(image.shape, case["page"]["cell_px"], pitch, fill, rotation))
    image, truth = simulate_photo(image, truth, rng, **photo)
    light = _night_light(rng)
    image = dim_light(image, rng, **light)
    truth["notes"] += f"; at night: contrast {contrast:.2f}, " + ", ".join(f"{k} {v:.2f}" for k, v in light.items())
    return image, truth, case | {"contrast": contrast, "photo": photo, "light": light}


def _night_light(rng: np.random.Generator) -> dict:
    """dim_light options drawn at random, as the dim condition draws them."""
    return dict(exposure=float(rng.uniform(0.4, 0.65)), vignette=float(rng.uniform(0.3, 0.6)),
                motion=float(rng.uniform(1.5, 4)), noise=float(rng.uniform(4, 8)), jpeg_quality=int(rng.integers(30, 51)))


def in_condition(image: np.ndarray, condition: str, pitch: float, rng: np.random.Generator) -> tuple[np.ndarray, dict]:
    """An existing picture of a puzzle whose cells are ``pitch`` px apart put into ``condition``, as far as a
    finished picture can be: "dim" (grey ink, then a night photo as the dim condition takes it, its cells 18-36 px
    apart unless that makes the picture under 640 px long) or "small" (the whole picture 640-800 px long with
    cells at least 12-16 px apart, a little blur, JPEG). No picture is enlarged. Returns the picture and what was
    drawn; the grid keeps its rows and columns, so its truth still holds."""
    if condition == "dim":
        scale = min(1.0, max(float(rng.uniform(18, 36)) / pitch, 640 / max(image.shape[:2])))
        contrast = float(rng.uniform(0.55, 0.8))
        light = _night_light(rng)
        out = _scaled(image, scale)
        out = (255 - contrast * (255 - out.astype(np.float32))).astype(np.uint8)
        return dim_light(out, rng, **light), {"scale": scale, "contrast": contrast, "light": light}
    if condition == "small":
        scale = min(1.0, max(float(rng.uniform(12, 16)) / pitch, float(rng.uniform(640, 800)) / max(image.shape[:2])))
        blur, quality = float(rng.uniform(0.3, 0.7)), int(rng.integers(70, 91))
        out = cv2.GaussianBlur(_scaled(image, scale), (0, 0), blur)
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR), {"scale": scale, "blur": blur, "jpeg_quality": quality}
    raise BadInputError(f"cannot put a finished picture into condition {condition!r}: only dim or small")


def _scaled(image: np.ndarray, scale: float) -> np.ndarray:
    return image if scale >= 1.0 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def _small(rng: np.random.Generator, page: dict, themes: dict[str, list[str]]) -> tuple[np.ndarray, dict, dict]:
    image, truth, case = _condition_page(rng, *_grid_size(rng, 8, 15), page, themes,
                                         cell_px=float(rng.integers(30, 50)))
    width = int(rng.integers(640, 801))
    size = (width, width * 3 // 4)
    ph, pw = image.shape[:2]
    if ph > pw:
        size = size[::-1]
    rotation = float(rng.uniform(-8, 8))
    theta = np.deg2rad(rotation)
    cos, sin = abs(np.cos(theta)), abs(np.sin(theta))
    fit = min(size[0] / (pw * cos + ph * sin), size[1] / (pw * sin + ph * cos))  # page scale at page_fill 1
    pitch = float(rng.uniform(12, 16))
    fill = float(min(0.95, pitch / case["page"]["cell_px"] / fit))
    photo = _random_photo_options(rng, image.shape, case["page"]["cell_px"]) | dict(
        rotation=rotation, out_size=size, page_fill=fill, perspective=float(rng.uniform(0, 0.05)),
        blur=float(rng.uniform(0.3, 0.9)))
    image, truth = simulate_photo(image, truth, rng, **photo)
    return image, truth, case | {"photo": photo, "pitch": fill * fit * case["page"]["cell_px"]}


def _handwritten(rng: np.random.Generator, page: dict, themes: dict[str, list[str]]) -> tuple[np.ndarray, dict, dict]:
    fonts = handwriting_fonts() if rng.random() < 0.6 else available_fonts()  # or print letters placed by hand
    jitter = float(rng.uniform(0.08, 0.15))
    image, truth, case = _condition_page(rng, *_grid_size(rng, 8, 16), page, themes,
                                         font_path=str(rng.choice(fonts)), lined=bool(rng.random() < 0.3),
                                         inverted=False, jitter=jitter,
                                         letter_scale=float(rng.uniform(0.45, 0.6)),
                                         list_style=str(rng.choice(["plain", "numbered"])))  # some lack a bullet
    return _capture(rng, image, truth, case["page"]["cell_px"], case, photo=0.7, scan=0.15,
                    rotation=float(rng.uniform(-15, 15)))


def _newsprint(rng: np.random.Generator, page: dict, themes: dict[str, list[str]]) -> tuple[np.ndarray, dict, dict]:
    cell_px = float(rng.integers(20, 29))
    lined = bool(rng.random() < 0.2)
    image, truth, case = _condition_page(
        rng, *_grid_size(rng, 25, 40), page, themes, cell_px=cell_px, lined=lined, inverted=False,
        frame=int(rng.choice([0, 2, 3])),
        letter_scale=float(rng.uniform(0.42, 0.52) if lined else rng.uniform(0.48, 0.62)),  # ruled: clear of the lines
        word_list_layout="below", list_columns=int(rng.integers(4, 6)), paper=(255, 255, 255),
        list_scale=float(rng.uniform(1.3, 1.7)))
    back_puzzle = make_puzzle(rng, 30, 30, [])
    back, _ = render_page(back_puzzle, cell_px=cell_px)  # the other side of the sheet
    show = float(rng.uniform(0.06, 0.16))
    image = print_on_newsprint(image, rng, back, show_through=show)
    truth["notes"] += f"; grey newsprint, show-through {show:.2f}"
    image, truth, how = _at_pitch(rng, image, truth, cell_px, float(rng.uniform(14, 20)), scan_share=0.5,
                                  scan_tilt=2, scan_noise=(1, 4), scan_jpeg=(70, 91), photo_tilt=8,
                                  perspective=0.04, blur=(0.3, 0.9))
    return image, truth, case | {"show_through": show} | how


def _at_pitch(rng: np.random.Generator, image: np.ndarray, truth: dict, cell_px: float, pitch: float, *,
              scan_share: float, scan_tilt: float, scan_noise: tuple[float, float], scan_jpeg: tuple[int, int],
              photo_tilt: float, perspective: float, blur: tuple[float, float],
              photo_jpeg: tuple[int, int] | None = None) -> tuple[np.ndarray, dict, dict]:
    """The page scanned (probability ``scan_share``) or photographed flat-ish so its cells come out ``pitch`` px
    apart; returns the image, its truth and {"scan": options} or {"photo": options}."""
    if rng.random() < scan_share:
        scan = dict(rotation=float(rng.uniform(-scan_tilt, scan_tilt)), scale=pitch / cell_px,
                    noise=float(rng.uniform(*scan_noise)), jpeg_quality=int(rng.integers(*scan_jpeg)))
        image, truth = simulate_scan(image, truth, rng, **scan)
        return image, truth, {"scan": scan}
    photo = _random_photo_options(rng, image.shape, cell_px)
    photo |= dict(rotation=float(rng.uniform(-photo_tilt, photo_tilt)), perspective=float(rng.uniform(0, perspective)),
                  blur=float(rng.uniform(*blur)), curl=0.0, glare=0.0)
    if photo_jpeg:
        photo["jpeg_quality"] = int(rng.integers(*photo_jpeg))
    photo["out_size"] = photo_size(image.shape, cell_px, pitch, photo["page_fill"], photo["rotation"])
    image, truth = simulate_photo(image, truth, rng, **photo)
    return image, truth, {"photo": photo}


def _tiny(rng: np.random.Generator, page: dict, themes: dict[str, list[str]]) -> tuple[np.ndarray, dict, dict]:
    cell_px = float(rng.integers(28, 41))
    image, truth, case = _condition_page(rng, *_grid_size(rng, 18, 30), page, themes, cell_px=cell_px,
                                         lined=False, inverted=False, frame=max(2, round(cell_px / 10)),
                                         letter_scale=float(rng.uniform(0.5, 0.6)),
                                         list_scale=float(rng.uniform(1.3, 1.7)))
    pitch = float(rng.uniform(10, 11.5))
    image, truth, how = _at_pitch(rng, image, truth, cell_px, pitch, scan_share=0.6, scan_tilt=1.5,
                                  scan_noise=(1, 3), scan_jpeg=(80, 96), photo_tilt=5, perspective=0.03,
                                  blur=(0.2, 0.6), photo_jpeg=(80, 96))
    return image, truth, case | {"pitch": pitch} | how


def _nolist(rng: np.random.Generator, page: dict, themes: dict[str, list[str]]) -> tuple[np.ndarray, dict, dict]:
    image, truth, case = _condition_page(rng, *_grid_size(rng, 8, 20), page, themes, word_list_layout="none")
    return _capture(rng, image, truth, case["page"]["cell_px"], case)


_CONDITION_MAKERS = {"rotated": _rotated, "lowercase": _lowercase, "dim": _dim, "small": _small,
                     "handwritten": _handwritten, "newsprint": _newsprint, "tiny": _tiny, "nolist": _nolist}
