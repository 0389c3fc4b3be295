import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * Every English text the app can show whose Spanish differs, read from the source: each `{ en, es }` pair of
 * strings, and each key of `{ en: { … }, es: { … } }` message blocks (defineMessages), in the renderer and in the
 * word tables main shares with it. As patterns: a `{placeholder}` matches any text.
 */
export function englishOnlyPatterns(): RegExp[] {
  const files = [...sourceFiles('renderer'), 'common/audit-words.ts'];
  const pairs: [string, string][] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isObjectLiteralExpression(node)) {
        const en = property(node, 'en');
        const es = property(node, 'es');
        if (en && es && ts.isStringLiteralLike(en) && ts.isStringLiteralLike(es)) pairs.push([en.text, es.text]);
        if (en && es && ts.isObjectLiteralExpression(en) && ts.isObjectLiteralExpression(es))
          for (const p of en.properties) {
            if (!ts.isPropertyAssignment(p) || !ts.isStringLiteralLike(p.initializer)) continue;
            const other = property(es, p.name.getText(source));
            if (other && ts.isStringLiteralLike(other)) pairs.push([p.initializer.text, other.text]);
          }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const spanish = new Set(pairs.map(([, es]) => es.trim()));
  const english = [
    ...new Set(pairs.filter(([en, es]) => en !== es && !spanish.has(en.trim())).map(([en]) => en.trim())),
  ];
  // Only texts with a word of 3 letters or more: "OK", "—" or a lone placeholder say nothing about the language.
  return english
    .filter((en) => /[A-Za-z]{3,}/.test(en.replace(/\{\w+\}/g, '')))
    .map(
      (en) =>
        new RegExp(
          `^${en
            .split(/\{\w+\}/)
            .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('.+?')}$`,
          's',
        ),
    );
}

function property(node: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of node.properties)
    if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name)
      return p.initializer;
  return undefined;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}
