"""Train a letter classifier of scanner/classify.py and write its weights to scanner/models/.

Cells are cut from generated pages exactly as the scanner cuts them (rectify at the grid's corners, made a
little wrong on purpose as detection would; flatten; centre on the ink). The model of capitals learns from
ordinary pages, photos and scans (tools.synth.random_case) and the hard conditions dim, small, handwritten,
newsprint and tiny; the model of lower-case grids (--model lower) from the lowercase condition (pages, photos,
scans); the model of faint grids (--model faint) from night photos (the dim condition),
starting from the capitals model's weights (--start-from). Training seeds start at --first-seed (100000 by
default), clear of the seeds the benchmarks use. The network is trained with NumPy alone (two layers, Adam, a few
epochs); the held-out pages' accuracy is printed per source. Windows are shifted, turned and scaled a little at
random in each epoch.

    .venv/bin/python tools/train_letters.py [--model capitals|lower|faint] [--pages 1360] [--epochs 14]
                                            [--hidden 384] [--tilt 8] [--cache cells.npz]
                                            [--start-from weights.npz] [--rate 2e-3] [--first-seed N]

The README gives the command each shipped model was trained with.
"""
from __future__ import annotations

import argparse
import functools
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scanner import classify, ocr  # noqa: E402
from scanner.detect import GridLocation, rectify  # noqa: E402
from scanner.pipeline import CELL_PX  # noqa: E402
from tools.synth import FONT_DIR, condition_case, random_case  # noqa: E402

SOURCES = {"capitals": ("random", "dim", "handwritten", "small", "handwritten", "newsprint", "handwritten", "tiny",
                        "random", "handwritten"),  # hand lettering varies most: it needs the most pages
           "lower": ("lowercase",), "faint": ("dim",)}
