// The CPU cost of one password check: PBKDF2-SHA256 with the product's parameters
// (worker/lib/passwords.ts) over WebCrypto, the same primitive workerd runs.
import { webcrypto } from 'node:crypto';

const ITERATIONS = 100_000;

async function check(password, pepper, salt) {
  const enc = new TextEncoder();
  const hmacKey = await webcrypto.subtle.importKey('raw', enc.encode(pepper), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const peppered = await webcrypto.subtle.sign('HMAC', hmacKey, enc.encode(password));
  const key = await webcrypto.subtle.importKey('raw', peppered, 'PBKDF2', false, ['deriveBits']);
  return webcrypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: ITERATIONS }, key, 256);
}

/** Median CPU milliseconds of one check over several runs. */
export async function loginCpu(runs = 9) {
  const salt = webcrypto.getRandomValues(new Uint8Array(16));
  await check('warm-up', 'pepper', salt);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const before = process.cpuUsage();
    await check('correct horse battery', 'pepper', salt);
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(`${(await loginCpu()).toFixed(1)} ms`);
