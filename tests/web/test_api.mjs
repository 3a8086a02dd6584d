// The JavaScript API of libtoggle.wasm (tools/gallery/toggle.js) under node,
// no browser and no npm package. usage: node test_api.mjs LIBTOGGLE.WASM
// Exit 77 (skipped) when the module was not built.
// Checks: uint64 values travel as BigInt both ways (a 3 x 3 board with
// k = 2^63 - 25: the solution satisfies A x = b in BigInt arithmetic, the
// fewest-press weight is exactly the sum of its vector, a generated puzzle's
// fewest count is exact); every out-of-range argument is refused with a
// RangeError or TypeError naming it, before the module sees it, and the
// module still answers correctly after each refusal.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const wasmPath = process.argv[2];
if (!wasmPath || !fs.existsSync(wasmPath) || fs.statSync(wasmPath).size === 0) {
  console.log('SKIP: libtoggle.wasm was not built'); process.exit(77);
}
const Toggle = require('../../tools/gallery/toggle.js');
const lib = await Toggle.load({ wasmBytes: fs.readFileSync(wasmPath) });

const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); };
const U64 = 1n << 64n;

// A x of a rows x cols grid game (neighbours as in play.js), mod k, BigInt.
function apply(rows, cols, topo, x, k) {
  const torus = topo.includes('torus'), self = !topo.includes('noself'), moore = topo.startsWith('moore');
  const d = [[-1, 0], [1, 0], [0, -1], [0, 1]].concat(moore ? [[-1, -1], [-1, 1], [1, -1], [1, 1]] : []);
  const out = new Array(rows * cols).fill(0n);
  for (let i = 0; i < rows * cols; i++) {
    const r = Math.floor(i / cols), c = i % cols;
    if (self) out[i] += x[i];
    for (const [dr, dc] of d) {
      let rr = r + dr, cc = c + dc;
      if (torus) { rr = (rr + rows) % rows; cc = (cc + cols) % cols; }
      else if (rr < 0 || cc < 0 || rr >= rows || cc >= cols) continue;
      out[rr * cols + cc] += x[i];
    }
  }
  return out.map((v) => v % k);
}
// A x == target - start (mod k), every entry a BigInt < k.
function solves(o, x) {
  const k = BigInt(o.k), n = o.rows * o.cols;
  if (!Array.isArray(x) || x.length !== n || !x.every((v) => typeof v === 'bigint' && v >= 0n && v < k))
    return false;
  const ax = apply(o.rows, o.cols, o.topology || 'classic', x, k);
  return ax.every((v, i) => {
    const t = o.target ? BigInt(o.target[i]) : 1n, s = o.start ? BigInt(o.start[i]) : 0n;
    return v === (((t - s) % k) + k) % k;
  });
}

// 1. the big modulus of the attack: solutions, fewest presses, puzzles
const K = (1n << 63n) - 25n;
const big = { rows: 3, cols: 3, k: K };
const bigStart = { rows: 3, cols: 3, k: K, start: [K - 1n, 0, 5, K - 7n, 2n ** 60n, 1, 0, 3, K / 2n],
                   target: [1, K - 2n, 0, 0, 9, 2n ** 62n, 1, 1, 0] };
