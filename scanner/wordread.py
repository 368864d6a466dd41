"""A word reader for list print Tesseract cannot read: a small convolutional and recurrent network over one word's
grey image, giving a probability for each symbol at each step along the word (trained with CTC).

Its use is not to read freely but to weigh words: a listed word is a word the grid spells, so each candidate
word's probability given the image (the sum over every way its letters can lie along the steps, see
word_scores) says how well it explains the ink. The network sees whole words, so a letter blurred into its
neighbours is still read in context, where a letter-by-letter classifier must first guess where the letters divide.

NumPy only at run time; the weights ship in models/words.npz and are trained by tools/train_words.py on words cut
from generated pages in every condition the generator makes (night photos, hand lettering, small photos, lower
case, newsprint), in the generator's faces and many more.
"""
from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from scanner.imaging import one_blas_thread

MODEL = Path(__file__).parent / "models" / "words.npz"
SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-"  # class k + 1; class 0 is CTC's blank
LETTERS = 26  # the first LETTERS symbols are letters; the others may stand before or after a word (numbers, bullets)
HEIGHT = 32  # px: the network's view of a line of print
INK_HEIGHT = 0.6  # of HEIGHT: how tall a word's ink box is drawn in that view
STRIDE = 4  # px of the view per step along the word
MAX_WIDTH = 1024  # px of the view: a longer box is squeezed to it
NO_FIT = -1e9


def crop(flat: np.ndarray, box: tuple[int, int, int, int], paper: float | None = None) -> np.ndarray:
    """The network's view of the print in ``box`` (x0, y0, x1, y1) of ``flat`` (dark print on light): float32,
    HEIGHT rows, ink bright (the paper's level at 0, the darkest ink at 1), the box's ink INK_HEIGHT of the view
    high and centred in it, as wide as the box at that scale with a margin at each end; past the page's edge, the
    page's paper_level (``paper``, when the caller knows it: it costs more than a box's view)."""
    x0, y0, x1, y1 = (float(v) for v in box)
    h = max(y1 - y0, 2.0)
    scale = INK_HEIGHT * HEIGHT / h
    margin = (1 - INK_HEIGHT) / 2 * HEIGHT / scale  # page px above and below the box in the view
    width = min(MAX_WIDTH, max(STRIDE * 4, int(round((x1 - x0 + 2 * margin) * scale / STRIDE)) * STRIDE))
    # an affine map of the page onto the view: a box squeezed into MAX_WIDTH keeps its height
    sx = width / (x1 - x0 + 2 * margin)
    M = np.array([[sx, 0, -(x0 - margin) * sx], [0, scale, -(y0 - margin) * scale]], np.float64)
    if paper is None:
        paper = paper_level(flat)
    view = cv2.warpAffine(flat.astype(np.float32), M, (width, HEIGHT), flags=cv2.INTER_AREA if scale < 1
                          else cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=paper)
    return normalised(255.0 - view)


def paper_level(flat: np.ndarray) -> float:
    """The level of ``flat``'s paper (its median; 255 for an empty page), shown past the page's edge in a view."""
    return float(np.median(flat)) if flat.size else 255.0


def normalised(ink: np.ndarray) -> np.ndarray:
    """``ink`` (bright on dark) with its paper (the median) at 0 and its darkest ink (99th percentile) at 1."""
    low, high = np.percentile(ink, [50, 99])
    return np.clip((ink - low) / max(high - low, 8.0), -0.5, 1.5).astype(np.float32)


@functools.lru_cache(maxsize=1)
def _weights(path: Path = MODEL) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {k: data[k].astype(np.float32) for k in data.files}


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3x3 convolution, padding 1, then ReLU: ``x`` (H, W, C) channels last, ``w`` (C * 9, out)."""
    padded = np.pad(x, ((1, 1), (1, 1), (0, 0)))
    cols = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(0, 1))  # (H, W, C, 3, 3)
    h, wd = x.shape[:2]
    out = cols.reshape(h * wd, -1) @ w + b
    return np.maximum(out, 0.0).reshape(h, wd, -1)


def _pool(x: np.ndarray, across: int) -> np.ndarray:
    """Max over 2 rows and ``across`` columns."""
    h, w, c = x.shape
    x = x[:h // 2 * 2, :w // across * across]
    return x.reshape(h // 2, 2, w // across, across, c).max(axis=(1, 3))


def _lstm(x: np.ndarray, w_in: np.ndarray, w_h: np.ndarray, b: np.ndarray) -> np.ndarray:
    """One direction of an LSTM over ``x`` (T, in); gates in PyTorch's order (input, forget, cell, output)."""
    n = w_h.shape[1]
    gates_in = x @ w_in.T + b
    h, c = np.zeros(n, np.float32), np.zeros(n, np.float32)
    out = np.empty((len(x), n), np.float32)
    for t in range(len(x)):
        g = gates_in[t] + w_h @ h
        i, f, z, o = 1 / (1 + np.exp(-g[:n])), 1 / (1 + np.exp(-g[n:2 * n])), np.tanh(g[2 * n:3 * n]), \
            1 / (1 + np.exp(-g[3 * n:]))
        c = f * c + i * z
        h = o * np.tanh(c)
        out[t] = h
    return out


