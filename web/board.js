// A board on the page: rows of cells with its row and column numbers
// on the edges, drawn from plain descriptions and reporting clicks, right
// clicks and a cursor (the hovered cell, moved by the mouse or the keys).
//
// Drawing is by difference: a cell whose description did not change is not
// touched, so an edit of one cell of a 100 × 100 board costs one cell.

/** Largest and smallest side of a cell, pixels. */
const MAX_CELL = 34;
const MIN_CELL = 8;
/** Below this side a cell shows no percentage (too small to read). */
const TEXT_CELL = 26;
/** Below this side the board is drawn in its compact style. */
const COMPACT_CELL = 16;
/** The height a board aims for: large boards get smaller cells. */
const TARGET_HEIGHT = 640;

/** The font size of the edge numbers for cells of side `size`. */
function labelFont(size) {
  return Math.max(8, Math.min(12, Math.round(size * 0.45)));
}

/** Width of the row numbers' gutter: `digits` digits at `font` px. */
function gutterWidth(digits, font) {
  return Math.ceil(digits * 0.62 * font + 6);
}

/**
 * The side of a cell for a rows × cols board in `avail` pixels of width:
 * as large as fits (up to MAX_CELL), smaller for tall boards (not below
 * 14 px for height alone), never wider than `avail` unless MIN_CELL is.
 */
export function cellSize(rows, cols, avail) {
  const digits = String(Math.max(rows - 1, 0)).length;
  const width = (size) => gutterWidth(digits, labelFont(size)) + cols * (size + 1) + 1;
  let size = Math.min(MAX_CELL, Math.max(14, Math.floor(TARGET_HEIGHT / rows) - 1));
  while (size > MIN_CELL && width(size) > avail) size--;
  return size;
}

export class BoardView {
  /**
   * `el` is the board's element; `handlers` may have onClick(i, event),
   * onRightClick(i, event), onCursor(i or -1) and onFit() (the cell size
   * changed: a caller whose views depend on `small` redraws).
   * `available()` gives the width the board may take, pixels (default:
   * the width of the element around the board's frame).
   */
  constructor(el, handlers = {}, available = null) {
    this.el = el;
    this.handlers = handlers;
    this.rows = 0;
    this.cols = 0;
    this.cells = [];
    this.drawn = []; // each cell's last drawn view (strings)
    this.cursor = -1;
    this.size = 0;
    // The frame: the column numbers above, the row numbers at the left.
    this.frame = document.createElement("div");
    this.frame.className = "frame";
    this.colLabels = document.createElement("div");
    this.colLabels.className = "labels cols";
    this.rowLabels = document.createElement("div");
    this.rowLabels.className = "labels rows";
    for (const labels of [this.colLabels, this.rowLabels]) labels.setAttribute("aria-hidden", "true");
    el.replaceWith(this.frame);
    this.frame.append(this.colLabels, this.rowLabels, el);
    this.available = available || (() => this.frame.parentElement.clientWidth);

    const index = (e) => {
      const cell = e.target.closest(".cell");
      return cell && el.contains(cell) ? Number(cell.dataset.i) : -1;
    };
    el.addEventListener("click", (e) => {
      const i = index(e);
      if (i >= 0 && handlers.onClick) handlers.onClick(i, e);
    });
    el.addEventListener("contextmenu", (e) => {
      e.preventDefault();
      const i = index(e);
      if (i >= 0 && handlers.onRightClick) handlers.onRightClick(i, e);
    });
    el.addEventListener("mouseover", (e) => {
      const i = index(e);
      if (i >= 0) this.setCursor(i, false);
    });
    window.addEventListener("resize", () => this.fit());
  }

  /** The cell under the mouse or moved to by the keys, -1 for none. */
  get hovered() {
    return this.cursor;
  }

  /** Whether cells are too small for percentages. */
  get small() {
    return this.size < TEXT_CELL;
  }

  /** Rebuilds the grid for rows × cols cells (all closed). */
  resize(rows, cols) {
    this.rows = rows;
    this.cols = cols;
    this.cursor = -1;
    // Rows of cells, each its own layout (CSS containment): a change in
    // one cell lays out its row, not the whole board (a CSS grid of
    // 10,000 cells is laid out whole at every change, 0.1-0.4 s).
    const fragment = document.createDocumentFragment();
    this.cells = [];
    this.drawn = new Array(rows * cols).fill(null);
    for (let r = 0; r < rows; r++) {
      const row = document.createElement("div");
      row.className = "row-cells";
      for (let c = 0; c < cols; c++) {
        const i = r * cols + c;
        const div = document.createElement("div");
        div.className = "cell closed";
        div.dataset.i = i;
        div.dataset.r = r;
        div.dataset.c = c;
        row.appendChild(div);
        this.cells.push(div);
      }
      fragment.appendChild(row);
    }
    this.el.replaceChildren(fragment);
    const labels = (n) => {
      const out = document.createDocumentFragment();
      for (let k = 0; k < n; k++) {
        const span = document.createElement("span");
        span.textContent = k;
        out.appendChild(span);
      }
      return out;
    };
    this.colLabels.replaceChildren(labels(cols));
    this.rowLabels.replaceChildren(labels(rows));
    this.size = 0;
    this.fit(false);
  }

