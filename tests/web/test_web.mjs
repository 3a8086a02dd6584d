// Browser tests of `toggle web` with playwright-core driving Debian's
// /usr/bin/chromium (docs/web.md). usage: node test_web.mjs TOGGLE [SHOTS_DIR]
// Exit 77 (skipped) when playwright-core or chromium is missing.
// Checks: the module loads from file://; the solve=1 hook's solution, pressed
// cell by cell with the mouse, lights the board (classic and torus, F_2 and
// F_3); hints from a generated start solve it in exactly its fewest-press
// count; the URL state round-trips through a reload; the gallery's filters
// and detail view (colour-map switcher redraws through the module); no
// console error or page exception anywhere.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const CHROMIUM = process.env.TOGGLE_CHROMIUM || '/usr/bin/chromium';
let chromium;
try { ({ chromium } = require('playwright-core')); } catch (e) {
  console.log('SKIP: playwright-core not installed (npm ci in tests/web)'); process.exit(77);
}
if (!fs.existsSync(CHROMIUM)) { console.log('SKIP: no ' + CHROMIUM); process.exit(77); }

const toggle = process.argv[2], shots = process.argv[3];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'toggle-web-'));
const site = path.join(work, 'site');
execFileSync(toggle, ['web', '--out', site, '--sizes', '1..9', '--primes', '2..5',
                      '--colormaps', 'viridis,twilight,magma', '--threads', '1']);
const url = (f) => 'file://' + path.join(site, f);
const failures = [], errors = [];
const check = (ok, what) => { if (!ok) failures.push(what); };

// a fresh profile: launchPersistentContext is how playwright takes --user-data-dir
const browser = await chromium.launchPersistentContext(path.join(work, 'profile'), {
  executablePath: CHROMIUM, headless: true, viewport: { width: 1200, height: 1000 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
  page.on('pageerror', (e) => errors.push('exception: ' + e.message));
  const ready = () => page.waitForSelector('html[data-solver="ready"]', { timeout: 30000 });

  async function clickCell(i) {
    const { cols, px } = await page.evaluate(() => ({ cols: togglePlay.state().cols, px: togglePlay.cellPx() }));
    const box = await page.locator('#board').boundingBox();
    const w = await page.evaluate(() => document.getElementById('board').width);
    const s = box.width / w;
    await page.mouse.click(box.x + ((i % cols) + 0.5) * px * s, box.y + (Math.floor(i / cols) + 0.5) * px * s);
  }
  const allLit = () => page.evaluate(() => togglePlay.state().cells.every((v) => v === 1));

  // 1. the solve=1 hook, then press the solution with the mouse
  for (const [q, n] of [['grid=5x5&mod=2', 25], ['grid=4x6&mod=3', 24], ['grid=5x5&mod=3&torus=1', 25]]) {
    await page.goto(url('play.html') + '?' + q + '&solve=1');
    await ready();
    const sol = (await page.locator('#solution').textContent()).split(',').map(Number);
    check(sol.length === n, q + ': solution has ' + sol.length + ' entries');
    await page.click('#b-reset');
    for (let i = 0; i < sol.length; i++)
      for (let t = 0; t < sol[i]; t++) await clickCell(i);
    check(await allLit(), q + ': pressing the solution does not light the board');
    check((await page.locator('html').getAttribute('data-solved')) === 'yes', q + ': data-solved');
  }

  // 2. hints from a generated start, within its fewest-press count
  for (const [q, want] of [['grid=6x6&mod=2', 5], ['grid=5x5&mod=3', 4]]) {
    await page.goto(url('play.html') + '?' + q);
    await ready();
    await page.fill('#presses', String(want));
    await page.click('#b-new');
    const fewest = Number(await page.locator('html').getAttribute('data-fewest'));
    check(fewest === want, q + ': generator gave ' + fewest + ' fewest presses, asked ' + want);
    let steps = 0;
    while (!(await allLit()) && steps <= fewest + 1) {
      await page.click('#b-hint');
      const h = Number(await page.locator('#hint').textContent());
      await clickCell(h);
      steps++;
    }
    check(await allLit(), q + ': hints did not solve the board');
    check(steps === fewest, q + ': hints took ' + steps + ' presses, fewest is ' + fewest);
  }

  // 3. URL state round-trips
  await page.goto(url('play.html') + '?grid=4x5&mod=5');
  await ready();
  for (const i of [0, 7, 7, 13, 19, 3]) await clickCell(i);
  await page.click('#b-undo');
  check((await page.evaluate(() => togglePlay.state().moves)) === 5, 'undo');
  const before = await page.evaluate(() => JSON.stringify(togglePlay.state()));
  const there = page.url();
  await page.goto('about:blank');
  await page.goto(there);
  await ready();
  const after = await page.evaluate(() => JSON.stringify(togglePlay.state()));
  check(before === after, 'URL state: ' + before + ' != ' + after);
  if (shots) {
    await page.goto(url('play.html') + '?grid=9x9&mod=3&solve=1');
    await ready();
    await page.screenshot({ path: path.join(shots, 'web-play.png') });
  }

  // 4. the gallery: filters and the detail view
  await page.goto(url('index.html') + '#p=3');
  await ready();
  const vis = () => page.evaluate(() => [...document.querySelectorAll('#gallery figure')]
    .filter((f) => !f.hidden).map((f) => f.dataset.p));
  const v3 = await vis();
  check(v3.length > 0 && v3.every((p) => p === '3'), 'gallery p=3 filter: ' + v3.join(','));
  const first = await page.evaluate(() => document.querySelector('#gallery figure').dataset.n);
  check(first === '9', 'gallery starts with the largest boards, got n=' + first);
  await page.goto(url('index.html'));
  await ready();
  await page.locator('#gallery figure[data-n="9"][data-p="3"]').first().click();
  check(await page.locator('#detail').evaluate((d) => d.open), 'detail view opens');
  const facts = await page.locator('#d-facts').textContent();
  check(/nullity \d+/.test(facts) && /symmetry/.test(facts), 'detail facts: ' + facts);
  const nmaps = await page.locator('#d-cmap option').count();
  check(nmaps >= 40, 'detail colour maps: ' + nmaps);
  const d1 = await page.locator('#d-download').getAttribute('href');
  await page.selectOption('#d-cmap', 'hsv');
  const d2 = await page.locator('#d-download').getAttribute('href');
  check(d1 !== d2 && d2.startsWith('data:image/png'), 'the switcher redraws the picture');
  check((await page.locator('#d-play').getAttribute('href')).includes('grid=9x9&mod=3'), 'play link');
  if (shots) await page.screenshot({ path: path.join(shots, 'web-gallery.png') });
} finally {
  await browser.close();
  fs.rmSync(work, { recursive: true, force: true });
}
for (const e of errors) failures.push(e);
if (failures.length) { console.log('FAIL\n' + failures.join('\n')); process.exit(1); }
console.log('ok: play (solve hook, mouse, hints, URL), gallery (filters, detail)');
