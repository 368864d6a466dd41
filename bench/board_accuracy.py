"""Boards from pictures: tiles right per image and overall, and the end-to-end time of a 4x4 board photo.

Ours: scanner.board (find the tile lattice, read each tile upright, special tiles, corner points).
Baseline: the same picture read as a word search (`solve_image(..., puzzle="wordsearch")`), what the scanner did
before it knew boards: a tile counts right when its cell's letter equals the tile (digrams never can).

    .venv/bin/python bench/board_accuracy.py [--synthetic 120] [--seed 0] [--runs 7] [--no-baseline]

Data: ../shared/corpus boards (`puzzle: boggle` sidecars; their truth has no points), synthetic boards from
tools.synth_board.random_board (Wordament screenshots, Ruzzle-style screenshots, Boggle tray photos, in turn),
and samples/boards/tray.jpg for the speed. Times are medians; CPU is this process's CPU time (the machine is
shared, so wall time varies with load).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scanner.board import find_board, read_board  # noqa: E402
from scanner.engine import get_engine  # noqa: E402
from scanner.export import encode_image  # noqa: E402
from scanner.load import load_image  # noqa: E402
from scanner.pipeline import annotate, solve_image  # noqa: E402
from tools.synth_board import random_board  # noqa: E402
from solver.dictionary import load_dictionary  # noqa: E402
from solver.errors import WordSearchError  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
PHOTO = ROOT / "samples" / "boards" / "tray.jpg"


def board_items(folder: Path) -> list[tuple[Path, dict]]:
    """(image, truth) for every board sidecar under folder."""
    items = []
    for sidecar in sorted(folder.rglob("*.json")):
        image = sidecar.with_suffix("")
        truth = json.loads(sidecar.read_text())
        if truth.get("puzzle") == "boggle" and image.is_file():
            items.append((image, truth))
    return items


def ours(image, engine) -> tuple[list[list[str]] | None, list[list[int | None]] | None]:
    loc = find_board(image)
    if loc is None:
        return None, None
    reading, _ = read_board(image, loc, engine)
    return reading.tiles, reading.points


def baseline(image, engine) -> list[list[str]] | None:
    try:
        puzzles = solve_image(image, source="bench", words=[], engine=engine, puzzle="wordsearch")
    except WordSearchError:
        return None
    except Exception as err:  # the word-search reader failing on a board counts as nothing read
        print(f"  (baseline failed: {type(err).__name__}: {err})")
        return None
    return [list(row) for row in puzzles[0].letters]


def tiles_right(read: list[list[str]] | None, truth: dict) -> int:
    if read is None or len(read) != truth["rows"] or any(len(row) != truth["cols"] for row in read):
        return 0
    return sum(a == b for got, want in zip(read, truth["tiles"]) for a, b in zip(got, want))


def points_right(read, truth: dict) -> tuple[int, int]:
    """(right, scored) over the tiles whose truth has points."""
    want = truth.get("points")
    if read is None or not want or len(read) != len(want):
        return 0, sum(p is not None for row in want or [] for p in row)
    pairs = [(a, b) for got, w in zip(read, want) for a, b in zip(got, w) if b is not None]
    return sum(a == b for a, b in pairs), len(pairs)


def accuracy(items, engine, with_baseline: bool, label: str) -> dict:
    """Print one line per image; return the totals."""
    tot = {"images": 0, "tiles": 0, "ours": 0, "base": 0, "pts": 0, "pts_n": 0, "failures": []}
    for name, image, truth in items:
        read, points = ours(image, engine)
        right = tiles_right(read, truth)
        base = tiles_right(baseline(image, engine), truth) if with_baseline else 0
        p_right, p_n = points_right(points, truth)
        n = truth["rows"] * truth["cols"]
        tot["images"] += 1
        tot["tiles"] += n
        tot["ours"] += right
        tot["base"] += base
        tot["pts"] += p_right
        tot["pts_n"] += p_n
        wrong = [] if read is None else [f"{t}->{g or '?'}" for gr, tr in zip(read, truth["tiles"])
                                         for g, t in zip(gr, tr) if g != t]
        if right < n:
            tot["failures"].append(f"{name}: " + ("no board found" if read is None else ", ".join(wrong)))
        print(f"{label:10s} {name[:56]:56s} {right:3d}/{n:<3d} {base if with_baseline else '-':>4}"
              f" {f'{p_right}/{p_n}' if p_n else '-':>7}")
    return tot


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.2f}% ({a}/{b})" if b else "-"


def speed(path: Path, runs: int, engine_name: str) -> dict[str, float]:
    """Median wall and CPU ms of load -> find -> read -> solve -> annotate -> encode JPEG."""
    engine = get_engine(engine_name)
    load_dictionary()  # prepared once, from the cache, as in a warm process
    walls, cpus = [], []
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        image = load_image(path)
        puzzles = solve_image(image, source=str(path), engine=engine)
        encode_image(annotate(image, puzzles), "out.jpg")
        walls.append(1000 * (time.perf_counter() - w0))
        cpus.append(1000 * (time.process_time() - c0))
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--synthetic", type=int, default=120, metavar="N", help="synthetic boards to read")
    ap.add_argument("--seed", type=int, default=0, help="first seed of the synthetic boards")
    ap.add_argument("--runs", type=int, default=7, help="timed runs of the board photo")
    ap.add_argument("--no-baseline", action="store_true", help="skip the word-search reader (faster)")
    args = ap.parse_args()
    engine = get_engine("tesserocr")
    with_baseline = not args.no_baseline

    print(f"{'set':10s} {'image':56s} {'tiles':>7s} {'base':>4s} {'points':>7s}")
    corpus = [(str(p.relative_to(CORPUS)), load_image(p), t) for p, t in board_items(CORPUS)] if CORPUS.is_dir() else []
    totals = {"corpus Wordament": accuracy(corpus, engine, with_baseline, "corpus")}
    by_kind: dict[str, list] = {}
    for seed in range(args.seed, args.seed + args.synthetic):
        image, truth = random_board(seed)
        kind = truth["puzzle_id"].removeprefix("syn-")
        by_kind.setdefault(kind, []).append((f"seed {seed} {truth['rows']}x{truth['cols']}: {truth['notes']}",
                                             image, truth))
    for kind, items in by_kind.items():
        totals[f"synthetic {kind}"] = accuracy(items, engine, with_baseline, kind)
    synthetic = [t for k, t in totals.items() if k.startswith("synthetic")]
    if synthetic:
        totals["synthetic, all"] = {key: sum(t[key] for t in synthetic) for key in
                                    ("images", "tiles", "ours", "base", "pts", "pts_n")} | {"failures": []}

    print()
    print("| set | images | tiles right, ours | tiles right, baseline (word-search reader) | points right |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, t in totals.items():
        base = pct(t["base"], t["tiles"]) if with_baseline else "-"
        print(f"| {name} | {t['images']} | {pct(t['ours'], t['tiles'])} | {base} | {pct(t['pts'], t['pts_n'])} |")
    failures = [f for t in totals.values() for f in t["failures"]]
    if failures:
        print("\nwrong tiles (truth->read):")
        for f in failures:
            print("  " + f)

    if PHOTO.is_file() and args.runs:
        print(f"\nend to end, {PHOTO.relative_to(ROOT)} (load, find, read, solve with the shipped dictionary, "
              f"annotate, encode JPEG), median of {args.runs}:")
        ours_t = speed(PHOTO, args.runs, "tesserocr")
        base_t = speed(PHOTO, args.runs, "pytesseract")
        print("| engine | wall ms | CPU ms (this process) | ratio (wall) |")
        print("| --- | ---: | ---: | ---: |")
        print(f"| ours: tesserocr (target <= 800 ms) | {ours_t['wall']:.0f} | {ours_t['cpu']:.0f} | 1.00x |")
        print(f"| baseline: pytesseract | {base_t['wall']:.0f} | {base_t['cpu']:.0f} | "
              f"{base_t['wall'] / ours_t['wall']:.2f}x |")


if __name__ == "__main__":
    main()
