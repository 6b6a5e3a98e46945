// The service worker of the seat pages (served as /sw.js, scope /play/): it shows each Web Push
// notice as a notification (one per game: a newer one replaces the older) and opens the seat's page
// when it is tapped. It keeps no cache and answers no request: every page stays as the site serves it.
self.addEventListener("push", (event) => {
  const notice = event.data ? event.data.json() : {};
  if (!notice.title) return;
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.text,
      lang: notice.language,
      tag: notice.game,
      renotify: true,
      icon: "/static/favicon.svg",
      data: { url: notice.url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data && event.notification.data.url;
  if (!url) return;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url.split("#")[0] === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
