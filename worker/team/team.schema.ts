import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import * as z from 'zod';
import { contactFieldsSchema } from '../history/history.schema';
import { problem } from '../lib/messages';
import { LINES_MESSAGES as LINES } from '../mc-settings/mc-settings.messages';
import { DIALERS, dialerTemplateError, MAX_DIALER_TEMPLATE } from './dialer';

/** How far back the board's "contacted by the team" markers look, by default and at most. */
export const CONTACT_WINDOW = { defaultHours: 12, minHours: 1, maxHours: 48 } as const;

export const MAX_LINE_LABEL = 40;

/**
 * A caller number as E.164 ('+13125550100'), or null: it must be written with its country code
 * (a team in Yerevan calls from US numbers, so no country is guessed) and be a valid number.
 */
export function callerNumberOf(value: string): string | null {
  const text = value.trim();
  if (!text.startsWith('+') || text.length > 30) return null;
  const parsed = parsePhoneNumberFromString(text);
  return parsed?.isValid() && !parsed.ext ? parsed.number : null;
}

const lineSchema = z
  .object({
    line: z
      .number({ error: problem(LINES.line) })
      .int(problem(LINES.line))
      .min(1, problem(LINES.line))
      .max(6, problem(LINES.line)),
    callerNumber: z.string().max(100).optional().default(''),
    label: z.string().max(200).nullable().optional().default(''),
  })
  .transform((v, ctx) => {
    const callerNumber = callerNumberOf(v.callerNumber);
    if (!callerNumber) {
      ctx.addIssue({ code: 'custom', message: problem(LINES.callerNumber, { line: v.line }) });
      return z.NEVER;
    }
    const label = (v.label ?? '').trim();
    if (label.length > MAX_LINE_LABEL) {
      ctx.addIssue({ code: 'custom', message: problem(LINES.label, { line: v.line, max: MAX_LINE_LABEL }) });
      return z.NEVER;
    }
    return { line: v.line, callerNumber, label };
  });

/** `lines` lists the lines with a caller number; the template is checked only when the dialer is `template`. */
export const teamSettingsInputSchema = z
  .object({
    dialer: z.enum(DIALERS, { error: problem(LINES.dialer) }),
    dialerTemplate: z.string().max(2000).nullable().optional().default(''),
    lines: z.array(lineSchema).max(6, problem(LINES.tooManyLines)).optional().default([]),
    /** The board's "contacted by the team" markers on or off (default on). */
    contactMarkers: z
      .boolean({ error: problem(LINES.markers) })
      .optional()
      .default(true),
    /** How many hours back the markers look (default 12: a shift that crosses midnight). */
    contactWindowHours: z
      .number({ error: problem(LINES.window) })
      .int(problem(LINES.window))
      .min(CONTACT_WINDOW.minHours, problem(LINES.window))
      .max(CONTACT_WINDOW.maxHours, problem(LINES.window))
      .optional()
      .default(CONTACT_WINDOW.defaultHours),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<number>();
    for (const l of v.lines) {
      if (seen.has(l.line)) ctx.addIssue({ code: 'custom', message: problem(LINES.lineTwice, { line: l.line }), path: ['lines'] });
      seen.add(l.line);
    }
    if (v.dialer === 'template') {
      const refused = dialerTemplateError(v.dialerTemplate ?? '');
      if (refused) ctx.addIssue({ code: 'custom', message: refused, path: ['dialerTemplate'] });
    } else if ((v.dialerTemplate ?? '').length > MAX_DIALER_TEMPLATE)
      ctx.addIssue({ code: 'custom', message: problem(LINES.templateLong, { max: MAX_DIALER_TEMPLATE }), path: ['dialerTemplate'] });
  })
  .transform((v) => ({ ...v, dialerTemplate: (v.dialerTemplate ?? '').trim(), lines: [...v.lines].sort((a, b) => a.line - b.line) }));
export type TeamSettingsInput = z.output<typeof teamSettingsInputSchema>;

export const teamLineSchema = z.strictObject({
  line: z.number(),
  callerNumber: z.string(),
  label: z.string(),
});
export type TeamLineDto = z.infer<typeof teamLineSchema>;

export const teamSettingsSchema = z.strictObject({
  dialer: z.enum(DIALERS),
  dialerTemplate: z.string(),
  lines: z.array(teamLineSchema),
  contactMarkers: z.boolean(),
  contactWindowHours: z.number(),
  canEdit: z.boolean(),
});
export type TeamSettingsDto = z.infer<typeof teamSettingsSchema>;

/** Nothing of the call beyond what identifies the broker and the load. */
export const teamContactSchema = contactFieldsSchema
  .pick({ kind: true, line: true, brokerName: true, contact: true, origin: true, dest: true, loadDate: true, board: true })
  .extend({
    userId: z.string(),
    by: z.string(),
    at: z.number(),
    mcName: z.string(),
  });
export type TeamContactDto = z.infer<typeof teamContactSchema>;

/** GET /api/team/contacts: the team's contacts of the window, newest first (empty when markers are off). */
export const teamContactsSchema = z.strictObject({
  contactMarkers: z.boolean(),
  contactWindowHours: z.number(),
  contacts: z.array(teamContactSchema),
});
export type TeamContactsDto = z.infer<typeof teamContactsSchema>;
