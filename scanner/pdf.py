"""PDF in and out for batch mode: count and render pages of scanned worksheets; build printable answer-key PDFs."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium

from solver.errors import BadInputError

RENDER_DPI = 200
"""Pages are rendered at this resolution: letters of a printed 15x15 grid get ~40 px cells, plenty for the OCR."""
MAX_RENDER_PIXELS = 40_000_000
"""A page whose rendering would be larger than this is rendered at a lower DPI (posters, huge page boxes)."""
A4_POINTS = (595.0, 842.0)
MARGIN_POINTS = 28.0


def is_pdf(path: str | Path) -> bool:
    """True when the file starts with the PDF signature (whatever its name says)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(5) == b"%PDF-"
    except OSError:
        return False


def _open(path: Path | bytes, name: str | Path | None = None) -> pdfium.PdfDocument:
    """Open a PDF file, or a PDF's bytes (then `name` is the name used in messages)."""
    try:
        return pdfium.PdfDocument(path if isinstance(path, bytes) else str(path))
    except pdfium.PdfiumError as exc:
        raise BadInputError(f"cannot read {name or path}: corrupt or unreadable PDF ({exc})") from None


def page_count(path: str | Path) -> int:
    """Number of pages; BadInputError for a corrupt, encrypted or empty PDF."""
    path = Path(path)
    pdf = _open(path)
    try:
        n = len(pdf)
    finally:
        pdf.close()
    if n == 0:
        raise BadInputError(f"cannot read {path}: the PDF has no pages")
    return n


def render_page(path: str | Path | bytes, page: int, dpi: int = RENDER_DPI, *,
                name: str | None = None) -> np.ndarray:
    """Page `page` (1-based) of the PDF (a file, or its bytes named `name`) as a BGR uint8 array on white."""
    path = path if isinstance(path, bytes) else Path(path)
    name = name or str(path)
    pdf = _open(path, name)
    try:
        if not 1 <= page <= len(pdf):
            raise BadInputError(f"cannot read {name}: no page {page} (the PDF has {len(pdf)})")
        pdf_page = pdf[page - 1]
        try:
            w_pt, h_pt = pdf_page.get_size()
            scale = dpi / 72.0
            if w_pt * h_pt * scale * scale > MAX_RENDER_PIXELS:
                scale = (MAX_RENDER_PIXELS / (w_pt * h_pt)) ** 0.5
            bitmap = pdf_page.render(scale=scale, fill_color=(255, 255, 255, 255))
            bgr = bitmap.to_numpy()
        except pdfium.PdfiumError as exc:
            raise BadInputError(f"cannot read {name} page {page}: cannot render it ({exc})") from None
        finally:
            pdf_page.close()
    finally:
        pdf.close()
    if bgr.ndim == 2:  # PDFium renders grayscale pages into single-channel bitmaps only when asked; be safe
        bgr = np.repeat(bgr[:, :, None], 3, axis=2)
    return np.ascontiguousarray(bgr[:, :, :3])


def jpegs_to_pdf(jpegs: list[bytes], sizes: list[tuple[int, int]]) -> bytes:
    """A printable PDF with one A4 page per JPEG, each scaled to fit inside the margins (landscape pages for
    landscape images). The JPEG data is embedded as is (no re-encoding), so memory stays at the JPEGs' size."""
    pdf = pdfium.PdfDocument.new()
    try:
        for data, (w, h) in zip(jpegs, sizes):
            page_w, page_h = A4_POINTS if h >= w else A4_POINTS[::-1]
            fit = min((page_w - 2 * MARGIN_POINTS) / w, (page_h - 2 * MARGIN_POINTS) / h)
            draw_w, draw_h = w * fit, h * fit
            page = pdf.new_page(page_w, page_h)
            image = pdfium.PdfImage.new(pdf)
            image.load_jpeg(io.BytesIO(data), pages=[page], inline=False, autoclose=True)
            matrix = pdfium.PdfMatrix().scale(draw_w, draw_h).translate((page_w - draw_w) / 2, (page_h - draw_h) / 2)
            image.set_matrix(matrix)
            page.insert_obj(image)
            page.gen_content()
            page.close()
        out = io.BytesIO()
        pdf.save(out)
        return out.getvalue()
    finally:
        pdf.close()
