"""Batch mode: solve every puzzle in folders of photos and multi-page PDFs, in parallel, with a summary and one
printable PDF of answer keys.

One task per page (a PDF's pages are separate tasks, rendered inside the worker). Workers only compute: they
return the encoded outputs and the parent writes them atomically, so an interrupted run never leaves half a file.
A page is finished when its record in OUTDIR/.wordsearch-batch/ exists (written after its outputs); a re-run
skips finished pages unless `force`. The same task function runs on a local process pool or on a Dask cluster.
"""
from __future__ import annotations

import csv
import io
import json
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from scanner import pdf
from scanner.engine import get_engine
from scanner.export import encode_image
from scanner.imaging import shrink
from solver.files import write_bytes_atomic, write_json_atomic
from scanner.load import load_image
from scanner.pipeline import DEFAULT_ALPHABET, annotate, solve_image
from solver.errors import BadInputError, EngineError, OutputError, WordSearchError

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp", ".tif", ".tiff", ".bmp", ".heic", ".heif"})
"""File types picked up when scanning a folder (plus .pdf); files named on the command line are always tried."""
FORMATS = ("png", "jpg", "pdf")
STATE_DIR = ".wordsearch-batch"
"""Per-page records and answer-key images of finished pages, inside OUTDIR."""
KEY_LONG_SIDE = 2339
"""Answer-key pages are stored at most this many pixels long (an A4 page at 200 dpi)."""
SUMMARY_FIELDS = ("input", "page", "puzzle", "rows", "cols", "words_found", "words_listed", "corrected_cells",
                  "low_confidence_cells", "seconds", "status", "error", "output")
OK, SKIPPED, FAILED = "ok", "skipped", "failed"


@dataclass(frozen=True)
class PageTask:
    """One page to solve: an image file, or page `page` (1-based) of a PDF. `name` is the output base name
    relative to OUTDIR (e.g. "scans/week1-p2"); `error` is set when the input failed before any page was read."""

    input: str
    page: int | None
    name: str
    error: str | None = None

    @property
    def source(self) -> str:
        return self.input if self.page is None else f"{self.input} page {self.page}"


@dataclass(frozen=True)
class Options:
    """What every page of a run shares."""

    words: tuple[str, ...] | None = None  # None: read each page's own word list
    words_source: str = "argument"
    fmt: str = "png"
    engine: str = "tesserocr"
    alphabet: str = DEFAULT_ALPHABET


@dataclass
class PageOutcome:
    """What a worker sends back for one page: summary rows plus the encoded files (names relative to OUTDIR)."""

    task: PageTask
    rows: list[dict]
    images: dict[str, bytes] = field(default_factory=dict)
    docs: dict[str, dict] = field(default_factory=dict)
    key_jpeg: bytes | None = None
    error: str | None = None
    exit_code: int = 0


@dataclass
class BatchReport:
    """A finished run: the summary rows in input order and page counts by status."""

    outdir: Path
    rows: list[dict]
    pages: int
    ok: int
    skipped: int
    failed: int
    seconds: float
    summary_csv: Path
    answer_keys: Path | None

    def to_json(self) -> dict:
        return {"outdir": str(self.outdir), "pages": self.pages, "ok": self.ok, "skipped": self.skipped,
                "failed": self.failed, "puzzles": sum(1 for r in self.rows if r["puzzle"] is not None),
                "seconds": round(self.seconds, 2), "summary_csv": str(self.summary_csv),
                "answer_keys": str(self.answer_keys) if self.answer_keys else None, "rows": self.rows}

    def counts_line(self) -> str:
        return (f"{self.pages} pages: {self.ok} solved, {self.skipped} skipped (done before), {self.failed} failed "
                f"in {self.seconds:.1f} s; summary: {self.summary_csv}"
                + (f"; answer keys: {self.answer_keys}" if self.answer_keys else ""))


# ---------------------------------------------------------------------------------------------------------------
# Inputs -> page tasks


