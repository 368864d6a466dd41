// The word-search page: upload a photo, follow the stages, show the answers, correct letters and words.
// Plain JavaScript, no build step, no third-party code. It renders the API's JSON generically: any word with
// cells (or a path) is found; extra fields (puzzle_type, tiles, source, unused_letters) show when present.
"use strict";

const $ = (id) => document.getElementById(id);
const STAGES = [
  ["upload", "Uploading"], ["queued", "Waiting"], ["load", "Opening"], ["detect", "Finding the grid"],
  ["ocr", "Reading letters"], ["words", "Reading the list"], ["solve", "Solving"], ["draw", "Drawing"],
];
const STAGE_TEXT = {
  upload: "Uploading the photo…", queued: "Waiting for a free reader…", load: "Opening the photo…",
  detect: "Finding the grid…", ocr: "Reading the letters…", words: "Reading the word list…",
  solve: "Solving…", draw: "Drawing the answers…",
};
const FRIENDLY = {
  no_grid: "No letter grid found in this photo. Try a straighter, closer shot.",
  no_words: "No word list found in the photo. Type the words in “Word list”, or add a photo of the list.",
  not_image: "That file is not a picture this app can read. Use a photo (JPEG, PNG, HEIC…) or a PDF.",
  too_large: "That file is too large.",
  bad_input: "This picture could not be read; it may be damaged or incomplete. Try taking it again.",
  busy: "The server is busy right now. Try again in a few seconds.",
  timeout: "Reading this photo took too long. Try a closer shot of just the puzzle.",
  not_found: "This result has expired. Please solve the photo again.",
  engine: "The letter reader is not available on this server.",
  network: "Could not reach the server. Check your connection and try again.",
};

let doc = null;          // the current result (API JSON)
let isolated = null;     // the word shown alone on the photo
let editing = null;      // [row, col] of the cell being corrected
let zoom = 1;

// ---------------------------------------------------------------------------------------------------------
// Helpers

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value != null) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

function token() {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}

function errorText(body, status) {
  const code = body && body.code;
  if (code === "internal") return `Something went wrong on our side (error id ${body.error_id}). Please try again.`;
  if (code === "too_large") return `${FRIENDLY.too_large} (${body.error})`;
  if (FRIENDLY[code]) return FRIENDLY[code];
  if (body && body.error) return body.error.charAt(0).toUpperCase() + body.error.slice(1) + ".";
  return `The server answered with an error (${status}).`;
}

function showError(box, message) {
  box.textContent = message;
  box.hidden = !message;
  if (message) box.scrollIntoView({ block: "nearest" });
}

async function api(url, body) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
  } catch (e) {
    throw new Error(FRIENDLY.network);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(errorText(data, response.status));
  return data;
}

const isFound = (w) => (w.found !== undefined ? w.found : (w.cells || w.path || []).length > 0);
const cellsOf = (w) => w.cells || w.path || [];
const gridRows = (d) => d.grid.tiles || d.grid.letters;

// ---------------------------------------------------------------------------------------------------------
// Tabs

function selectTab(tab) {
  for (const t of document.querySelectorAll("[role=tab]")) {
    const on = t === tab;
    t.setAttribute("aria-selected", on);
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !on;
  }
}

document.querySelectorAll("[role=tab]").forEach((tab, i, tabs) => {
  tab.addEventListener("click", () => selectTab(tab));
  tab.addEventListener("keydown", (e) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
    if (!step) return;
    const next = tabs[(i + step + tabs.length) % tabs.length];
    selectTab(next);
    next.focus();
  });
});

// ---------------------------------------------------------------------------------------------------------
// Upload and progress

function setStage(stage, uploaded) {
  $("status-text").textContent = STAGE_TEXT[stage] || "Working…";
  const index = STAGES.findIndex(([key]) => key === stage);
  const list = $("stages");
  list.replaceChildren(...STAGES.filter(([key]) => key !== "words" || !$("words").value.trim())
    .map(([key, label]) => {
      const at = STAGES.findIndex(([k]) => k === key);
      return el("li", { class: at < index ? "done" : at === index ? "now" : "", text: label });
    }));
  $("upload-progress").hidden = stage !== "upload";
  if (uploaded != null) $("upload-progress").value = uploaded;
}

