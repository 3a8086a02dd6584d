// The module against the native library: solve the 100 x 100 classic board
// (all off to all on) over F_2 and F_7, REPS times each, in headless
// Chromium (libtoggle.wasm through libtoggle.js) and natively (the Python
// binding over libtoggle.so, time.process_time), in the same run.
// usage: node bench/web/bench_web.mjs BUILD_DIR [REPS]   (needs tests/web's npm ci)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
const require = createRequire(path.resolve('tests/web/package.json'));
const { chromium } = require('playwright-core');
const build = process.argv[2], reps = Number(process.argv[3] || 20);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'toggle-bench-web-'));
execFileSync(path.join(build, 'tools/toggle'), ['web', '--out', work + '/site', '--sizes', '1', '--primes', '2']);
const browser = await chromium.launchPersistentContext(work + '/profile', {
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const page = await browser.newPage();
await page.goto('file://' + work + '/site/play.html');
await page.waitForSelector('html[data-solver="ready"]');
const wasm = await page.evaluate(async (reps) => {
  const lib = await Toggle.load(), out = {};
  for (const k of [2, 7]) {
    lib.solve({ rows: 100, cols: 100, k });
    const t = performance.now();
    for (let i = 0; i < reps; i++) lib.solve({ rows: 100, cols: 100, k });
    out[k] = (performance.now() - t) / reps;
  }
  return out;
}, reps);
await browser.close();
const py = `
import sys, time
sys.path.insert(0, 'bindings/python')
import os; os.environ.setdefault('TOGGLE_LIBRARY', '${build}/lib/libtoggle.so')
import toggle
for k in (2, 7):
    with toggle.System(toggle.Graph.grid(100, 100), k) as s:
        s.solve().close()
        t = time.process_time()
        for _ in range(${reps}):
            s.solve().close()
        print(k, (time.process_time() - t) / ${reps} * 1000)
`;
const nat = {};
for (const line of execFileSync('/usr/bin/python3', ['-c', py], { env: { ...process.env, TOGGLE_LIBRARY: build + '/lib/libtoggle.so' } }).toString().trim().split('\n')) {
  const [k, ms] = line.split(' '); nat[k] = Number(ms);
}
for (const k of [2, 7])
  console.log(`100x100 F_${k}: module ${wasm[k].toFixed(2)} ms, native ${nat[k].toFixed(2)} ms, ratio ${(wasm[k] / nat[k]).toFixed(2)}`);
fs.rmSync(work, { recursive: true, force: true });
