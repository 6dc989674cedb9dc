// The analyser: a position edited cell by cell and analysed as it changes
// (/api/probabilities for the heat map and the proofs, /api/move for the
// player's move). And the review of a played game (/api/review), which
// shows each position the player saw with the same heat map.

import { post, heat, label, palette, rampGradient } from "./api.js";
import { BoardView, cursorStep } from "./board.js";
import { cellName, pct, proofName, shortCount } from "./format.js";
import { MAX_SIDE, neighbours, parseText, parseMbf, mbfPosition, toRows, toText } from "./position.js";
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
    this.marks = marksOf(this.position, this.result, this.move);
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
    return positionCellView(this.position, i, this.result, this.marks, this.view.small);
  }
}

/**
 * Per cell of `position`, what the answers say beyond probabilities: what
 * proved it (from /api/probabilities answer `r`), whether it is among the
 * safest, whether the player's move (/api/move answer `m`, may be null)
 * opens or flags it.
 */
export function marksOf(position, r, m) {
  const cols = position.cols;
  const index = ([a, b]) => a * cols + b;
  const proof = new Map();
  for (const d of r ? r.deductions || [] : []) proof.set(index(d.cell), `proven ${d.value} by ${proofName(d)}`);
  // The safest cells are outlined unless every closed cell is one.
  const closed = position.cells.filter((ch) => ch === "?").length;
  const safest = new Set(r && r.safest.length < closed ? r.safest.map(index) : []);
  const opens = new Set(m && m.open ? m.open.map(index) : []);
  const flags = new Set(m && m.flag ? m.flag.map(index) : []);
  return { proof, safest, opens, flags, guess: Boolean(m && m.guess) };
}

/**
 * The view of cell i of `position` (see BoardView.draw): a number, a flag,
 * or a closed cell in the heat map of /api/probabilities answer `result`
 * (null: plain), marked by `marks` (marksOf, may be null); `small` cells
 * get no percentage.
 */
export function positionCellView(position, i, result, marks, small) {
  const { cols, cells } = position;
  const ch = cells[i];
  const r = Math.floor(i / cols), c = i % cols;
  const name = cellName(r, c);
  const p = result && ch === "?" ? result.probabilities[r][c] : null;
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
    text: small ? "" : label(p),
    title: `${name}: mine probability ${pct(p)}${safest ? " (safest)" : ""}`,
    fill,
    ink,
    data,
  };
}

// ---------------------------------------------------------------------------
// The review: a replay file sent to /api/review, its metrics as a table,
// and its judged moves stepped through, each on the position the player
// saw with that position's heat map (/api/probabilities).
// ---------------------------------------------------------------------------

/** The replay files the review reads (the server tells them apart). */
export const REPLAY_EXTENSIONS = [".rmv", ".evf", ".avf", ".mvf", ".rawvf", ".txt"];

/**
 * The summary's metrics, grouped: [group, [[key, name, explanation,
 * format]]]. `format` turns the answer's value into text.
 */
const METRICS = [
  ["Board", [
    ["bbbv", "3BV", "Bechtel's Board Benchmark Value: the fewest left clicks that clear the board without chords (each opening once, each number not next to an opening once)", "int"],
    ["openings", "Openings", "Regions of 0-cells: one click opens each, with its border", "int"],
    ["islands", "Islands", "Groups of touching numbers that no opening reveals", "int"],
    ["zini", "ZiNi", "The clicks (left clicks, flags and chords) of the greedy ZiNi estimate of the fewest clicks that clear the board", "int"],
  ]],
  ["Speed", [
    ["time", "Time", "The game's time on its timer, seconds", "s"],
    ["bbbv_solved", "3BV solved", "The 3BV of what the player opened: the whole 3BV in a won game", "int"],
    ["bbbv_per_s", "3BV/s", "3BV solved per second", "3"],
    ["rqp", "RQP", "Time² / 3BV solved: lower is better", "3"],
    ["stnb", "STNB", "c × 3BV solved / time^1.7 × √(3BV solved / 3BV), on the three standard levels only", "1"],
  ]],
  ["Clicks", [
    ["left", "Left", "Left clicks (openings)", "int"],
    ["right", "Right", "Right clicks (flags placed and removed)", "int"],
    ["double", "Double", "Double clicks (chords: both buttons on a number)", "int"],
    ["cl", "Clicks", "All clicks: left + right + double", "int"],
    ["ce", "Effective", "Effective clicks: left clicks that opened a cell, first flags on mines, chords that opened cells", "int"],
    ["ioe", "IOE", "Index of efficiency: 3BV solved per click", "3"],
    ["correctness", "Correctness", "Effective clicks per click: ce / cl", "3"],
    ["throughput", "Throughput", "3BV solved per effective click", "3"],
    ["flags", "Flags", "Flags on the board at the end", "int"],
  ]],
  ["Judgement", [
    ["guesses", "Guesses", "Openings and chords on cells not proven safe (the losing click included)", "int"],
    ["needless_guesses", "Needless", "Guesses taken while a cell was proven safe", "int"],
    ["risk", "Risk", "The sum of the guesses' mine probabilities: the mines they were expected to hit", "2"],
    ["least_risk", "Least risk", "The sum of the least mine probability on the board at each guess: what as many guesses would have risked at best", "2"],
    ["luck", "Luck", "The chance that every guess survives: the product of their survival chances", "pct"],
  ]],
];

