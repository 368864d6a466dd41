"""OCR of one 15x15 grid: our composite read vs the naive baseline (pytesseract called once per cell).

Same synthetic grids for every method (tools.synth fonts, lined and gridless, 20-56 px per cell drawn,
mild blur and noise, warped to 64 px cells as detect.rectify does). Prints per-method medians: wall time per
grid, CPU time of this process per grid, and cells right. The per-cell baseline is slow (one tesseract
process per cell), so it runs on a sample of cells per grid and its time is extrapolated to 225 cells.

    .venv/bin/python bench/ocr_speed.py [--grids 6] [--repeat 3] [--sample 25]
    .venv/bin/python bench/ocr_speed.py --corpus   # also: cells right per ../shared/corpus image

With --corpus, every word-search image of the corpus goes through detect.find_grid + detect.rectify (helper
C's code) and read_grid, and one line per image shows the cells read right against the truth sidecar.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pytesseract
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from tools import synth  # noqa: E402
from scanner.engine import get_engine  # noqa: E402
from scanner.ocr import DEFAULT_ALPHABET, read_grid  # noqa: E402
from conftest import CORPUS, corpus_items  # noqa: E402
from test_ocr import CELL, cells_right, rectified_grid  # noqa: E402  (the tests' grid renderer)

SIZE = 15


def grids(n: int) -> list[tuple[np.ndarray, list[str]]]:
    fonts = synth.available_fonts()
    out = []
    for i in range(n):
        rng = np.random.default_rng(1000 + i)
        out.append(rectified_grid(1000 + i, rows=SIZE, cols=SIZE, font=fonts[(5 * i) % len(fonts)],
                                  pitch=float(rng.choice([20, 28, 40, 56])), lined=i % 2 == 0,
                                  blur=float(rng.uniform(0, 0.8)), noise=float(rng.uniform(0, 6))))
    return out


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def ours(cases, engine_name: str, repeat: int) -> dict:
    engine = get_engine(engine_name)
    read_grid(cases[0][0], SIZE, SIZE, cell_px=CELL, engine=engine)  # warm-up (model load)
    walls, cpus, right = [], [], 0
    for gray, truth in cases:
        runs = [timed(lambda: read_grid(gray, SIZE, SIZE, cell_px=CELL, engine=engine)) for _ in range(repeat)]
        walls.append(statistics.median(r[1] for r in runs))
        cpus.append(statistics.median(r[2] for r in runs))
        right += cells_right(runs[0][0], truth)
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus),
            "right": right, "cells": len(cases) * SIZE * SIZE, "note": ""}


def per_cell_baseline(cases, sample: int) -> dict:
    """pytesseract.image_to_string on each cell crop, --psm 10, the binary's default model and engine."""
    config = f"--psm 10 -c tessedit_char_whitelist={DEFAULT_ALPHABET}"
    walls, right, seen = [], 0, 0
    for i, (gray, truth) in enumerate(cases):
        rng = np.random.default_rng(i)
        cells = [divmod(int(k), SIZE) for k in rng.choice(SIZE * SIZE, size=sample, replace=False)]
        start = time.perf_counter()
        for r, c in cells:
            crop = Image.fromarray(gray[r * CELL:(r + 1) * CELL, c * CELL:(c + 1) * CELL])
            text = pytesseract.image_to_string(crop, config=config).strip()
            right += text[:1] == truth[r][c]
            seen += 1
        walls.append((time.perf_counter() - start) * 1000 * SIZE * SIZE / sample)
    return {"wall": statistics.median(walls), "cpu": float("nan"), "right": right, "cells": seen,
            "note": f"{sample} cells/grid timed, x{SIZE * SIZE / sample:.1f} extrapolated; CPU is in subprocesses"}


def corpus_table() -> None:
    """OCR cells right per corpus image (detection and rectification by scanner.detect)."""
    from scanner import detect, load

    total = right = 0
    print(f"{'image':60s} {'kind':10s} {'shape':>7s} {'cells right':>16s} {'ocr ms':>7s}")
    for path, truth in corpus_items():
        image = load.load_image(path)
        name = str(path.relative_to(CORPUS))
        name = name if len(name) <= 60 else "..." + name[-57:]
        try:
            loc = detect.find_grid(image, str(path))
        except Exception as err:  # report and go on: this is a measurement
            print(f"{name:60s} {truth['kind']:10s} {'-':>7s} {'no grid: ' + str(err)[:40]}")
            continue
        if (loc.rows, loc.cols) != (truth["rows"], truth["cols"]):
            print(f"{name:60s} {truth['kind']:10s} {loc.rows:>3d}x{loc.cols:<3d} wrong shape")
            continue
        rectified, _ = detect.rectify(image, loc, cell_px=CELL)
        reading, wall, _ = timed(lambda: read_grid(rectified, loc.rows, loc.cols, cell_px=CELL))
        grid = [row.replace(" ", "").upper() for row in truth["grid"]]
        n, k = loc.rows * loc.cols, cells_right(reading, grid)
        total, right = total + n, right + k
        print(f"{name:60s} {truth['kind']:10s} {loc.rows:>3d}x{loc.cols:<3d} {k:>5d}/{n:<4d} {100 * k / n:5.1f}% {wall:7.0f}")
    if total:
        print(f"{'all':60s} {'':10s} {'':7s} {right:>5d}/{total:<4d} {100 * right / total:5.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3, help="timed reads per grid for our methods (median)")
    parser.add_argument("--sample", type=int, default=25, help="cells per grid for the per-cell baseline")
    parser.add_argument("--corpus", action="store_true", help="also print cells right per corpus image")
    args = parser.parse_args()
    cases = grids(args.grids)
    rows = [
        ("ours: tesserocr, one composite per grid", ours(cases, "tesserocr", args.repeat)),
        ("ours: pytesseract, one composite per grid", ours(cases, "pytesseract", args.repeat)),
        ("baseline: pytesseract per cell (psm 10)", per_cell_baseline(cases, args.sample)),
    ]
    base = rows[0][1]["wall"]
    print(f"OCR of a {SIZE}x{SIZE} grid, {args.grids} synthetic grids, medians per grid")
    print(f"{'method':44s} {'wall ms':>9s} {'cpu ms':>8s} {'x ours':>7s} {'cells right':>18s}  note")
    for name, r in rows:
        acc = f"{r['right']}/{r['cells']} {100 * r['right'] / r['cells']:.1f}%"
        cpu = "-" if np.isnan(r["cpu"]) else f"{r['cpu']:.0f}"
        print(f"{name:44s} {r['wall']:9.0f} {cpu:>8s} {r['wall'] / base:7.1f} {acc:>18s}  {r['note']}")
    if args.corpus:
        print()
        corpus_table()


if __name__ == "__main__":
    main()
