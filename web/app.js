// The page's entry point: loads the palette, builds the analyser and the
// game, and switches between them.

import { loadPalette } from "./api.js";
import { Analyser } from "./analyser.js";
import { Play } from "./play.js";

const $ = (id) => document.getElementById(id);

/** Shows mode `name` ("analyser" or "play"). */
function show(name) {
  for (const mode of ["analyser", "play"]) {
    $(mode).hidden = mode !== name;
    $(`tab-${mode}`).classList.toggle("active", mode === name);
  }
}

async function main() {
  await loadPalette();
  const analyser = new Analyser();
  const play = new Play((position) => {
    analyser.load(position);
    show("analyser");
  });
  $("tab-analyser").addEventListener("click", () => show("analyser"));
  $("tab-play").addEventListener("click", () => show("play"));
  // For the browser tests and the curious: the two modes.
  window.sapper = { analyser, play, show };
  document.body.dataset.ready = "1";
}

main();
