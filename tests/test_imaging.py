"""The image primitives the stages share (scanner.imaging), on drawn images with known answers."""
from __future__ import annotations

import cv2
import numpy as np

from scanner import imaging
from tools import synth
from scanner.detect import find_grids, rectify


def _page(dark_ink: bool = True, shadow: bool = False) -> np.ndarray:
    """A 400x400 page of letters; optionally white on black, optionally with a strong shadow over one half."""
    page = np.full((400, 400), 230, np.uint8)
    for y in range(40, 400, 60):
        for x in range(30, 400, 60):
            cv2.putText(page, "E", (x, y), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 20, 3)
    if not dark_ink:
        page = 250 - page
    if shadow:
        page = (page * np.linspace(1.0, 0.35, 400)[None, :]).astype(np.uint8)
    return page


def test_flatten_evens_out_a_shadow() -> None:
    """After dividing by the paper's local level, paper is near white on both the lit and the shaded side, and
    ink stays dark on both."""
    page = _page(shadow=True)
    flat = imaging.flatten(page, imaging.paper(page, 61, box=True))
    ink = _page() < 128
    for side in (slice(0, 100), slice(300, 400)):
        assert np.median(flat[:, side][~ink[:, side]]) > 215  # the shaded paper was ~90 before
        assert np.median(flat[:, side][ink[:, side]]) < 140


def test_paper_methods_agree_on_clean_paper() -> None:
    """Max and median estimates (with shrinking and smoothing) both find the paper's level, and a bad method
    name is refused."""
    page = _page()
    for level in (imaging.paper(page, 41), imaging.paper(page, 15, method="median", shrink=4, premedian=3,
                                                         sigma=2.0)):
        assert level.shape == page.shape and level.dtype == np.float32
        assert abs(float(np.median(level)) - 230) < 8
    try:
        imaging.paper(page, 15, method="mean")
    except ValueError as err:
        assert "mean" in str(err)
    else:
        raise AssertionError("an unknown method was accepted")


def test_light_on_dark_whatever_the_lighting() -> None:
    """Dark ink on light paper is not light-on-dark, white letters on black are, with or without a shadow;
    the judgement can be limited to a region."""
    assert not imaging.light_on_dark(_page(), 60)
    assert not imaging.light_on_dark(_page(shadow=True), 60)
    assert imaging.light_on_dark(_page(dark_ink=False), 60)
    assert imaging.light_on_dark(_page(dark_ink=False, shadow=True), 60)
    mixed = np.hstack([_page(), _page(dark_ink=False)])
    right = np.zeros(mixed.shape, bool)
    right[:, 400:] = True
    assert imaging.light_on_dark(mixed, 60, right) and not imaging.light_on_dark(mixed, 60, ~right)


def test_glare_on_a_blurred_ruled_grid_is_not_light_print() -> None:
    """A small photo of a ruled grid under glare (tools.synth condition small, seed 41), rectified dark on
    light: its paper's brightest pixels stood out from the ground as far as its blurred letters did, and the
    reader inverted it and read 18 of its 64 cells. Such a tie goes to dark print, the commoner."""
    image, _ = synth.condition_case("small", 41)
    loc = find_grids(image)[0]
    rectified, _ = rectify(image, loc, cell_px=64)
    assert not imaging.light_on_dark(rectified, 64)


