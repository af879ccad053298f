// What both pages share: asking the server, building elements, telling screen readers, copying.
"use strict";

export const $ = (id) => document.getElementById(id);

// The server's answer to `path` with the query `params`, or an Error with its one-line message.
// `signal` aborts the request, and the server then stops its search.
export async function api(method, path, params = {}, signal = undefined) {
  const response = await fetch(`${path}?${new URLSearchParams(params)}`, { method, signal });
  let body;
  try {
    body = await response.json();
  } catch (_) {
    body = { error: `${response.status} ${response.statusText}` };
  }
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

// An element: `h("button", { class: "x", onclick: f }, "text", child)`. Attributes that start
// with "on" become listeners; `false` and `null` attributes are left out.
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  element.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return element;
}

// The same for SVG.
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  setAttributes(element, attributes);
  element.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return element;
}

function setAttributes(element, attributes) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
}

export const mark = (player) => (player === "P1" ? "X" : "O");
export const other = (player) => (player === "P1" ? "P2" : "P1");

// Tells screen readers what just happened (the live region is read out politely).
export function announce(text) {
  const region = $("announce");
  // A repeated message must still change the region to be read again.
  region.textContent = region.textContent === text ? `${text}.` : text;
}

// Copies `text`, saying so in `#copied`; where the clipboard is not available (a page not
// served from this machine or over https), selects the text in `fallback` for the user to copy.
export async function copyText(text, what, fallback) {
  const note = $("copied");
  try {
    await navigator.clipboard.writeText(text);
    note.textContent = `Copied the ${what}.`;
  } catch (_) {
    if (fallback) {
      fallback.value = text;
      fallback.select();
    }
    note.textContent = `Press Ctrl+C to copy the ${what} (the browser keeps the clipboard closed here).`;
  }
}

// Whether a key press should be left alone: typed into a field, or with a modifier.
export function typing(event) {
  const tag = event.target.tagName;
  return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.ctrlKey || event.metaKey || event.altKey;
}

// The value of a solved record for `side`: its kind (win / draw / loss / unknown), a short
// word, the plies and a sentence, from `{outcome, remoteness}` with `outcome` P1, P2 or Draw.
export function valueFor(record, side, unit = "plies") {
  if (!record || !record.outcome) return { kind: "unknown", word: "?", n: null, text: "not known yet" };
  const n = record.remoteness ?? null;
  const kind = record.outcome === "Draw" ? "draw" : record.outcome === side ? "win" : "loss";
  const within = n == null ? "" : kind === "draw" ? ` (game over in ${n} ${unit})` : ` in ${n} ${unit}`;
  return { kind, word: kind, n, text: `${kind}${within}` };
}

// Whether `error` is the abort of a request no longer wanted.
export const aborted = (error) => error && error.name === "AbortError";

// A query string for an address people read and share: `,` and `:` are left as they are.
export function readableQuery(params) {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ",").replace(/%3A/g, ":")}`)
    .join("&");
}