CORNER_JITTER = 0.08  # of a cell: how far detection's corners may be from the truth
SCALE_PER_DEGREE = 0.01  # a window turned by up to --tilt degrees is also scaled by up to 1 +- this per degree
MEASURED_VS_DRAWN = (0.85, 1.3)  # measured letter height over the font's cap height: the plausible range
# Faces the scanner's generator never prints in, for --more-faces: real puzzles come in every face, and a model that
# learnt only the generator's 25 reads other faces worse (the corpus's under night light). Debian packages:
# fonts-roboto fonts-open-sans fonts-lato fonts-cantarell fonts-crosextra-carlito fonts-crosextra-caladea
# fonts-texgyre fonts-comic-neue fonts-hack fonts-inconsolata fonts-linuxlibertine fonts-go fonts-quicksand
# fonts-noto-mono fonts-firacode fonts-oxygen fonts-jura fonts-mononoki fonts-league-spartan fonts-anonymous-pro
# fonts-courier-prime fonts-gfs-didot fonts-cabin fonts-sil-andika fonts-sil-gentium fonts-sil-charis
# fonts-comfortaa fonts-paratype fonts-ebgaramond fonts-manrope fonts-inter fonts-jetbrains-mono fonts-play
# fonts-tuffy fonts-averia-sans-gwf fonts-fantasque-sans fonts-yanone-kaffeesatz
TEX_FONT_DIR = Path("/usr/share/texmf/fonts")  # where fonts-texgyre puts its faces
MORE_FACES = (
    "Roboto-Regular.ttf", "Roboto-Bold.ttf", "OpenSans-Regular.ttf", "OpenSans-Bold.ttf", "Lato-Regular.ttf",
    "Lato-Bold.ttf", "Cantarell-Regular.otf", "Cantarell-Bold.otf", "Carlito-Regular.ttf", "Carlito-Bold.ttf",
    "Caladea-Regular.ttf", "Caladea-Bold.ttf", "texgyreadventor-regular.otf", "texgyrebonum-regular.otf",
    "texgyrecursor-bold.otf", "texgyreheros-regular.otf", "texgyreheros-bold.otf", "texgyreheroscn-regular.otf",
    "texgyrepagella-regular.otf", "texgyreschola-regular.otf", "texgyretermes-regular.otf",
    "texgyretermes-bold.otf", "ComicNeue-Regular.otf", "ComicNeue-Bold.otf", "Hack-Regular.ttf", "Hack-Bold.ttf",
    "Inconsolata.otf", "LinBiolinum_R.otf", "LinBiolinum_RB.otf", "LinLibertine_R.otf", "LinLibertine_RB.otf",
    "Go-Regular.ttf", "Go-Bold.ttf", "Go-Mono.ttf", "Quicksand-Regular.ttf", "Quicksand-Bold.ttf",
    "NotoSansMono-Regular.ttf", "NotoSansMono-Bold.ttf", "FiraCode-Regular.ttf", "FiraCode-Bold.ttf",
    "Oxygen-Sans.ttf", "Oxygen-Sans-Bold.ttf", "Jura-Regular.otf", "Jura-Bold.otf", "mononoki-Regular.ttf",
    "LeagueSpartan-Regular.otf", "LeagueSpartan-Bold.otf", "Anonymous Pro.ttf", "Anonymous Pro B.ttf",
    "Courier Prime.otf", "Courier Prime Sans.otf", "GFSDidot.otf", "Cabin-Regular.otf", "Cabin-Bold.otf",
    "Andika-Regular.ttf", "Gentium-R.ttf", "CharisSIL-Regular.ttf", "CharisSIL-Bold.ttf", "Comfortaa-Regular.ttf",
    "Comfortaa-Bold.ttf", "PTS55F.ttf", "PTS75F.ttf", "PTF55F.ttf", "PTM55F.ttf", "EBGaramond12-Regular.otf",
    "Manrope-Regular.ttf", "Manrope-Bold.ttf", "Inter-Regular.otf", "Inter-Bold.otf", "JetBrainsMono-Regular.ttf",
    "Play-Regular.ttf", "Play-Bold.ttf", "Tuffy.ttf", "Tuffy_Bold.ttf", "AveriaSansGWF-Regular.ttf",
    "FantasqueSansMono-Regular.ttf", "YanoneKaffeesatz-Regular.otf", "YanoneKaffeesatz-Bold.otf",
)


@functools.cache
def more_faces() -> tuple[str, ...]:
    """Paths of the MORE_FACES installed on this machine."""
    found = {p.name: str(p) for folder in (FONT_DIR, TEX_FONT_DIR) for p in folder.rglob("*")
             if p.suffix in (".ttf", ".otf")}
    return tuple(found[name] for name in MORE_FACES if name in found)


def page_cells(index: int, model: str, first_seed: int, more: float) -> tuple[str, np.ndarray, np.ndarray]:
    """The source name, cell windows and labels (class indices) of generated page ``index``, printed in one of
    more_faces() with probability ``more``."""
    source = SOURCES[model][index % len(SOURCES[model])]
    seed = first_seed + index
    rng = np.random.default_rng([seed, 1])
    page = {}
    if more_faces() and rng.random() < more:
        page["font_path"] = more_faces()[rng.integers(len(more_faces()))]
    image, truth = random_case(seed, **page) if source == "random" else condition_case(source, seed, **page)
    rng = np.random.default_rng(seed)
    rows, cols = truth["rows"], truth["cols"]
    corners = np.asarray(truth["corners"], dtype=np.float64)
    pitch = np.linalg.norm(corners[1] - corners[0]) / cols
    corners += rng.uniform(-CORNER_JITTER, CORNER_JITTER, corners.shape) * pitch
    rectified, _ = rectify(image, GridLocation(corners, rows, cols, bool(truth.get("inverted"))), cell_px=CELL_PX)
    flat = ocr.prepared(rectified, CELL_PX)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    height = ocr.letter_height(ocr.grid_masks(flat, rows, cols, CELL_PX), CELL_PX)
    drawn = drawn_height(truth) if model != "lower" else None  # lower case: x-height and ascenders, not caps
    if drawn and not MEASURED_VS_DRAWN[0] <= height / drawn <= MEASURED_VS_DRAWN[1]:
        height = drawn * sum(MEASURED_VS_DRAWN) / 2
    windows, _ = classify.cell_windows(flat, cells, CELL_PX, height)
    letters = "".join(truth["grid"])
    keep = np.array([ch in classify.CLASSES for ch in letters])
    labels = np.array([classify.CLASSES.find(ch) for ch in letters])
    return source, windows[keep], labels[keep]


