#!/usr/bin/env node
// The translated screens render no text that is not from the catalogue (docs/decisions/0023-languages.md).
// Reads every .tsx file of web/ (but those in PENDING) with the TypeScript compiler and refuses: JSX text with a
// letter in it; a string literal with a letter rendered as a JSX child ({'Text'}, {a ? 'A' : 'B'});
// and a string literal with a letter in a prop people read (aria-label, title, placeholder, label,
// alt, hint, what, emptyText, lessLabel, moreLabel). Arguments of t() and <Trans i18nKey> are keys.
// PENDING shrinks as screens are translated; what a file builds outside JSX (a table's column
// headers in an object) is not seen by this check.
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
    const problems = literalsIn(rel, fs.readFileSync(path.join(root, rel), 'utf8'));
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
  if (failed) {
    console.error(`lint-i18n: ${failed} problem(s) in the translated screens (docs/decisions/0023-languages.md)`);
    process.exit(1);
  }
  console.log(`lint-i18n: ${files.length - PENDING.length} of ${files.length} screen files render only catalogue text (${PENDING.length} pending)`);
}
