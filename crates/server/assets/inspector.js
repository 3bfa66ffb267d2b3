// The chaff inspector: asks /v1/inspect for a page made safe to show and its labels, shows
// the page in a frame sandboxed without scripts, tints its nodes by role and score, and
// explains the node under the pointer. Everything from the page is written as text, never
// as markup.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
let nodes = new Map();
let last = null;
let timer = 0;

// Tints written into the shown page: a region's first node of a role, shaded by its score.
const TINT = `
[data-chaff-tint=template] { background-color: rgb(220 40 40 / calc(0.18 + var(--chaff-score, 1) * 0.32)) !important; outline: 1px dashed rgb(190 0 0 / 0.7) !important; }
[data-chaff-tint=menu] { background-color: rgb(235 150 0 / calc(0.2 + var(--chaff-score, 1) * 0.3)) !important; outline: 1px dashed rgb(190 110 0 / 0.8) !important; }
[data-chaff-tint=comment] { background-color: rgb(60 110 220 / calc(0.18 + var(--chaff-score, 1) * 0.3)) !important; outline: 1px dashed rgb(30 70 190 / 0.7) !important; }
chaff-t[data-chaff-tint=content] { background-color: rgb(40 170 80 / 0.22) !important; }
[data-chaff-hover] { outline: 2px solid #2060ff !important; outline-offset: -1px; }
`;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function status(msg, error) {
  const s = $('status');
  s.textContent = msg;
  s.className = error ? 'error' : 'muted';
}

function request() {
  const body = {};
  const page = $('page').value;
  if (page !== '') body.page = Number(page);
  else body.html = $('html').value;
  const url = $('url').value.trim();
  if (url && page === '') body.url = url;
  const boxes = [...document.querySelectorAll('input[name=method]')];
  if (boxes.some((b) => !b.checked)) body.methods = boxes.filter((b) => b.checked).map((b) => b.value);
  if ($('classifier').value !== 'content') body.classifier = $('classifier').value;
  if ($('menu').checked) body.menu = true;
  if ($('own-threshold').checked) body.threshold = Number($('threshold').value);
  return body;
}

