// The knobs of `npm run bench` (bench/run.mjs lists them) and the budgets it judges by.
export const RUNS = Number(process.env.BENCH_RUNS ?? 3);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
export const PAIRS = Number(process.env.BENCH_PAIRS ?? 12);
export const SERVICE_SECONDS = Number(process.env.BENCH_SERVICE_SECONDS ?? 1.5);
export const MIX_RATE = Number(process.env.BENCH_MIX_RATE ?? 20);
export const MIX_SECONDS = Number(process.env.BENCH_MIX_SECONDS ?? 20);
export const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));
/** BENCH_API=history measures only the calls whose name contains it (while working on one). */
export const ONLY = process.env.BENCH_API ?? '';
/** The budgets (BENCHMARKS.md): judged on the bare runtime. */
export const BUDGET = { serviceMs: 10, pageMs: 30, pageP99At16: 200 };