  /**
   * Sizes the cells to the width available (a phone's width included);
   * with `notify`, calls onFit when cells became too small for
   * percentages or large enough again.
   */
  fit(notify = true) {
    if (!this.rows) return;
    const avail = this.available();
    if (!avail) return; // hidden: fitted when shown
    const size = cellSize(this.rows, this.cols, avail);
    if (size === this.size) return;
    const before = this.size;
    this.size = size;
    const font = labelFont(size);
    const style = this.frame.style;
    style.setProperty("--cell", `${size}px`);
    style.setProperty("--label-font", `${font}px`);
    style.setProperty("--gutter", `${gutterWidth(String(this.rows - 1).length, font)}px`);
    style.setProperty("--cols", this.cols);
    this.colLabels.style.gridTemplateColumns = `repeat(${this.cols}, var(--cell))`;
    this.rowLabels.style.gridTemplateRows = `repeat(${this.rows}, var(--cell))`;
    this.frame.classList.toggle("compact", size < COMPACT_CELL);
    // Every number when it fits under its column, else every 5th or 10th.
    const need = String(this.cols - 1).length * 0.62 * font + 3;
    const colStep = need <= size + 1 ? 1 : need <= 5 * (size + 1) ? 5 : 10;
    const rowStep = font <= size + 1 ? 1 : 5;
    [...this.colLabels.children].forEach((s, k) => s.classList.toggle("sparse", k % colStep !== 0));
    [...this.rowLabels.children].forEach((s, k) => s.classList.toggle("sparse", k % rowStep !== 0));
    if (notify && (before < TEXT_CELL) !== (size < TEXT_CELL) && this.handlers.onFit) this.handlers.onFit();
  }

  /**
   * Draws cell i from a view {classes: [..], text, title, fill, ink, data}:
   * its classes, its text, its tooltip (shown once the cursor is on it),
   * its colours and data attributes (each data key set, or removed when
   * null). Only what differs from the cell's last view is written.
   */
  draw(i, view) {
    const before = this.drawn[i];
    const now = {
      classes: (view.classes || []).join(" "),
      text: view.text || "",
      title: view.title || "",
      fill: view.fill || "",
      ink: view.ink || "",
      data: view.data || {},
    };
    this.drawn[i] = now;
    const div = this.cells[i];
    if (!before || before.classes !== now.classes) {
      div.className = `cell ${now.classes}${i === this.cursor ? " cursor" : ""}`;
    }
    if (!before || before.text !== now.text) div.textContent = now.text;
    // The tooltip is written when the cursor comes (10,000 titles written
    // at each analysis of a large board cost more than all the rest).
    if (i === this.cursor && div.title !== now.title) div.title = now.title;
    if (!before || before.fill !== now.fill) div.style.background = now.fill;
    if (!before || before.ink !== now.ink) div.style.color = now.ink;
    for (const key in now.data) {
      const value = now.data[key];
      if (before && before.data[key] === value) continue;
      if (value == null) delete div.dataset[key];
      else div.dataset[key] = value;
    }
  }

  /**
   * Puts the cursor on cell i (-1: none): outlined, its row and column
   * numbers marked; `scroll` brings it into view.
   */
  setCursor(i, scroll = true) {
    if (i === this.cursor) return;
    const mark = (k, on) => {
      if (k < 0 || !this.cells[k]) return;
      this.cells[k].classList.toggle("cursor", on);
      const view = this.drawn[k];
      if (on && view && this.cells[k].title !== view.title) this.cells[k].title = view.title;
      this.colLabels.children[k % this.cols].classList.toggle("at", on);
      this.rowLabels.children[Math.floor(k / this.cols)].classList.toggle("at", on);
    };
    mark(this.cursor, false);
    this.cursor = i;
    mark(i, true);
    if (i >= 0 && scroll) this.cells[i].scrollIntoView({ block: "nearest", inline: "nearest" });
    if (this.handlers.onCursor) this.handlers.onCursor(i);
  }

  /** Moves the cursor dr rows and dc columns (from the middle if none). */
  moveCursor(dr, dc) {
    if (!this.rows) return;
    if (this.cursor < 0) {
      this.setCursor(Math.floor(this.rows / 2) * this.cols + Math.floor(this.cols / 2));
      return;
    }
    const r = Math.min(this.rows - 1, Math.max(0, Math.floor(this.cursor / this.cols) + dr));
    const c = Math.min(this.cols - 1, Math.max(0, (this.cursor % this.cols) + dc));
    this.setCursor(r * this.cols + c);
  }
}

/** The cursor moves of the arrow keys and h j k l: [dr, dc], or null. */
export function cursorStep(key) {
  switch (key) {
    case "ArrowUp": case "k": return [-1, 0];
    case "ArrowDown": case "j": return [1, 0];
    case "ArrowLeft": case "h": return [0, -1];
    case "ArrowRight": case "l": return [0, 1];
    default: return null;
  }
}
