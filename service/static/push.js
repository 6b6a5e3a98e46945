// "Notify me on this device", a progressive enhancement: the button is shown only where the browser
// can take Web Push (a service worker, the Push API, notifications, a secure page). Pressed, it asks
// for the permission, registers the seat pages' service worker, subscribes with the service's public
// key and posts the subscription through the page's own form (with its CSRF token), so the page that
// comes back lists the new channel or says why it was refused.
const box = document.querySelector("[data-push]");
const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
if (box && supported && window.isSecureContext) {
  const form = box.querySelector("form");
  const status = box.querySelector("[data-push-status]");
  const say = (text) => {
    status.textContent = text;
    status.hidden = false;
  };
  const serverKey = () => {
    const text = box.dataset.key.replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  };
  const sameKey = (subscription) => {
    const key = subscription.options.applicationServerKey;
    return key && btoa(String.fromCharCode(...new Uint8Array(key))) === btoa(String.fromCharCode(...serverKey()));
  };
  const subscription = async () => {
    await navigator.serviceWorker.register(box.dataset.worker, { scope: box.dataset.scope });
    const registration = await navigator.serviceWorker.ready;
    const existing = await registration.pushManager.getSubscription();
    if (existing && sameKey(existing)) return existing;
    if (existing) await existing.unsubscribe(); // made with a key the service no longer has
    return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey() });
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if ((await Notification.requestPermission()) !== "granted") {
      say(box.dataset.blocked);
      return;
    }
    try {
      form.elements.subscription.value = JSON.stringify(await subscription());
    } catch (error) {
      console.warn("push subscription failed", error); // the reader gets words, the console the reason
      say(box.dataset.failed);
      return;
    }
    form.submit();
  });
  box.hidden = false;
}
