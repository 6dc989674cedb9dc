// The analyser: a position edited cell by cell and analysed as it changes
// (/api/probabilities for the heat map and the proofs, /api/move for the
// player's move).

import { post, heat, label, palette, rampGradient } from "./api.js";
import { BoardView, cursorStep } from "./board.js";
import { cellName, pct, proofName, shortCount } from "./format.js";
import { MAX_SIDE, parseText, parseMbf, mbfPosition, toRows, toText } from "./position.js";
import { linkTo, offerLink, positionFragment } from "./share.js";

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

/** Digits up to which the tooltip of the count of layouts gives it whole. */
const TOOLTIP_DIGITS = 60;

const $ = (id) => document.getElementById(id);

export class Analyser {
  constructor() {
    this.position = { rows: 9, cols: 9, cells: new Array(81).fill("?"), mines: 10 };
    this.result = null; // the last /api/probabilities answer
    this.move = null; // the last /api/move answer
    this.marks = null; // per cell: proofs, safest and move marks of the answers
    this.seq = 0; // analyses started; only the latest one is shown
    this.timer = null;
    this.controller = null;
    this.view = new BoardView(
      $("a-board"),
      {
        onClick: (i) => this.cycle(i, 1),
        onRightClick: (i) => this.set(i, this.position.cells[i] === "F" ? "?" : "F"),
        onFit: () => this.paint(),
      },
      () => this.boardWidth(),
    );
    this.bindControls();
    this.load(this.position);
  }

  /** The width the board may take: the layout's, less the aside beside it. */
  boardWidth() {
    const layout = $("a-layout");
    const style = getComputedStyle(layout);
    if (style.flexDirection === "column") return layout.clientWidth;
    const aside = layout.querySelector("aside");
    return layout.clientWidth - aside.offsetWidth - parseFloat(style.columnGap || "0");
  }