def _files_in(folder: Path, skip: Path) -> Iterator[Path]:
    """Image and PDF files under `folder`, recursively, sorted; hidden entries and the output folder skipped."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and (Path(root) / d).resolve() != skip)
        for name in sorted(files):
            suffix = Path(name).suffix.lower()
            if not name.startswith(".") and (suffix in IMAGE_SUFFIXES or suffix == ".pdf"):
                yield Path(root) / name


def _unique(base: str, suffix: str, used: set[str]) -> str:
    """`base`, or a variant of it no other input has taken (a.jpg and a.png both exist -> "a", "a-png")."""
    name = base
    if name in used:
        name = f"{base}-{suffix.lstrip('.').lower()}"
    k = 2
    while name in used:
        name, k = f"{base}-{k}", k + 1
    used.add(name)
    return name


def expand_inputs(inputs: Iterable[str | Path], outdir: str | Path) -> list[PageTask]:
    """Page tasks in input order: files as given, folders recursively (image types and PDFs), one task per PDF
    page. A PDF that cannot be opened becomes one task carrying its error."""
    skip = Path(outdir).resolve()
    used: set[str] = set()
    tasks = []
    for item in map(Path, inputs):
        if item.is_dir():
            if item.resolve() == skip:
                raise OutputError(f"the output folder {outdir} is also an input folder; choose another -o")
            found = [(f, f.relative_to(item).with_suffix("").as_posix()) for f in _files_in(item, skip)]
        else:
            found = [(item, item.stem)]
        for path, base in found:
            name = _unique(base, path.suffix, used)
            if not pdf.is_pdf(path):
                tasks.append(PageTask(str(path), None, name))
                continue
            try:
                pages = pdf.page_count(path)
            except BadInputError as err:
                tasks.append(PageTask(str(path), None, name, error=str(err)))
                continue
            tasks.extend(PageTask(str(path), k, f"{name}-p{k}") for k in range(1, pages + 1))
    return tasks


# ---------------------------------------------------------------------------------------------------------------
# The per-page task (runs in a worker process or on a Dask worker)


def init_worker(threads: int = 1, engine: str = "tesserocr") -> None:
    """Process-pool initializer: leave Ctrl-C to the parent, size thread pools, create the OCR engine once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    cv2.setNumThreads(threads)
    try:
        get_engine(engine)
    except EngineError:
        pass  # each task raises it again and the parent stops the run with the message


def _encode(image: np.ndarray, name: str) -> bytes:
    """Encode an annotated page for its output file name (.png, .jpg, or .pdf: a printable A4 page)."""
    if name.endswith(".pdf"):
        h, w = image.shape[:2]
        return pdf.jpegs_to_pdf([encode_image(image, "page.jpg")], [(w, h)])
    return encode_image(image, name)


def _key_image(image: np.ndarray) -> bytes:
    scale = KEY_LONG_SIDE / max(image.shape[:2])
    if scale < 1:
        image = shrink(image, scale)
    return encode_image(image, "key.jpg")


def _row(task: PageTask, puzzle: int | None = None, **values) -> dict:
    """A summary row; None (an empty CSV cell, null in JSON) where a value does not apply."""
    row = dict.fromkeys(SUMMARY_FIELDS)
    row.update(input=task.input, page=task.page, puzzle=puzzle, **values)
    return row


def failed_outcome(task: PageTask, error: str, exit_code: int, seconds: float = 0.0) -> PageOutcome:
    row = _row(task, seconds=round(seconds, 2), status=FAILED, error=error)
    return PageOutcome(task, [row], error=error, exit_code=exit_code)


def run_page(task: PageTask, options: Options) -> PageOutcome:
    """Read, solve and annotate one page; never raises for a bad page (the outcome carries the error)."""
    start = time.perf_counter()
    try:
        image = load_image(task.input) if task.page is None else pdf.render_page(task.input, task.page)
        load_ms = round((time.perf_counter() - start) * 1000, 1)
        words = list(options.words) if options.words is not None else None
        puzzles = solve_image(image, source=task.source, words=words, words_source=options.words_source,
                              alphabet=options.alphabet, engine=options.engine)
        outcome = PageOutcome(task, [])
        for k, puzzle in enumerate(puzzles, 1):
            puzzle.timings_ms["load"] = load_ms
            stem = f"{task.name}-{k}"
            annotated = annotate(image, [puzzle])
            outcome.images[f"{stem}.{options.fmt}"] = _encode(annotated, f"{stem}.{options.fmt}")
            outcome.docs[f"{stem}.json"] = {"page": task.page, **puzzle.to_json()}
            outcome.rows.append(_row(
                task, k, rows=puzzle.rows, cols=puzzle.cols,
                words_found=sum(1 for r in puzzle.results if r.found), words_listed=len(puzzle.results),
                corrected_cells=len({tuple(m.cell) for m in puzzle.corrections}),
                low_confidence_cells=len(puzzle.low_confidence()), status=OK, output=f"{stem}.{options.fmt}"))
        outcome.key_jpeg = _key_image(annotated if len(puzzles) == 1 else annotate(image, puzzles))
    except WordSearchError as err:
        return failed_outcome(task, str(err), err.exit_code, time.perf_counter() - start)
    except Exception as exc:  # a bug on one page must not stop the batch; it is reported like a bad page
        return failed_outcome(task, f"internal error on {task.source}: {type(exc).__name__}: {exc}", 1,
                              time.perf_counter() - start)
    seconds = round(time.perf_counter() - start, 2)
    for row in outcome.rows:
        row["seconds"] = seconds
    return outcome


