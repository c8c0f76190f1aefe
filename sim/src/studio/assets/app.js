// Mafia Lab studio: the page. Plain JavaScript, no library. Everything it
// knows of roles, rules and strategies comes from /api/catalog (the
// library's tables and the JSON schema); every change of the setup is
// checked by the server with the command line's own setup reader, and its
// messages are shown beside the fields they are about.
"use strict";

const $ = (id) => document.getElementById(id);
let catalog = null;
let base = null;          // the preset the setup starts from
let checkTimer = null;
let lastGood = false;

async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, init);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: `${r.status} ${r.statusText}` }; }
  return { ok: r.ok, status: r.status, data };
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

const errId = (field) => "err-" + field.replace(/\./g, "-");
const pct = (x) => (100 * x).toFixed(2);

// ---------------------------------------------------------------- tabs
for (const b of document.querySelectorAll(".tab")) {
  b.addEventListener("click", () => {
    document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t === b));
    document.querySelectorAll(".panel").forEach((p) => p.classList.toggle("active", p.id === b.dataset.tab));
  });
}

// ---------------------------------------------------------------- the setup form
function buildForm() {
  const presetSel = $("preset");
  for (const p of catalog.presets) presetSel.append(el("option", { value: p.name, text: `${p.name} (${p.players} players)` }));
  const roles = $("roles");
  for (const camp of catalog.camps) {
    const box = el("div", { class: "camp" }, el("h3", { text: camp }));
    for (const r of catalog.roles.filter((r) => r.camp === camp)) {
      const input = el("input", { "data-role": r.name, id: "role-" + r.name, value: "0", inputmode: "numeric" });
      input.addEventListener("input", scheduleCheck);
      box.append(el("div", { class: "role" },
        el("label", { for: input.id, text: r.name }), input,
        el("span", { class: "clause", text: r.clause }),
        el("span", { class: "about", text: r.about }),
        el("span", { class: "err", id: errId("roles." + r.name) })));
    }
    roles.append(box);
  }
  const rules = $("rules");
  for (const k of catalog.rules) {
    let input;
    if (k.enum || k.type === "boolean") {
      input = el("select", { "data-rule": k.name, id: "rule-" + k.name });
      const opts = k.enum || ["true", "false"];
      for (const o of opts) input.append(el("option", { value: String(o), text: String(o) }));
      // A value the reader refuses can still be typed: the select has an "other" field beside it? Keep it simple: selects hold only legal words.
    } else {
      input = el("input", { "data-rule": k.name, id: "rule-" + k.name, size: "8" });
    }
    input.value = k.default;
    input.addEventListener(input.tagName === "SELECT" ? "change" : "input", scheduleCheck);
    rules.append(el("tr", {},
      el("td", { class: "name", text: k.name }),
      el("td", {}, input, el("div", { class: "err", id: errId("rules." + k.name) })),
      el("td", {}, el("span", { class: "clause", text: k.clause + " " }),
        el("span", { class: "about", text: `${k.about} — ${k.values}; default ${k.default_text}` }))));
  }
  const agents = $("agents");
  for (const key of ["default", ...catalog.camps]) {
    const input = el("input", { "data-agent": key, id: "agent-" + key, size: "34", placeholder: key === "default" ? "(the preset's default lineup)" : "" });
    input.addEventListener("input", scheduleCheck);
    agents.append(el("tr", {}, el("td", { class: "name", text: key }), el("td", {}, input, el("div", { class: "err", id: errId("agents." + key) }))));
  }
  $("strategies").textContent = "Strategies: " + catalog.strategies.map((s) => s.name).join(", ") + " (see `mafia strategies`).";
  $("setup-name").addEventListener("input", scheduleCheck);
}

function setForm(f) {
  base = f.base || null;
  $("setup-name").value = f.name || "";
  if (base) $("preset").value = base;
  for (const i of document.querySelectorAll("[data-role]")) i.value = "0";
  for (const [r, c] of f.roles || []) { const i = $("role-" + r); if (i) i.value = c; }
  for (const k of catalog.rules) $("rule-" + k.name).value = k.default;
  for (const [k, v] of f.rules || []) { const i = $("rule-" + k); if (i) i.value = v; }
  for (const i of document.querySelectorAll("[data-agent]")) i.value = "";
  for (const [k, v] of f.agents || []) { const i = $("agent-" + k); if (i) i.value = v; }
  check();
}

