"""Scanner speed on samples/photo.jpg (12 MP phone photo of a 15x15 puzzle): per-stage and end-to-end medians.

Usage: .venv/bin/python bench/scan_speed.py [--image PATH] [--runs N] [--no-baseline] [--no-cli]

End to end = load + detect + rectify/OCR + solve/repair + annotate + encode and write the JPEG, in one process
with the OCR engine already started (its one-off start-up is printed apart). Columns: ours (tesserocr, in
process), baseline (pytesseract: the system tesseract binary, one call per grid image), ratio, the target,
and one single (first) run. Also times the whole `wordsearch solve` command as a fresh process.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scanner.engine import get_engine  # noqa: E402
from scanner.export import write_image_atomic  # noqa: E402
from scanner.pipeline import annotate, solve_file  # noqa: E402

STAGES = ("load", "detect", "orient", "ocr", "solve", "annotate", "write", "total")
TARGETS_MS = {"ocr": 200.0, "total": 1000.0}


def one_run(image: Path, words: list[str], engine, out: Path) -> dict[str, float]:
    t0, cpu0 = time.perf_counter(), time.process_time()
    picture, puzzles = solve_file(image, words=words, engine=engine)
    answer = annotate(picture, puzzles)
    t1 = time.perf_counter()
    write_image_atomic(out, answer, inputs=[image])
    t2 = time.perf_counter()
    stages = {k: float(puzzles[0].timings_ms.get(k) or 0.0) for k in ("load", "detect", "orient", "ocr", "solve", "annotate")}
    stages["write"] = (t2 - t1) * 1000
    stages["total"] = (t2 - t0) * 1000
    stages["cpu"] = (time.process_time() - cpu0) * 1000  # this process's CPU time: less sensitive to a busy machine
    return stages


def measure(image: Path, words: list[str], engine_name: str, runs: int, out: Path) -> tuple[dict, dict, float]:
    """(median ms per stage, first run ms per stage, engine start-up ms)."""
    t0 = time.perf_counter()
    engine = get_engine(engine_name)
    startup = (time.perf_counter() - t0) * 1000
    results = [one_run(image, words, engine, out) for _ in range(runs)]
    medians = {k: statistics.median(r[k] for r in results) for k in (*STAGES, "cpu")}
    return medians, results[0], startup


def cli_seconds(image: Path, words: list[str], out: Path, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "scanner.cli", "solve", str(image), "--words", ",".join(words),
                        "-o", str(out)], check=True, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> int:
    import json

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--image", type=Path, default=ROOT / "samples" / "photo.jpg")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-baseline", action="store_true", help="skip the pytesseract runs")
    ap.add_argument("--no-cli", action="store_true", help="skip timing the command as a fresh process")
    args = ap.parse_args()
    truth = json.loads(args.image.with_name(args.image.name + ".json").read_text())
    words = truth["words"]

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "answer.jpg"
        ours, first, startup = measure(args.image, words, "tesserocr", args.runs, out)
        base = measure(args.image, words, "pytesseract", args.runs, out)[0] if not args.no_baseline else None
        cli = cli_seconds(args.image, words, out, 3) if not args.no_cli else None

    print(f"{args.image.name}: {truth['rows']}x{truth['cols']} grid, {truth['image_size'][0]}x"
          f"{truth['image_size'][1]} px, median of {args.runs} runs (ms)")
    print(f"{'stage':10s} {'ours':>9s} {'baseline':>9s} {'ratio':>7s} {'target':>8s} {'one run':>9s}")
    for stage in STAGES:
        b = f"{base[stage]:9.1f}" if base else f"{'-':>9s}"
        ratio = f"{base[stage] / ours[stage]:6.2f}x" if base and ours[stage] > 0 else f"{'-':>7s}"
        target = f"{TARGETS_MS[stage]:8.0f}" if stage in TARGETS_MS else f"{'':8s}"
        print(f"{stage:10s} {ours[stage]:9.1f} {b} {ratio} {target} {first[stage]:9.1f}")
    print(f"end-to-end CPU time of this process (tesserocr runs in it): median {ours['cpu']:.1f} ms; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"engine start-up (once per process): {startup:.1f} ms")
    if cli is not None:
        print(f"`wordsearch solve {args.image.name} -o answer.jpg` as a fresh process: median of 3 = {cli:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
