"""Batch throughput: pages per minute for a PDF of 15x15 printables rendered at 200 dpi, 1 and 2 workers.

    .venv/bin/python bench/batch_speed.py [--pages 16] [--runs 3] [--words given|page]

Each page is a different 15x15 puzzle (ruled, title, instructions, word list below, US-letter page); the PDF's
pages are rendered at 200 dpi inside the workers (1700x2200 px). `--words page` (default) reads each page's own
word list; `--words given` makes every page from one theme's words and passes that list instead. Every run is a fresh `run_batch(..., force=True)`, so the
time includes starting the worker processes and writing every output, summary.csv and answer-keys.pdf.
Prints one line per run and the median table; the target is >= 60 pages/min on this 2-core machine.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import synth  # noqa: E402
from scanner.batch import Options, PageTask, run_batch, run_page  # noqa: E402

TARGET = 60.0


def make_pdf(path: Path, pages: int, one_theme: bool) -> list[list[str]]:
    """A PDF of `pages` printables whose pages are US letter, so 200 dpi rendering gives 1700x2200 px.
    Each page has its own theme's words, or all pages share the first theme's words when `one_theme`."""
    rng = np.random.default_rng(2026)
    themes = list(synth.THEMES)
    images, word_lists = [], []
    for k in range(pages):
        theme = themes[0 if one_theme else k % len(themes)]
        words = [w for w in synth.THEMES[theme] if len(synth.letters_of(w)) <= 14][:16]
        puzzle = synth.make_puzzle(rng, 15, 15, words)
        fonts = synth.available_fonts()
        image, _ = synth.render_page(puzzle, font_path=fonts[k % len(fonts)], cell_px=80, lined=True, frame=4,
                                     title=f"{theme} Word Search",
                                     instructions=synth.INSTRUCTIONS[0], letter_page=True)
        images.append(Image.fromarray(image[:, :, ::-1]))
        word_lists.append(words)
    images[0].save(path, save_all=True, append_images=images[1:], resolution=images[0].width / 8.5)
    return word_lists


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=16)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--words", choices=("page", "given"), default="page")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        doc = Path(tmp) / "worksheets.pdf"
        word_lists = make_pdf(doc, args.pages, one_theme=args.words == "given")
        words = word_lists[0] if args.words == "given" else None  # batch gives one list to every page
        cpu = []  # CPU seconds per page, in this process: what the machine's load cannot inflate
        for k in range(1, args.pages + 1):
            t0 = time.process_time()
            run_page(PageTask(str(doc), k, f"cpu-p{k}"), Options(tuple(words) if words else None))
            cpu.append(time.process_time() - t0)
        per_page = statistics.median(cpu)
        print(f"CPU per page (render + solve + annotate + encode, one process): median {per_page:.2f} s "
              f"-> {60 / per_page:.0f} pages/min per free core; load average now {os.getloadavg()[0]:.1f}")
        table = []
        for workers in (1, 2):
            rates = []
            for run in range(args.runs):
                t0 = time.perf_counter()
                report = run_batch([doc], Path(tmp) / "out", words=words, workers=workers, force=True)
                seconds = time.perf_counter() - t0
                rate = 60.0 * report.pages / seconds
                found = sum(int(r["words_found"] or 0) for r in report.rows)
                listed = sum(int(r["words_listed"] or 0) for r in report.rows)
                print(f"workers={workers} run={run + 1}: {report.pages} pages in {seconds:.1f} s = {rate:.1f} "
                      f"pages/min ({report.ok} ok, {report.failed} failed; words {found}/{listed})")
                for row in report.rows:
                    if row["status"] == "failed":
                        print(f"  failed: {row['error']}")
                rates.append(rate)
            table.append((workers, statistics.median(rates)))

    print(f"\nword list: {'read from each page' if words is None else 'given'}; {args.pages} pages, "
          f"15x15, 200 dpi; median of {args.runs} runs")
    print(f"{'workers':>7}  {'pages/min':>9}  {'target':>6}  {'ratio':>5}  {'vs 1 worker':>11}")
    for workers, rate in table:
        print(f"{workers:>7}  {rate:>9.1f}  {TARGET:>6.0f}  {rate / TARGET:>5.2f}  {rate / table[0][1]:>11.2f}")


if __name__ == "__main__":
    main()