function form() {
  const basePreset = catalog.presets.find((p) => p.name === base);
  const inBase = new Set(basePreset ? basePreset.form.roles.map((r) => r[0]) : []);
  const roles = [];
  for (const i of document.querySelectorAll("[data-role]")) {
    const v = i.value.trim();
    if (v !== "0" || inBase.has(i.dataset.role)) roles.push([i.dataset.role, v]);
  }
  const rules = [];
  for (const k of catalog.rules) {
    const v = $("rule-" + k.name).value.trim();
    if (v !== String(k.default)) rules.push([k.name, v]);
  }
  const agents = [];
  for (const i of document.querySelectorAll("[data-agent]")) if (i.value.trim() !== "") agents.push([i.dataset.agent, i.value.trim()]);
  return { name: $("setup-name").value, base, roles, rules, agents, night_order: null };
}

function clearErrors() {
  for (const e of document.querySelectorAll(".err")) if (e.id.startsWith("err-") && !["err-run", "err-compare", "err-sweep", "err-night", "err-import"].includes(e.id)) e.textContent = "";
  for (const i of document.querySelectorAll(".bad")) i.classList.remove("bad");
}

function showProblems(problems) {
  for (const p of problems) {
    let target = $(errId(p.field));
    if (!target) target = $(errId(p.field.split(".")[0])) || $("err-setup");
    target.textContent = (target.textContent ? target.textContent + " · " : "") + p.message;
    const [table, key] = p.field.split(".");
    const input = $({ roles: "role-", rules: "rule-", agents: "agent-" }[table] + key) || (p.field === "name" ? $("setup-name") : null);
    if (input) input.classList.add("bad");
  }
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, 200);
}

async function check() {
  const r = await api("/api/setup/check", form());
  clearErrors();
  lastGood = r.ok;
  if (r.ok) {
    $("setup-status").textContent = `✓ ${form().name || "setup"}: ${r.data.players} players`;
    $("setup-text").dataset.toml = r.data.toml;
    $("export-link").href = "data:text/plain;charset=utf-8," + encodeURIComponent(r.data.toml);
    $("export-link").download = (form().name || "setup") + ".toml";
  } else {
    $("setup-status").textContent = "✗ the setup has problems (see the Setup tab)";
    showProblems(r.data.problems || [{ field: "setup", message: r.data.error }]);
  }
  return r.ok;
}

$("load-preset").addEventListener("click", () => {
  const p = catalog.presets.find((p) => p.name === $("preset").value);
  setForm(p.form);
});
$("export").addEventListener("click", async () => {
  if (await check()) $("setup-text").value = $("setup-text").dataset.toml;
});
$("import").addEventListener("click", async () => {
  $("err-import").textContent = "";
  const r = await api("/api/setup/import", { toml: $("setup-text").value });
  if (r.ok) setForm(r.data.form); else $("err-import").textContent = r.data.error;
});
$("import-file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (!f) return;
  $("setup-text").value = await f.text();
  $("import").click();
});
$("save").addEventListener("click", async () => {
  $("err-import").textContent = "";
  const r = await api("/api/save", { name: $("save-name").value, setup: form() });
  $("err-import").textContent = r.ok ? "wrote " + r.data.wrote.join(", ") : r.data.error;
});

// ---------------------------------------------------------------- tables
function dataTable(t, keep) {
  const cols = t.columns.map((c, i) => [c, i]).filter(([c]) => !keep || keep(c));
  const table = el("table", { class: "data", "data-table": t.name });
  table.append(el("tr", {}, ...cols.map(([c]) => el("th", { text: c }))));
  for (const row of t.rows) {
    table.append(el("tr", {}, ...cols.map(([, i]) => {
      let v = row[i];
      if (v !== null && /^-?\d+\.\d{5,}$/.test(v)) v = Number(v).toFixed(4);
      return el("td", { text: v === null ? "" : v });
    })));
  }
  return table;
}

function rateCards(camps, prefix) {
  const box = el("div", { class: "rates" });
  for (const c of camps) {
    const iv = el("div", { class: "iv" });
    iv.style.left = pct(c.lo) + "%"; iv.style.width = pct(c.hi - c.lo) + "%";
    const pt = el("div", { class: "pt" });
    pt.style.left = pct(c.rate) + "%";
    box.append(el("div", { class: "rate" },
      el("div", { text: c.camp }),
      el("div", { class: "big", id: `${prefix}rate-${c.camp}`, text: pct(c.rate) + "%" }),
      el("div", { class: "ci" }, "[", el("span", { id: `${prefix}lo-${c.camp}`, text: pct(c.lo) }), ", ",
        el("span", { id: `${prefix}hi-${c.camp}`, text: pct(c.hi) }), "] 95%"),
      el("div", { class: "bar" }, iv, pt)));
  }
  return box;
}