  /** Wires the size, mine count, file, text and link controls and the keys. */
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
    $("a-share").addEventListener("click", () => offerLink(linkTo(positionFragment(this.position)), $("a-link")));
    // Keys act on the cursor (the hovered cell) while the analyser is shown.
    document.addEventListener("keydown", (e) => {
      if ($("analyser").hidden || e.target.matches("input, textarea, select")) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const step = cursorStep(e.key);
      if (step) {
        e.preventDefault();
        this.view.moveCursor(...step);
        return;
      }
      const i = this.view.cursor;
      if (i < 0) return;
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
    this.marks = null;
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
    // The edit shows at once, one cell redrawn; the other cells keep the
    // last analysis (the status says a new one is coming) until it is
    // replaced.
    this.view.draw(i, this.cellView(i));
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

  /**
   * Asks the server for the probabilities and the move; shows the latest.
   * Either may be refused while the other is answered (a large board over
   * the server's budget for probabilities, say): what came is shown, and
   * the refusal said above the board.
   */
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
    this.result = probabilities.ok ? probabilities.data : null;
    this.move = move.ok ? move.data : null;
    this.marks = this.marksOf(this.result, this.move);
    this.paint();
    const why = (answer) => answer.data.error || `HTTP ${answer.status}`;
    if (!probabilities.ok && !move.ok) {
      this.status("error", why(probabilities));
    } else if (!probabilities.ok) {
      this.status("error", `No probabilities: ${why(probabilities)}. The player's move is shown.`);
    } else {
      // The move may be refused alone (no closed cell left to open, say):
      // the analysis stands, the reason is told.
      const what = this.position.mines == null ? ` (no mine count: density ${DENSITY})` : "";
      const noMove = move.ok ? "" : ` No player's move: ${why(move)}.`;
      this.status("done", `Analysed in ${(this.result.micros / 1000).toFixed(1)} ms${what}.${noMove}`);
    }
  }

  /** Shows a status line; `state` is idle, computing, done or error. */
  status(state, text) {
    const el = $("a-status");
    el.dataset.state = state;
    el.dataset.seq = this.seq;
    el.textContent = text;
  }

  /**
   * Per cell, what the answers say beyond probabilities: what proved it,
   * whether it is among the safest, whether the player's move opens or
   * flags it.
   */
  marksOf(r, m) {
    const cols = this.position.cols;
    const index = ([a, b]) => a * cols + b;
    const proof = new Map();
    for (const d of r ? r.deductions || [] : []) proof.set(index(d.cell), `proven ${d.value} by ${proofName(d)}`);
    // The safest cells are outlined unless every closed cell is one.
    const closed = this.position.cells.filter((ch) => ch === "?").length;
    const safest = new Set(r && r.safest.length < closed ? r.safest.map(index) : []);
    const opens = new Set(m && m.open ? m.open.map(index) : []);
    const flags = new Set(m && m.flag ? m.flag.map(index) : []);
    return { proof, safest, opens, flags, guess: Boolean(m && m.guess) };
  }

  /** Redraws the cells that changed and the summary. */
  paint() {
    const { rows, cols } = this.position;
    for (let i = 0; i < rows * cols; i++) this.view.draw(i, this.cellView(i));
    this.paintSummary();
  }

  /** The summary beside the board. */
  paintSummary() {
    const r = this.result;
    const layouts = $("a-layouts");
    if (r) {
      const count = shortCount(r.layouts, r.log10_layouts);
      if (count.exponent === null) {
        layouts.textContent = count.text;
      } else {
        const sup = document.createElement("sup");
        sup.textContent = count.exponent;
        layouts.replaceChildren(count.mantissa === "1.00" ? "10" : `${count.mantissa} × 10`, sup);
      }
      layouts.dataset.exponent = count.exponent ?? "";
      layouts.title = r.layouts === undefined
        ? `about 10^${r.log10_layouts.toFixed(2)} (too many cells for an exact count)`
        : r.layouts.length <= TOOLTIP_DIGITS
          ? `exactly ${r.layouts}`
          : `a number of ${r.layouts.length} digits (10^${r.log10_layouts.toFixed(2)})`;
    } else {
      layouts.textContent = "–";
      layouts.title = "";
      layouts.dataset.exponent = "";
    }
    $("a-safe").textContent = r ? r.safe.length : "–";
    $("a-minecount").textContent = r ? r.mines.length : "–";
    if (r && r.safest.length) {
      const [a, b] = r.safest[0];
      const others = r.safest.length - 1;
      $("a-safest").textContent = `${cellName(a, b)}${others ? ` and ${others} other${others > 1 ? "s" : ""}` : ""} at ${pct(r.probabilities[a][b])}`;
    } else {
      $("a-safest").textContent = "–";
    }
    const m = this.move;
    let move = "–";
    if (m && m.guess) move = `guess ${cellName(...m.open[0])} — mine probability ${pct(m.p_mine)}`;
    else if (m && m.open.length) {
      const others = m.open.length - 1;
      move = `open ${cellName(...m.open[0])}${others ? ` and ${others} other${others > 1 ? "s" : ""}` : ""}, proven safe`;
    } else if (m && m.flag.length) move = `flag ${m.flag.length} proven mine${m.flag.length > 1 ? "s" : ""}`;
    $("a-move").textContent = move;
    $("a-ramp").style.background = rampGradient();
  }

  /** The view of cell i (see BoardView.draw). */
  cellView(i) {
    const { cols, cells } = this.position;
    const ch = cells[i];
    const r = Math.floor(i / cols), c = i % cols;
    const name = cellName(r, c);
    const marks = this.marks;
    const p = this.result && ch === "?" ? this.result.probabilities[r][c] : null;
    const safest = Boolean(marks && marks.safest.has(i));
    const moves = Boolean(marks && marks.opens.has(i));
    const classes = [];
    if (safest) classes.push("safest");
    if (moves) classes.push("move");
    if (ch === "F") return { classes: ["flag"], text: "⚑", title: `${name}: flag`, data: { state: "flag", p: null } };
    if (ch === "*") return { classes: ["known-safe"], text: "*", title: `${name}: known safe`, data: { state: "safe", p: null } };
    if (ch !== "?") {
      const n = Number(ch);
      return {
        classes: ["number"],
        text: n ? ch : "",
        title: name,
        ink: palette.numbers[n],
        data: { state: "number", p: null },
      };
    }
    if (p == null) {
      // No probabilities: the player's move alone, when it was answered.
      const data = { state: "closed", p: null };
      if (marks && !marks.guess && moves) {
        return { classes: ["closed", "proven-safe", ...classes], text: "S", title: `${name}: proven safe (the player's move opens it)`, data };
      }
      if (marks && marks.flags.has(i)) {
        return { classes: ["closed", "proven-mine", ...classes], text: "M", title: `${name}: proven mine (the player's move flags it)`, data };
      }
      const title = moves ? `${name}: the player's guess` : name;
      return { classes: ["closed", ...classes], title, data };
    }
    const data = { state: "closed", p: String(p) };
    const proof = marks && marks.proof.get(i);
    if (p === 0) return { classes: ["closed", "proven-safe", ...classes], text: "S", title: `${name}: ${proof || "proven safe"}`, data };
    if (p === 1) return { classes: ["closed", "proven-mine", ...classes], text: "M", title: `${name}: ${proof || "proven mine"}`, data };
    const { fill, ink } = heat(p);
    return {
      classes: ["closed", "heat", ...classes],
      text: this.view.small ? "" : label(p),
      title: `${name}: mine probability ${pct(p)}${safest ? " (safest)" : ""}`,
      fill,
      ink,
      data,
    };
  }
}
