"""Train the word reader of scanner/wordread.py and write its weights to scanner/models/words.npz.

Words are cut from generated pages exactly as the scanner cuts them: the page around the grid is prepared as the
list reader prepares it (scanner.wordlist._prepare, at the grid's corners made a little wrong on purpose, as
detection would), and each listed word's box (tools.synth truth ``word_boxes``, and ``entry_boxes`` with an
entry's number or bullet) is cut with scanner.wordread.crop, its edges moved at random as the spotter's blobs
of blurred ink would have them. The pages come from every condition of tools.synth.condition_case (night photos
and hand lettering most) and ordinary pages, photos and scans, a share of them printed in faces the generator
never uses (tools.train_letters.more_faces). Their words are NOT the generator's themes, which every benchmark
and test draws from: they are common English words (wordfreq), random strings of letters and pairs of words,
so that the reader reads letters, not a vocabulary it has seen.

The network (convolutions, a bidirectional LSTM, CTC) is trained with PyTorch, which the scanner itself does not
need: `.venv/bin/pip install torch==2.13.0` first. The held-out words' accuracy is printed per source: read
freely, and picked from their own word and 40 others of about their length (as the spotter picks among the
grid's words).

    .venv/bin/python tools/train_words.py [--pages 3000] [--epochs 12] [--cache words.npz] [--first-seed 200000]
        [--sources dim,handwritten,...] [--also earlier-words.npz] [--start-from scanner/models/words.npz]
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

from scanner import wordlist, wordread, wordspot  # noqa: E402
from solver.errors import WordSearchError  # noqa: E402
from tools.synth import THEMES, condition_case, letters_of, random_case  # noqa: E402
from tools.train_letters import more_faces  # noqa: E402

SOURCES = ("dim", "handwritten", "dim", "small", "handwritten", "lowercase", "random", "dim", "newsprint",
           "handwritten", "tiny", "rotated", "dim", "handwritten", "random", "small")
CORNER_JITTER = 0.08  # of a cell
EDGE_JITTER = ((-0.15, 0.08), (-0.08, 0.15), (-0.3, 0.1), (-0.1, 0.4))
"""How far each edge of a word's box moves (top, bottom, left, right), in the box's heights: blurred ink spreads
past a word's letters, and a faint first or last letter falls outside its blob."""
QUANT = 100.0  # a view is stored as uint8: (value + 0.5) * QUANT
MORE_FACES = 0.35  # share of pages printed in a face the generator never uses
CHANNELS, HIDDEN = (24, 48, 64, 96, 128), 96  # the network's size: its convolutions' channels, the LSTM's units


@functools.cache
def vocabulary() -> tuple[str, ...]:
    """Common English words of 3-12 letters, none of the generator's theme words nor their plurals."""
    from wordfreq import top_n_list

    themed = {letters_of(w) for words in THEMES.values() for w in words}
    themed |= {w + "S" for w in themed} | {w + "ES" for w in themed}
    words = {w.upper() for w in top_n_list("en", 60000) if w.isascii() and w.isalpha() and 3 <= len(w) <= 12}
    return tuple(sorted(words - themed))


def draw_words(rng: np.random.Generator, n: int) -> list[str]:
    """``n`` entries for a page's list: mostly words, some random strings of letters, some pairs of words."""
    words = vocabulary()
    out = []
    while len(out) < n:
        r = rng.random()
        if r < 0.15:
            out.append("".join(rng.choice(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), int(rng.integers(3, 11)))))
        elif r < 0.25:
            first, second = (words[i] for i in rng.integers(len(words), size=2))
            if len(first) + len(second) <= 12:
                out.append(f"{first}{'-' if rng.random() < 0.2 else ' '}{second}")
        else:
            out.append(words[rng.integers(len(words))])
    return out


def symbols(text: str) -> str:
    """The symbols the network is taught for printed ``text``: capitals, digits, a bullet as a full stop."""
    text = text.upper().replace("\u2022", ".")
    return "".join(ch for ch in text if ch in wordread.SYMBOLS)


