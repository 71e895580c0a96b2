// The tavla web board: an SVG board driven by the service's /v1 routes. Plain JavaScript, no build.
// The game's flow is the service's: in analysis every roll and play goes to /v1/turn (tavla.Game); a game
// vs the engine is a match or money session on /v1/match-turn (tavla.Match), whose answers say the score,
// the Crawford game, the cube and which cube actions are legal. The board keeps no rules of its own: it
// sends the action and draws the answer.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

// Board geometry (SVG units): two halves of six points each side of the bar, a tray on the right.
const G = { left: 30, pointW: 46, barW: 44, top: 20, bottom: 480, pointH: 190, r: 21, trayX: 676 };
G.rightStart = G.left + 6 * G.pointW + G.barW;
G.barX = G.left + 6 * G.pointW + G.barW / 2;

// The variants on short backgammon's board (opposite directions, a bar); the last two keep a reserve.
const BACKGAMMON_BOARD = ["backgammon", "dutch", "acey_deucey"];
const hasReserve = (variant) => variant === "dutch" || variant === "acey_deucey";

const S = {
  variant: "backgammon", rules: {},
  bottom: null, top: null,   // each side's 25 counts in its own numbering (index 24 = bar)
  reserve: { bottom: 0, top: 0 },   // Dutch backgammon and acey-deucey: checkers not yet entered
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
  extraRoll: false,          // acey-deucey: the side on roll rolls again after a 1-2 played in full
  ending: null,              // the game's result as answered, once over
  turnAsked: 0,              // counts /v1/turn questions, so that only the latest answer is applied
  rolling: false,            // a roll is on its way to the service
  asked: 0,                  // counts questions for the moves list, so only the latest answer is shown
  riggedDice: [],            // tests and demos: dice the next random rolls use, in order
  // A game vs the engine: the match record /v1/match-turn last answered and the rest of that answer (the
  // score, Crawford, the cube, the legal actions); null in analysis.
  matchRecord: null,
  match: null,
  offer: null,               // a double on offer, as the answer says: {by: "bottom"|"top"}
  cubeAsked: false,          // the engine has made its cube decision for this turn
  advice: null,              // the latest /v1/cube answer for the side on roll, before its roll
  adviceAsked: 0,
  result: null,              // how the game ended: {winner, points, multiplier, kind, how}
  pips: null,                // {bottom, top}
  review: null,              // a match review: {file, result (the analysis), at (the decision shown)}
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
// The board keeps each side as 25 counts in its own numbering, the bar last; `reserve` the two sides'
// reserves, in the same order (the reserve games only).
function jsonPosition(variant, rules, first, second, reserve = [0, 0]) {
  const position = { variant, rules, checkers: [first.slice(0, 24), second.slice(0, 24)], bar: [first[24], second[24]] };
  if (hasReserve(variant)) position.reserve = reserve;
  return position;
}
const sideCounts = (position, k) => [...position.checkers[k], position.bar[k]];

function positionFor(side) {
  const other = side === "bottom" ? "top" : "bottom";
  return jsonPosition(S.variant, S.rules, S[side], S[other], [S.reserve[side], S.reserve[other]]);
}

const current = () => positionFor(S.onRoll);

// ---- point numbering ------------------------------------------------------------------------

// The point a side calls p, in the bottom player's numbering (RULES.md: backgammon runs the
// other way round; in nardy and gul bara both run the same way, half a board apart).
function shown(side, p) {
  if (side === "bottom") return p;
  if (BACKGAMMON_BOARD.includes(S.variant)) return 25 - p;
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

// Where an arrow for a side's step starts or ends: a point, the bar (25), the reserve (26, drawn in the
// tray) or the tray (0).
function anchor(side, p) {
  if (p === 25) return [G.barX, side === "bottom" ? 330 : 170];
  if (p === 26) return [G.trayX, side === "bottom" ? 300 : 200];
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
  svg.dataset.position = JSON.stringify({ bottom: S.bottom, top: S.top, onRoll: S.onRoll, reserve: S.reserve });
  showScore();
  showCube();
}

// The cube sits on the bar: in the middle while centered, at its owner's end once turned; a double on
// offer is drawn at the doubled value in the doubler's half of the board.
function drawCube(svg) {
  const c = cubeShown();
  let x = G.barX - 18, y = 232, value = c.value, where = c.owner || "centered";
  if (S.offer) {
    x = (S.offer.by === "bottom" ? G.rightStart : G.left) + 3 * G.pointW - 18;
    value = c.value * 2;   // the cube is drawn turned to the value offered
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
  const reserve = S.reserve[side];
  const off = 15 - counts.reduce((a, b) => a + b, 0) - reserve;
  for (let i = 0; i < off; i++) {
    const y = side === "bottom" ? G.bottom - 12 - i * 12 : G.top + 2 + i * 12;
    el("rect", { class: `checker ${sideClass(side)}`, x: G.trayX - 20, y, width: 40, height: 10, rx: 3 }, svg);
  }
  if (off) el("text", { class: "offtext", x: G.trayX, y: side === "bottom" ? 268 : 238 }, svg, `${off} off`);
  if (reserve) {
    checker(svg, side, G.trayX, side === "bottom" ? 300 : 200, reserve);
    el("text", { class: "offtext reserve", x: G.trayX, y: side === "bottom" ? 334 : 172 }, svg, "reserve");
  }
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

// The cube as the last match answer says it (value, owner as a side); centered at 1 in analysis.
function cubeShown() {
  const c = S.match && S.match.cube;
  return c ? { value: c.value, owner: c.owner === null ? null : sideOf(c.owner) } : { value: 1, owner: null };
}

// The score line under the board: the score and match length (or money), the Crawford game, the cube,
// the pip counts; all as the last /v1/match-turn answer says.
function showScore() {
  const m = S.match;
  if (!m) {
    $("score").textContent = S.mode === "game" ? "" : "money game";
    $("crawford").textContent = "";
  } else {
    const score = `${sideName("bottom")} ${m.score[0]} : ${m.score[1]} ${sideName("top")}`;
    $("score").textContent = m.money ? `money game; ${score}` : `${score}, match to ${m.match_length}`;
    $("crawford").textContent = m.match_over ? "" : m.crawford ? "Crawford game" : m.next_is_crawford
      ? "next game: Crawford" : m.post_crawford ? "post-Crawford" : "";
  }
  $("pips").textContent = S.pips ? `pips: ${sideName("bottom")} ${S.pips.bottom}, ${sideName("top")} ${S.pips.top}` : "";
  const c = cubeShown();
  const owner = !c.owner ? "centered" : S.mode !== "game" ? `${c.owner}'s` : c.owner === "bottom" ? "yours" : "the engine's";
  $("cube-state").textContent = `cube ${c.value}, ${owner}`;
}

// The cube state for /v1/cube, /v1/hint and /v1/engine-move: in a game, the one the match answer gives
// for the player on turn; analysis asks cubeless (hints) or with a centered money cube (advice).
const cubeNow = () => (S.mode === "game" && S.match ? { cube: S.match.cube_state } : {});

// Whether the last match answer allows `action` now (a game vs the engine only).
const allows = (action) => S.mode === "game" && S.match !== null && S.match.actions.includes(action);
const humanOnTurn = () => S.match !== null && sideOf(S.match.turn) === "bottom";
const humanDecides = () => S.match !== null && S.match.decider !== null && sideOf(S.match.decider) === "bottom";
const canHumanDouble = () => !S.busy && S.engineAvailable && humanOnTurn() && allows("double");
const canHumanAnswer = (action) => !S.busy && humanDecides() && allows(action);

// The cube panel: the engine's advice for the side on roll, and Double / Take / Pass / Beaver / Next game,
// each enabled exactly when the match answer lists the action (and it is the human's to take).
function showCube() {
  const a = S.advice && S.advice.side === S.onRoll && S.phase === "roll" && !S.over ? S.advice : null;
  const box = $("cube-advice");
  box.replaceChildren();
  if (S.offer && S.offer.by === "top") {
    const v = S.match.cube.value;
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
  const game = S.mode === "game" && S.match !== null, m = S.match;
  const double = $("double");
  double.hidden = !game;
  double.disabled = !canHumanDouble();
  double.title = !game ? "" : !humanOnTurn() ? "the engine is on turn" : m.why_no_double || "";
  double.textContent = game && m.cube.owner !== null ? `Redouble to ${2 * m.cube.value}` : `Double to ${game ? 2 * m.cube.value : 2}`;
  for (const [id, action] of [["take", "take"], ["pass", "drop"], ["beaver", "beaver"]]) {
    $(id).hidden = !game || (action === "beaver" && !m.cube.beaver);
    $(id).disabled = !canHumanAnswer(action);
  }
  $("beaver").title = game && humanDecides() ? m.why_no_beaver || "" : "";
  $("next-game").hidden = !allows("next_game");
}

// The engine's cube advice for the side on roll, before its roll (shown in the cube panel).
async function adviseCube() {
  if (S.over || S.phase !== "roll" || !S.bottom) return;
  const side = S.onRoll, token = ++S.adviceAsked;
  const r = await api("/v1/cube", { position: current(), ...cubeNow() });
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

// ---- the game's flow: /v1/turn (analysis) and /v1/match-turn (a game vs the engine) ------------

const TURN = "/v1/turn", MATCH_TURN = "/v1/match-turn";

const otherSide = (side) => (side === "bottom" ? "top" : "bottom");
const sideOf = (seat) => (seat === 0 ? "bottom" : "top");
const seatOf = (side) => (side === "bottom" ? 0 : 1);

// A new game's board: the cube, the offer, the advice and the result start afresh.
function resetGame() {
  S.over = null; S.result = null; S.busy = false;
  S.offer = null; S.cubeAsked = false; S.advice = null; S.pips = null;
}

// The game (analysis) or the match (vs the engine) as last answered, with an action, for turn().
const withAction = (action) => (S.matchRecord ? { match: S.matchRecord, action } : { game: S.game, action });

// The service's answer is the game now: the record to send back, whose turn it is, the position from that
// side, the dice (a cascade step's number shown on both), the legal plays, the cascade, the result.
function applyTurn(t, fresh) {
  if (fresh) resetGame();
  const mover = sideOf(t.turn), other = otherSide(mover);
  // The state token: the game record, or in a game vs the engine the match record (whose answer also
  // says the score, the Crawford game, the cube and the legal actions, kept in S.match).
  S.game = t.match !== undefined ? t.match : t.game;
  S.matchRecord = t.match !== undefined ? t.match : null;
  if (t.match !== undefined) {
    const { match, ...rest } = t;
    S.match = rest;
    S.offer = t.double_offered ? { by: mover } : null;
  } else S.match = null;
  S.phase = t.phase;
  S.variant = t.variant;
  S.rules = t.position.rules;
  S.onRoll = mover;
  S[mover] = sideCounts(t.position, 0);
  S[other] = sideCounts(t.position, 1);
  const reserve = t.position.reserve || [0, 0];
  S.reserve = { [mover]: reserve[0], [other]: reserve[1] };
  S.pips = { [mover]: t.pips[0], [other]: t.pips[1] };
  setDice(t.cascade_step ? [t.cascade_step[0], t.cascade_step[0]] : t.dice);
  S.cascade = t.cascade_step ? { step: t.cascade_step, left: t.cascade_left, handover: t.is_cascade_handover } : null;
  S.rollsBefore = t.rolls_before;
  S.extraRoll = Boolean(t.is_extra_roll);
  S.legal = t.moves.map((m, index) => ({ ...m, index }));
  S.ending = t.result;
  if (t.over && !S.over) S.over = t.result.winner === null ? "draw" : sideOf(t.result.winner);
  if (t.phase === "roll") {
    S.beforeRoll = withAction(undefined);
    S.cubeAsked = false;   // a new turn: its player may double before rolling
  } else if (fresh) {
    // A position loaded with its dice: other dice replay the position without them.
    S.beforeRoll = { new: { position: t.position, turn: t.turn, rolls: t.rolls_before } };
  }
  $("variant").value = S.variant;
  clearMoves();
}

// One question to /v1/turn (or /v1/match-turn, for a match record or a new match), its answer applied; null
// for an answer that a later question overtook. A refused action throws with the service's message.
async function turn(body, route = body.match !== undefined ? MATCH_TURN : TURN) {
  const token = ++S.turnAsked;
  S.asked++;   // a moves list or hints still on their way are for the game before
  const r = await api(route, body);
  if (token !== S.turnAsked) return null;
  if (!r.ok) throw new Error(r.data.error);
  applyTurn(r.data, body.new !== undefined || Boolean(body.action && body.action.next_game));
  return r.data;
}

// As turn, saying what went wrong in the status line instead of throwing.
async function tryTurn(body, route) {
  try {
    return await turn(body, route);
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
  if (S.phase === "roll" || S.phase === "opening_roll") return !(S.mode === "game" && S.rolling);
  return S.phase === "move" && S.mode === "analyse" && S.beforeRoll !== null;
}

// Roll for the side on roll (the opening roll-off of a game that begins with one: the dice are each
// player's die); in analysis other dice for a roll already entered replay the turn before it.
async function rollDice(dice) {
  const base = S.phase === "move" ? S.beforeRoll : withAction(undefined);
  S.rolling = true;
  try {
    return await tryTurn({ ...base, action: { roll: dice } });
  } finally {
    S.rolling = false;
  }
}

const awaitingAnswer = () => {
  if (S.offer) status(humanDecides() ? "Answer the double first: take or pass." : "The engine is answering the double.", true);
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
  const r = await api("/v1/hint", { position: current(), dice: S.dice, top: 10, rolls: S.rollsBefore, ...cubeNow() });
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


// What a play was, for the log and the status line: the dice and the play (a cascade part names its own).
const described = (dice, move) => (move.cascade_steps && move.cascade_steps.length ? move.notation
  : `${dice ? dice.join("-") + " " : ""}${move.notation}`);

// Play the selected move (or cascade step) for the side on roll: a legal play by its index, a hint by its
// notation; the service answers whose turn it is next.
async function play() {
  if (S.selected < 0 || !canHumanMove()) return;
  const move = S.moves[S.selected], mover = S.onRoll, dice = S.dice;
  S.busy = true;
  const t = await tryTurn(withAction({ play: move.index !== undefined ? move.index : move.notation }));
  S.busy = false;
  if (!t) { showMoves(); return; }
  S.log.push(`${mover}: ${described(dice, move)}`);
  await nextTurn(`Played ${move.notation}.`);
}

// Whose move now: the engine's (in a game), a cascade step to list, or a roll to wait for.
async function nextTurn(said) {
  if (S.over) { await finishGame(); return; }
  if (S.phase === "opening_roll") { status(`${said} Roll for who starts.`); return; }
  if (S.mode === "game" && S.onRoll === "top") { await engineTurn(); return; }
  const who = S.mode === "game" ? "You" : S.onRoll === "bottom" ? "Bottom (light)" : "Top (dark)";
  if (S.cascade) {
    showLegal();
    status(`${said} ${who}: ${cascadeText()}.`);
    return;
  }
  status(`${said} ${who} to roll${S.extraRoll ? " again (the 1-2 was played in full)" : ""}.`);
  await adviseCube();
}

// The game is over: the service's result says who won, how (single, gammon or backgammon; oin, mars, koks;
// a passed double; a draw) and the points; a match answer says the score and whether the match is won.
function finishGame(how = null) {
  const e = S.ending;
  S.over = e.winner === null ? "draw" : sideOf(e.winner);
  S.offer = null;
  S.result = { winner: S.over, multiplier: e.multiplier, points: e.points, kind: e.kind, cube: e.cube,
    how: how || (e.ending === "draw" ? "draw" : e.ending === "cube_passed" ? "the double was passed" : "bore off") };
  draw();
  announceEnd();
}

function announceEnd() {
  const r = S.result;
  const who = S.mode === "game" ? (r.winner === "bottom" ? "You win" : "The engine wins") : `${r.winner} wins`;
  const pts = `${r.points} point${r.points === 1 ? "" : "s"}`;
  const what = r.how === "bore off" ? `${r.multiplier > 1 ? `a ${r.kind}, ` : ""}${pts}` : `${pts} (${r.how})`;
  let text = r.winner === "draw" ? "Game over: a draw." : `Game over: ${who} ${what}.`;
  const m = S.match;
  if (m && !m.money) {
    text += ` Score ${m.score[0]} : ${m.score[1]} of ${m.match_length}.`;
    if (m.match_over) text += sideOf(m.winner) === "bottom" ? " You win the match." : " The engine wins the match.";
    else text += m.next_is_crawford ? " Next game: Crawford." : " Next game when you are ready.";
  }
  status(text);
  showMoves();
  showCube();
}

// ---- the cube in a game ---------------------------------------------------------------------
// Every cube action is the match's (/v1/match-turn says which are legal); the engine's decisions, on its
// own turn and in answer to yours, are /v1/cube's for the cube state the match answer gives.

// Before its roll the engine doubles when the match allows it and /v1/cube says it should.
async function engineDoubles() {
  if (!S.engineAvailable || !allows("double")) return false;
  const r = await api("/v1/cube", { position: current(), ...cubeNow() });
  if (r.status === 503) return false;
  if (!r.ok) throw new Error(r.data.error);
  return r.data.should_double;
}

// You double: the match offers it, and the engine answers by /v1/cube asked from your side (it beavers
// when it should and the match allows it, else takes or passes).
async function humanDouble() {
  if (!canHumanDouble()) return;
  const value = 2 * S.match.cube.value;
  S.busy = true;
  if (!(await tryTurn(withAction({ double: true })))) { S.busy = false; showCube(); return; }
  status(`You double to ${value}. The engine is thinking...`);
  const r = await api("/v1/cube", { position: current(), ...cubeNow() });
  if (!r.ok) {
    S.busy = false;
    status(`The engine could not answer the double: ${r.data.error}`, true);
    return;
  }
  const answer = r.data.should_beaver && allows("beaver") ? "beaver" : r.data.should_take ? "take" : "drop";
  const t = await tryTurn(withAction({ [answer]: true }));
  S.busy = false;
  if (!t) return;
  S.log.push(`bottom: doubles to ${value}; top: ${answer === "drop" ? "passes" : answer === "beaver" ? "beavers" : "takes"}`);
  S.advice = null;
  if (t.over) { finishGame("the engine passed the double"); return; }
  draw();
  const c = t.cube;
  status(answer === "beaver" ? `The engine beavers: the cube is at ${c.value}, the engine's. Roll.`
    : `The engine takes: the cube is at ${c.value}, the engine's. Roll.`);
  showCube();
  await adviseCube();
}

// Your answer to the engine's double: "take" (the cube is yours at the doubled value, the engine rolls
// on), "beaver" (money play with beavers) or "drop" (the engine wins the cube's value before the double).
async function answerDouble(answer) {
  if (!canHumanAnswer(answer)) return;
  const value = 2 * S.match.cube.value;
  S.busy = true;
  const t = await tryTurn(withAction({ [answer]: true }));
  S.busy = false;
  if (!t) { showCube(); return; }
  S.log.push(`top: doubles to ${value}; bottom: ${answer === "drop" ? "passes" : answer === "beaver" ? "beavers" : "takes"}`);
  if (t.over) { finishGame("you passed the double"); return; }
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
      : await api("/v1/engine-move", { position: current(), dice: S.dice, rolls: S.rollsBefore, ...cubeNow() });
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
            if (!(await turn(withAction({ double: true })))) return;
            S.busy = false;
            draw();
            showCube();
            status(`The engine doubles to ${2 * S.match.cube.value}. ${allows("beaver") ? "Take, beaver or pass?" : "Take or pass?"}`);
            return;
          }
        }
        if (!(await turn(withAction({ roll: randomDice() })))) return;   // a new game overtook it
      }
      draw();
      status("Engine thinking...");
      const dice = S.dice, rolled = S.game;
      const { move, plays } = await engineChoice();
      S.moves = [move]; S.selected = 0; S.kind = S.engineMode === "random" ? "random reply" : "engine reply";
      showMoves();
      draw();
      await new Promise((done) => setTimeout(done, 350));   // let the arrows show before the checkers move
      if (S.game !== rolled || !(await turn(withAction({ plays })))) return;
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

// The settings of a new game vs the engine, from the page: a match (length, Crawford) or money play
// (Jacoby, beaver), the cube's limit. The service checks them.
function matchSettings() {
  const length = Number($("match-length").value);
  const limit = $("max-cube").value;
  const settings = { match_length: length, ...(limit === "off" ? { cube: false } : { max_cube: Number(limit) }) };
  if (length) settings.crawford = $("crawford-rule").checked;
  else { settings.jacoby = $("jacoby").checked; settings.beaver = $("beaver-rule").checked; }
  return settings;
}

// The settings shown are those of the kind of play chosen: Crawford for a match, Jacoby and beaver for money.
function showSettings() {
  const money = Number($("match-length").value) === 0;
  $("crawford-setting").hidden = money;
  $("jacoby-setting").hidden = !money;
  $("beaver-setting").hidden = !money;
}

// A new game: vs the engine a new match or money session (/v1/match-turn) with the page's settings; the
// next game of a match is the match's own next_game.
async function newGame(mode) {
  S.mode = mode;
  S.engineMode = null;
  S.log = [];
  S.variant = $("variant").value;
  S.matchRecord = null; S.match = null;
  const t = mode === "game"
    ? await tryTurn({ new: { position: { variant: S.variant }, ...matchSettings() } }, MATCH_TURN)
    : await tryTurn({ new: { position: { variant: S.variant }, turn: 0 } }, TURN);
  if (!t) return;
  setModeLabel();
  draw();
  if (mode !== "game") {
    status("Start position. Roll or enter dice.");
    await adviseCube();
    return;
  }
  status(`New game: you are the light checkers at the bottom.${stakeText()} Roll.`);
  await adviseCube();
}

const stakeText = () => {
  const m = S.match;
  return m.money ? " Money game." : ` Match to ${m.match_length}, ${m.score[0]} : ${m.score[1]}${m.crawford ? ", the Crawford game" : ""}.`;
};

// The next game of the match (or money session): the match starts it, its winner (by the rules) first.
async function nextGame() {
  if (!allows("next_game") || S.busy) return;
  S.log = [];
  const t = await tryTurn(withAction({ next_game: true }));
  if (!t) return;
  showCube();
  await nextTurn(`Game ${t.game_number}.${stakeText()}`);
}

// Tests and demos: a game vs the engine from a given position, side on roll, cube and stakes: a match
// (match.length, match.score {bottom, top}, match.crawford: this is the Crawford game) or money play
// (cubeRules: jacoby, beaver, max_value).
async function setupGame({ variant = "backgammon", bottom, top, onRoll = "bottom", cube = { value: 1, owner: null },
  match = {}, cubeRules = {} }) {
  S.mode = "game";
  S.engineMode = null;
  S.log = [];
  resetGame();   // at once: nothing of the game before stays shown while the service answers
  S.matchRecord = null; S.match = null;
  showCube();
  const position = { ...jsonPosition(variant, {}, bottom, top), turn: seatOf(onRoll),
    cube: { value: cube.value, owner: cube.owner ? seatOf(cube.owner) : null },
    match_length: match.length || 0, cube_rules: cubeRules };
  if (match.length) {
    position.score = [(match.score || {}).bottom || 0, (match.score || {}).top || 0];
    position.crawford = Boolean(match.crawford);
  }
  const t = await tryTurn({ new: { position } }, MATCH_TURN);
  if (!t) return;
  if ([...$("match-length").options].some((o) => Number(o.value) === t.match_length)) $("match-length").value = String(t.match_length);
  showSettings();
  setModeLabel();
  draw();
  await nextTurn("Game set up.");
}

// ---- match review: a match file analysed by the service (/v1/analyses), then stepped through --------

async function analyseMatch() {
  const file = $("match-file").files[0];
  if (!file) { status("Choose a .mat match file first.", true); return; }
  const text = await file.text();
  const started = await api("/v1/analyses", { mat: text, ply: Number($("review-ply").value), decisions: true });
  if (!started.ok) { status(`Cannot analyse ${file.name}: ${started.data.error}`, true); return; }
  let job = started.data;
  $("analyse-match").disabled = true;
  try {
    while (job.state === "queued" || job.state === "running") {
      status(`Analysing ${file.name}: game ${job.done} of ${job.total || "?"}...`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const polled = await api(`/v1/analyses/${job.id}`);
      if (!polled.ok) { status(`The analysis was lost: ${polled.data.error}`, true); return; }
      job = polled.data;
    }
  } finally {
    $("analyse-match").disabled = false;
  }
  if (job.state !== "done") { status(`The analysis ${job.state}: ${job.error}`, true); return; }
  S.review = { file: file.name, result: job.result, at: -1 };
  showReviewSummary();
  await stepReview(1);
}

// The decisions the review steps through: every one, or those gnubg would mark.
function reviewed() {
  const all = S.review ? S.review.result.decisions : [];
  return $("review-errors").checked ? all.filter((d) => d.mark) : all;
}

function showReviewSummary() {
  const r = S.review.result;
  const match = r.match_length ? `${r.match_length}-point match` : "money session";
  const rows = r.players.map((p) => `${p.name}: PR ${p.pr.toFixed(1)}, error rate ${p.error_rate.toFixed(1)}, `
    + `luck ${fmt(p.luck)}`);
  $("review-summary").textContent = `${S.review.file}: ${match}, ${r.final_score.join("-")}. ${rows.join("; ")}.`;
}

// Shows the decision `step` places on from the current one (in the reviewed list).
async function stepReview(step) {
  const list = reviewed();
  if (!S.review || !list.length) {
    $("review-decision").textContent = S.review ? "No decision to show (no errors marked)." : "";
    $("review-at").textContent = "";
    $("review-prev").disabled = $("review-next").disabled = true;
    return;
  }
  const at = Math.max(0, Math.min(list.length - 1, S.review.at + step));
  S.review.at = at;
  const d = list[at];
  S.mode = "analyse";
  setModeLabel();
  if (await readPosition({ position: d.position }, d.player)) {
    // Select the played move: its arrows show what was played, the best one is named beside it.
    const played = S.legal.findIndex((m) => m.notation === d.played);
    if (played >= 0) select(played);
  }
  const name = S.review.result.players[d.player].name;
  const dice = d.dice ? ` ${d.dice[0]}${d.dice[1]}` : "";
  const verdict = d.error > 0 ? `, -${d.error.toFixed(3)}${d.mark ? ` (${d.mark})` : ""}; best ${d.best}` : " (best)";
  $("review-decision").textContent = `Game ${d.game}, ${name}${dice}: ${d.played}${verdict}`;
  $("review-at").textContent = `${at + 1} / ${list.length}`;
  $("review-prev").disabled = at === 0;
  $("review-next").disabled = at === list.length - 1;
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
  $("take").addEventListener("click", () => answerDouble("take"));
  $("pass").addEventListener("click", () => answerDouble("drop"));
  $("beaver").addEventListener("click", () => answerDouble("beaver"));
  $("next-game").addEventListener("click", nextGame);
  $("match-length").addEventListener("change", showSettings);
  showSettings();
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
  $("analyse-match").addEventListener("click", analyseMatch);
  $("review-prev").addEventListener("click", () => stepReview(-1));
  $("review-next").addEventListener("click", () => stepReview(1));
  $("review-errors").addEventListener("change", () => { if (S.review) { S.review.at = -1; stepReview(1); } });
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

window.tavlaBoard = { state: S, newGame, nextGame, play, select, fetchMoves, fetchHint, readPosition, setupGame, humanDouble,
  answerDouble, rigDice };
document.addEventListener("DOMContentLoaded", init);