function solve(file) {
  if (!file) return;
  const form = new FormData();
  form.append("image", file, file.name || "photo.jpg");
  const words = $("words").value.trim();
  if (words) form.append("words", words);
  const listFile = $("list-photo").files[0];
  if (listFile) form.append("words_image", listFile, listFile.name);

  showError($("error"), "");
  $("status").hidden = false;
  $("result").hidden = true;
  $("solve-form").hidden = true;
  setStage("upload", 0);
  const progressId = token();
  const xhr = new XMLHttpRequest();
  let polling = null;
  const poll = async () => {
    try {
      const r = await fetch(`/api/progress/${progressId}`);
      const { stage } = await r.json();
      if (stage && stage !== "upload" && xhr.readyState !== 4) setStage(stage);
    } catch (e) { /* the answer itself will tell */ }
  };
  xhr.upload.addEventListener("progress", (e) => {
    if (e.lengthComputable) setStage("upload", Math.round((100 * e.loaded) / e.total));
  });
  xhr.upload.addEventListener("load", () => {
    setStage("queued");
    polling = setInterval(poll, 300);
  });
  xhr.addEventListener("loadend", () => {
    clearInterval(polling);
    $("status").hidden = true;
    let body = null;
    try { body = JSON.parse(xhr.responseText); } catch (e) { /* not JSON */ }
    if (xhr.status === 200 && body) {
      isolated = null;
      setZoom(1);
      show(body);
      $("summary").focus();
    } else {
      $("solve-form").hidden = false;
      showError($("error"), xhr.status === 0 ? FRIENDLY.network : errorText(body, xhr.status));
    }
  });
  xhr.open("POST", "/api/solve");
  xhr.setRequestHeader("X-Progress-Id", progressId);
  xhr.send(form);
}

$("photo").addEventListener("change", (e) => { solve(e.target.files[0]); e.target.value = ""; });

const drop = $("drop");
for (const type of ["dragenter", "dragover"]) {
  document.addEventListener(type, (e) => { e.preventDefault(); drop.classList.add("over"); });
}
for (const type of ["dragleave", "drop"]) {
  document.addEventListener(type, (e) => { e.preventDefault(); drop.classList.remove("over"); });
}
document.addEventListener("drop", (e) => {
  const file = e.dataTransfer && e.dataTransfer.files[0];
  if (file) { selectTab($("tab-photo")); solve(file); }
});
document.addEventListener("paste", (e) => {
  const item = [...(e.clipboardData ? e.clipboardData.items : [])].find((i) => i.kind === "file");
  if (item) { selectTab($("tab-photo")); solve(item.getAsFile()); }
});

$("again").addEventListener("click", () => {
  $("result").hidden = true;
  $("solve-form").hidden = false;
  showError($("error"), "");
  doc = null;
  window.scrollTo(0, 0);
  $("photo-button").focus();
});

// ---------------------------------------------------------------------------------------------------------
// The result

function show(result) {
  doc = result;
  const words = doc.words || [];
  const found = words.filter(isFound).length;
  const rows = gridRows(doc);
  const fixed = (doc.words || []).reduce((n, w) => n + (w.corrected || []).length, 0);
  $("summary").textContent = words.length
    ? `${found} of ${words.length} words found`
    : `${found} words found`;
  const detail = [`${doc.grid.rows}×${doc.grid.cols} grid`];
  if (fixed) detail.push(`${fixed} misread letter${fixed > 1 ? "s" : ""} corrected`);
  if ((doc.grid.low_confidence || []).length) detail.push(`${doc.grid.low_confidence.length} unsure`);
  if (doc.word_list && doc.word_list.source === "image") detail.push("word list read from the photo");
  if (doc.puzzles > 1) detail.push(`${doc.puzzles} puzzles on this page; the largest is shown, all are circled`);
  $("summary-detail").textContent = detail.join(" · ");
  $("download-image").href = `${doc.image_url}&download=true`;
  $("download-json").href = doc.json_url;
  if (isolated && !words.some((w) => w.word === isolated && isFound(w))) isolated = null;
  renderWords(words);
  renderGrid(rows);
  renderPhoto();
  const extra = [];
  if (doc.word_list && doc.word_list.hard_to_read) {
    extra.push("The list's print is small and blurred in this photo: some words may be missing. " +
               "Add them above, or photograph the list closer.");
  }
  if (doc.unused_letters) extra.push(`Letters left over: ${[].concat(doc.unused_letters).join("")}`);
  $("extra").textContent = extra.join(" ");
  $("result").hidden = false;
}