# ---------------------------------------------------------------------------------------------------------------
# Finished-page records (skip on re-run)


def _fingerprint(path: str) -> list[int]:
    st = os.stat(path)
    return [st.st_size, st.st_mtime_ns]


def _record_path(outdir: Path, task: PageTask) -> Path:
    return outdir / STATE_DIR / f"{task.name}.json"


def _key_path(outdir: Path, task: PageTask) -> Path:
    return outdir / STATE_DIR / f"{task.name}.key.jpg"


def _options_json(options: Options) -> dict:
    return {"words": list(options.words) if options.words is not None else None, "format": options.fmt,
            "engine": options.engine, "alphabet": options.alphabet}


def finished_rows(outdir: Path, task: PageTask, options: Options) -> list[dict] | None:
    """The summary rows of a page finished by an earlier run with the same input and options, else None."""
    try:
        record = json.loads(_record_path(outdir, task).read_text(encoding="utf-8"))
        same = (record["fingerprint"] == _fingerprint(task.input) and record["options"] == _options_json(options)
                and all((outdir / name).is_file() for name in record["outputs"])
                and _key_path(outdir, task).is_file())
    except (OSError, ValueError, KeyError):
        return None
    return [{**row, "status": SKIPPED} for row in record["rows"]] if same else None


def store(outdir: Path, outcome: PageOutcome, options: Options, inputs: set[str]) -> PageOutcome:
    """Write a solved page's files atomically, its record last (the record marks the page finished)."""
    task = outcome.task
    try:
        for name, data in outcome.images.items():
            (outdir / name).parent.mkdir(parents=True, exist_ok=True)
            write_bytes_atomic(outdir / name, data, inputs=inputs)
        for name, doc in outcome.docs.items():
            write_json_atomic(outdir / name, doc, inputs=inputs)
        key = _key_path(outdir, task)
        key.parent.mkdir(parents=True, exist_ok=True)
        write_bytes_atomic(key, outcome.key_jpeg, inputs=inputs)
        record = {"input": task.input, "page": task.page, "fingerprint": _fingerprint(task.input),
                  "options": _options_json(options), "outputs": [*outcome.images, *outcome.docs],
                  "rows": outcome.rows}
        write_json_atomic(_record_path(outdir, task), record, inputs=inputs)
    except (WordSearchError, OSError) as err:
        message = str(err) if isinstance(err, WordSearchError) else f"cannot write outputs for {task.source}: {err}"
        return failed_outcome(task, message, OutputError.exit_code)
    return outcome


def _remove_stale_temp_files(outdir: Path) -> None:
    """Temp files left by a killed run (scanner.export names them .<name>.<random>.tmp)."""
    for tmp in outdir.rglob(".*.tmp"):
        if tmp.is_file():
            tmp.unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------------------------
# Executors: a local process pool or a Dask cluster, both yielding outcomes as pages finish


