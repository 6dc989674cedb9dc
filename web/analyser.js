// The analyser: a position edited cell by cell and analysed as it changes
// (/api/probabilities for the heat map and the proofs, /api/move for the
// player's move).

import { post, heat, label, palette, rampGradient } from "./api.js";
import { BoardView } from "./board.js";
import { MAX_SIDE, parseText, parseMbf, mbfPosition, toRows, toText } from "./position.js";

/** The standard levels. */
export const LEVELS = {
  beginner: { rows: 9, cols: 9, mines: 10 },
  intermediate: { rows: 16, cols: 16, mines: 40 },
  expert: { rows: 16, cols: 30, mines: 99 },
};

/** What a click turns a cell into: closed → 0 → 1 … → 8 → flag → closed. */
const CYCLE = ["?", "0", "1", "2", "3", "4", "5", "6", "7", "8", "F"];

/** Density assumed when the mine count is unknown (the engine's default). */
const DENSITY = 0.2;

/** Milliseconds between the last edit and the analysis. */
const DEBOUNCE = 250;

const $ = (id) => document.getElementById(id);

export class Analyser {
  constructor() {
    this.position = { rows: 9, cols: 9, cells: new Array(81).fill("?"), mines: 10 };
    this.result = null; // the last /api/probabilities answer
    this.move = null; // the last /api/move answer
    this.seq = 0; // analyses started; only the latest one is shown
    this.timer = null;
    this.controller = null;
    this.view = new BoardView($("a-board"), {
      onClick: (i) => this.cycle(i, 1),
      onRightClick: (i) => this.set(i, this.position.cells[i] === "F" ? "?" : "F"),
      onHover: () => {},
    });
    this.bindControls();
    this.load(this.position);
  }

  /** Wires the size, mine count, file and text controls and the keys. */
  bindControls() {
    $("a-preset").addEventListener("change", () => {
      const level = LEVELS[$("a-preset").value];
      if (level) {
        $("a-rows").value = level.rows;
        $("a-cols").value = level.cols;
        $("a-mines").value = level.mines;
        this.newBoard();
      }
    });
    $("a-new").addEventListener("click", () => this.newBoard());
    for (const id of ["a-rows", "a-cols"]) {
      $(id).addEventListener("change", () => ($("a-preset").value = "custom"));
    }
    $("a-mines").addEventListener("input", () => {
      const text = $("a-mines").value.trim();
      this.position.mines = text === "" ? null : Math.max(0, Math.floor(Number(text)));
      this.schedule();
    });
    $("a-paste").addEventListener("click", () => {
      try {
        this.load(parseText($("a-text").value));
      } catch (e) {
        this.status("error", `Position text: ${e.message}`);
      }
    });
    $("a-export").addEventListener("click", () => ($("a-text").value = toText(this.position)));
    $("a-file").addEventListener("change", (e) => this.loadFile(e.target.files[0]));
    // Keys act on the hovered cell while the analyser is shown.
    document.addEventListener("keydown", (e) => {
      if ($("analyser").hidden || e.target.matches("input, textarea, select")) return;
      const i = this.view.hovered;
      if (i < 0 || e.ctrlKey || e.metaKey || e.altKey) return;
      let value = null;
      if (/^[0-8]$/.test(e.key)) value = e.key;
      else if (e.key === ".") value = "0";
      else if (e.key === "?" || e.key === " ") value = "?";
      else if (e.key === "f" || e.key === "F") value = "F";
      else if (e.key === "*") value = "*";
      if (value !== null) {
        e.preventDefault();
        this.set(i, value);
      }
    });
  }

  /** A new all-closed board of the size and mine count in the controls. */
  newBoard() {
    const clamp = (v) => Math.max(1, Math.min(MAX_SIDE, Math.floor(Number(v) || 1)));
    const rows = clamp($("a-rows").value), cols = clamp($("a-cols").value);
    const text = $("a-mines").value.trim();
    const mines = text === "" ? null : Math.max(0, Math.floor(Number(text)));
    this.load({ rows, cols, cells: new Array(rows * cols).fill("?"), mines });
  }

  /** Shows position `p` (and its size and count in the controls). */
  load(p) {
    this.position = { rows: p.rows, cols: p.cols, cells: [...p.cells], mines: p.mines };
    $("a-rows").value = p.rows;
    $("a-cols").value = p.cols;
    $("a-mines").value = p.mines == null ? "" : p.mines;
    const preset = Object.entries(LEVELS).find(
      ([, l]) => l.rows === p.rows && l.cols === p.cols && l.mines === p.mines,
    );
    $("a-preset").value = preset ? preset[0] : "custom";
    this.view.resize(p.rows, p.cols);
    this.result = null;
    this.move = null;
    this.paint();
    this.schedule(0);
  }

  /** Loads a position text file, or an MBF file as described in mbfPosition. */
  async loadFile(file) {
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    // A position text is printable; an MBF file is binary.
    const isText = !/\.mbf$/i.test(file.name) && /^[\x09\x0a\x0d\x20-\x7e]*$/.test(text);
    try {
      this.load(isText ? parseText(text) : mbfPosition(parseMbf(bytes)));
    } catch (e) {
      this.status("error", `${file.name}: ${e.message}`);
    }
    $("a-file").value = "";
  }

  /** Sets cell i to `value` and re-analyses. */
  set(i, value) {
    if (this.position.cells[i] === value) return;
    this.position.cells[i] = value;
    // The edit shows at once; the other cells keep the last analysis
    // (the status says a new one is coming) until it is replaced.
    this.paint();
    this.schedule();
  }

