// The mixed workload: a team's working hour compressed, many people at once browsing lists,
// searching filters, paging history, logging contacts and clicking links. Open loop: requests
// arrive at a fixed average rate (exponential gaps, like independent people), whether or not the
// earlier ones were answered, so a slow answer cannot hold the next arrivals back (no coordinated
// omission). Each answer's latency runs from the moment its arrival was due to its last byte.
import { percentile } from './load.mjs';

/** A random pick by weight. */
function picker(actions) {
  const total = actions.reduce((n, a) => n + a.weight, 0);
  return () => {
    let x = Math.random() * total;
    for (const a of actions) {
      x -= a.weight;
      if (x < 0) return a;
    }
    return actions[actions.length - 1];
  };
}

/**
 * Runs `actions` ({ name, weight, request(): { path, method?, headers?, body?, expect? } }) against
 * `url` at `rate` requests a second for `seconds`. Answers per action: count, p50, p99 (ms) and
 * how many answers were not the expected status; and the whole run's achieved rate.
 */
export async function mixedWorkload({ url, actions, rate, seconds, maxInFlight = 512 }) {
  const pick = picker(actions);
  const stats = new Map(actions.map((a) => [a.name, { latencies: [], bad: 0, badSample: '' }]));
  const pending = new Set();
  const start = performance.now();
  const end = start + seconds * 1000;
  let due = start;
  let dropped = 0;
  while (due < end) {
    const now = performance.now();
    if (due > now) await new Promise((r) => setTimeout(r, due - now));
    if (pending.size >= maxInFlight) dropped += 1;
    else {
      const action = pick();
      const req = action.request();
      const sent = due;
      const p = fetch(`${url}${req.path}`, { method: req.method ?? 'GET', headers: req.headers, body: req.body, redirect: 'manual' })
        .then(async (res) => {
          const text = await res.text();
          const s = stats.get(action.name);
          if (res.status === (req.expect ?? 200)) s.latencies.push(performance.now() - sent);
          else {
            s.bad += 1;
            s.badSample ||= `${res.status} ${text.slice(0, 120)}`;
          }
        })
        .catch((err) => {
          const s = stats.get(action.name);
          s.bad += 1;
          s.badSample ||= String(err).slice(0, 120);
        })
        .finally(() => pending.delete(p));
      pending.add(p);
    }
    due += -Math.log(1 - Math.random()) * (1000 / rate);
  }
  await Promise.all(pending);
  const took = (performance.now() - start) / 1000;
  const calls = {};
  let answered = 0;
  for (const [name, s] of stats) {
    answered += s.latencies.length;
    calls[name] = {
      count: s.latencies.length,
      p50: percentile(s.latencies, 50),
      p99: percentile(s.latencies, 99),
      bad: s.bad,
      badSample: s.badSample || undefined,
    };
  }
  return { rate, seconds, achievedRate: answered / took, dropped, calls };
}
