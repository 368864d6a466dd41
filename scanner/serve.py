"""The web app: a phone page and a JSON API over the same library calls as the CLI (FastAPI on uvicorn).

`create_app(...)` builds the app; `run(host, port, workers, max_upload_mb)` serves it (`wordsearch serve`).

- OCR jobs run in a bounded process pool (one Tesseract per worker, as in batch mode). Past the pool and its
  queue the server answers 503 with Retry-After at once; each job has a time limit; the event loop only waits.
- Results live in memory only (time limit + LRU, under `secrets.token_urlsafe` ids): the PuzzleResults (small,
  they cross the process boundary) and the uploaded bytes, decoded again in this process when an edit needs the
  original image for a redraw (a few decoded images are cached).
- An edit (cells and/or words) is `pipeline.resolve` on the kept reading: no upload, no OCR.
- Uploads are read into memory under a byte cap and recognised by content; nothing is written to disk, and no
  request parameter is ever used as a file path.
"""
from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import PurePath
from typing import Literal

import numpy as np
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException, MultiPartParser

from scanner import pdf
from scanner.annotate import palette
from scanner.batch import _mp_context, init_worker
from scanner.export import encode_image
from scanner.imaging import shrink
from scanner.load import decode_image
from scanner.pipeline import PuzzleResult, annotate, resolve, solve_image
from solver.boggle import boggle, parse_board
from solver.errors import (BadInputError, EngineError, NoGridError, NoWordsError, NotAnImageError, TooLargeError,
                           WordSearchError)
from solver.files import split_words

log = logging.getLogger("wordsearch.serve")

MAX_UPLOAD_MB = 25
"""Default cap on one request's upload (both photos together)."""
JOB_SECONDS = 60.0
"""Time limit of one OCR job, queue wait included."""
QUEUE_PER_WORKER = 4
"""Jobs that may wait per worker before the server answers 503."""
RESULT_SECONDS = 30 * 60
MAX_RESULTS = 200
MAX_RESULT_BYTES = 1 << 30
"""Results are dropped, least recently used first, past this count or this many bytes (uploads and images)."""
DECODED_CACHE = 4
"""Decoded original images kept for redraws after an edit (about 36 MB each for a 12-megapixel photo)."""
SCREEN_PX = 2048
"""Long side of the image the page shows (downloads are full resolution): half the encoding, a quarter the bytes."""
MAX_BOARD_TILES = 400
RETRY_AFTER_S = 5
ID_RE = re.compile(r"[A-Za-z0-9_-]{16,64}")

