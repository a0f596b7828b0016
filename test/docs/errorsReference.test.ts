import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DOCTOR_CHECKS } from '../../src/doctor/doctorChecks';

// docs/errors.md against the source it documents. Every list below is read from src/ with the TypeScript compiler,
// never written out here, so that a new error class, reason, handler code or doctor check without an entry fails,
// and so does an entry for one that is gone.

const ROOT = join(import.meta.dirname, '../..');
const PAGE = 'docs/errors.md';

// ---- The source ----

const parsed = new Map<string, ts.SourceFile>();
function parse(path: string): ts.SourceFile {
  let file = parsed.get(path);
  if (!file) {
    file = ts.createSourceFile(path, readFileSync(join(ROOT, path), 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(path, file);
  }
  return file;
}

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function nodesOf(path: string): ts.Node[] {
  const nodes: ts.Node[] = [];
  const visit = (node: ts.Node) => {
    nodes.push(node);
    ts.forEachChild(node, visit);
  };
  visit(parse(path));
  return nodes;
}

const callee = (call: ts.CallExpression | ts.NewExpression): string | undefined => {
  const { expression } = call;
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  if (expression.kind === ts.SyntaxKind.SuperKeyword) return 'super';
  return undefined;
};

const literal = (node: ts.Node | undefined): string | undefined =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;

/** The string values `node` can take: a literal, or the literal branches of a conditional. */
function valuesOf(node: ts.Expression): string[] {
  if (ts.isParenthesizedExpression(node)) return valuesOf(node.expression);
  if (ts.isConditionalExpression(node)) return [...valuesOf(node.whenTrue), ...valuesOf(node.whenFalse)];
  const text = literal(node);
  return text === undefined ? [] : [text];
}

/** The fixed text a message expression shows: its literals, and the part of a template before the first `${`. */
function wordsOf(node: ts.Expression, scope: ts.Node): string[] {
  if (ts.isIdentifier(node)) {
    // A `message` declared in the function that answers it.
    const declared = nodesOf(scope.getSourceFile().fileName).find(
      (each): each is ts.VariableDeclaration =>
        ts.isVariableDeclaration(each) &&
        ts.isIdentifier(each.name) &&
        each.name.text === node.text &&
        enclosingFunction(each) === enclosingFunction(scope) &&
        !!each.initializer,
    );
    return declared ? wordsOf(declared.initializer!, declared) : [];
  }
  if (ts.isTemplateExpression(node)) {
    // The words between the placeholders too, when they say something (not " s.").
    return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].filter(
      (words) => words.trim().length > 3,
    );
  }
  if (ts.isBinaryExpression(node)) return [...wordsOf(node.left, scope), ...wordsOf(node.right, scope)];
  if (ts.isConditionalExpression(node)) return [...wordsOf(node.whenTrue, scope), ...wordsOf(node.whenFalse, scope)];
  const text = literal(node);
  return text ? [text] : [];
}

function enclosingFunction(node: ts.Node): ts.Node | undefined {
  for (let at = node.parent; at; at = at.parent) if (ts.isFunctionLike(at)) return at;
  return undefined;
}

/** Every exported class whose chain of `extends` reaches BrandedError, with the literal messages it passes up. */
function brandedClasses(): Map<string, string[]> {
  const bases = new Map<string, string>();
  const messages = new Map<string, string[]>();
  for (const path of filesUnder('src')) {
    for (const node of nodesOf(path)) {
      if (!ts.isClassDeclaration(node) || !node.name) continue;
      const exported = node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      const base = node.heritageClauses
        ?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)
        ?.types[0]?.expression.getText();
      if (!exported || !base) continue;
      bases.set(node.name.text, base);
      const superCall = nodesOf(path).find(
        (each): each is ts.CallExpression =>
          ts.isCallExpression(each) &&
          callee(each) === 'super' &&
          node.members.some((member) => contains(member, each)),
      );
      messages.set(node.name.text, superCall?.arguments[0] ? valuesOf(superCall.arguments[0]) : []);
    }
  }
  const reaches = (name: string): boolean => {
    const base = bases.get(name);
    return base === 'BrandedError' || (!!base && reaches(base));
  };
  return new Map([...messages].filter(([name]) => reaches(name)));
}

const contains = (outer: ts.Node, inner: ts.Node) => inner.pos >= outer.pos && inner.end <= outer.end;

