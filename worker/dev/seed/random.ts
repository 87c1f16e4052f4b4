import { BROKERS, CITIES, FIRST, LAST, STREETS } from './words';

export const DAY = 86_400_000;

/** A small seeded generator, so a benchmark's data is the same every run. */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rand = ReturnType<typeof makeRand>;
export function makeRand(seed: number) {
  const next = mulberry32(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const chance = (p: number) => next() < p;
  const some = <T>(list: readonly T[], min: number, max: number): T[] => {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, Math.min(copy.length, int(min, max)));
  };
  return { next, int, pick, chance, some };
}

// ---------- fake values made from the words ----------
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');
export const personName = (r: Rand) => `${r.pick(FIRST)} ${r.pick(LAST)}`;
export const phone = (r: Rand) => `+1 (${r.int(201, 989)}) 555-${String(r.int(100, 9999)).padStart(4, '0')}`;
export const digitsOf = (formatted: string) => formatted.replace(/[^\d+]/g, '');
export const brokerEmail = (r: Rand, broker: string) =>
  `${r.pick(['dispatch', 'loads', 'ops', 'carriers', 'booking'])}@${slug(broker.split(/\s+/).slice(0, 2).join(''))}.example`;
export const address = (r: Rand, city = r.pick(CITIES)) => `${r.int(100, 9899)} ${r.pick(STREETS)}, ${city}`;
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Two different cities: a lane. */
export function lane(r: Rand, step: number): { origin: string; dest: string } {
  const origin = r.pick(CITIES);
  let dest = r.pick(CITIES);
  if (dest === origin) dest = CITIES[(CITIES.indexOf(origin) + step) % CITIES.length]!;
  return { origin, dest };
}
export const anyBroker = (r: Rand) => r.pick(BROKERS);

/** A US business hour (13:00–23:00 UTC) on a day `daysAgo` back, weekdays far likelier; never in the future. */
export function contactTime(r: Rand, now: number, days: number): number {
  for (;;) {
    const daysAgo = r.int(0, days - 1);
    const day = new Date(now - daysAgo * DAY);
    const weekday = day.getUTCDay();
    if ((weekday === 0 || weekday === 6) && r.chance(0.85)) continue;
    day.setUTCHours(r.int(13, 22), r.int(0, 59), r.int(0, 59), r.int(0, 999));
    const t = day.getTime();
    if (t < now) return t;
  }
}
