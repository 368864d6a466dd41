"""The web API (scanner/serve.py) through FastAPI's TestClient: the real app, its real OCR process pool, real images.

Covers: the sample photo solved through the API equals `wordsearch solve`; edit -> re-solve without the photo;
every bad input (zero bytes, text, truncated JPEG, decompression bomb, oversized, missing field, bad and expired
ids) gets its status code and a one-line JSON error; busy (503 + Retry-After), time limit (504), internal error
(500 with an id, logged, not shown); security headers and no path traversal; PDFs; Boggle.
"""
from __future__ import annotations

import io
import json
import logging
import threading
import time

import numpy as np
import pytest
from PIL import Image

from scanner import pdf
from scanner.cli import main as cli_main
from scanner.export import encode_image
from scanner.serve import ApiError, Entry, Results, create_app

from conftest import SAMPLES

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
TestClient = pytest.importorskip("fastapi.testclient").TestClient

PHOTO = SAMPLES / "photo.jpg"
MAX_MB = 3
PROGRESS_ID = "progress-token-0123456789"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1, max_upload_mb=MAX_MB), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def solved(client):
    """The sample photo solved through the API, word list read from the photo (as the page does by default)."""
    response = client.post("/api/solve", files={"image": ("photo.jpg", PHOTO.read_bytes(), "image/jpeg")},
                           headers={"X-Progress-Id": PROGRESS_ID})
    assert response.status_code == 200, response.text
    return response.json()


def post_image(client, data: bytes, name: str = "x.jpg", **fields):
    return client.post("/api/solve", files={"image": (name, data, "application/octet-stream")}, data=fields)


def assert_error(response, status: int, code: str | None = None) -> dict:
    """A JSON error of `status`: one line, no traceback."""
    assert response.status_code == status, response.text
    body = response.json()
    assert isinstance(body["error"], str) and "\n" not in body["error"] and "Traceback" not in body["error"]
    if code:
        assert body["code"] == code
    return body


def without(doc: dict, *keys: str) -> dict:
    return {k: v for k, v in doc.items() if k not in keys}


def test_photo_through_the_api_matches_the_cli(solved, tmp_path):
    out = tmp_path / "cli.json"
    assert cli_main(["solve", str(PHOTO), "--json", str(out)]) == 0
    cli = json.loads(out.read_text())
    assert sum(w["found"] for w in solved["words"]) == len(solved["words"]) == 20
    assert solved["source"] == "photo.jpg" and solved["puzzles"] == 1
    assert without(solved["grid"]) == cli["grid"]
    assert solved["words"] == cli["words"]
    assert solved["word_list"] == cli["word_list"]
    assert set(solved["colours"]) == {w["word"] for w in solved["words"]}


def test_progress_is_reported_by_the_worker(client, solved):
    """The worker reports its stages; after the answer the last one, drawing, is left."""
    stage, deadline = None, time.monotonic() + 5
    while stage != "draw" and time.monotonic() < deadline:
        stage = client.get(f"/api/progress/{PROGRESS_ID}").json()["stage"]
        time.sleep(0.05)
    assert stage == "draw"
    assert client.get("/api/progress/unknown-token-00000000").json()["stage"] == "upload"


def test_result_image_and_json_downloads(client, solved):
    image = client.get(solved["image_url"])
    assert image.status_code == 200 and image.headers["content-type"] == "image/jpeg"
    h, w = np.asarray(Image.open(io.BytesIO(image.content))).shape[:2]
    assert (w, h) == Image.open(PHOTO).size  # full resolution, same orientation (every word found: no legend)
    screen = Image.open(io.BytesIO(client.get(solved["image_url"] + "&size=screen").content))
    assert max(screen.size) == max(w, h) // 2 <= 2048 and screen.size[0] / screen.size[1] == pytest.approx(w / h)
    download = client.get(solved["image_url"] + "&download=true")
    assert download.headers["content-disposition"].startswith("attachment")
    doc = client.get(solved["json_url"]).json()
    assert doc["words"] == solved["words"] and "id" not in doc