/** The members of a union of string literals: a type alias, or the type of an interface's property. */
function unionMembers(path: string, name: string, property?: string): string[] {
  for (const node of nodesOf(path)) {
    let type: ts.TypeNode | undefined;
    if (!property && ts.isTypeAliasDeclaration(node) && node.name.text === name) type = node.type;
    if (property && ts.isInterfaceDeclaration(node) && node.name.text === name) {
      const member = node.members.find(
        (each): each is ts.PropertySignature => ts.isPropertySignature(each) && each.name.getText() === property,
      );
      type = member?.type;
    }
    if (type && ts.isUnionTypeNode(type)) {
      return type.types.flatMap((each) => (ts.isLiteralTypeNode(each) ? valuesOf(each.literal as ts.Expression) : []));
    }
  }
  throw new Error(`No union ${name}${property ? `.${property}` : ''} in ${path}`);
}

/**
 * The codes the token handler answers, with the fixed words of their messages: `refusal(status, code, message)`,
 * `errorResponse(status, code, message)`, and every `{ code, message }`, whose code is a literal (or a conditional
 * between literals, or a `const code` so made in the same function). A code the handler only compares with
 * (`INTERNAL_SERVER_ERROR`) is not one it answers.
 */
function handlerCodes(): Map<string, string[]> {
  const codes = new Map<string, string[]>();
  const add = (code: string, words: string[]) => codes.set(code, [...(codes.get(code) ?? []), ...words]);
  for (const path of filesUnder('src/server')) {
    // The values of a code: a literal, a conditional between literals, or a `const` of them in the same function.
    const codesOf = (code: ts.Expression, at: ts.Node): string[] =>
      ts.isIdentifier(code)
        ? nodesOf(path)
            .filter(
              (each): each is ts.VariableDeclaration =>
                ts.isVariableDeclaration(each) &&
                each.name.getText() === code.text &&
                !!each.initializer &&
                enclosingFunction(each) === enclosingFunction(at),
            )
            .flatMap((each) => valuesOf(each.initializer!))
        : valuesOf(code);
    for (const node of nodesOf(path)) {
      if (ts.isCallExpression(node) && ['refusal', 'errorResponse'].includes(callee(node) ?? '')) {
        const [, code, message] = node.arguments;
        for (const each of code ? codesOf(code, node) : []) add(each, message ? wordsOf(message, node) : []);
      }
      if (ts.isObjectLiteralExpression(node)) {
        const field = (name: string) =>
          node.properties.find((property) => property.name?.getText() === name) as
            ts.PropertyAssignment | ts.ShorthandPropertyAssignment | undefined;
        const code = field('code');
        const message = field('message');
        if (!code) continue;
        const words = !message
          ? []
          : ts.isPropertyAssignment(message)
            ? wordsOf(message.initializer, node)
            : wordsOf(message.name, node);
        for (const each of codesOf(ts.isPropertyAssignment(code) ? code.initializer : code.name, node))
          add(each, words);
      }
    }
  }
  return codes;
}

/** Doctor's checks: the id and the titles of every check, from the one table that names them. */
function doctorChecks(): Map<string, string[]> {
  const checks = new Map<string, string[]>();
  for (const { id, title } of Object.values(DOCTOR_CHECKS)) checks.set(id, [...(checks.get(id) ?? []), title]);
  return checks;
}

/**
 * The `operation` of an AuthRequestError a user can see: the literal ones of `new AuthRequestError(message,
 * operation)` and of a subclass's `super(message, operation)`, the spec's mutations (the GraphQL transport's
 * `field`s) and the token handler's routes (its transport's `post(route, …)`), which name the call that failed.
 */
function operations(): Set<string> {
  const found = new Set<string>();
  for (const path of filesUnder('src')) {
    for (const node of nodesOf(path)) {
      if (ts.isNewExpression(node) && callee(node) === 'AuthRequestError') {
        const operation = literal(node.arguments?.[1]);
        if (operation) found.add(operation);
      }
      if (ts.isCallExpression(node) && callee(node) === 'super' && path.endsWith('Error.ts')) {
        const operation = literal(node.arguments[1]);
        if (operation) found.add(operation);
      }
    }
  }
  for (const node of nodesOf('src/core/transports/createGraphQLTransport.ts')) {
    if (ts.isPropertyAssignment(node) && node.name.getText() === 'field')
      valuesOf(node.initializer).forEach((each) => found.add(each));
  }
  for (const node of nodesOf('src/core/transports/createTokenHandlerTransport.ts')) {
    if (ts.isCallExpression(node) && callee(node) === 'post') {
      const route = literal(node.arguments[0]);
      if (route) found.add(route);
    }
  }
  return found;
}

