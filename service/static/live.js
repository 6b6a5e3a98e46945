// An open player page follows the game, a progressive enhancement (without JavaScript nothing
// changes): every few seconds while the tab is visible it asks the game's version (a tiny JSON answer
// with an ETag, 304 while nothing moved) and reloads once the game moved on, so that a waiting player
// sees the move, and "Your move" in the tab's title, without touching the page. A player in the middle
// of choosing (a box ticked, a message typed) is not interrupted: a link offers the fresh page instead.
const live = document.querySelector("[data-live]");
if (live) {
  const every = Math.max(1, Number(live.dataset.every) || 20) * 1000;
  const notice = document.querySelector("[data-moved-on]");
  let etag = null;
  let busy = false;
  let touched = false;
  document.addEventListener("input", () => { touched = true; });
  document.addEventListener("change", () => { touched = true; });

  const movedOn = () => {
    if (touched && notice) {
      notice.hidden = false;
    } else {
      window.location.reload();
    }
  };

  const poll = async () => {
    if (busy || document.visibilityState !== "visible") return;
    busy = true;
    try {
      const headers = etag ? { "If-None-Match": etag } : {};
      const answer = await fetch(live.dataset.live, { headers, cache: "no-store", credentials: "same-origin" });
      if (answer.status === 200) {
        etag = answer.headers.get("ETag");
        const { seq } = await answer.json();
        if (String(seq) !== live.dataset.seq) movedOn();
      }
    } catch (error) {
      // offline or the service restarting: ask again at the next tick
    } finally {
      busy = false;
    }
  };

  window.setInterval(poll, every);
  document.addEventListener("visibilitychange", poll);
  document.documentElement.dataset.live = "on";
}