function renderPhoto() {
  const url = `${doc.image_url}&size=screen` + (isolated ? `&word=${encodeURIComponent(isolated)}` : "");
  const img = $("answer");
  if (img.getAttribute("src") !== url) img.src = url;
  img.alt = isolated ? `The photo with ${isolated} circled` : "The photo with every found word circled";
  $("showing").textContent = isolated ? `Showing ${isolated} only` : "All answers";
}

function renderWords(words) {
  const colours = doc.colours || {};
  $("word-list").replaceChildren(...words.map((w, i) => {
    const found = isFound(w);
    const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
    if (found && colours[w.word]) swatch.style.setProperty("--c", colours[w.word]);
    const label = found ? `${w.word}: found${isolated === w.word ? ", shown alone" : ""}` : `${w.word}: not found`;
    const button = el("button", {
      type: "button", class: "word", "aria-label": label, "aria-pressed": String(isolated === w.word),
      onclick: () => isolate(found ? w.word : null),
    }, swatch, el("span", { class: "tick", "aria-hidden": "true", text: found ? "✓" : "–" }), w.word,
    w.source === "dictionary" ? el("span", { class: "tag", text: "dictionary" }) : null);
    const remove = el("button", {
      type: "button", class: "remove", "aria-label": `Remove ${w.word}`, text: "×",
      onclick: () => editWords(words.filter((_, k) => k !== i).map((x) => x.word)),
    });
    return el("li", { class: found ? "found" : "missing", "aria-current": String(isolated === w.word) },
      button, remove);
  }));
}

function isolate(word) {
  isolated = word && isolated !== word ? word : null;
  renderWords(doc.words || []);
  renderGrid(gridRows(doc));
  renderPhoto();
}

function renderGrid(rows) {
  const low = new Set((doc.grid.low_confidence || []).map(([r, c]) => `${r},${c}`));
  const edited = new Set((doc.grid.edited || []).map(([r, c]) => `${r},${c}`));
  const fixed = new Set((doc.words || []).flatMap((w) => (w.corrected || []).map((m) => `${m.cell[0]},${m.cell[1]}`)));
  const word = isolated && (doc.words || []).find((w) => w.word === isolated);
  const on = new Set(word ? cellsOf(word).map(([r, c]) => `${r},${c}`) : []);
  const colour = word && (doc.colours || {})[word.word];
  const table = $("grid");
  table.replaceChildren(...rows.map((row, r) => el("tr", {}, ...[...row].map((letter, c) => {
    const key = `${r},${c}`;
    const classes = [low.has(key) && "low", fixed.has(key) && "fixed", edited.has(key) && "edited", on.has(key) && "on",
      editing && editing[0] === r && editing[1] === c && "current"].filter(Boolean);
    const notes = [low.has(key) && "unsure", fixed.has(key) && "corrected", edited.has(key) && "corrected by you"]
      .filter(Boolean);
    const button = el("button", {
      type: "button", class: classes.join(" "), text: letter,
      "aria-label": `Row ${r + 1}, column ${c + 1}: ${letter}${notes.length ? ` (${notes.join(", ")})` : ""}`,
      "data-row": r, "data-col": c, onclick: () => openEditor(r, c),
      tabindex: (editing ? editing[0] === r && editing[1] === c : r === 0 && c === 0) ? "0" : "-1",
    });
    if (on.has(key) && colour) button.style.setProperty("--c", colour);
    return el("td", {}, button);
  }))));
  table.setAttribute("aria-label", `Letter grid, ${doc.grid.rows} rows by ${doc.grid.cols} columns`);
}

// One tab stop for the whole grid; the arrow keys move between its cells (Enter or Space edits one).
$("grid").addEventListener("keydown", (e) => {
  const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
  const cell = e.target.closest("button");
  if (!step || !cell) return;
  e.preventDefault();
  const r = Number(cell.dataset.row) + step[0];
  const c = Number(cell.dataset.col) + step[1];
  const next = document.querySelector(`#grid button[data-row="${r}"][data-col="${c}"]`);
  if (next) {
    cell.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }
});

