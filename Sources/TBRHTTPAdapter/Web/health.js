"use strict";
// tbrd's web page: the Health panel. The open problems as a list, and the last 24 hours of each router as
// an SVG timeline drawn here, without a framework: its role as a coloured band, the routers and children it
// sees as a step line, and each problem as a red bar while it was open (app.js signs in and calls
// showHealth on every problem and router event).
const svgNS = "http://www.w3.org/2000/svg";
const roleColours = { leader: "#1d6fb8", router: "#4a9be0", child: "#9cc8ef", detached: "#e0a030", disabled: "#b0b0b0", offline: "#707070" };
const day = 86400;

function svg(tag, attrs, title) {
  const e = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (title) {
    const t = document.createElementNS(svgNS, "title");
    t.textContent = title;
    e.append(t);
  }
  return e;
}

async function showHealth() {
  const [open, history, routers] = await Promise.all([api("GET", "health"), api("GET", "health/history?seconds=" + day), api("GET", "routers")]);
  $("health-summary").textContent = open.length === 0 ? "No open problem." : open.length + " open problem" + (open.length === 1 ? "" : "s") + ".";
  $("health-problems").replaceChildren(...open.map((p) => {
    const li = text("li", null, { "data-problem": p.subject + " " + p.check, class: "check-fail" });
    li.append(text("strong", p.subject + " " + p.check), " since " + new Date(p.openedAt).toLocaleString() + ": " + p.message);
    if (p.fix) li.append(text("div", "Fix: " + p.fix, { class: "fix" }));
    return li;
  }));
  drawTimeline(history, routers, Date.now() / 1000);
}

// Each router's states over [now - 24 h, now]: the samples carry only what changed, so each field holds
// until the next sample that names it.
function lanes(history, routerList, now) {
  const routers = new Map();
  const lane = (id) => {
    if (!routers.has(id)) routers.set(id, { roles: [], counts: [], problems: [] });
    return routers.get(id);
  };
  for (const s of history.samples) {
    if (s.subject.startsWith("node ")) continue;
    const l = lane(s.subject);
    const at = Date.parse(s.at) / 1000;
    if (s.state !== undefined) l.roles.push({ at, state: s.state });
    if (s.routers !== undefined || s.children !== undefined) {
      const last = l.counts[l.counts.length - 1] || { routers: 0, children: 0 };
      l.counts.push({ at, routers: s.routers ?? last.routers, children: s.children ?? last.children });
    }
  }
  for (const p of history.problems) {
    if (p.subject === "host") continue;
    const end = p.closedAt ? Date.parse(p.closedAt) / 1000 : now;
    lane(p.subject).problems.push({ from: Date.parse(p.openedAt) / 1000, to: end, check: p.check, open: !p.closedAt });
  }
  // A router that changed nothing in 24 hours has no sample: its role now held all along.
  for (const r of routerList) {
    const l = lane(r.id);
    if (l.roles.length === 0) l.roles.push({ at: now - day, state: r.online ? (r.role || "online") : "offline" });
  }
  return [...routers.entries()].sort((a, b) => a[0].localeCompare(b[0]));
}

function drawTimeline(history, routerList, now) {
  const all = lanes(history, routerList, now);
  const width = 720, left = 90, laneHeight = 56, top = 8;
  const x = (t) => left + Math.max(0, Math.min(1, (t - (now - day)) / day)) * (width - left - 8);
  const height = top + all.length * laneHeight + 18;
  const picture = svg("svg", { viewBox: "0 0 " + width + " " + height, role: "img", width: "100%", class: "timeline" });
  const said = [];
  all.forEach(([id, l], i) => {
    const y = top + i * laneHeight;
    const g = svg("g", { "data-router": id });
    g.append(svg("text", { x: 0, y: y + 14, class: "lane-name" }));
    g.lastChild.textContent = id;
    // The role band.
    l.roles.forEach((r, k) => {
      const end = k + 1 < l.roles.length ? l.roles[k + 1].at : now;
      if (end < now - day) return;
      g.append(svg("rect", { x: x(r.at), y, width: Math.max(1, x(end) - x(r.at)), height: 16, fill: roleColours[r.state] || "#ccc", "data-role": r.state },
        r.state + " from " + new Date(r.at * 1000).toLocaleString()));
    });
    // The counts as a step line under it (the most seen on the whole timeline fills the lane).
    const most = Math.max(1, ...l.counts.map((c) => c.routers + c.children));
    let path = "";
    l.counts.forEach((c, k) => {
      const end = k + 1 < l.counts.length ? l.counts[k + 1].at : now;
      const level = y + 40 - ((c.routers + c.children) / most) * 18;
      path += (k === 0 ? "M" : "L") + x(c.at) + " " + level + " L" + x(end) + " " + level + " ";
    });
    if (path) g.append(svg("path", { d: path, fill: "none", stroke: "#333", "stroke-width": 1.5, class: "counts" }, "routers and children seen"));
    const lastCount = l.counts[l.counts.length - 1];
    // Problems as bars.
    for (const p of l.problems) {
      g.append(svg("rect", { x: x(p.from), y: y + 44, width: Math.max(2, x(p.to) - x(p.from)), height: 6, fill: "#c0392b", "data-check": p.check },
        p.check + (p.open ? " (open)" : "")));
    }
    picture.append(g);
    const role = l.roles.length ? l.roles[l.roles.length - 1].state : "unknown";
    said.push(id + ": " + role + (lastCount ? ", " + lastCount.routers + " routers and " + lastCount.children + " children seen" : "") +
      ", " + l.problems.length + " problem" + (l.problems.length === 1 ? "" : "s") + " in 24 hours");
  });
  const axis = svg("text", { x: left, y: height - 4, class: "axis" });
  axis.textContent = "24 hours ago";
  const nowLabel = svg("text", { x: width - 8, y: height - 4, class: "axis", "text-anchor": "end" });
  nowLabel.textContent = "now";
  picture.append(axis, nowLabel);
  picture.setAttribute("aria-label", all.length === 0 ? "No router history yet." : said.join("; "));
  $("timeline").replaceChildren(picture);
}
