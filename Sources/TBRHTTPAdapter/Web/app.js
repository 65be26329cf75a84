"use strict";
// tbrd's web page: a small client of the HTTPS API (docs/http-api.md). The token stays in this tab's
// sessionStorage and goes in the Authorization header; no cookie, nothing in a URL.
const $ = (id) => document.getElementById(id);
let token = sessionStorage.getItem("tbrd-token") || "";
let epskc = null; // {router, until, timer}
let lastEventId = null;
let streamAbort = null;
let meshURL = null;

// A request with the token; a problem's detail becomes the error.
async function request(method, path, body) {
  const headers = { Authorization: "Bearer " + token };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch("/api/v1/" + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!r.ok) {
    const data = await r.json().catch(() => ({}));
    throw new Error(data.detail || ("HTTP " + r.status));
  }
  return r;
}

// A request's JSON answer (null for 204).
async function api(method, path, body) {
  const r = await request(method, path, body);
  return r.status === 204 ? null : r.json();
}

function text(tag, content, attrs) {
  const e = document.createElement(tag);
  if (content !== undefined && content !== null) e.textContent = String(content);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

async function signIn(candidate) {
  token = candidate;
  try {
    await api("GET", "routers");
  } catch (e) {
    token = "";
    $("signin-error").textContent = "Not signed in: " + e.message;
    return;
  }
  sessionStorage.setItem("tbrd-token", token);
  $("signin").hidden = true;
  for (const id of ["routers", "health", "structures", "commission", "events"]) $(id).hidden = false;
  $("signout").hidden = false;
  $("who").textContent = "Signed in";
  await Promise.all([showRouters(), showStructures(), showHealth()]);
  followEvents();
  $("router-rows").querySelector("button")?.focus();
}

function signOut() {
  sessionStorage.removeItem("tbrd-token");
  token = "";
  if (streamAbort) streamAbort.abort();
  location.reload();
}

async function showRouters() {
  const rows = $("router-rows");
  const routers = await api("GET", "routers");
  rows.replaceChildren();
  for (const r of routers) {
    const tr = document.createElement("tr");
    tr.append(text("th", r.id, { scope: "row" }));
    tr.append(text("td", r.online ? (r.role || "online") : "offline"));
    tr.append(text("td", r.networkName || "-"));
    const td = document.createElement("td");
    if (r.epskcSupported && r.online) {
      const b = text("button", "Share credentials", { type: "button", "data-router": r.id });
      b.addEventListener("click", () => startKey(r.id));
      td.append(b);
    } else {
      td.textContent = "-";
    }
    tr.append(td);
    const look = document.createElement("td");
    if (r.online) {
      const m = text("button", "Mesh", { type: "button", "data-mesh": r.id });
      m.addEventListener("click", () => showMesh(r.id));
      const d = text("button", "Doctor", { type: "button", "data-doctor": r.id });
      d.addEventListener("click", () => runDoctor(r.id));
      look.append(m, " ", d);
    } else {
      look.textContent = "-";
    }
    tr.append(look);
    rows.append(tr);
  }
}

async function showMesh(router) {
  $("mesh").hidden = false;
  $("mesh").scrollIntoView({ block: "nearest" });
  $("mesh-router").textContent = router;
  $("mesh-summary").textContent = "Reading the mesh…";
  const picture = $("mesh-picture");
  try {
    const path = "routers/" + encodeURIComponent(router);
    const mesh = await api("GET", path + "/mesh");
    const routers = mesh.nodes.filter((n) => n.role !== "child").length;
    const summary = "Thread mesh of " + router + ": " + routers + " router" + (routers === 1 ? "" : "s") + " and " +
      (mesh.nodes.length - routers) + " child" + (mesh.nodes.length - routers === 1 ? "" : "ren");
    const svg = await (await request("GET", path + "/mesh.svg")).blob();
    if (meshURL) URL.revokeObjectURL(meshURL);
    meshURL = URL.createObjectURL(svg);
    delete picture.dataset.loaded;
    picture.onload = () => {
      picture.dataset.loaded = "true";
      $("mesh-summary").textContent = summary;
      $("mesh").scrollIntoView({ block: "nearest" });
    };
    picture.onerror = () => { $("mesh-summary").textContent = "The mesh picture does not load."; };
    picture.alt = summary;
    picture.src = meshURL;
  } catch (e) {
    $("mesh-summary").textContent = "The mesh cannot be shown: " + e.message;
  }
}

async function runDoctor(router) {
  $("doctor").hidden = false;
  $("doctor").scrollIntoView({ block: "nearest" });
  $("doctor-router").textContent = router;
  const list = $("doctor-checks");
  list.replaceChildren(text("li", "Checking…"));
  try {
    const report = await api("GET", "routers/" + encodeURIComponent(router) + "/doctor");
    list.replaceChildren(...report.checks.map((c) => {
      const li = text("li", null, { "data-check": c.id, class: "check-" + c.status });
      li.append(text("strong", c.status === "pass" ? "ok" : c.status), " " + c.id + ": " + c.message);
      if (c.fix) li.append(text("div", "Fix: " + c.fix, { class: "fix" }));
      return li;
    }));
    $("doctor").scrollIntoView({ block: "start" });
  } catch (e) {
    list.replaceChildren(text("li", "The doctor could not run: " + e.message));
  }
}

async function startKey(router) {
  $("epskc").hidden = false;
  $("epskc-router").textContent = router;
  $("epskc-end").textContent = "";
  try {
    const a = await api("POST", "routers/" + encodeURIComponent(router) + "/epskc", { durationSeconds: 120 });
    if (a.status !== "success") { $("epskc-end").textContent = "Not started: " + a.status; return; }
    $("epskc-key").textContent = a.epskc.replace(/(\d{3})(?=\d)/g, "$1 ");
    if (epskc) clearInterval(epskc.timer);
    epskc = { router, until: Date.now() + a.validDurationSeconds * 1000 };
    tick();
    epskc.timer = setInterval(tick, 250);
    $("epskc-stop").hidden = false;
    $("epskc-stop").focus();
  } catch (e) {
    $("epskc-end").textContent = "Not started: " + e.message;
  }
}

function tick() {
  if (!epskc) return;
  const left = Math.max(0, Math.ceil((epskc.until - Date.now()) / 1000));
  $("epskc-countdown").textContent = left + " s left";
}

function keyEnded(router, reason) {
  if (!epskc || epskc.router !== router) return;
  clearInterval(epskc.timer);
  epskc = null;
  $("epskc-key").textContent = "";
  $("epskc-countdown").textContent = "";
  $("epskc-end").textContent = "Ended: " + reason;
  $("epskc-stop").hidden = true;
}

async function stopKey() {
  if (!epskc) return;
  try { await api("DELETE", "routers/" + encodeURIComponent(epskc.router) + "/epskc"); } catch (e) { $("epskc-end").textContent = e.message; }
}

// The internet-access options: the API's word and what a person reads.
const options = [
  ["unspecified", "Not set"], ["none", "No internet access"], ["all", "Full internet access"],
  ["nat64Only", "NAT64 only"], ["dhcpv6PdOnly", "DHCPv6-PD only"],
];
const optionLabel = (word) => (options.find((o) => o[0] === word) || [word, word])[1];
const policyViews = new Map(); // structure name → render(rows)

async function showStructures() {
  const list = $("structure-list");
  const structures = await api("GET", "structures");
  list.replaceChildren();
  if (structures.length === 0) list.append(text("p", "No structures (tbrctl structure create NAME)."));
  for (const s of structures) list.append(structurePanel(s));
  $("commission-structure").replaceChildren(...structures.map((s) => text("option", s.name, { value: s.name })));
}

function structurePanel(s) {
  const panel = text("div", null, { class: "panel", "data-structure": s.name });
  panel.append(text("h3", s.name));
  const form = document.createElement("form");
  const id = "policy-" + s.name.replace(/[^A-Za-z0-9]/g, "_");
  form.append(text("label", "Internet access", { for: id }));
  const select = text("select", null, { id });
  for (const [word, label] of options) {
    const opt = text("option", label, { value: word });
    if (word === s.settings.internetAccessOption) opt.selected = true;
    select.append(opt);
  }
  form.append(select, text("button", "Apply", { type: "submit" }));
  const status = text("p", null, { role: "status" });
  const table = text("ul");
  const render = (rows) => table.replaceChildren(...rows.map((r) =>
    text("li", r.id + ": " + r.state + (r.detail ? " (" + r.detail + ")" : ""), { "data-router": r.id, "data-state": r.state })));
  render(s.policy);
  // Policy events render the rows as they come; the PUT's answer only when no event came while it was
  // in flight (an event may overtake the answer, and the answer's "pending" must not cover an "applied").
  let events = 0;
  policyViews.set(s.name, (rows) => { events += 1; render(rows); });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    status.textContent = "Applying…";
    const before = events;
    try {
      const p = await api("PUT", "structures/" + encodeURIComponent(s.name) + "/policy", { internetAccessOption: select.value });
      if (events === before) render(p.routers);
      status.textContent = "Internet access: " + optionLabel(p.internetAccessOption);
    } catch (e) {
      status.textContent = "Not changed: " + e.message;
    }
  });
  panel.append(form, status, table);
  return panel;
}

