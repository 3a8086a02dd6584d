(function () {
  'use strict';
  var keys = ['n', 'p', 'cmap', 'sym', 'solvable'];
  var cards = Array.prototype.slice.call(document.querySelectorAll('#gallery figure'));
  function sel(k) { return document.getElementById('f-' + k); }
  function apply() {
    var want = {}, shown = 0;
    keys.forEach(function (k) { want[k] = sel(k).value; });
    cards.forEach(function (c) {
      var ok = keys.every(function (k) {
        if (!want[k]) return true;
        if (k === 'cmap' && c.dataset.cmap === 'none') return true;
        return c.dataset[k] === want[k];
      });
      c.hidden = !ok;
      if (ok) shown++;
    });
    document.getElementById('count').textContent =
      'showing ' + shown + ' of ' + cards.length + ' cards';
    document.body.setAttribute('data-shown', String(shown));
  }
  function fromHash() {
    var h = decodeURIComponent(location.hash.replace(/^#/, ''));
    keys.forEach(function (k) { sel(k).value = ''; });
    h.split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i < 0) return;
      var k = kv.slice(0, i), v = kv.slice(i + 1);
      if (keys.indexOf(k) >= 0 && sel(k).querySelector('option[value="' + v + '"]'))
        sel(k).value = v;
    });
    apply();
  }
  function toHash() {
    var parts = [];
    keys.forEach(function (k) { if (sel(k).value) parts.push(k + '=' + sel(k).value); });
    history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname);
    apply();
  }
  keys.forEach(function (k) { sel(k).addEventListener('change', toHash); });
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
/* The detail view: the picture large, the colour-map switcher (every map
 * when libtoggle.js is loaded: the board is solved again by the module and
 * drawn in any map; else the maps the sweep drew), nullity, count,
 * symmetry class, download, and "play this board" on the web site. */
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var dlg = $('detail'), lib = null, card = null, board = null;
  if (!dlg) return;
  if (window.Toggle && window.Toggle.wasmBase64) {
    window.Toggle.load().then(function (l) { lib = l; document.documentElement.setAttribute('data-solver', 'ready'); });
    $('playlink').hidden = false;
  }
  function images(c) {
    var out = {};
    (c.dataset.images || '').split(';').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) out[kv.slice(0, i)] = kv.slice(i + 1);
    });
    return out;
  }
  function draw(map) {
    var imgs = images(card), n = +card.dataset.n, p = +card.dataset.p;
    var cv = $('d-canvas'), img = $('d-img');
    if (!img) { /* made here: a gallery without pictures has no <img> at all */
      img = document.createElement('img');
      img.id = 'd-img'; img.alt = '';
      cv.parentNode.appendChild(img);
    }
    if (lib && board) {
      var names = lib.colormaps(), rev = /_r$/.test(map), id = names.indexOf(map.replace(/_r$/, ''));
      var cell = Math.max(1, Math.floor(600 / n)), ctx = cv.getContext('2d');
      cv.width = cv.height = n * cell;
      var pal = [];
      for (var v = 0; v < p; v++) pal.push('rgb(' + lib.color(id, rev, v, p).join(',') + ')');
      for (var i = 0; i < n * n; i++) {
        ctx.fillStyle = pal[board[i]];
        ctx.fillRect((i % n) * cell, Math.floor(i / n) * cell, cell, cell);
      }
      cv.hidden = false; img.hidden = true;
      $('d-download').href = cv.toDataURL('image/png');
    } else {
      img.src = imgs[map] || ''; img.hidden = false; cv.hidden = true;
      $('d-download').href = imgs[map] || '';
    }
    $('d-download').setAttribute('download', 'n' + n + '-p' + p + '-' + map + '.png');
    dlg.setAttribute('data-cmap', map);
  }
  function open(c) {
    card = c;
    var n = +c.dataset.n, p = +c.dataset.p, imgs = images(c), maps = Object.keys(imgs);
    board = null;
    if (lib && c.dataset.solvable === 'yes') {
      var r = lib.solve({rows: n, cols: n, k: p});
      board = r.x.map(Number); /* values < p, a gallery prime: small Numbers */
      maps = lib.colormaps();
      maps = maps.concat(maps.map(function (m) { return m + '_r'; }));
    }
    $('d-title').textContent = n + '\u00d7' + n + ' over F' + p;
    var sel = $('d-cmap');
    sel.innerHTML = '';
    maps.forEach(function (m) { var o = document.createElement('option'); o.value = o.textContent = m; sel.appendChild(o); });
    var start = c.dataset.cmap !== 'none' ? c.dataset.cmap : maps[0];
    if (start) sel.value = start;
    $('d-facts').textContent = 'nullity ' + c.dataset.nullity + ' \u00b7 solutions ' +
      (c.dataset.solvable === 'yes' ? c.dataset.count : 'none') + ' \u00b7 symmetry ' + c.dataset.symname;
    var play = $('d-play');
    play.hidden = !lib;
    play.href = 'play.html?grid=' + n + 'x' + n + '&mod=' + p + '&solve=1';
    if (start) draw(start);
    dlg.showModal();
  }
  $('d-cmap').addEventListener('change', function () { draw($('d-cmap').value); });
  $('d-close').addEventListener('click', function () { dlg.close(); });
  document.querySelectorAll('#gallery figure').forEach(function (c) {
    c.addEventListener('click', function (e) { e.preventDefault(); open(c); });
  });
})();