async function inspect() {
  const body = request();
  if (body.page === undefined && !body.html) { status('Paste HTML, upload a file or pick a page.', true); return; }
  status('Extracting…');
  let r;
  try {
    r = await fetch('/v1/inspect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch (e) { status('The server did not answer: ' + e, true); return; }
  const data = await r.json().catch(() => ({ error: 'not JSON' }));
  if (!r.ok) { status(r.status + ': ' + data.error, true); return; }
  last = data;
  nodes = new Map(data.segmentation.nodes.map((n) => [n.id, n]));
  $('frame').srcdoc = data.document;
  $('text').textContent = data.text;
  $('markdown').textContent = data.markdown;
  $('metadata').textContent = JSON.stringify(data.metadata, null, 2);
  summary(data);
  methods(data.segmentation.methods);
  profile(data.site_info);
  const removed = data.segmentation.nodes.filter((n) => n.role !== 'content').length;
  status(`${data.segmentation.nodes.length} nodes, ${removed} removed`);
}

function summary(d) {
  const s = $('summary');
  s.replaceChildren();
  s.className = '';
  const t = el('table');
  const row = (k, v) => { const tr = el('tr'); tr.append(el('th', k), el('td', v)); t.append(tr); };
  row('site', d.segmentation.site);
  row('profile', d.segmentation.profile || '(none: page-level)');
  row('confidence', d.segmentation.confidence);
  if (d.segmentation.no_content) row('no content', d.segmentation.no_content);
  s.append(t);
}

function methods(list) {
  const m = $('methods');
  m.replaceChildren();
  const t = el('table');
  const head = el('tr');
  head.append(el('th', 'method'), el('th', 'scope'), el('th', 'say'));
  t.append(head);
  for (const v of list) {
    const tr = el('tr');
    const say = v.abstained ? 'abstained: ' + v.abstained
      : `${v.covered} nodes (${v.meaning})` + (v.informed_by && v.informed_by.length ? ', weighing ' + v.informed_by.join(', ') : '');
    tr.append(el('td', v.method), el('td', v.scope), el('td', say));
    t.append(tr);
  }
  m.append(t);
}

function profile(info) {
  const p = $('profile');
  p.replaceChildren();
  if (!info) { p.className = 'muted'; p.textContent = 'No profile applied.'; return; }
  p.className = '';
  p.append(el('div', info.summary));
  if (info.forest_xpath) { const d = el('div', 'FOREST XPath: '); d.append(el('code', info.forest_xpath)); p.append(d); }
  if (info.histogram) p.append(histogram(info.histogram));
  if (info.expressions.length) {
    p.append(el('div', `Suffix expressions (${info.expressions.length}):`));
    const ol = el('ol');
    for (const e of info.expressions.slice(0, 500)) ol.append(el('li', e));
    p.append(ol);
  }
}

// The document-frequency histogram (log-scaled counts) with its cutoff, as SVG.
function histogram(h) {
  const w = 300, hh = 90, n = h.counts.length || 1;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${hh + 14}`);
  svg.setAttribute('width', w);
  svg.setAttribute('id', 'histogram');
  const max = Math.log1p(Math.max(1, ...h.counts));
  h.counts.forEach((c, i) => {
    const bh = (Math.log1p(c) / max) * hh;
    const r = document.createElementNS(SVG, 'rect');
    r.setAttribute('x', (i * w) / n);
    r.setAttribute('y', hh - bh);
    r.setAttribute('width', Math.max(1, w / n - 0.5));
    r.setAttribute('height', bh);
    r.setAttribute('fill', i >= h.cutoff ? '#c33' : '#689');
    svg.append(r);
  });
  const x = (h.cutoff * w) / n;
  const line = document.createElementNS(SVG, 'line');
  for (const [k, v] of [['x1', x], ['x2', x], ['y1', 0], ['y2', hh], ['stroke', '#000'], ['stroke-dasharray', '3 2']]) line.setAttribute(k, v);
  svg.append(line);
  const label = document.createElementNS(SVG, 'text');
  label.setAttribute('x', 2);
  label.setAttribute('y', hh + 12);
  label.setAttribute('font-size', 10);
  label.textContent = `document share 0–100% of ${h.documents} pages; cutoff at bin ${h.cutoff}`;
  svg.append(label);
  const box = el('div');
  box.append(el('div', 'Document-frequency histogram:'), svg);
  return box;
}

// A structural selector for elements the server gave none.
function path(e) {
  const parts = [];
  for (let x = e; x && x.nodeType === 1 && x.localName !== 'html'; x = x.parentElement) {
    if (x.localName === 'chaff-t') continue;
    let i = 1;
    for (let s = x.previousElementSibling; s; s = s.previousElementSibling) if (s.localName !== 'chaff-t') i++;
    parts.unshift(`${x.localName}:nth-child(${i})`);
  }
  return parts.join(' > ');
}

function tint() {
  const doc = $('frame').contentDocument;
  if (!doc || !last) return;
  const style = doc.createElement('style');
  style.textContent = TINT;
  (doc.head || doc.documentElement).append(style);
  for (const e of doc.querySelectorAll('[data-chaff-id]')) {
    const n = nodes.get(Number(e.getAttribute('data-chaff-id')));
    if (!n) continue;
    e.setAttribute('data-chaff-role', n.role);
    e.style.setProperty('--chaff-score', n.score);
    const parent = n.parent !== null ? nodes.get(n.parent) : null;
    // A region is tinted once, at its top node; kept text is tinted as content.
    const top = !parent || parent.role !== n.role;
    if ((n.role !== 'content' && top) || (n.tag === '#text' && n.role === 'content')) e.setAttribute('data-chaff-tint', n.role);
  }
  doc.addEventListener('mouseover', (ev) => hover(doc, ev.target));
  doc.addEventListener('click', (ev) => ev.preventDefault(), true);
}

function hover(doc, target) {
  const e = target && target.closest ? target.closest('[data-chaff-id]') : null;
  for (const h of doc.querySelectorAll('[data-chaff-hover]')) h.removeAttribute('data-chaff-hover');
  if (!e) return;
  e.setAttribute('data-chaff-hover', '');
  const n = nodes.get(Number(e.getAttribute('data-chaff-id')));
  const box = $('node');
  box.replaceChildren();
  box.className = '';
  if (!n) { box.textContent = 'No labels for this node.'; return; }
  const t = el('table');
  t.id = 'node-table';
  const row = (k, v, cls) => { const tr = el('tr'); tr.append(el('th', k), el('td', v, cls)); t.append(tr); return tr; };
  row('node', `${n.tag} #${n.id}`);
  const elementNode = n.tag === '#text' ? e.parentElement && e.parentElement.closest('[data-chaff-id]') : e;
  const sel = n.selector || (elementNode ? (nodes.get(Number(elementNode.getAttribute('data-chaff-id'))) || {}).selector || path(elementNode) : '');
  row('selector', sel).id = 'node-selector';
  row('fused', `${n.role} (score ${n.score})`, 'role-' + n.role).id = 'node-fused';
  if (n.text) row('text', n.text.length > 200 ? n.text.slice(0, 200) + '…' : n.text);
  if (n.removed) row('removed', n.removed.map((r) => `${r[0]}–${r[1]}`).join(', '));
  const href = e.getAttribute('data-chaff-href');
  if (href) row('link to', href);
  box.append(t);
  const ev = el('table');
  ev.id = 'node-evidence';
  const head = el('tr');
  head.append(el('th', 'method'), el('th', 'score'), el('th', 'role'));
  ev.append(head);
  const names = Object.keys(n.evidence);
  for (const m of names) {
    const tr = el('tr');
    tr.setAttribute('data-method', m);
    tr.append(el('td', m), el('td', n.evidence[m].score), el('td', n.evidence[m].role, 'role-' + n.evidence[m].role));
    ev.append(tr);
  }
  const said = new Set(names);
  for (const v of (last ? last.segmentation.methods : [])) {
    if (said.has(v.method)) continue;
    const tr = el('tr');
    tr.append(el('td', v.method), el('td', v.abstained ? 'abstained' : 'no opinion'), el('td', ''));
    ev.append(tr);
  }
  box.append(el('h2', 'Evidence'), ev);
}

function later() {
  clearTimeout(timer);
  timer = setTimeout(inspect, 250);
}

async function loadPages() {
  try {
    const r = await fetch('/v1/pages');
    if (!r.ok) return;
    for (const p of await r.json()) {
      const o = el('option', p.url || p.source);
      o.value = p.index;
      $('page').append(o);
    }
  } catch (e) { /* the list stays empty */ }
}

function start() {
  $('frame').addEventListener('load', tint);
  $('go').addEventListener('click', inspect);
  $('file').addEventListener('change', async () => {
    const f = $('file').files[0];
    if (!f) return;
    $('html').value = await f.text();
    $('page').value = '';
    inspect();
  });
  $('own-threshold').addEventListener('change', () => {
    $('threshold').disabled = !$('own-threshold').checked;
    $('threshold-value').textContent = $('own-threshold').checked ? $('threshold').value : "model's";
    if (last) later();
  });
  $('threshold').addEventListener('input', () => {
    $('threshold-value').textContent = $('threshold').value;
    if (last) later();
  });
  for (const c of document.querySelectorAll('input[name=method], #menu, #classifier')) c.addEventListener('change', () => { if (last) later(); });
  $('page').addEventListener('change', () => { if ($('page').value !== '') inspect(); });
  loadPages();
}

start();
