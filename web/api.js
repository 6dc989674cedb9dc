// The server's JSON API and the shared palette.

/**
 * POSTs `body` as JSON to `path`. Resolves to {ok, status, data}; `data`
 * is the parsed answer (an {error} object when not ok). Never rejects on
 * an HTTP error; a network failure becomes {ok: false, status: 0}.
 */
export async function post(path, body, signal) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
    let data;
    try {
      data = await response.json();
    } catch {
      data = { error: `HTTP ${response.status}` };
    }
    return { ok: response.ok, status: response.status, data };
  } catch (e) {
    if (e.name === "AbortError") throw e;
    return { ok: false, status: 0, data: { error: `cannot reach the server: ${e.message}` } };
  }
}

/** The palette (`/palette.json`): the heat table and the fixed colours. */
export const palette = { steps: 256, heat: [], ink: [], colours: {}, numbers: [] };

/** Loads the palette and sets its fixed colours as CSS variables. */
export async function loadPalette() {
  const response = await fetch("/palette.json");
  Object.assign(palette, await response.json());
  const root = document.documentElement.style;
  for (const [name, colour] of Object.entries(palette.colours)) {
    root.setProperty(`--${name.replace(/_/g, "-")}`, colour);
  }
}

/** The heat colour and readable ink of probability p (as the SVG does). */
export function heat(p) {
  const k = Math.round(Math.min(1, Math.max(0, p)) * (palette.steps - 1));
  return { fill: palette.heat[k], ink: palette.ink[k] };
}

/** A closed cell's label: S, M, <1%, >99% or a whole percentage. */
export function label(p) {
  if (p === 0) return "S";
  if (p === 1) return "M";
  const whole = Math.round(p * 100);
  if (whole < 1) return "<1%";
  if (whole > 99) return ">99%";
  return `${whole}%`;
}

/** A CSS gradient of the whole heat ramp (for legends). */
export function rampGradient() {
  const stops = [];
  for (let k = 0; k < palette.steps; k += 15) stops.push(palette.heat[k]);
  stops.push(palette.heat[palette.steps - 1]);
  return `linear-gradient(to right, ${stops.join(", ")})`;
}
