import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';

/** What each module of the engine is, as docs/contributing.md names the kinds. */
export const KINDS: Record<string, { label: string; color: string; modules: string[] }> = {
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
      'createUserIdCheck',
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
      'toRetryDelay',
      'findDoor',
      'readTokenUser',
    ],
  },
  interfaces: {
    label: 'what one part needs from another',
    color: '#ead1dc',
    modules: ['RefresherHost', 'RestorerHost', 'RecordRefresh'],
  },
  types: {
    label: 'types',
    color: '#eeeeee',
    modules: ['TokenSession', 'TokenAuthOptions', 'TokenAuthState', 'TokenAuthEvent', 'SignInResult'],
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

/**
 * The picture of the engine's parts, in Graphviz's language: the modules of `session` (a folder) grouped by kind,
 * each with its size, and an arrow for each import between them (dashed: types only).
 */
export function drawSession(session: string): string {
  const modules = readdirSync(session)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => name.slice(0, -3));
  const unplaced = modules.filter((name) => !Object.values(KINDS).some((kind) => kind.modules.includes(name)));
  if (unplaced.length) throw new Error(`Place ${unplaced.join(', ')} in a kind of scripts/structure/drawSession.ts.`);

  const lines = [
    'digraph session {',
    '  rankdir=TB; newrank=true; node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11];',
    '  edge [color="#666666", arrowsize=0.6]; label="src/core/session: the engine\'s parts (arrows: imports; dashed: types only)"; labelloc=t; fontname="Helvetica";',
  ];
  for (const [name, kind] of Object.entries(KINDS)) {
    lines.push(`  subgraph cluster_${name} { label="${kind.label}"; style="rounded,dashed"; fontsize=10;`);
    for (const module of kind.modules.filter((each) => modules.includes(each))) {
      const size = readFileSync(join(session, `${module}.ts`), 'utf8').split('\n').length;
      lines.push(`    "${module}" [label="${module}\\n${size} lines", fillcolor="${kind.color}"];`);
    }
    lines.push('  }');
  }
  for (const module of modules) {
    for (const { to, typeOnly } of importsOf(join(session, `${module}.ts`))) {
      if (modules.includes(to)) lines.push(`  "${module}" -> "${to}"${typeOnly ? ' [style=dashed]' : ''};`);
    }
  }
  lines.push('}', '');
  return lines.join('\n');
}