for (const o of [big, bigStart, { ...big, topology: 'torus' }, { ...bigStart, topology: 'moore' }]) {
  const r = lib.solve(o);
  const name = JSON.stringify(o, (_, v) => (typeof v === 'bigint' ? String(v) : v));
  check(r.solvable && solves(o, r.x), 'solve ' + name + ': A x != b');
  check(r.x && r.x.some((v) => v > 2n ** 53n), 'solve ' + name + ': no entry above 2^53 (rounding not exercised)');
  check(typeof r.nullity === 'number', 'solve: nullity is a Number');
}
for (const o of [big, bigStart]) {
  const f = lib.fewest(o);
  check(f.solvable && solves(o, f.x), 'fewest: A x != b');
  check(typeof f.weight === 'bigint' && f.weight === f.x.reduce((a, v) => a + v, 0n),
        'fewest: weight ' + f.weight + ' is not the sum of x');
  check(f.weight > 2n ** 53n && f.proven, 'fewest: weight not above 2^53 or not proven');
  check(f.x.every((v, i) => v === lib.solve(o).x[i]), 'fewest: differs from the unique solution');
}
{
  const g = lib.generate(big, { seed: 7n, unique: true });
  check(g.start.length === 9 && g.start.every((v) => typeof v === 'bigint' && v < K), 'generate: start not BigInts < k');
  const f = lib.fewest({ ...big, start: g.start });
  check(typeof g.presses === 'bigint' && g.presses === f.weight,
        'generate: presses ' + g.presses + ' != fewest weight ' + f.weight);
  check(g.nullity === 0, 'generate: nullity ' + g.nullity);
}
// 2^53 + 1 as a BigInt goes in exactly (as a Number it would be refused)
check(solves({ ...big, start: new Array(9).fill(2n ** 53n + 1n) },
             lib.solve({ ...big, start: new Array(9).fill(2n ** 53n + 1n) }).x), 'start 2^53 + 1');

// the small board every refusal is followed by
const small = { rows: 5, cols: 5, k: 3, topology: 'torus' };
const smallX = lib.solve(small).x.join(',');
check(solves(small, lib.solve(small).x), 'small board');
const smallFewest = lib.fewest({ rows: 4, cols: 4, k: 2 });

