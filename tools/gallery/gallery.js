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
