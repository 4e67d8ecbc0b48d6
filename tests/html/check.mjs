// check.mjs - `make check-html` (SPEC §17): opens the pages tests/check-html.sh made in
// headless Debian chromium (playwright-core) from file:// with every other request
// refused, and checks what a student and a teacher rely on: no console error and no
// request leaves the page; the steps reveal one at a time and all at once; every number
// shown equals the embedded JSON's at --digits; Tab and the arrow keys reach every cell;
// a cell's tooltip and aria-live text are lines `trace` writes; --predict hides a value
// until a right guess; print media and a page without script show every step; text
// contrast >= 4.5:1 in light and dark; a 64-token page paints within a second and
// scrolls its tables. The pages of decode, --tiles, the block and trace --row/--step
// (kinds walk and shot) quote their own walk's lines (TRACE.txt is that walk's text);
// grad's (notrace) has no line per cell. check's class page (class; TRACE is its JSON):
// the gradebook's scores and the bars' parts equal the JSON's, every bar is as wide as
// the class. Screenshots (light, dark) and a PDF of each shot and class page are kept
// in the output folder.
//
// Usage: node tests/html/check.mjs DIR   (DIR holds pages.txt: "NAME DIGITS TRACE.txt KIND")
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const dir = path.resolve(process.argv[2]);
const require = createRequire(path.join(dir, '..', 'html-tools', 'package.json'));
const { chromium } = require('playwright-core');

let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) { passed++; return; }
  failed++;
  console.log('FAIL ' + what);
}

// ---- contrast, WCAG 2.1: relative luminance of sRGB ----
function lum([r, g, b]) {
  const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}
function ratio(a, b) {
  const x = lum(a), y = lum(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

// Every visible element that holds text of its own: its colour and the first opaque
// background at or above it, as the browser computed them.
async function colourPairs(page) {
  return page.evaluate(() => {
    const rgb = (s) => (s.match(/[\d.]+/g) || []).map(Number);
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
      if (!own || el.closest('script,style,[hidden]') || el.offsetParent === null && el.id !== 'as-live') continue;
      let b = el, bg;
      for (; b; b = b.parentElement) {
        const c = rgb(getComputedStyle(b).backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3] > 0)) { bg = c.slice(0, 3); break; }
      }
      out.push({ what: el.tagName + '.' + el.className + ' "' + el.textContent.trim().slice(0, 20) + '"',
                 fg: rgb(getComputedStyle(el).color).slice(0, 3), bg: bg || [255, 255, 255] });
    }
    return out;
  });
}

async function open(browser, file, opts = {}) {
  const context = await browser.newContext(opts);
  const requests = [], errors = [];
  const url = 'file://' + file;
  await context.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  return { context, page, requests, errors };
}

const visibleSteps = (page) => page.$$eval('.step', (s) => s.filter((x) => getComputedStyle(x).display !== 'none').length);

// The numbers shown against the JSON: |shown - json| <= half a unit of the last of
// `digits` places (-inf is null in the JSON, −∞ on the page).
async function numbersMatch(page, digits, name) {
  const bad = await page.evaluate((digits) => {
    const J = JSON.parse(document.getElementById('as-json').textContent), wrong = [];
    let seen = 0;
    for (const t of document.querySelectorAll('table.m')) {
      if (!t.dataset.j) continue;
      let m = J;
      for (const k of t.dataset.j.split('.')) m = m[k];
      if (!Array.isArray(m[0])) m = [m]; // a plain row (decode's)
      for (const c of t.querySelectorAll('td.c')) {
        const x = m[c.parentNode.rowIndex - 1][c.cellIndex - 1];
        const s = c.querySelector('.v').textContent.replace('\u2212', '-');
        seen++;
        if (x === null ? !/^-(\u221e|inf)$/.test(s) : Math.abs(Number(s) - x) > 0.5 * Math.pow(10, -digits) * (1 + 1e-9) + 1e-12 * Math.abs(x))
          wrong.push(t.dataset.name + '[' + (c.parentNode.rowIndex - 1) + ',' + (c.cellIndex - 1) + '] ' + s + ' vs ' + x);
      }
    }
    return { wrong, seen };
  }, digits);
  check(bad.seen > 0 && bad.wrong.length === 0, name + ': numbers equal the JSON at --digits ' + digits + ' ' + bad.wrong.slice(0, 3).join('; '));
}

