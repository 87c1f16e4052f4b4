import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_NAMES } from '../../mc-settings/email-template.schema';
import { CONTENT, SUBJECT } from './words';

describe('demo seeder templates', () => {
  it('use only the placeholders the Lines hint and the docs list, spelled as listed', () => {
    const used = [...`${SUBJECT}\n${CONTENT}`.matchAll(/\{([A-Za-z][A-Za-z0-9_]*)\}/g)].map((m) => m[1]);
    expect(used).toEqual(['origin', 'destination', 'pickupDate', 'userName']);
    for (const name of used) expect(PLACEHOLDER_NAMES as readonly string[]).toContain(name);
  });
});