function logEvent(name, data) {
  const list = $("event-list");
  let line = name;
  if (name === "epskc") line = data.router + " " + (data.event === "epskcModeActivated" ? "key started" : "key ended: " + data.reason);
  else if (name === "router") line = data.router + (data.online ? " online" : " offline");
  else if (name === "policy") line = data.structure + " internet access: " + optionLabel(data.internetAccessOption);
  else if (name === "problem") line = (data.event === "opened" ? "problem " : "solved ") + data.problem.subject + " " + data.problem.check;
  else if (name === "commissioning") line = data.structure + " commissioning: " + data.stage;
  list.prepend(text("li", line));
  while (list.children.length > 20) list.lastChild.remove();
}

async function followEvents() {
  for (;;) {
    streamAbort = new AbortController();
    try {
      const headers = { Authorization: "Bearer " + token };
      if (lastEventId) headers["Last-Event-ID"] = lastEventId;
      const r = await fetch("/api/v1/events", { headers, signal: streamAbort.signal });
      if (!r.ok) throw new Error("HTTP " + r.status);
      const reader = r.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let name = "message", data = "", id = null;
          for (const line of block.split("\n")) {
            if (line.startsWith("event: ")) name = line.slice(7);
            else if (line.startsWith("data: ")) data += line.slice(6);
            else if (line.startsWith("id: ")) id = line.slice(4);
          }
          if (block.startsWith(": open")) document.body.dataset.live = "true";
          if (!data) continue;
          if (id) lastEventId = id;
          const parsed = JSON.parse(data);
          logEvent(name, parsed);
          if (name === "epskc" && parsed.event === "epskcModeDeactivated") keyEnded(parsed.router, parsed.reason);
          if (name === "router") showRouters().catch(() => {});
          if (name === "policy") policyViews.get(parsed.structure)?.(parsed.routers);
          if (name === "problem" || name === "router") showHealth().catch(() => {});
          if (name === "commissioning") {
            recentStages.push(parsed);
            if (recentStages.length > 100) recentStages.shift();
            commissioningStage(parsed);
          }
        }
      }
    } catch (e) {
      if (streamAbort.signal.aborted) return;
    }
    delete document.body.dataset.live;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("signin-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    signIn($("token").value.trim());
  });
  $("signout").addEventListener("click", signOut);
  $("epskc-stop").addEventListener("click", stopKey);
  $("commission-form").addEventListener("submit", startCommissioning);
  $("commission-cancel").addEventListener("click", cancelCommissioning);
  if (token) signIn(token); else $("token").focus();
});
