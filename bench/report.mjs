// The tables `npm run bench` prints (BENCHMARKS.md records them).
import { ms, ratio } from './load.mjs';
import { printRedirect, table } from './redirect.mjs';
import { BUDGET, RUNS, SECONDS, SERVICE_SECONDS } from './settings.mjs';

const verdict = (ok) => (ok ? 'met' : 'MISSED');

function printService(svc, title, judged) {
  console.log(`\nService time of each call on one connection, ${title} (ms; ${SERVICE_SECONDS} s each; ratio = call / empty Worker, same run)\n`);
  const rows = [['empty Worker (small JSON)', '', ms(svc.empty.p50), ms(svc.empty.p99), '1', '1', '', '']];
  for (const [name, v] of Object.entries(svc.calls)) {
    const answered = v.bad === 0 && v.ok > 0;
    const judge = (x) => (judged && v.judged ? verdict(answered && x <= BUDGET.serviceMs) : '');
    rows.push([
      name,
      v.bytes === undefined ? '' : v.bytes < 10_000 ? `${v.bytes} B` : `${(v.bytes / 1024).toFixed(0)} KB`,
      ms(v.p50),
      ms(v.p99),
      ratio(v.p50 / svc.empty.p50),
      ratio(v.p99 / svc.empty.p99),
      `${judge(v.p50)}${v.bad ? ` (${v.bad} bad answers)` : ''}`,
      judge(v.p99),
    ]);
  }
  console.log(table(rows, ['call', 'answer', 'p50', 'p99', 'p50 / empty', 'p99 / empty', `p50 <= ${BUDGET.serviceMs} ms`, `p99 <= ${BUDGET.serviceMs} ms`]));
}

export function print(r) {
  for (const [key, title, judged] of [
    ['bare', `bare workerd, local storage ${r.storage ?? ''} (the budgets)`, true],
    ['bareOnDisk', "bare workerd, local storage on disk (its fsyncs on the Worker's thread; for reference)", false],
    ['wranglerDev', 'through wrangler dev (dev proxy in front; for reference)', false],
  ]) {
    const x = r[key];
    if (!x) continue;
    if (x.redirect) printRedirect(x.redirect, title, judged);
    if (x.service) printService(x.service, title, judged);
    if (x.pagedAt16) {
      const { product, loads, empty } = x.pagedAt16;
      const row = (name, v, judge) => [
        name,
        v.rps,
        ms(v.p50),
        ms(v.p99),
        judge ? `p99 <= ${BUDGET.pageP99At16}` : '',
        `${judge ? verdict(v.p99 <= BUDGET.pageP99At16 && v.bad === 0) : ''}${v.bad ? ` (${v.bad} bad)` : ''}`,
      ];
      console.log(
        `\nContact History at 16 connections, ${title} (random pages of 50 of ${r.historyPage?.total} rows; ${RUNS} runs of ${SECONDS} s, medians)\n`,
      );
      const rows = [row('POST /api/callHistory/page, page turns (the page alone)', product, true)];
      if (loads) rows.push(row('POST /api/callHistory/page, Loads (with total, Companies, days)', loads, false));
      rows.push(row('empty Worker (small JSON)', empty, false));
      console.log(table(rows, ['call', 'req/s', 'p50', 'p99', 'budget', '']));
    }
    if (x.mixed) {
      const { product, empty } = x.mixed;
      console.log(
        `\nMixed workload, ${title}: ${product.rate} requests/s arriving at random for ${product.seconds} s (answered ${product.achievedRate.toFixed(0)}/s; empty Worker ${empty.achievedRate.toFixed(0)}/s), latency from each arrival (ms)\n`,
      );
      const rows = Object.entries(product.calls).map(([name, v]) => {
        const e = empty.calls[name];
        return [name, v.count, ms(v.p50), ms(v.p99), ms(e?.p50), ms(e?.p99), ratio(v.p99 / e?.p99), v.bad ? `${v.bad} bad: ${v.badSample}` : ''];
      });
      console.log(table(rows, ['action', 'answers', 'p50', 'p99', 'empty p50', 'empty p99', 'p99 / empty', '']));
    }
  }
  if (r.historyLoad)
    console.log(
      `\none whole 40-day history load (the spec's call): ${r.historyLoad.rows} rows, ${(r.historyLoad.bytes / 1e6).toFixed(1)} MB; one page: ${JSON.stringify(r.historyPage)}`,
    );
  if (r.spa) {
    console.log('\nSPA\n');
    const spaRows = Object.entries(r.spa).map(([page, v]) => [
      page,
      `${(v.jsGzip / 1024).toFixed(1)} KB`,
      `${(v.cssGzip / 1024).toFixed(1)} KB`,
      v.lighthouse ?? 'skipped',
      // the JS budget is the login page's (the first load); a screen behind it loads its own chunk
      verdict((page !== 'login page /' || v.jsGzip <= 110 * 1024) && (v.lighthouse === undefined || v.lighthouse >= 95)),
    ]);
    console.log(table(spaRows, ['page', 'JS gzip', 'CSS gzip', 'Lighthouse performance', 'budget (login page JS <= 110 KB; score >= 95)']));
  }
  console.log(`\nlogin: one password check costs ${r.loginCpuMs.toFixed(1)} ms of CPU (PBKDF2-SHA256, 100,000 iterations)`);
  console.log(`\n${r.machine}; load average ${r.loadAverageAtStart.toFixed(1)} at the start; whole bench ${r.totalSeconds}s\n`);
}