// Tab reaches each table; in each, the arrows reach every cell, and each focused cell's
// tooltip and aria-live text equal its tip, whose lines are lines of trace's output.
async function keyboard(page, traceLines, name, kind) {
  await page.click('#as-all');
  const tables = await page.$$eval('table.m', (t) => t.length);
  const reached = new Set();
  await page.mouse.move(1, 1); // a pointer over a cell would show that cell's tooltip
  await page.focus('#as-all');
  const stops = await page.$$eval('a[href],button,summary,[tabindex="0"],input', (x) => x.length);
  for (let k = 0; k < stops + 2; k++) {
    await page.keyboard.press('Tab');
    const t = await page.evaluate(() => { const c = document.activeElement.closest('table.m'); return c ? [...document.querySelectorAll('table.m')].indexOf(c) : -1; });
    if (t >= 0) reached.add(t);
  }
  check(reached.size === tables, name + ': Tab reaches every table (' + reached.size + ' of ' + tables + ')');
  let cells = 0, cellsSeen = 0, tipsOk = 0, traceOk = 0, traced = 0;
  for (let t = 0; t < tables; t++) {
    const dims = await page.$eval(`table.m >> nth=${t}`, (x) => [x.tBodies[0].rows.length, x.tBodies[0].rows[0].cells.length - 1]);
    cells += dims[0] * dims[1];
    await page.focus(`table.m >> nth=${t} >> td.c >> nth=0`);
    for (let i = 0; i < dims[0]; i++) {
      for (let j = 0; j < dims[1]; j++) {
        const r = await page.evaluate(() => {
          const c = document.activeElement;
          return { cell: c.matches('td.c'), at: [c.parentNode.rowIndex - 1, c.cellIndex - 1], tip: c.dataset.tip,
                   live: document.getElementById('as-live').textContent, shown: document.getElementById('as-tip').textContent,
                   src: c.dataset.src };
        });
        if (r.cell && r.at[0] === i && r.at[1] === j) cellsSeen++;
        if (r.tip && r.live === r.tip && r.shown === r.tip) tipsOk++;
        if (r.src === 'trace') {
          traced++;
          if (r.tip.split('\n').every((l) => traceLines.has(l))) traceOk++;
          else if (traced - traceOk < 3) console.log('  not a trace line: ' + JSON.stringify(r.tip));
        }
        await page.keyboard.press(j + 1 < dims[1] ? 'ArrowRight' : 'ArrowDown');
        if (j + 1 === dims[1]) for (let b = 0; b < dims[1] - 1; b++) await page.keyboard.press('ArrowLeft');
      }
    }
  }
  check(cellsSeen === cells, name + ': the arrows reach every cell (' + cellsSeen + ' of ' + cells + ')');
  check(tipsOk === cells, name + ': tooltip and aria-live say the cell (' + tipsOk + ' of ' + cells + ')');
  check((traced > 0 || kind === 'notrace') && traceOk === traced,
    name + ': every tooltip line is a line of trace (' + traceOk + ' of ' + traced + ')');
}

