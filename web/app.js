// The page's entry point: loads the palette, builds the analyser and the
// game, switches between them, and opens the position or game a link
// carries in its fragment.

import { loadPalette } from "./api.js";
import { Analyser } from "./analyser.js";
import { Play } from "./play.js";
import { readFragment } from "./share.js";

const $ = (id) => document.getElementById(id);

async function main() {
  await loadPalette();
  const analyser = new Analyser();
  const play = new Play((position) => {
    analyser.load(position);
    show("analyser");
  });

  /** Shows mode `name` ("analyser" or "play"), its board fitted to the width. */
  function show(name) {
    for (const mode of ["analyser", "play"]) {
      $(mode).hidden = mode !== name;
      $(`tab-${mode}`).classList.toggle("active", mode === name);
    }
    (name === "analyser" ? analyser : play).view.fit();
  }

  /**
   * Opens the position or the game of the address's fragment, if any; a
   * link that cannot be opened is said above both modes.
   */
  function openLink() {
    let link;
    const error = $("link-error");
    try {
      link = readFragment(location.hash);
      error.hidden = true;
    } catch (e) {
      error.textContent = `This link cannot be opened: ${e.message}.`;
      error.hidden = false;
      return;
    }
    if (link && link.position) {
      show("analyser");
      analyser.load(link.position);
    } else if (link && link.game) {
      show("play");
      play.restore(link.game);
    }
  }

  $("tab-analyser").addEventListener("click", () => show("analyser"));
  $("tab-play").addEventListener("click", () => show("play"));
  window.addEventListener("hashchange", openLink);
  openLink();
  // For the browser tests and the curious: the two modes.
  window.sapper = { analyser, play, show };
  document.body.dataset.ready = "1";
}

main();
