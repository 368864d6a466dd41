"""Grid detection accuracy and speed on the corpus word searches: rows x cols found vs truth, ms per image.

Usage: .venv/bin/python bench/detect_accuracy.py [--corpus DIR] [--draw OUTDIR] [--repeat N] [--synth N]
                                                 [--conditions N [--seed S] [--workers 2]]
Prints one line per image and a summary. The times are the medians of N runs of find_grids (load excluded):
wall-clock ms, and CPU ms of this process (all threads; steadier than wall time on a shared machine).
With --synth N it runs N random cases of tools.synth.random_case (seeds 0..N-1) instead, and also reports the
worst corner error in cell pitches against the generator's exact corners. With --conditions N [--seed S] it runs
N pages of each hard condition of tools.synth.condition_case (seeds S..S+N-1) in --workers processes and prints
the pages whose grid shape comes out wrong, and the count right per condition.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scanner.detect import find_grids  # noqa: E402
from scanner.load import load_image  # noqa: E402


def corpus_items(corpus: Path) -> list[tuple[Path, dict]]:
    items = []
    for sidecar in sorted(corpus.rglob("*.json")):
        truth = json.loads(sidecar.read_text())
        image = sidecar.with_suffix("")
        if truth.get("puzzle") == "wordsearch" and image.exists():
            items.append((image, truth))
    return items


def draw(image: np.ndarray, grids, path: Path) -> None:
    out = image.copy()
    thick = max(2, round(max(image.shape[:2]) / 400))
    for g in grids:
        q = g.corners
        cv2.polylines(out, [q.astype(np.int32)], True, (0, 0, 255), thick)
        src = np.array([[0, 0], [g.cols, 0], [g.cols, g.rows], [0, g.rows]], dtype=np.float32)
        H = cv2.getPerspectiveTransform(src, q.astype(np.float32))
        cells = np.array([[c + 0.5, r + 0.5, 1] for r in range(g.rows) for c in range(g.cols)]) @ H.T
        for x, y in cells[:, :2] / cells[:, 2:3]:
            cv2.circle(out, (int(x), int(y)), thick * 2, (0, 200, 0), -1)
    s = min(1.0, 1400 / max(out.shape[:2]))
    out = cv2.resize(out, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(path), out)


def synth_main(n: int, draw_dir: Path | None, photo: bool | None) -> None:
    from tools.synth import random_case

    ok, times, errs = 0, [], []
    print(f"{'seed':>5s} {'found':>7s} {'truth':>7s} {'ok':>3s} {'corner err':>10s} {'ms':>6s}  case")
    for seed in range(n):
        image, truth = random_case(seed, photo=photo)
        t0 = time.perf_counter()
        grids = find_grids(image)
        ms = 1000 * (time.perf_counter() - t0)
        times.append(ms)
        found = f"{grids[0].rows}x{grids[0].cols}" if grids else "none"
        want = f"{truth['rows']}x{truth['cols']}"
        good = found == want
        err = float("nan")
        if good:
            true = np.asarray(truth["corners"], dtype=np.float64)
            pitch = np.linalg.norm(true[1] - true[0]) / truth["cols"]
            err = float(np.max(np.linalg.norm(grids[0].corners - true, axis=1)) / pitch)
            errs.append(err)
            good = err < 0.35
        ok += good
        c = truth["case"]
        desc = ("lined" if c["page"]["lined"] else "gridless") + (" inverted" if c["page"]["inverted"] else "")
        if "photo" in c:
            ph = c["photo"]
            desc += f" photo rot {ph['rotation']:.0f} persp {ph['perspective']:.2f} blur {ph['blur']:.1f}"
        h, w = image.shape[:2]
        print(f"{seed:5d} {found:>7s} {want:>7s} {'yes' if good else 'NO':>3s} {err:10.2f} {ms:6.0f}  "
              f"{w}x{h} {desc}")
        if draw_dir and not good:
            draw_dir.mkdir(parents=True, exist_ok=True)
            draw(image, grids, draw_dir / f"synth{seed:03d}.png")
    print(f"\nshape right and corners within 0.35 pitch: {ok}/{n} ({100 * ok / max(1, n):.1f}%); corner error "
          f"median {statistics.median(errs) if errs else float('nan'):.2f} pitch; "
          f"detect ms median {statistics.median(times):.0f}, max {max(times):.0f}")


def condition_shape(args: tuple[str, int]) -> tuple[str, int, str, str]:
    """(condition, seed, shape found, shape wanted) of one generated hard page; a page turned sideways is right
    with its rows and columns swapped (detection finds the grid as shot; which way up is decided later)."""
    from tools.synth import condition_case

    condition, seed = args
    image, truth = condition_case(condition, seed)
    grids = find_grids(image)
    want = (truth["rows"], truth["cols"])
    if truth["case"].get("turned") in (90, 270):
        want = want[::-1]
    return condition, seed, f"{grids[0].rows}x{grids[0].cols}" if grids else "none", f"{want[0]}x{want[1]}"


def conditions_main(n: int, first: int, workers: int) -> None:
    """find_grids alone on N pages of each hard condition (seeds first..first+N-1), in ``workers`` processes:
    the pages it gets wrong, and the count right per condition."""
    from multiprocessing import Pool

    from tools.synth import CONDITIONS

    jobs = [(condition, seed) for condition in CONDITIONS for seed in range(first, first + n)]
    right: dict[str, int] = dict.fromkeys(CONDITIONS, 0)
    with Pool(workers) as pool:
        for condition, seed, found, want in pool.imap(condition_shape, jobs, chunksize=2):
            right[condition] += found == want
            if found != want:
                print(f"{condition:12s} seed {seed:6d}: found {found:>7s}, truth {want}", flush=True)
    print("\n" + "  ".join(f"{c} {k}/{n}" for c, k in right.items()))
    print(f"shape right: {sum(right.values())}/{len(jobs)} (seeds {first}-{first + n - 1})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--draw", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default=None, help="substring of the image path")
    ap.add_argument("--synth", type=int, default=0, help="run this many random synthetic cases instead")
    ap.add_argument("--photo", choices=["yes", "no", "mixed"], default="mixed")
    ap.add_argument("--conditions", type=int, default=0, metavar="N",
                    help="N pages of each hard condition of tools.synth.condition_case instead (shape only)")
    ap.add_argument("--seed", type=int, default=0, help="--conditions: the first seed")
    ap.add_argument("--workers", type=int, default=2, help="--conditions: processes")
    args = ap.parse_args()
    if args.conditions:
        conditions_main(args.conditions, args.seed, args.workers)
        return
    if args.synth:
        synth_main(args.synth, args.draw, {"yes": True, "no": False, "mixed": None}[args.photo])
        return
    items = [(p, t) for p, t in corpus_items(args.corpus) if not args.only or args.only in str(p)]
    ok, times, cpu_times = 0, [], []
    print(f"{'image':60s} {'found':>7s} {'truth':>7s} {'ok':>3s} {'ms':>6s} {'cpu ms':>6s}")
    for k, (path, truth) in enumerate(items):
        image = load_image(path)
        runs, cpu_runs = [], []
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            grids = find_grids(image)
            runs.append(1000 * (time.perf_counter() - t0))
            cpu_runs.append(1000 * (time.process_time() - c0))
        ms, cpu = statistics.median(runs), statistics.median(cpu_runs)
        times.append(ms)
        cpu_times.append(cpu)
        found = f"{grids[0].rows}x{grids[0].cols}" if grids else "none"
        want = f"{truth['rows']}x{truth['cols']}"
        good = found == want
        ok += good
        name = str(path.relative_to(args.corpus))
        print(f"{name[-60:]:60s} {found:>7s} {want:>7s} {'yes' if good else 'NO':>3s} {ms:6.0f} {cpu:6.0f}"
              + (f"  (+{len(grids) - 1} more)" if len(grids) > 1 else ""))
        if args.draw:
            args.draw.mkdir(parents=True, exist_ok=True)
            draw(image, grids, args.draw / f"{k:02d}.png")
    print(f"\nshape exactly right: {ok}/{len(items)} ({100 * ok / max(1, len(items)):.1f}%); "
          f"detect ms median {statistics.median(times):.0f}, max {max(times):.0f}; "
          f"cpu ms median {statistics.median(cpu_times):.0f}, max {max(cpu_times):.0f}")


if __name__ == "__main__":
    main()
