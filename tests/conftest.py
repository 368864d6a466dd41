"""Shared test fixtures: where the bundled samples and the third-party corpus live."""
from __future__ import annotations

import json
from pathlib import Path

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