/** The files of ./ws but its index: the client, the resumed subscription, and their helpers. */
const WS = readdirSync('src/ws')
  .filter((name) => name.endsWith('.ts') && name !== 'index.ts')
  .map((name) => `src/ws/${name}`);
const wsNodes = () => WS.flatMap(nodesOf);

/** The close codes of ./ws that mean a refused token: `REFUSED`, and those the client closes its socket with. */
function wsCloseCodes(): Set<string> {
  const codes = new Set<string>();
  for (const node of wsNodes()) {
    if (ts.isVariableDeclaration(node) && node.name.getText() === 'REFUSED' && node.initializer) {
      ts.forEachChild(node.initializer, (each) => void (ts.isNumericLiteral(each) && codes.add(each.text)));
    }
    // 1000 is a normal close (a reconnect with a new token), no error.
    if (ts.isCallExpression(node) && callee(node) === 'close' && ts.isNumericLiteral(node.arguments[0]!)) {
      if (Number(node.arguments[0].text) >= 4000) codes.add(node.arguments[0].text);
    }
  }
  return codes;
}

/** The error classes ./ws creates or passes on by name. */
function wsClasses(classes: Iterable<string>): Set<string> {
  const names = new Set(
    wsNodes()
      .filter(ts.isIdentifier)
      .map((each) => each.text),
  );
  return new Set([...classes].filter((name) => names.has(name)));
}

// ---- The page ----

interface Heading {
  readonly level: number;
  readonly text: string;
  /** The H2 it sits under. */
  readonly section: string;
  /** The code-like names it mentions: its code spans that are one word (`SESSION_LOST`, `no-session`, `4401`). */
  readonly names: readonly string[];
  /** Its text up to the next heading, whitespace collapsed. */
  readonly body: string;
}

function readPage(): { headings: Heading[]; text: string } {
  const text = readFileSync(join(ROOT, PAGE), 'utf8');
  // Fenced blocks hold no headings.
  const lines = text.replace(/^```[\s\S]*?^```$/gm, '').split('\n');
  const headings: Heading[] = [];
  let section = '';
  let current: { level: number; text: string; section: string; names: string[]; body: string[] } | undefined;
  const close = () => current && headings.push({ ...current, body: current.body.join(' ').replace(/\s+/g, ' ') });
  for (const line of lines) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (!heading) {
      current?.body.push(line);
      continue;
    }
    close();
    const [, hashes, title] = heading as unknown as [string, string, string];
    if (hashes.length === 2) section = title;
    const names = [...title.matchAll(/`([^`]+)`/g)].map((match) => match[1]!).filter((span) => /^[\w-]+$/.test(span));
    current = { level: hashes.length, text: title, section, names, body: [] };
  }
  close();
  return { headings, text };
}

/** The anchor GitHub gives a heading. */
const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a Markdown page: its headings' (numbered when repeated, as GitHub does) and its `id="…"`s. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const headings = [...markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6}\s+(.*)$/gm)].map((match) => {
    const base = slug(match[1]!.replace(/`/g, ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count ? `${base}-${count}` : base;
  });
  return new Set([...headings, ...[...markdown.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]!)]);
}

const SECTIONS = {
  core: 'Core: apollo-link-token-pair',
  handler: 'Token handler: apollo-link-token-pair/server',
  ws: 'Subscriptions: apollo-link-token-pair/ws',
  doctor: 'Doctor: npx apollo-link-token-pair doctor',
} as const;

const classes = brandedClasses();
const reasons = unionMembers('src/core/errors/SessionEndedError.ts', 'SessionEndReason');
const rejections = unionMembers('src/core/session/TokenAuthState.ts', 'SessionEnd', 'rejection');
const codes = handlerCodes();
const checks = doctorChecks();
const ops = operations();
const closes = wsCloseCodes();
const wsErrors = wsClasses(classes.keys());
const page = readPage();

const namesIn = (section: string) =>
  new Set(page.headings.filter((heading) => heading.section === section).flatMap((heading) => heading.names));
