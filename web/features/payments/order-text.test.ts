import { describe, expect, it } from 'vitest';
import { bought } from './order-text';

describe('what an order bought (Payment History)', () => {
  const item = (months: number, days = 0) => ({ user: null, months, days, price: 0 });
  it('a team order of 2 agents × 2 months says so, not the sum of its months', () => {
    expect(bought({ kind: 'team', amount: 4, items: [item(2), item(2)] })).toBe('2 agents × 2 months');
    expect(bought({ kind: 'team', amount: 3, items: [item(2), item(1)] })).toBe('2 agents: 2 months, 1 month');
    expect(bought({ kind: 'team', amount: 0, items: [item(0, 31), item(0, 31)] })).toBe('2 agents × 31 days');
    // an agent sees its own line
    expect(bought({ kind: 'team', amount: 2, items: [item(2)] })).toBe('2 months');
    expect(bought({ kind: 'single', amount: 1, items: [] })).toBe('1 month');
  });
});