// ---------------------------------------------------------------- a run
let source = null;

function runRequest() {
  const req = { setup: form(), games: Number($("games").value), seed: Number($("seed").value) };
  const p = $("precision").value.trim();
  if (p !== "") req.precision = Number(p);
  return req;
}

$("run").addEventListener("click", async () => {
  $("err-run").textContent = ""; $("results").textContent = ""; $("downloads").textContent = ""; $("run-message").textContent = "";
  $("progress").textContent = "starting…";
  const r = await api("/api/run", runRequest());
  if (!r.ok) {
    $("progress").textContent = "";
    $("err-run").textContent = r.data.error;
    if (r.data.problems) { clearErrors(); showProblems(r.data.problems); }
    return;
  }
  $("run").disabled = true; $("cancel").disabled = false;
  const id = r.data.id;
  if (source) source.close();
  source = new EventSource("/api/run/events");
  source.addEventListener("progress", (e) => {
    const p = JSON.parse(e.data);
    if (p.id !== id || p.camps === undefined) return;
    $("progress").textContent = `${p.games.toLocaleString("en")} games · ${Math.round(p.per_sec).toLocaleString("en")} games/s · ${p.seconds.toFixed(1)} s`;
    $("live-rates").replaceChildren(rateCards(p.camps[0], ""));
  });
  source.addEventListener("done", async (e) => {
    const p = JSON.parse(e.data);
    if (p.id !== undefined && p.id !== id) return;
    source.close(); source = null;
    $("run").disabled = false; $("cancel").disabled = true;
    const res = await api("/api/run/result");
    if (res.ok) showResult(res.data);
  });
});

$("cancel").addEventListener("click", async () => {
  const r = await api("/api/run/cancel", {});
  if (!r.ok) $("err-run").textContent = r.data.error;
});

function showResult(res) {
  $("run-message").textContent = res.status === "complete" ? `done in ${res.seconds.toFixed(1)} s` : `${res.status}: ${res.message}`;
  $("run-message").dataset.status = res.status;
  const out = $("results");
  out.replaceChildren();
  for (const t of res.tables) {
    out.append(el("h2", { text: t.name }));
    out.append(el("div", { class: "scroll" }, dataTable(t)));
    const links = $("downloads");
    for (const f of ["csv", "parquet"]) links.append(el("a", { href: `/api/run/download?table=${t.name}&format=${f}`, text: `${t.name}.${f}` }));
  }
  // The final rates with their intervals, from the summary table.
  const s = res.tables.find((t) => t.name === "summary");
  if (s && s.rows.length) {
    const col = (n) => s.columns.indexOf(n);
    // The camps dealt: those the roles table names.
    const roles = res.tables.find((t) => t.name === "roles");
    const dealt = new Set(roles ? roles.rows.map((r) => r[roles.columns.indexOf("camp")]) : catalog.camps);
    const camps = catalog.camps.filter((c) => dealt.has(c) && col(c + "_rate") >= 0 && s.rows[0][col(c + "_rate")] !== null)
      .map((c) => ({ camp: c, rate: +s.rows[0][col(c + "_rate")], lo: +s.rows[0][col(c + "_lo")], hi: +s.rows[0][col(c + "_hi")] }));
    $("live-rates").replaceChildren(rateCards(camps, ""));
    const games = +s.rows[0][col("games")];
    $("progress").textContent = `${games.toLocaleString("en")} games`;
  }
}

// ---------------------------------------------------------------- compare and sweep
$("compare-run").addEventListener("click", async () => {
  $("err-compare").textContent = ""; $("cmp-sentence").textContent = "running…"; $("cmp-table").textContent = "";
  const split = (s) => s.trim().split(/\s+/).filter((x) => x);
  const req = { setup: form(), a: split($("cmp-a").value), b: split($("cmp-b").value), games: Number($("cmp-games").value) };
  const p = $("cmp-precision").value.trim();
  if (p !== "") req.precision = Number(p);
  const r = await api("/api/compare", req);
  $("cmp-sentence").textContent = "";
  if (!r.ok) { $("err-compare").textContent = r.data.error; return; }
  for (const s of r.data.sentences) $("cmp-sentence").append(el("p", { text: s }));
  $("cmp-table").append(el("div", { class: "scroll" }, dataTable(r.data.table)));
});

