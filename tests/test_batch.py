"""Batch mode end to end: real pages from tools.synth, real OpenCV + Tesseract, real process pool and Dask.

Pages are small (10x10 grids, 36 px cells) so the whole file stays well under two minutes on two busy cores.
"""
from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from scanner import pdf
from tools import synth
from scanner.batch import STATE_DIR, expand_inputs
from scanner.cli import main

WORDS = ["APPLE", "BANANA", "CHERRY", "GRAPE", "LEMON", "MANGO", "PEACH", "PLUM"]


def make_page(seed: int) -> tuple[np.ndarray, dict]:
    puzzle = synth.make_puzzle(np.random.default_rng(seed), 10, 10, WORDS)
    return synth.render_page(puzzle, cell_px=36)


def write_inputs(folder: Path) -> dict:
    """Two good images (one in a subfolder), a two-page PDF of good pages, a blank page and three bad files.
    Returns the truth (rows, cols) of every good page by (file name, page)."""
    truth = {}
    (folder / "week2").mkdir(parents=True)
    for name, seed in (("alpha.png", 1), ("week2/beta.jpg", 2)):
        image, t = make_page(seed)
        cv2.imwrite(str(folder / name), image)
        truth[(name, "")] = t
    pages = [make_page(seed) for seed in (3, 4)]
    rgb = [Image.fromarray(image[:, :, ::-1]) for image, _ in pages]
    rgb[0].save(folder / "stack.pdf", save_all=True, append_images=rgb[1:], resolution=200)
    for k, (_, t) in enumerate(pages, 1):
        truth[("stack.pdf", str(k))] = t
    cv2.imwrite(str(folder / "blank.png"), np.full((600, 450, 3), 255, np.uint8))
    good_png = (folder / "alpha.png").read_bytes()
    (folder / "corrupt.png").write_bytes(good_png[: len(good_png) // 3])
    (folder / "empty.jpg").write_bytes(b"")
    (folder / "notes.jpg").write_text("shopping list: apples, bananas\n")
    (folder / "readme.txt").write_text("not an input: folders only yield image files and PDFs\n")
    return truth


def read_summary(outdir: Path) -> list[dict]:
    with open(outdir / "summary.csv", newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def run(argv: list[str]) -> int:
    return main(["batch", *argv])


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("inputs")
    return folder, write_inputs(folder)


def test_expand_inputs_names_pages_and_skips_the_output_folder(tmp_path):
    (tmp_path / "in" / "sub").mkdir(parents=True)
    for name in ("a.png", "a.jpg", "sub/a.png", "notes.txt", ".hidden.png"):
        (tmp_path / "in" / name).write_bytes(b"x")
    image, _ = make_page(5)
    Image.fromarray(image).save(tmp_path / "in" / "doc.pdf", save_all=True,
                                append_images=[Image.fromarray(image)] * 2)
    (tmp_path / "in" / "out").mkdir()
    (tmp_path / "in" / "out" / "a-1.png").write_bytes(b"x")  # an output of an earlier run: not an input
    tasks = expand_inputs([tmp_path / "in", tmp_path / "in" / "a.png"], tmp_path / "in" / "out")
    assert [(Path(t.input).relative_to(tmp_path).as_posix(), t.page, t.name) for t in tasks] == [
        ("in/a.jpg", None, "a"), ("in/a.png", None, "a-png"),
        ("in/doc.pdf", 1, "doc-p1"), ("in/doc.pdf", 2, "doc-p2"), ("in/doc.pdf", 3, "doc-p3"),
        ("in/sub/a.png", None, "sub/a"), ("in/a.png", None, "a-2"),
    ]


def test_batch_folder_and_pdf_with_bad_files_then_skip_then_force(inputs, tmp_path, capsys):
    """Good pages must come out with the exact grid shape and at least all but one word found (the pages are
    clean renders); every bad file is one failed row with its one-line error, and the run exits 8."""
    folder, truth = inputs
    out = tmp_path / "out"
    argv = [str(folder), "-o", str(out), "--words", ",".join(WORDS), "--workers", "2", "--json"]

    assert run(argv) == 8
    report = json.loads(capsys.readouterr().out)
    rows = read_summary(out)
    assert report["pages"] == 8 and report["ok"] == 4 and report["failed"] == 4 and report["skipped"] == 0
    by_input = {(Path(r["input"]).relative_to(folder).as_posix(), r["page"]): r for r in rows}
    assert sorted(by_input) == sorted([*truth, ("blank.png", ""), ("corrupt.png", ""), ("empty.jpg", ""),
                                       ("notes.jpg", "")])
    assert "no letter grid found in" in by_input[("blank.png", "")]["error"]
    assert "empty" in by_input[("empty.jpg", "")]["error"]
    assert "not an image" in by_input[("notes.jpg", "")]["error"]
    assert "corrupt or truncated" in by_input[("corrupt.png", "")]["error"]
    for key, row in by_input.items():
        if key not in truth:
            assert row["status"] == "failed" and row["error"].count("\n") == 0 and row["output"] == ""
            continue
        assert row["status"] == "ok" and row["puzzle"] == "1" and row["error"] == ""
        assert (int(row["rows"]), int(row["cols"])) == (truth[key]["rows"], truth[key]["cols"])
        assert int(row["words_listed"]) == len(WORDS) and int(row["words_found"]) >= len(WORDS) - 1
        image = cv2.imread(str(out / row["output"]))
        assert image is not None and image.shape[1] >= 400
        doc = json.loads((out / row["output"]).with_suffix(".json").read_text())
        assert doc["grid"]["rows"] == truth[key]["rows"] and len(doc["words"]) == len(WORDS)
        assert doc["page"] == (int(key[1]) if key[1] else None)
    assert sorted(p.relative_to(out).as_posix() for p in out.glob("**/*-1.*")) == sorted(
        ["alpha-1.png", "alpha-1.json", "week2/beta-1.png", "week2/beta-1.json",
         "stack-p1-1.png", "stack-p1-1.json", "stack-p2-1.png", "stack-p2-1.json"])
    assert pdf.page_count(out / "answer-keys.pdf") == 4
    assert not list(out.rglob("*.tmp"))

    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*-1.*")}
    assert run(argv) == 8  # the bad files are retried and fail again; the good pages are skipped
    report = json.loads(capsys.readouterr().out)
    assert (report["ok"], report["skipped"], report["failed"]) == (0, 4, 4)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*-1.*")} == stamps
    assert pdf.page_count(out / "answer-keys.pdf") == 4

    assert run([*argv, "--force"]) == 8
    report = json.loads(capsys.readouterr().out)
    assert (report["ok"], report["skipped"], report["failed"]) == (4, 0, 4)
    assert all(p.stat().st_mtime_ns > stamps[p] for p in stamps)
    assert sorted(os.listdir(folder)) == sorted(["alpha.png", "week2", "stack.pdf", "blank.png", "corrupt.png",
                                                 "empty.jpg", "notes.jpg", "readme.txt"])  # inputs untouched


def test_batch_all_good_exits_0_with_pdf_format_and_two_puzzles_on_a_sheet(inputs, tmp_path, capsys):
    """A two-up sheet (10x10 and 11x11 puzzles) gives one row and one output pair per puzzle, largest first,
    and one answer-key page."""
    folder, _ = inputs
    sheet, _ = synth.compose_pages([make_page(7), synth.render_page(
        synth.make_puzzle(np.random.default_rng(8), 11, 11, WORDS), cell_px=36)])
    cv2.imwrite(str(tmp_path / "sheet.png"), sheet)
    out = tmp_path / "out"
    assert run([str(folder / "alpha.png"), str(folder / "stack.pdf"), str(tmp_path / "sheet.png"), "-o", str(out),
                "--words", ",".join(WORDS), "--workers", "1", "--format", "pdf"]) == 0
    assert "4 pages: 4 solved, 0 skipped" in capsys.readouterr().out
    for name in ("alpha-1.pdf", "stack-p1-1.pdf", "stack-p2-1.pdf", "sheet-1.pdf", "sheet-2.pdf"):
        assert pdf.page_count(out / name) == 1
        assert pdf.render_page(out / name, 1, dpi=50).shape[2] == 3
    rows = read_summary(out)
    assert [r["status"] for r in rows] == ["ok"] * 5
    assert [(r["puzzle"], r["rows"], r["output"]) for r in rows[3:]] == [("1", "11", "sheet-1.pdf"),
                                                                          ("2", "10", "sheet-2.pdf")]
    assert pdf.page_count(out / "answer-keys.pdf") == 4


def test_batch_on_dask_local_cluster(inputs, tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    folder, truth = inputs
    out = tmp_path / "out"
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        code = run([str(folder / "stack.pdf"), "-o", str(out), "--words", ",".join(WORDS),
                    "--dask", cluster.scheduler_address, "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["ok"], report["failed"]) == (2, 0)
    rows = read_summary(out)
    assert [(r["page"], r["status"]) for r in rows] == [("1", "ok"), ("2", "ok")]
    for row in rows:
        assert int(row["rows"]) == truth[("stack.pdf", row["page"])]["rows"]
        assert json.loads((out / row["output"]).with_suffix(".json").read_text())["page"] == int(row["page"])
    assert pdf.page_count(out / "answer-keys.pdf") == 2


PAGES = 12


def _ctrl_c_as_at_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_leaves_no_partial_files_and_a_rerun_finishes(tmp_path):
    """SIGINT to a running batch: exit 130, no temp files, every written page complete; a re-run does the rest.
    Twelve pages, so that on a loaded machine the signal still lands before the last one (with six, a busy test
    process once polled late and the batch had finished). The batch gets Ctrl-C's default handling: a suite run
    in the background of a shell without job control inherits SIGINT ignored, and the batch then ran to the end
    and exited 0."""
    folder = tmp_path / "in"
    folder.mkdir()
    for seed in range(PAGES):
        cv2.imwrite(str(folder / f"page{seed}.png"), make_page(10 + seed)[0])
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "scanner.cli", "batch", str(folder), "-o", str(out), "--words", ",".join(WORDS),
           "--workers", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_ctrl_c_as_at_a_terminal)
    deadline = time.monotonic() + 60
    while not list(out.glob(f"{STATE_DIR}/*.json")) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert not list(out.rglob("*.tmp"))
    done = len(list(out.glob(f"{STATE_DIR}/*.json")))
    assert 1 <= done < PAGES and done <= len(list(out.glob("*-1.json"))) <= done + 1
    assert subprocess.run(cmd + ["--json"], capture_output=True).returncode == 0
    report = json.loads(subprocess.run(cmd + ["--json"], capture_output=True, text=True).stdout)
    assert (report["skipped"], report["failed"]) == (PAGES, 0)
