/**
 * Type-checks every TypeScript example of the documentation against the sources: the ```ts and ```tsx blocks of
 * README.md and docs/*.md (not the generated docs/api), and every `@example` of the TSDoc in src/. Also checks
 * that the README's links work on the npm registry's page (absolute, or anchors of its headings).
 *
 * Each block becomes a module of its own in .cache/snippets and is compiled with the project's tsconfig, the
 * package's entries mapped to src/ as package.json exports them. The conventions (the values a block may take as
 * given, the markers, the modules declared here rather than installed) are in docs/contributing.md.
 *
 *   npm run check:snippets            check, exit 1 on any error
 *   npm run check:snippets -- --write copy each `<!-- include: path -->` file into the block under it
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One fenced TypeScript block, where it came from and what to do with it. */
export interface Snippet {
  /** The file the block is in, relative to the root. */
  readonly source: string;
  /** The 1-based line of the block's first code line in `source`. */
  readonly line: number;
  readonly lang: 'ts' | 'tsx';
  readonly code: string;
  /** Where a `<!-- snippet: file path -->` marker places the block, so that other blocks can import it. */
  readonly file?: string;
  /** A `<!-- include: path -->` marker: the block must be that file, byte for byte. */
  readonly include?: string;
  /** A TSDoc example: the package's exports are in scope, as on the symbol it documents. */
  readonly tsdoc?: boolean;
}

/** A problem found, located in the documentation rather than in the generated module. */
export interface SnippetProblem {
  readonly source: string;
  readonly line: number;
  readonly message: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const preludeDir = join(here, 'snippets');
const fence = /^(\s*)```(\w*)\s*$/;
const marker = /^<!--\s*(snippet|include):\s*(.*?)\s*-->\s*$/;

/** The ```ts and ```tsx blocks of a Markdown text, with the marker comment on the line before each. */
export function extractMarkdown(source: string, text: string): { snippets: Snippet[]; problems: SnippetProblem[] } {
  const lines = text.split('\n');
  const snippets: Snippet[] = [];
  const problems: SnippetProblem[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && /^\s*```\s*$/.test(line));
    if (end < 0) {
      problems.push({ source, line: i + 1, message: 'a code block that is never closed' });
      break;
    }
    const lang = open[2];
    const code = lines.slice(i + 1, end).join('\n');
    const before = marker.exec(lines[i - 1] ?? '') ?? marker.exec(i > 1 && lines[i - 1] === '' ? lines[i - 2]! : '');
    const start = i + 2;
    i = end;
    if (lang !== 'ts' && lang !== 'tsx') continue;
    if (before?.[1] === 'include') {
      snippets.push({ source, line: start, lang, code, include: before[2]! });
    } else if (before?.[2] === 'skip') {
      continue;
    } else if (before?.[2]?.startsWith('file ')) {
      snippets.push({ source, line: start, lang, code, file: before[2].slice('file '.length).trim() });
    } else if (before) {
      problems.push({ source, line: start - 1, message: `unknown marker "${before[0].trim()}"` });
    } else {
      snippets.push({ source, line: start, lang, code });
    }
  }
  return { snippets, problems };
}

/**
 * The fenced blocks of every `@example` in a TypeScript source. An `@example` without a fenced block (an inline
 * one) is a problem: it could not be checked.
 */
export function extractTsdoc(source: string, text: string): { snippets: Snippet[]; problems: SnippetProblem[] } {
  const snippets: Snippet[] = [];
  const problems: SnippetProblem[] = [];
  const lines = text.split('\n');
  const inComment = (line: string) => /^\s*\*(?!\/)/.test(line);
  const body = (line: string) => line.replace(/^\s*\* ?/, '');
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\*\s*@example\b/.test(lines[i]!)) continue;
    let j = i + 1;
    while (j < lines.length && inComment(lines[j]!) && !fence.test(body(lines[j]!)) && !/^\s*@\w/.test(body(lines[j]!)))
      j++;
    const open = j < lines.length && inComment(lines[j]!) ? fence.exec(body(lines[j]!)) : null;
    if (!open) {
      problems.push({ source, line: i + 1, message: '@example without a fenced code block: write it as ```ts … ```' });
      continue;
    }
    let end = j + 1;
    while (end < lines.length && inComment(lines[end]!) && !/^\s*```\s*$/.test(body(lines[end]!))) end++;
    if (end >= lines.length || !inComment(lines[end]!)) {
      problems.push({ source, line: j + 1, message: 'an @example code block that is never closed' });
      continue;
    }
    const lang = open[2];
    if (lang === 'ts' || lang === 'tsx') {
      const code = lines
        .slice(j + 1, end)
        .map(body)
        .join('\n');
      snippets.push({ source, line: j + 2, lang, code, tsdoc: true });
    }
    i = end;
  }
  return { snippets, problems };
}

/** `apollo-link-token-pair/x` → src/x/index.ts for each subpath package.json exports that has a source. */
export function packagePaths(root: string): Record<string, string[]> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  const paths: Record<string, string[]> = {};
  for (const subpath of Object.keys(pkg.exports)) {
    if (subpath.endsWith('.json')) continue;
    const entry = subpath === '.' ? 'src/index.ts' : `src/${subpath.slice(2)}/index.ts`;
    if (existsSync(join(root, entry)))
      paths[subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`] = [join(root, entry)];
  }
  return paths;
}

