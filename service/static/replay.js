// Replay keyboard steps, a progressive enhancement: ← → Home End follow the page's own step links
// (marked data-key), which work without JavaScript too.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
  if (event.target instanceof Element && event.target.closest("input, textarea, select, [contenteditable]")) return;
  const link = document.querySelector(`a[data-key="${event.key}"]`);
  if (link) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});
// Tells scripted browsers (and tests) that the keys now work on this page.
document.documentElement.dataset.replayKeys = "ready";
