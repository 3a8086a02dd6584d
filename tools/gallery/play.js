/* The game (play.html). The press mechanics are here; every answer (the
 * solution overlay, hints, puzzles) comes from libtoggle (toggle.js). The
 * state lives in the URL: ?grid=RxC&mod=K&topo=T&s=<cells>&m=<moves>
 * (torus=1 is read as topo=torus); &solve=1 shows the solution. */
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var lib = null, st = null, history_ = [], overlay = null, hintCell = -1, cellPx = 24;
  var DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

  function newState(rows, cols, k, topo) {
    return {rows: rows, cols: cols, k: k, topo: topo, cells: new Array(rows * cols).fill(0), moves: 0};
  }
  /* The cells one press at i changes (with multiplicity 1 each). */
  function neighbours(i) {
    var r = Math.floor(i / st.cols), c = i % st.cols, out = [];
    var torus = st.topo.indexOf('torus') >= 0, self = st.topo.indexOf('noself') < 0;
    var moore = st.topo.indexOf('moore') === 0;
    var d = [[-1, 0], [1, 0], [0, -1], [0, 1]];
    if (moore) d = d.concat([[-1, -1], [-1, 1], [1, -1], [1, 1]]);
    if (self) out.push(i);
    d.forEach(function (o) {
      var rr = r + o[0], cc = c + o[1];
      if (torus) { rr = (rr + st.rows) % st.rows; cc = (cc + st.cols) % st.cols; }
      else if (rr < 0 || cc < 0 || rr >= st.rows || cc >= st.cols) return;
      var j = rr * st.cols + cc;
      if (j !== i || !self) out.push(j); /* tiny tori wrap onto the cell itself */
    });
    return out;
  }
  function press(i, record) {
    neighbours(i).forEach(function (j) { st.cells[j] = (st.cells[j] + 1) % st.k; });
    st.moves++;
    if (record !== false) history_.push(i);
    overlay = null; hintCell = -1; $('hint').value = '';
    changed();
  }
  function unpress(i) {
    neighbours(i).forEach(function (j) { st.cells[j] = (st.cells[j] + st.k - 1) % st.k; });
    st.moves--;
    overlay = null; hintCell = -1;
    changed();
  }
  function solved() { return st.cells.every(function (v) { return v === 1 % st.k; }); }
  function sys() {
    return {rows: st.rows, cols: st.cols, k: st.k, topology: st.topo, start: st.cells};
  }

  /* ---- drawing ---------------------------------------------------------- */
  var palette = [];
  function makePalette() {
    palette = [];
    var id = lib ? lib.colormaps().indexOf('viridis') : -1;
    for (var v = 0; v < st.k; v++) {
      var rgb = lib ? lib.color(id, 0, v, st.k) : [v * 255 / (st.k - 1), 0, 0];
      palette.push('rgb(' + rgb.join(',') + ')');
    }
  }
  function draw() {
    var cv = $('board'), ctx = cv.getContext('2d');
    cellPx = Math.max(4, Math.min(40, Math.floor(800 / Math.max(st.rows, st.cols))));
    cv.width = st.cols * cellPx; cv.height = st.rows * cellPx;
    for (var i = 0; i < st.cells.length; i++) {
      var x = (i % st.cols) * cellPx, y = Math.floor(i / st.cols) * cellPx;
      ctx.fillStyle = palette[st.cells[i]] || '#000';
      ctx.fillRect(x, y, cellPx - (cellPx > 6 ? 1 : 0), cellPx - (cellPx > 6 ? 1 : 0));
      if (overlay && overlay[i]) {
        ctx.fillStyle = '#fff'; ctx.strokeStyle = '#000';
        ctx.font = Math.floor(cellPx * 0.6) + 'px sans-serif';
        ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
        if (cellPx >= 10) { ctx.strokeText(overlay[i], x + cellPx / 2, y + cellPx / 2); ctx.fillText(overlay[i], x + cellPx / 2, y + cellPx / 2); }
        else { ctx.fillRect(x + cellPx / 4, y + cellPx / 4, cellPx / 2, cellPx / 2); }
      }
      if (i === hintCell) {
        ctx.strokeStyle = '#f33'; ctx.lineWidth = Math.max(2, cellPx / 8);
        ctx.strokeRect(x + 1, y + 1, cellPx - 3, cellPx - 3);
      }
    }
  }
  function encodeCells() {
    return st.cells.map(function (v) { return DIGITS[v]; }).join('');
  }
  function changed() {
    $('moves').textContent = st.moves;
    document.documentElement.setAttribute('data-solved', solved() ? 'yes' : 'no');
    if (solved()) msg('all lit in ' + st.moves + ' moves');
    var q = 'grid=' + st.rows + 'x' + st.cols + '&mod=' + st.k + '&topo=' + st.topo +
            '&s=' + encodeCells() + '&m=' + st.moves;
    history.replaceState(null, '', location.pathname + '?' + q);
    draw();
  }
  function msg(t) { $('msg').textContent = t; }

  /* ---- the library's answers --------------------------------------------- */
  function solveNow() {
    var r = lib.fewest(sys(), 65536);
    if (!r.solvable) { msg('no solution from here'); $('solution').value = 'none'; return null; }
    overlay = r.x.map(Number); /* k <= 17 here: every value is a small Number */
    $('solution').value = r.x.join(',');
    msg('solution: ' + r.weight + ' presses' + (r.proven ? ' (fewest)' : ' (best found)') +
        ', nullity ' + r.nullity);
    draw();
    return r;
  }
  function hint() {
    var r = lib.fewest(sys(), 65536);
    if (!r.solvable) { msg('no solution from here'); return; }
    if (r.weight === 0n) { msg('already solved'); return; }
    hintCell = r.x.findIndex(function (v) { return v > 0n; });
    $('hint').value = String(hintCell);
    msg('hint: press the marked cell (' + r.weight + ' presses to go)');
    draw();
  }
  function newPuzzle() {
    var want = parseInt($('presses').value, 10);
    var opts = {seed: Math.floor(Math.random() * 4294967296)};
    if (want > 0) opts.presses = want; else opts.unique = true;
    var r;
    try { r = lib.generate(sys(), opts); }
    catch (e) {
      if (opts.unique) { delete opts.unique; opts.presses = null; r = lib.generate(sys(), opts); }
      else { msg(e.message); return; }
    }
    st.cells = r.start.map(Number); st.moves = 0; history_ = []; overlay = null; hintCell = -1;
    msg('new puzzle' + (r.presses != null ? ': ' + r.presses + ' fewest presses' : '') +
        (r.nullity ? ', nullity ' + r.nullity : ', unique solution'));
    document.documentElement.setAttribute('data-fewest', r.presses == null ? '' : r.presses);
    changed();
  }

  /* ---- wiring ------------------------------------------------------------ */
  function readControls() {
    var cl = function (v, lo, hi, d) { v = parseInt(v, 10); return isNaN(v) ? d : Math.max(lo, Math.min(hi, v)); };
    return newState(cl($('rows').value, 1, 100, 5), cl($('cols').value, 1, 100, 5),
                    cl($('mod').value, 2, 17, 2), $('topology').value);
  }
  function fromUrl() {
    var q = new URLSearchParams(location.search), g = (q.get('grid') || '5x5').split('x');
    $('rows').value = g[0]; $('cols').value = g[1] || g[0];
    $('mod').value = q.get('mod') || 2;
    var topo = q.get('topo') || (q.get('torus') === '1' ? 'torus' : 'classic');
    if ($('topology').querySelector('option[value="' + topo + '"]')) $('topology').value = topo;
    st = readControls();
    var s = q.get('s') || '';
    if (s.length === st.cells.length)
      st.cells = s.split('').map(function (ch) { return Math.min(DIGITS.indexOf(ch), st.k - 1); });
    st.moves = parseInt(q.get('m') || '0', 10) || 0;
    return q.get('solve') === '1';
  }
  function restart() { st = readControls(); history_ = []; overlay = null; hintCell = -1; makePalette(); changed(); }

  var wantSolve = fromUrl();
  makePalette(); draw();
  ['rows', 'cols', 'mod', 'topology'].forEach(function (id) { $(id).addEventListener('change', restart); });
  $('b-reset').addEventListener('click', restart);
  $('b-undo').addEventListener('click', function () { if (history_.length) unpress(history_.pop()); });
  $('board').addEventListener('click', function (e) {
    var b = e.target.getBoundingClientRect(), sx = e.target.width / b.width, sy = e.target.height / b.height;
    var c = Math.floor((e.clientX - b.left) * sx / cellPx), r = Math.floor((e.clientY - b.top) * sy / cellPx);
    if (r >= 0 && c >= 0 && r < st.rows && c < st.cols) press(r * st.cols + c);
  });
  Toggle.load().then(function (l) {
    lib = l;
    makePalette();
    $('b-solve').addEventListener('click', solveNow);
    $('b-hint').addEventListener('click', hint);
    $('b-new').addEventListener('click', newPuzzle);
    msg('libtoggle ' + lib.version + ' ready');
    changed();
    if (wantSolve) solveNow();
    document.documentElement.setAttribute('data-solver', 'ready');
  }, function (e) {
    msg(e.message);
    document.documentElement.setAttribute('data-solver', 'missing');
  });
  /* for tests and the console */
  window.togglePlay = {state: function () { return st; }, cellPx: function () { return cellPx; }};
})();
