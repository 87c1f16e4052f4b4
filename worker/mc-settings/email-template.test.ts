import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mcSettings } from '../db/schema';
import { problemText } from '../lib/messages';
import { call, createTeam } from '../test/helpers';
import { PLACEHOLDER_LIST, renderTemplate, SAMPLE_LOAD, templateError, unknownPlaceholders } from './email-template.schema';

const load = { ...SAMPLE_LOAD, mcName: 'Swift Haul', userName: 'Ava Hakobyan' };

describe('the e-mail template renderer', () => {
  it('fills every placeholder from the load, the MC and the user', () => {
    const subject = renderTemplate('Load {origin} → {destination} on {pickupDate} ({reference})', load);
    expect(subject).toBe('Load Chicago, IL → Dallas, TX on Nov 24, 2026 (TQL-884213)');
    const body = renderTemplate('Hello {broker},\nIs it still {rate}?\n{userName}, {mcName}', load);
    expect(body).toBe('Hello Total Quality Logistics,\nIs it still $2,350?\nAva Hakobyan, Swift Haul');
  });

  it('reads the older spellings and any case; a missing value is empty; other braces stay as written', () => {
    expect(renderTemplate('{dest} {loadDate} {name} {ORIGIN}', load)).toBe('Dallas, TX Nov 24, 2026 Ava Hakobyan Chicago, IL');
    expect(renderTemplate('Rate: {rate}.', { ...load, rate: '' })).toBe('Rate: .');
    expect(renderTemplate('{ origin } {{origin}} {} {1x} {json: 1}', load)).toBe('{ origin } {Chicago, IL} {} {1x} {json: 1}');
    expect(renderTemplate('{weight} stays', load)).toBe('{weight} stays');
  });

  it('names the unknown placeholders, each once', () => {
    expect(unknownPlaceholders('{origin} {weight} {Weight} {weight} {pickup}')).toEqual(['{weight}', '{Weight}', '{pickup}']);
    expect(problemText(templateError('Load {origin} {pickup}', 'subject')!)).toBe(
      `Unknown placeholder {pickup} in the e-mail subject. Use ${PLACEHOLDER_LIST}`,
    );
    expect(problemText(templateError('{a} and {b}', 'content')!)).toBe(`Unknown placeholders {a}, {b} in the e-mail content. Use ${PLACEHOLDER_LIST}`);
    expect(templateError('', 'content')).toBeNull();
    expect(templateError(null, 'content')).toBeNull();
    expect(PLACEHOLDER_LIST).toBe('{origin}, {destination}, {pickupDate}, {broker}, {rate}, {reference}, {mcName}, {userName}');
  });
});

describe('saving templates', () => {
  it('add and Save Settings refuse an unknown placeholder with 400, naming it, and change nothing', async () => {
    const { manager } = await createTeam();
    const bad = await call('POST', '/api/mcSettings/add/', { token: manager.token, body: { name: 'Acme', lines: [1], emailSubject: 'Load {pickup}' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(`Unknown placeholder {pickup} in the e-mail subject. Use ${PLACEHOLDER_LIST}`);
    expect(await manager.db.select().from(mcSettings).where(eq(mcSettings.userId, manager.id))).toHaveLength(0);

    const good = await call('POST', '/api/mcSettings/add/', {
      token: manager.token,
      body: { name: 'Acme', lines: [1], emailSubject: 'Load {origin} → {destination}', emailContent: 'Hi {broker}, {userName} of {mcName}' },
    });
    expect(good.status).toBe(200);
    const id = good.body.mcSetting._id;

    const update = await call('POST', '/api/mcSettings/update/details', {
      token: manager.token,
      body: { mcSettings: [{ _id: id, emailSubject: 'Still {origin}', emailContent: 'Weight {weight}, {equipment}' }] },
    });
    expect(update.status).toBe(400);
    expect(update.body.message).toBe(`Unknown placeholders {weight}, {equipment} in the e-mail content. Use ${PLACEHOLDER_LIST}`);
    const [row] = await manager.db.select().from(mcSettings).where(eq(mcSettings.id, id));
    expect([row!.emailSubject, row!.emailContent]).toEqual(['Load {origin} → {destination}', 'Hi {broker}, {userName} of {mcName}']);

    const fixed = await call('POST', '/api/mcSettings/update/details', {
      token: manager.token,
      body: { mcSettings: [{ _id: id, emailSubject: 'Load {dest} on {loadDate}', emailContent: 'Rate {rate}, ref {reference}, {pickupDate}' }] },
    });
    expect(fixed.status).toBe(200);
  });
});
