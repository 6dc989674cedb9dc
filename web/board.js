// A board on the page: a CSS grid of cells, drawn from plain descriptions
// and reporting clicks, right clicks and the hovered cell.

/** Pixel side of a cell for a rows × cols board: large on small boards. */
function cellSize(rows, cols) {
  const fit = Math.floor(Math.min(960 / cols, 640 / rows));
  return Math.max(14, Math.min(34, fit));
}

export class BoardView {
  /**
   * `el` is the board's element; `handlers` may have onClick(i, event),
   * onRightClick(i, event) and onHover(i or -1).
   */
  constructor(el, handlers = {}) {
    this.el = el;
    this.rows = 0;
    this.cols = 0;
    this.cells = [];
    this.hovered = -1;
    const index = (e) => {
      const cell = e.target.closest(".cell");
      return cell ? Number(cell.dataset.i) : -1;
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
      if (i === this.hovered) return;
      if (this.hovered >= 0 && this.cells[this.hovered]) this.cells[this.hovered].classList.remove("hovered");
      this.hovered = i;
      if (i >= 0) this.cells[i].classList.add("hovered");
      if (handlers.onHover) handlers.onHover(i);
    });
    el.addEventListener("mouseleave", () => {
      if (this.hovered >= 0 && this.cells[this.hovered]) this.cells[this.hovered].classList.remove("hovered");
      this.hovered = -1;
      if (handlers.onHover) handlers.onHover(-1);
    });
  }

  /** Rebuilds the grid for rows × cols cells (all closed). */
  resize(rows, cols) {
    this.rows = rows;
    this.cols = cols;
    this.hovered = -1;
    const size = cellSize(rows, cols);
    this.small = size < 26; // too small for percentages
    this.el.style.setProperty("--cell", `${size}px`);
    this.el.style.gridTemplateColumns = `repeat(${cols}, var(--cell))`;
    const fragment = document.createDocumentFragment();
    this.cells = [];
    for (let i = 0; i < rows * cols; i++) {
      const div = document.createElement("div");
      div.className = "cell closed";
      div.dataset.i = i;
      div.dataset.r = Math.floor(i / cols);
      div.dataset.c = i % cols;
      fragment.appendChild(div);
      this.cells.push(div);
    }
    this.el.replaceChildren(fragment);
  }

  /**
   * Draws cell i from a view {classes: [..], text, title, fill, ink, data}:
   * its classes, its text, its tooltip, its colours and data attributes
   * (each data key set, or removed when null).
   */
  draw(i, view) {
    const div = this.cells[i];
    const classes = ["cell", ...(view.classes || [])];
    if (i === this.hovered) classes.push("hovered");
    div.className = classes.join(" ");
    div.textContent = view.text || "";
    div.title = view.title || "";
    div.style.background = view.fill || "";
    div.style.color = view.ink || "";
    for (const [key, value] of Object.entries(view.data || {})) {
      if (value == null) delete div.dataset[key];
      else div.dataset[key] = value;
    }
  }
}