const entryOf = (section: string, name: string) =>
  page.headings.find((heading) => heading.section === section && heading.names.includes(name));

describe('docs/errors.md, the errors reference', () => {
  it('reads what it checks from the source', () => {
    // Lower bounds, so that a reader of the source that finds nothing fails here rather than passing vacuously.
    expect([...classes.keys()]).toEqual(expect.arrayContaining(['AuthRejectedError', 'SessionEndedError']));
    expect(reasons).toEqual(expect.arrayContaining(['rejected', 'no-session']));
    expect(rejections).toEqual(expect.arrayContaining(['expired']));
    expect([...codes.keys()]).toEqual(expect.arrayContaining(['SESSION_LOST', 'NO_SESSION', 'INVALID_CREDENTIALS']));
    expect([...codes.keys()]).not.toContain('INTERNAL_SERVER_ERROR');
    expect([...checks.keys()]).toEqual(expect.arrayContaining(['login', 'dead-access']));
    expect([...ops]).toEqual(expect.arrayContaining(['refreshToken', 'refresh', 'store']));
    expect([...closes]).toEqual(expect.arrayContaining(['4401']));
    expect(page.headings.map((heading) => heading.text)).toEqual(expect.arrayContaining(Object.values(SECTIONS)));
  });

  it('has an entry for every exported class extending BrandedError, quoting its fixed messages', () => {
    for (const [name, messages] of classes) {
      const entry = entryOf(SECTIONS.core, name);
      expect(entry, `no entry for ${name}`).toBeDefined();
      for (const message of messages) expect(entry!.body, `${name}'s message`).toContain(message);
    }
  });

  it('has an entry for every SessionEndReason and every SessionEnd rejection', () => {
    const core = namesIn(SECTIONS.core);
    for (const reason of reasons) expect(core, `no entry for the reason ${reason}`).toContain(reason);
    for (const rejection of rejections) expect(core, `no entry for the rejection ${rejection}`).toContain(rejection);
  });

  it('has an entry for every operation an AuthRequestError names', () => {
    const core = namesIn(SECTIONS.core);
    for (const operation of ops) expect(core, `no entry for the operation ${operation}`).toContain(operation);
  });

  it("has an entry for every code the token handler answers, quoting the message's fixed words", () => {
    for (const [code, words] of codes) {
      const entry = entryOf(SECTIONS.handler, code);
      expect(entry, `no entry for ${code}`).toBeDefined();
      for (const each of words) expect(entry!.body, `${code}'s message`).toContain(each.trim().replace(/\s+/g, ' '));
    }
  });

  it('has an entry for every close code and error class of ./ws', () => {
    const ws = namesIn(SECTIONS.ws);
    for (const name of [...closes, ...wsErrors]) expect(ws, `no entry for ${name} in ./ws`).toContain(name);
  });

  it("has an entry for every doctor check, with one of the check's titles", () => {
    for (const [id, titles] of checks) {
      const entry = entryOf(SECTIONS.doctor, id);
      expect(entry, `no entry for the doctor check ${id}`).toBeDefined();
      expect(
        titles.some((title) => entry!.text.includes(title)),
        `${id}: a title of ${titles.join(', ')}`,
      ).toBe(true);
    }
  });

  it('names in its headings only what the source still has', () => {
    const valid: Record<string, Set<string>> = {
      [SECTIONS.core]: new Set([...classes.keys(), ...reasons, ...rejections, ...ops]),
      [SECTIONS.handler]: new Set(codes.keys()),
      [SECTIONS.ws]: new Set([...closes, ...wsErrors]),
      [SECTIONS.doctor]: new Set(checks.keys()),
    };
    const gone = page.headings.flatMap((heading) =>
      heading.names
        .filter((name) => !valid[heading.section]?.has(name))
        .map((name) => `${name} (in "${heading.text}", under "${heading.section || 'the title'}")`),
    );
    expect(gone).toEqual([]);
  });

  it('links only to files and anchors that exist', () => {
    const broken = [...page.text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!)
      .filter((link) => !/^https?:/.test(link))
      .filter((link) => {
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path ? join(dirname(PAGE), path) : PAGE;
        if (!existsSync(join(ROOT, target))) return true;
        return anchor !== undefined && !anchorsOf(readFileSync(join(ROOT, target), 'utf8')).has(anchor);
      });
    expect(broken).toEqual([]);
  });
});