STATIC = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "app.css": "text/css; charset=utf-8", "icon.svg": "image/svg+xml"}
CSP = ("default-src 'self'; img-src 'self' blob:; script-src 'self'; style-src 'self'; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
DOCS_CSP = ("default-src 'self'; img-src 'self' data: https://fastapi.tiangolo.com; "
            "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; style-src 'self' https://cdn.jsdelivr.net; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
"""FastAPI's own /docs page loads Swagger UI from its CDN: that page alone may; the app's page never does."""

ERRORS = [  # (exception class, HTTP status, code the page turns into plain words), most specific first
    (TooLargeError, 413, "too_large"), (NotAnImageError, 415, "not_image"), (NoGridError, 422, "no_grid"),
    (NoWordsError, 422, "no_words"), (BadInputError, 400, "bad_input"), (EngineError, 503, "engine"),
]


class ApiError(Exception):
    """An HTTP answer with a one-line JSON error: {"error": message, "code": code}."""

    def __init__(self, status: int, code: str, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.headers = status, code, headers or {}


# ---------------------------------------------------------------------------------------------------------------
# The worker side (runs in the pool's processes)

_progress_queue = None


def _init_job_worker(progress_queue, threads: int, engine: str) -> None:
    """Pool initializer: batch mode's worker set-up (one OCR engine per process) plus the progress channel."""
    global _progress_queue
    _progress_queue = progress_queue
    init_worker(threads, engine)


def _report(token: str | None, stage: str) -> None:
    if token and _progress_queue is not None:
        _progress_queue.put_nowait((token, stage))


def decode_upload(data: bytes, name: str) -> np.ndarray:
    """An uploaded file's bytes as an upright BGR image, by content: a PDF's first page, or any image Pillow
    reads."""
    if data.startswith(b"%PDF-"):
        return pdf.render_page(data, 1, name=name)
    return decode_image(data, name)


def solve_job(token: str | None, image: bytes, name: str, words: list[str] | None, list_image: bytes | None,
              engine: str) -> tuple[list[PuzzleResult], dict[str, bytes]]:
    """Decode, solve and annotate one upload: the puzzles and the annotated image as JPEG, by size."""
    _report(token, "load")
    t0 = time.perf_counter()
    picture = decode_upload(image, name)
    list_picture = decode_upload(list_image, f"{name} (word list)") if list_image else None
    load_ms = round((time.perf_counter() - t0) * 1000, 1)
    puzzles = solve_image(picture, source=name, words=words, words_source="argument" if words else "image",
                          words_image=list_picture, engine=engine, progress=lambda stage: _report(token, stage))
    for puzzle in puzzles:
        puzzle.timings_ms["load"] = load_ms
    _report(token, "draw")
    return puzzles, encode_sizes(annotate(picture, puzzles))


def encode_sizes(image: np.ndarray, sizes: tuple[str, ...] = ("full", "screen")) -> dict[str, bytes]:
    """JPEGs of an annotated image: "full" resolution, and "screen" (long side at most SCREEN_PX) for the page."""
    out = {}
    for size in sizes:
        k = -(-max(image.shape[:2]) // SCREEN_PX) if size == "screen" else 1  # a whole factor: fastest
        small = shrink(image, 1 / k) if k > 1 else image
        out[size] = encode_image(small, "answer.jpg")
    return out


# ---------------------------------------------------------------------------------------------------------------
# In-memory results


@dataclass
class Entry:
    """One solved upload: its puzzles (edited in place by version), the uploaded bytes, rendered images."""

    puzzles: list[PuzzleResult]
    upload: bytes
    name: str
    images: dict = field(default_factory=dict)  # (version, word, size) -> JPEG bytes
    version: int = 0
    used: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def size(self) -> int:
        return len(self.upload) + sum(len(b) for b in self.images.values())


class Results:
    """Results by unguessable id, dropped after `seconds` unused or least recently used past `count`/`nbytes`."""

    def __init__(self, seconds: float = RESULT_SECONDS, count: int = MAX_RESULTS, nbytes: int = MAX_RESULT_BYTES):
        self.seconds, self.count, self.nbytes = seconds, count, nbytes
        self._items: OrderedDict[str, Entry] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def add(self, entry: Entry) -> str:
        rid = secrets.token_urlsafe(16)
        self._items[rid] = entry
        self.trim()
        return rid

    def get(self, rid: str) -> Entry:
        """The entry (now most recently used); ApiError 404 for an unknown, malformed or expired id."""
        entry = self._items.get(rid) if ID_RE.fullmatch(rid) else None
        if entry is None or time.monotonic() - entry.used > self.seconds:
            self._items.pop(rid, None)
            raise ApiError(404, "not_found", "no such result (results are kept for a limited time)")
        entry.used = time.monotonic()
        self._items.move_to_end(rid)
        return entry

    def trim(self) -> None:
        now = time.monotonic()
        for rid in [rid for rid, e in self._items.items() if now - e.used > self.seconds]:
            del self._items[rid]
        while len(self._items) > self.count or (len(self._items) > 1
                                                and sum(e.size for e in self._items.values()) > self.nbytes):
            self._items.popitem(last=False)


class Decoded:
    """A few decoded originals, by result id, for redrawing after edits (thread-safe: used from worker threads;
    a result being decoded is decoded once, its other callers wait for it)."""

    def __init__(self, size: int = DECODED_CACHE):
        self.size = size
        self._items: OrderedDict[str, np.ndarray] = OrderedDict()
        self._loading: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def _cached(self, rid: str) -> np.ndarray | None:
        with self._lock:
            if rid in self._items:
                self._items.move_to_end(rid)
                return self._items[rid]
        return None

    def image(self, rid: str, entry: Entry) -> np.ndarray:
        with self._lock:
            loading = self._loading.setdefault(rid, threading.Lock())
        with loading:
            image = self._cached(rid)
            if image is None:
                image = decode_upload(entry.upload, entry.name)
                with self._lock:
                    self._items[rid] = image
                    while len(self._items) > self.size:
                        self._items.popitem(last=False)
        with self._lock:
            self._loading.pop(rid, None)
        return image


# ---------------------------------------------------------------------------------------------------------------
# The OCR pool: bounded, never blocking the event loop


class Pool:
    """A process pool with a bounded number of jobs in flight (running + waiting) and per-job progress."""

    def __init__(self, workers: int, queue: int, seconds: float, engine: str):
        self.workers, self.capacity, self.seconds, self.engine = workers, workers + queue, seconds, engine
        self.busy = 0
        self.progress: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self._context = _mp_context()
        self._queue = self._context.Queue()
        self._executor = self._new_executor()
        self._reader = threading.Thread(target=self._read_progress, name="progress", daemon=True)
        self._reader.start()

    def _new_executor(self) -> ProcessPoolExecutor:
        threads = max(1, (os.cpu_count() or 1) // self.workers)
        return ProcessPoolExecutor(self.workers, mp_context=self._context, initializer=_init_job_worker,
                                   initargs=(self._queue, threads, self.engine))

    def _read_progress(self) -> None:
        while (item := self._queue.get()) is not None:
            self.set_stage(*item)

    def set_stage(self, token: str | None, stage: str) -> None:
        if not token:
            return
        with self._lock:
            self.progress[token] = stage
            self.progress.move_to_end(token)
            while len(self.progress) > 1000:
                self.progress.popitem(last=False)

    def _release(self, _future) -> None:
        with self._lock:
            self.busy -= 1

    async def run(self, token: str | None, *args):
        """Run solve_job(token, *args) in the pool; ApiError 503 when full, 504 past the time limit."""
        with self._lock:
            if self.busy >= self.capacity:
                raise ApiError(503, "busy", "the server is busy; try again in a few seconds",
                               {"Retry-After": str(RETRY_AFTER_S)})
            self.busy += 1
        self.set_stage(token, "queued")
        executor = self._executor
        try:
            try:
                future = executor.submit(solve_job, token, *args, self.engine)
            except BrokenProcessPool:
                executor = self._restart(executor)
                future = executor.submit(solve_job, token, *args, self.engine)
        except BaseException:
            self._release(None)
            raise
        # The slot is freed when the job really ends (a timed-out job still occupies its worker).
        future.add_done_callback(self._release)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self.seconds)
        except asyncio.TimeoutError:
            raise ApiError(504, "timeout", f"the photo took longer than {self.seconds:g} s to read") from None
        except BrokenProcessPool:  # a worker died (killed, out of memory): a fresh pool takes the next jobs
            self._restart(executor)
            raise ApiError(503, "worker_lost", "the photo reader stopped unexpectedly; please try again",
                           {"Retry-After": "1"}) from None

    def _restart(self, broken: ProcessPoolExecutor) -> ProcessPoolExecutor:
        """Replace a broken executor (once, however many requests saw it break); the current executor."""
        with self._lock:
            if self._executor is not broken:
                return self._executor
            log.error("an OCR worker died; starting a new pool")
            self._executor = self._new_executor()
        broken.shutdown(wait=False, cancel_futures=True)
        return self._executor

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._queue.put(None)
        self._reader.join(timeout=2)


# ---------------------------------------------------------------------------------------------------------------
# Requests


class CellEdit(BaseModel):
    row: int = Field(ge=0, le=999)
    col: int = Field(ge=0, le=999)
    letter: str = Field(pattern=r"^\p{L}$", description="the cell's right letter (one letter)")


class EditRequest(BaseModel):
    puzzle: int = Field(0, ge=0, le=99, description="which puzzle of the page (0 = the largest)")
    cells: list[CellEdit] = Field(default_factory=list, max_length=10_000)
    words: list[str] | None = Field(None, max_length=2_000, description="the whole new word list (omit to keep it)")


class BoggleRequest(BaseModel):
    board: str = Field(min_length=1, max_length=4_000, description='rows separated by spaces, e.g. "ABCD EFGH ..."')
    min_length: int = Field(3, ge=1, le=30)
    words: list[str] | str | None = Field(None, description="words to look for (default: every dictionary word)")


SOLVE_FORM = {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["image"], "properties": {
        "image": {"type": "string", "format": "binary", "description": "photo, scan, screenshot or PDF (page 1)"},
        "words": {"type": "string", "description": "the word list, one per line or comma-separated (optional)"},
        "words_image": {"type": "string", "format": "binary", "description": "a picture of the word list"}}}}}}}