/** A metric's value as the summary writes it ("–" for none). */
function metricText(value, format) {
  if (value == null) return "–";
  switch (format) {
    case "int": return String(value);
    case "s": return `${value.toFixed(3)} s`;
    case "pct": return pct(value);
    case "1": return value.toFixed(1);
    case "2": return value.toFixed(2);
    default: return value.toFixed(3);
  }
}

/** The verdicts in words, short (the guess list and tooltips). */
const VERDICT_WORDS = {
  safe: "safe",
  guess: "guess",
  lost: "lost",
  proven_mine: "proven mine",
  unproven_flag: "unproven flag",
};

/** Bytes as standard base64 (padded). */
function base64(bytes) {
  let binary = "";
  const CHUNK = 0x8000;
  for (let k = 0; k < bytes.length; k += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(k, k + CHUNK));
  }
  return btoa(binary);
}

/** A judged move's position as the page's cells: "?", "F", "0"-"8". */
function positionOf(review, move) {
  const cells = [];
  for (const row of move.position) for (const ch of row) cells.push(ch === "." ? "0" : ch);
  return { rows: review.rows, cols: review.cols, cells, mines: review.mines };
}

/**
 * What a judged move was, in words: "safe — proven by rules: the 1-2
 * pattern at (3, 1) and (3, 2)", "guess: 50.0% mine; a safe cell was
 * available at (2, 16)", "lost: 33.3% mine". `safeCell` is a cell proven
 * safe in the move's position ([r, c], or null when not known yet).
 */
export function verdictText(move, safeCell) {
  const proof = move.proof;
  const what = proof
    ? proof.foci.length === 1
      ? `the ${proof.name} at ${cellName(...proof.foci[0])}`
      : `the ${proof.name} pattern at ${proof.foci.map((f) => cellName(...f)).join(" and ")}`
    : null;
  const by = (source) => (source === "rules" ? "rules" : proofName({ source }));
  const available = () => (safeCell ? `a safe cell was available at ${cellName(...safeCell)}` : "a safe cell was available");
  const opens = move.action === "chord" ? "every cell the chord opens" : "";
  switch (move.verdict) {
    case "safe":
      if (move.source === "first_click") return "safe — the first click (the game keeps it free of mines)";
      return `safe — ${opens ? `${opens} is ` : ""}proven by ${by(move.source)}${what ? `: ${what}` : ""}`;
    case "guess":
    case "lost": {
      const head = `${move.verdict}: ${pct(move.p_mine)} mine${move.action === "chord" ? " (any cell the chord opens)" : ""}`;
      if (move.needless) return `${head}; ${available()}`;
      if (move.best_p_mine != null && move.best_p_mine < move.p_mine) {
        return `${head}; the safest cell was ${pct(move.best_p_mine)}`;
      }
      return `${head}; no cell was safer`;
    }
    case "proven_mine":
      return `${move.action === "unflag" ? "unflag of a" : "flag on a"} proven mine — proven by ${by(move.source)}${what ? `: ${what}` : ""}`;
    case "unproven_flag":
      return `${move.action === "unflag" ? "unflag" : "flag"} not proven: ${pct(move.p_mine)} mine${move.p_mine === 0 ? " (the cell is proven safe)" : ""}`;
    default:
      return move.verdict;
  }
}