def log_probs(view: np.ndarray, path: Path = MODEL) -> np.ndarray:
    """(steps, 1 + len(SYMBOLS)) log-probabilities of each symbol (blank first) at each step along ``view``
    (see crop)."""
    p = _weights(path)
    x = view[:, :, None]
    with one_blas_thread():
        k = 0
        while f"conv{k}.w" in p:
            x = _conv(x, p[f"conv{k}.w"], p[f"conv{k}.b"])
            x = _pool(x, int(p[f"conv{k}.pool"]))
            k += 1
        seq = x.reshape(x.shape[1], -1) if x.shape[0] == 1 else x.max(axis=0)
        forward = _lstm(seq, p["lstm.w_in"], p["lstm.w_h"], p["lstm.b"])
        backward = _lstm(seq[::-1], p["lstm.w_in_r"], p["lstm.w_h_r"], p["lstm.b_r"])[::-1]
        logits = np.concatenate([forward, backward], axis=1) @ p["out.w"].T + p["out.b"]
    logits -= logits.max(axis=1, keepdims=True)
    return logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))


def read(logp: np.ndarray) -> tuple[str, float]:
    """(the likeliest symbol at each step, repeats and blanks dropped: the print read freely; the log-probability
    of its letters as word_scores weighs a word). Weighed against it, a word that is what the reader sees scores
    about 0, however blurred the print: a blurred word's steps are unsure, and every word's score is low."""
    best = logp.argmax(axis=1)
    text = "".join(SYMBOLS[k - 1] for i, k in enumerate(best) if k and (i == 0 or best[i - 1] != k))
    letters = "".join(ch for ch in text if ch in SYMBOLS[:LETTERS])
    if not letters:
        return text, float(logp[np.arange(len(best)), best].sum())
    return text, float(word_scores(logp, [letters])[0])


def word_scores(logp: np.ndarray, words: list[str]) -> np.ndarray:
    """Each word's log-probability given the steps ``logp`` (see log_probs): the sum over every path of steps
    that reads the word (CTC), with any numbers or marks (SYMBOLS past the letters) before and after it; NO_FIT
    for a word with a symbol the network does not know or longer than the steps."""
    out = np.full(len(words), NO_FIT)
    ok = [i for i, w in enumerate(words) if w and len(w) <= len(logp) and all(ch in SYMBOLS[:LETTERS] for ch in w)]
    if ok:
        out[ok] = _ctc(logp, [[SYMBOLS.index(ch) + 1 for ch in words[i]] for i in ok])
    return out


def _ctc(logp: np.ndarray, codes: list[list[int]]) -> np.ndarray:
    """CTC forward log-likelihoods of the words ``codes`` (each a list of classes) over ``logp`` (T, classes),
    each with a leading and a trailing state that take blanks and marks. A word of L letters has the states: 0
    the lead, then blank, letter 1, blank, ..., letter L, blank, then 2L + 2 the trail; the words' states are laid
    side by side in one array, padded with states no path enters."""
    n = len(codes)
    lengths = np.array([len(c) for c in codes])
    size = 2 * int(lengths.max()) + 3
    letters = np.zeros((n, size), np.int64)  # each state's class: blank (0) where no letter
    rows, cols = np.nonzero(np.arange(size)[None, :] < 2 * lengths[:, None] + 3)
    for i, c in enumerate(codes):
        letters[i, 2:2 * len(c) + 1:2] = c
    trail = 2 * lengths + 2
    # a step that is no letter of the word: blank, or a mark or digit before or after it
    marks = np.logaddexp.reduce(logp[:, [0] + list(range(1 + LETTERS, logp.shape[1]))], axis=1)
    emit = logp[:, letters]  # (T, n, size)
    emit[:, :, 0] = marks[:, None]
    emit[:, np.arange(n), trail] = marks[:, None]
    dead = np.ones((n, size), bool)
    dead[rows, cols] = False
    emit[:, dead] = -np.inf
    # a letter may be entered from two states back (skipping a blank) unless it repeats the letter there; the
    # first letter from the lead; the trail from the last letter
    skip = np.zeros((n, size), bool)
    skip[:, 2::2] = letters[:, 2::2] != letters[:, :-2:2]
    skip[:, 2] = True
    skip[np.arange(n), trail] = True
    # forward in probabilities, each word's scaled to sum 1 at each step (its log kept): exp and log per step
    # and state cost more than all the rest
    emit = np.exp(emit)
    alpha = np.zeros((n, size))
    alpha[:, :3] = emit[0, :, :3]
    scale = np.zeros(n)
    for t in range(1, len(logp)):
        total = alpha.sum(axis=1, keepdims=True)
        alpha /= np.where(total > 0, total, 1.0)
        scale += np.log(np.maximum(total[:, 0], 1e-300))
        step = alpha.copy()
        step[:, 1:] += alpha[:, :-1]
        step[:, 2:] += np.where(skip[:, 2:], alpha[:, :-2], 0.0)
        alpha = step * emit[t]
    ends = np.stack([trail - 2, trail - 1, trail], axis=1)
    with np.errstate(divide="ignore"):
        return np.log(np.take_along_axis(alpha, ends, axis=1).sum(axis=1)) + scale