async def read_capped(request: Request, limit: int) -> bytes:
    """The request body, refusing (413) as soon as it exceeds `limit` bytes, declared or streamed."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, "too_large", f"the upload is over {limit // (1 << 20)} MB")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ApiError(413, "too_large", f"the upload is over {limit // (1 << 20)} MB")
    return bytes(body)


async def parse_form(request: Request, body: bytes, limit: int) -> dict:
    """Multipart fields of an already read body, files kept in memory (never spooled to a temporary file)."""
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise ApiError(415, "bad_request", "send the photo as multipart/form-data (field 'image')")

    async def stream():
        yield body

    parser = MultiPartParser(request.headers, stream(), max_files=2, max_fields=4, max_part_size=1 << 20)
    parser.spool_max_size = limit + 1
    try:
        form = await parser.parse()
    except MultiPartException as exc:
        raise ApiError(400, "bad_request", f"malformed form data: {exc.message}") from None
    fields = {}
    for key, value in form.multi_items():
        if key in fields:
            raise ApiError(400, "bad_request", f"the field {key!r} is given twice")
        if isinstance(value, str):
            fields[key] = value
        else:
            fields[key] = (await value.read(), value.filename or "upload")
    return fields


def upload_name(filename: str) -> str:
    """A client's file name, only for messages and the JSON's "source": its last part, printable, short."""
    name = PurePath(filename.replace("\\", "/")).name
    name = "".join(ch for ch in name if ch.isprintable())[:80]
    return name or "upload"


def colours(puzzle: PuzzleResult) -> dict[str, str]:
    """Each found word's ellipse colour (as scanner.annotate draws it) as #rrggbb."""
    found = [res.word for res in puzzle.results if res.found]
    return {word: "#%02x%02x%02x" % (r, g, b) for word, (b, g, r) in zip(found, palette(len(found)))}


