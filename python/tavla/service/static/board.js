// The tavla web board: an SVG board driven by the service's /v1 routes. Plain JavaScript, no build.
// The game's flow is the service's: every roll and play goes to /v1/turn, which plays it with the
// engine's own game (tavla.Game) and answers what to draw next; the board keeps no rules of its own.
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
  onRoll: "bottom",          // the side whose turn it is (seat 0 is bottom); it is "mine" in every request
  dice: null, moves: [], kind: "", selected: -1,
  mode: "analyse",           // "analyse" (you move both sides) or "game" (you are bottom, the engine top)
  engineMode: null,          // "engine" or "random" once the engine has been asked
  engineAvailable: false, formats: {}, over: null, busy: false, log: [],
  // The game as /v1/turn last answered it: the record to send back, and what to draw and act on.
  game: null,                // the game record (the state token of the game's flow)
  beforeRoll: null,          // the request part naming the game before this turn's roll (analysis: other dice)
  phase: "",                 // "roll", "move" or "over"
  legal: [],                 // the legal plays (or cascade steps), each with its index for /v1/turn
  cascade: null,             // gul bara, while a cascade is played: {step, left, handover} as answered
  rollsBefore: 0,            // the rolls before this one, which /v1/hint and /v1/engine-move take
  ending: null,              // the game's result as answered, once over
  turnAsked: 0,              // counts /v1/turn questions, so that only the latest answer is applied
  rolling: false,            // a roll is on its way to the service
  asked: 0,                  // counts questions for the moves list, so only the latest answer is shown
  riggedDice: [],            // tests and demos: dice the next random rolls use, in order
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

// The service's JSON position form, from `first`'s side (no turn given: the first side is on roll).
// The board keeps each side as 25 counts in its own numbering, the bar last.
function jsonPosition(variant, rules, first, second) {
  return { variant, rules, checkers: [first.slice(0, 24), second.slice(0, 24)], bar: [first[24], second[24]] };
}
const sideCounts = (position, k) => [...position.checkers[k], position.bar[k]];

function positionFor(side) {
  const other = side === "bottom" ? "top" : "bottom";
  return jsonPosition(S.variant, S.rules, S[side], S[other]);
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
  return !S.over && !S.offer && S.phase === "roll" && S.onRoll === side
    && (c.owner === null || c.owner === side) && c.value < S.maxCube && !(S.match.length && S.match.crawford);
}

const canHumanDouble = () => S.mode === "game" && !S.busy && S.engineAvailable && mayDouble("bottom");