async function contrast(page, name) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    const pairs = await colourPairs(page);
    const low = pairs.filter((p) => ratio(p.fg, p.bg) < 4.5);
    check(pairs.length > 10 && low.length === 0, `${name}: contrast >= 4.5 in ${scheme} (${pairs.length} texts) ` +
      low.slice(0, 3).map((p) => p.what + ' ' + ratio(p.fg, p.bg).toFixed(2)).join('; '));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function pageChecks(browser, file, digits, traceLines, kind) {
  const name = path.basename(file);
  const { context, page, requests, errors } = await open(browser, file);
  const steps = await page.$$eval('.step', (s) => s.length);
  check(await visibleSteps(page) === 1, name + ': one step shown at first');
  await page.keyboard.press('ArrowRight');
  check(await visibleSteps(page) === Math.min(2, steps), name + ': → shows the next step');
  await page.click('#as-next');
  check(await visibleSteps(page) === Math.min(3, steps), name + ': the button shows the next step');
  await page.emulateMedia({ media: 'print' });
  check(await visibleSteps(page) === steps, name + ': print shows every step');
  await page.emulateMedia({ media: 'screen' });
  await page.click('#as-all');
  check(await visibleSteps(page) === steps, name + ': show all shows every step');
  await numbersMatch(page, digits, name);
  if (kind !== 'big') {
    await keyboard(page, traceLines, name, kind);
    await contrast(page, name);
  }
  if (kind === 'shot' || kind === 'notrace') {
    const tables = await page.$$eval('table.m', (t) => t.length);
    await page.click('#as-all');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(dir, name + '.light.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.focus(`table.m >> nth=${Math.min(8, tables - 1)} >> td.c >> nth=0`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(dir, name + '.dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light', media: 'print' });
    await page.pdf({ path: path.join(dir, name + '.pdf'), format: 'A4' });
  }
  if (kind === 'big') {
    const fcp = await page.evaluate(() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime);
    check(fcp !== undefined && fcp < 1000, name + ': first paint within a second (' + fcp + ' ms)');
    const scrolls = await page.$$eval('.scroll', (s) => s.some((x) => x.scrollWidth > x.clientWidth && getComputedStyle(x).overflowX === 'auto'));
    check(scrolls, name + ': a table wider than the screen scrolls');
    console.log('  ' + name + ': first contentful paint ' + fcp + ' ms');
  }
  check(errors.length === 0, name + ': no console error ' + errors.join('; '));
  check(requests.length === 0, name + ': no request leaves the page ' + requests.join(' '));
  await context.close();
  // without script: every step and every value shown, no controls
  const off = await open(browser, file, { javaScriptEnabled: false });
  check(await visibleSteps(off.page) === steps, name + ': without script every step is shown');
  const hiddenValues = await off.page.$$eval('td.c .v', (v) => v.filter((x) => x.offsetParent === null).length);
  check(hiddenValues === 0 && !(await off.page.isVisible('#as-controls')), name + ': without script every value is shown');
  await off.context.close();
}

// --predict: a worked-out cell hides its value behind a box; a wrong guess leaves it
// hidden and says so, a right one (the JSON's value as written) shows it.
async function predictChecks(browser, file) {
  const name = path.basename(file);
  const { context, page, errors } = await open(browser, file);
  await page.click('#as-all');
  const cell = await page.$('td.p');
  check(await page.$$eval('td.p', (c) => c.length > 0 && c.every((x) => x.querySelector('.v').hidden && x.querySelector('input'))),
    name + ': every worked-out value is hidden behind a guess box');
  check(await page.$$eval('table.m', (t) => t.some((x) => x.dataset.name === 'X' && x.querySelectorAll('td.p').length === 0)),
    name + ': the given X is shown');
  const truth = await cell.evaluate((c) => { const t = c.closest('table'); let v = JSON.parse(document.getElementById('as-json').textContent); for (const k of t.dataset.j.split('.')) v = v[k]; return v[c.parentNode.rowIndex - 1][c.cellIndex - 1]; });
  const input = await cell.$('input');
  await input.fill(String(truth + 1));
  await input.press('Enter');
  check(await cell.evaluate((c) => c.querySelector('.v').hidden && c.classList.contains('wrong')), name + ': a wrong guess keeps the value hidden');
  check((await page.textContent('#as-live')).includes(String(truth + 1)), name + ': a wrong guess is said in the live region');
  await input.fill(String(truth));
  await input.press('Enter');
  check(await cell.evaluate((c) => !c.querySelector('.v').hidden && !c.querySelector('input')), name + ': a right guess shows the value');
  check((await page.textContent('#as-live')).length > 0 && !(await cell.evaluate((c) => c.classList.contains('wrong'))), name + ': a right guess is said');
  await page.emulateMedia({ media: 'print' });
  check(await page.$$eval('td.p .v', (v) => v.every((x) => getComputedStyle(x).visibility === 'visible')), name + ': print shows the hidden values');
  check(errors.length === 0, name + ': no console error ' + errors.join('; '));
  await context.close();
}

// check's class page: the steps reveal as a page's do and all show without script and in
// print; the gradebook's scores are the JSON's; each bar is as wide as the class and its
// parts are the numbers its caption gives; text contrast in light and dark; no request.
async function classChecks(browser, file, json) {
  const name = path.basename(file);
  const J = JSON.parse(json);
  const students = J.students || [J];
  const { context, page, requests, errors } = await open(browser, file);
  const steps = await page.$$eval('.step', (s) => s.length);
  check(await visibleSteps(page) === 1, name + ': one step shown at first');
  await page.keyboard.press('ArrowRight');
  check(await visibleSteps(page) === Math.min(2, steps), name + ': → shows the next step');
  await page.emulateMedia({ media: 'print' });
  check(await visibleSteps(page) === steps, name + ': print shows every step');
  await page.emulateMedia({ media: 'screen' });
  await page.click('#as-all');
  check(await visibleSteps(page) === steps && steps === 2 + students.length,
    name + ': the gradebook, the item analysis and a step per student (' + steps + ')');
  const book = await page.$$eval('#as-book tbody tr', (r) => r.map((x) => [x.cells[0].textContent, x.cells[1].textContent]));
  const want = students.map((s) => [s.name, String(Math.round(s.score * 100) / 100) + '/' + s.max]);
  check(JSON.stringify(book) === JSON.stringify(want), name + ': the gradebook\'s scores are the JSON\'s ' + JSON.stringify(book));
  // per table, from the JSON: right, carried (credit without being right), wrong; a
  // table answered by rows (q1, a1: SPEC §6) is that table's mark, right when every row
  // is, carried when every row earned its credit
  const items = {};
  for (const s of students) {
    const mark = {};
    for (const t of s.tables) {
      const table = /^[a-z]\d+$/.test(t.name) ? t.name[0].toUpperCase() : t.name;
      const m = mark[table] || (mark[table] = { correct: true, credit: true });
      m.correct = m.correct && t.correct;
      m.credit = m.credit && t.credit > 0;
    }
    for (const [table, m] of Object.entries(mark)) {
      const it = items[table] || (items[table] = [0, 0, 0]);
      it[m.correct ? 0 : m.credit ? 1 : 2]++;
    }
  }
  const bars = await page.$$eval('figure.bar', (f) => f.map((x) => ({
    label: x.querySelector('figcaption').textContent, aria: x.querySelector('svg').getAttribute('aria-label'),
    width: Number(x.querySelector('svg').getAttribute('viewBox').split(' ')[2]),
    parts: [...x.querySelectorAll('rect')].map((r) => [Number(r.getAttribute('x')), Number(r.getAttribute('width'))]) })));
  let barsOk = 0, itemsOk = 0, itemsSeen = 0;
  for (const b of bars) {
    const sum = b.parts.reduce((a, p) => a + p[1], 0);
    const numbers = (b.label.replace(/^[^:：]*[:：]/, '').replace(/[（(][^)）]*[)）]/g, '').match(/\d+/g) || []).map(Number);
    const shown = b.parts.map((p) => p[1]);
    if (b.width === students.length && b.aria === b.label && numbers.filter((n) => n > 0).join() === shown.join() &&
        (numbers.length === 1 || sum === students.length)) barsOk++;
    const table = b.label.split(/[:：]/)[0];
    if (numbers.length === 4) {
      itemsSeen++;
      const it = items[table.replace('\u1d40', 'T')] || items[table];
      if (it && it[0] === numbers[0] && it[1] === numbers[1] && it[2] === numbers[2] &&
          numbers[3] === students.length - it[0] - it[1] - it[2]) itemsOk++;
      else console.log('  item ' + b.label + ' vs ' + JSON.stringify(it));
    }
  }
  check(bars.length > 0 && barsOk === bars.length, name + ': each bar is the class wide, its parts its numbers (' + barsOk + ' of ' + bars.length + ')');
  check(itemsSeen > 0 && itemsOk === itemsSeen, name + ': the item analysis equals the JSON\'s tables (' + itemsOk + ' of ' + itemsSeen + ')');
  const wrongShown = await page.$$eval('ul.wrong li:not(.diag)', (l) => l.length);
  const wrongJson = students.reduce((a, s) => a + s.tables.filter((t) => !t.correct && !t.credit).reduce((b, t) => b + t.wrong_cells.length, 0), 0);
  check(wrongShown === wrongJson, name + ': every wrong cell is listed (' + wrongShown + ' of ' + wrongJson + ')');
  await contrast(page, name);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, name + '.light.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path.join(dir, name + '.dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light', media: 'print' });
  await page.pdf({ path: path.join(dir, name + '.pdf'), format: 'A4' });
  check(errors.length === 0, name + ': no console error ' + errors.join('; '));
  check(requests.length === 0, name + ': no request leaves the page ' + requests.join(' '));
  await context.close();
  const off = await open(browser, file, { javaScriptEnabled: false });
  check(await visibleSteps(off.page) === steps && !(await off.page.isVisible('#as-controls')),
    name + ': without script every step is shown');
  await off.context.close();
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const line of readFileSync(path.join(dir, 'pages.txt'), 'utf8').split('\n').filter(Boolean)) {
  const [file, digits, trace, kind] = line.split(' ');
  const traceLines = new Set(readFileSync(path.join(dir, trace), 'utf8').split('\n'));
  if (kind === 'predict') await predictChecks(browser, path.join(dir, file));
  else if (kind === 'class') await classChecks(browser, path.join(dir, file), readFileSync(path.join(dir, trace), 'utf8'));
  else await pageChecks(browser, path.join(dir, file), Number(digits), traceLines, kind);
}
await browser.close();
console.log(`check-html: ${passed} passed, ${failed} failed`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
