// A small seeded random generator for random boards made in the page.

/** mulberry32: a 32-bit seeded generator; returns floats in [0, 1). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A layout of `mines` mines on rows × cols cells, uniform among the cells
 * other than `excluded` (a set of cell indices): a partial Fisher–Yates
 * shuffle. Returns an array of booleans, row after row.
 */
export function randomLayout(rows, cols, mines, excluded, random) {
  const free = [];
  for (let i = 0; i < rows * cols; i++) if (!excluded.has(i)) free.push(i);
  const mine = new Array(rows * cols).fill(false);
  for (let k = 0; k < Math.min(mines, free.length); k++) {
    const j = k + Math.floor(random() * (free.length - k));
    [free[k], free[j]] = [free[j], free[k]];
    mine[free[k]] = true;
  }
  return mine;
}
