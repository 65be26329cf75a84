"use strict";
// tbrd's web page: adding a Matter device to a structure, each stage shown as its event arrives, and a
// button that cancels the commissioning while it runs (app.js signs in, follows the events and hands
// each commissioning event to commissioningStage).
let commissioning = null; // {session, structure, left: codes not yet complete or failed}
const recentStages = []; // the last commissioning events: a session's first stages may come before its answer

async function startCommissioning(ev) {
  ev.preventDefault();
  const stages = $("commission-stages");
  const structure = $("commission-structure").value;
  const body = { codes: [$("commission-code").value.trim()] };
  if ($("commission-name").value.trim()) body.name = $("commission-name").value.trim();
  if ($("commission-room").value.trim()) body.room = $("commission-room").value.trim();
  stages.replaceChildren(text("li", "Starting…"));
  stages.scrollIntoView({ block: "nearest" });
  try {
    const started = await api("POST", "structures/" + encodeURIComponent(structure) + "/commissioning", body);
    commissioning = { session: started.session, structure, codes: started.payloads.length, left: started.payloads.length };
    $("commission-code").value = "";
    $("commission-cancel").hidden = false;
    stages.replaceChildren();
    for (const data of recentStages) commissioningStage(data);
  } catch (e) {
    stages.replaceChildren(text("li", "Not started: " + e.message, { class: "error" }));
  }
}

function commissioningStage(data) {
  if (!commissioning || data.session !== commissioning.session) return;
  const seen = data.payloadId + "-" + data.stage;
  if ([...$("commission-stages").children].some((li) => li.dataset.seen === seen)) return;
  let line = (commissioning.codes > 1 ? "code " + data.payloadId + ": " : "") + data.stage;
  if (data.stage === "nodeAdded" && data.nodeId) line += " (node " + data.nodeId + ")";
  if (data.stage === "complete") line += [data.name && "named " + data.name, data.room && "in " + data.room].filter(Boolean).map((p) => ", " + p).join("");
  if (data.stage === "failed") line += " at " + (data.failedStage || "?") + ": " + (data.error || "no reason given");
  $("commission-stages").append(text("li", line, { "data-stage": data.stage, "data-seen": seen }));
  if ((data.stage === "complete" || data.stage === "failed") && --commissioning.left <= 0) $("commission-cancel").hidden = true;
}

async function cancelCommissioning() {
  if (!commissioning) return;
  try {
    await api("DELETE", "structures/" + encodeURIComponent(commissioning.structure) + "/commissioning/" + encodeURIComponent(commissioning.session));
    $("commission-cancel").hidden = true;
  } catch (e) {
    $("commission-stages").append(text("li", "Not cancelled: " + e.message, { class: "error" }));
  }
}