def drawn_height(truth: dict) -> float | None:
    """The cap height the page's font was drawn at, in the rectified grid's pixels (None if not recorded).

    The height measured on a night photo can be far off (letter blobs merge with grain and rule fragments: 1.4
    times the drawn height on some pages, where clean pages measure 1.0-1.2 times it: blur, round overshoot),
    and a window cut at the wrong height teaches the network a letter at the wrong size."""
    page = truth["case"].get("page", {})
    if "letter_scale" not in page:
        return None
    pitch_x, pitch_y = page["cell_px"], page.get("row_px") or page["cell_px"]
    return page["letter_scale"] * min(pitch_x, pitch_y) * CELL_PX / pitch_y


def dataset(indices: range, model: str, first_seed: int, more: float) -> tuple[list[str], np.ndarray, np.ndarray]:
    with Pool(2) as pool:
        parts = pool.starmap(page_cells, [(i, model, first_seed, more) for i in indices], chunksize=4)
    sources = [s for s, w, _ in parts for _ in range(len(w))]
    return sources, np.concatenate([w for _, w, _ in parts]), np.concatenate([y for _, _, y in parts])


def jittered(x: np.ndarray, rng: np.random.Generator, tilt: float) -> np.ndarray:
    """Each window moved by up to 2 px each way (the centring is not exact), turned by up to ``tilt`` degrees
    and scaled to match (hand lettering leans and varies in size; measured letter heights are a little off)."""
    out = np.empty_like(x)
    centre = (x.shape[2] / 2 - 0.5, x.shape[1] / 2 - 0.5)
    for i, (dy, dx, angle, scale) in enumerate(zip(*rng.integers(-2, 3, (2, len(x))),
                                                   rng.uniform(-tilt, tilt, len(x)),
                                                   1 + rng.uniform(-1, 1, len(x)) * SCALE_PER_DEGREE * tilt)):
        m = cv2.getRotationMatrix2D(centre, float(angle), float(scale))
        m[:, 2] += (dx, dy)
        out[i] = cv2.warpAffine(x[i], m, (x.shape[2], x.shape[1]), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0.0)
    return out


