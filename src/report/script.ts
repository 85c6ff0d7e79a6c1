/**
 * The report's only script, embedded inline and allowed by its hash in the CSP. It only enhances:
 * sortable table headers and a case filter. With JavaScript off the report is complete (tables in
 * their default order, every drill-down a native <details>). It reads the page with textContent and
 * attributes the renderer wrote, and never writes HTML, so escaped data stays text.
 * Must not contain `</script` or `<!--` (they would change how the HTML tokenizer reads it).
 */
export const REPORT_SCRIPT = `
(function () {
  'use strict';
  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };
  function sortKey(row, index) {
    var cell = row.cells[index];
    if (!cell) return '';
    var raw = cell.getAttribute('data-v');
    if (raw !== null && raw !== '' && !isNaN(Number(raw))) return Number(raw);
    return (cell.textContent || '').trim().toLowerCase();
  }
  each(document.querySelectorAll('table.sortable'), function (table) {
    if (!table.tHead || !table.tBodies[0]) return;
    var headers = table.tHead.rows[0].cells;
    each(headers, function (th, index) {
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'sort';
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener('click', function () {
        var direction = th.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending';
        each(headers, function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', direction);
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = sortKey(a, index), y = sortKey(b, index);
          var order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
          return direction === 'ascending' ? order : -order;
        });
        each(rows, function (row) { body.appendChild(row); });
      });
    });
  });
  var list = document.getElementById('case-list');
  if (!list) return;
  var items = list.querySelectorAll('details.case');
  var tools = document.createElement('div');
  tools.className = 'case-tools';
  var input = document.createElement('input');
  input.type = 'search';
  input.placeholder = 'Filter cases by id, status or step';
  input.setAttribute('aria-label', 'Filter cases');
  var count = document.createElement('span');
  count.className = 'muted';
  function button(label, open) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('click', function () { each(items, function (d) { if (!d.hidden) d.open = open; }); });
    return b;
  }
  input.addEventListener('input', function () {
    var query = input.value.trim().toLowerCase();
    var shown = 0;
    each(items, function (d) {
      var summary = d.querySelector('summary');
      var hit = !query || (summary && (summary.textContent || '').toLowerCase().indexOf(query) >= 0);
      d.hidden = !hit;
      if (hit) shown++;
    });
    count.textContent = query ? shown + ' of ' + items.length + ' shown' : '';
  });
  tools.appendChild(input);
  tools.appendChild(button('Expand all', true));
  tools.appendChild(button('Collapse all', false));
  tools.appendChild(count);
  list.parentNode.insertBefore(tools, list);
})();
`;
