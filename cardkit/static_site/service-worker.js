/* The static site's service worker (written by `cardkit build-static`): the site's files kept in the browser,
   one build at a time, with Workbox's precaching (npm `workbox-precaching`, shipped in static/workbox/).

   - The build fills in MANIFEST: every file of the site with its revision (the first 16 hex digits of its
     sha256), its subresource integrity (the whole sha256) and its size. Workbox keeps each file under its
     address and revision, and the browser checks every byte it fetches against the integrity: a file from
     another build (a host that has been updated since, an HTTP cache that still holds the old one) is never
     kept or served as this build's.
   - What is kept is the visitor's choice. A page opened is kept with what it loaded (the page sends the list
     once it is ready, "cardkit-keep"; later requests are kept as they are answered). The whole site only on
     "cardkit-precache": the "Make available offline" button, or the site installed as an app; the page asks
     for neither on a connection that saves data, and the worker itself keeps nothing more than what was opened
     while its own view of the connection says so (navigator.connection.saveData, where a worker can see it):
     it answers "cardkit-precache" with `saveData`, and a new version brings up to date only what was kept.
   - A new build is a new version of this file (its MANIFEST changes). It installs beside the old one, fetching
     anew (revalidated, never from a stale HTTP cache) the changed files of what the visitor kept — the whole
     site if they had asked for it — and then waits: the pages still open are the old build's and are served
     the old build's files. The page says "A new version of the site is ready" with a Reload button, which sends
     SKIP_WAITING (workbox-window's `messageSkipWaiting`); once the new version is active, the old revisions are
     deleted (Workbox's `activate`). A page never visited, asked for while an older version is still active
     after the host has been updated, is not served half old, half new: the worker says that a new version is
     being got ready, activates it as soon as it is installed, and loads the page again.
   - A visitor of the site's earlier, hand-written worker (before 28 Nov; its caches "cardkit:<site>:<version>")
     had the whole site saved and is told nothing by its pages: this version saves the whole site, takes over as
     soon as it is saved (skipWaiting), deletes the old caches and loads the open pages again (a game under way
     comes back), instead of waiting until every tab of the site has closed.
   - Everything else (JupyterLite's own requests: its heartbeat, its in-browser drive) is JupyterLite's own
     service worker's, loaded at the end: the site's answer stops the event before that worker sees it.

   JupyterLite registers this file itself (service-worker.js?enableCache=false, at the site's root), and the
   page registers the same address (workbox-window), so there is one service worker for the whole site. */
importScripts(.../*WORKBOX*/[]);

