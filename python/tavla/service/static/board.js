// The tavla web board: an SVG board driven by the service's /v1 routes. Plain JavaScript, no build.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

// Board geometry (SVG units): two halves of six points each side of the bar, a tray on the right.
const G = { left: 30, pointW: 46, barW: 44, top: 20, bottom: 480, pointH: 190, r: 21, trayX: 676 };
G.rightStart = G.left + 6 * G.pointW + G.barW;
G.barX = G.left + 6 * G.pointW + G.barW / 2;

const S = {
  variant: "backgammon", rules: {},
  bottom: null, top: null,   // each side's 25 counts in its own numbering (index 24 = bar)
  onRoll: "bottom",          // the side whose turn it is; it is "mine" in every request
  dice: null, moves: [], kind: "", selected: -1,
  mode: "analyse",           // "analyse" (you move both sides) or "game" (you are bottom, the engine top)
  engineMode: null,          // "engine" or "random" once the engine has been asked
  engineAvailable: false, formats: {}, over: null, busy: false, log: [],
  rolls: 0,                  // normal rolls so far in the game (gul bara cascades start after a few)
  rolledThisTurn: false,     // the side on roll has its dice (entering other dice replaces them)
  asked: 0,                  // counts questions for the moves list, so only the latest answer is shown
  cascade: null,             // gul bara: {owner, share: "mover"|"opponent", steps: [[die, count]...], headUsed}
  // The cube and the stakes (a game vs the engine keeps them here; every cube question goes to /v1/cube).
  cube: { value: 1, owner: null },   // owner: null (centered), "bottom" or "top"
  maxCube: 64,
  match: { length: 0, score: { bottom: 0, top: 0 }, crawford: false, crawfordDone: false, winner: null },
  offer: null,               // a double on offer: {by: "bottom"|"top"}
  cubeAsked: false,          // the engine has made its cube decision for this turn
  advice: null,              // the latest /v1/cube answer for the side on roll, before its roll
  adviceAsked: 0,
  result: null,              // how the game ended: {winner, points, multiplier, kind, how}
  pips: null,                // {bottom, top}
  pipsAsked: 0,
};

// ---- the service ----------------------------------------------------------------------------

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, init);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: `answer ${r.status} was not JSON` }; }
  return { status: r.status, ok: r.ok, data };
}

function positionFor(side) {
  const other = side === "bottom" ? "top" : "bottom";
  return { variant: S.variant, mine: S[side], theirs: S[other], rules: S.rules };
}

const current = () => positionFor(S.onRoll);

// ---- point numbering ------------------------------------------------------------------------

// The point a side calls p, in the bottom player's numbering (RULES.md: backgammon runs the
// other way round; in nardy and gul bara both run the same way, half a board apart).
function shown(side, p) {
  if (side === "bottom") return p;
  if (S.variant === "backgammon") return 25 - p;
  return p <= 12 ? p + 12 : p - 12;
}

function pointX(dp) {
  const { left, pointW: w, rightStart } = G;
  if (dp <= 6) return rightStart + (6 - dp) * w + w / 2;
  if (dp <= 12) return left + (12 - dp) * w + w / 2;
  if (dp <= 18) return left + (dp - 13) * w + w / 2;
  return rightStart + (dp - 19) * w + w / 2;
}

const onBottomRow = (dp) => dp <= 12;

// Where an arrow for a side's step starts or ends: a point, the bar (25) or the tray (0).
function anchor(side, p) {
  if (p === 25) return [G.barX, side === "bottom" ? 330 : 170];
  if (p <= 0) return [G.trayX, side === "bottom" ? 400 : 100];
  const dp = shown(side, p);
  return [pointX(dp), onBottomRow(dp) ? 410 : 90];
}

// ---- drawing --------------------------------------------------------------------------------