def train(x: np.ndarray, y: np.ndarray, epochs: int, hidden: int, tilt: float, seed: int = 0,
          start: dict[str, np.ndarray] | None = None, rate: float = 2e-3) -> dict[str, np.ndarray]:
    """A ReLU layer and a softmax layer, trained by Adam on cross-entropy with light weight decay, from random
    weights or from ``start``'s."""
    rng = np.random.default_rng(seed)
    n_in, n_out = x.shape[1] * x.shape[2], len(classify.CLASSES)
    params = {k: v.copy() for k, v in start.items()} if start else {
        "w1": rng.standard_normal((n_in, hidden)).astype(np.float32) * np.sqrt(2 / n_in),
        "b1": np.zeros(hidden, np.float32),
        "w2": rng.standard_normal((hidden, n_out)).astype(np.float32) * np.sqrt(2 / hidden),
        "b2": np.zeros(n_out, np.float32)}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    step, batch, decay = 0, 128, 1e-4
    for epoch in range(epochs):
        lr = rate * (0.5 ** (epoch / max(1, epochs / 3)))
        order = rng.permutation(len(x))
        xs = jittered(x[order], rng, tilt).reshape(len(x), -1)
        ys = y[order]
        loss = 0.0
        for start in range(0, len(xs), batch):
            xb, yb = xs[start:start + batch], ys[start:start + batch]
            h = np.maximum(xb @ params["w1"] + params["b1"], 0.0)
            logits = h @ params["w2"] + params["b2"]
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            loss += float(-np.log(p[np.arange(len(yb)), yb] + 1e-9).sum())
            d = p
            d[np.arange(len(yb)), yb] -= 1
            d /= len(yb)
            grads = {"w2": h.T @ d, "b2": d.sum(0)}
            dh = (d @ params["w2"].T) * (h > 0)
            grads |= {"w1": xb.T @ dh, "b1": dh.sum(0)}
            step += 1
            for k in params:
                g = grads[k] + decay * params[k]
                m[k] = 0.9 * m[k] + 0.1 * g
                v[k] = 0.999 * v[k] + 0.001 * g * g
                params[k] -= lr * (m[k] / (1 - 0.9 ** step)) / (np.sqrt(v[k] / (1 - 0.999 ** step)) + 1e-8)
        print(f"epoch {epoch + 1}: loss {loss / len(xs):.3f}", flush=True)
    return params


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, default=1360, help="generated pages to train on")
    ap.add_argument("--held-out", type=int, default=80, help="further pages to test on")
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--hidden", type=int, default=384, help="ReLU units")
    ap.add_argument("--tilt", type=float, default=8.0, help="degrees: how far training windows are turned")
    ap.add_argument("--model", choices=list(classify.MODELS), default="capitals")
    ap.add_argument("--cache", help="keep the generated cells in this .npz (and reuse them when it exists)")
    ap.add_argument("--start-from", help="a model's .npz to start from (fine-tuning) instead of random weights")
    ap.add_argument("--rate", type=float, default=2e-3, help="Adam's first learning rate")
    ap.add_argument("--first-seed", type=int, default=100_000)
    ap.add_argument("--more-faces", type=float, default=0.0, metavar="SHARE",
                    help="print this share of the pages in one of MORE_FACES (faces the generator never uses)")
    args = ap.parse_args()
    t0 = time.time()
    cache = Path(args.cache) if args.cache else None
    if cache and cache.exists():
        with np.load(cache) as data:
            x, y, tx, ty, test_sources = (data[k] for k in ("x", "y", "tx", "ty", "test_sources"))
    else:
        _, x, y = dataset(range(args.pages), args.model, args.first_seed, args.more_faces)
        test_sources, tx, ty = dataset(range(args.pages, args.pages + args.held_out), args.model, args.first_seed,
                                       args.more_faces)
        if cache:
            np.savez_compressed(cache, x=x, y=y, tx=tx, ty=ty, test_sources=np.array(test_sources))
    print(f"{len(x)} training cells, {len(tx)} held-out cells ({time.time() - t0:.0f} s)", flush=True)
    start = None
    if args.start_from:
        with np.load(args.start_from) as data:
            start = {k: data[k] for k in data.files}
        start_right = classify.forward(start, tx).argmax(axis=1) == ty
        print(f"held-out, the starting weights: {start_right.mean():.2%}", flush=True)
    params = train(x, y, args.epochs, args.hidden, args.tilt, start=start, rate=args.rate)
    classify.MODELS[args.model].parent.mkdir(exist_ok=True)
    np.savez_compressed(classify.MODELS[args.model], **{k: v.astype(np.float32) for k, v in params.items()})
    classify._weights.cache_clear()
    right = classify.probabilities(tx, args.model).argmax(axis=1) == ty
    for source in sorted(set(test_sources)):
        mask = np.asarray(test_sources) == source
        print(f"held-out {source:12s} {right[mask].mean():.2%} of {mask.sum()} cells")
    print(f"held-out all          {right.mean():.2%}  ({time.time() - t0:.0f} s in all)")


if __name__ == "__main__":
    main()
