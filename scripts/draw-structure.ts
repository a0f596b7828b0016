/**
 * Draws the engine's parts: the modules of src/core/session and their imports, from the code's own import
 * declarations (type-only imports dashed), into docs/structure/session.dot and, where Graphviz's `dot` is on the
 * PATH (Debian: `apt-get install graphviz`), docs/structure/session.svg and session.png.
 *
 *   npx tsx scripts/draw-structure.ts
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SESSION = join(ROOT, 'src/core/session');
const OUT = join(ROOT, 'docs/structure/session');

/** What each module of the engine is, as docs/contributing.md names the kinds. */
const KINDS: Record<string, { label: string; color: string; modules: string[] }> = {
  shell: { label: 'the shell: state cells and the API', color: '#f4cccc', modules: ['createTokenSession'] },
  refresher: {
    label: 'the refresher (single flight, floor, retries, timer) and the restorer',
    color: '#fce5cd',
    modules: ['createRefresher', 'createRestorer'],
  },
  wiring: {
    label: 'options and wiring, read once',
    color: '#fff2cc',
    modules: ['readSessionOptions', 'openSessionParts', 'sessionMode', 'sessionLimits'],
  },
  cells: {
    label: 'parts that hold a little state',
    color: '#d9ead3',
    modules: [
      'createWaits',
      'createSessionState',
      'createReporter',
      'createAuthCalls',
      'createSessionChecks',
      'RefreshTimer',
      'tokenAuthInternals',
    ],
  },
  pure: {
    label: 'pure rules, tested against tables',
    color: '#cfe2f3',
    modules: [
      'refreshTriggers',
      'operationWait',
      'judgeRefreshFailure',
      'describeEnd',
      'SessionRecord',
      'getRefreshFloor',
      'getRetryDelay',
    ],
  },
  types: {
    label: 'types',
    color: '#eeeeee',
    modules: ['TokenSession', 'TokenAuthOptions', 'TokenAuthState', 'TokenAuthEvent'],
  },
};

function importsOf(file: string): { to: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const spec = statement.moduleSpecifier.text;
    if (!spec.startsWith('./')) return [];
    return [{ to: basename(spec), typeOnly: !!statement.importClause?.isTypeOnly }];
  });
}

const modules = readdirSync(SESSION)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => name.slice(0, -3));
const unplaced = modules.filter((name) => !Object.values(KINDS).some((kind) => kind.modules.includes(name)));
if (unplaced.length) throw new Error(`Place ${unplaced.join(', ')} in a kind of scripts/draw-structure.ts.`);

const lines = [
  'digraph session {',
  '  rankdir=TB; newrank=true; node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11];',
  '  edge [color="#666666", arrowsize=0.6]; label="src/core/session: the engine\'s parts (arrows: imports; dashed: types only)"; labelloc=t; fontname="Helvetica";',
];
for (const [name, kind] of Object.entries(KINDS)) {
  lines.push(`  subgraph cluster_${name} { label="${kind.label}"; style="rounded,dashed"; fontsize=10;`);
  for (const module of kind.modules.filter((each) => modules.includes(each))) {
    const size = readFileSync(join(SESSION, `${module}.ts`), 'utf8').split('\n').length;
    lines.push(`    "${module}" [label="${module}\\n${size} lines", fillcolor="${kind.color}"];`);
  }
  lines.push('  }');
}
for (const module of modules) {
  for (const { to, typeOnly } of importsOf(join(SESSION, `${module}.ts`))) {
    if (modules.includes(to)) lines.push(`  "${module}" -> "${to}"${typeOnly ? ' [style=dashed]' : ''};`);
  }
}
lines.push('}', '');
writeFileSync(`${OUT}.dot`, lines.join('\n'));
try {
  execFileSync('dot', ['-Tsvg', `${OUT}.dot`, '-o', `${OUT}.svg`]);
  execFileSync('dot', ['-Tpng', '-Gdpi=110', `${OUT}.dot`, '-o', `${OUT}.png`]);
  console.log(`wrote ${OUT}.dot, .svg and .png`);
} catch {
  console.log(`wrote ${OUT}.dot (no Graphviz \`dot\` here: apt-get install graphviz for the pictures)`);
}
