/* libtoggle in the browser: the WebAssembly build of the library (built by
 * tools/web, embedded below as base64 by `toggle web`) and a thin layer over
 * its public C API. No threads, no network: the module is compiled from the
 * embedded bytes, so the page works from file:// too.
 *
 *   Toggle.load().then(function (lib) { var r = lib.solve({rows: 5, cols: 5, k: 2}); });
 *
 * Every answer (solvability, nullity, solutions, fewest presses, puzzles,
 * colours, symmetry) comes from the library; this file only moves numbers
 * in and out of the module's memory, after checking every argument's type
 * and range. uint64 values travel as BigInt (docs/web.md has the table). */
(function (root) {
  'use strict';

  /* A WASI shim with what libtoggle imports: the library never does I/O on
   * the paths the page uses, so file calls fail cleanly (EBADF / ENOSYS). */
  function wasiImports(getMemory) {
    var EBADF = 8, ENOSYS = 52;
    function view() { return new DataView(getMemory().buffer); }
    return {
      fd_close: function () { return EBADF; },
      fd_fdstat_get: function () { return EBADF; },
      fd_fdstat_set_flags: function () { return EBADF; },
      fd_prestat_get: function () { return EBADF; },
      fd_prestat_dir_name: function () { return EBADF; },
      fd_read: function () { return EBADF; },
      fd_seek: function () { return EBADF; },
      path_open: function () { return ENOSYS; },
      clock_time_get: function (id, precision, out) {
        /* the progress callback's rate limit: a monotonic clock in ns */
        var ms = (typeof performance !== 'undefined' ? performance.now() : Date.now());
        view().setBigUint64(out, BigInt(Math.floor(ms * 1e6)), true);
        return 0;
      },
      fd_write: function (fd, iovs, n, written) {
        /* stdout / stderr: count the bytes and drop them */
        var v = view(), total = 0;
        for (var i = 0; i < n; i++) total += v.getUint32(iovs + 8 * i + 4, true);
        v.setUint32(written, total, true);
        return fd === 1 || fd === 2 ? 0 : EBADF;
      },
      proc_exit: function (code) { throw new Error('libtoggle called proc_exit(' + code + ')'); }
    };
  }

  function decodeBase64(s) {
    var bin = atob(s), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  /* Topology names and their grid flags; a null-prototype object read only
   * through own properties, so no inherited name ('__proto__', 'toString')
   * is a topology. */
  var TOPOLOGY = Object.create(null);
  [['classic', 0], ['noself', 1], ['torus', 2], ['noself-torus', 3], ['moore', 4],
   ['moore-torus', 6]].forEach(function (t) { TOPOLOGY[t[0]] = t[1]; });
  var has = Object.prototype.hasOwnProperty;

  /* Limits the module's buffers fit: a board has at most MAX_CELLS cells
   * (8 bytes each, so one vector stays below 2 GiB of the 4 GiB wasm32
   * address space); uint64 values are below 2^64; a modulus is at most
   * TOGGLE_MAX_MODULUS (2^63 - 1, system.h). */
  var MAX_CELLS = 268435456, U64_END = 1n << 64n, MAX_MODULUS = (1n << 63n) - 1n;

  /* A uint64 argument as a BigInt: a BigInt, or a Number that is a safe
   * integer (a larger Number may already be rounded: pass a BigInt), in
   * [lo, hi]. TypeError for another type or a non-integer, RangeError out
   * of range. */
  function u64Arg(v, name, lo, hi) {
    var b;
    if (typeof v === 'bigint') b = v;
    else if (typeof v === 'number') {
      if (!Number.isInteger(v)) throw new TypeError(name + ' must be an integer, got ' + v);
      if (!Number.isSafeInteger(v))
        throw new RangeError(name + ' ' + v + ' is beyond 2^53 as a Number: pass a BigInt');
      b = BigInt(v);
    } else throw new TypeError(name + ' must be a Number or a BigInt, got ' + typeof v);
    lo = lo === undefined ? 0n : lo;
    hi = hi === undefined ? U64_END - 1n : hi;
    if (b < lo || b > hi)
      throw new RangeError(name + ' must be in ' + lo + '..' + hi + ', got ' + b);
    return b;
  }
  /* A size (rows, cols) as a Number in 1..MAX_CELLS. */
  function sizeArg(v, name) {
    return Number(u64Arg(v, name, 1n, BigInt(MAX_CELLS)));
  }
  /* rows and cols, checked, and their product n. */
  function boardArgs(rows, cols) {
    var r = sizeArg(rows, 'rows'), c = sizeArg(cols, 'cols');
    if (r * c > MAX_CELLS)
      throw new RangeError('rows * cols must be at most ' + MAX_CELLS + ', got ' + r * c);
    return {rows: r, cols: c, n: r * c};
  }
  function topologyArg(t) {
    if (t === undefined || t === null) return 0;
    if (typeof t !== 'string' || !has.call(TOPOLOGY, t))
      throw new RangeError('topology must be one of ' + Object.keys(TOPOLOGY).join(', ') +
                           ', got ' + String(t));
    return TOPOLOGY[t];
  }
  function modulusArg(k) {
    if (k === undefined || k === null) throw new TypeError('k (the modulus) is required');
    return u64Arg(k, 'k', 2n, MAX_MODULUS);
  }
  /* A board state: an array (or typed array) of exactly n values < k, as
   * BigInts; undefined or null stays null (the C default). */
  function cellsArg(a, name, n, k) {
    if (a === undefined || a === null) return null;
    if (typeof a !== 'object' || typeof a.length !== 'number')
      throw new TypeError(name + ' must be an array of ' + n + ' values');
    if (a.length !== n)
      throw new RangeError(name + ' must have rows * cols = ' + n + ' values, got ' + a.length);
    var out = new Array(n);
    for (var i = 0; i < n; i++) out[i] = u64Arg(a[i], name + '[' + i + ']', 0n, k - 1n);
    return out;
  }
  /* The checked board of o: {rows, cols, n, flags, k, start, target}. */
  function systemArgs(o) {
    if (!o || typeof o !== 'object') throw new TypeError('the board must be an object {rows, cols, k, ...}');
    var b = boardArgs(o.rows, o.cols);
    b.flags = topologyArg(o.topology);
    b.k = modulusArg(o.k);
    b.start = cellsArg(o.start, 'start', b.n, b.k);
    b.target = cellsArg(o.target, 'target', b.n, b.k);
    return b;
  }

  function Lib(instance) {
    var ex = instance.exports;
    function u8() { return new Uint8Array(ex.memory.buffer); }
    function u32() { return new Uint32Array(ex.memory.buffer); }
    function u64() { return new BigUint64Array(ex.memory.buffer); }
    function alloc(bytes) {
      var p = ex.malloc(Math.max(bytes, 8));
      if (!p) throw new Error('libtoggle: out of memory');
      return p;
    }
    function cstr(p) {
      var m = u8(), e = p;
      while (m[e]) e++;
      return new TextDecoder().decode(m.subarray(p, e));
    }
    function check(rc, what) {
      if (rc !== 0) {
        var err = new Error(what + ': ' + cstr(ex.toggle_last_error()));
        err.status = cstr(ex.toggle_status_name(rc));
        throw err;
      }
    }
    function putU64(values, n) { /* n checked BigInts, or NULL */
      if (!values) return 0;
      var p = alloc(8 * n), v = u64(), o = p / 8;
      for (var i = 0; i < n; i++) v[o + i] = values[i];
      return p;
    }
    function getU64(p, n) { /* n BigInts */
      var v = u64(), o = p / 8, out = new Array(n);
      for (var i = 0; i < n; i++) out[i] = v[o + i];
      return out;
    }
    this.exports = ex;
    this.version = cstr(ex.toggle_version_string());
    this.topologies = Object.keys(TOPOLOGY);

    /* Every argument is checked here before the module sees it (docs/web.md
     * lists the ranges); values that can exceed 2^53 go in and come out as
     * BigInt, counts (nullity, a symmetry mask) as Number. */

    /* Solve a grid game: {rows, cols, k, topology, start, target} (start and
     * target row-major arrays of rows * cols values < k, or omitted: all 0
     * and all 1). Returns {solvable, nullity, count, engine, x} with x the
     * canonical solution (free variables 0, BigInts) or null. */
    this.solve = function (o) {
      return withSystem(systemArgs(o), function (s, n) { return solveIn(s, n); });
    };

    /* The fewest-press solution (total presses, each x_i read as 0..k-1)
     * from o's start to its target: {solvable, x, weight, proven, nullity},
     * x and weight BigInts. limit: solutions the search may visit (default
     * 65536; 0 = unlimited, as the C API). */
    this.fewest = function (o, limit) {
      var b = systemArgs(o);
      var lim = limit === undefined || limit === null ? 65536n : u64Arg(limit, 'limit');
      return withSystem(b, function (s, n) {
        var r = solveIn(s, n, true);
        if (!r.solvable) { ex.toggle_solution_free(r.sol); return {solvable: false}; }
        var pp = alloc(8), x = 0;
        try {
          check(ex.toggle_search_new(pp, r.sol), 'toggle_search_new');
          var search = u32()[pp / 4];
          try {
            check(ex.toggle_search_set_option(search, 4, 1n), 'metric');
            check(ex.toggle_search_set_option(search, 3, lim), 'limit');
            check(ex.toggle_search_run(search), 'toggle_search_run');
            x = alloc(8 * n);
            var w = alloc(8), pr = alloc(4);
            check(ex.toggle_search_result(search, x, n, w, pr, 0), 'toggle_search_result');
            /* the weight under the presses metric is the sum of x, summed
             * here in BigInt: the C weight is a uint64 that stops at
             * 2^64 - 1 (a big k sums past it) */
            var xs = getU64(x, n);
            var out = {solvable: true, x: xs, weight: sum(xs),
                       proven: u32()[pr / 4] === 1, nullity: r.nullity};
            ex.free(w); ex.free(pr);
            return out;
          } finally { ex.toggle_search_free(search); }
        } finally { ex.free(pp); if (x) ex.free(x); ex.toggle_solution_free(r.sol); }
      });
    };

    /* A puzzle from the library's generator: {start, presses, nullity} for
     * a board whose target is o.target (default all 1); start BigInts,
     * presses a BigInt or null. opts: {seed, unique, presses}: a unique
     * solution, or exactly `presses` fewest presses (0 .. 2^64 - 2). */
    this.generate = function (o, opts) {
      var b = systemArgs(o);
      opts = opts || {};
      var seed = opts.seed === undefined || opts.seed === null ? 0n : u64Arg(opts.seed, 'seed');
      var presses = opts.presses === undefined || opts.presses === null ? null
        : u64Arg(opts.presses, 'presses', 0n, U64_END - 2n); /* 2^64 - 1 means no constraint */
      var n = b.n, k = b.k, t = b.target;
      return withSystem({rows: b.rows, cols: b.cols, flags: b.flags, k: k}, function (s) {
        var pp = alloc(8), st = alloc(8 * n), w = alloc(8);
        try {
          check(ex.toggle_generator_new(pp, s), 'toggle_generator_new');
          var gen = u32()[pp / 4];
          try {
            check(ex.toggle_generator_set_option(gen, 5, seed), 'seed');
            check(ex.toggle_generator_set_option(gen, 4, 1n), 'metric');
            if (opts.unique) check(ex.toggle_generator_set_option(gen, 6, 1n), 'unique');
            if (presses !== null) check(ex.toggle_generator_set_option(gen, 7, presses), 'presses');
            check(ex.toggle_generator_set_option(gen, 3, 65536n), 'limit');
            check(ex.toggle_generator_next(gen, st, n, w), 'toggle_generator_next');
            /* the generator's start s reaches all 0 (A x = -s); the same
             * presses take s + target to the target */
            var s0 = getU64(st, n), pw = u64()[w / 8], nullity = ex.toggle_generator_nullity(gen) >>> 0;
            var start = s0.map(function (v, i) { return (v + (t ? t[i] : 1n)) % k; });
            /* 2^64 - 1 is "not computed", or on a unique board a count that
             * reached the top of uint64: then it is the sum of the unique
             * solution of A x = -s0, summed in BigInt */
            if (pw === U64_END - 1n && nullity === 0)
              pw = sum(withSystem({rows: b.rows, cols: b.cols, flags: b.flags, k: k, start: s0,
                                   target: new Array(n).fill(0n)},
                                  function (s2) { return solveIn(s2, n).x; }));
            return {start: start, presses: pw === U64_END - 1n ? null : pw, nullity: nullity};
          } finally { ex.toggle_generator_free(gen); }
        } finally { ex.free(pp); ex.free(st); ex.free(w); }
      });
    };

    /* Colour maps: names and colours (render.h's sampling rule). */
    this.colormaps = function () {
      var names = [];
      for (var id = 0; ; id++) {
        var p = ex.toggle_colormap_name(id);
        if (!p) break;
        names.push(cstr(p));
      }
      return names;
    };
    /* The [r, g, b] of value v (0..k-1) of k under map mapId. */
    this.color = function (mapId, reversed, v, k) {
      if (!Number.isInteger(mapId)) throw new TypeError('mapId must be an integer, got ' + mapId);
      var kk = u64Arg(k, 'k', 2n), vv = u64Arg(v, 'v', 0n, kk - 1n), p = alloc(4);
      try {
        check(ex.toggle_colormap_color(mapId, reversed ? 1 : 0, vv, kk, p),
              'toggle_colormap_color');
        var m = u8();
        return [m[p], m[p + 1], m[p + 2]];
      } finally { ex.free(p); }
    };
    /* The symmetries of a rows x cols board state (rows * cols uint64s):
     * {mask, name}. */
    this.symmetry = function (cells, rows, cols) {
      var b = boardArgs(rows, cols), c = cellsArg(cells, 'cells', b.n, U64_END);
      if (!c) throw new TypeError('cells must be an array of ' + b.n + ' values');
      var p = putU64(c, b.n), mask = alloc(4);
      try {
        check(ex.toggle_board_symmetry(p, b.rows, b.cols, mask), 'toggle_board_symmetry');
        var m = u32()[mask / 4];
        return {mask: m, name: cstr(ex.toggle_symmetry_name(m))};
      } finally { ex.free(p); ex.free(mask); }
    };

    function sum(xs) { return xs.reduce(function (a, v) { return a + v; }, 0n); }
    /* body(system, n) over the system of a checked board b. */
    function withSystem(b, body) {
      var n = b.rows * b.cols, pp = alloc(8), g = 0, s = 0, start = 0, target = 0;
      try {
        start = putU64(b.start, n);
        target = putU64(b.target, n);
        check(ex.toggle_graph_new_grid(pp, b.rows, b.cols, b.flags), 'toggle_graph_new_grid');
        g = u32()[pp / 4];
        check(ex.toggle_system_new(pp, g, b.k, start, target), 'toggle_system_new');
        s = u32()[pp / 4];
        return body(s, n);
      } finally {
        if (s) ex.toggle_system_free(s);
        if (g) ex.toggle_graph_free(g);
        ex.free(pp);
        if (start) ex.free(start);
        if (target) ex.free(target);
      }
    }
    function solveIn(s, n, keep) {
      var pp = alloc(8), x = 0;
      try {
        check(ex.toggle_solve(pp, s), 'toggle_solve');
        var sol = u32()[pp / 4];
        var r = {solvable: ex.toggle_solution_is_solvable(sol) === 1,
                 nullity: ex.toggle_solution_nullity(sol) >>> 0,
                 engine: cstr(ex.toggle_engine_name(ex.toggle_solution_engine(sol))), x: null};
        var need = alloc(4);
        ex.toggle_solution_count_string(sol, 0, 0, need);
        var len = u32()[need / 4], buf = alloc(len + 1);
        check(ex.toggle_solution_count_string(sol, buf, len + 1, need), 'count');
        r.count = cstr(buf);
        ex.free(buf); ex.free(need);
        if (r.solvable) {
          x = alloc(8 * n);
          check(ex.toggle_solution_particular(sol, x, n), 'toggle_solution_particular');
          r.x = getU64(x, n);
        }
        if (keep) r.sol = sol; else ex.toggle_solution_free(sol);
        return r;
      } finally { ex.free(pp); if (x) ex.free(x); }
    }
  }

  var loading = null;
  var Toggle = {
    wasmBase64: '',
    /* Compile and instantiate the module once; a Promise of the API. The
     * module is the embedded base64, or opts.wasmBytes (a BufferSource:
     * how node loads a built libtoggle.wasm, tests/web/test_api.mjs). */
    load: function (opts) {
      if (loading) return loading;
      var bytes = opts && opts.wasmBytes;
      if (!bytes && !Toggle.wasmBase64)
        return Promise.reject(new Error('this site was written without libtoggle.wasm'));
      var memory = null;
      var imports = {wasi_snapshot_preview1: wasiImports(function () { return memory; })};
      loading = WebAssembly.instantiate(bytes || decodeBase64(Toggle.wasmBase64), imports)
        .then(function (r) {
          memory = r.instance.exports.memory;
          if (r.instance.exports._initialize) r.instance.exports._initialize();
          return new Lib(r.instance);
        });
      return loading;
    }
  };
  root.Toggle = Toggle;
  if (typeof module === 'object' && module && module.exports) module.exports = Toggle;
})(typeof window !== 'undefined' ? window : globalThis);