def _mp_context() -> multiprocessing.context.BaseContext:
    """Workers start from a fork server that imported this module once: quick to start, and clean (a plain fork
    would copy the parent's threads' locks, e.g. the progress bar's, and any OCR engine the parent made)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context


def _local_pool(tasks: list[PageTask], options: Options, workers: int) -> Iterator[PageOutcome]:
    workers = max(1, min(workers, len(tasks)))
    threads = max(1, (os.cpu_count() or 1) // workers)
    pool = ProcessPoolExecutor(workers, mp_context=_mp_context(), initializer=init_worker,
                               initargs=(threads, options.engine))
    try:
        pending: dict[Future, PageTask] = {pool.submit(run_page, task, options): task for task in tasks}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                task = pending.pop(fut)
                try:
                    yield fut.result()
                except Exception as exc:  # the worker process died (killed, out of memory)
                    yield failed_outcome(task, f"worker failed on {task.source}: {type(exc).__name__}: {exc}", 1)
    finally:  # normal end, Ctrl-C or an error: drop queued pages; running ones finish (workers ignore SIGINT)
        pool.shutdown(wait=True, cancel_futures=True)


def _dask(tasks: list[PageTask], options: Options, address: str) -> Iterator[PageOutcome]:
    from distributed import Client, as_completed

    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError) as exc:
        raise BadInputError(f"cannot connect to the Dask scheduler at {address}: {exc}") from None
    futures = []
    try:
        futures = [client.submit(run_page, task, options, pure=False) for task in tasks]
        task_of = dict(zip(futures, tasks))
        for fut in as_completed(futures):
            try:
                yield fut.result()
            except Exception as exc:  # the worker died (KilledWorker) or cannot import the package
                task = task_of[fut]
                yield failed_outcome(task, f"Dask worker failed on {task.source}: {type(exc).__name__}: {exc}", 1)
    finally:
        client.cancel(futures)
        client.close()


def _solve_all(tasks: list[PageTask], options: Options, workers: int | None,
               dask_address: str | None) -> Iterator[PageOutcome]:
    if not tasks:
        return
    if dask_address:
        yield from _dask(tasks, options, dask_address)
    else:
        yield from _local_pool(tasks, options, workers or os.cpu_count() or 1)


@contextmanager
def _progress(total: int, enabled: bool) -> Iterator[Callable[[], None]]:
    """A rich progress bar (count, elapsed, ETA) on stderr when enabled; yields the 'one more page' callback."""
    if not enabled or total == 0:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    columns = (TextColumn("solving"), BarColumn(), MofNCompleteColumn(), TextColumn("pages"), TimeElapsedColumn(),
               TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=False) as bar:
        job = bar.add_task("pages", total=total)
        yield lambda: bar.advance(job)


# ---------------------------------------------------------------------------------------------------------------
# The run


def write_summary(path: Path, rows: list[dict], inputs: set[str]) -> None:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=SUMMARY_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_bytes_atomic(path, buf.getvalue().encode("utf-8"), inputs=inputs)


def write_answer_keys(path: Path, keys: list[Path], inputs: set[str]) -> None:
    """One printable PDF page per solved input page, in input order."""
    jpegs, sizes = [], []
    for key in keys:
        data = key.read_bytes()
        h, w = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_REDUCED_GRAYSCALE_8).shape[:2]
        jpegs.append(data)
        sizes.append((w, h))  # only the aspect ratio matters: pages are scaled to fit A4
    write_bytes_atomic(path, pdf.jpegs_to_pdf(jpegs, sizes), inputs=inputs)


def run_batch(inputs: Iterable[str | Path], outdir: str | Path, *, words: list[str] | None = None,
              words_source: str = "argument", fmt: str = "png", engine: str = "tesserocr",
              alphabet: str = DEFAULT_ALPHABET, workers: int | None = None, force: bool = False,
              dask_address: str | None = None, progress: bool = False) -> BatchReport:
    """Solve every page of `inputs` into `outdir`: per puzzle `<name>[-p<page>]-<k>.<fmt>` and `.json`, plus
    summary.csv and answer-keys.pdf. Bad pages are recorded, not raised; EngineError stops the run (nothing
    can succeed without the OCR engine). Ctrl-C stops it after the pages in progress, with no partial files."""
    if fmt not in FORMATS:
        raise BadInputError(f"unknown output format {fmt!r}: use one of {', '.join(FORMATS)}")
    start = time.perf_counter()
    outdir = Path(outdir)
    tasks = expand_inputs(inputs, outdir)
    if not tasks:
        raise BadInputError(f"no images or PDFs found in {', '.join(map(str, inputs))}")
    input_files = {t.input for t in tasks}
    options = Options(tuple(words) if words is not None else None, words_source, fmt, engine, alphabet)
    try:
        outdir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create {outdir}: {exc.strerror or exc}") from None
    _remove_stale_temp_files(outdir)

    outcomes: dict[str, PageOutcome] = {}  # by task name (unique)
    todo = []
    for task in tasks:
        rows = None if force or task.error else finished_rows(outdir, task, options)
        if task.error:
            outcomes[task.name] = failed_outcome(task, task.error, BadInputError.exit_code)
        elif rows is not None:
            outcomes[task.name] = PageOutcome(task, rows)
        else:
            todo.append(task)

    with closing(_solve_all(todo, options, workers, dask_address)) as results, \
            _progress(len(todo), progress) as advance:
        for outcome in results:
            if outcome.exit_code == EngineError.exit_code:
                raise EngineError(outcome.error)
            if outcome.error is None:
                outcome = store(outdir, outcome, options, input_files)
            outcomes[outcome.task.name] = outcome
            advance()

    ordered = [outcomes[task.name] for task in tasks]
    rows = [row for outcome in ordered for row in outcome.rows]
    summary = outdir / "summary.csv"
    write_summary(summary, rows, input_files)
    keys = [_key_path(outdir, o.task) for o in ordered if o.error is None]
    answer_keys = outdir / "answer-keys.pdf" if keys else None
    if answer_keys:
        write_answer_keys(answer_keys, keys, input_files)
    statuses = [o.rows[0]["status"] for o in ordered]
    return BatchReport(outdir, rows, len(tasks), statuses.count(OK), statuses.count(SKIPPED), statuses.count(FAILED),
                       time.perf_counter() - start, summary, answer_keys)
