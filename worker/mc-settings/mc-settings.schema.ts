import * as z from 'zod';
import { template as messageTemplate } from '../lib/coded';
import { type Check, inOrder } from '../lib/checks';
import { templateError } from './email-template.schema';
import { COMMON_MESSAGES } from '../lib/common-messages';

/** The Lines area's messages (spec section 5). Shared with the Lines screen. */
export const MC_MESSAGES = {
  nameEmpty: 'Name is empty',
  selectMc: 'Select MC',
  selectLine: 'Select line for new MC',
  oneLine: 'Select one line per MC',
  lineForEvery: 'Select a line for every MC',
  mcNotFound: 'MC not found',
  alreadyAdded: 'This MC is already in your list',
  added: 'MC added',
  saved: 'Settings saved',
  deleted: 'MC deleted',
  shown: 'MC is shown in DAT',
  hidden: 'MC is hidden in DAT',
  managerNotFound: COMMON_MESSAGES.managerNotFound.text,
  /** "Line 3 is already used by Acme": the refusal for a taken line. */
  lineTaken: messageTemplate<'line' | 'name'>('Line {{line}} is already used by {{name}}'),
  linesChanged: 'The lines changed meanwhile, please try again',
} as const;

export const LINE_NUMBERS = [1, 2, 3, 4, 5, 6] as const;
export const MAX_TEMPLATE = 10_000;
export const MAX_SUBJECT = 500;

const id = z.string().max(64);
/** A template field of Save Settings: unknown placeholders are refused with the message that names them. */
const template = (max: number, where: 'subject' | 'content') =>
  z
    .string()
    .max(max)
    .superRefine((value, ctx) => {
      const problem = templateError(value, where);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
const line = z.number().int().min(1, 'Lines are 1 to 6').max(6, 'Lines are 1 to 6');

const mcAddShape = {
  name: z.string().max(200).nullable().optional().default(''),
  parentMc: id.nullable().optional().default(null),
  lines: z.array(line).max(6).optional().default([]),
  emailContent: z.string().max(MAX_TEMPLATE).nullable().optional().default(''),
  emailSubject: z.string().max(MAX_SUBJECT).nullable().optional().default(''),
};
/** POST /api/mcSettings/add: the fields; which of them a caller must fill depends on its role (`mcAddSchemaFor`). */
export const mcAddSchema = z.object(mcAddShape);
export type McAddInput = z.output<typeof mcAddSchema>;

const oneLine: Check<McAddInput>[] = [
  ['lines', (v) => (v.lines.length ? null : MC_MESSAGES.selectLine)],
  ['lines', (v) => (v.lines.length > 1 ? MC_MESSAGES.oneLine : null)],
  // after the spec's checks: the templates' placeholders (docs/api/mc-settings.md, "E-mail templates")
  ['emailSubject', (v) => templateError(v.emailSubject, 'subject')],
  ['emailContent', (v) => templateError(v.emailContent, 'content')],
];
const byLead = mcAddSchema.superRefine(inOrder<McAddInput>([['name', (v) => ((v.name ?? '').trim() ? null : MC_MESSAGES.nameEmpty)], ...oneLine]));
const byAgent = mcAddSchema.superRefine(inOrder<McAddInput>([['parentMc', (v) => (v.parentMc ? null : MC_MESSAGES.selectMc)], ...oneLine]));
/** Add New MC's checks in the spec's order: a lead names a new MC, an agent picks one of its manager's; both one line. The Lines screen uses the same. */
export const mcAddSchemaFor = (isAgent: boolean) => (isAgent ? byAgent : byLead);

export const mcUpdateSchema = z.object({
  mcSettings: z
    .array(
      z.object({
        _id: id.min(1),
        name: z.string().max(200).optional(),
        lines: z.array(line).max(6).optional(),
        emailSubject: template(MAX_SUBJECT, 'subject').nullable().optional(),
        emailContent: template(MAX_TEMPLATE, 'content').nullable().optional(),
        isVisible: z.boolean().optional(),
      }),
    )
    .max(100),
});
export type McUpdateInput = z.output<typeof mcUpdateSchema>;

export const settingIdSchema = z.object({ settingID: id.min(1, MC_MESSAGES.mcNotFound) });
export const parentIdSchema = z.object({ parentId: id.min(1, MC_MESSAGES.managerNotFound) });

/** The MC setting entity (spec section 3). */
export const mcSettingSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  parentMc: z.strictObject({ _id: z.string(), name: z.string() }).nullable(),
  lines: z.array(z.number()),
  emailSubject: z.string(),
  emailContent: z.string(),
  isVisible: z.boolean(),
  /** Not in the spec's shape: whose setting it is (team lists show several users' settings). */
  userId: z.string(),
});
export type McSettingDto = z.infer<typeof mcSettingSchema>;
