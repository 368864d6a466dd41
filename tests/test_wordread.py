"""The word reader: CTC word probabilities, and reading words printed in faces the generator never uses."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from scanner import wordread
from tools.synth import FONT_DIR, FONT_FILES, THEMES


def _reference(logp: np.ndarray, word: str) -> float:
    """A word's log-probability by the plain CTC recursion, one state at a time, with a leading and a trailing
    state for marks (as word_scores has them)."""
    codes = [wordread.SYMBOLS.index(ch) + 1 for ch in word]
    size = 2 * len(codes) + 3
    label = [None] * size
    label[2:2 * len(codes) + 1:2] = codes
    marks = np.logaddexp.reduce(logp[:, [0] + list(range(1 + wordread.LETTERS, logp.shape[1]))], axis=1)

    def emit(t: int, s: int) -> float:
        if s in (0, size - 1):
            return marks[t]
        return logp[t, 0] if label[s] is None else logp[t, label[s]]

    alpha = [emit(0, s) if s < 3 else -np.inf for s in range(size)]
    for t in range(1, len(logp)):
        new = []
        for s in range(size):
            v = alpha[s]
            if s >= 1:
                v = np.logaddexp(v, alpha[s - 1])
            if s >= 2 and (s in (2, size - 1) or (label[s] is not None and label[s] != label[s - 2])):
                v = np.logaddexp(v, alpha[s - 2])
            new.append(v + emit(t, s))
        alpha = new
    return float(np.logaddexp.reduce(alpha[-3:]))


def test_a_word_s_probability_is_the_sum_over_every_way_its_letters_lie_along_the_steps():
    rng = np.random.default_rng(3)
    words = ["A", "AB", "ABBA", "HELLO", "ZZZ", "QUARTZ", "ME"]
    for _ in range(6):
        steps = int(rng.integers(6, 24))
        x = rng.standard_normal((steps, 1 + len(wordread.SYMBOLS))) * 4
        logp = x - np.logaddexp.reduce(x, axis=1, keepdims=True)
        got = wordread.word_scores(logp, words)
        want = [_reference(logp, w) for w in words]
        assert np.allclose(got, want, atol=1e-6)
    # a word longer than the steps, or with a symbol the reader does not know, fits nowhere
    assert (wordread.word_scores(logp, ["A" * (steps + 1), "CAFÉ", ""]) == wordread.NO_FIT).all()


MAKEFILE_FONTS = ("dejavu", "liberation", "freefont", "urw-base35")  # folders of the font packages make installs


def _unused_faces() -> list[str]:
    """Faces the Makefile installs that the generator never prints in: bold, italic and oblique cuts of the
    families it uses."""
    used = set(FONT_FILES)
    faces = sorted(str(p) for p in FONT_DIR.rglob("*") if p.suffix in (".ttf", ".otf") and p.name not in used
                   and p.parent.name.startswith(MAKEFILE_FONTS)
                   and any(k in p.name for k in ("Bold", "Italic", "Oblique", "Demi")) and "Mono" not in p.name)
    return faces[::max(1, len(faces) // 8)][:8]


def _printed(word: str, face: str, px: int, blur: float, rng: np.random.Generator) -> tuple[np.ndarray, tuple]:
    """``word`` printed ``px`` high in ``face`` on a grey page, blurred, grainy and JPEG-compressed like a dim
    photo's list; (the page, the word's ink box)."""
    font = ImageFont.truetype(face, px)
    page = Image.new("L", (px * (len(word) + 4), 4 * px), 235)
    ImageDraw.Draw(page).text((2 * px, 2 * px), word, font=font, fill=70, anchor="lm")
    box = ImageDraw.Draw(page).textbbox((2 * px, 2 * px), word, font=font, anchor="lm")
    image = cv2.GaussianBlur(np.asarray(page, np.float32), (0, 0), blur)
    image += rng.normal(0, 6, image.shape)
    ok, buf = cv2.imencode(".jpg", np.clip(image, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 40])
    return cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE), box


@pytest.mark.skipif(not _unused_faces(), reason="no faces beyond the generator's on this machine")
def test_the_reader_picks_a_blurred_word_printed_in_an_unseen_face_from_the_grid_s_other_words():
    # Data: the generator's theme words (the reader learnt other words), each printed 12-16 px high in faces the
    # generator never uses, blurred (sigma 1-1.6), grainy and JPEG 40; each picked among 30 of the theme words
    # of about its length. Threshold: at least 90% picked right.
    rng = np.random.default_rng(7)
    words = sorted({w.replace(" ", "").replace("-", "") for ws in THEMES.values() for w in ws})
    faces = _unused_faces()
    right = total = 0
    for k, word in enumerate(words[::4]):
        page, box = _printed(word.title() if k % 2 else word, faces[k % len(faces)], int(rng.integers(12, 17)),
                             float(rng.uniform(1.0, 1.6)), rng)
        logp = wordread.log_probs(wordread.crop(page, box))
        near = [w for w in words if w != word and abs(len(w) - len(word)) <= 2]
        rivals = [near[i] for i in rng.choice(len(near), min(30, len(near)), replace=False)]
        scores = wordread.word_scores(logp, [word] + rivals)
        right += int(np.argmax(scores) == 0)
        total += 1
    assert right >= 0.9 * total, f"{right} of {total} words picked right"


def test_a_crop_scales_a_word_s_box_to_the_reader_s_height_whatever_the_print_size():
    page = np.full((200, 600), 230, np.uint8)
    cv2.putText(page, "LEMON", (50, 120), cv2.FONT_HERSHEY_SIMPLEX, 2.0, 40, 4)
    ys, xs = np.nonzero(page < 128)
    box = (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
    view = wordread.crop(page, box)
    small = wordread.crop(cv2.resize(page, None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA),
                          tuple(v * 0.3 for v in box))
    assert view.shape[0] == wordread.HEIGHT and view.shape[1] % wordread.STRIDE == 0
    assert abs(view.shape[1] - small.shape[1]) <= wordread.STRIDE
    ink_rows = np.flatnonzero((view > 0.5).any(axis=1))
    assert abs((ink_rows[-1] - ink_rows[0] + 1) - wordread.INK_HEIGHT * wordread.HEIGHT) <= 3
    assert Path(wordread.MODEL).is_file()


def test_the_trainer_cuts_words_that_no_benchmark_lists():
    """tools/train_words.py cuts its words from generated pages as the spotter cuts them (no PyTorch needed for
    that): views as tall as the reader's, labels in the reader's symbols, and none of them a theme word the
    benchmarks and tests list."""
    from tools import train_words

    themed = {w.upper().replace(" ", "").replace("-", "") for words in THEMES.values() for w in words}
    source, views, labels = train_words.page_words(1, 900000)
    assert views and len(views) == len(labels)
    assert all(v.shape[0] == wordread.HEIGHT and v.dtype == np.uint8 for v in views)
    assert all(labels) and all(set(label) <= set(wordread.SYMBOLS + " ") for label in labels)
    assert not {"".join(ch for ch in label if ch.isalpha()) for label in labels} & themed
