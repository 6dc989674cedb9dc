// The game: the layout lives in the page; the server generates no-guess
// boards (/api/generate), hints (/api/move) and the probability overlay
// (/api/probabilities).
//
// A game is {kind, rows, cols, mines, seed, first}: the same kind, size,
// seed and first click make the same board (a random board in the page's
// seeded generator, a no-guess board by the server's), which is what
// Replay and the game's link use.

import { post, heat, label, palette } from "./api.js";
import { BoardView, cursorStep } from "./board.js";
import { LEVELS } from "./analyser.js";
import { cellName, pct } from "./format.js";
import { MAX_SIDE, neighbours, floodOpen } from "./position.js";
import { rng, randomLayout } from "./rng.js";
import { MAX_SEED, gameFragment, linkTo, offerLink } from "./share.js";

const $ = (id) => document.getElementById(id);

export class Play {
  /** `toAnalyser(position)` shows a position in the analyser. */
  constructor(toAnalyser) {
    this.toAnalyser = toAnalyser;
    this.flagMode = false;
    this.view = new BoardView(
      $("p-board"),
      {
        onClick: (i) => this.click(i),
        onRightClick: (i) => this.toggleFlag(i),
        onFit: () => this.paint(),
      },
      () => $("play").clientWidth,
    );
    const andFocus = (action) => () => {
      action();
      this.focusBoard();
    };
    $("p-new").addEventListener("click", andFocus(() => this.newGame()));
    $("p-replay").addEventListener("click", andFocus(() => this.replay()));
    $("p-hint").addEventListener("click", andFocus(() => this.hint()));
    $("p-flagmode").addEventListener("click", andFocus(() => this.setFlagMode(!this.flagMode)));
    $("p-level").addEventListener("change", () => {
      const level = LEVELS[$("p-level").value];
      if (level) {
        $("p-rows").value = level.rows;
        $("p-cols").value = level.cols;
        $("p-mines").value = level.mines;
      }
      this.newGame();
    });
    for (const id of ["p-rows", "p-cols", "p-mines"]) {
      $(id).addEventListener("change", () => {
        $("p-level").value = this.levelName(Number($("p-rows").value), Number($("p-cols").value), Number($("p-mines").value));
        this.newGame();
      });
    }
    $("p-kind").addEventListener("change", () => this.newGame());
    $("p-seed").addEventListener("change", () => this.newGame());
    $("p-overlay").addEventListener("change", () => this.refreshOverlay());
    $("p-analyse").addEventListener("click", () => this.analyse());
    $("p-share").addEventListener("click", () => {
      if (this.game) offerLink(linkTo(gameFragment(this.game)), $("p-link"));
    });
    document.addEventListener("keydown", (e) => this.key(e));
    this.newGame();
  }

  /** The level's name for a size and count, or "custom". */
  levelName(rows, cols, mines) {
    const found = Object.entries(LEVELS).find(([, l]) => l.rows === rows && l.cols === cols && l.mines === mines);
    return found ? found[0] : "custom";
  }

  /**
   * The game the controls describe (a random seed when the seed box is
   * empty), or an Error saying which control is out of range.
   */
  fromControls() {
    const whole = (id, what, lo, hi) => {
      const text = $(id).value.trim();
      const n = Number(text);
      if (text === "" || !Number.isInteger(n) || n < lo || n > hi) {
        throw new Error(`${what} must be a whole number from ${lo} to ${hi}`);
      }
      return n;
    };
    const rows = whole("p-rows", "Rows", 1, MAX_SIDE);
    const cols = whole("p-cols", "Columns", 1, MAX_SIDE);
    if (rows * cols < 2) throw new Error("A board needs at least 2 cells");
    const mines = whole("p-mines", "Mines", 1, rows * cols - 1);
    const seed = $("p-seed").value.trim() === ""
      ? Math.floor(Math.random() * 2 ** 31)
      : whole("p-seed", "The seed", 0, MAX_SEED);
    return { kind: $("p-kind").value, rows, cols, mines, seed, first: null };
  }