$("sweep-run").addEventListener("click", async () => {
  $("err-sweep").textContent = ""; $("heatmap").textContent = "running…";
  const r = await api("/api/sweep", { setup: form(), x: $("sweep-x").value, y: $("sweep-y").value, camp: $("sweep-camp").value, games: Number($("sweep-games").value) });
  if (!r.ok) { $("heatmap").textContent = ""; $("err-sweep").textContent = r.data.error; return; }
  $("heatmap").innerHTML = r.data.svg;  // plot.rs's SVG, made by this server
});

// ---------------------------------------------------------------- the night calculator
let nextNight = null;
$("resolve").addEventListener("click", async () => {
  $("err-night").textContent = "";
  const r = await api("/api/resolve", { toml: $("night-text").value });
  if (!r.ok) { $("err-night").textContent = r.data.error; $("night-out").textContent = ""; $("night-next").disabled = true; return; }
  $("night-out").textContent = r.data.text;
  nextNight = r.data.next;
  $("night-next").disabled = false;
});
$("night-next").addEventListener("click", () => {
  if (nextNight) { loadNight(nextNight); $("night-out").textContent = ""; $("night-next").disabled = true; }
});
$("night-example").addEventListener("click", () => loadNight(catalog.example_night));

// ---------------------------------------------------------------- the night as a form
// A view on the night file: editing the form rewrites the file; "Read the
// file into the form" reads a file back (the simple TOML the examples and
// "Continue" write: `key = value` lines, tables, [[move]] entries). The
// server reads the file, never the form.
const CARRY_KEYS = ["dead", "actor", "deputy", "hexed", "guest", "last_heal", "last_beating", "spare_life_spent", "swindled", "borrowed", "bandits_known"];
const MOVE_KEYS = ["seat", "target", "second", "borrow", "kill", "search"];
let night = { name: "", night: 1, seats: [], rules: [], carry: {}, moves: [] };

function parseNight(text) {
  const out = { name: "", night: 1, seats: [], rules: [], carry: {}, moves: [] };
  let table = "";
  let pending = "";
  const strip = (l) => { let q = false; for (let i = 0; i < l.length; i++) { if (l[i] === '"') q = !q; else if (l[i] === "#" && !q) return l.slice(0, i); } return l; };
  const balanced = (v) => (v.match(/\[/g) || []).length === (v.match(/\]/g) || []).length;
  for (const raw of text.split("\n")) {
    const line = (pending ? pending + " " : "") + strip(raw).trim();
    if (!line) continue;
    if (line === "[[move]]") { out.moves.push({}); table = "move"; pending = ""; continue; }
    const t = line.match(/^\[([a-z_]+)\]$/);
    if (t) { table = t[1]; pending = ""; continue; }
    const kv = line.match(/^([A-Za-z0-9_-]+)\s*=\s*(.*)$/);
    if (!kv) { pending = ""; continue; }
    if (!balanced(kv[2])) { pending = line; continue; }
    pending = "";
    const text = kv[2].trim().replace(/,\s*\]/g, "]");
    let value;
    try { value = JSON.parse(text); } catch (e) { value = text; }
    if (table === "move") out.moves[out.moves.length - 1][kv[1]] = value;
    else if (table === "carry") out.carry[kv[1]] = value;
    else if (table === "rules") out.rules.push([kv[1], value]);
    else if (table === "") { if (kv[1] === "seats") out.seats = value; else if (kv[1] === "night") out.night = value; else if (kv[1] === "name") out.name = value; else out[kv[1]] = value; }
  }
  return out;
}

function tomlValue(v) {
  if (typeof v === "string") { const t = v.trim(); if (/^-?\d+$/.test(t) || t === "true" || t === "false" || /^\[.*\]$/.test(t)) return t; return JSON.stringify(v); }
  return JSON.stringify(v);
}

