// The game: the layout lives in the page; the server generates no-guess
// boards (/api/generate), hints (/api/move) and the probability overlay
// (/api/probabilities).

import { post, heat, label, palette } from "./api.js";
import { BoardView } from "./board.js";
import { LEVELS } from "./analyser.js";
import { neighbours, floodOpen } from "./position.js";
import { rng, randomLayout } from "./rng.js";

const $ = (id) => document.getElementById(id);

export class Play {
  /** `toAnalyser(position)` shows a position in the analyser. */
  constructor(toAnalyser) {
    this.toAnalyser = toAnalyser;
    this.view = new BoardView($("p-board"), {
      onClick: (i) => this.click(i),
      onRightClick: (i) => this.toggleFlag(i),
    });
    $("p-new").addEventListener("click", () => this.newGame());
    $("p-level").addEventListener("change", () => this.newGame());
    $("p-kind").addEventListener("change", () => this.newGame());
    $("p-hint").addEventListener("click", () => this.hint());
    $("p-overlay").addEventListener("change", () => this.refreshOverlay());
    $("p-analyse").addEventListener("click", () => this.analyse());
    this.newGame();
  }

  /** A fresh game of the chosen level; the layout is made at the first click. */
  newGame() {
    const level = LEVELS[$("p-level").value];
    Object.assign(this, level);
    const n = this.rows * this.cols;
    this.layout = null; // {rows, cols, mine} once the first click is made
    this.values = null; // each cell's number, -1 a mine
    this.open = new Array(n).fill(false);
    this.flag = new Array(n).fill(false);
    this.hinted = { open: new Set(), flag: new Set() };
    this.probabilities = null;
    this.state = "ready"; // ready, generating, playing, won, lost
    this.exploded = -1;
    this.hintSeq = 0;
    this.overlaySeq = 0;
    document.body.dataset.game = "ready";
    clearInterval(this.clock);
    this.started = null;
    $("p-time").textContent = "0";
    this.view.resize(this.rows, this.cols);
    this.message("ready", "Click any cell to start.");
    this.paint();
  }

  /** The seed from the seed box, or a random one. */
  seed() {
    const text = $("p-seed").value.trim();
    return text === "" ? Math.floor(Math.random() * 2 ** 31) : Number(text);
  }

  /** Makes the layout around the first click `i`, then opens it. */
  async start(i) {
    const r = Math.floor(i / this.cols), c = i % this.cols;
    const seed = this.seed();
    if ($("p-kind").value === "random") {
      // A safe first click: the mines are uniform among the other cells.
      const mine = randomLayout(this.rows, this.cols, this.mines, new Set([i]), rng(seed));
      this.setLayout(mine);
    } else {
      this.state = "generating";
      this.message("computing", "Generating a no-guess board…");
      const answer = await post("/api/generate", {
        rows: this.rows, cols: this.cols, mines: this.mines, seed, first_click: [r, c],
      });
      if (this.state !== "generating") return; // a new game was started meanwhile
      if (!answer.ok) {
        this.state = "ready";
        this.message("error", answer.data.error);
        return;
      }
      this.setLayout(answer.data.layout.flat().map((v) => v < 0));
    }
    this.state = "playing";
    document.body.dataset.game = "playing";
    this.started = Date.now();
    this.clock = setInterval(() => {
      $("p-time").textContent = Math.floor((Date.now() - this.started) / 1000);
    }, 250);
    this.message("playing", "");
    this.reveal(i);
  }

  /** Takes a layout (booleans) and computes its numbers. */
  setLayout(mine) {
    this.layout = { rows: this.rows, cols: this.cols, mine };
    this.values = mine.map((m, k) => (m ? -1 : neighbours(k, this.rows, this.cols).filter((n) => mine[n]).length));
  }

  /** A left click: start, open, or chord on a satisfied number. */
  click(i) {
    if (this.state === "ready") return void this.start(i);
    if (this.state !== "playing" || this.flag[i]) return;
    if (this.open[i]) return void this.chord(i);
    this.reveal(i);
  }

  /** A right click: flag or unflag a closed cell. */
  toggleFlag(i) {
    if (this.state !== "playing" || this.open[i]) return;
    this.flag[i] = !this.flag[i];
    this.changed();
  }

  /** Opens every unflagged neighbour of an open number whose flags match it. */
  chord(i) {
    const around = neighbours(i, this.rows, this.cols);
    const flags = around.filter((n) => this.flag[n]).length;
    if (this.values[i] <= 0 || flags !== this.values[i]) return;
    this.reveal(...around.filter((n) => !this.open[n] && !this.flag[n]));
  }

  /** Opens cells (a 0 opens its neighbours); a mine ends the game. */
  reveal(...cells) {
    for (const i of cells) {
      if (this.state !== "playing") break;
      if (this.open[i] || this.flag[i]) continue;
      if (this.layout.mine[i]) {
        this.exploded = i;
        this.end("lost", "Boom — you opened a mine. New game?");
        return this.paint();
      }
      floodOpen(this.layout, this.values, this.open, i);
    }
    const safe = this.rows * this.cols - this.mines;
    if (this.state === "playing" && this.open.filter(Boolean).length === safe) {
      // Every safe cell is open: the remaining cells are the mines.
      this.layout.mine.forEach((m, k) => m && (this.flag[k] = true));
      this.end("won", `You won in ${((Date.now() - this.started) / 1000).toFixed(1)} s!`);
    }
    this.changed();
  }

