import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import * as z from 'zod';
import { contactFieldsSchema } from '../history/history.schema';
import { template } from '../lib/coded';
import { DIALER_MESSAGES, DIALERS, dialerTemplateError, MAX_DIALER_TEMPLATE } from './dialer';

/** The team settings' messages. Shared with the Lines screen. */
export const TEAM_MESSAGES = {
  saved: 'Team phone settings saved',
  line: 'Lines are 1 to 6',
  tooManyLines: 'A team has at most 6 lines',
  lineTwice: template<'line'>('Line {{line}} is listed twice'),
  callerNumber: template<'line'>('Line {{line}}: enter the caller number in international format, like +1 312 555 0100'),
  label: template<'line' | 'max'>('Line {{line}}: the label is at most {{max}} characters'),
  window: 'The window is 1 to 48 hours',
  markers: 'Markers are on (true) or off (false)',
} as const;

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
    line: z.number({ error: TEAM_MESSAGES.line }).int(TEAM_MESSAGES.line).min(1, TEAM_MESSAGES.line).max(6, TEAM_MESSAGES.line),
    callerNumber: z.string().max(100).optional().default(''),
    label: z.string().max(200).nullable().optional().default(''),
  })
  .transform((v, ctx) => {
    const callerNumber = callerNumberOf(v.callerNumber);
    if (!callerNumber) {
      ctx.addIssue({ code: 'custom', message: TEAM_MESSAGES.callerNumber({ line: v.line }) });
      return z.NEVER;
    }
    const label = (v.label ?? '').trim();
    if (label.length > MAX_LINE_LABEL) {
      ctx.addIssue({ code: 'custom', message: TEAM_MESSAGES.label({ line: v.line, max: MAX_LINE_LABEL }) });
      return z.NEVER;
    }
    return { line: v.line, callerNumber, label };
  });

/**
 * PUT /api/team/settings: the whole of the team's phone settings at once. `lines` lists the lines
 * that have a caller number (a line left out has none); the dialer's template is checked when the
 * dialer is `template` and kept as typed otherwise.
 */
export const teamSettingsInputSchema = z
  .object({
    dialer: z.enum(DIALERS, { error: DIALER_MESSAGES.dialer }),
    dialerTemplate: z.string().max(2000).nullable().optional().default(''),
    lines: z.array(lineSchema).max(6, TEAM_MESSAGES.tooManyLines).optional().default([]),
    /** The board's "contacted by the team" markers on or off (default on). */
    contactMarkers: z.boolean({ error: TEAM_MESSAGES.markers }).optional().default(true),
    /** How many hours back the markers look (default 12: a shift that crosses midnight). */
    contactWindowHours: z
      .number({ error: TEAM_MESSAGES.window })
      .int(TEAM_MESSAGES.window)
      .min(CONTACT_WINDOW.minHours, TEAM_MESSAGES.window)
      .max(CONTACT_WINDOW.maxHours, TEAM_MESSAGES.window)
      .optional()
      .default(CONTACT_WINDOW.defaultHours),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<number>();
    for (const l of v.lines) {
      if (seen.has(l.line)) ctx.addIssue({ code: 'custom', message: TEAM_MESSAGES.lineTwice({ line: l.line }), path: ['lines'] });
      seen.add(l.line);
    }
    if (v.dialer === 'template') {
      const problem = dialerTemplateError(v.dialerTemplate ?? '');
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['dialerTemplate'] });
    } else if ((v.dialerTemplate ?? '').length > MAX_DIALER_TEMPLATE)
      ctx.addIssue({ code: 'custom', message: DIALER_MESSAGES.templateLong({ max: MAX_DIALER_TEMPLATE }), path: ['dialerTemplate'] });
  })
  .transform((v) => ({ ...v, dialerTemplate: (v.dialerTemplate ?? '').trim(), lines: [...v.lines].sort((a, b) => a.line - b.line) }));
export type TeamSettingsInput = z.output<typeof teamSettingsInputSchema>;

/** A line of the team: its caller number (E.164) and label. */
export const teamLineSchema = z.strictObject({
  line: z.number(),
  callerNumber: z.string(),
  label: z.string(),
});
export type TeamLineDto = z.infer<typeof teamLineSchema>;

/** GET /api/team/settings: the team's dialer and lines; `canEdit` for its lead. */
export const teamSettingsSchema = z.strictObject({
  dialer: z.enum(DIALERS),
  dialerTemplate: z.string(),
  lines: z.array(teamLineSchema),
  contactMarkers: z.boolean(),
  contactWindowHours: z.number(),
  canEdit: z.boolean(),
});
export type TeamSettingsDto = z.infer<typeof teamSettingsSchema>;

/**
 * One recent contact of the team, for the board's markers: who, how, when, on which line and MC,
 * and what identifies the broker and the load (the name, the number or address, the lane and the
 * pick-up date). Nothing else of the call.
 */
export const teamContactSchema = contactFieldsSchema
  .pick({ kind: true, line: true, brokerName: true, contact: true, origin: true, dest: true, loadDate: true, board: true })
  .extend({
    userId: z.string(),
    by: z.string(),
    /** When (ms). */
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
