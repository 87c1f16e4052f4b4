import * as z from 'zod';
import { type Check, inOrder } from '../lib/checks';
import { problem } from '../lib/messages';
import { templateError } from './email-template.schema';
import { LINES_MESSAGES as LINES } from './mc-settings.messages';

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
      const refused = templateError(value, where);
      if (refused) ctx.addIssue({ code: 'custom', message: refused });
    });
const line = z.number().int().min(1, problem(LINES.line)).max(6, problem(LINES.line));

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
  ['lines', (v) => (v.lines.length ? null : problem(LINES.selectLine))],
  ['lines', (v) => (v.lines.length > 1 ? problem(LINES.oneLine) : null)],
  // after the spec's checks: the templates' placeholders (docs/api/mc-settings.md, "E-mail templates")
  ['emailSubject', (v) => templateError(v.emailSubject, 'subject')],
  ['emailContent', (v) => templateError(v.emailContent, 'content')],
];
const byLead = mcAddSchema.superRefine(inOrder<McAddInput>([['name', (v) => ((v.name ?? '').trim() ? null : problem(LINES.nameEmpty))], ...oneLine]));
const byAgent = mcAddSchema.superRefine(inOrder<McAddInput>([['parentMc', (v) => (v.parentMc ? null : problem(LINES.selectMc))], ...oneLine]));
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

export const settingIdSchema = z.object({ settingID: id.min(1, problem(LINES.mcNotFound)) });
export const parentIdSchema = z.object({ parentId: id.min(1, problem(LINES.managerNotFound)) });

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