export class Review {
  constructor() {
    this.review = null; // the /api/review answer
    this.step = -1; // the move shown
    this.answers = new Map(); // move index → /api/probabilities answer
    this.result = null; // the shown move's answer
    this.loadSeq = 0;
    this.stepSeq = 0;
    this.controller = null;
    this.view = new BoardView(
      $("r-board"),
      { onFit: () => this.paintBoard() },
      () => this.boardWidth(),
    );
    this.bindControls();
  }

  /** The width the board may take: the layout's, less the aside beside it. */
  boardWidth() {
    const layout = $("r-layout");
    const style = getComputedStyle(layout);
    if (style.flexDirection === "column") return layout.clientWidth;
    const aside = layout.querySelector("aside");
    return layout.clientWidth - aside.offsetWidth - parseFloat(style.columnGap || "0");
  }

  /** Wires the file picker, the drop zone, the stepper and the keys. */
  bindControls() {
    $("r-file").addEventListener("change", (e) => {
      this.loadFile(e.target.files[0]);
      e.target.value = "";
    });
    // While the review is shown, a file dropped anywhere on the page is
    // read (and never opened by the browser in place of the page).
    const zone = $("review");
    document.addEventListener("dragover", (e) => {
      if (zone.hidden || ![...e.dataTransfer.types].includes("Files")) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
      zone.classList.add("dropping");
    });
    document.addEventListener("dragleave", (e) => {
      if (!e.relatedTarget) zone.classList.remove("dropping");
    });
    document.addEventListener("drop", (e) => {
      if (zone.hidden || ![...e.dataTransfer.types].includes("Files")) return;
      e.preventDefault();
      zone.classList.remove("dropping");
      const files = e.dataTransfer.files;
      if (files.length !== 1) {
        this.status("error", files.length ? "Drop one replay file at a time." : "Only files can be dropped here.");
        return;
      }
      this.loadFile(files[0]);
    });
    $("r-first").addEventListener("click", () => this.go(0));
    $("r-prev").addEventListener("click", () => this.go(this.step - 1));
    $("r-next").addEventListener("click", () => this.go(this.step + 1));
    $("r-last").addEventListener("click", () => this.go(this.moves().length - 1));
    $("r-prev-guess").addEventListener("click", () => this.goGuess(-1));
    $("r-next-guess").addEventListener("click", () => this.goGuess(1));
    $("r-slider").addEventListener("input", (e) => this.go(Number(e.target.value)));
    document.addEventListener("keydown", (e) => this.key(e));
  }

  /** The judged moves of the loaded game ([] before one is loaded). */
  moves() {
    return this.review ? this.review.clicks : [];
  }

  /** ←/→ a move back or on, Home/End the first or last (the slider's own keys aside). */
  key(e) {
    if ($("review").hidden || !this.review) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.matches("input, textarea, select")) return;
    const to = { ArrowLeft: this.step - 1, ArrowRight: this.step + 1, Home: 0, End: this.moves().length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.go(to);
  }

  /** The status beside the file control; `state` is idle, computing, done or error. */
  status(state, text) {
    const el = $("r-status");
    el.dataset.state = state;
    el.textContent = text;
  }

