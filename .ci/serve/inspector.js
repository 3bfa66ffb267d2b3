// End-to-end test of the inspector in headless Chromium (Debian's, driven by playwright-core):
// a news page is inspected, its template nodes are tinted, hovering a node shows each
// method's evidence, the extracted text is what `chaff extract` prints, and a screenshot is
// written; then a script-bearing page is inspected and must run nothing and load nothing from
// outside (a second loopback server its resources point at must see no request).
//
// Environment: CHAFF_URL (the server), CHAFF_BIN (the chaff binary), PLAYWRIGHT_CORE (the
// module's folder), ARTEFACTS (where the screenshot goes), CHROMIUM (default /usr/bin/chromium).
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core');

const base = process.env.CHAFF_URL;
const bin = process.env.CHAFF_BIN;
const artefacts = process.env.ARTEFACTS || 'target/artefacts';
let passed = 0;
let failed = 0;

const BRIDGE = 'The council voted on Monday to close the old bridge for repairs. Engineers found '
  + 'cracks in two of its arches last spring, and the work is expected to take most of the '
  + 'coming year. Traffic will be sent over the ring road, which the council says can carry '
  + 'the extra load. Shop owners near the bridge asked for help with the months of lost trade.';

const STORIES = [
  'Heavy rain flooded the market square on Friday and most of the shops closed early. The fire brigade pumped water out of cellars until late at night, and the market will open again on Tuesday.',
  'A local choir won the regional contest with a hymn nobody in the hall had heard before. Its director found the music in a box of papers left to the church library by a former organist.',
  'Scientists counted more herons on the river this spring than in any year since records began. They credit the cleaner water and a ban on fishing along the reedbeds below the weir.',
  'The museum reopened its east wing after a decade of careful restoration work. Visitors can again see the painted ceiling, which had been hidden behind scaffolding since the roof leaked.',
  'The farmers market will move to the station car park for the summer months while the square is repaved. Stallholders say the new site is easier to reach for people coming by train.',
  'Volunteers planted four hundred trees along the ring road on Saturday morning. The council supplied the saplings and the school lent its minibus to carry spades and water.',
];

function newsPage(title = 'Council closes the old bridge', story = BRIDGE) {
  return '<!DOCTYPE html><html><head><meta charset="utf-8"><title>' + title + ' - Example News</title></head><body>'
    + '<header><nav><ul><li><a href="/">Home</a></li><li><a href="/world">World</a></li>'
    + '<li><a href="/sport">Sport</a></li><li><a href="/weather">Weather</a></li></ul></nav></header>'
    + `<main><article><h1>${title}</h1><p>${story}</p>`
    + `<p>${story.split('. ').reverse().join('. ')}</p></article></main>`
    + '<aside><h3>Most read</h3><ul><li><a href="/a">Ten facts about herons</a></li><li><a href="/b">Choir wins</a></li></ul></aside>'
    + '<footer id="foot">Copyright Example News, all rights reserved. <a href="/privacy">Privacy</a> <a href="/contact">Contact us</a></footer>'
    + '</body></html>';
}

function hostilePage(port) {
  const o = `http://127.0.0.1:${port}`;
  return `<!DOCTYPE html><html><head><base href="${o}/base/">
<meta http-equiv="refresh" content="1;url=${o}/refresh">
<link rel="stylesheet" href="${o}/style.css"><link rel="prefetch" href="${o}/prefetch">
<link rel="icon" href="${o}/favicon.ico">
<script>window.parent.__pwned = 'inline script'; fetch('${o}/inline-script');</script>
<script src="${o}/external.js"></script>
<style>@import url("${o}/import.css"); body { background: url(${o}/background.png); }
@font-face { font-family: x; src: url(${o}/font.woff); } p { font-family: x; }</style>
</head><body onload="window.parent.__pwned = 'onload'; fetch('${o}/onload')">
<h1>A page that tries everything</h1>
<p onmouseover="window.parent.__pwned = 'mouseover'">Hover me: a paragraph with a handler.</p>
<p><a id="js" href="javascript:window.parent.__pwned='javascript link';fetch('${o}/js-link')">a javascript: link</a>
 and <a id="out" href="${o}/link">a link out</a>.</p>
<img src="${o}/image.png" onerror="window.parent.__pwned = 'onerror'; fetch('${o}/onerror')">
<img src="relative.png" srcset="${o}/srcset.png 2x">
<div style="background-image: url(${o}/div.png); width: 50px; height: 20px">styled</div>
<iframe src="${o}/iframe"></iframe><object data="${o}/object"></object><embed src="${o}/embed">
<video poster="${o}/poster.png" src="${o}/video.mp4"></video><audio src="${o}/audio.mp3" autoplay></audio>
<svg width="20" height="20"><image href="${o}/svg.png" width="20" height="20"/><script>window.parent.__pwned='svg script'</script></svg>
<form action="${o}/form"><input name="q" value="x"><button id="submit">Send</button></form>
<p>Enough words here to make a paragraph of content that the extractor can keep as the main text of this page.</p>
</body></html>`;
}