// The cube panel: the engine's advice for the side on roll, and Double / Take / Pass / Next game.
function showCube() {
  const a = S.advice && S.advice.side === S.onRoll && S.phase === "roll" && !S.over ? S.advice : null;
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
  if (S.over || S.phase !== "roll" || !S.bottom) return;
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

// ---- the game's flow: /v1/turn ---------------------------------------------------------------

const otherSide = (side) => (side === "bottom" ? "top" : "bottom");
const sideOf = (seat) => (seat === 0 ? "bottom" : "top");
const seatOf = (side) => (side === "bottom" ? 0 : 1);

// A new game's board: the cube, the offer, the advice and the result start afresh.
function resetGame() {
  S.over = null; S.result = null; S.busy = false;
  S.cube = { value: 1, owner: null };
  S.offer = null; S.cubeAsked = false; S.advice = null; S.pips = null;
}

// The service's answer is the game now: the record to send back, whose turn it is, the position from that
// side, the dice (a cascade step's number shown on both), the legal plays, the cascade, the result.
function applyTurn(t, fresh) {
  if (fresh) resetGame();
  const mover = sideOf(t.turn), other = otherSide(mover);
  S.game = t.game;
  S.phase = t.phase;
  S.variant = t.variant;
  S.rules = t.position.rules;
  S.onRoll = mover;
  S[mover] = sideCounts(t.position, 0);
  S[other] = sideCounts(t.position, 1);
  S.pips = { [mover]: t.pips[0], [other]: t.pips[1] };
  setDice(t.cascade_step ? [t.cascade_step[0], t.cascade_step[0]] : t.dice);
  S.cascade = t.cascade_step ? { step: t.cascade_step, left: t.cascade_left, handover: t.is_cascade_handover } : null;
  S.rollsBefore = t.rolls_before;
  S.legal = t.moves.map((m, index) => ({ ...m, index }));
  S.ending = t.result;
  if (t.over && !S.over) S.over = t.result.winner === null ? "draw" : sideOf(t.result.winner);
  if (t.phase === "roll") {
    S.beforeRoll = { game: t.game };
    S.cubeAsked = false;   // a new turn: its player may double before rolling
  } else if (fresh) {
    // A position loaded with its dice: other dice replay the position without them.
    S.beforeRoll = { new: { position: t.position, turn: t.turn, rolls: t.rolls_before } };
  }
  $("variant").value = S.variant;
  clearMoves();
}

// One question to /v1/turn, its answer applied; null for an answer that a later question overtook.
// A refused action throws with the service's message.
async function turn(body) {
  const token = ++S.turnAsked;
  S.asked++;   // a moves list or hints still on their way are for the game before
  const r = await api("/v1/turn", body);
  if (token !== S.turnAsked) return null;
  if (!r.ok) throw new Error(r.data.error);
  applyTurn(r.data, body.new !== undefined);
  return r.data;
}

// As turn, saying what went wrong in the status line instead of throwing.
async function tryTurn(body) {
  try {
    return await turn(body);
  } catch (e) {
    status(e.message, true);
    return null;
  }
}

function clearMoves() {
  S.moves = []; S.selected = -1; S.kind = "";
  showMoves();
  draw();
}

function cascadeText() {
  const c = S.cascade, [[die, count], ...rest] = c.left;
  const whose = c.handover ? "share of the opponent's cascade" : "cascade";
  return `${whose}: ${count} × ${die}` + (rest.length ? `, then ${rest.map(([d, n]) => `${n} × ${d}`).join(", ")}` : "");
}

// The legal plays the service answered, as the moves list.
function showLegal() {
  S.moves = S.legal; S.selected = -1;
  S.kind = `${S.legal.length} legal` + (S.cascade ? `, ${cascadeText()}` : "");
  showMoves();
  draw();
}

// A game from the service: the start position, or a position given as /v1/turn's `new` takes it
// (pasted: the side on roll at the bottom, unless `turn` says otherwise).
async function readPosition(source, turnSeat = 0) {
  const t = await tryTurn({ new: { ...source, turn: turnSeat } });
  if (!t) return false;
  status(`Position loaded (${S.variant}); pips ${S.pips.bottom} : ${S.pips.top}.`);
  if (t.phase === "move") showLegal(); else await adviseCube();
  return true;
}

function randomDice() {
  if (S.riggedDice.length) return S.riggedDice.shift();
  const die = () => 1 + Math.floor(Math.random() * 6);
  return [die(), die()];
}

function chosenDice() {
  return [Number($("d1").value), Number($("d2").value)];
}

// The side on roll may roll now, or (in analysis, before any play of the turn) give its roll other dice.
// In a game the dice of a turn are final once rolled or entered.
function mayRoll() {
  if (!canHumanMove() || S.cascade) return false;
  if (S.phase === "roll") return !(S.mode === "game" && S.rolling);
  return S.phase === "move" && S.mode === "analyse" && S.beforeRoll !== null;
}

async function rollDice(dice) {
  const base = S.phase === "roll" ? { game: S.game } : S.beforeRoll;
  S.rolling = true;
  try {
    return await tryTurn({ ...base, action: { roll: dice } });
  } finally {
    S.rolling = false;
  }
}

const awaitingAnswer = () => {
  if (S.offer) status("Answer the double first: take or pass.", true);
  return Boolean(S.offer);
};

// The dice controls: roll `dice` where the side on roll may (else the dice stay as they are), then
// `then` (list the legal moves, or ask for hints) once there is a roll to play.
async function withDice(dice, then) {
  if (awaitingAnswer()) return;
  if (mayRoll()) {
    if (!(await rollDice(dice))) return;
  } else if (S.dice) setDice(S.dice);
  if (S.phase === "move") await then();
}

const fetchMoves = () => withDice(chosenDice(), async () => showLegal());

async function fetchHint() {
  if (S.cascade) {
    status("Hints cover normal rolls; a cascade step shows its legal plays.", true);
    showLegal();
    return;
  }
  const token = ++S.asked;
  const r = await api("/v1/hint", { position: current(), dice: S.dice, top: 10, rolls: S.rollsBefore, ...cubeful(S.onRoll) });
  if (token !== S.asked) return;
  if (r.status === 503) {
    status(`Hints need the engine: ${r.data.error}. Showing the legal moves instead.`, true);
    showLegal();
    return;
  }
  if (!r.ok) { status(r.data.error, true); return; }
  S.moves = r.data.candidates.map((c) => ({ ...c.move, equity: c.equity, diff: c.diff, probabilities: c.probabilities }));
  S.kind = `hints, ${r.data.ply}-ply, ${r.data.time_ms.toFixed(0)} ms`;
  S.selected = S.moves.length ? 0 : -1;
  showMoves();
  draw();
}

// In a game the engine is asked cubefully, with the game's cube and score; analysis stays cubeless.
const cubeful = (side) => (S.mode === "game" ? { cube: cubeFor(side) } : {});

// What a play was, for the log and the status line: the dice and the play (a cascade part names its own).
const described = (dice, move) => (move.cascade_steps && move.cascade_steps.length ? move.notation
  : `${dice ? dice.join("-") + " " : ""}${move.notation}`);

// Play the selected move (or cascade step) for the side on roll: a legal play by its index, a hint by its
// notation; the service answers whose turn it is next.
async function play() {
  if (S.selected < 0 || !canHumanMove()) return;
  const move = S.moves[S.selected], mover = S.onRoll, dice = S.dice;
  S.busy = true;
  const t = await tryTurn({ game: S.game, action: { play: move.index !== undefined ? move.index : move.notation } });
  S.busy = false;
  if (!t) { showMoves(); return; }
  S.log.push(`${mover}: ${described(dice, move)}`);
  await nextTurn(`Played ${move.notation}.`);
}

// Whose move now: the engine's (in a game), a cascade step to list, or a roll to wait for.
async function nextTurn(said) {
  if (S.over) { await finishGame(); return; }
  if (S.mode === "game" && S.onRoll === "top") { await engineTurn(); return; }
  const who = S.mode === "game" ? "You" : S.onRoll === "bottom" ? "Bottom (light)" : "Top (dark)";
  if (S.cascade) {
    showLegal();
    status(`${said} ${who}: ${cascadeText()}.`);
    return;
  }
  status(`${said} ${who} to roll.`);
  await adviseCube();
}

// A game borne off (or drawn): the service's result says single, gammon or backgammon (oin, mars, koks).
async function finishGame() {
  if (S.result) { announceEnd(); return; }
  const e = S.ending;
  endGame(S.over, e.multiplier, e.ending === "draw" ? "draw" : "bore off", e.kind);
}

// The game is over: `winner` wins `multiplier` times the cube (a passed double: 1 times the cube
// before the double). In a game vs the engine the points go to the score (money or match).
function endGame(winner, multiplier, how, kind = null) {
  const points = multiplier * S.cube.value;
  S.over = winner;
  S.offer = null;
  S.result = { winner, multiplier, points, kind, how, cube: S.cube.value };
  if (S.mode === "game" && winner !== "draw") scoreGame(winner, points);
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
  const pts = `${r.points} point${r.points === 1 ? "" : "s"}`;
  const what = r.how === "bore off" ? `${r.multiplier > 1 ? `a ${r.kind}, ` : ""}${pts}` : `${pts} (${r.how})`;
  let text = r.winner === "draw" ? "Game over: a draw." : `Game over: ${who} ${what}.`;
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

// ---- the engine's turns ---------------------------------------------------------------------

// The plays that make up an engine move for /v1/turn: a gul bara cascade part or share step by step.
const playsOf = (move) => (move.cascade_steps.length ? move.cascade_steps.map((s) => s.notation) : [move.notation]);

// The engine's choice for the rest of its turn: its play of the roll (in gul bara a cascading double's
// whole part, which /v1/engine-move chooses at once given the game's rolls), or its best share of what
// the opponent's cascade handed over (/v1/handover). While the engine is busy (503), a random legal
// play (of a cascade, one step at a time).
async function engineChoice() {
  if (S.engineMode !== "random") {
    const r = S.cascade && S.cascade.handover
      ? await api("/v1/handover", { position: current(), handover: S.cascade.left })
      : await api("/v1/engine-move", { position: current(), dice: S.dice, rolls: S.rollsBefore, ...cubeful(S.onRoll) });
    if (r.ok) { S.engineMode = "engine"; return { move: r.data.move, plays: playsOf(r.data.move) }; }
    if (r.status !== 503) throw new Error(r.data.error);
    S.engineMode = "random";   // the engine is busy: fall back, and say so
    setModeLabel();
  }
  const move = S.legal[Math.floor(Math.random() * S.legal.length)];
  return { move, plays: [move.index] };
}

// The engine plays while it is on roll: a normal turn, its part of its own cascade, or its share of yours.
async function engineTurn() {
  S.busy = true;
  const said = [];
  try {
    while (S.onRoll === "top" && !S.over) {
      const game = S.game;   // should another game replace this one meanwhile, the engine stops
      if (S.phase === "roll") {
        if (!S.cubeAsked) {
          S.cubeAsked = true;
          status("Engine thinking about the cube...");
          const doubles = await engineDoubles();
          if (S.game !== game) return;
          if (doubles) {
            S.offer = { by: "top" };
            S.busy = false;
            draw();
            status(`The engine doubles to ${2 * S.cube.value}. Take or pass?`);
            return;
          }
        }
        if (!(await turn({ game: S.game, action: { roll: randomDice() } }))) return;   // a new game overtook it
      }
      draw();
      status("Engine thinking...");
      const dice = S.dice, rolled = S.game;
      const { move, plays } = await engineChoice();
      S.moves = [move]; S.selected = 0; S.kind = S.engineMode === "random" ? "random reply" : "engine reply";
      showMoves();
      draw();
      await new Promise((done) => setTimeout(done, 350));   // let the arrows show before the checkers move
      if (S.game !== rolled || !(await turn({ game: S.game, action: { plays } }))) return;
      said.push(described(dice, move));
      S.log.push(`top: ${described(dice, move)}`);
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

// ---- new games ------------------------------------------------------------------------------

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
  resetGame();   // at once: nothing of the game before stays shown while the service answers
  showCube();
  const [first, second] = onRoll === "bottom" ? [bottom, top] : [top, bottom];
  const t = await tryTurn({ new: { position: jsonPosition(variant, {}, first, second), turn: seatOf(onRoll) } });
  if (!t) return;
  S.match = { ...freshMatch(match.length || 0), ...match, score: { bottom: 0, top: 0, ...(match.score || {}) } };
  if ([...$("match-length").options].some((o) => Number(o.value) === S.match.length)) $("match-length").value = String(S.match.length);
  S.cube = { value: cube.value, owner: cube.owner || null };
  setModeLabel();
  draw();
  await nextTurn("Game set up.");
}

async function init() {
  const dieSelects = [$("d1"), $("d2")];
  for (const s of dieSelects) for (let d = 1; d <= 6; d++) s.appendChild(new Option(String(d), String(d)));
  $("d1").value = "3"; $("d2").value = "1";
  for (const s of dieSelects) s.addEventListener("change", fetchMoves);
  $("roll").addEventListener("click", () => withDice(randomDice(), async () => showLegal()));
  $("show-moves").addEventListener("click", fetchMoves);
  $("hint").addEventListener("click", () => withDice(chosenDice(), fetchHint));
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
    $("position-text").value = JSON.stringify(current());
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

// rigDice: tests and demos give the dice of the next random rolls (the Roll button and the engine's rolls).
const rigDice = (dice) => { S.riggedDice.push(...dice); };

window.tavlaBoard = { state: S, newGame, play, select, fetchMoves, fetchHint, readPosition, setupGame, humanDouble, answerDouble, rigDice };
document.addEventListener("DOMContentLoaded", init);