  /** Reads a replay file and sends it to /api/review. */
  async loadFile(file) {
    if (!file) return;
    const seq = ++this.loadSeq;
    const ext = (/\.[^.]*$/.exec(file.name) || [""])[0].toLowerCase();
    if (!REPLAY_EXTENSIONS.includes(ext)) {
      this.status("error", `${file.name}: not a replay file (expected ${REPLAY_EXTENSIONS.join(" ")}).`);
      return;
    }
    this.status("computing", `Reviewing ${file.name}…`);
    document.body.dataset.review = "loading";
    let bytes;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch (e) {
      if (seq !== this.loadSeq) return;
      this.status("error", `${file.name}: cannot be read: ${e.message}.`);
      document.body.dataset.review = this.review ? "ready" : "error";
      return;
    }
    const answer = await post("/api/review", { replay: base64(bytes), name: file.name });
    if (seq !== this.loadSeq) return;
    if (!answer.ok) {
      const why = answer.data.error || `HTTP ${answer.status}`;
      // The server names the file itself in a reader's errors.
      this.status("error", why.startsWith(file.name) ? why : `${file.name}: ${why}`);
      document.body.dataset.review = this.review ? "ready" : "error";
      return;
    }
    this.show(answer.data);
    const r = answer.data;
    this.status("done", `${r.file}: ${r.rows}×${r.cols}, ${r.mines} mines, ${r.won ? "won" : "not won"} in ${r.time.toFixed(3)} s; ${r.clicks.length} moves judged.`);
    document.body.dataset.review = "ready";
  }

  /** Shows review `r`: the summary, the guesses, the first move. */
  show(r) {
    this.review = r;
    this.answers = new Map();
    this.result = null;
    this.step = -1;
    $("r-body").hidden = false;
    this.paintSummary();
    this.paintGuesses();
    const slider = $("r-slider");
    slider.max = Math.max(0, r.clicks.length - 1);
    slider.disabled = r.clicks.length === 0;
    this.view.resize(r.rows, r.cols);
    if (r.clicks.length) this.go(0);
    else this.paintStep();
  }

  /** The metrics table. */
  paintSummary() {
    const r = this.review;
    const rows = METRICS.map(([group, items]) => {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = group;
      tr.append(th);
      for (const [key, name, explanation, format] of items) {
        const td = document.createElement("td");
        td.dataset.metric = key;
        td.title = `${name}: ${explanation}`;
        const n = document.createElement("span");
        n.className = "metric-name";
        n.textContent = name;
        const v = document.createElement("span");
        v.className = "metric-value";
        v.textContent = metricText(r[key], format);
        td.append(n, v);
        tr.append(td);
      }
      return tr;
    });
    $("r-summary").replaceChildren(...rows);
  }

  /** The list of guesses (and the losing click), each a link to its move. */
  paintGuesses() {
    const items = [];
    this.moves().forEach((m, k) => {
      if (m.verdict !== "guess" && m.verdict !== "lost") return;
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.step = k;
      button.dataset.verdict = m.verdict;
      button.textContent = `move ${k + 1} · ${m.t.toFixed(2)} s · ${m.action} ${cellName(...m.cell)} · ${pct(m.p_mine)}${m.verdict === "lost" ? " · lost" : ""}${m.needless ? " · needless" : ""}`;
      button.addEventListener("click", () => this.go(k));
      li.append(button);
      items.push(li);
    });
    $("r-guesses").replaceChildren(...items);
    $("r-no-guesses").hidden = items.length > 0;
  }

  /** Moves `dir` (±1) to the next guess or loss from the shown move. */
  goGuess(dir) {
    const moves = this.moves();
    for (let k = this.step + dir; k >= 0 && k < moves.length; k += dir) {
      if (moves[k].verdict === "guess" || moves[k].verdict === "lost") return this.go(k);
    }
  }

  /** Shows move k (clamped) and fetches its position's heat map. */
  async go(k) {
    const moves = this.moves();
    if (!moves.length) return;
    k = Math.max(0, Math.min(moves.length - 1, k));
    if (k === this.step) return;
    this.step = k;
    const seq = ++this.stepSeq;
    this.result = this.answers.get(k) || null;
    $("r-board-status").hidden = true;
    this.paintStep();
    if (this.result) return;
    if (this.controller) this.controller.abort();
    this.controller = new AbortController();
    const move = moves[k];
    // The player's flags may be wrong: the probabilities take them as
    // closed cells, as the verdicts do.
    const rows = move.position.map((row) => row.replace(/F/g, "?").replace(/\./g, "0"));
    let answer;
    try {
      answer = await post("/api/probabilities", { rows, mines: this.review.mines }, this.controller.signal);
    } catch {
      return; // aborted by a newer step
    }
    if (seq !== this.stepSeq) return;
    if (answer.ok) {
      this.answers.set(k, answer.data);
      this.result = answer.data;
    } else {
      const el = $("r-board-status");
      el.textContent = `No heat map for this position: ${answer.data.error || `HTTP ${answer.status}`}.`;
      el.hidden = false;
    }
    this.paintStep();
  }

