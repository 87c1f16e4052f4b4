#!/usr/bin/env node
// The translated screens render no text that is not from the catalogue (docs/decisions/0023-languages.md).
// Reads every .tsx file of web/ (but those in PENDING) with the TypeScript compiler and refuses: JSX text with a
// letter in it; a string literal with a letter rendered as a JSX child ({'Text'}, {a ? 'A' : 'B'});
// and a string literal with a letter in a prop people read (aria-label, title, placeholder, label,
// alt, hint, what, emptyText, lessLabel, moreLabel). Arguments of t() and <Trans i18nKey> are keys.
// PENDING shrinks as screens are translated; what a file builds outside JSX (a table's column
// headers in an object) is not seen by this check.
// It also refuses third-party components used without their labels from the catalogue
// (DEFAULT_LABELS: their own defaults are English, read out by screen readers), and the browser's
// own date, time and file inputs, which speak the browser's language, not the user's
// (docs/decisions/0178-no-english-left.md).
// Run by `npm run lint`.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Screens not translated yet: every other .tsx under web/ is checked. A file leaves this list when
 * its texts come from the catalogue; the check refuses a listed file that has nothing left to find.
 */
export const PENDING = [];

/** Words that are the same in every language: the product's and Idram's names. */
const ALLOWED = new Set(['FreightDesk', 'Idram']);
const READ_PROPS = new Set(['aria-label', 'title', 'placeholder', 'label', 'alt', 'hint', 'what', 'emptyText', 'lessLabel', 'moreLabel']);
const LETTER = /\p{L}/u;

const isText = (s) => LETTER.test(s) && !ALLOWED.has(s.trim());

/**
 * Third-party components whose default labels are English: each use must give the listed props,
 * and not as a string literal (a text from the catalogue, or a renderer of the app's own). A
 * component is known by its package and its exported name, however it is imported or renamed.
 */
export const DEFAULT_LABELS = [
  { from: ['radix-ui'], name: 'Toast.Provider', props: ['label'], why: 'radix announces each toast as "Notification"' },
  { from: ['@radix-ui/react-toast'], name: 'Provider', props: ['label'], why: 'radix announces each toast as "Notification"' },
  { from: ['@radix-ui/react-toast'], name: 'ToastProvider', props: ['label'], why: 'radix announces each toast as "Notification"' },
  { from: ['radix-ui'], name: 'Toast.Viewport', props: ['label'], why: 'radix names the toasts\' region "Notifications ({hotkey})"' },
  { from: ['@radix-ui/react-toast'], name: 'Viewport', props: ['label'], why: 'radix names the toasts\' region "Notifications ({hotkey})"' },
  { from: ['@radix-ui/react-toast'], name: 'ToastViewport', props: ['label'], why: 'radix names the toasts\' region "Notifications ({hotkey})"' },
  { from: ['radix-ui'], name: 'Toast.Action', props: ['altText'], why: 'an action without its alternative is not announced' },
  { from: ['radix-ui'], name: 'Toast.Close', props: ['aria-label'], why: 'the close button is read by its "×"' },
  { from: ['recharts'], name: 'Legend', props: ['content'], why: 'recharts names each legend icon "<series> legend icon" (components/ui/chart-legend.tsx)' },
  { from: ['recharts'], name: 'Brush', props: ['ariaLabel'], why: 'recharts reads the brush out as "Min value: …, Max value: …"' },
  {
    from: ['react-day-picker'],
    name: 'DayPicker',
    props: ['labels', 'locale'],
    why: 'its arrows and days are read out in English (components/ui/calendar.tsx)',
  },
];

/** The browser's own inputs that speak the browser's language ("mm/dd/yyyy", "Month", "No file chosen"), and what to use instead. */
export const BROWSER_INPUTS = {
  date: 'DateInput or DateField (components/ui/date-input.tsx)',
  'datetime-local': 'DateTimeField (components/ui/date-input.tsx)',
  time: 'DateTimeField (components/ui/date-input.tsx)',
  month: 'DateInput (components/ui/date-input.tsx)',
  week: 'DateInput (components/ui/date-input.tsx)',
  file: 'FileInput (components/ui/file-input.tsx)',
};