function el(name, attrs, parent, text) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function draw() {
  const svg = $("board");
  svg.replaceChildren();
  const defs = el("defs", {}, svg);
  for (const [id, color] of [["head", "#ffb703"], ["head-alt", "#9ad0ff"]]) {
    const m = el("marker", { id, viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", fill: color }, m);
  }
  el("rect", { class: "frame", x: 0, y: 0, width: 720, height: 500, rx: 8 }, svg);
  el("rect", { class: "felt", x: G.left, y: G.top, width: 6 * G.pointW, height: 460 }, svg);
  el("rect", { class: "felt", x: G.rightStart, y: G.top, width: 6 * G.pointW, height: 460 }, svg);
  el("rect", { class: "bar", x: G.left + 6 * G.pointW, y: G.top, width: G.barW, height: 460 }, svg);
  el("rect", { class: "tray", x: G.trayX - 26, y: G.top, width: 52, height: 460, rx: 4 }, svg);
  const move = S.selected >= 0 ? S.moves[S.selected] : null;
  const froms = new Set(), tos = new Set();
  if (move) for (const [a, b] of move.steps) { froms.add(shown(S.onRoll, a)); tos.add(shown(S.onRoll, b)); }
  for (let dp = 1; dp <= 24; dp++) drawPoint(svg, dp, froms, tos);
  if (S.bottom) {
    drawSide(svg, "bottom");
    drawSide(svg, "top");
  }
  if (S.dice) drawDice(svg);
  drawCube(svg);
  if (move) drawArrows(svg, move.steps, S.onRoll, "arrow");
  svg.dataset.position = JSON.stringify({ bottom: S.bottom, top: S.top, onRoll: S.onRoll });
  showScore();
  showCube();
}

// The cube sits on the bar: in the middle while centered, at its owner's end once turned; a double on
// offer is drawn at the doubled value in the doubler's half of the board.
function drawCube(svg) {
  const c = S.cube;
  let x = G.barX - 18, y = 232, value = c.value, where = c.owner || "centered";
  if (S.offer) {
    x = (S.offer.by === "bottom" ? G.rightStart : G.left) + 3 * G.pointW - 18;
    value = c.value * 2;
    where = "offered";
  } else if (c.owner === "bottom") y = G.bottom - 40;
  else if (c.owner === "top") y = G.top + 4;
  const g = el("g", { class: `cube ${where}`, transform: `translate(${x},${y})`, "data-value": value,
    "data-owner": where }, svg);
  el("rect", { width: 36, height: 36, rx: 5 }, g);
  el("text", { x: 18, y: 19 }, g, String(value === 1 ? 64 : value));
}

function drawPoint(svg, dp, froms, tos) {
  const x = pointX(dp), half = G.pointW / 2 - 1;
  const base = onBottomRow(dp) ? G.bottom : G.top;
  const tip = onBottomRow(dp) ? G.bottom - G.pointH : G.top + G.pointH;
  const cls = ["point", dp % 2 ? "point-a" : "point-b"];
  if (froms.has(dp)) cls.push("from");
  if (tos.has(dp)) cls.push("to");
  el("polygon", { class: cls.join(" "), "data-point": dp,
    points: `${x - half},${base} ${x + half},${base} ${x},${tip}` }, svg);
  el("text", { class: "num", x, y: onBottomRow(dp) ? 493 : 14 }, svg, String(dp));
}

function drawSide(svg, side) {
  const counts = S[side];
  for (let p = 1; p <= 24; p++) {
    const n = counts[p - 1];
    if (!n) continue;
    const dp = shown(side, p);
    const x = pointX(dp), down = !onBottomRow(dp);
    for (let i = 0; i < Math.min(n, 5); i++) {
      const y = down ? G.top + G.r + i * 2 * G.r : G.bottom - G.r - i * 2 * G.r;
      checker(svg, side, x, y, i === 4 && n > 5 ? n : null);
    }
  }
  const bar = counts[24];
  for (let i = 0; i < Math.min(bar, 3); i++) {
    const y = side === "bottom" ? 300 + i * 2 * G.r : 200 - i * 2 * G.r;
    checker(svg, side, G.barX, y, i === 2 && bar > 3 ? bar : null);
  }
  const off = 15 - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; i < off; i++) {
    const y = side === "bottom" ? G.bottom - 12 - i * 12 : G.top + 2 + i * 12;
    el("rect", { class: `checker ${sideClass(side)}`, x: G.trayX - 20, y, width: 40, height: 10, rx: 3 }, svg);
  }
  if (off) el("text", { class: "offtext", x: G.trayX, y: side === "bottom" ? 268 : 238 }, svg, `${off} off`);
}

const sideClass = (side) => (side === "bottom" ? "mine" : "theirs");

function checker(svg, side, x, y, label) {
  el("circle", { class: `checker ${sideClass(side)}`, cx: x, cy: y, r: G.r - 1 }, svg);
  if (label !== null) el("text", { class: `count ${sideClass(side)}`, x, y }, svg, String(label));
}

function drawDice(svg) {
  const cx = S.onRoll === "bottom" ? G.rightStart + 3 * G.pointW : G.left + 3 * G.pointW;
  S.dice.forEach((d, k) => {
    const g = el("g", { class: "die", transform: `translate(${cx - 40 + k * 44},232)` }, svg);
    el("rect", { width: 36, height: 36, rx: 6 }, g);
    const pips = { 1: [[18, 18]], 2: [[9, 9], [27, 27]], 3: [[9, 9], [18, 18], [27, 27]],
      4: [[9, 9], [27, 9], [9, 27], [27, 27]], 5: [[9, 9], [27, 9], [18, 18], [9, 27], [27, 27]],
      6: [[9, 9], [27, 9], [9, 18], [27, 18], [9, 27], [27, 27]] }[d];
    for (const [x, y] of pips) el("circle", { cx: x, cy: y, r: 3.5 }, g);
  });
}

function drawArrows(svg, steps, side, cls) {
  for (const [a, b] of steps) {
    const [x1, y1] = anchor(side, a), [x2, y2] = anchor(side, b);
    // Bend each arrow towards the middle of the board so that arrows along a row stay visible.
    const cx = (x1 + x2) / 2, cy = (y1 + y2) / 2 + (y1 > 250 && y2 > 250 ? -60 : y1 < 250 && y2 < 250 ? 60 : 0);
    el("path", { class: cls, d: `M${x1},${y1} Q${cx},${cy} ${x2},${y2}`, "data-step": `${a}/${b}` }, svg);
  }
}

// ---- the side panel -------------------------------------------------------------------------

function status(text, isError) {
  const s = $("status");
  s.textContent = text;
  s.className = isError ? "error" : "";
}

function setDice(dice) {
  S.dice = dice;
  if (dice) { $("d1").value = dice[0]; $("d2").value = dice[1]; }
}

function showMoves() {
  const list = $("moves");
  list.replaceChildren();
  S.moves.forEach((m, k) => {
    const li = document.createElement("li");
    li.textContent = m.notation;
    li.dataset.index = k;
    if (m.equity !== undefined) {
      const eq = document.createElement("span");
      eq.className = "eq";
      const p = m.probabilities;
      eq.textContent = `${fmt(m.equity)} (${fmt(m.diff)})  W ${pct(p.win)} G ${pct(p.win_gammon)} L ${pct(1 - p.win)}`;
      li.appendChild(eq);
    }
    if (k === S.selected) li.classList.add("selected");
    li.addEventListener("click", () => select(k));
    li.addEventListener("dblclick", () => { select(k); play(); });
    list.appendChild(li);
  });
  $("moves-kind").textContent = S.kind;
  $("play").disabled = S.selected < 0 || !canHumanMove();
}

const fmt = (x) => (x >= 0 ? "+" : "") + x.toFixed(3);
const sideName = (side) => (S.mode === "game" ? (side === "bottom" ? "You" : "Engine") : side === "bottom" ? "Bottom" : "Top");

// The score line under the board: the match score and length (or money), Crawford, the pip counts.
function showScore() {
  const m = S.match;
  const score = `${sideName("bottom")} ${m.score.bottom} : ${m.score.top} ${sideName("top")}`;
  $("score").textContent = m.length ? `${score}, match to ${m.length}` : S.mode === "game" ? `money game; ${score}` : "money game";
  let stage = "";
  if (m.length && m.winner === null) {
    if (m.crawford) stage = S.over ? "next game: Crawford" : "Crawford game";
    else if (m.crawfordDone) stage = "post-Crawford";
  }
  $("crawford").textContent = stage;
  $("pips").textContent = S.pips ? `pips: ${sideName("bottom")} ${S.pips.bottom}, ${sideName("top")} ${S.pips.top}` : "";
  const c = S.cube;
  const owner = !c.owner ? "centered" : S.mode !== "game" ? `${c.owner}'s` : c.owner === "bottom" ? "yours" : "the engine's";
  $("cube-state").textContent = `cube ${c.value}, ${owner}`;
}

// The pip counts of both sides, from /v1/position.
async function refreshPips() {
  if (!S.bottom) return;
  const token = ++S.pipsAsked;
  const r = await api("/v1/position", { position: positionFor("bottom") });
  if (token !== S.pipsAsked || !r.ok) return;
  S.pips = { bottom: r.data.pips[0], top: r.data.pips[1] };
  showScore();
}

// The cube state for /v1/cube, /v1/hint and /v1/engine-move, seen from `side` as the player on roll.
function cubeFor(side) {
  const m = S.match, owner = S.cube.owner;
  return {
    value: S.cube.value, owner: owner === null ? null : owner === side ? "me" : "opponent",
    match_length: m.length, score: m.length ? [m.score[side], m.score[otherSide(side)]] : [0, 0],
    crawford: m.length > 0 && m.crawford, max_cube: S.maxCube,
  };
}

// Whether `side` may double now: before its roll, the cube centered or its own, below the maximum,
// not in the Crawford game, no double on offer, the game still on.
function mayDouble(side) {
  const c = S.cube;
  return !S.over && !S.offer && !S.cascade && S.onRoll === side && !S.rolledThisTurn
    && (c.owner === null || c.owner === side) && c.value < S.maxCube && !(S.match.length && S.match.crawford);
}

const canHumanDouble = () => S.mode === "game" && !S.busy && S.engineAvailable && mayDouble("bottom");

// The cube panel: the engine's advice for the side on roll, and Double / Take / Pass / Next game.
function showCube() {
  const a = S.advice && S.advice.side === S.onRoll && !S.rolledThisTurn && !S.over ? S.advice : null;
  const box = $("cube-advice");
  box.replaceChildren();
  if (S.offer && S.offer.by === "top") {
    const v = S.cube.value;
    box.textContent = `The engine doubles to ${2 * v}: take (the cube is yours at ${2 * v}) or pass (lose ${v} point${v === 1 ? "" : "s"}).`;
  } else if (a && a.error) box.textContent = a.error;
  else if (a) {
    const d = a.data;
    const head = document.createElement("div");
    head.className = "action";
    head.textContent = `${sideName(a.side)}: ${d.action}`;
    box.appendChild(head);
    const rows = [["No double", d.no_double, d.mwc && d.mwc.no_double], ["Double, take", d.double_take, d.mwc && d.mwc.double_take],
      ["Double, pass", d.double_pass, d.mwc && d.mwc.double_pass]];
    const table = document.createElement("table");
    const th = table.createTHead().insertRow();
    for (const h of ["", "equity", ...(d.mwc ? ["MWC"] : [])]) th.appendChild(document.createElement("th")).textContent = h;
    for (const [label, eq, mwc] of rows) {
      const tr = (table.tBodies[0] || table.createTBody()).insertRow();
      tr.insertCell().textContent = label;
      tr.insertCell().textContent = fmt(eq);
      if (d.mwc) tr.insertCell().textContent = pct(mwc);
    }
    box.appendChild(table);
    const note = document.createElement("div");
    note.className = "note";
    note.textContent = `${d.ply}-ply, ${d.cube.description}`;
    box.appendChild(note);
  }
  $("double").hidden = !canHumanDouble();
  $("double").textContent = S.cube.owner ? `Redouble to ${2 * S.cube.value}` : `Double to ${2 * S.cube.value}`;
  const offered = S.offer && S.offer.by === "top";
  $("take").hidden = !offered;
  $("pass").hidden = !offered;
  $("next-game").hidden = !(S.mode === "game" && S.over && S.match.length && S.match.winner === null);
}

// The engine's cube advice for the side on roll, before its roll (shown in the cube panel).
async function adviseCube() {
  if (S.over || S.cascade || S.rolledThisTurn || !S.bottom) return;
  const side = S.onRoll, token = ++S.adviceAsked;
  const r = await api("/v1/cube", { position: current(), cube: cubeFor(side) });
  if (token !== S.adviceAsked) return;
  if (r.ok) S.advice = { side, data: r.data };
  else S.advice = { side, error: r.status === 503 ? `Cube advice needs the engine: ${r.data.error}` : r.data.error };
  showCube();
}
const pct = (x) => (100 * x).toFixed(1) + "%";

function select(k) {
  S.selected = k;
  showMoves();
  draw();
}

function canHumanMove() {
  return !S.busy && !S.over && !S.offer && (S.mode === "analyse" || S.onRoll === "bottom");
}

function setModeLabel() {
  const label = $("mode-label");
  if (S.mode === "analyse") { label.textContent = "analysis: you move both sides"; label.className = "label"; return; }
  if (S.engineMode === "random") {
    label.textContent = "vs RANDOM play: the engine is not available in this build";
    label.className = "label warn";
  } else {
    label.textContent = "vs engine";
    label.className = "label";
  }
}

// ---- actions --------------------------------------------------------------------------------

function loadPlain(pos) {
  // A pasted position is taken to be past the game's first rolls (so gul bara doubles cascade);
  // a new game counts its rolls from zero.
  S.rolls = 1000;
  S.rolledThisTurn = false;
  S.cascade = null;
  S.variant = pos.variant;
  S.rules = pos.rules || {};
  S.bottom = pos.mine.slice();
  S.top = pos.theirs.slice();
  S.onRoll = "bottom";
  S.over = null;
  S.cube = { value: 1, owner: null };
  S.offer = null; S.cubeAsked = false; S.advice = null; S.result = null; S.pips = null;
  $("variant").value = S.variant;
  clearMoves();
}

function clearMoves() {
  S.moves = []; S.selected = -1; S.kind = "";
  showMoves();
  draw();
}

async function readPosition(source) {
  const r = await api("/v1/position", source);
  if (!r.ok) { status(r.data.error, true); return false; }
  loadPlain(r.data.position);
  S.pips = { bottom: r.data.pips[0], top: r.data.pips[1] };
  if (r.data.dice) setDice(r.data.dice); else S.dice = null;
  draw();
  status(`Position loaded (${S.variant}); pips ${r.data.pips[0]} : ${r.data.pips[1]}.`);
  if (S.dice) await fetchMoves(); else await adviseCube();
  return true;
}

function randomDice() {
  const die = () => 1 + Math.floor(Math.random() * 6);
  return [die(), die()];
}

// The game's rolls made before the current one, as /v1/hint and /v1/engine-move take them: a gul bara
// double the board does not play as a cascade must not be answered as one.
const rollsBefore = () => Math.max(0, S.rolls - 1);
const cascadeAfter = () => (S.rules.cascade_after_rolls === undefined ? 3 : S.rules.cascade_after_rolls);

// A normal roll for the side on roll. In gul bara, a double after the game's first few rolls starts
// a cascade (RULES.md 4): four moves of d, then of d+1, ... up to 6, each its own step.
function startRoll(dice) {
  if (S.cascade) return;
  if (!S.rolledThisTurn) S.rolls += 1;
  S.rolledThisTurn = true;
  setDice(dice);
  if (S.variant === "gulbara" && dice[0] === dice[1] && S.rolls > cascadeAfter()) {
    const steps = [];
    for (let d = dice[0]; d <= 6; d++) steps.push([d, 4]);
    S.cascade = { owner: S.onRoll, share: "mover", steps, headUsed: 0 };
  }
}

function cascadeText() {
  const c = S.cascade;
  const [die, count] = c.steps[0];
  const whose = c.share === "mover" ? "cascade" : "share of the opponent's cascade";
  return `${whose}: ${count} × ${die}` + (c.steps.length > 1 ? `, then ${c.steps.slice(1).map(([d, n]) => `${n} × ${d}`).join(", ")}` : "");
}

function chosenDice() {
  return [Number($("d1").value), Number($("d2").value)];
}

async function movesNow() {
  if (S.cascade) {
    const [die, count] = S.cascade.steps[0];
    setDice([die, die]);
    const r = await api("/v1/cascade-step", { position: current(), die, count, head_used: S.cascade.headUsed });
    return r.ok ? { moves: r.data.moves, kind: `${r.data.moves.length} legal, ${cascadeText()}` } : { error: r.data.error };
  }
  const r = await api("/v1/moves", { position: current(), dice: S.dice });
  return r.ok ? { moves: r.data.moves, kind: `${r.data.count} legal` } : { error: r.data.error };
}

const awaitingAnswer = () => {
  if (S.offer) status("Answer the double first: take or pass.", true);
  return Boolean(S.offer);
};

async function fetchMoves() {
  if (awaitingAnswer()) return;
  if (!S.dice) startRoll(chosenDice());
  const token = ++S.asked;
  const got = await movesNow();
  if (token !== S.asked) return;   // a later question is on its way: its answer wins
  if (got.error) { status(got.error, true); return; }
  S.moves = got.moves; S.kind = got.kind; S.selected = -1;
  showMoves();
  draw();
}

async function fetchHint() {
  if (awaitingAnswer()) return;
  if (S.cascade) {
    status("Hints cover normal rolls; a cascade step shows its legal plays.", true);
    await fetchMoves();
    return;
  }
  if (!S.dice) startRoll(chosenDice());
  const token = ++S.asked;
  const r = await api("/v1/hint", { position: current(), dice: S.dice, top: 10, rolls: rollsBefore(), ...cubeful(S.onRoll) });
  if (token !== S.asked) return;
  if (r.status === 503) {
    status(`Hints need the engine: ${r.data.error}. Showing the legal moves instead.`, true);
    await fetchMoves();
    return;
  }
  if (!r.ok) { status(r.data.error, true); return; }
  S.moves = r.data.candidates.map((c) => ({ ...c.move, equity: c.equity, diff: c.diff, probabilities: c.probabilities }));
  S.kind = `hints, ${r.data.ply}-ply, ${r.data.time_ms.toFixed(0)} ms`;
  S.selected = S.moves.length ? 0 : -1;
  showMoves();
  draw();
}

const otherSide = (side) => (side === "bottom" ? "top" : "bottom");
// In a game the engine is asked cubefully, with the game's cube and score; analysis stays cubeless.
const cubeful = (side) => (S.mode === "game" ? { cube: cubeFor(side) } : {});

// Play a move (or cascade step) for the side on roll: its result is still seen from the mover.
function apply(move) {
  const mover = S.onRoll, other = otherSide(mover);
  S[mover] = move.position.mine.slice();
  S[other] = move.position.theirs.slice();
  S.log.push(`${mover}: ${S.dice ? S.dice.join("-") + " " : ""}${move.notation}`);
  if (move.game_over) S.over = mover;
  S.rolledThisTurn = false;
  if (S.cascade) advanceCascade(move);
  else { S.onRoll = other; S.dice = null; }
  if (!S.cascade) S.cubeAsked = false;   // a new turn: its player may double before rolling
  clearMoves();
  refreshPips();
}

// After a cascade step: the first number the owner cannot play in full passes what is left, and
// every higher number, to the opponent, who plays them in order and forfeits what it cannot play.
// When the steps run out, the owner's opponent rolls for its own normal turn.
function advanceCascade(move) {
  const c = S.cascade;
  const [die, count] = c.steps.shift();
  c.headUsed = move.head_used;
  if (c.share === "mover" && move.moves_played < count) {
    c.steps.unshift([die, count - move.moves_played]);
    c.share = "opponent";
    c.headUsed = 0;
    S.onRoll = otherSide(S.onRoll);
  }
  if (!c.steps.length) {
    S.cascade = null;
    S.onRoll = otherSide(c.owner);
    S.dice = null;
  }
}

async function play() {
  if (S.selected < 0 || !canHumanMove()) return;
  const move = S.moves[S.selected];
  apply(move);
  await nextTurn(`Played ${move.notation}.`);
}

// Whose move now: the engine's (in a game), a cascade step to list, or a roll to wait for.
async function nextTurn(said) {
  if (S.over) { await finishGame(); return; }
  if (S.mode === "game" && S.onRoll === "top") { await engineTurn(); return; }
  const who = S.mode === "game" ? "You" : S.onRoll === "bottom" ? "Bottom (light)" : "Top (dark)";
  if (S.cascade) {
    await fetchMoves();
    status(`${said} ${who}: ${cascadeText()}.`);
    return;
  }
  status(`${said} ${who} to roll.`);
  await adviseCube();
}

// A game borne off: single, gammon or backgammon (oin, mars, koks) times the cube. The multiplier is
// the service's: /v1/evaluate of the final position is exact (win_gammon and win_backgammon are 0 or 1).
async function finishGame() {
  if (S.result) { announceEnd(); return; }
  const winner = S.over;
  let multiplier = null;
  const r = await api("/v1/evaluate", { position: positionFor(winner), ply: 0 });
  if (r.ok) multiplier = 1 + Math.round(r.data.probabilities.win_gammon) + Math.round(r.data.probabilities.win_backgammon);
  else multiplier = localMultiplier(winner);
  endGame(winner, multiplier, "bore off");
}

// Without the engine: RULES.md 2 and 3 for a finished game (the loser has borne off none: gammon or
// mars; with a checker on the bar or in the winner's home, backgammon; koks with the koks option).
function localMultiplier(winner) {
  const loser = S[otherSide(winner)];
  if (loser.reduce((a, b) => a + b, 0) < 15) return 1;
  if (S.variant === "backgammon") return loser[24] > 0 || loser.slice(18, 24).some((n) => n > 0) ? 3 : 2;
  return S.rules.koks && loser.slice(12, 24).some((n) => n > 0) ? 3 : 2;
}

// The game is over: `winner` wins `multiplier` times the cube (a passed double: 1 times the cube
// before the double). In a game vs the engine the points go to the score (money or match).
function endGame(winner, multiplier, how) {
  const kinds = S.variant === "backgammon" ? ["single", "gammon", "backgammon"] : ["oin", "mars", "koks"];
  const points = multiplier * S.cube.value;
  S.over = winner;
  S.offer = null;
  S.result = { winner, multiplier, points, kind: kinds[multiplier - 1], how, cube: S.cube.value };
  if (S.mode === "game") scoreGame(winner, points);
  draw();
  announceEnd();
}

function scoreGame(winner, points) {
  const m = S.match;
  m.score[winner] += points;
  if (!m.length) return;
  if (m.score[winner] >= m.length) { m.winner = winner; return; }
  // The Crawford game: the first game after a player comes to one point away; the cube is dead in it.
  if (m.crawford) { m.crawford = false; m.crawfordDone = true; }
  else if (!m.crawfordDone && m.score[winner] === m.length - 1) m.crawford = true;
}

function announceEnd() {
  const r = S.result;
  const who = S.mode === "game" ? (r.winner === "bottom" ? "You win" : "The engine wins") : `${r.winner} wins`;
  const what = r.how === "bore off" ? `${r.kind === "single" || r.kind === "oin" ? "" : `a ${r.kind}, `}${r.points} point${r.points === 1 ? "" : "s"}`
    : `${r.points} point${r.points === 1 ? "" : "s"} (${r.how})`;
  let text = `Game over: ${who} ${what}.`;
  const m = S.match;
  if (S.mode === "game" && m.length) {
    text += ` Score ${m.score.bottom} : ${m.score.top} of ${m.length}.`;
    if (m.winner) text += m.winner === "bottom" ? " You win the match." : " The engine wins the match.";
    else text += m.crawford ? " Next game: Crawford." : " Next game when you are ready.";
  }
  status(text);
  showMoves();
  showCube();
}

// ---- the cube in a game ---------------------------------------------------------------------

// Before its roll the engine asks /v1/cube from its side: it doubles when it may and should.
async function engineDoubles() {
  if (S.mode !== "game" || !S.engineAvailable || !mayDouble("top")) return false;
  const r = await api("/v1/cube", { position: positionFor("top"), cube: cubeFor("top") });
  if (r.status === 503) return false;
  if (!r.ok) throw new Error(r.data.error);
  return r.data.cube.may_double && r.data.should_double;
}

// You double: the engine takes when /v1/cube, asked from your side, says the opponent should take.
async function humanDouble() {
  if (!canHumanDouble()) return;
  const value = 2 * S.cube.value;
  S.busy = true;
  S.offer = { by: "bottom" };
  draw();
  status(`You double to ${value}. The engine is thinking...`);
  const r = await api("/v1/cube", { position: positionFor("bottom"), cube: cubeFor("bottom") });
  S.busy = false;
  S.offer = null;
  if (!r.ok) { draw(); status(`The engine could not answer the double: ${r.data.error}`, true); return; }
  if (r.data.should_take) {
    S.cube = { value, owner: "top" };
    S.log.push(`bottom: doubles to ${value}; top: takes`);
    S.advice = null;
    draw();
    status(`The engine takes: the cube is at ${value}, the engine's. Roll.`);
    await adviseCube();
  } else {
    S.log.push(`bottom: doubles to ${value}; top: passes`);
    endGame("bottom", 1, "the engine passed the double");
  }
}

// Your answer to the engine's double: take (the cube is yours at the doubled value, the engine rolls
// on) or pass (the engine wins the cube's value before the double).
async function answerDouble(take) {
  if (!S.offer || S.offer.by !== "top" || S.busy) return;
  const value = 2 * S.cube.value;
  S.offer = null;
  if (!take) {
    S.log.push(`top: doubles to ${value}; bottom: passes`);
    endGame("top", 1, "you passed the double");
    return;
  }
  S.cube = { value, owner: "bottom" };
  S.log.push(`top: doubles to ${value}; bottom: takes`);
  draw();
  await engineTurn();
}

// The engine's cascade step: the play after which the engine rates the opponent's position worst.
async function engineCascadeStep(moves) {
  if (S.engineMode !== "random" && moves.length > 1) {
    let best = null, bestEquity = Infinity;
    for (const m of moves) {
      const flipped = { variant: S.variant, mine: m.position.theirs, theirs: m.position.mine, rules: S.rules };
      const r = await api("/v1/evaluate", { position: flipped, ply: 0 });
      if (r.status === 503) { S.engineMode = "random"; setModeLabel(); break; }
      if (!r.ok) throw new Error(r.data.error);
      S.engineMode = "engine";
      if (r.data.equity < bestEquity) { best = m; bestEquity = r.data.equity; }
    }
    if (best && S.engineMode === "engine") return best;
  }
  return moves[Math.floor(Math.random() * moves.length)];
}

async function engineMove() {
  if (S.cascade) {
    const got = await movesNow();
    if (got.error) throw new Error(got.error);
    return engineCascadeStep(got.moves);
  }
  if (S.engineMode !== "random") {
    const r = await api("/v1/engine-move", { position: current(), dice: S.dice, rolls: rollsBefore(),
                                                   ...cubeful(S.onRoll) });
    if (r.ok) { S.engineMode = "engine"; return r.data.move; }
    if (r.status !== 503) throw new Error(r.data.error);
    S.engineMode = "random";   // no engine in this build (or it is busy): fall back, and say so
    setModeLabel();
  }
  const r = await api("/v1/moves", { position: current(), dice: S.dice });
  if (!r.ok) throw new Error(r.data.error);
  return r.data.moves[Math.floor(Math.random() * r.data.moves.length)];
}

// The engine plays while it is on roll: a normal turn, or every step of its cascade or share.
async function engineTurn() {
  S.busy = true;
  const said = [];
  try {
    while (S.onRoll === "top" && !S.over) {
      if (!S.cascade && !S.rolledThisTurn) {
        if (!S.cubeAsked) {
          S.cubeAsked = true;
          status("Engine thinking about the cube...");
          if (await engineDoubles()) {
            S.offer = { by: "top" };
            S.busy = false;
            draw();
            status(`The engine doubles to ${2 * S.cube.value}. Take or pass?`);
            return;
          }
        }
        startRoll(randomDice());
      }
      draw();
      status("Engine thinking...");
      const move = await engineMove();
      S.moves = [move]; S.selected = 0; S.kind = S.engineMode === "random" ? "random reply" : "engine reply";
      showMoves();
      draw();
      await new Promise((done) => setTimeout(done, 350));   // let the arrows show before the checkers move
      said.push(`${S.dice.join("-")}: ${move.notation}`);
      apply(move);
    }
  } catch (e) {
    status(`Engine turn failed: ${e.message}`, true);
    S.busy = false;
    return;
  }
  S.busy = false;
  setModeLabel();
  const who = S.engineMode === "random" ? "Random play" : "Engine";
  await nextTurn(`${who} played ${said.join("; ")}.`);
}

const freshMatch = (length) => ({ length, score: { bottom: 0, top: 0 }, crawford: false, crawfordDone: false, winner: null });

// A new game: vs the engine a new match (or money session) unless `keepMatch` (the next game of a match).
async function newGame(mode, keepMatch) {
  S.mode = mode;
  S.engineMode = null;
  S.log = [];
  S.variant = $("variant").value;
  if (!keepMatch) S.match = freshMatch(mode === "game" ? Number($("match-length").value) : 0);
  const ok = await readPosition({ position: { variant: S.variant } });
  if (!ok) return;
  S.dice = null;
  S.rolls = 0;
  setModeLabel();
  draw();
  const m = S.match;
  const stake = m.length ? ` Match to ${m.length}, ${m.score.bottom} : ${m.score.top}${m.crawford ? ", the Crawford game" : ""}.` : " Money game.";
  status(mode === "game" ? `New game: you are the light checkers at the bottom.${stake} Roll.` : "Start position. Roll or enter dice.");
}

// Tests and demos: a game vs the engine from a given position, side on roll, cube and score.
async function setupGame({ variant = "backgammon", bottom, top, onRoll = "bottom", cube = { value: 1, owner: null }, match = {} }) {
  S.mode = "game";
  S.engineMode = null;
  S.log = [];
  $("variant").value = variant;
  loadPlain({ variant, mine: bottom, theirs: top, rules: {} });
  S.match = { ...freshMatch(match.length || 0), ...match, score: { bottom: 0, top: 0, ...(match.score || {}) } };
  if ([...$("match-length").options].some((o) => Number(o.value) === S.match.length)) $("match-length").value = String(S.match.length);
  S.cube = { value: cube.value, owner: cube.owner || null };
  S.onRoll = onRoll;
  S.dice = null;
  setModeLabel();
  draw();
  await refreshPips();
  await nextTurn("Game set up.");
}

async function init() {
  const dieSelects = [$("d1"), $("d2")];
  for (const s of dieSelects) for (let d = 1; d <= 6; d++) s.appendChild(new Option(String(d), String(d)));
  $("d1").value = "3"; $("d2").value = "1";
  // In a game the dice of a turn are final once rolled or entered; in analysis they may be changed.
  const mayRoll = () => canHumanMove() && !S.cascade && !(S.mode === "game" && S.rolledThisTurn);
  const enterDice = (dice) => { if (mayRoll()) startRoll(dice); else if (S.dice) setDice(S.dice); };
  for (const s of dieSelects) s.addEventListener("change", () => { enterDice(chosenDice()); fetchMoves(); });
  $("roll").addEventListener("click", () => { if (mayRoll()) { startRoll(randomDice()); fetchMoves(); } });
  $("show-moves").addEventListener("click", () => { enterDice(chosenDice()); fetchMoves(); });
  $("hint").addEventListener("click", () => { enterDice(chosenDice()); fetchHint(); });
  $("play").addEventListener("click", play);
  $("double").addEventListener("click", humanDouble);
  $("take").addEventListener("click", () => answerDouble(true));
  $("pass").addEventListener("click", () => answerDouble(false));
  $("next-game").addEventListener("click", () => { if (S.over && S.match.length && S.match.winner === null) newGame("game", true); });
  $("new-game").addEventListener("click", () => newGame("game"));
  $("analyse").addEventListener("click", () => newGame("analyse"));
  $("variant").addEventListener("change", () => newGame(S.mode));
  $("load-json").addEventListener("click", async () => {
    let pos;
    try { pos = JSON.parse($("position-text").value); } catch (e) { status(`Not JSON: ${e.message}`, true); return; }
    S.mode = "analyse"; setModeLabel();
    await readPosition({ position: pos });
  });
  $("copy-json").addEventListener("click", () => {
    $("position-text").value = JSON.stringify({ variant: S.variant, mine: current().mine, theirs: current().theirs, rules: S.rules });
  });
  $("load-xgid").addEventListener("click", () => { S.mode = "analyse"; setModeLabel(); readPosition({ xgid: $("xgid").value }); });
  const [health, version] = await Promise.all([api("/v1/health"), api("/v1/version")]);
  S.engineAvailable = health.ok && health.data.engine;
  S.formats = version.ok ? version.data.formats : {};
  if (!S.formats.xgid) {
    $("load-xgid").disabled = true;
    $("xgid").placeholder = "XGID: not available in this build";
  }
  $("hint").title = S.engineAvailable ? "ranked hints from the engine" : "the engine is not available in this build";
  await newGame("analyse");
}

window.tavlaBoard = { state: S, newGame, play, select, fetchMoves, fetchHint, readPosition, setupGame, humanDouble, answerDouble };
document.addEventListener("DOMContentLoaded", init);
