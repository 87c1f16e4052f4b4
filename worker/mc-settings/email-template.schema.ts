/** One renderer for the Lines screen's preview and the extension. No server imports. */

import { problem } from '../lib/messages';
import { LINES_MESSAGES } from './mc-settings.messages';

/** The placeholders, in the order the docs and the Lines screen list them, with what each becomes. */
export const TEMPLATE_PLACEHOLDERS = {
  origin: 'where the load picks up (Chicago, IL)',
  destination: 'where it delivers (Dallas, TX)',
  pickupDate: 'the pick-up date (Nov 24, 2026)',
  broker: "the broker's company name",
  rate: 'the posted rate ($2,350), empty when the board shows none',
  reference: "the broker's load reference, empty when the board shows none",
  mcName: 'the MC you are working for',
  userName: 'your name',
} as const;
export type PlaceholderName = keyof typeof TEMPLATE_PLACEHOLDERS;
export const PLACEHOLDER_NAMES = Object.keys(TEMPLATE_PLACEHOLDERS) as PlaceholderName[];

/** Older spellings templates already hold (the demo company's), read as the names above. */
const ALIASES: Record<string, PlaceholderName> = { dest: 'destination', loaddate: 'pickupDate', name: 'userName' };

export type TemplateValues = Record<PlaceholderName, string>;

// `{name}`: a letter, then letters, digits or _. Other braces ("{ }", "{{", JSON) are plain text.
const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;

const BY_LOWER = new Map<string, PlaceholderName>([...PLACEHOLDER_NAMES.map((n) => [n.toLowerCase(), n] as const), ...Object.entries(ALIASES)]);

export const placeholderOf = (word: string): PlaceholderName | null => BY_LOWER.get(word.toLowerCase()) ?? null;

export function unknownPlaceholders(template: string): string[] {
  const unknown = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) if (!placeholderOf(match[1]!)) unknown.add(match[0]);
  return [...unknown];
}

export const PLACEHOLDER_LIST = PLACEHOLDER_NAMES.map((n) => `{${n}}`).join(', ');

/** The save's refusal for a template with an unknown placeholder (a coded problem), or null when it may be saved. */
export function templateError(template: string | null | undefined, where: 'subject' | 'content'): string | null {
  const unknown = unknownPlaceholders(template ?? '');
  if (!unknown.length) return null;
  const names = unknown.join(', ');
  const many = unknown.length > 1;
  if (where === 'subject') return problem(many ? LINES_MESSAGES.unknownSubjectMany : LINES_MESSAGES.unknownSubjectOne, { names });
  return problem(many ? LINES_MESSAGES.unknownContentMany : LINES_MESSAGES.unknownContentOne, { names });
}

export function renderTemplate(template: string, values: Partial<TemplateValues>): string {
  return template.replace(PLACEHOLDER, (whole, word: string) => {
    const name = placeholderOf(word);
    return name ? (values[name] ?? '') : whole;
  });
}

export const SAMPLE_LOAD: Omit<TemplateValues, 'mcName' | 'userName'> = {
  origin: 'Chicago, IL',
  destination: 'Dallas, TX',
  pickupDate: 'Nov 24, 2026',
  broker: 'Total Quality Logistics',
  rate: '$2,350',
  reference: 'TQL-884213',
};
