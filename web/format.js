// Words and numbers for people: cell names, counts, percentages, proofs.

/**
 * A cell as the board's edges and the API number it: "(row, col)" from 0.
 */
export function cellName(r, c) {
  return `(${r}, ${c})`;
}

/** Digits shown exactly; a longer count is written in powers of ten. */
export const EXACT_DIGITS = 15;

/**
 * A whole number for people. `exact` is its decimal digits (a string, may
 * be absent), `log10` its base-ten logarithm. Up to EXACT_DIGITS digits:
 * the number with thousands separators ("1,878,392,407,320"); beyond, three
 * significant digits and a power of ten: {mantissa: "1.23", exponent: 1848}.
 * Returns {text, mantissa, exponent}; `text` is a plain rendering
 * ("1.23 × 10^1848").
 */
export function shortCount(exact, log10) {
  if (exact !== undefined && exact !== null && exact.length <= EXACT_DIGITS) {
    return { text: exact.replace(/\B(?=(\d{3})+(?!\d))/g, ","), mantissa: null, exponent: null };
  }
  let mantissa, exponent;
  if (exact !== undefined && exact !== null) {
    // Three significant digits of the exact count, rounded half up.
    exponent = exact.length - 1;
    let lead = Math.round(Number(exact.slice(0, 4)) / 10);
    if (lead >= 1000) {
      lead = 100;
      exponent += 1;
    }
    mantissa = (lead / 100).toFixed(2);
  } else {
    exponent = Math.floor(log10);
    let m = 10 ** (log10 - exponent);
    if (Number(m.toFixed(2)) >= 10) {
      m /= 10;
      exponent += 1;
    }
    mantissa = m.toFixed(2);
  }
  const text = mantissa === "1.00" ? `10^${exponent}` : `${mantissa} × 10^${exponent}`;
  return { text, mantissa, exponent };
}

/**
 * A probability for people: a percentage whose distance to the nearer end
 * keeps three significant digits ("33.3%", "4.17%", "0.0134%", "99.9600%",
 * "1.34e-18%"); "0%" and "100%" only when exact.
 */
export function pct(p) {
  const x = p * 100;
  if (x === 0 || x === 100) return `${x}%`;
  // Three significant digits of the distance to the nearer end, so that
  // only an exact 0 or 1 reads as 0% or 100% (the CLI's review writes
  // the same: `percent` in src/cmd/review.rs).
  const near = Math.min(x, 100 - x);
  const decimals = near >= 10 ? 1 : near >= 1 ? 2 : 2 - Math.floor(Math.log10(near));
  if (decimals <= 8) return `${x.toFixed(decimals)}%`;
  return x < 50 ? `${x.toExponential(2)}%` : `(100 − ${(100 - x).toExponential(2)})%`;
}

/** The API's method names (`source` of a deduction) in words. */
const METHODS = {
  single_cell: "the single-cell method",
  linked_cells_1: "linked cells 1 (two numbers' equations)",
  linked_cells_2: "linked cells 2 (equations with the mine total)",
  hypotheses: "hypotheses (the other value admits no layout)",
};

/**
 * What proved a deduction of /api/probabilities, in words: "a rule of
 * order 2" for `"source": "rules"` (the order when given), else the
 * method's name.
 */
export function proofName(d) {
  if (d.source === "rules") return d.order ? `a rule of order ${d.order}` : "a rule";
  return METHODS[d.source] || d.source.replace(/_/g, " ");
}
