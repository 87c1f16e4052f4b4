/** The zone's calendar date of an instant, as YYYY-MM-DD, and the instant a zone's date starts. */
function zoneDays(timeZone: string) {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const wall = (t: number) => {
    const p = Object.fromEntries(format.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
    return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  };
  const offset = (t: number) => wall(t) - Math.floor(t / 1000) * 1000;
  return {
    dateOf: (t: number) => new Date(wall(t)).toISOString().slice(0, 10),
    /** The instant `date` (YYYY-MM-DD, may overflow: Jan 32 is Feb 1) starts in the zone. */
    startOf: (y: number, m: number, d: number) => {
      const guess = Date.UTC(y, m, d);
      const first = guess - offset(guess);
      return guess - offset(first);
    },
  };
}

/** The first day starts at `from` and the last ends at `to`, so the days' counts add up to the load's total. */
export function daysOf(from: Date, to: Date, timeZone: string): { date: string; start: number; end: number }[] {
  const zone = zoneDays(timeZone);
  const days: { date: string; start: number; end: number }[] = [];
  let start = from.getTime();
  const end = to.getTime();
  while (start < end && days.length < 45) {
    const date = zone.dateOf(start);
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    const next = Math.min(end, Math.max(zone.startOf(y, m - 1, d + 1), start + 1));
    days.push({ date, start, end: next });
    start = next;
  }
  return days;
}