/** Each import's local name and where it comes from: `Toast` → {from: 'radix-ui', name: 'Toast'}; a namespace import's name is '*'. */
function importsOf(file) {
  const names = new Map();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const from = statement.moduleSpecifier.text;
    const clause = statement.importClause;
    if (clause.name) names.set(clause.name.text, { from, name: 'default' });
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.set(bindings.name.text, { from, name: '*' });
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements) names.set(element.name.text, { from, name: (element.propertyName ?? element.name).text });
  }
  return names;
}

/** The third-party component a JSX tag names, as `{from, name}` ("Toast.Viewport" from radix-ui), or null. */
function componentOf(tag, imports) {
  const parts = tag.split('.');
  const imported = imports.get(parts[0]);
  if (!imported) return null;
  const rest = parts.slice(1);
  const name = imported.name === '*' ? rest.join('.') : [imported.name, ...rest].join('.');
  return { from: imported.from, name };
}

/** Uses of third-party components without their labels, and the browser's own inputs: [{line, text}]. */
export function defaultLabelsIn(fileName, source) {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const imports = importsOf(file);
  const problems = [];
  const report = (node, text) => problems.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text });
  const visit = (node) => {
    if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
      const tag = node.tagName.getText(file);
      const attributes = new Map();
      let spread = false;
      for (const attribute of node.attributes.properties) {
        if (ts.isJsxSpreadAttribute(attribute)) spread = true;
        else attributes.set(attribute.name.getText(file), attribute.initializer);
      }
      const type = attributes.get('type');
      const typeText = type && ts.isStringLiteral(type) ? type.text : null;
      // a hidden one is neither shown nor read out: the wrappers keep it for the browser's picker
      if (typeText && typeText in BROWSER_INPUTS && !attributes.has('hidden'))
        report(node, `<${tag} type="${typeText}">: the browser's own ${typeText} input speaks the browser's language; use ${BROWSER_INPUTS[typeText]}`);
      const component = componentOf(tag, imports);
      const rule = component && DEFAULT_LABELS.find((r) => r.from.includes(component.from) && r.name === component.name);
      if (rule)
        for (const prop of rule.props) {
          const value = attributes.get(prop);
          // a spread may carry the prop: the call site that builds it is checked where it is written
          if (!attributes.has(prop) && !spread) report(node, `<${tag}> without ${prop}: ${rule.why}; give it from the catalogue`);
          else if (value && ts.isStringLiteral(value) && LETTER.test(value.text))
            report(node, `<${tag} ${prop}="${value.text}">: a text of the catalogue, not a literal (${rule.why})`);
        }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return problems;
}

