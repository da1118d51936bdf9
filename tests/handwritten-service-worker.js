/* The static site's service worker (written by `cardkit build-static`): every file of the site is kept in
   the browser so that every page works without a network.

   - A request for a file of the site is answered from the cache, else from the network (and then kept).
   - "cardkit-precache" (from a page: after Python is ready, or the "Make available offline" button) fetches
     every file not yet kept, checks each against the hash the build recorded, and reports its progress.
   - A new build is a new version (the list below changes, so this file changes): its files go into a new
     cache, and the old version's cache is deleted once the new one is active.
   - Everything else (JupyterLite's own requests: its heartbeat, its in-browser drive) is JupyterLite's own
     service worker's, loaded below: the site's answer stops the event before that worker sees it.

   JupyterLite registers this file itself (it registers service-worker.js at the site's root), so there is
   one service worker for the whole site. */
// Everything of the site's own is inside this function: JupyterLite's worker, loaded at the end into the same
// global scope, declares names of its own (CACHE among them) at its top level.
(() => {
  "use strict";
  const VERSION = /*VERSION*/"dev";
  const FILES = /*FILES*/{};      // path from the site's root -> [the first 16 hex digits of its sha256, its size]
  const BASE = new URL("./", self.location).href;
  const PREFIX = "cardkit:" + BASE + ":";      // caches of this site (one origin may host several)
  const CACHE = PREFIX + VERSION;
  const PARALLEL = 4;

  function siteFile(url) {
    if (!url.startsWith(BASE)) return null;
    let rel = url.slice(BASE.length).split("#")[0].split("?")[0];
    if (rel === "") rel = "index.html";
    return Object.prototype.hasOwnProperty.call(FILES, rel) ? rel : null;
  }

  self.addEventListener("fetch", (event) => {
    const request = event.request;
    if (request.method !== "GET") return;
    const rel = siteFile(request.url);
    if (rel === null) return;
    event.stopImmediatePropagation();
    event.respondWith(answer(rel, request));
  });

  async function answer(rel, request) {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(BASE + rel);
    if (kept) return kept;
    const response = await fetch(request);
    if (response.status === 200 && response.type === "basic") {
      cache.put(BASE + rel, response.clone()).catch(() => {});
    }
    return response;
  }

  async function digest(buffer) {
    const hash = await crypto.subtle.digest("SHA-256", buffer);
    return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, "0")).join("").slice(0, 16);
  }

  let running = null;

  const TOTAL_BYTES = Object.values(FILES).reduce((sum, [, size]) => sum + size, 0);

  async function status() {
    const cache = await caches.open(CACHE);
    const kept = new Set((await cache.keys()).map((r) => r.url));
    const todo = Object.keys(FILES).filter((rel) => !kept.has(BASE + rel));
    const todoBytes = todo.reduce((sum, rel) => sum + FILES[rel][1], 0);
    return { todo, total: Object.keys(FILES).length, doneBytes: TOTAL_BYTES - todoBytes };
  }

  async function tell(message) {
    for (const client of await self.clients.matchAll({ includeUncontrolled: true })) {
      client.postMessage({ type: "cardkit-offline", ...message });
    }
  }

  async function precache() {
    const cache = await caches.open(CACHE);
    const { todo, total, doneBytes: already } = await status();
    let done = total - todo.length, doneBytes = already, failed = null;
    const totalBytes = TOTAL_BYTES;
    const queue = todo.slice();
    const worker = async () => {
      while (queue.length && !failed) {
        const rel = queue.shift();
        try {
          const response = await fetch(BASE + rel, { cache: "no-cache" });
          if (response.status !== 200) throw new Error(`${rel}: ${response.status}`);
          const body = await response.clone().arrayBuffer();
          if ((await digest(body)) !== FILES[rel][0]) throw new Error(`${rel} has changed on the server`);
          await cache.put(BASE + rel, response);
          done += 1;
          doneBytes += body.byteLength;
          await tell({ done, total, doneBytes, totalBytes });
        } catch (e) {
          failed = String(e.message || e);
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    if (failed) await tell({ done, total, failed });
    else await tell({ done: total, total, complete: true, totalBytes });
  }

  self.addEventListener("message", (event) => {
    const type = event.data && event.data.type;
    if (type === "cardkit-precache") {
      if (!running) running = precache().finally(() => { running = null; });
      event.waitUntil(running);
    } else if (type === "cardkit-status") {
      event.waitUntil(status().then(({ todo, total }) => {
        if (!todo.length) return tell({ done: total, total, complete: true, totalBytes: TOTAL_BYTES });
      }));
    }
  });

  self.addEventListener("activate", (event) => {
    event.waitUntil(caches.keys().then((names) => Promise.all(
      names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)))));
  });
})();

importScripts("jupyterlite-service-worker.js");
