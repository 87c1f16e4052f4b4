import { describe, expect, it } from 'vitest';
import { apiError, apiErrorWith, problemError } from './errors';
import { defineMessages, keyOfCode, messageByCode, problem, readProblem, textOf } from './messages';

const SAMPLE = defineMessages('sample', {
  taken: [409, 'Line {{line}} is already used by {{name}}', 'another MC has the line'],
  empty: [400, 'Name is empty'],
  saved: 'Settings saved',
});
const LOGIN = defineMessages('', { wrong: [400, 'Wrong email or password'] });
const OTHER = defineMessages('other', { empty: [400, 'Name is empty'], taken: SAMPLE.taken });

describe('an area table', () => {
  it("gives each entry its area's code, status and English; a shared entry keeps its own code", () => {
    expect(SAMPLE.taken).toEqual({ code: 'sample.taken', status: 409, text: 'Line {{line}} is already used by {{name}}', when: 'another MC has the line' });
    expect(SAMPLE.saved).toEqual({ code: 'sample.saved', status: 200, text: 'Settings saved' });
    expect(LOGIN.wrong.code).toBe('wrong');
    // the same text in two areas: two codes
    expect([SAMPLE.empty.code, OTHER.empty.code]).toEqual(['sample.empty', 'other.empty']);
    expect(OTHER.taken).toBe(SAMPLE.taken);
    expect(messageByCode('other.empty')).toBe(OTHER.empty);
    expect([keyOfCode('sample.taken'), keyOfCode('wrong')]).toEqual(['sampleMessages.taken', 'messages.wrong']);
  });

  it('fills the values in English, numbers with commas, and a refusal carries code, status and values', () => {
    expect(textOf(SAMPLE.taken, { line: 3, name: 'Acme {x}, Inc.' })).toBe('Line 3 is already used by Acme {x}, Inc.');
    expect(textOf(SAMPLE.taken, { line: 12_345, name: '{{line}}' })).toBe('Line 12,345 is already used by {{line}}');
    const refusal = apiErrorWith({ existingId: 'x' }, SAMPLE.taken, { line: 3, name: 'Acme' });
    expect([refusal.status, refusal.message, refusal.code, refusal.params, refusal.details]).toEqual([
      409,
      'Line 3 is already used by Acme',
      'sample.taken',
      { line: 3, name: 'Acme' },
      { existingId: 'x' },
    ]);
    expect(apiError(LOGIN.wrong).params).toBeUndefined();
  });

  it("reads a schema's problem back as its entry and values, and leaves any other text as a plain 400", () => {
    const text = problem(SAMPLE.taken, { line: 2, name: 'Line 2 is listed twice' });
    expect(readProblem(text)).toEqual({ entry: SAMPLE.taken, params: { line: 2, name: 'Line 2 is listed twice' } });
    expect(readProblem(problem(SAMPLE.empty))).toEqual({ entry: SAMPLE.empty });
    expect(readProblem('Name is empty')).toBeNull();
    expect(readProblem('sample.taken {not json')).toBeNull();
    const refused = problemError(text);
    expect([refused.status, refused.message, refused.code]).toEqual([409, 'Line 2 is already used by Line 2 is listed twice', 'sample.taken']);
    const plain = problemError('Invalid input (name)');
    expect([plain.status, plain.message, plain.code]).toEqual([400, 'Invalid input (name)', undefined]);
  });

  it('types the values a text names', () => {
    // @ts-expect-error the line and the name are required
    expect(() => textOf(SAMPLE.taken)).not.toThrow();
    // @ts-expect-error a text without values takes none
    expect(textOf(SAMPLE.empty, { line: 1 })).toBe('Name is empty');
  });
});