  /** The stepper, the verdict panel, the guess list's mark and the board. */
  paintStep() {
    const moves = this.moves();
    const k = this.step;
    const move = moves[k];
    $("r-slider").value = Math.max(0, k);
    $("r-first").disabled = $("r-prev").disabled = k <= 0;
    $("r-next").disabled = $("r-last").disabled = k >= moves.length - 1;
    const guessAt = (from, dir) => {
      for (let j = from + dir; j >= 0 && j < moves.length; j += dir) {
        if (moves[j].verdict === "guess" || moves[j].verdict === "lost") return true;
      }
      return false;
    };
    $("r-prev-guess").disabled = !guessAt(k, -1);
    $("r-next-guess").disabled = !guessAt(k, 1);
    for (const b of $("r-guesses").querySelectorAll("button")) b.classList.toggle("current", Number(b.dataset.step) === k);
    const panel = $("r-verdict");
    if (!move) {
      $("r-step").textContent = "No move to judge.";
      panel.dataset.verdict = "";
      $("r-verdict-text").textContent = "";
      $("r-proof").hidden = true;
      return;
    }
    $("r-step").textContent = `Move ${k + 1} of ${moves.length} · ${move.t.toFixed(3)} s · ${move.action} ${cellName(...move.cell)}`;
    panel.dataset.verdict = move.verdict;
    panel.dataset.step = k;
    // The safe cell named for a needless guess: the nearest to the move.
    let safe = null;
    if (this.result) {
      const far = ([r, c]) => Math.max(Math.abs(r - move.cell[0]), Math.abs(c - move.cell[1]));
      for (const cell of this.result.safe) if (!safe || far(cell) < far(safe)) safe = cell;
    }
    $("r-verdict-text").textContent = verdictText(move, safe);
    const proof = $("r-proof");
    proof.hidden = !move.proof;
    proof.textContent = move.proof ? move.proof.pattern.join("\n") : "";
    proof.title = move.proof
      ? "The numbers that prove it and what they see: ? closed, F a known mine, * known safe, . a revealed 0, S or M the cell proven"
      : "";
    this.paintBoard();
  }

  /** The board: the shown move's position, its heat map, the clicked cell. */
  paintBoard() {
    const move = this.moves()[this.step];
    if (!move) return;
    const position = positionOf(this.review, move);
    const result = this.result;
    const marks = result ? marksOf(position, result, null) : null;
    const [cr, cc] = move.cell;
    const clicked = cr * position.cols + cc;
    const foci = new Set(move.proof ? move.proof.foci.map(([r, c]) => r * position.cols + c) : []);
    // The cells a chord opens are marked too.
    const opened = new Set();
    if (move.action === "chord") {
      for (const n of neighbours(clicked, position.rows, position.cols)) if (position.cells[n] === "?") opened.add(n);
    }
    for (let i = 0; i < position.cells.length; i++) {
      let view = positionCellView(position, i, result, marks, this.view.small);
      const r = Math.floor(i / position.cols), c = i % position.cols;
      if (position.cells[i] === "F" && result) {
        // A flag: the player's mark over the cell's probability.
        const p = result.probabilities[r][c];
        view = { ...view, title: `${cellName(r, c)}: flag; mine probability ${pct(p)}`, data: { ...view.data, p: String(p) } };
      }
      if (foci.has(i)) {
        view = { ...view, classes: [...view.classes, "focus"], title: `${view.title} — a number of the proof` };
      }
      if (i === clicked || opened.has(i)) {
        const mark = i === clicked ? "clicked" : "chorded";
        view = {
          ...view,
          classes: [...view.classes, mark, `verdict-${move.verdict}`],
          title: `${view.title} — ${i === clicked ? `the player's ${move.action}` : "opened by the chord"}: ${VERDICT_WORDS[move.verdict]}`,
          data: { ...view.data, verdict: move.verdict },
        };
      } else {
        view = { ...view, data: { ...view.data, verdict: null } };
      }
      this.view.draw(i, view);
    }
    $("r-ramp").style.background = rampGradient();
  }
}
