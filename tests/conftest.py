"""Shared test fixtures: where the bundled samples and the third-party corpus live; a generated page's truth as
the scanner's inputs and a list read scored against it."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
CORPUS = ROOT.parent / "shared" / "corpus"


def corpus_items(puzzle: str = "wordsearch") -> list[tuple[Path, dict]]:
    """(image path, truth) for every corpus image of the given puzzle type; empty when the corpus is absent."""
    if not CORPUS.is_dir():
        return []
    items = []
    for sidecar in sorted(CORPUS.rglob("*.json")):
        truth = json.loads(sidecar.read_text())
        image = sidecar.with_suffix("")
        if truth.get("puzzle") == puzzle and image.exists():
            items.append((image, truth))
    return items


@pytest.fixture
def corpus_dir() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    return CORPUS


def corpus_in_condition(corpus_dir: Path, name: str, condition: str, pitch: float) -> np.ndarray:
    """The corpus image ``name`` (its cells ``pitch`` px apart) put into ``condition`` as bench/accuracy.py
    --corpus-conditions does: tools.synth.in_condition, its random draws seeded by the name and the condition."""
    import zlib

    from scanner.load import load_image
    from tools import synth

    rng = np.random.default_rng([zlib.crc32(name.encode()), zlib.crc32(condition.encode())])
    return synth.in_condition(load_image(corpus_dir / name), condition, pitch, rng)[0]


def truth_location(truth: dict):
    """The grid of a generated page's truth sidecar as the detector would report it (a GridLocation)."""
    from scanner.detect import GridLocation  # here, not above: the solver's tests need no image side

    return GridLocation(corners=np.asarray(truth["corners"], float), rows=truth["rows"], cols=truth["cols"])


def list_score(words: list[str], listed: list[str]) -> tuple[int, int]:
    """(listed words among ``words``, entries of ``words`` not listed), compared as grid keys."""
    from scanner.wordlist import grid_key

    got = [grid_key(w) for w in words]
    want = {grid_key(w) for w in listed}
    return len(want & set(got)), sum(g not in want for g in got)
