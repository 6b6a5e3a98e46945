// Progressive enhancement only: pages work the same without it.
// Shows <time data-localise> in the browser's time zone, and suggests the browser's zone as a new
// game's time zone when the field still holds the default.
document.addEventListener("DOMContentLoaded", function () {
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  // One format for times on pages and in mails (service/localtime.py format_time): the page's
  // language, short weekday and month, the time of day, then the zone's name in brackets.
  var format = { timeZone: zone, weekday: "short", day: "numeric", month: "short", hour: "numeric",
                 minute: "2-digit" };
  var language = document.documentElement.lang || undefined;
  document.querySelectorAll("time[data-localise]").forEach(function (node) {
    var moment = new Date(node.getAttribute("datetime"));
    if (!isNaN(moment)) {
      node.title = node.textContent;
      node.textContent = moment.toLocaleString(language, format) + " (" + zone + ")";
    }
  });
  document.querySelectorAll("input[data-browser-zone]").forEach(function (input) {
    if (zone && input.value === "UTC") { input.value = zone; }
  });
});