/**
 * A declaration file that makes every public export of the package a global, value and type: a TSDoc example
 * sits on the symbol it shows, so it names the package's exports without importing them (and imports the rest).
 */
function exportsPrelude(paths: Record<string, string[]>, options: ts.CompilerOptions, host: ts.CompilerHost): string {
  const program = ts.createProgram(
    Object.values(paths).map((p) => p[0]!),
    options,
    host,
  );
  const checker = program.getTypeChecker();
  const out = ["// Generated by scripts/check-snippets.ts: the package's exports, in scope for TSDoc examples."];
  const globals: string[] = [];
  const seen = new Set<string>();
  Object.entries(paths).forEach(([specifier, [file]], index) => {
    // `./internal` is the other entries' plumbing, no public API: no example names it.
    if (specifier.endsWith('/internal')) return;
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file!)!);
    if (!moduleSymbol) return;
    out.push(`import type * as E${index} from '${specifier}';`);
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const name = symbol.getName();
      if (seen.has(name)) continue;
      seen.add(name);
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (target.flags & ts.SymbolFlags.Value) globals.push(`  const ${name}: typeof E${index}.${name};`);
      if (target.flags & ts.SymbolFlags.Type) {
        const declaration = target.declarations?.find(
          (d) => ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d) || ts.isClassDeclaration(d),
        ) as ts.InterfaceDeclaration | ts.TypeAliasDeclaration | ts.ClassDeclaration | undefined;
        const params = declaration?.typeParameters ?? [];
        // Declared as the export declares them (constraints and defaults name public types, global here too), so
        // that `TokenAuth` stands for `TokenAuth<SignInDocuments>` as it does in the package.
        const declared = params.length ? `<${params.map((p) => p.getText()).join(', ')}>` : '';
        const generic = params.length ? `<${params.map((p) => p.name.text).join(', ')}>` : '';
        globals.push(`  type ${name}${declared} = E${index}.${name}${generic};`);
      }
    }
  });
  return [...out, 'declare global {', ...globals, '}', 'export {};', ''].join('\n');
}

/** A compiler host that parses each file once for all the programs of a run (the snippets change between runs). */
function cachingHost(options: ts.CompilerOptions, workDir: string): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const parsed = new Map<string, ts.SourceFile | undefined>();
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (resolve(fileName).startsWith(workDir)) return getSourceFile(fileName, languageVersion, ...rest);
    if (!parsed.has(fileName)) parsed.set(fileName, getSourceFile(fileName, languageVersion, ...rest));
    return parsed.get(fileName);
  };
  return host;
}

/** Compiler options: the project's tsconfig, with the package's entries mapped to src/. */
function compilerOptions(root: string, paths: Record<string, string[]>): ts.CompilerOptions {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return { ...parsed.options, paths, noEmit: true };
}

/**
 * Writes the snippets as modules under `workDir` and type-checks them: TSDoc examples in one program (with the
 * package's exports as globals), documentation blocks in another (which must import what they use). Returns the
 * problems, located in the documentation.
 */
export function typecheckSnippets(root: string, snippets: readonly Snippet[], workDir: string): SnippetProblem[] {
  const paths = packagePaths(root);
  const options = compilerOptions(root, paths);
  const host = cachingHost(options, resolve(workDir));
  rmSync(workDir, { recursive: true, force: true });
  const problems: SnippetProblem[] = [];
  const located = new Map<string, Snippet>();
  const groups = { docs: [] as string[], tsdoc: [] as string[] };
  const taken = new Set<string>();
  snippets.forEach((snippet, index) => {
    if (snippet.include) return;
    const group = snippet.tsdoc ? 'tsdoc' : 'docs';
    const folder = join(workDir, group, snippet.source.replace(/[^\w.-]+/g, '_'));
    const file = resolve(
      folder,
      snippet.file ?? `${String(index).padStart(3, '0')}-line${snippet.line}.${snippet.lang}`,
    );
    if (!file.startsWith(folder + '/') || taken.has(file)) {
      problems.push({
        source: snippet.source,
        line: snippet.line - 1,
        message: `the file "${snippet.file}" is outside its folder or taken`,
      });
      return;
    }
    taken.add(file);
    mkdirSync(dirname(file), { recursive: true });
    // `export {}` makes every block a module: its own declarations shadow the prelude's globals.
    writeFileSync(file, `${snippet.code}\nexport {};\n`);
    located.set(file, snippet);
    groups[group].push(file);
  });
  const preludes = readdirSync(preludeDir)
    .filter((name) => name.endsWith('.d.ts'))
    .map((name) => join(preludeDir, name));
  const exportsFile = join(workDir, 'exports.d.ts');
  if (groups.tsdoc.length) {
    mkdirSync(workDir, { recursive: true });
    writeFileSync(exportsFile, exportsPrelude(paths, options, host));
  }
  for (const [group, files] of Object.entries(groups)) {
    if (!files.length) continue;
    const program = ts.createProgram(
      [...preludes, ...(group === 'tsdoc' ? [exportsFile] : []), ...files],
      options,
      host,
    );
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      const snippet = diagnostic.file && located.get(resolve(diagnostic.file.fileName));
      if (snippet && diagnostic.start !== undefined) {
        const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start);
        problems.push({
          source: snippet.source,
          line: snippet.line + line,
          message: `TS${diagnostic.code}: ${message}`,
        });
      } else {
        const where = diagnostic.file ? relative(root, diagnostic.file.fileName) : '(options)';
        problems.push({ source: where, line: 0, message: `TS${diagnostic.code}: ${message}` });
      }
    }
  }
  return problems;
}