def test_edit_a_cell_then_restore_it(client, solved):
    rid = solved["id"]
    before = client.get(f"/api/solve/{rid}").json()
    word = next(w for w in solved["words"] if len(w["word"]) >= 5)
    row, col = word["cells"][len(word["cells"]) // 2]
    letter = solved["grid"]["letters"][row][col]
    wrong = "Q" if letter != "Q" else "X"
    changed = client.post(f"/api/solve/{rid}/edit", json={"cells": [{"row": row, "col": col, "letter": wrong}]})
    assert changed.status_code == 200, changed.text
    doc = changed.json()
    assert doc["id"] == rid and doc["version"] == before["version"] + 1
    assert doc["grid"]["letters"][row][col] == wrong and [row, col] in doc["grid"]["edited"]
    assert not next(w for w in doc["words"] if w["word"] == word["word"])["found"]
    assert doc["image_url"] != before["image_url"]
    assert client.get(doc["image_url"]).status_code == 200  # redrawn from the kept original

    restored = client.post(f"/api/solve/{rid}/edit",
                           json={"cells": [{"row": row, "col": col, "letter": letter.lower()}]})
    doc = restored.json()
    assert next(w for w in doc["words"] if w["word"] == word["word"])["found"]
    assert sum(w["found"] for w in doc["words"]) == 20


def test_edit_the_word_list(client, solved):
    rid = solved["id"]
    words = [w["word"] for w in solved["words"]]
    doc = client.post(f"/api/solve/{rid}/edit", json={"words": words[1:] + ["NOTAWORDHERE"]}).json()
    assert [w["word"] for w in doc["words"]] == words[1:] + ["NOTAWORDHERE"]
    assert not doc["words"][-1]["found"] and doc["word_list"]["source"] == "argument"
    one = client.get(doc["image_url"] + "&word=" + words[1])
    assert one.status_code == 200 and one.headers["content-type"] == "image/jpeg"
    doc = client.post(f"/api/solve/{rid}/edit", json={"words": words}).json()
    assert sum(w["found"] for w in doc["words"]) == 20


@pytest.mark.parametrize("body", [
    {"cells": [{"row": 99, "col": 0, "letter": "A"}]},
    {"cells": [{"row": 0, "col": 0, "letter": "1"}]},
    {"cells": [{"row": 0, "col": 0, "letter": "AB"}]},
    {"cells": [{"row": 0, "col": 0}]},
    {"puzzle": 5},
])
def test_bad_edits_are_422(client, solved, body):
    assert_error(client.post(f"/api/solve/{solved['id']}/edit", json=body), 422)


def test_bad_and_expired_ids_are_404(client, solved, monkeypatch):
    for rid in ("nope", "A" * 22, "../../etc/passwd", "%2e%2e%2fserve.py"):
        assert_error(client.get(f"/api/solve/{rid}"), 404)
        assert_error(client.get(f"/api/solve/{rid}/image"), 404)
        assert_error(client.post(f"/api/solve/{rid}/edit", json={}), 404)
    store = client.app.state.results
    rid = store.add(Entry([], b"x", "x.jpg"))
    monkeypatch.setattr(store, "seconds", 0.01)
    time.sleep(0.05)
    assert_error(client.get(f"/api/solve/{rid}/json"), 404, "not_found")


def test_bad_uploads(client):
    """Each bad input gets its own status code and a one-line message naming the problem."""
    photo = PHOTO.read_bytes()
    assert_error(post_image(client, b""), 400, "bad_input")
    assert_error(post_image(client, b"just some words\nin a text file\n", "list.jpg"), 415, "not_image")
    assert_error(post_image(client, photo[: len(photo) // 3]), 400, "bad_input")  # truncated JPEG
    bomb = io.BytesIO()
    Image.new("1", (10_000, 10_000)).save(bomb, "PNG")  # 100 megapixels in a few kilobytes
    assert_error(post_image(client, bomb.getvalue(), "bomb.png"), 413, "too_large")
    assert_error(post_image(client, np.random.default_rng(0).bytes(MAX_MB * 2 << 20)), 413, "too_large")
    assert_error(client.post("/api/solve", data={"words": "CAT"},
                             files={"other": ("x.txt", b"x", "text/plain")}), 422)
    assert_error(client.post("/api/solve", json={"image": "x"}), 415)
    blank = encode_image(np.full((600, 800, 3), 255, np.uint8), "blank.png")
    body = assert_error(post_image(client, blank, "blank.png"), 422, "no_grid")
    assert "blank.png" in body["error"]
    assert client.get("/api/health").json()["busy"] == 0  # nothing left running


def test_pdf_uses_its_first_page(client):
    page = encode_image(np.asarray(Image.open(SAMPLES / "printable.png").convert("RGB"))[:, :, ::-1], "p.jpg")
    w, h = Image.open(SAMPLES / "printable.png").size
    truth = json.loads((SAMPLES / "printable.png.json").read_text())
    data = pdf.jpegs_to_pdf([page], [(w, h)])
    response = post_image(client, data, "sheet.pdf", words="\n".join(truth["words"]))
    assert response.status_code == 200, response.text
    doc = response.json()
    assert (doc["grid"]["rows"], doc["grid"]["cols"]) == (truth["rows"], truth["cols"])
    assert sum(w["found"] for w in doc["words"]) == len(truth["words"])


def test_security_headers_and_no_file_access(client):
    for url in ("/", "/static/app.js", "/api/health", "/api/solve/x"):
        headers = client.get(url).headers
        assert "default-src 'self'" in headers["content-security-policy"]
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
    page = client.get("/").text
    assert "http://" not in page and "https://" not in page  # no CDN, no external fonts or scripts
    for url in ("/static/serve.py", "/static/..%2fserve.py", "/static/%2e%2e/%2e%2e/pyproject.toml"):
        assert client.get(url).status_code == 404


def test_busy_server_answers_503_at_once():
    """One worker and no queue: while a photo is being solved, a second upload is refused at once."""
    with TestClient(create_app(workers=1, queue=0), raise_server_exceptions=False) as c:
        first = {}
        thread = threading.Thread(target=lambda: first.update(r=c.post(
            "/api/solve", files={"image": ("photo.jpg", PHOTO.read_bytes(), "image/jpeg")})))
        thread.start()
        deadline = time.monotonic() + 30
        while c.get("/api/health").json()["busy"] == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        t0 = time.monotonic()
        second = post_image(c, PHOTO.read_bytes())
        assert time.monotonic() - t0 < 2
        assert_error(second, 503, "busy")
        assert int(second.headers["retry-after"]) > 0
        thread.join(60)
        assert first["r"].status_code == 200


def test_job_time_limit_is_504(client, monkeypatch):
    monkeypatch.setattr(client.app.state.pool, "seconds", 0.01)
    assert_error(post_image(client, PHOTO.read_bytes(), words="APPLE"), 504, "timeout")


def test_internal_error_is_500_with_a_logged_id(client, solved, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr("scanner.serve.resolve", broken)
    with caplog.at_level(logging.ERROR, logger="wordsearch.serve"):
        response = client.post(f"/api/solve/{solved['id']}/edit", json={"cells": []})
    body = assert_error(response, 500, "internal")
    assert "secret" not in response.text
    assert body["error_id"] in caplog.text and "secret internals" in caplog.text


def test_boggle(client):
    doc = client.post("/api/boggle", json={"board": "SERS PATG LINE SERS", "min_length": 5}).json()
    assert doc["rows"] == doc["cols"] == 4 and all(len(r["word"]) >= 5 for r in doc["results"])
    words = {r["word"]: r for r in doc["results"]}
    assert "ENTRAILS" in words and len(words["ENTRAILS"]["path"]) == 8
    given = client.post("/api/boggle", json={"board": "SERS PATG LINE SERS", "words": "entrails, zzz"}).json()
    assert [r["found"] for r in given["results"]] == [True, False]
    assert_error(client.post("/api/boggle", json={"board": "AB CDE"}), 400)
    assert_error(client.post("/api/boggle", json={"min_length": 3}), 422)


def test_results_are_bounded():
    """The store keeps at most `count` results, dropping the least recently used."""
    store = Results(count=2)
    ids = [store.add(Entry([], b"x", "x")) for _ in range(3)]
    assert len(store) == 2
    with pytest.raises(ApiError):
        store.get(ids[0])
    assert store.get(ids[2]).name == "x" and len(ids[2]) >= 22


def test_a_killed_worker_costs_one_answer_not_the_server():
    """A worker killed mid-job (as the out-of-memory killer would): that upload gets 503, the next one is solved."""
    import os
    import signal

    with TestClient(create_app(workers=1), raise_server_exceptions=False) as c:
        first = {}
        thread = threading.Thread(target=lambda: first.update(r=post_image(c, PHOTO.read_bytes())))
        thread.start()
        deadline = time.monotonic() + 60
        while c.get("/api/health").json()["busy"] == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.3)
        (worker,) = c.app.state.pool._executor._processes  # this app's one worker, now reading the photo
        os.kill(worker, signal.SIGKILL)
        thread.join(60)
        assert_error(first["r"], 503, "worker_lost")
        again = post_image(c, PHOTO.read_bytes(), words="APPLE,BANANA")
        assert again.status_code == 200, again.text
        assert c.get("/api/health").json()["busy"] == 0