function writeNight() {
  const n = night;
  const lines = ["# A night made in the studio's night calculator (`mafia resolve THIS.toml`)."];
  if (n.name) lines.push(`name = ${JSON.stringify(n.name)}`);
  lines.push(`night = ${n.night}`);
  lines.push(`seats = [${n.seats.map((r) => JSON.stringify(r)).join(", ")}]`);
  if (n.night_order) lines.push(`night_order = ${JSON.stringify(n.night_order)}`);
  if (n.rules.length) { lines.push("", "[rules]"); for (const [k, v] of n.rules) lines.push(`${k} = ${tomlValue(v)}`); }
  const carry = CARRY_KEYS.filter((k) => n.carry[k] !== undefined && n.carry[k] !== "");
  if (carry.length) { lines.push("", "[carry]"); for (const k of carry) lines.push(`${k} = ${tomlValue(n.carry[k])}`); }
  for (const m of n.moves) {
    lines.push("", "[[move]]");
    for (const k of MOVE_KEYS) if (m[k] !== undefined && m[k] !== "") lines.push(`${k} = ${tomlValue(m[k])}`);
  }
  $("night-text").value = lines.join("\n") + "\n";
}

function nightForm() {
  $("nf-night").value = night.night;
  $("nf-rules").value = night.rules.map(([k, v]) => `${k}=${v}`).join(", ");
  const seats = $("nf-seats");
  seats.replaceChildren(el("tr", {}, el("th", { text: "seat" }), el("th", { text: "role" })));
  night.seats.forEach((role, i) => {
    const sel = el("select", { "data-seat": String(i + 1) });
    for (const r of catalog.roles) sel.append(el("option", { value: r.name, text: `${r.name} (${r.camp})` }));
    sel.value = role;
    sel.addEventListener("change", () => { night.seats[i] = sel.value; writeNight(); });
    seats.append(el("tr", {}, el("td", { text: String(i + 1) }), el("td", {}, sel)));
  });
  const carry = $("nf-carry");
  carry.replaceChildren();
  for (const k of CARRY_KEYS) {
    const v = night.carry[k];
    const input = el("input", { "data-carry": k, size: "24", value: v === undefined ? "" : (typeof v === "string" ? v : JSON.stringify(v)) });
    input.addEventListener("input", () => { night.carry[k] = input.value; writeNight(); });
    carry.append(el("tr", {}, el("td", { class: "name", text: k }), el("td", {}, input)));
  }
  const moves = $("nf-moves");
  moves.replaceChildren(el("tr", {}, ...MOVE_KEYS.map((k) => el("th", { text: k })), el("th", {})));
  night.moves.forEach((m, i) => {
    const cells = MOVE_KEYS.map((k) => {
      const v = m[k];
      const input = el("input", { size: k === "seat" ? "9" : "6", value: v === undefined ? "" : String(v) });
      input.addEventListener("input", () => { m[k] = input.value; writeNight(); });
      return el("td", {}, input);
    });
    const drop = el("button", { text: "×" });
    drop.addEventListener("click", () => { night.moves.splice(i, 1); nightForm(); writeNight(); });
    moves.append(el("tr", {}, ...cells, el("td", {}, drop)));
  });
}

function loadNight(text) {
  $("night-text").value = text;
  night = parseNight(text);
  nightForm();
}

$("nf-night").addEventListener("input", () => { night.night = $("nf-night").value; writeNight(); });
$("nf-rules").addEventListener("input", () => {
  night.rules = $("nf-rules").value.split(",").map((x) => x.trim()).filter((x) => x.includes("=")).map((x) => x.split("=").map((y) => y.trim()));
  writeNight();
});
$("nf-add-seat").addEventListener("click", () => { night.seats.push("citizen"); nightForm(); writeNight(); });
$("nf-drop-seat").addEventListener("click", () => { night.seats.pop(); nightForm(); writeNight(); });
$("nf-add-move").addEventListener("click", () => { night.moves.push({}); nightForm(); });
$("nf-read").addEventListener("click", () => loadNight($("night-text").value));

// ---------------------------------------------------------------- win odds
$("odds-run").addEventListener("click", async () => {
  $("err-odds").textContent = ""; $("odds-out").textContent = "running…";
  const r = await api("/api/odds", { toml: $("odds-text").value, games: Number($("odds-games").value) });
  $("odds-out").textContent = "";
  if (!r.ok) { $("err-odds").textContent = r.data.error; return; }
  for (const t of r.data.tables) $("odds-out").append(el("div", { class: "scroll" }, dataTable(t)));
});

// ---------------------------------------------------------------- start
(async () => {
  const r = await api("/api/catalog");
  catalog = r.data;
  buildForm();
  setForm(catalog.presets[0].form);
  loadNight(catalog.example_night);
  $("odds-text").value = catalog.example_state;
  document.body.dataset.ready = "1";
})();