// Everything of the site's own is inside this function: JupyterLite's worker, loaded at the end into the same
// global scope, declares names of its own (CACHE among them) at its top level.
(() => {
  "use strict";
  const MANIFEST = /*MANIFEST*/[];  // {url, revision, integrity, size}, url relative to the site's root
  const START = /*START*/[];        // what any page's Python start fetches (its kernel's worker)
  const BASE = new URL("./", self.location).href;
  const { PrecacheController } = self.workbox.precaching;
  const OLD_PREFIX = "cardkit:" + BASE + ":";                 // the caches of the site's earlier service worker
  const SETTINGS = "cardkit-settings:" + BASE;
  const WHOLE = BASE + "cardkit-whole-site";                  // kept there: the visitor asked for the whole site
  const ENTRIES = new Map(MANIFEST.map((e) => [new URL(e.url, BASE).href, e]));
  const TOTAL_BYTES = MANIFEST.reduce((sum, e) => sum + e.size, 0);

  // Fetches revalidate with the host (If-Modified-Since: a 304 costs nothing) rather than take the HTTP cache's
  // copy on trust (a host's max-age keeps the old build "fresh" for minutes); the integrity checks the bytes.
  const revalidate = { requestWillFetch: async ({ request }) => new Request(request, { cache: "no-cache" }) };
  const controller = (entries, plugins = []) => {
    const c = new PrecacheController({ plugins: [revalidate, ...plugins] });
    c.addToCacheList(entries);
    return c;
  };
  const site = controller(MANIFEST);
  const CACHE = site.strategy.cacheName;

  /* A file of the site: its address without query or fragment, the root as index.html. */
  function siteURL(url) {
    if (!url.startsWith(BASE)) return null;
    let u = url.split("#")[0].split("?")[0];
    if (u === BASE) u = BASE + "index.html";
    return ENTRIES.has(u) ? u : null;
  }

  // JupyterLite's worker (loaded at the end) answers the kernel's requests to its in-browser drive, and for input(),
  // by asking the page over a BroadcastChannel, and waits for the page's answer for ever. A page left or closed
  // while its kernel waits for one leaves the request pending in this worker, and a browser does not replace a
  // worker with a request pending, however often the new version is told to take over: the visitor would wait
  // (until the browser stops the old worker, minutes later; seen on a loaded machine, 29 Nov). So once the kernel
  // that asked is gone, the request is answered on the same channel in the page's stead: nobody reads it.
  const JL_CHANNEL = "/sw-api.v1";     // upstream: jl-worker-broadcast (build.py checks JupyterLite's worker)
  const jlChannel = new BroadcastChannel(JL_CHANNEL);
  const jlKey = (m) => `${m.browsingContextId} ${m.requestId}`;
  const jlWaiting = new Map();         // key -> {clientId, asked}: requests whose answer has not come
  const jlAnswered = new Set();        // keys answered before their watch began (kept for a minute)
  let jlSweep = null;
  jlChannel.addEventListener("message", (e) => {      // the page's answer (the request itself has no `response`)
    if (!e.data || !("response" in e.data)) return;
    const key = jlKey(e.data);
    if (!jlWaiting.delete(key)) {
      jlAnswered.add(key);
      setTimeout(() => jlAnswered.delete(key), 60000);
    }
  });
  async function sweep() {             // every second while requests wait: answer those whose kernel is gone
    for (const [key, { clientId, asked }] of jlWaiting) {
      if (await self.clients.get(clientId) || !jlWaiting.delete(key)) continue;
      jlChannel.postMessage({ browsingContextId: asked.browsingContextId, requestId: asked.requestId, response: null });
    }
    if (!jlWaiting.size) { clearInterval(jlSweep); jlSweep = null; }
  }
  async function watchJupyterLite(clientId, body) {
    const asked = await body;
    if (!asked || asked.requestId === undefined || jlAnswered.has(jlKey(asked))) return;
    jlWaiting.set(jlKey(asked), { clientId, asked });
    if (!jlSweep) jlSweep = setInterval(sweep, 1000);
  }

  self.addEventListener("fetch", (event) => {
    const request = event.request;
    const path = new URL(request.url).pathname;
    if (event.clientId && (path.includes("/api/drive") || path.includes("/api/stdin/"))) {
      watchJupyterLite(event.clientId, request.clone().json().catch(() => null));   // (JupyterLite's listener answers)
      return;
    }
    if (request.method !== "GET") return;
    const url = siteURL(request.url);
    if (url === null) return;
    event.stopImmediatePropagation();
    event.respondWith(answer(event, url));
  });

  async function answer(event, url) {
    const request = event.request;
    try {
      // from the cache, else from the network checked against this build's integrity, and then kept
      return await site.strategy.handle({
        event, request: new Request(url, { credentials: "same-origin" }),
        params: { cacheKey: site.getCacheKeyForURL(url), integrity: ENTRIES.get(url).integrity } });
    } catch (e) {
      // Not kept, and the network's file is not this build's (or there is no network). A newer build on the host
      // is a newer version of this worker: a page is not served mixed with it, it is loaded again once the new
      // version is active.
      const newer = await self.registration.update().then(() => self.registration.installing
        || self.registration.waiting, () => null);
      if (newer && newer !== self.registration.active) {
        // a page: loaded again with the new version; a file for a page of this version: none (the page, told that
        // a new version is ready, offers to reload)
        return request.mode === "navigate" ? updating() : Response.error();
      }
      return fetch(request);    // a host that changes the bytes it sends (and no newer build): as it comes
    }
  }

  function updating() {
    const html = `<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>A new version of the site</title>
<body style="font: 1.1rem/1.5 system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem">
<p role="status">A new version of the site is ready. It is being saved in this browser, and this page opens with
it in a moment.</p>
<script>
(async () => {
  const sw = navigator.serviceWorker, reg = await sw.getRegistration();
  sw.addEventListener("controllerchange", () => location.reload());
  const go = (w) => w.postMessage({ type: "SKIP_WAITING" });
  // and every second, a new version that has installed is told to take over: the page may have missed the moment
  // (a worker seen installing whose "installed" had already passed stays waiting for ever; seen on a loaded machine)
  setInterval(() => sw.getRegistration().then((r) => { if (r && r.waiting) go(r.waiting); }), 1000);
  if (reg && reg.waiting) go(reg.waiting);
  else if (reg && reg.installing) reg.installing.addEventListener("statechange", (e) => {
    if (e.target.state === "installed") go(e.target);
    else if (e.target.state === "redundant") location.reload();
  });
  else location.reload();
})();
</script>`;
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
  }

  /* What this version keeps: its entries whose address and revision are in the cache. */
  async function status() {
    const cache = await caches.open(CACHE);
    const have = new Set((await cache.keys()).map((r) => r.url));
    let keptBytes = 0, kept = 0;
    const pages = [];
    for (const [url, e] of ENTRIES) {
      if (!have.has(site.getCacheKeyForURL(url))) continue;
      kept += 1;
      keptBytes += e.size;
      if (url.endsWith(".html")) pages.push(url);
    }
    const whole = !!(await (await caches.open(SETTINGS)).match(WHOLE));
    return { kept, total: ENTRIES.size, keptBytes, totalBytes: TOTAL_BYTES, pages, whole,
             complete: kept === ENTRIES.size };
  }

  async function tell(message) {
    for (const client of await self.clients.matchAll({ includeUncontrolled: true })) {
      client.postMessage({ type: "cardkit-offline", ...message });
    }
  }

  /* The addresses the previous version kept (its revisions; or the caches of the site's earlier worker), and the
     whole site if the visitor asked for it: what a new version fetches as it installs. */
  async function previouslyKept() {
    const settings = await caches.open(SETTINGS);
    // The earlier worker saved the whole site for every visitor, and said so ("Available offline"): kept whole.
    if (!savingData() && await replacesHandWritten()) await settings.put(WHOLE, new Response("saved by the earlier worker"));
    if (!savingData() && await settings.match(WHOLE)) return [...ENTRIES.keys()];
    const urls = new Set();
    for (const r of await (await caches.open(CACHE)).keys()) {
      const u = new URL(r.url);
      u.searchParams.delete("__WB_REVISION__");
      urls.add(u.href);
    }
    for (const name of await caches.keys()) {
      if (name.startsWith(OLD_PREFIX)) for (const r of await (await caches.open(name)).keys()) urls.add(r.url);
    }
    return [...urls].filter((u) => ENTRIES.has(u));
  }

  const entriesOf = (urls) => urls.map((u) => ENTRIES.get(u));

  /* The visitor's connection says it saves data (a phone's Data Saver), as far as this worker can see it. */
  const savingData = () => !!(self.navigator && self.navigator.connection && self.navigator.connection.saveData);

  // JupyterLite's worker calls skipWaiting() as it installs: a new version would take over pages of the old
  // one at once. The site's new version waits for the visitor's Reload (SKIP_WAITING) or for the old pages to
  // close; JupyterLite's call is kept from doing anything.
  const skipWaiting = self.skipWaiting.bind(self);
  self.skipWaiting = () => Promise.resolve();

  // The site's earlier, hand-written worker (before Workbox; its caches are named OLD_PREFIX...) serves its pages
  // with no word of a new version, and a page it never kept from the network, with its own files: mixed. Once this
  // version is saved, it takes over at once rather than when every tab of the site has closed, and loads again
  // the pages of the old one that are open (a game under way comes back: the table keeps it in the browser).
  const replacesHandWritten = () => caches.keys().then((names) => names.some((n) => n.startsWith(OLD_PREFIX)));

  self.addEventListener("install", (event) => {
    event.waitUntil(previouslyKept().then((urls) => controller(entriesOf(urls)).install(event))
      .then(replacesHandWritten).then((old) => old && skipWaiting()));
  });

  self.addEventListener("activate", (event) => {
    site.activate(event);           // Workbox: every entry that is not of this version's manifest goes
    event.waitUntil(caches.keys().then(async (names) => {
      const old = names.filter((n) => n.startsWith(OLD_PREFIX));
      await Promise.all(old.map((n) => caches.delete(n)));
      if (!old.length) return;
      for (const client of await self.clients.matchAll({ type: "window" })) {
        client.navigate(client.url).catch(() => {});
      }
    }));
  });

  /* Keep these addresses of the site (those of this version's manifest), four at a time, each fetched and checked
     as the fetch handler does (Workbox's strategy: the integrity, then the cache), telling the pages how far
     it got. */
  async function keep(urls, event, progress) {
    const have = new Set((await (await caches.open(CACHE)).keys()).map((r) => r.url));
    const todo = [...new Set(urls.map(siteURL).filter(Boolean))].filter((u) => !have.has(site.getCacheKeyForURL(u)));
    let doneBytes = (await status()).keptBytes;
    const worker = async () => {
      while (todo.length) {
        const url = todo.shift();
        const [response, done] = site.strategy.handleAll({
          event, request: new Request(url, { credentials: "same-origin" }),
          params: { cacheKey: site.getCacheKeyForURL(url), integrity: ENTRIES.get(url).integrity } });
        await Promise.all([response, done]);
        doneBytes += ENTRIES.get(url).size;
        if (progress) await tell({ saving: true, doneBytes, totalBytes: TOTAL_BYTES });
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  }

  let whole = null;
  async function keepWhole(event) {
    if (savingData()) {                 // not the whole site on a connection that saves data, whoever asks
      await tell({ ...(await status()), saveData: true });
      return;
    }
    await (await caches.open(SETTINGS)).put(WHOLE, new Response("the visitor asked for the whole site"));
    try {
      await keep([...ENTRIES.keys()], event, true);
    } catch (e) {
      await tell({ ...(await status()), failed: String(e.message || e) });
      return;
    }
    await tell(await status());
  }

  self.addEventListener("message", (event) => {
    const type = event.data && event.data.type;
    if (type === "SKIP_WAITING") {
      event.waitUntil(skipWaiting());
    } else if (type === "cardkit-precache") {
      if (!whole) whole = keepWhole(event).finally(() => { whole = null; });
      event.waitUntil(whole);
    } else if (type === "cardkit-keep") {
      const urls = (event.data.urls || []).concat(START.map((rel) => BASE + rel));
      event.waitUntil(keep(urls, event, false).catch(() => {}).then(status).then(tell));
    } else if (type === "cardkit-status") {
      event.waitUntil(status().then(tell));
    }
  });
})();

importScripts(/*JUPYTERLITE*/"jupyterlite-service-worker.js");