def test_blockiness_tells_strong_jpeg_from_light_jpeg_and_a_pixel_font() -> None:
    """A noisy page saved at JPEG quality 30 shows its 8-px squares, the same page at 90 or unsaved does not; a
    lattice of letters drawn on an 8-px pitch steps at several phases and is not taken for JPEG; deblocking
    makes the strong JPEG's squares fade."""
    page = cv2.GaussianBlur(_page(shadow=True), (0, 0), 1.0)
    page = np.clip(page + np.random.default_rng(0).normal(0, 6, page.shape), 0, 255).astype(np.uint8)

    def saved(quality: int) -> np.ndarray:
        return cv2.imdecode(cv2.imencode(".jpg", page, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_GRAYSCALE)

    strong = saved(30)
    assert imaging.blockiness(strong) >= imaging.BLOCKY
    assert imaging.blockiness(saved(90)) < imaging.BLOCKY
    assert imaging.blockiness(page) < 1.2
    pixel_font = np.full((400, 400), 255, np.uint8)
    for y in range(0, 400, 8):
        for x in range(0, 400, 8):
            pixel_font[y + 1:y + 6, x + 3:x + 5] = 0
            pixel_font[y + 1:y + 3, x + 1:x + 7] = 0
    assert imaging.blockiness(pixel_font) == 1.0
    assert imaging.blockiness(imaging.deblock(strong)) < 0.7 * imaging.blockiness(strong)


def test_height_spread() -> None:
    """Capitals are even (spread 1.0); x-height letters beside ascenders spread about 1.4."""
    assert imaging.height_spread(np.full(20, 30.0)) == 1.0
    assert 1.3 < imaging.height_spread(np.array([20.0] * 10 + [28.0] * 10)) <= 1.4


def test_grain_tells_a_grainy_page_from_a_clean_one() -> None:
    """Noise on the paper raises the grain measure well above a clean page's; letters alone do not."""
    clean = _page()
    noisy = np.clip(clean + np.random.default_rng(0).normal(0, 12, clean.shape), 0, 255).astype(np.uint8)
    assert imaging.grain(clean) < 0.5 < 3.0 < imaging.grain(noisy)
    assert imaging.grain(np.zeros((50, 50), np.uint8)) == 0.0  # no paper at all


def test_sharpen_steepens_a_soft_edge_and_keeps_flat_areas() -> None:
    """An unsharp mask makes a blurred step steeper (overshooting to the clip limits) and leaves flat paper and
    flat ink as they were."""
    step = np.full((40, 80), 230, np.uint8)
    step[:, 40:] = 30
    soft = cv2.GaussianBlur(step, (0, 0), 3)
    sharp = imaging.sharpen(soft, 3, 3.0)
    assert sharp.dtype == np.uint8 and sharp.shape == soft.shape
    assert np.abs(np.diff(sharp[20].astype(int))).max() > np.abs(np.diff(soft[20].astype(int))).max()
    assert sharp[20, 5] == soft[20, 5] and sharp[20, 75] == soft[20, 75]


def test_edge_width_grows_with_blur() -> None:
    """A slightly soft step from paper to ink takes about 3 px, a blurred one several times longer; a binary step
    or a blank page has no pixel in between."""
    step = np.full((40, 80), 255, np.uint8)
    step[:, 40:] = 0
    crisp = imaging.edge_width(cv2.GaussianBlur(step, (0, 0), 1))
    soft = imaging.edge_width(cv2.GaussianBlur(step, (0, 0), 4))
    assert 2.0 <= crisp <= 4.0 and soft > 2.5 * crisp
    assert imaging.edge_width(step) == 0.0 and imaging.edge_width(np.full((40, 80), 255, np.uint8)) == 0.0



def _pen_page(ink: tuple[int, int, int], pen: tuple[int, int, int] | None, cast: tuple[float, float, float],
              zoom: int = 1) -> np.ndarray:
    """A BGR page of letters printed in ``ink``, a ``pen`` ellipse (BGR) round a row of them when given, all under
    a lamp's colour ``cast`` (per-channel factors) and slightly blurred as a photo is; cells 60 px, times ``zoom``."""
    page = np.full((400, 400, 3), 235, np.uint8)
    for y in range(40, 400, 60):
        for x in range(30, 400, 60):
            cv2.putText(page, "E", (x, y), cv2.FONT_HERSHEY_SIMPLEX, 1.2, ink, 3)
    if pen is not None:
        cv2.ellipse(page, (200, 88), (190, 30), 0, 0, 360, pen, 4, cv2.LINE_AA)
    page = cv2.GaussianBlur(page, (0, 0), 1.0)
    page = cv2.resize(page, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_LINEAR)
    return np.clip(page * np.array(cast), 0, 255).astype(np.uint8)


def test_pen_round_the_letters_is_made_light_and_the_print_kept() -> None:
    """Blue and red pen circling a row of printed letters (a partly solved puzzle) turn light in the grey picture,
    with cells of 60 px and of 240 px (strokes looked for shrunk), while the letters stay as dark as plain grey
    makes them; under an orange lamp's cast with no pen, and for a grid printed in red, with or without pen, the
    picture is plain grey throughout."""
    for pen in ((170, 60, 20), (40, 40, 200)):
        for zoom in (1, 4):
            page = _pen_page((20, 20, 20), pen, (1.0, 1.0, 1.0), zoom)
            gray = cv2.cvtColor(page, cv2.COLOR_BGR2GRAY)
            stroke = cv2.ellipse(np.zeros(gray.shape, np.uint8), (200 * zoom, 88 * zoom), (190 * zoom, 30 * zoom),
                                 0, 0, 360, 1, 2 * zoom) > 0
            letters = (_pen_page((20, 20, 20), None, (1.0, 1.0, 1.0), zoom)[:, :, 0] < 100) & ~cv2.dilate(
                stroke.astype(np.uint8), np.ones((9 * zoom, 9 * zoom), np.uint8)).astype(bool)
            out = imaging.without_pen(page, gray, 60.0 * zoom)
            assert np.median(out[stroke]) > np.median(gray[stroke]) + 60, (pen, zoom)
            assert np.array_equal(out[letters], gray[letters])
    for page in (_pen_page((20, 20, 20), None, (0.45, 0.75, 1.0)), _pen_page((40, 40, 200), None, (1, 1, 1)),
                 _pen_page((40, 40, 200), (170, 60, 20), (1, 1, 1))):
        gray = cv2.cvtColor(page, cv2.COLOR_BGR2GRAY)
        assert np.array_equal(imaging.without_pen(page, gray, 60.0), gray)


def test_pen_is_judged_on_the_grid_alone() -> None:
    """A turned page's grid box takes in a corner of red-brown table: judged over the whole box, the table's colour
    makes the print look coloured and the pen stays; judged over the grid (``region``) the pen turns light and the
    table is left as it was."""
    page = _pen_page((20, 20, 20), (40, 40, 200), (1.0, 1.0, 1.0))
    region = np.ones(page.shape[:2], bool)
    region[:, 300:] = False
    page[:, 300:] = (60, 80, 150)  # the table
    gray = cv2.cvtColor(page, cv2.COLOR_BGR2GRAY)
    assert np.array_equal(imaging.without_pen(page, gray, 60.0), gray)
    out = imaging.without_pen(page, gray, 60.0, region)
    stroke = cv2.ellipse(np.zeros(gray.shape, np.uint8), (200, 88), (190, 30), 0, 0, 360, 1, 2) > 0
    stroke[:, 290:] = False
    assert np.median(out[stroke]) > np.median(gray[stroke]) + 60
    assert np.array_equal(out[:, 310:], gray[:, 310:])