// ---------------------------------------------------------------------------------------------------------
// Corrections: a cell's letter, the word list

function openEditor(r, c) {
  editing = [r, c];
  const letter = gridRows(doc)[r][c];
  const confidence = doc.grid.confidence && doc.grid.confidence[r] ? doc.grid.confidence[r][c] : null;
  $("cell-label").textContent = `Row ${r + 1}, column ${c + 1} reads ${letter}` +
    (confidence != null ? ` (${Math.round(confidence * 100)}% sure)` : "") + ". The right letter:";
  $("cell-editor").hidden = false;
  const input = $("cell-letter");
  input.value = letter;
  renderGrid(gridRows(doc));
  input.focus();
  input.select();
}

function closeEditor() {
  const cell = editing;
  editing = null;
  $("cell-editor").hidden = true;
  if (doc) renderGrid(gridRows(doc));
  if (cell) {
    const button = document.querySelector(`#grid button[data-row="${cell[0]}"][data-col="${cell[1]}"]`);
    if (button) button.focus();
  }
}

async function edit(body) {
  showError($("error"), "");
  try {
    show(await api(`/api/solve/${doc.id}/edit`, body));
  } catch (e) {
    showError($("error"), e.message);
  }
}

$("cell-editor").addEventListener("submit", async (e) => {
  e.preventDefault();
  const letter = $("cell-letter").value.trim().toUpperCase();
  if (!/^\p{L}$/u.test(letter) || !editing) { $("cell-letter").focus(); return; }
  const [row, col] = editing;
  await edit({ cells: [{ row, col, letter }] });
  closeEditor();
});
$("cell-cancel").addEventListener("click", closeEditor);
$("cell-editor").addEventListener("keydown", (e) => { if (e.key === "Escape") closeEditor(); });

function editWords(words) {
  return edit({ words });
}

$("add-word").addEventListener("submit", async (e) => {
  e.preventDefault();
  const added = $("new-word").value.split(/[,\n]/).map((w) => w.trim()).filter(Boolean);
  if (!added.length || !doc) return;
  await editWords([...(doc.words || []).map((w) => w.word), ...added]);
  $("new-word").value = "";
  $("new-word").focus();
});

// ---------------------------------------------------------------------------------------------------------
// Zoom: buttons, pinch (two pointers), double tap

function fitWidth() {
  // The photo's width when it fits the view (whole photo visible): the zoom factor multiplies this.
  const img = $("answer");
  const view = $("photo-view");
  if (!img.naturalWidth) return view.clientWidth;
  const maxHeight = 0.72 * window.innerHeight;
  return Math.min(view.clientWidth, img.naturalWidth * (maxHeight / img.naturalHeight));
}

function setZoom(value, focus) {
  const view = $("photo-view");
  const img = $("answer");
  const old = zoom;
  zoom = Math.min(6, Math.max(1, value));
  const fx = focus ? focus.x : view.clientWidth / 2;
  const fy = focus ? focus.y : view.clientHeight / 2;
  const x = (view.scrollLeft + fx) / old;
  const y = (view.scrollTop + fy) / old;
  view.classList.toggle("zoomed", zoom > 1);
  img.style.width = zoom > 1 ? `${fitWidth() * zoom}px` : "";
  view.scrollLeft = x * zoom - fx;
  view.scrollTop = y * zoom - fy;
}

$("zoom-in").addEventListener("click", () => setZoom(zoom * 1.5));
$("zoom-out").addEventListener("click", () => setZoom(zoom / 1.5));
$("zoom-fit").addEventListener("click", () => setZoom(1));
$("photo-view").addEventListener("keydown", (e) => {
  if (e.key === "+" || e.key === "=") setZoom(zoom * 1.5);
  else if (e.key === "-") setZoom(zoom / 1.5);
  else if (e.key === "0") setZoom(1);
});

