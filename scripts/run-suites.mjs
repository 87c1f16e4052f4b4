// `npm test`: the script tests, then the worker tests (Vitest) and the browser tests (Playwright)
// side by side: each mostly waits on one process or another (workerd, Chromium, Node), so the two
// share the machine's cores better than one after the other (docs/guides/testing.md#how-long-the-suite-takes).
// Each line is prefixed with its suite; the exit code is non-zero when any suite failed, and every
// suite runs to its end either way.
import { spawn } from 'node:child_process';
import readline from 'node:readline';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run <script>`, each output line prefixed; resolves with its exit code and minutes. */
function run(script, prefix) {
  const started = Date.now();
  const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  for (const stream of [child.stdout, child.stderr])
    readline.createInterface({ input: stream }).on('line', (line) => process.stdout.write(prefix ? `${prefix} │ ${line}\n` : `${line}\n`));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0), minutes: (Date.now() - started) / 60_000 })),
  );
}

const results = [await run('test:scripts', '')];
results.push(...(await Promise.all([run('test:worker', 'worker'), run('test:e2e', 'e2e')])));
for (const { script, code, minutes } of results) console.log(`${script}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${minutes.toFixed(1)} min`);
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
