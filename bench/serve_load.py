"""Load test of the web app: a real `wordsearch serve` on 127.0.0.1, a bounded number of uploads at several
concurrencies, then edits.

Usage: .venv/bin/python bench/serve_load.py [--uploads 60] [--concurrency 1,4,16] [--workers N] [--edits 40]
                                            [--words-given] [--baseline-runs 5]

Prints, per concurrency: p50/p95 latency of the answered uploads, throughput (solved photos per second), how many
were answered 503 (busy: the client waits 0.5 s and sends its next upload), other errors (must be 0: a hang past
120 s counts as one), and the server's peak memory (RSS of the server and its OCR workers, summed). Then the edit
re-solve (a corrected cell, then undone) with and without fetching the redrawn image the page shows. Baselines in
the same run: a fresh `wordsearch solve` process per photo (what one does without the server) for uploads, and a
new upload of the photo for an edit. Only loopback traffic; every loop is bounded in count and time.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
PHOTO = ROOT / "samples" / "photo.jpg"
HANG_S = 120.0
BUSY_PAUSE_S = 0.5


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`wordsearch serve` as a child process, with a sampler of its process tree's memory."""

    def __init__(self, workers: int | None):
        self.port = free_port()
        cmd = [sys.executable, "-m", "scanner.cli", "serve", "--port", str(self.port)]
        if workers:
            cmd += ["--workers", str(workers)]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{self.port}"
        self.peak = 0
        self._stop = threading.Event()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            self.close()
            raise SystemExit("the server did not start")
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()

    def tree(self) -> list[psutil.Process]:
        root = psutil.Process(self.proc.pid)
        return [root, *root.children(recursive=True)]

    def rss(self) -> int:
        total = 0
        for p in self.tree():
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
        return total

    def cpu(self) -> float:
        total = 0.0
        for p in self.tree():
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except psutil.Error:
                pass
        return total

    def _sample(self) -> None:
        while not self._stop.wait(0.1):
            self.peak = max(self.peak, self.rss())

    def close(self) -> None:
        self._stop.set()
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def upload(client: httpx.Client, url: str, data: bytes, words: str | None) -> tuple[int, float, dict | None]:
    t0 = time.perf_counter()
    form = {"words": words} if words else None
    try:
        r = client.post(f"{url}/api/solve", files={"image": ("photo.jpg", data, "image/jpeg")}, data=form,
                        timeout=HANG_S)
    except httpx.HTTPError:
        return -1, time.perf_counter() - t0, None
    return r.status_code, time.perf_counter() - t0, r.json() if r.status_code == 200 else None


def load_phase(server: Server, uploads: int, concurrency: int, words: str | None) -> dict:
    """`uploads` requests from `concurrency` clients; a client answered 503 pauses, then goes on."""
    data = PHOTO.read_bytes()
    lock = threading.Lock()
    left = [uploads]
    latencies, statuses = [], []

    def client_loop() -> None:
        with httpx.Client() as client:
            while True:
                with lock:
                    if left[0] == 0:
                        return
                    left[0] -= 1
                status, seconds, _ = upload(client, server.url, data, words)
                with lock:
                    statuses.append(status)
                    if status == 200:
                        latencies.append(seconds)
                if status == 503:
                    time.sleep(BUSY_PAUSE_S)

    server.peak = server.rss()
    cpu0, t0 = server.cpu(), time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        for f in [pool.submit(client_loop) for _ in range(concurrency)]:
            f.result()
    wall, cpu = time.perf_counter() - t0, server.cpu() - cpu0
    ok = len(latencies)
    q = statistics.quantiles(latencies, n=20) if ok >= 2 else [latencies[0]] * 19 if ok else [float("nan")] * 19
    return {"c": concurrency, "sent": len(statuses), "ok": ok, "p50": statistics.median(latencies) if ok else None,
            "p95": q[18], "tput": ok / wall, "busy": statuses.count(503),
            "errors": sum(1 for s in statuses if s not in (200, 503)), "peak": server.peak, "cpu": cpu / max(ok, 1)}