  /** Moves cell i `step` places along the click cycle. */
  cycle(i, step) {
    const k = CYCLE.indexOf(this.position.cells[i]);
    this.set(i, CYCLE[(k + step + CYCLE.length) % CYCLE.length]);
  }

  /** Analyses after `delay` ms unless another edit comes first. */
  schedule(delay = DEBOUNCE) {
    clearTimeout(this.timer);
    this.status("computing", "Analysing…");
    this.timer = setTimeout(() => this.analyse(), delay);
  }

  /** Asks the server for the probabilities and the move; shows the latest. */
  async analyse() {
    const seq = ++this.seq;
    if (this.controller) this.controller.abort();
    this.controller = new AbortController();
    const body = { rows: toRows(this.position) };
    if (this.position.mines != null) body.mines = this.position.mines;
    else body.density = DENSITY;
    let probabilities, move;
    try {
      [probabilities, move] = await Promise.all([
        post("/api/probabilities", body, this.controller.signal),
        post("/api/move", body, this.controller.signal),
      ]);
    } catch {
      return; // aborted by a newer analysis
    }
    if (seq !== this.seq) return;
    if (!probabilities.ok) {
      this.result = null;
      this.move = null;
      this.paint();
      this.status("error", probabilities.data.error || `HTTP ${probabilities.status}`);
      return;
    }
    this.result = probabilities.data;
    this.move = move.ok ? move.data : null;
    this.paint();
    const what = this.position.mines == null ? ` (no mine count: density ${DENSITY})` : "";
    this.status("done", `Analysed in ${(this.result.micros / 1000).toFixed(1)} ms${what}.`);
  }

  /** Shows a status line; `state` is idle, computing, done or error. */
  status(state, text) {
    const el = $("a-status");
    el.dataset.state = state;
    el.dataset.seq = this.seq;
    el.textContent = text;
  }

  /** Redraws every cell and the summary from the position and results. */
  paint() {
    const { rows, cols, cells } = this.position;
    const r = this.result;
    // Per cell: what proved it, from the deductions.
    const proof = new Map();
    for (const d of r ? r.deductions || [] : []) {
      const by = d.source === "rule" ? `a rule of order ${d.order}` : d.source.replace(/_/g, " ");
      proof.set(d.cell[0] * cols + d.cell[1], `proven ${d.value} by ${by}`);
    }
    // The safest cells are outlined unless every closed cell is one.
    const closed = cells.filter((ch) => ch === "?").length;
    const safest = new Set(
      r && r.safest.length < closed ? r.safest.map(([a, b]) => a * cols + b) : [],
    );
    const moves = new Set(
      this.move && this.move.open ? this.move.open.map(([a, b]) => a * cols + b) : [],
    );
    for (let i = 0; i < rows * cols; i++) {
      const ch = cells[i];
      const p = r ? r.probabilities[Math.floor(i / cols)][i % cols] : null;
      this.view.draw(i, this.cellView(ch, p, proof.get(i), safest.has(i), moves.has(i)));
    }
    $("a-layouts").textContent = r
      ? r.layouts !== undefined
        ? `${r.layouts} (10^${r.log10_layouts.toFixed(2)})`
        : `10^${r.log10_layouts.toFixed(2)}`
      : "–";
    $("a-safe").textContent = r ? r.safe.length : "–";
    $("a-minecount").textContent = r ? r.mines.length : "–";
    $("a-safest").textContent = r && r.safest.length
      ? `${r.safest.length} cell${r.safest.length > 1 ? "s" : ""} at ${pct(r.probabilities[r.safest[0][0]][r.safest[0][1]])}`
      : "–";
    const m = this.move;
    $("a-move").textContent = !m
      ? "–"
      : m.guess
        ? `guess (${m.open[0]}) — mine probability ${pct(m.p_mine)}`
        : `open ${m.open.length} proven safe cell${m.open.length === 1 ? "" : "s"}`;
    $("a-ramp").style.background = rampGradient();
  }

  /** The view of one cell (see BoardView.draw). */
  cellView(ch, p, proof, safest, move) {
    const small = this.view.small;
    const marks = [];
    if (safest) marks.push("safest");
    if (move) marks.push("move");
    if (ch === "F") return { classes: ["flag"], text: "⚑", title: "flag", data: { state: "flag", p: null } };
    if (ch === "*") return { classes: ["known-safe"], text: "*", title: "known safe", data: { state: "safe", p: null } };
    if (ch !== "?") {
      const n = Number(ch);
      return {
        classes: ["number"],
        text: n ? ch : "",
        ink: palette.numbers[n],
        data: { state: "number", p: null },
      };
    }
    if (p == null) return { classes: ["closed", ...marks], data: { state: "closed", p: null } };
    const data = { state: "closed", p: String(p) };
    if (p === 0) return { classes: ["closed", "proven-safe", ...marks], text: "S", title: proof || "proven safe", data };
    if (p === 1) return { classes: ["closed", "proven-mine", ...marks], text: "M", title: proof || "proven mine", data };
    const { fill, ink } = heat(p);
    return {
      classes: ["closed", "heat", ...marks],
      text: small ? "" : label(p),
      title: `mine probability ${pct(p)}${safest ? " (safest)" : ""}`,
      fill,
      ink,
      data,
    };
  }
}

/** A probability for people: a percentage with three significant digits. */
export function pct(p) {
  const x = p * 100;
  if (x === 0 || x === 100) return `${x}%`;
  return x >= 10 ? `${x.toFixed(1)}%` : x >= 1 ? `${x.toFixed(2)}%` : `${x.toPrecision(3)}%`;
}