  /** Ends the game. */
  end(state, text) {
    this.state = state;
    clearInterval(this.clock);
    this.message(state, text);
    document.body.dataset.game = state;
  }

  /** After a move: hints are stale; redraw and refresh the overlay. */
  changed() {
    this.hinted = { open: new Set(), flag: new Set() };
    this.probabilities = null;
    this.paint();
    this.refreshOverlay();
  }

  /** The position a player sees, as API rows (flags sent as closed cells:
   * the player's flags may be wrong, the engine finds the mines itself). */
  rows_() {
    const out = [];
    for (let r = 0; r < this.rows; r++) {
      let row = "";
      for (let c = 0; c < this.cols; c++) {
        const i = r * this.cols + c;
        row += this.open[i] ? String(this.values[i]) : "?";
      }
      out.push(row);
    }
    return out;
  }

  /** Asks the server for the player's move and highlights it. */
  async hint() {
    if (this.state !== "playing") return;
    const seq = ++this.hintSeq;
    this.message("computing", "Thinking…");
    const answer = await post("/api/move", { rows: this.rows_(), mines: this.mines });
    if (seq !== this.hintSeq || this.state !== "playing") return;
    if (!answer.ok) return this.message("error", answer.data.error);
    const m = answer.data;
    const index = ([r, c]) => r * this.cols + c;
    this.hinted = { open: new Set(m.open.map(index)), flag: new Set(m.flag.map(index)) };
    this.message(
      "hint",
      m.guess
        ? `No safe cell is proven: the best guess has mine probability ${(m.p_mine * 100).toFixed(1)}%.`
        : `${m.open.length} cell${m.open.length === 1 ? " is" : "s are"} proven safe.`,
    );
    this.paint();
  }

  /** Fetches the probability overlay when it is on. */
  async refreshOverlay() {
    if (!$("p-overlay").checked || this.state !== "playing") {
      this.probabilities = null;
      return this.paint();
    }
    const seq = ++this.overlaySeq;
    const answer = await post("/api/probabilities", { rows: this.rows_(), mines: this.mines });
    if (seq !== this.overlaySeq) return;
    this.probabilities = answer.ok ? answer.data.probabilities : null;
    if (!answer.ok) this.message("error", answer.data.error);
    this.paint();
  }

  /** Shows the current position in the analyser (flags kept). */
  analyse() {
    const cells = [];
    for (let i = 0; i < this.rows * this.cols; i++) {
      cells.push(this.open[i] ? String(this.values[i]) : this.flag[i] ? "F" : "?");
    }
    this.toAnalyser({ rows: this.rows, cols: this.cols, cells, mines: this.mines });
  }

  /** The message line; `state` styles it. */
  message(state, text) {
    const el = $("p-message");
    el.dataset.state = state;
    el.textContent = text;
  }

  /** Redraws the board and the mines-left counter. */
  paint() {
    const n = this.rows * this.cols;
    const over = this.state === "won" || this.state === "lost";
    for (let i = 0; i < n; i++) {
      const marks = [];
      if (this.hinted.open.has(i)) marks.push("hint");
      if (this.hinted.flag.has(i)) marks.push("hint-mine");
      let view;
      if (this.open[i]) {
        const v = this.values[i];
        view = { classes: ["number"], text: v ? String(v) : "", ink: palette.numbers[v], data: { state: "open" } };
      } else if (over && this.layout && this.layout.mine[i] && !this.flag[i]) {
        view = { classes: [i === this.exploded ? "exploded" : "shown-mine"], text: "✹", data: { state: "mine" } };
      } else if (this.flag[i]) {
        const wrong = over && !this.layout.mine[i];
        view = { classes: ["flag", ...(wrong ? ["wrong-flag"] : []), ...marks], text: "⚑", data: { state: "flag" } };
      } else if (this.probabilities) {
        const p = this.probabilities[Math.floor(i / this.cols)][i % this.cols];
        // Forced cells in the palette's safe and mine colours, as the analyser.
        const forced = p === 0 ? ["proven-safe"] : p === 1 ? ["proven-mine"] : [];
        const { fill, ink } = forced.length ? {} : heat(p);
        view = {
          classes: ["closed", "heat", ...forced, ...marks],
          text: this.view.small ? "" : label(p),
          fill,
          ink,
          title: `mine probability ${(p * 100).toFixed(1)}%`,
          data: { state: "closed" },
        };
      } else {
        view = { classes: ["closed", ...marks], data: { state: "closed" } };
      }
      this.view.draw(i, view);
    }
    $("p-left").textContent = this.mines - this.flag.filter(Boolean).length;
  }
}