const pointers = new Map();
let pinch = null;
let lastTap = 0;
$("photo-view").addEventListener("pointerdown", (e) => {
  pointers.set(e.pointerId, e);
  if (pointers.size === 2) {
    const [a, b] = [...pointers.values()];
    pinch = { distance: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY), zoom };
  } else if (e.pointerType === "touch" && e.timeStamp - lastTap < 300) {
    const rect = $("photo-view").getBoundingClientRect();
    setZoom(zoom > 1 ? 1 : 2.5, { x: e.clientX - rect.left, y: e.clientY - rect.top });
  }
  lastTap = e.timeStamp;
});
$("photo-view").addEventListener("pointermove", (e) => {
  if (!pointers.has(e.pointerId)) return;
  pointers.set(e.pointerId, e);
  if (pinch && pointers.size === 2) {
    const [a, b] = [...pointers.values()];
    const rect = $("photo-view").getBoundingClientRect();
    const mid = { x: (a.clientX + b.clientX) / 2 - rect.left, y: (a.clientY + b.clientY) / 2 - rect.top };
    setZoom(pinch.zoom * Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY) / pinch.distance, mid);
    e.preventDefault();
  }
});
for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
  $("photo-view").addEventListener(type, (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
  });
}

// ---------------------------------------------------------------------------------------------------------
// Boggle

let boggleDoc = null;

$("boggle-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  showError($("boggle-error"), "");
  const words = $("boggle-words").value.trim();
  try {
    boggleDoc = await api("/api/boggle", {
      board: $("board").value, min_length: Number($("min-length").value) || 3, words: words || null,
    });
  } catch (err) {
    $("boggle-result").hidden = true;
    showError($("boggle-error"), err.message);
    return;
  }
  const results = boggleDoc.results;
  const found = results.filter(isFound);
  $("boggle-summary").textContent = words ? `${found.length} of ${results.length} words found`
    : `${found.length} words on this board`;
  $("boggle-words-list").replaceChildren(...results.map((w, i) => el("li", { class: isFound(w) ? "found" : "missing" },
    el("button", {
      type: "button", class: "word", "aria-pressed": "false", onclick: (ev) => drawPath(w, ev.currentTarget),
      "aria-label": isFound(w) ? `${w.word}: path ${cellsOf(w).map(([r, c]) => `row ${r + 1} column ${c + 1}`).join(", ")}`
        : `${w.word}: not found`,
    }, el("span", { class: "tick", "aria-hidden": "true", text: isFound(w) ? "✓" : "–" }), w.word,
    w.paths > 1 ? el("span", { class: "tag", text: `${w.paths} paths` }) : null))));
  $("boggle-result").hidden = false;
  const first = $("boggle-words-list").querySelector("li.found button");
  drawPath(found[0] || null, first);
  $("boggle-summary").focus();
});

function drawPath(word, button) {
  const board = $("boggle-board");
  const tiles = boggleDoc.tiles;
  board.style.gridTemplateColumns = `repeat(${boggleDoc.cols}, auto)`;
  const on = new Set(word ? cellsOf(word).map(([r, c]) => `${r},${c}`) : []);
  const cells = tiles.flatMap((row, r) => row.map((tile, c) => el("div", {
    class: `tile${on.has(`${r},${c}`) ? " on" : ""}`, "data-cell": `${r},${c}`, text: tile,
  })));
  board.replaceChildren(...cells);
  board.setAttribute("aria-label", word ? `Board with the path of ${word.word}` : "Board");
  for (const b of document.querySelectorAll("#boggle-words-list button")) b.setAttribute("aria-pressed", String(b === button));
  if (!word) return;
  requestAnimationFrame(() => {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    const box = board.getBoundingClientRect();
    svg.setAttribute("viewBox", `0 0 ${box.width} ${box.height}`);
    const points = cellsOf(word).map(([r, c]) => {
      const t = board.querySelector(`[data-cell="${r},${c}"]`).getBoundingClientRect();
      return [t.left - box.left + t.width / 2, t.top - box.top + t.height / 2];
    });
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", points.map((p) => p.join(",")).join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", "#1d4ed8");
    line.setAttribute("stroke-width", "6");
    line.setAttribute("stroke-linecap", "round");
    line.setAttribute("stroke-linejoin", "round");
    line.setAttribute("opacity", "0.7");
    svg.append(line);
    const [sx, sy] = points[0];
    const start = document.createElementNS(ns, "circle");
    start.setAttribute("cx", sx); start.setAttribute("cy", sy); start.setAttribute("r", "6");
    start.setAttribute("opacity", "0.6");
    start.setAttribute("fill", "#1d4ed8");
    svg.append(start);
    board.append(svg);
  });
}