  /**
   * A fresh game (from the controls unless `game` is given); its layout is
   * made at the first click.
   */
  newGame(game = null) {
    if (!game) {
      try {
        game = this.fromControls();
      } catch (e) {
        this.state = "invalid";
        document.body.dataset.game = "invalid";
        this.message("error", `${e.message}.`);
        return;
      }
    }
    this.game = { ...game, first: null };
    Object.assign(this, { rows: game.rows, cols: game.cols, mines: game.mines });
    const n = this.rows * this.cols;
    this.layout = null; // {rows, cols, mine} once the first click is made
    this.values = null; // each cell's number, -1 a mine
    this.open = new Array(n).fill(false);
    this.opened = 0;
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
    this.showGame();
    this.message("ready", "Click any cell to start.");
    this.paint();
  }

  /** The same board again: the same game, and its first click made. */
  replay() {
    if (!this.game) return;
    const game = this.game;
    this.newGame(game);
    if (game.first) this.start(game.first[0] * game.cols + game.first[1]);
  }

  /**
   * Plays game `g` (from a link): the controls set to its size and kind,
   * and its first click made when it has one.
   */
  restore(g) {
    $("p-level").value = this.levelName(g.rows, g.cols, g.mines);
    $("p-rows").value = g.rows;
    $("p-cols").value = g.cols;
    $("p-mines").value = g.mines;
    $("p-kind").value = g.kind;
    this.newGame(g);
    if (g.first) this.start(g.first[0] * g.cols + g.first[1]);
  }

  /** The seed and first click in the scoreboard. */
  showGame() {
    const g = this.game;
    $("p-game-seed").textContent = g ? g.seed : "–";
    $("p-first").textContent = g && g.first ? ` · first click ${cellName(...g.first)}` : "";
    $("p-replay").disabled = !(g && g.first);
  }

  /** Makes the layout around the first click `i`, then opens it. */
  async start(i) {
    const r = Math.floor(i / this.cols), c = i % this.cols;
    const game = this.game;
    game.first = [r, c];
    this.showGame();
    if (game.kind === "random") {
      // A safe first click: the mines are uniform among the other cells.
      const mine = randomLayout(this.rows, this.cols, this.mines, new Set([i]), rng(game.seed));
      this.setLayout(mine);
    } else {
      this.state = "generating";
      this.message("computing", "Generating a no-guess board…");
      const answer = await post("/api/generate", {
        rows: this.rows, cols: this.cols, mines: this.mines, seed: game.seed, first_click: [r, c],
      });
      if (this.state !== "generating" || this.game !== game) return; // a new game was started meanwhile
      if (!answer.ok) {
        this.state = "ready";
        game.first = null;
        this.showGame();
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
    this.reveal(i);
  }

  /** Takes a layout (booleans) and computes its numbers. */
  setLayout(mine) {
    this.layout = { rows: this.rows, cols: this.cols, mine };
    this.values = mine.map((m, k) => (m ? -1 : neighbours(k, this.rows, this.cols).filter((n) => mine[n]).length));
  }

  /** A left click or tap: open, or in flag mode flag (a number chords either way). */
  click(i) {
    if (this.flagMode && this.state === "playing" && !this.open[i]) return this.toggleFlag(i);
    this.openAt(i);
  }

  /** Opens cell i: starts the game, opens, or chords on a satisfied number. */
  openAt(i) {
    if (this.state === "ready") return void this.start(i);
    if (this.state !== "playing" || this.flag[i]) return;
    if (this.open[i]) return void this.chord(i);
    this.reveal(i);
  }

  /** A right click (or a tap in flag mode): flag or unflag a closed cell. */
  toggleFlag(i) {
    if (this.state !== "playing" || this.open[i]) return;
    this.flag[i] = !this.flag[i];
    this.changed();
  }

  /** Flag mode on or off: while on, a click or tap flags. */
  setFlagMode(on) {
    this.flagMode = on;
    $("p-flagmode").setAttribute("aria-pressed", String(on));
    document.body.dataset.flagMode = on ? "1" : "0";
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
        const r = Math.floor(i / this.cols), c = i % this.cols;
        this.end("lost", `Boom — ${cellName(r, c)} was a mine. Replay, or a new game?`);
        return;
      }
      this.opened += floodOpen(this.layout, this.values, this.open, i).length;
    }
    if (this.state === "playing" && this.opened === this.rows * this.cols - this.mines) {
      // Every safe cell is open: the remaining cells are the mines.
      this.layout.mine.forEach((m, k) => m && (this.flag[k] = true));
      this.end("won", `You won in ${((Date.now() - this.started) / 1000).toFixed(1)} s!`);
      return;
    }
    this.changed();
  }