def page_words(index: int, first_seed: int, sources: tuple[str, ...] = SOURCES
               ) -> tuple[str, list[np.ndarray], list[str]]:
    """(source, uint8 views, labels) of the listed words of generated page ``index``, its kind the index's turn
    in ``sources``."""
    source = sources[index % len(sources)]
    seed = first_seed + index
    rng = np.random.default_rng([seed, 3])
    entries = draw_words(rng, 40)
    themes = {entries[0].title(): entries[1:]}
    page = {}
    if source != "rotated" and more_faces() and rng.random() < MORE_FACES:
        page["font_path"] = more_faces()[rng.integers(len(more_faces()))]
    try:
        if source == "random":
            image, truth = random_case(seed, themes=themes, **page)
        else:
            image, truth = condition_case(source, seed, themes=themes, **page)
    except WordSearchError:  # words that cannot each be placed once
        return source, [], []
    if not truth.get("word_boxes"):
        return source, [], []
    corners = np.asarray(truth["corners"], np.float64)
    pitch = float(np.linalg.norm(corners[1] - corners[0]) / truth["cols"])
    corners += rng.uniform(-CORNER_JITTER, CORNER_JITTER, corners.shape) * pitch
    prepared = wordlist._prepare(image, [corners], corners, pitch)
    if prepared is None:
        return source, [], []
    flat, T, _ = prepared
    views, labels = [], []

    def cut(box: tuple, text: str) -> None:
        views.append(np.clip((wordread.crop(flat, box) + 0.5) * QUANT, 0, 255).astype(np.uint8))
        labels.append(symbols(text))

    boxes = []  # (the word's box, the entry's box, the entry as printed) in the prepared page's px
    for word, word_quad, entry_quad in zip(truth["words"], truth["word_boxes"], truth["entry_boxes"]):
        box, entry = (_box(quad, T) for quad in (word_quad, entry_quad))
        if box[3] - box[1] >= 3 and box[0] >= 0 and box[1] >= 0 and box[2] <= flat.shape[1] \
                and box[3] <= flat.shape[0]:
            boxes.append((box, entry, _label(truth, word), word))
    for box, entry, label, word in boxes:
        for quad_box, text, copies in ((box, word, 2), (entry, label, int(label != word))):
            h = quad_box[3] - quad_box[1]
            for _ in range(copies):
                moves = np.array([rng.uniform(a, b) for a, b in EDGE_JITTER]) * h
                cut((quad_box[0] + moves[2], quad_box[1] + moves[0], quad_box[2] + moves[3], quad_box[3] + moves[1]),
                    text)
    # and as the spotter finds them: the blobs of ink that hold a whole entry or its word and nothing more
    if boxes:
        h = float(np.median([b[3] - b[1] for b, *_ in boxes]))
        for blob in wordspot.word_boxes(flat, h):
            for box, entry, label, word in boxes:
                text = _held(blob, box, entry, label, word)
                if text:
                    cut(blob, text)
    return source, views, labels