/** The problems of one file's source: [{line, text}]. */
export function literalsIn(fileName, source) {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const problems = [];
  const report = (node, text) => problems.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text: text.trim() });
  const isKeyArgument = (node) => {
    const call = node.parent;
    return (
      ts.isCallExpression(call) &&
      ((ts.isIdentifier(call.expression) && call.expression.text === 't') ||
        (ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 't'))
    );
  };
  /** Where a string literal ends up: a JSX child, a read prop, or elsewhere (null). */
  const renderedAs = (node) => {
    let n = node;
    while (n.parent && (ts.isConditionalExpression(n.parent) || ts.isBinaryExpression(n.parent) || ts.isParenthesizedExpression(n.parent))) {
      // the condition of a ?: is not rendered
      if (ts.isConditionalExpression(n.parent) && n.parent.condition === n) return null;
      if (
        ts.isBinaryExpression(n.parent) &&
        n.parent.operatorToken.kind !== ts.SyntaxKind.QuestionQuestionToken &&
        n.parent.operatorToken.kind !== ts.SyntaxKind.BarBarToken &&
        n.parent.operatorToken.kind !== ts.SyntaxKind.AmpersandAmpersandToken &&
        n.parent.operatorToken.kind !== ts.SyntaxKind.PlusToken
      )
        return null;
      n = n.parent;
    }
    const p = n.parent;
    if (p && ts.isJsxExpression(p)) {
      if (p.parent && (ts.isJsxElement(p.parent) || ts.isJsxFragment(p.parent))) return 'child';
      if (p.parent && ts.isJsxAttribute(p.parent)) return READ_PROPS.has(p.parent.name.getText(file)) ? 'prop' : null;
    }
    if (p && ts.isJsxAttribute(p)) return READ_PROPS.has(p.name.getText(file)) ? 'prop' : null;
    return null;
  };
  const visit = (node) => {
    if (ts.isJsxText(node) && isText(node.text)) report(node, node.text);
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && isText(node.text) && !isKeyArgument(node) && renderedAs(node))
      report(node, node.text);
    if (ts.isTemplateExpression(node) && renderedAs(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
      if (isText(parts)) report(node, node.getText(file));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let failed = 0;
  const files = fs
    .readdirSync(path.join(root, 'web'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.tsx') && !f.endsWith('.test.tsx') && !f.startsWith('dist/'))
    .map((f) => `web/${f.split(path.sep).join('/')}`)
    .sort();
  for (const rel of files) {
    const source = fs.readFileSync(path.join(root, rel), 'utf8');
    for (const p of defaultLabelsIn(rel, source)) {
      failed++;
      console.error(`${rel}:${p.line}: ${p.text}`);
    }
    const problems = literalsIn(rel, source);
    if (PENDING.includes(rel)) {
      if (problems.length === 0) {
        failed++;
        console.error(`${rel}: translated: take it off PENDING in scripts/lint-i18n.mjs`);
      }
      continue;
    }
    for (const p of problems) {
      failed++;
      console.error(`${rel}:${p.line}: text not from the catalogue: ${JSON.stringify(p.text)}`);
    }
  }
  for (const rel of PENDING)
    if (!files.includes(rel)) {
      failed++;
      console.error(`${rel}: listed in PENDING but not found`);
    }
  // the check itself: planted literals must be found, keys and class names must not
  const planted = literalsIn(
    'planted.tsx',
    `const A = () => <div title="Hello" className="x"><p>Plain text</p>{ok ? 'Yes' : t('a.b')}<input aria-label={\`Pick \${n}\`} /><Trans i18nKey="a.b" /></div>;`,
  ).map((p) => p.text);
  const expected = ['Hello', 'Plain text', 'Yes', '`Pick \u0024{n}`'];
  if (JSON.stringify(planted) !== JSON.stringify(expected)) {
    failed++;
    console.error(`lint-i18n: the check itself is broken: found ${JSON.stringify(planted)}, expected ${JSON.stringify(expected)}`);
  }
  // and the default labels' check: each planted use must be found, the labelled ones not
  const plantedDefaults = defaultLabelsIn(
    'planted.tsx',
    [
      "import { Toast as T } from 'radix-ui';",
      "import * as R from 'recharts';",
      "import { DayPicker } from 'react-day-picker';",
      'const A = () => (<>',
      '  <T.Viewport />',
      "  <T.Provider label={t('a.b')} />",
      '  <T.Viewport label="Notices" />',
      '  <R.Legend />',
      '  <R.Legend content={ChartLegend} />',
      '  <DayPicker locale={ru} labels={labels} /><DayPicker locale={ru} />',
      '  <input type="date" /><Field type="file" /><input type="text" /><input type="file" hidden />',
      '</>);',
    ].join('\n'),
  ).map((p) => p.line);
  const expectedDefaults = [5, 7, 8, 10, 11, 11];
  if (JSON.stringify(plantedDefaults) !== JSON.stringify(expectedDefaults)) {
    failed++;
    console.error(
      `lint-i18n: the default labels' check is broken: found lines ${JSON.stringify(plantedDefaults)}, expected ${JSON.stringify(expectedDefaults)}`,
    );
  }
  if (failed) {
    console.error(`lint-i18n: ${failed} problem(s) in the translated screens (docs/decisions/0023-languages.md)`);
    process.exit(1);
  }
  console.log(`lint-i18n: ${files.length - PENDING.length} of ${files.length} screen files render only catalogue text (${PENDING.length} pending)`);
}
