// Progressive enhancement only: pages work the same without it.
// Shows <time data-localise> in the browser's time zone, and suggests the browser's zone as a new
// game's time zone when the field still holds the default.
document.addEventListener("DOMContentLoaded", function () {
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  var format = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
                 timeZoneName: "short" };
  document.querySelectorAll("time[data-localise]").forEach(function (node) {
    var moment = new Date(node.getAttribute("datetime"));
    if (!isNaN(moment)) {
      node.title = node.textContent;
      node.textContent = moment.toLocaleString(undefined, format);
    }
  });
  document.querySelectorAll("input[data-browser-zone]").forEach(function (input) {
    if (zone && input.value === "UTC") { input.value = zone; }
  });
});