async function check(name, f) {
  try {
    await f();
    passed += 1;
    console.log(`ok - ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`not ok - ${name}\n  ${String(e.stack || e).split('\n').join('\n  ')}`);
  }
}

async function inspect(page, html) {
  if (!page.url().startsWith(base)) await page.goto(base + '/');
  if (!(await page.locator('#paste-box').evaluate((d) => d.open))) await page.locator('#paste-box summary').click();
  await page.locator('#html').fill(html);
  // Empty the frame first, so that what is waited for below is the new page.
  await page.evaluate(() => { document.getElementById('frame').srcdoc = ''; });
  await page.waitForFunction(() => !document.getElementById('frame').contentDocument.querySelector('[data-chaff-role]'));
  await page.locator('#go').click();
  await page.waitForFunction(() => /nodes/.test(document.getElementById('status').textContent));
  // The frame has loaded and been tinted.
  await page.waitForFunction(() => {
    const d = document.getElementById('frame').contentDocument;
    return d && d.querySelector('[data-chaff-role]');
  });
}

async function main() {
  // The second server: every request it gets is a failure of the sandbox.
  const outside = [];
  const trap = http.createServer((req, res) => { outside.push(req.url); res.end('x'); });
  await new Promise((r) => trap.listen(0, '127.0.0.1', r));
  const port = trap.address().port;

  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'chaff-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-dev-shm-usage'],
  });
  const page = context.pages()[0] || await context.newPage();
  const requested = [];
  page.on('request', (r) => requested.push(r.url()));
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));

  const fixtureDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaff-page-'));
  const fixture = path.join(fixtureDir, 'bridge.html');
  fs.writeFileSync(fixture, newsPage());

  await check('the inspector loads a page and tints its template nodes', async () => {
    await inspect(page, newsPage());
    const frame = page.frameLocator('#frame');
    const tinted = await frame.locator('[data-chaff-tint=template], [data-chaff-tint=menu]').count();
    assert.ok(tinted > 0, 'no template node is tinted');
    const footer = frame.locator('footer');
    assert.equal(await footer.getAttribute('data-chaff-role'), 'template');
    const bg = await footer.evaluate((e) => getComputedStyle(e).backgroundColor);
    assert.match(bg, /rgba?\(220, 40, 40/, `footer background ${bg}`);
    const kept = frame.locator('article p chaff-t').first();
    assert.equal(await kept.getAttribute('data-chaff-role'), 'content');
  });

  await check('hovering a node shows its selector, fused score and each method\'s evidence', async () => {
    await page.frameLocator('#frame').locator('footer').hover({ position: { x: 5, y: 5 } });
    await page.waitForSelector('#node-evidence');
    const fused = await page.locator('#node-fused td').textContent();
    assert.match(fused, /^(template|menu) \(score [0-9.]+\)$/);
    const selector = await page.locator('#node-selector td').textContent();
    assert.ok(selector.length > 0, 'no selector');
    const rows = await page.locator('#node-evidence tr[data-method]').count();
    assert.ok(rows >= 1, 'no method evidence shown');
    const content = await page.locator('#node-evidence tr[data-method=content] td').nth(1).textContent();
    assert.ok(!Number.isNaN(Number(content)), `content score ${content}`);
  });

  await check('the extracted text is what chaff extract prints', async () => {
    const shown = await page.locator('#text').textContent();
    const cli = execFileSync(bin, ['extract', '-q', fixture], { encoding: 'utf8' });
    assert.equal(shown.trim(), cli.trim());
    assert.match(shown, /cracks in two of its arches/);
    assert.doesNotMatch(shown, /Copyright/);
  });

  await check('moving the threshold re-extracts live', async () => {
    const before = await page.locator('#text').textContent();
    await page.locator('#own-threshold').check();
    await page.locator('#threshold').fill('1');
    await page.waitForFunction((b) => document.getElementById('text').textContent !== b, before, { timeout: 10000 });
    await page.locator('#own-threshold').uncheck();
    await page.waitForFunction((b) => document.getElementById('text').textContent === b, before, { timeout: 10000 });
  });

  await check('a site\'s profile: its pages tinted by it, its expressions, FOREST XPath and histogram shown', async () => {
    const pages = STORIES.map((story, i) => ({ url: `https://news.example.org/story-${i}`, html: newsPage(`Story ${i}`, story) }));
    const learned = await page.evaluate(async (body) => {
      const r = await fetch('/v1/learn', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, body: await r.json() };
    }, pages);
    assert.equal(learned.status, 200, JSON.stringify(learned.body));
    assert.equal(learned.body.site, 'example.org');
    const url = 'https://news.example.org/bridge';
    await page.locator('#url').fill(url);
    await inspect(page, newsPage());
    await page.locator('#profile-box summary').click();
    const profile = await page.locator('#profile').textContent();
    assert.match(profile, /example\.org: 6 pages/);
    assert.match(profile, /FOREST XPath: \//);
    assert.match(profile, /Suffix expressions \([1-9][0-9]*\)/);
    assert.equal(await page.locator('#histogram rect').count(), 100);
    assert.equal(await page.locator('#summary').textContent().then((t) => /profileexample\.org/.test(t)), true);
    const footer = page.frameLocator('#frame').locator('footer');
    assert.equal(await footer.getAttribute('data-chaff-role'), 'template');
    // The same page through `chaff extract` with the profile the server wrote.
    const shown = await page.locator('#text').textContent();
    const cli = execFileSync(bin, ['extract', '-q', '--profiles', process.env.PROFILES, '-'], {
      encoding: 'utf8', input: JSON.stringify({ url, html: newsPage() }) + '\n',
    });
    assert.equal(shown.trim(), cli.trim());
    assert.match(shown, /cracks in two of its arches/);
  });

  await check('a screenshot is written', async () => {
    await page.locator('#paste-box summary').click();
    await page.frameLocator('#frame').locator('footer').hover({ position: { x: 5, y: 5 } });
    fs.mkdirSync(artefacts, { recursive: true });
    const file = path.join(artefacts, 'inspector.png');
    await page.screenshot({ path: file, fullPage: false });
    assert.ok(fs.statSync(file).size > 10000);
  });

  await check('a script-bearing page runs nothing and loads nothing from outside', async () => {
    const title = 'chaff inspector';
    await inspect(page, hostilePage(port));
    const frame = page.frameLocator('#frame');
    await frame.locator('p').nth(0).hover();
    await frame.locator('#js').click();
    await frame.locator('#out').click();
    await frame.locator('#submit').click();
    await page.waitForTimeout(2500);
    assert.equal(await page.evaluate(() => window.__pwned), undefined, 'page script ran');
    assert.equal(await page.title(), title);
    assert.deepEqual(outside, [], `the page reached the outside server: ${outside.join(', ')}`);
    const origin = new URL(base).origin;
    const foreign = requested.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('about:'));
    assert.deepEqual(foreign, [], 'requests outside the inspector');
    // The frame is still the inspected page (no navigation away).
    assert.equal(await frame.locator('h1').textContent(), 'A page that tries everything');
  });

  await check('even unneutralised, the sandboxed frame under the inspector\'s policy runs and loads nothing', async () => {
    // The server's neutralisation bypassed: the raw page straight into the frame, so that
    // only the sandbox, the inherited Content-Security-Policy and the inspector's click
    // guard stand between it and the outside.
    await page.evaluate((html) => { document.getElementById('frame').srcdoc = html; }, hostilePage(port));
    const frame = page.frameLocator('#frame');
    await frame.locator('h1').waitFor();
    await frame.locator('p').nth(0).hover();
    await frame.locator('#js').click();
    await frame.locator('#out').click();
    await frame.locator('#submit').click();
    await page.waitForTimeout(2500);
    assert.equal(await page.evaluate(() => window.__pwned), undefined, 'page script ran');
    assert.deepEqual(outside, [], `the raw page reached the outside server: ${outside.join(', ')}`);
    assert.equal(await frame.locator('h1').textContent(), 'A page that tries everything');
  });

  await check('the inspector itself raised no error', async () => {
    assert.deepEqual(consoleErrors, []);
  });

  await context.close();
  trap.close();
  fs.rmSync(profile, { recursive: true, force: true });
  fs.rmSync(fixtureDir, { recursive: true, force: true });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.error(e); console.log(`${passed} passed, ${failed + 1} failed`); process.exit(1); });