/** Each `<!-- include: path -->` block must be the file, byte for byte; `write` copies the file in instead. */
export function checkIncludes(root: string, snippets: readonly Snippet[], write = false): SnippetProblem[] {
  const problems: SnippetProblem[] = [];
  for (const snippet of snippets) {
    if (!snippet.include) continue;
    const path = join(root, snippet.include);
    if (!existsSync(path)) {
      problems.push({
        source: snippet.source,
        line: snippet.line - 1,
        message: `included file ${snippet.include} does not exist`,
      });
      continue;
    }
    const file = readFileSync(path, 'utf8');
    if (`${snippet.code}\n` === file) continue;
    if (write) {
      const doc = join(root, snippet.source);
      const lines = readFileSync(doc, 'utf8').split('\n');
      // An empty block has no line to replace: its closing fence is the next line, and stays.
      const count = snippet.code === '' ? 0 : snippet.code.split('\n').length;
      lines.splice(snippet.line - 1, count, ...file.replace(/\n$/, '').split('\n'));
      writeFileSync(doc, lines.join('\n'));
      console.log(`${snippet.source}:${snippet.line}: copied ${snippet.include} in`);
      // Lines below have moved: the caller runs again.
      return [{ source: snippet.source, line: snippet.line, message: 'rewritten; run again' }];
    }
    problems.push({
      source: snippet.source,
      line: snippet.line,
      message: `this block differs from ${snippet.include} (run \`npm run check:snippets -- --write\` to copy the file in)`,
    });
  }
  return problems;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/**
 * The README is read on the npm registry's page too, where only shipped files exist: every link must be absolute
 * (https) or an anchor of one of its own headings.
 */
export function checkReadmeLinks(source: string, text: string): SnippetProblem[] {
  const anchors = new Set(
    text.split('\n').flatMap((line) => (/^#{1,6} /.test(line) ? [slug(line.replace(/^#+ /, ''))] : [])),
  );
  const problems: SnippetProblem[] = [];
  let inCode = false;
  text.split('\n').forEach((line, index) => {
    if (/^\s*```/.test(line)) inCode = !inCode;
    if (inCode) return;
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^https:\/\//.test(target!)) continue;
      if (target!.startsWith('#') && anchors.has(target!.slice(1))) continue;
      const message = target!.startsWith('#')
        ? `no heading has the anchor ${target}`
        : `the link ${target} is relative: it breaks on the npm registry's page (use https://github.com/…)`;
      problems.push({ source, line: index + 1, message });
    }
  });
  return problems;
}

/** README.md, docs/*.md (not docs/api) and the TSDoc of src/. */
export function collectSnippets(root: string): { snippets: Snippet[]; problems: SnippetProblem[] } {
  const docs = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => `src/${f}`)
    .sort();
  const results = [
    ...docs.map((f) => extractMarkdown(f, readFileSync(join(root, f), 'utf8'))),
    ...sources.map((f) => extractTsdoc(f, readFileSync(join(root, f), 'utf8'))),
  ];
  return { snippets: results.flatMap((r) => r.snippets), problems: results.flatMap((r) => r.problems) };
}

/** Runs every check over `root`; prints and returns the problems. */
export function checkSnippets(root: string, { write = false } = {}): SnippetProblem[] {
  let collected = collectSnippets(root);
  if (write) {
    while (checkIncludes(root, collected.snippets, true).length) collected = collectSnippets(root);
  }
  const { snippets } = collected;
  const problems = [
    ...collected.problems,
    ...checkReadmeLinks('README.md', readFileSync(join(root, 'README.md'), 'utf8')),
    ...checkIncludes(root, snippets),
    ...typecheckSnippets(root, snippets, join(root, '.cache', 'snippets')),
  ];
  for (const p of problems) console.error(`${p.source}:${p.line}: ${p.message}`);
  const counts = `${snippets.filter((s) => !s.tsdoc && !s.include).length} documentation blocks, ${
    snippets.filter((s) => s.tsdoc).length
  } TSDoc examples, ${snippets.filter((s) => s.include).length} included files`;
  console.log(
    problems.length
      ? `check-snippets: ${problems.length} problem(s) in ${counts}`
      : `check-snippets: ${counts}: all compile`,
  );
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(here, '..');
  process.exitCode = checkSnippets(root, { write: process.argv.includes('--write') }).length ? 1 : 0;
}
