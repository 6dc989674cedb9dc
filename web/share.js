// Links that carry a position or a game in their fragment (the part after
// `#`, which the browser never sends): nothing is stored on the server.
//
//   #position=<rows>&mines=<N>
//       the analyser's position: rows separated by "/", each cell one
//       character of the position text ("?" closed, "F" flag, "*" known
//       safe, "." a revealed 0, "1"-"8" a number), a run of k ≥ 4 cells
//       "?", "F", "*" or "." written "~k" and the character (numbers are
//       never run together: "~51" could not be read); `mines` absent when
//       unknown.
//   #game=<noguess|random>&rows=R&cols=C&mines=M&seed=S[&click=r,c]
//       a game: its size, kind and seed, and the first click when made
//       (the board depends on it).

import { MAX_SIDE } from "./position.js";

/** Largest seed a link carries (JavaScript numbers are exact up to it). */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;

/** The characters a run may repeat (no digit: its count would run on). */
const RUNS = "?F*.";

/** One row of cells ("?", "F", "*", "0"-"8") as the link writes it. */
function encodeRow(cells) {
  let out = "";
  for (let k = 0; k < cells.length; ) {
    let n = 1;
    while (k + n < cells.length && cells[k + n] === cells[k]) n++;
    const ch = cells[k] === "0" ? "." : cells[k];
    out += n >= 4 && RUNS.includes(ch) ? `~${n}${ch}` : ch.repeat(n);
    k += n;
  }
  return out;
}

/** The fragment (without "#") of an analyser position. */
export function positionFragment(p) {
  const rows = [];
  for (let r = 0; r < p.rows; r++) rows.push(encodeRow(p.cells.slice(r * p.cols, (r + 1) * p.cols)));
  return `position=${rows.join("/")}${p.mines == null ? "" : `&mines=${p.mines}`}`;
}

/** The fragment (without "#") of a game {kind, rows, cols, mines, seed, first}. */
export function gameFragment(g) {
  const click = g.first ? `&click=${g.first[0]},${g.first[1]}` : "";
  return `game=${g.kind}&rows=${g.rows}&cols=${g.cols}&mines=${g.mines}&seed=${g.seed}${click}`;
}

/** A whole number in lo..hi from a link's field, or an Error naming it. */
function whole(params, key, lo, hi) {
  const text = params.get(key);
  if (text === null) throw new Error(`the link has no "${key}"`);
  if (!/^\d+$/.test(text) || Number(text) < lo || Number(text) > hi) {
    throw new Error(`the link's ${key} "${text}" is not a whole number from ${lo} to ${hi}`);
  }
  return Number(text);
}

/** The rows of a `position=` field as a position; Errors name the row and column. */
function decodePosition(text, params) {
  const grid = text.split("/").map((row, r) => {
    const cells = [];
    for (let k = 0; k < row.length; ) {
      let n = 1;
      const at = `the link's row ${r}, character ${k}`;
      if (row[k] === "~") {
        const m = /^~(\d+)/.exec(row.slice(k));
        if (!m) throw new Error(`${at}: "~" without a count`);
        n = Number(m[1]);
        k += m[0].length;
        if (n < 1 || n > MAX_SIDE) throw new Error(`${at}: a run of ${n} cells`);
      }
      const ch = row[k];
      if (ch === undefined || !/[?F*.0-8]/.test(ch) || (n > 1 && !RUNS.includes(ch))) {
        throw new Error(`${at}: unexpected ${ch === undefined ? "end of row" : `"${ch}"`}`);
      }
      for (let j = 0; j < n; j++) cells.push(ch === "." ? "0" : ch);
      k += 1;
    }
    return cells;
  });
  const cols = grid[0].length;
  const bad = grid.findIndex((row) => row.length !== cols);
  if (!cols) throw new Error("the link's position has no cells");
  if (bad >= 0) throw new Error(`the link's row ${bad} has ${grid[bad].length} cells, row 0 has ${cols}`);
  if (grid.length > MAX_SIDE || cols > MAX_SIDE) {
    throw new Error(`a ${grid.length}×${cols} board: the page edits up to ${MAX_SIDE}×${MAX_SIDE}`);
  }
  const mines = params.has("mines") ? whole(params, "mines", 0, grid.length * cols) : null;
  return { rows: grid.length, cols, cells: grid.flat(), mines };
}

/**
 * What a fragment (with or without "#") carries: {position}, {game} or
 * null when it is no link of the page. Throws an Error naming the field
 * at fault.
 */
export function readFragment(hash) {
  const text = hash.replace(/^#/, "");
  if (!text) return null;
  const params = new URLSearchParams(text);
  if (params.has("position")) return { position: decodePosition(params.get("position"), params) };
  if (params.has("game")) {
    const kind = params.get("game");
    if (kind !== "noguess" && kind !== "random") {
      throw new Error(`the link's game "${kind}" is neither "noguess" nor "random"`);
    }
    const rows = whole(params, "rows", 1, MAX_SIDE);
    const cols = whole(params, "cols", 1, MAX_SIDE);
    const mines = whole(params, "mines", 1, rows * cols - 1);
    const seed = whole(params, "seed", 0, MAX_SEED);
    let first = null;
    if (params.has("click")) {
      const m = /^(\d+),(\d+)$/.exec(params.get("click"));
      if (!m || Number(m[1]) >= rows || Number(m[2]) >= cols) {
        throw new Error(`the link's click "${params.get("click")}" is no cell (row, col) of a ${rows}×${cols} board`);
      }
      first = [Number(m[1]), Number(m[2])];
    }
    return { game: { kind, rows, cols, mines, seed, first } };
  }
  return null;
}

/** The page's address with fragment `fragment`. */
export function linkTo(fragment) {
  return `${location.origin}${location.pathname}#${fragment}`;
}

/**
 * Shows `url` in the read-only field `input` (selected), puts it in the
 * address bar without reloading, and copies it when the browser allows.
 */
export async function offerLink(url, input) {
  history.replaceState(null, "", url);
  input.hidden = false;
  input.value = url;
  input.focus();
  input.select();
  try {
    await navigator.clipboard.writeText(url);
    input.title = "Copied to the clipboard";
  } catch {
    input.title = "Copy this link";
  }
}
