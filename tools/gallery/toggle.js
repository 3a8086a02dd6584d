/* libtoggle in the browser: the WebAssembly build of the library (built by
 * tools/web, embedded below as base64 by `toggle web`) and a thin layer over
 * its public C API. No threads, no network: the module is compiled from the
 * embedded bytes, so the page works from file:// too.
 *
 *   Toggle.load().then(function (lib) { var r = lib.solve({rows: 5, cols: 5, k: 2}); });
 *
 * Every answer (solvability, nullity, solutions, fewest presses, puzzles,
 * colours, symmetry) comes from the library; this file only moves numbers
 * in and out of the module's memory. */
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

  var TOPOLOGY = {classic: 0, noself: 1, torus: 2, 'noself-torus': 3, moore: 4, 'moore-torus': 6};

  function Lib(instance) {
    var ex = instance.exports, self = this;
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
    function putU64(values, n) { /* n uint64 values (numbers), or NULL */
      if (!values) return 0;
      var p = alloc(8 * n), v = u64(), o = p / 8;
      for (var i = 0; i < n; i++) v[o + i] = BigInt(values[i] || 0);
      return p;
    }
    function getU64(p, n) {
      var v = u64(), o = p / 8, out = new Array(n);
      for (var i = 0; i < n; i++) out[i] = Number(v[o + i]);
      return out;
    }
    this.exports = ex;
    this.version = cstr(ex.toggle_version_string());
    this.topologies = Object.keys(TOPOLOGY);

    /* Solve a grid game: {rows, cols, k, topology, start, target} (start and
     * target row-major arrays or omitted: all 0 and all 1). Returns
     * {solvable, nullity, count, engine, x} with x the canonical solution
     * (free variables 0) or null. */
    this.solve = function (o) { return withSystem(o, function (s, n) { return solveIn(s, n); }); };

    /* The fewest-press solution (total presses, each x_i read as 0..k-1)
     * from o's start to its target: {solvable, x, weight, proven}. */
    this.fewest = function (o, limit) {
      return withSystem(o, function (s, n) {
        var r = solveIn(s, n, true);
        if (!r.solvable) { ex.toggle_solution_free(r.sol); return {solvable: false}; }
        var pp = alloc(8), x = 0;
        try {
          check(ex.toggle_search_new(pp, r.sol), 'toggle_search_new');
          var search = u32()[pp / 4];
          try {
            check(ex.toggle_search_set_option(search, 4, 1n), 'metric');
            check(ex.toggle_search_set_option(search, 3, BigInt(limit || 65536)), 'limit');
            check(ex.toggle_search_run(search), 'toggle_search_run');
            x = alloc(8 * n);
            var w = alloc(8), pr = alloc(4);
            check(ex.toggle_search_result(search, x, n, w, pr, 0), 'toggle_search_result');
            var out = {solvable: true, x: getU64(x, n), weight: Number(u64()[w / 8]),
                       proven: u32()[pr / 4] === 1, nullity: r.nullity};
            ex.free(w); ex.free(pr);
            return out;
          } finally { ex.toggle_search_free(search); }
        } finally { ex.free(pp); if (x) ex.free(x); ex.toggle_solution_free(r.sol); }
      });
    };

    /* A puzzle from the library's generator: {start, presses} for a board
     * whose target is o.target (default all 1). opts: {seed, unique,
     * presses}: a unique solution, or exactly `presses` fewest presses. */
    this.generate = function (o, opts) {
      opts = opts || {};
      var n = o.rows * o.cols;
      return withSystem({rows: o.rows, cols: o.cols, k: o.k, topology: o.topology}, function (s) {
        var pp = alloc(8), st = alloc(8 * n), w = alloc(8);
        try {
          check(ex.toggle_generator_new(pp, s), 'toggle_generator_new');
          var gen = u32()[pp / 4];
          try {
            check(ex.toggle_generator_set_option(gen, 5, BigInt(opts.seed || 0)), 'seed');
            check(ex.toggle_generator_set_option(gen, 4, 1n), 'metric');
            if (opts.unique) check(ex.toggle_generator_set_option(gen, 6, 1n), 'unique');
            if (opts.presses != null)
              check(ex.toggle_generator_set_option(gen, 7, BigInt(opts.presses)), 'presses');
            check(ex.toggle_generator_set_option(gen, 3, 65536n), 'limit');
            check(ex.toggle_generator_next(gen, st, n, w), 'toggle_generator_next');
            /* the generator's start s reaches all 0 (A x = -s); the same
             * presses take s + target to the target */
            var s0 = getU64(st, n), k = o.k, t = o.target;
            var start = s0.map(function (v, i) { return (v + (t ? t[i] : 1)) % k; });
            var pw = u64()[w / 8];
            return {start: start, presses: pw === 0xffffffffffffffffn ? null : Number(pw),
                    nullity: ex.toggle_generator_nullity(gen)};
          } finally { ex.toggle_generator_free(gen); }
        } finally { ex.free(pp); ex.free(st); ex.free(w); }
      });
    };

    /* Colour maps: names and colours (render.h's sampling rule). */
    this.colormaps = function () {
      var names = [], pid = alloc(4), prev = alloc(4);
      for (var id = 0; ; id++) {
        var p = ex.toggle_colormap_name(id);
        if (!p) break;
        names.push(cstr(p));
      }
      ex.free(pid); ex.free(prev);
      return names;
    };
    this.color = function (mapId, reversed, v, k) {
      var p = alloc(4);
      try {
        check(ex.toggle_colormap_color(mapId, reversed ? 1 : 0, BigInt(v), BigInt(k), p),
              'toggle_colormap_color');
        var m = u8();
        return [m[p], m[p + 1], m[p + 2]];
      } finally { ex.free(p); }
    };
    this.symmetry = function (cells, rows, cols) {
      var p = putU64(cells, rows * cols), mask = alloc(4);
      try {
        check(ex.toggle_board_symmetry(p, rows, cols, mask), 'toggle_board_symmetry');
        var m = u32()[mask / 4];
        return {mask: m, name: cstr(ex.toggle_symmetry_name(m))};
      } finally { ex.free(p); ex.free(mask); }
    };

    function withSystem(o, body) {
      var n = o.rows * o.cols, flags = TOPOLOGY[o.topology || 'classic'];
      if (flags === undefined) throw new Error('unknown topology ' + o.topology);
      var pp = alloc(8), start = putU64(o.start, n), target = putU64(o.target, n), g = 0, s = 0;
      try {
        check(ex.toggle_graph_new_grid(pp, o.rows, o.cols, flags), 'toggle_graph_new_grid');
        g = u32()[pp / 4];
        check(ex.toggle_system_new(pp, g, BigInt(o.k), start, target), 'toggle_system_new');
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
                 nullity: ex.toggle_solution_nullity(sol),
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
    /* Compile and instantiate the embedded module once; a Promise of the API. */
    load: function () {
      if (loading) return loading;
      if (!Toggle.wasmBase64)
        return Promise.reject(new Error('this site was written without libtoggle.wasm'));
      var memory = null;
      var imports = {wasi_snapshot_preview1: wasiImports(function () { return memory; })};
      loading = WebAssembly.instantiate(decodeBase64(Toggle.wasmBase64), imports)
        .then(function (r) {
          memory = r.instance.exports.memory;
          if (r.instance.exports._initialize) r.instance.exports._initialize();
          return new Lib(r.instance);
        });
      return loading;
    }
  };
  root.Toggle = Toggle;
})(typeof window !== 'undefined' ? window : globalThis);