def _box(quad: list, T: np.ndarray) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) round ``quad`` (page px) mapped by ``T``."""
    q = cv2.perspectiveTransform(np.asarray(quad, np.float64)[None], T)[0]
    return (*q.min(axis=0), *q.max(axis=0))


def _held(blob: tuple, box: tuple, entry: tuple, label: str, word: str) -> str | None:
    """What ``blob`` holds of an entry (its word's ``box``, the whole ``entry`` box, printed ``label``): the word,
    or the whole entry, when it holds all of it and no more than a little round it; else None."""
    h = box[3] - box[1]
    if not (blob[1] <= box[1] + 0.3 * h and blob[3] >= box[3] - 0.3 * h and blob[1] >= box[1] - 0.5 * h
            and blob[3] <= box[3] + 0.5 * h and blob[2] >= box[2] - 0.3 * h and blob[2] <= box[2] + 0.5 * h):
        return None
    if abs(blob[0] - box[0]) <= 0.3 * h:
        return word
    if label != word and abs(blob[0] - entry[0]) <= 0.3 * h:
        return label
    return None


def _label(truth: dict, word: str) -> str:
    """The entry as printed: its number or bullet and the word (tools.synth._list_label's styles)."""
    case = truth.get("case", {})
    page = case.get("page") or case.get("base", {}).get("page", {})
    style = page.get("list_style", "plain")
    k = truth["words"].index(word)
    return {"numbered": f"{k + 1}. {word}", "bullet": f"\u2022 {word}"}.get(style, word)


def build(pages: int, first_seed: int, workers: int, sources: tuple[str, ...] = SOURCES) -> dict[str, np.ndarray]:
    """The views, labels and sources of ``pages`` generated pages, as arrays for np.savez."""
    t = time.time()
    with Pool(workers) as pool:
        done = pool.starmap(page_words, [(i, first_seed, sources) for i in range(pages)], chunksize=4)
    views = [v for _, vs, _ in done for v in vs]
    labels = [lab for _, _, ls in done for lab in ls]
    sources = [s for s, vs, _ in done for _ in vs]
    page_of = [i for i, (_, vs, _) in enumerate(done) for _ in vs]
    print(f"{len(views)} words from {pages} pages in {time.time() - t:.0f} s")
    widths = np.array([v.shape[1] for v in views])
    return {"pixels": np.concatenate(views, axis=1), "widths": widths, "labels": np.array(labels),
            "sources": np.array(sources), "pages": np.array(page_of)}


def _joined(first: dict, then: dict) -> dict:
    """Two runs' words (see build) as one, ``then``'s pages numbered after ``first``'s."""
    out = {k: np.concatenate([first[k], then[k]], axis=1 if k == "pixels" else 0) for k in first}
    out["pages"] = np.concatenate([first["pages"], then["pages"] + first["pages"].max() + 1])
    return out


def batches(widths: np.ndarray, index: np.ndarray, size: int, rng: np.random.Generator) -> list[np.ndarray]:
    """``index`` in batches of about ``size`` views of about one width, in random order."""
    order = index[np.argsort(widths[index] + rng.uniform(0, 8, len(index)))]
    out = [order[i:i + size] for i in range(0, len(order), size)]
    rng.shuffle(out)
    return out


def stacked(data: dict, starts: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(len(k), 1, HEIGHT, widest) float32 views ``k``, padded on the right with paper."""
    widths = data["widths"][k]
    out = np.zeros((len(k), 1, wordread.HEIGHT, int(widths.max())), np.float32)
    for j, (i, w) in enumerate(zip(k, widths)):
        out[j, 0, :, :w] = data["pixels"][:, starts[i]:starts[i] + w] / QUANT - 0.5
    return out


def train(data: dict, args: argparse.Namespace) -> None:
    """Train the network on ``data`` (see build), print the held-out accuracy after each epoch, write the
    weights (batch norms folded into the convolutions) to ``args.out``."""
    import torch
    from torch import nn
    from torch.nn import functional as F

    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    classes = 1 + len(wordread.SYMBOLS)

    class Net(nn.Module):
        def __init__(self, channels=CHANNELS, pools=(2, 2, 1, 1, 1), hidden=HIDDEN):
            super().__init__()
            ins = (1,) + channels[:-1]
            self.convs = nn.ModuleList(nn.Conv2d(a, b, 3, padding=1) for a, b in zip(ins, channels))
            self.norms = nn.ModuleList(nn.BatchNorm2d(b) for b in channels)
            self.pools = pools
            self.lstm = nn.LSTM(channels[-1], hidden, bidirectional=True, batch_first=True)
            self.out = nn.Linear(2 * hidden, classes)

        def forward(self, x):
            for conv, norm, pool in zip(self.convs, self.norms, self.pools):
                x = F.max_pool2d(F.relu(norm(conv(x))), (2, pool))
            x, _ = self.lstm(x.squeeze(2).transpose(1, 2))
            return self.out(x).log_softmax(-1)

    starts = np.concatenate([[0], np.cumsum(data["widths"])[:-1]])
    codes = [np.array([wordread.SYMBOLS.index(ch) + 1 for ch in lab], np.int64) for lab in data["labels"]]
    usable = np.array([0 < len(c) and w // wordread.STRIDE >= 1.2 * len(c) + 1 for c, w in zip(codes, data["widths"])])
    held = data["pages"] >= data["pages"].max() + 1 - args.held_out
    train_k, test_k = np.flatnonzero(usable & ~held), np.flatnonzero(usable & held)
    print(f"training on {len(train_k)} words, {len(test_k)} held out")
    net = Net()
    if args.start_from:
        read(net, args.start_from)
    opt = torch.optim.Adam(net.parameters(), lr=args.rate)
    steps = args.epochs * (len(train_k) // args.batch + 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.rate, total_steps=steps, pct_start=0.1)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    for epoch in range(args.epochs):
        net.train()
        t, losses = time.time(), []
        for k in batches(data["widths"], train_k, args.batch, rng):
            x = torch.from_numpy(augmented(stacked(data, starts, k), rng))
            stretch = float(rng.uniform(0.8, 1.25))
            width = max(wordread.STRIDE * 4, int(x.shape[3] * stretch) // wordread.STRIDE * wordread.STRIDE)
            x = F.interpolate(x, size=(wordread.HEIGHT, width), mode="bilinear", align_corners=False)
            lengths = torch.from_numpy(np.minimum(np.maximum(
                (data["widths"][k] * width / data["widths"][k].max()).astype(int) // wordread.STRIDE, 1),
                width // wordread.STRIDE))
            targets = torch.from_numpy(np.concatenate([codes[i] for i in k]))
            target_lengths = torch.tensor([len(codes[i]) for i in k])
            logp = net(x).transpose(0, 1)  # (T, B, C)
            loss = ctc(logp, targets, lengths, target_lengths)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 5.0)
            opt.step()
            sched.step()
            losses.append(float(loss))
        write(net, args.out)
        print(f"epoch {epoch + 1}: loss {np.mean(losses):.3f}, {time.time() - t:.0f} s; "
              + held_out(data, starts, test_k, args.out))


def augmented(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Views ``x`` with their contrast, paper level and grain changed a little at random."""
    n = len(x)
    gain = rng.uniform(0.7, 1.2, (n, 1, 1, 1))
    shift = rng.uniform(-0.1, 0.1, (n, 1, 1, 1))
    noise = rng.standard_normal(x.shape).astype(np.float32) * rng.uniform(0, 0.12, (n, 1, 1, 1))
    return (x * gain + shift + noise).astype(np.float32)


def write(net, path: Path) -> None:
    """The network's weights as scanner.wordread reads them: convolutions with their batch norms folded in,
    channels last."""
    weights = {}
    for k, (conv, norm, pool) in enumerate(zip(net.convs, net.norms, net.pools)):
        scale = (norm.weight / (norm.running_var + norm.eps).sqrt()).detach().numpy()
        w = conv.weight.detach().numpy() * scale[:, None, None, None]
        weights[f"conv{k}.w"] = w.reshape(w.shape[0], -1).T
        weights[f"conv{k}.b"] = (norm.bias.detach().numpy()
                                 + (conv.bias.detach().numpy() - norm.running_mean.numpy()) * scale)
        weights[f"conv{k}.pool"] = np.array(pool)
    lstm = net.lstm
    for suffix, tag in (("", ""), ("_reverse", "_r")):
        weights[f"lstm.w_in{tag}"] = getattr(lstm, f"weight_ih_l0{suffix}").detach().numpy()
        weights[f"lstm.w_h{tag}"] = getattr(lstm, f"weight_hh_l0{suffix}").detach().numpy()
        weights[f"lstm.b{tag}"] = (getattr(lstm, f"bias_ih_l0{suffix}") + getattr(lstm, f"bias_hh_l0{suffix}")
                                   ).detach().numpy()
    weights["out.w"] = net.out.weight.detach().numpy()
    weights["out.b"] = net.out.bias.detach().numpy()
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **{k: v.astype(np.float32) for k, v in weights.items()})


def read(net, path: Path) -> None:
    """Load weights written by write into ``net``: the batch norms stay as they are (identity once trained on
    from here: their statistics are folded into the convolutions)."""
    import torch

    w = {k: torch.from_numpy(v) for k, v in np.load(path).items()}
    with torch.no_grad():
        for k, (conv, norm) in enumerate(zip(net.convs, net.norms)):
            conv.weight.copy_(w[f"conv{k}.w"].T.reshape(conv.weight.shape))
            conv.bias.copy_(w[f"conv{k}.b"])
            norm.reset_parameters()
            norm.reset_running_stats()
        for suffix, tag in (("", ""), ("_reverse", "_r")):
            getattr(net.lstm, f"weight_ih_l0{suffix}").copy_(w[f"lstm.w_in{tag}"])
            getattr(net.lstm, f"weight_hh_l0{suffix}").copy_(w[f"lstm.w_h{tag}"])
            getattr(net.lstm, f"bias_ih_l0{suffix}").copy_(w[f"lstm.b{tag}"])
            getattr(net.lstm, f"bias_hh_l0{suffix}").zero_()
        net.out.weight.copy_(w["out.w"])
        net.out.bias.copy_(w["out.b"])


def held_out(data: dict, starts: np.ndarray, test_k: np.ndarray, path: Path) -> str:
    """The held-out words' accuracy through scanner.wordread (the NumPy network, as the scanner runs it), per
    source: read freely, and picked by word_scores from their own word and 40 others of about their length."""
    wordread._weights.cache_clear()
    rng = np.random.default_rng(1)
    words = vocabulary()
    lengths = np.array([len(w) for w in words])
    right: dict[str, list[tuple[bool, bool]]] = {}
    for i in test_k[rng.permutation(len(test_k))[:600]]:
        view = data["pixels"][:, starts[i]:starts[i] + data["widths"][i]] / QUANT - 0.5
        logp = wordread.log_probs(view.astype(np.float32), path)
        label = str(data["labels"][i])
        word = "".join(ch for ch in label if ch.isalpha())
        text, _ = wordread.read(logp)
        near = np.flatnonzero(np.abs(lengths - len(word)) <= 1)
        rivals = [words[j] for j in rng.choice(near, 40, replace=False) if words[j] != word]
        picked = int(np.argmax(wordread.word_scores(logp, [word] + rivals))) == 0
        right.setdefault(str(data["sources"][i]), []).append((text == label, picked))

    def share(rs: list[tuple[bool, bool]], k: int) -> float:
        return float(np.mean([r[k] for r in rs]))

    every = [r for rs in right.values() for r in rs]
    parts = [f"{s} {share(rs, 0):.0%}/{share(rs, 1):.0%}" for s, rs in sorted(right.items())]
    return f"held out read/picked: all {share(every, 0):.1%}/{share(every, 1):.1%}; " + ", ".join(parts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=3000)
    ap.add_argument("--held-out", type=int, default=150, help="pages kept out of training, for the accuracy")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--rate", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=48)
    ap.add_argument("--first-seed", type=int, default=200000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cache", type=Path, help="words cut once, kept here for later runs")
    ap.add_argument("--out", type=Path, default=wordread.MODEL)
    ap.add_argument("--start-from", type=Path, help="weights (as written) to start from instead of at random")
    ap.add_argument("--sources", default=",".join(SOURCES),
                    help="the kinds of page, in turn (tools.synth conditions, or random)")
    ap.add_argument("--also", type=Path, action="append", default=[],
                    help="words cut by an earlier run (its --cache), trained on as well; held out are this run's")
    args = ap.parse_args()
    if args.cache and args.cache.exists():
        data = dict(np.load(args.cache))
    else:
        data = build(args.pages, args.first_seed, args.workers, tuple(args.sources.split(",")))
        if args.cache:
            np.savez(args.cache, **data)
    for path in args.also:
        data = _joined(dict(np.load(path)), data)
    train(data, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