// 2. refusals: [what, call, error class, pattern naming the argument]
const bad = [
  ['k = 2^64 + 3', () => lib.solve({ rows: 3, cols: 3, k: U64 + 3n }), RangeError, /\bk\b/],
  ['k = 2^63', () => lib.solve({ rows: 3, cols: 3, k: 1n << 63n }), RangeError, /\bk\b/],
  ['k = 1', () => lib.solve({ rows: 3, cols: 3, k: 1 }), RangeError, /\bk\b/],
  ['k = 2.5', () => lib.solve({ rows: 3, cols: 3, k: 2.5 }), TypeError, /\bk\b/],
  ['k = "3"', () => lib.solve({ rows: 3, cols: 3, k: '3' }), TypeError, /\bk\b/],
  ['k missing', () => lib.solve({ rows: 3, cols: 3 }), TypeError, /\bk\b/],
  ['k = 2^60 as a Number', () => lib.solve({ rows: 3, cols: 3, k: 2 ** 60 }), RangeError, /BigInt/],
  ['target 2^64 + 1', () => lib.solve({ ...big, target: [U64 + 1n, 1, 1, 1, 1, 1, 1, 1, 1] }), RangeError, /target\[0\]/],
  ['target value >= k', () => lib.solve({ rows: 1, cols: 2, k: 3, target: [1, 3] }), RangeError, /target\[1\]/],
  ['target -1', () => lib.solve({ rows: 1, cols: 2, k: 3, target: [1, -1] }), RangeError, /target\[1\]/],
  ['target NaN', () => lib.solve({ rows: 1, cols: 2, k: 3, target: [NaN, 1] }), TypeError, /target\[0\]/],
  ['short target', () => lib.solve({ rows: 3, cols: 3, k: 2, target: [1, 1, 1] }), RangeError, /target/],
  ['long start', () => lib.solve({ rows: 2, cols: 2, k: 2, start: [0, 0, 0, 0, 0] }), RangeError, /start/],
  ['target not an array', () => lib.solve({ rows: 2, cols: 2, k: 2, target: 5 }), TypeError, /target/],
  ['limit 2^64 + 1', () => lib.fewest({ rows: 4, cols: 4, k: 2 }, U64 + 1n), RangeError, /limit/],
  ['limit -1', () => lib.fewest({ rows: 4, cols: 4, k: 2 }, -1), RangeError, /limit/],
  ['presses -1', () => lib.generate({ rows: 4, cols: 4, k: 2 }, { presses: -1 }), RangeError, /presses/],
  ['presses 2^64 - 1', () => lib.generate({ rows: 4, cols: 4, k: 2 }, { presses: U64 - 1n }), RangeError, /presses/],
  ['presses 2^64 + 1', () => lib.generate({ rows: 4, cols: 4, k: 2 }, { presses: U64 + 1n }), RangeError, /presses/],
  ['seed 2^64', () => lib.generate({ rows: 4, cols: 4, k: 2 }, { seed: U64 }), RangeError, /seed/],
  ['symmetry rows -1', () => lib.symmetry([1, 1, 1], -1, 3), RangeError, /rows/],
  ['symmetry rows -1, one column', () => lib.symmetry([1], -1, 1), RangeError, /rows/],
  ['symmetry cols 2^32', () => lib.symmetry([1], 1, 2 ** 32), RangeError, /cols/],
  ['symmetry short cells', () => lib.symmetry([1, 1], 2, 2), RangeError, /cells/],
  ['symmetry cell 2^64', () => lib.symmetry([U64], 1, 1), RangeError, /cells\[0\]/],
  ['rows 0', () => lib.solve({ rows: 0, cols: 3, k: 2 }), RangeError, /rows/],
  ['rows -1', () => lib.solve({ rows: -1, cols: 3, k: 2 }), RangeError, /rows/],
  ['cols 1.5', () => lib.solve({ rows: 3, cols: 1.5, k: 2 }), TypeError, /cols/],
  ['rows * cols too large', () => lib.solve({ rows: 65536, cols: 65536, k: 2 }), RangeError, /rows \* cols/],
  ['topology __proto__', () => lib.solve({ rows: 3, cols: 3, k: 2, topology: '__proto__' }), RangeError, /topology/],
  ['topology toString', () => lib.solve({ rows: 3, cols: 3, k: 2, topology: 'toString' }), RangeError, /topology/],
  ['topology constructor', () => lib.fewest({ rows: 3, cols: 3, k: 2, topology: 'constructor' }), RangeError, /topology/],
  ['topology hasOwnProperty', () => lib.generate({ rows: 3, cols: 3, k: 2, topology: 'hasOwnProperty' }), RangeError, /topology/],
  ['topology 2', () => lib.solve({ rows: 3, cols: 3, k: 2, topology: 2 }), RangeError, /topology/],
  ['color v >= k', () => lib.color(0, 0, 3, 3), RangeError, /\bv\b/],
  ['color k 2^64', () => lib.color(0, 0, 0, U64), RangeError, /\bk\b/],
];
for (const [what, call, cls, re] of bad) {
  let err = null;
  try { call(); } catch (e) { err = e; }
  check(err instanceof cls, what + ': expected ' + cls.name + ', got ' + (err ? err.name + ' ' + err.message : 'no error'));
  check(err && re.test(err.message), what + ': message "' + (err && err.message) + '" does not name ' + re);
  // the module still works
  let again = '';
  try { again = lib.solve(small).x.join(','); } catch (e) { again = 'threw ' + e.message; }
  check(again === smallX, what + ': the module no longer solves (' + again.slice(0, 60) + ')');
}
const f2 = lib.fewest({ rows: 4, cols: 4, k: 2 });
check(f2.weight === smallFewest.weight && f2.x.join() === smallFewest.x.join(), 'fewest after the refusals');
check(lib.symmetry(new Array(9).fill(1), 3, 3).mask === 0xff, 'symmetry of a uniform 3 x 3 board');
check(lib.color(0, 0, 1n, 2n).length === 3, 'color with BigInts');

if (failures.length) {
  console.log('FAIL (' + failures.length + '):\n  ' + failures.join('\n  '));
  process.exit(1);
}
console.log('ok: ' + bad.length + ' refusals, big-modulus solve / fewest / generate exact');