def edit_phase(server: Server, edits: int, words: str | None) -> dict:
    """Correct one cell of a found word and undo it, `edits` times; with and without the redrawn image."""
    with httpx.Client(base_url=server.url, timeout=HANG_S) as client:
        status, _, doc = upload(client, server.url, PHOTO.read_bytes(), words)
        assert status == 200, status
        rid = doc["id"]
        client.get(doc["image_url"] + "&size=screen")  # as the page does (and the original is then decoded for redraws)
        word = next(w for w in doc["words"] if w["found"] and len(w["word"]) >= 5)
        row, col = word["cells"][2]
        letters = [doc["grid"]["letters"][row][col], "Z" if doc["grid"]["letters"][row][col] != "Z" else "Y"]
        json_only, with_image = [], []
        cpu0 = server.cpu()
        for k in range(edits):
            t0 = time.perf_counter()
            r = client.post(f"/api/solve/{rid}/edit", json={"cells": [{"row": row, "col": col,
                                                                       "letter": letters[(k + 1) % 2]}]})
            t1 = time.perf_counter()
            assert r.status_code == 200, r.text
            assert client.get(r.json()["image_url"] + "&size=screen").status_code == 200
            t2 = time.perf_counter()
            json_only.append(t1 - t0)
            with_image.append(t2 - t0)
        cpu = (server.cpu() - cpu0) / edits
    return {"cpu": cpu, "json": statistics.median(json_only), "image": statistics.median(with_image),
            "json95": statistics.quantiles(json_only, n=20)[18], "image95": statistics.quantiles(with_image, n=20)[18]}


def cli_baseline(runs: int, words: str | None) -> float:
    """Median wall time of a fresh `wordsearch solve photo.jpg --json -` process."""
    cmd = [sys.executable, "-m", "scanner.cli", "solve", str(PHOTO), "--json", "-"]
    if words:
        cmd += ["--words", words.replace("\n", ",")]
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=60)
    parser.add_argument("--concurrency", default="1,4,16")
    parser.add_argument("--workers", type=int, default=None, help="server OCR workers (default: CPU count)")
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--words-given", action="store_true",
                        help="send the word list with each upload (default: read it from the photo, as the page does)")
    parser.add_argument("--baseline-runs", type=int, default=5)
    args = parser.parse_args()
    import json

    truth = json.loads((ROOT / "samples" / "photo.jpg.json").read_text())
    words = "\n".join(truth["words"]) if args.words_given else None

    server = Server(args.workers)
    try:
        warm = args.workers or psutil.cpu_count() or 1  # warm-up: start every worker and its OCR engine
        with ThreadPoolExecutor(warm) as pool, httpx.Client() as client:
            list(pool.map(lambda _: upload(client, server.url, PHOTO.read_bytes(), words), range(warm)))
        rows = [load_phase(server, args.uploads, int(c), words) for c in args.concurrency.split(",")]
        edits = edit_phase(server, args.edits, words)
    finally:
        server.close()
    baseline = cli_baseline(args.baseline_runs, words)

    mode = "word list given" if words else "word list read from the photo"
    print(f"samples/photo.jpg (12 MP, 15x15), {mode}; {args.uploads} uploads per row; server workers: "
          f"{args.workers or psutil.cpu_count()}")
    print()
    print("| concurrency | answered 200 | p50 | p95 | solved/s | 503 busy | other errors | server peak RSS | "
          "server CPU per photo |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['c']} | {r['ok']}/{r['sent']} | {r['p50']:.2f} s | {r['p95']:.2f} s | {r['tput']:.2f} | "
              f"{r['busy']} | {r['errors']} | {r['peak'] / 2**20:.0f} MB | {r['cpu']:.2f} s |")
    print()
    first = rows[0]
    print("| case | ours | baseline | ratio |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| one photo, p50 (server, concurrency {first['c']} vs a fresh `wordsearch solve` process) | "
          f"{first['p50']:.2f} s | {baseline:.2f} s | {baseline / first['p50']:.1f}x |")
    print(f"| edit re-solve, p50 (JSON; p95 {edits['json95'] * 1000:.0f} ms) vs uploading the photo again | "
          f"{edits['json'] * 1000:.0f} ms | {first['p50'] * 1000:.0f} ms | {first['p50'] / edits['json']:.0f}x |")
    print(f"| edit + the redrawn image the page shows, p50 (p95 {edits['image95'] * 1000:.0f} ms) | "
          f"{edits['image'] * 1000:.0f} ms | {first['p50'] * 1000:.0f} ms | {first['p50'] / edits['image']:.0f}x |")
    print(f"| server CPU per edit + redrawn image vs per photo | {edits['cpu'] * 1000:.0f} ms | "
          f"{first['cpu'] * 1000:.0f} ms | {first['cpu'] / edits['cpu']:.0f}x |")
    print()
    print(f"load average during the run: {' / '.join(f'{x:.1f}' for x in psutil.getloadavg())} (1/5/15 min) "
          f"on {psutil.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
