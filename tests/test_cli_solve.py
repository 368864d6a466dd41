"""`wordsearch solve`: the JSON contract, the summary, exit codes for bad input, and never writing over an input.

Runs the real pipeline (OpenCV + Tesseract) on samples/printable.png with the word list from its truth sidecar.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.cli import main
from scanner.export import write_image_atomic
from solver.files import write_json_atomic
from solver import solve
from solver.errors import OutputError

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
PRINTABLE = SAMPLES / "printable.png"


def truth_of(image: Path) -> dict:
    return json.loads(image.with_name(image.name + ".json").read_text())


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """Run `solve samples/printable.png --words ... -o out.png --json out.json` once for several tests."""
    if not PRINTABLE.exists():
        pytest.skip("samples/printable.png is not there")
    out = tmp_path_factory.mktemp("solve")
    truth = truth_of(PRINTABLE)
    argv = ["solve", str(PRINTABLE), "--words", ",".join(truth["words"]), "-o", str(out / "out.png"),
            "--json", str(out / "out.json")]
    code = main(argv)
    return code, out, truth


def test_solve_writes_the_json_contract_and_the_annotated_image(solved):
    code, out, truth = solved
    assert code == 0
    doc = json.loads((out / "out.json").read_text())
    assert set(doc) >= {"source", "grid", "words", "timings_ms", "word_list"}
    grid = doc["grid"]
    assert set(grid) >= {"rows", "cols", "letters", "confidence", "corners", "low_confidence"}
    assert (grid["rows"], grid["cols"]) == (truth["rows"], truth["cols"])
    assert len(grid["letters"]) == grid["rows"] and all(len(row) == grid["cols"] for row in grid["letters"])
    assert np.asarray(grid["confidence"]).shape == (grid["rows"], grid["cols"])
    assert np.asarray(grid["corners"]).shape == (4, 2)
    assert set(doc["timings_ms"]) >= {"load", "detect", "ocr", "solve", "annotate"}
    assert doc["word_list"]["source"] == "argument"
    truth_results = {r.word: r for r in solve(truth["grid"], truth["words"])}
    for entry in doc["words"]:
        assert set(entry) >= {"word", "found", "start", "end", "direction", "cells", "corrected"}
        assert entry["found"], entry["word"]  # clean printable: every word found ...
        occurrences = [[list(c) for c in occ.cells] for occ in truth_results[entry["word"]].occurrences]
        assert entry["cells"] in occurrences  # ... at its true cells
        assert entry["start"] == entry["cells"][0] and entry["end"] == entry["cells"][-1]
    annotated = cv2.imread(str(out / "out.png"))
    source = cv2.imread(str(PRINTABLE))
    assert annotated.shape == source.shape


def test_solve_json_to_stdout_keeps_stdout_parseable(capsys):
    if not PRINTABLE.exists():
        pytest.skip("samples/printable.png is not there")
    words = truth_of(PRINTABLE)["words"][:3]
    assert main(["solve", str(PRINTABLE), "--words", ",".join(words), "--json", "-"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert [w["word"] for w in doc["words"]] == words
    assert "words found" in captured.err  # the human summary goes to stderr then


def test_not_an_image_exits_3_and_writes_nothing(tmp_path, capsys):
    fake = tmp_path / "photo.png"
    fake.write_text("this is not a picture\n")
    code = main(["solve", str(fake), "--words", "CAT", "-o", str(tmp_path / "out.png"),
                 "--json", str(tmp_path / "out.json")])
    err = capsys.readouterr().err
    assert code == 3
    assert err.count("\n") == 1 and str(fake) in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["photo.png"]


def test_blank_page_exits_4_with_one_line_and_writes_nothing(tmp_path):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((1100, 850, 3), 255, np.uint8))
    proc = subprocess.run([sys.executable, "-m", "scanner.cli", "solve", str(blank), "--words", "CAT",
                           "-o", str(tmp_path / "out.png")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 4
    assert proc.stderr.strip() == f"wordsearch: error: no letter grid found in {blank}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blank.png"]


@pytest.mark.parametrize("option", ["-o", "--json"])
def test_refuses_to_write_over_the_input(tmp_path, capsys, option):
    image = tmp_path / "puzzle.png"
    cv2.imwrite(str(image), np.full((200, 200, 3), 255, np.uint8))
    before = image.read_bytes()
    target = tmp_path / "sub" / ".." / "puzzle.png"  # the same file by another name
    (tmp_path / "sub").mkdir()
    code = main(["solve", str(image), "--words", "CAT", option, str(target)])
    assert code == 7
    assert "input" in capsys.readouterr().err
    assert image.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["puzzle.png", "sub"]


def test_empty_word_list_exits_5(tmp_path):
    listing = tmp_path / "words.txt"
    listing.write_text("\n  \n")
    assert main(["solve", str(tmp_path / "any.png"), "--words-file", str(listing)]) == 5


def test_export_is_atomic_and_refuses_inputs(tmp_path):
    src = tmp_path / "in.png"
    src.write_bytes(b"x")
    out = write_image_atomic(tmp_path / "out.jpg", np.zeros((20, 30, 3), np.uint8), inputs=[src])
    assert cv2.imread(str(out)).shape == (20, 30, 3)
    write_json_atomic(tmp_path / "out.json", {"a": "é"}, inputs=[src])
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8")) == {"a": "é"}
    os.symlink(src, tmp_path / "link.png")
    with pytest.raises(OutputError):
        write_image_atomic(tmp_path / "link.png", np.zeros((5, 5, 3), np.uint8), inputs=[src])
    with pytest.raises(OutputError):
        write_image_atomic(tmp_path / "out.gif", np.zeros((5, 5, 3), np.uint8), inputs=[src])
    assert src.read_bytes() == b"x"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.png", "link.png", "out.jpg", "out.json"]
