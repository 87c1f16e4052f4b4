#!/usr/bin/env node
// The translated screens render no text that is not from the catalogue (docs/decisions/0023-languages.md).
// Reads each file listed in TRANSLATED with the TypeScript compiler and refuses: JSX text with a
// letter in it; a string literal with a letter rendered as a JSX child ({'Text'}, {a ? 'A' : 'B'});
// and a string literal with a letter in a prop people read (aria-label, title, placeholder, label,
// alt, hint, what, emptyText, lessLabel, moreLabel). Arguments of t() and <Trans i18nKey> are keys.
// Only the listed files are checked: the list grows as screens are translated; what a listed
// file builds outside JSX (a table's column headers in an object) is not seen by this check.
// Run by `npm run lint`.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');

export const TRANSLATED = [
  'web/app/layout.tsx',
  'web/app/banner.tsx',
  'web/components/ui/language-select.tsx',
  'web/components/ui/data-table.tsx',
  'web/features/auth/landing.tsx',
  'web/features/auth/register-form.tsx',
  'web/features/auth/password-recovery.tsx',
  'web/features/auth/email-verify.tsx',
  'web/features/users/profile.tsx',
  'web/features/users/language-card.tsx',
  'web/features/users/reminders-card.tsx',
  'web/features/users/sessions.tsx',
  'web/features/payments/payment.tsx',
  'web/features/payments/payment-result.tsx',
];

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
  for (const rel of TRANSLATED) {
    for (const p of literalsIn(rel, fs.readFileSync(path.join(root, rel), 'utf8'))) {
      failed++;
      console.error(`${rel}:${p.line}: text not from the catalogue: ${JSON.stringify(p.text)}`);
    }
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
  console.log(`lint-i18n: ${TRANSLATED.length} translated files render only catalogue text`);
}
