// Positions in the page: cells as characters, the text format, MBF files.
//
// A position is {rows, cols, cells, mines}: `cells` holds one character
// per cell, row after row — "?" closed, "F" flag, "0"-"8" a number, "*"
// known safe — and `mines` the total (null when unknown).

/** Largest side the page edits. */
export const MAX_SIDE = 100;

/** The neighbours of cell i on a rows × cols grid. */
export function neighbours(i, rows, cols) {
  const r = Math.floor(i / cols), c = i % cols, out = [];
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      if (dr === 0 && dc === 0) continue;
      const rr = r + dr, cc = c + dc;
      if (rr >= 0 && rr < rows && cc >= 0 && cc < cols) out.push(rr * cols + cc);
    }
  }
  return out;
}

/** The API's "rows": one string per row. */
export function toRows(p) {
  const rows = [];
  for (let r = 0; r < p.rows; r++) rows.push(p.cells.slice(r * p.cols, (r + 1) * p.cols).join(""));
  return rows;
}

/** The position text: `mines N` when known, then the rows ("." for 0). */
export function toText(p) {
  const head = p.mines == null ? "" : `mines ${p.mines}\n`;
  return head + toRows(p).map((row) => row.replace(/0/g, ".")).join("\n") + "\n";
}

/**
 * Parses the position text format (comments `#`, blank lines, an optional
 * `mines N` before the grid). Throws an Error naming the line at fault.
 */
export function parseText(text) {
  let mines = null;
  const grid = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, k) => {
    const line = raw.replace(/\s+$/, "");
    const at = `line ${k + 1}`;
    if (line.trim() === "" || line.trim().startsWith("#")) return;
    const m = /^mines\s+(\d+)$/.exec(line);
    if (m) {
      if (grid.length) throw new Error(`${at}: \`mines N\` after the grid`);
      mines = Number(m[1]);
      return;
    }
    const bad = /[^?F*.0-8]/.exec(line);
    if (bad) throw new Error(`${at}, column ${bad.index + 1}: unexpected "${bad[0]}"`);
    if (grid.length && line.length !== grid[0].length) {
      throw new Error(`${at}: ${line.length} cells, expected ${grid[0].length} like the first row`);
    }
    grid.push(line);
  });
  if (!grid.length) throw new Error("no grid: expected rows of ? F * . 0-8");
  if (grid.length > MAX_SIDE || grid[0].length > MAX_SIDE) {
    throw new Error(`a ${grid.length}×${grid[0].length} board: the page edits up to ${MAX_SIDE}×${MAX_SIDE}`);
  }
  const cells = [];
  for (const row of grid) for (const ch of row) cells.push(ch === "." ? "0" : ch);
  return { rows: grid.length, cols: grid[0].length, cells, mines };
}

/**
 * Parses an MBF file (bytes 0 width, 1 height, 2–3 the mine count
 * big-endian, then one (x, y) byte pair per mine) into a layout
 * {rows, cols, mine: [bool]}. Throws an Error naming the byte at fault.
 */
export function parseMbf(bytes) {
  if (bytes.length < 4) throw new Error(`an MBF file has a 4-byte header; this one has ${bytes.length} bytes`);
  const cols = bytes[0], rows = bytes[1], count = (bytes[2] << 8) | bytes[3];
  if (!cols || !rows) throw new Error(`a board of ${cols} columns × ${rows} rows`);
  if (rows > MAX_SIDE || cols > MAX_SIDE) throw new Error(`a ${rows}×${cols} board: the page edits up to ${MAX_SIDE}×${MAX_SIDE}`);
  if (bytes.length !== 4 + 2 * count) throw new Error(`${count} mines need ${4 + 2 * count} bytes; the file has ${bytes.length}`);
  const mine = new Array(rows * cols).fill(false);
  for (let k = 0; k < count; k++) {
    const x = bytes[4 + 2 * k], y = bytes[5 + 2 * k];
    if (x >= cols || y >= rows) throw new Error(`byte ${4 + 2 * k}: mine ${k + 1} is off the board`);
    if (mine[y * cols + x]) throw new Error(`byte ${4 + 2 * k}: mine ${k + 1} is listed twice`);
    mine[y * cols + x] = true;
  }
  return { rows, cols, mine };
}

/** The number each cell of a layout shows (-1 for a mine). */
export function numbers(layout) {
  const { rows, cols, mine } = layout;
  return mine.map((m, i) => (m ? -1 : neighbours(i, rows, cols).filter((n) => mine[n]).length));
}

/**
 * Opens cell `start` of a layout as a player's click does: a 0 opens its
 * neighbours, recursively. `open` (booleans) is updated in place; returns
 * the cells newly opened.
 */
export function floodOpen(layout, values, open, start) {
  const opened = [];
  const stack = [start];
  while (stack.length) {
    const i = stack.pop();
    if (open[i] || layout.mine[i]) continue;
    open[i] = true;
    opened.push(i);
    if (values[i] === 0) for (const n of neighbours(i, layout.rows, layout.cols)) if (!open[n]) stack.push(n);
  }
  return opened;
}

/**
 * The analyser's position for an MBF layout: what a player sees after
 * clicking (3,3) (clamped into small boards), with the total; if that cell
 * is a mine, the whole layout revealed with its mines flagged.
 */
export function mbfPosition(layout) {
  const values = numbers(layout);
  const start = Math.min(3, layout.rows - 1) * layout.cols + Math.min(3, layout.cols - 1);
  const total = layout.mine.filter(Boolean).length;
  if (layout.mine[start]) {
    return { rows: layout.rows, cols: layout.cols, cells: values.map((v) => (v < 0 ? "F" : String(v))), mines: total };
  }
  const open = new Array(values.length).fill(false);
  floodOpen(layout, values, open, start);
  const cells = values.map((v, i) => (open[i] ? String(v) : "?"));
  return { rows: layout.rows, cols: layout.cols, cells, mines: total };
}