def result_json(rid: str, entry: Entry) -> dict:
    """The JSON contract of the largest puzzle, plus the id, URLs, version and the words' colours."""
    docs = [p.to_json() for p in entry.puzzles]
    out = {**docs[0], "id": rid, "version": entry.version,
           "image_url": f"/api/solve/{rid}/image?v={entry.version}", "json_url": f"/api/solve/{rid}/json",
           "colours": colours(entry.puzzles[0]), "puzzles": len(docs)}
    if len(docs) > 1:
        out["other_puzzles"] = docs[1:]
    return out


# ---------------------------------------------------------------------------------------------------------------
# The app


def create_app(*, workers: int | None = None, max_upload_mb: float = MAX_UPLOAD_MB, queue: int | None = None,
               job_seconds: float = JOB_SECONDS, results: Results | None = None,
               engine: str = "tesserocr") -> FastAPI:
    """The FastAPI app. `workers`: OCR processes (default: CPU count); `queue`: jobs that may wait for one
    (default QUEUE_PER_WORKER each); `max_upload_mb`: cap on one request's upload."""
    workers = workers or os.cpu_count() or 1
    queue = QUEUE_PER_WORKER * workers if queue is None else queue
    limit = int(max_upload_mb * (1 << 20))
    store = results or Results()
    decoded = Decoded()
    static = {name: resources.files("scanner").joinpath("static", name).read_bytes() for name in STATIC}

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        app.state.pool = Pool(workers, queue, job_seconds, engine)
        log.info("OCR pool: %d workers, %d queued jobs at most", workers, queue)
        try:
            yield
        finally:
            app.state.pool.close()

    app = FastAPI(title="wordsearch", lifespan=lifespan,
                  description="Solve word-search puzzles from a photo; fix a misread letter and solve again.")
    app.state.results = store

    @app.middleware("http")
    async def security_headers(request: Request, call_next):
        response = await call_next(request)
        docs = request.url.path in ("/docs", "/redoc")
        response.headers["Content-Security-Policy"] = DOCS_CSP if docs else CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Referrer-Policy"] = "no-referrer"
        if request.url.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return JSONResponse({"error": str(exc), "code": exc.code}, exc.status, headers=exc.headers)

    @app.exception_handler(WordSearchError)
    async def user_error(request: Request, exc: WordSearchError):
        status, code = next(((s, c) for cls, s, c in ERRORS if isinstance(exc, cls)), (500, "internal"))
        return JSONResponse({"error": str(exc).splitlines()[0], "code": code}, status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return JSONResponse({"error": f"{where or 'request'}: {first.get('msg', 'invalid')}", "code": "invalid"},
                            422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        return JSONResponse({"error": str(exc.detail), "code": "http"}, exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception):
        error_id = secrets.token_hex(6)
        log.error("internal error %s on %s %s", error_id, request.method, request.url.path, exc_info=exc)
        return JSONResponse({"error": f"internal error (id {error_id}); it has been logged", "code": "internal",
                             "error_id": error_id}, 500)

    def page(name: str) -> Response:
        return Response(static[name], media_type=STATIC[name], headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def index():
        return page("index.html")

    @app.get("/static/{name}", include_in_schema=False)
    async def static_file(name: str):
        if name not in static:  # a fixed set of names: nothing from the request reaches the file system
            raise ApiError(404, "not_found", "no such file")
        return page(name)

    @app.get("/api/health", summary="Pool size and load")
    async def health(request: Request):
        pool: Pool = request.app.state.pool
        return {"ok": True, "workers": pool.workers, "busy": pool.busy, "capacity": pool.capacity,
                "results": len(store)}

    @app.get("/api/progress/{token}", summary="The stage of a solve in progress (token: the X-Progress-Id header)")
    async def progress(token: str, request: Request):
        stage = request.app.state.pool.progress.get(token) if ID_RE.fullmatch(token) else None
        return {"stage": stage or "upload"}

    @app.post("/api/solve", summary="Solve a photo", openapi_extra=SOLVE_FORM, responses={
        400: {"description": "empty, corrupt or truncated file; malformed form"}, 413: {"description": "too large"},
        415: {"description": "not an image or PDF"}, 422: {"description": "no grid, no word list, missing field"},
        503: {"description": "busy (Retry-After)"}, 504: {"description": "took too long"}})
    async def solve(request: Request):
        """Multipart fields `image` (required), `words` (one per line or commas), `words_image`. Answers the JSON
        contract of the largest puzzle plus `id`, `image_url`, `json_url`, `version` and `colours`."""
        token = request.headers.get("x-progress-id")
        token = token if token and ID_RE.fullmatch(token) else None
        fields = await parse_form(request, await read_capped(request, limit), limit)
        image = fields.get("image")
        if not isinstance(image, tuple):
            raise ApiError(422, "invalid", "image: a photo file is required (field 'image')")
        data, filename = image
        name = upload_name(filename)
        if not data:
            raise ApiError(400, "bad_input", f"cannot read {name}: the file is empty")
        text = fields.get("words")
        words = split_words(text) if isinstance(text, str) and text.strip() else None
        list_image = fields.get("words_image")
        list_bytes = list_image[0] if isinstance(list_image, tuple) and list_image[0] else None
        puzzles, jpegs = await request.app.state.pool.run(token, data, name, words, list_bytes)
        entry = Entry(puzzles, data, name, images={(0, None, size): jpeg for size, jpeg in jpegs.items()})
        rid = store.add(entry)
        return result_json(rid, entry)

    @app.get("/api/solve/{rid}", summary="A result again (e.g. after a page reload)")
    async def get_result(rid: str):
        return result_json(rid, store.get(rid))

    @app.post("/api/solve/{rid}/edit", summary="Correct cells and/or the word list, and solve again (no OCR)")
    async def edit(rid: str, body: EditRequest):
        entry = store.get(rid)
        async with entry.lock:
            if body.puzzle >= len(entry.puzzles):
                raise ApiError(422, "invalid", f"puzzle: this page has {len(entry.puzzles)} puzzle(s)")
            puzzle = entry.puzzles[body.puzzle]
            grid = [list(row) for row in puzzle.letters]
            for cell in body.cells:
                if cell.row >= puzzle.rows or cell.col >= puzzle.cols:
                    raise ApiError(422, "invalid", f"cell ({cell.row}, {cell.col}) is outside the "
                                                   f"{puzzle.rows}x{puzzle.cols} grid")
                grid[cell.row][cell.col] = cell.letter
            words = None if body.words is None else [w.strip() for w in body.words if w.strip()]
            new = await asyncio.to_thread(resolve, puzzle, letters=grid, words=words)
            entry.puzzles[body.puzzle] = new
            entry.version += 1
            entry.images.clear()
        return result_json(rid, entry)

    @app.get("/api/solve/{rid}/image", summary="The annotated image (JPEG, full resolution)",
             response_class=Response)
    async def image(rid: str, word: str | None = None, size: Literal["full", "screen"] = "full",
                    download: bool = False, v: int | None = None):
        """`word`: draw that word's answer alone; `size=screen`: long side at most 2048 px (what the page shows);
        `download=true`: as an attachment; `v`: ignored (it makes each version's URL new)."""
        entry = store.get(rid)
        key = (entry.version, word, size)
        jpeg = entry.images.get(key)
        if jpeg is None:
            puzzles = list(entry.puzzles)

            def render() -> bytes:
                return encode_sizes(annotate(decoded.image(rid, entry), puzzles, only=word), (size,))[size]

            jpeg = await asyncio.to_thread(render)
            if len(entry.images) >= 4:
                entry.images.pop(next(iter(entry.images)))
            entry.images[key] = jpeg
            store.trim()
        headers = {"Cache-Control": "private, max-age=3600"}
        if download:
            headers["Content-Disposition"] = 'attachment; filename="wordsearch-answers.jpg"'
        # Someone is looking at this result: decode the original now, so that a first edit redraws at once.
        warm = BackgroundTask(decoded.image, rid, entry) if entry.version == 0 and word is None else None
        return Response(jpeg, media_type="image/jpeg", headers=headers, background=warm)

    @app.get("/api/solve/{rid}/json", summary="The result as `wordsearch solve --json` writes it (attachment)")
    async def result_file(rid: str):
        docs = [p.to_json() for p in store.get(rid).puzzles]
        return JSONResponse(docs[0] if len(docs) == 1 else docs,
                            headers={"Content-Disposition": 'attachment; filename="wordsearch-answers.json"'})

    @app.post("/api/boggle", summary="Words on a Boggle/Wordament board, each with its path")
    async def boggle_words(body: BoggleRequest):
        tiles = parse_board(body.board)
        if sum(len(row) for row in tiles) > MAX_BOARD_TILES:
            raise ApiError(422, "invalid", f"board: at most {MAX_BOARD_TILES} tiles")
        words = split_words(body.words) if isinstance(body.words, str) else body.words
        results = await asyncio.to_thread(boggle, tiles, words or None, min_length=body.min_length)
        return {"board": [" ".join(row) for row in tiles], "rows": len(tiles), "cols": len(tiles[0]),
                "tiles": tiles, "coordinates": "0-based [row, col] from the top-left",
                "results": [r.to_dict() for r in results]}

    return app


def run(host: str = "127.0.0.1", port: int = 8000, workers: int | None = None,
        max_upload_mb: float = MAX_UPLOAD_MB) -> None:
    """Serve the app with uvicorn (one server process; the OCR runs in its worker pool)."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    uvicorn.run(create_app(workers=workers, max_upload_mb=max_upload_mb), host=host, port=port,
                log_level="info", timeout_graceful_shutdown=5)