  /** Ends the game: the hints and the overlay go (they were of a live game). */
  end(state, text) {
    this.state = state;
    clearInterval(this.clock);
    this.hinted = { open: new Set(), flag: new Set() };
    this.probabilities = null;
    this.hintSeq++;
    this.overlaySeq++;
    this.message(state, text);
    document.body.dataset.game = state;
    this.paint();
  }

  /** After a move: hints are stale; redraw, say the progress, refresh the overlay. */
  changed() {
    this.hinted = { open: new Set(), flag: new Set() };
    this.probabilities = null;
    this.paint();
    if (this.state === "playing") {
      this.message("playing", `${this.opened} of ${this.rows * this.cols - this.mines} safe cells open.`);
    }
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
    const others = m.open.length - 1;
    this.message(
      "hint",
      m.guess
        ? `No safe cell is proven: the best guess is ${cellName(...m.open[0])}, mine probability ${pct(m.p_mine)}.`
        : `${cellName(...m.open[0])}${others ? ` and ${others} other${others > 1 ? "s" : ""}` : ""} ${others ? "are" : "is"} proven safe.`,
    );
    this.paint();
  }

  /** Fetches the probability overlay when it is on (a live game only). */
  async refreshOverlay() {
    if (!$("p-overlay").checked || this.state !== "playing") {
      this.probabilities = null;
      return this.paint();
    }
    const seq = ++this.overlaySeq;
    const answer = await post("/api/probabilities", { rows: this.rows_(), mines: this.mines });
    if (seq !== this.overlaySeq || this.state !== "playing") return;
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

  /** The message above the board; `state` styles it. */
  message(state, text) {
    const el = $("p-message");
    el.dataset.state = state;
    el.textContent = text;
  }

  /** Moves the keyboard's focus to the board (off the button just used). */
  focusBoard() {
    if (!$("play").hidden) $("p-board").focus({ preventScroll: true });
  }

  /**
   * The keys while the game is shown: the arrows or h j k l move the
   * cursor, space or enter opens (on a number: chords), f flags.
   */
  key(e) {
    if ($("play").hidden || e.target.matches("input, textarea, select")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const opens = e.key === " " || e.key === "Enter";
    if (opens && e.target.matches("button, summary, a")) return; // the control's own key
    const step = cursorStep(e.key);
    if (step) {
      e.preventDefault();
      this.view.moveCursor(...step);
      return;
    }
    const i = this.view.cursor;
    if (i < 0) return;
    if (opens) {
      e.preventDefault();
      this.openAt(i);
    } else if (e.key === "f" || e.key === "F") {
      e.preventDefault();
      this.toggleFlag(i);
    }
  }

  /** Redraws the cells that changed and the mines-left counter. */
  paint() {
    if (!this.open) return;
    const n = this.rows * this.cols;
    const over = this.state === "won" || this.state === "lost";
    for (let i = 0; i < n; i++) {
      const marks = [];
      if (this.hinted.open.has(i)) marks.push("hint");
      if (this.hinted.flag.has(i)) marks.push("hint-mine");
      const name = cellName(Math.floor(i / this.cols), i % this.cols);
      let view;
      if (this.open[i]) {
        const v = this.values[i];
        view = { classes: ["number"], text: v ? String(v) : "", ink: palette.numbers[v], title: name, data: { state: "open" } };
      } else if (over && this.layout && this.layout.mine[i] && !this.flag[i]) {
        view = { classes: [i === this.exploded ? "exploded" : "shown-mine"], text: "✹", title: `${name}: a mine`, data: { state: "mine" } };
      } else if (this.flag[i]) {
        const wrong = over && !this.layout.mine[i];
        view = {
          classes: ["flag", ...(wrong ? ["wrong-flag"] : []), ...marks],
          text: "⚑",
          title: `${name}: ${wrong ? "flagged, no mine" : "flag"}`,
          data: { state: "flag" },
        };
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
          title: `${name}: mine probability ${pct(p)}`,
          data: { state: "closed" },
        };
      } else {
        view = { classes: ["closed", ...marks], title: name, data: { state: "closed" } };
      }
      this.view.draw(i, view);
    }
    $("p-left").textContent = this.mines - this.flag.filter(Boolean).length;
  }
}
