"""The text commands end to end: ``wordsearch solve-text`` and ``wordsearch boggle`` (output, JSON, exit codes)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scanner.cli import main

PUZZLE = "C A T X\nO X X L\nW X X E\nL E V E\n\ncat, cow\nlevel\nhan solo\n"


@pytest.fixture
def puzzle(tmp_path) -> Path:
    path = tmp_path / "puzzle.txt"
    path.write_text(PUZZLE)
    return path


def run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_text_prints_grid_and_table(capsys, puzzle):
    code, out, _ = run(capsys, "solve-text", puzzle)
    assert code == 0
    assert "cat" in out and "(0, 0)" in out and "(0, 2)" in out and "E (right)" in out
    assert "S (down)" in out and "not found" in out and "2 of 4 words found" in out
    assert "0-based" in out


def test_solve_text_json_to_stdout_and_file(capsys, puzzle, tmp_path):
    code, out, _ = run(capsys, "solve-text", puzzle, "--words", "cat,vel", "--json", "-")
    data = json.loads(out)
    assert code == 0 and data["rows"] == 4 and data["cols"] == 4
    cat, vel = data["results"]
    assert cat["start"] == [0, 0] and cat["end"] == [0, 2] and cat["direction"] == "E"
    assert vel["found"] and vel["direction"] == "W" and vel["occurrences"][0]["cells"] == [[3, 2], [3, 1], [3, 0]]
    target = tmp_path / "out.json"
    assert run(capsys, "solve-text", puzzle, "--json", target)[0] == 0
    assert json.loads(target.read_text())["results"][0]["word"] == "cat"
    code, _, err = run(capsys, "solve-text", puzzle, "--json", puzzle)
    assert code == 7 and "overwrite" in err and puzzle.read_text() == PUZZLE


def test_solve_text_options(capsys, puzzle, tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("tac\ncat\n")
    code, out, _ = run(capsys, "solve-text", puzzle, "--words-file", words, "--directions", "E,S", "--json", "-")
    tac, cat = json.loads(out)["results"]
    assert code == 0 and not tac["found"] and cat["found"]
    code, out, _ = run(capsys, "solve-text", puzzle, "--words", "xcat", "--wrap", "--json", "-")
    assert json.loads(out)["results"][0]["cells"] == [[0, 3], [0, 0], [0, 1], [0, 2]]
    code, out, _ = run(capsys, "solve-text", puzzle, "--words", "cxw", "--max-mismatches", "1", "--json", "-")
    assert json.loads(out)["results"][0]["mismatches"] == [{"cell": [1, 0], "read": "O", "needed": "X"}]


@pytest.mark.parametrize("content, code, message", [
    ("ABC\nDE\n", 3, "row 2 has 2 letters but row 1 has 3"),
    ("ABC\nD3F\n", 3, "row 2 of the grid holds '3'"),
    ("\n\n", 3, "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", 3, "not a text file"),
    (b"AB\xff\xfe\n", 3, "not UTF-8"),
    ("ABC\nDEF\n", 5, "no words to find"),
])
def test_solve_text_bad_input_is_one_line_with_exit_code(capsys, tmp_path, content, code, message):
    path = tmp_path / "bad.txt"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    got, out, err = run(capsys, "solve-text", path)
    assert got == code and message in err and str(path) in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_file_and_empty_word_option(capsys, tmp_path, puzzle):
    code, _, err = run(capsys, "solve-text", tmp_path / "nope.txt")
    assert code == 3 and "cannot read" in err
    assert run(capsys, "solve-text", puzzle, "--words", " , ")[0] == 5


def test_boggle_command(capsys, tmp_path):
    code, out, _ = run(capsys, "boggle", "ABCD EFGH IJKL MNOP")
    assert code == 0 and "KNIFE" in out and "0-based" in out
    code, out, _ = run(capsys, "boggle", "[QU]EEN XXXX XXXX XXXX", "--words", "queen,bad", "--json", "-")
    queen, bad = json.loads(out)["results"]
    assert queen["path"] == [[0, 0], [0, 1], [0, 2], [0, 3]] and queen["tiles"][0] == "QU" and not bad["found"]
    words = tmp_path / "dict.txt"
    words.write_text("fab\nbead\n")
    code, out, _ = run(capsys, "boggle", "BEA XXD", "--dictionary", words, "--min-length", "4", "--json", "-")
    assert [r["word"] for r in json.loads(out)["results"]] == ["BEAD"]
    binary = tmp_path / "dict.bin"
    binary.write_bytes(bytes(range(256)))
    code, _, err = run(capsys, "boggle", "FAB EDX", "--dictionary", binary)
    assert code == 3 and "not a text file" in err
    assert run(capsys, "boggle", "ABC DE")[0] == 3


def test_installed_command_exit_code_without_traceback(tmp_path):
    bad = tmp_path / "ragged.txt"
    bad.write_text("ABC\nDE\n")
    exe = Path(sys.executable).with_name("wordsearch")
    proc = subprocess.run([str(exe), "solve-text", str(bad)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3 and "ragged" in proc.stderr and "Traceback" not in proc.stderr
    help_text = subprocess.run([str(exe), "solve-text", "--help"], capture_output=True, text=True).stdout
    assert "0-based (row, col)" in help_text
