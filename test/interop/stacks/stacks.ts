import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildDir, hasCommand, nodeStacksInstalled, STACKS_DIR, type StackCommand } from './startStack';

/** One stack of the interop suite: how to build and run its spec server, and what it puts on the wire. */
export interface Stack {
  readonly name: string;
  /** Why it cannot run on this machine, or `undefined` when it can. */
  readonly missing: () => string | undefined;
  /** Builds what must be built (once per run) and says how to start it. */
  readonly prepare: () => StackCommand;
  /**
   * `extensions.code` of a plain refusal on this stack ("Not authenticated", "Invalid refresh token", "Invalid
   * email or password"): `undefined` for none.
   */
  readonly refusalCode: string | undefined;
}

const node = (script: string, loader?: string): StackCommand => ({
  command: process.execPath,
  args: [...(loader ? ['--import', loader] : []), script],
});
const needsNodeStacks = () =>
  nodeStacksInstalled() ? undefined : 'the Node stacks are not installed: npm run interop:install';
const needs =
  (...commands: string[]) =>
  () => {
    const absent = commands.filter((command) => !hasCommand(command));
    return absent.length ? `${absent.join(', ')} not found (.ci/run installs the Debian packages)` : undefined;
  };
const python = '/usr/bin/python3';
const hasPythonModules = () => {
  try {
    execFileSync(python, ['-c', 'import graphene, jwt'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'python3-graphene and python3-jwt are not installed';
  }
};
const hasRubyGems = () => {
  if (!hasCommand('ruby')) return 'ruby not found';
  try {
    execFileSync('ruby', ['-e', 'require "graphql"; require "jwt"; require "webrick"'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'ruby-graphql, ruby-jwt and ruby-webrick are not installed';
  }
};

/** The eight stacks, each written as its own docs teach (README.md of this folder). */
export const STACKS: readonly Stack[] = [
  {
    name: 'Apollo Server 5',
    missing: () => undefined,
    prepare: () => node('apollo-server/server.ts', 'tsx'),
    refusalCode: 'INTERNAL_SERVER_ERROR',
  },
  {
    name: 'GraphQL Yoga 5',
    missing: () => undefined,
    prepare: () => node('yoga/server.ts', 'tsx'),
    refusalCode: undefined,
  },
  {
    name: 'Mercurius 16 (Fastify 5)',
    missing: needsNodeStacks,
    prepare: () => node('mercurius/server.mjs'),
    refusalCode: undefined,
  },
  {
    name: 'graphql-http 1',
    missing: needsNodeStacks,
    prepare: () => node('graphql-http/server.mjs'),
    refusalCode: undefined,
  },
  {
    name: 'NestJS 11 (@nestjs/apollo 13)',
    missing: needsNodeStacks,
    prepare: once(() => {
      execFileSync(join(STACKS_DIR, 'node_modules/.bin/tsc'), ['-p', 'nestjs/tsconfig.json'], {
        cwd: STACKS_DIR,
        stdio: 'inherit',
      });
      return { command: process.execPath, args: ['nestjs/dist/main.js'], env: { NODE_ENV: 'production' } };
    }),
    refusalCode: 'UNAUTHENTICATED',
  },
  {
    name: 'Python graphene 2',
    missing: hasPythonModules,
    prepare: () => ({ command: python, args: ['graphene/server.py'] }),
    refusalCode: undefined,
  },
  {
    name: 'Ruby graphql-ruby 1.13',
    missing: hasRubyGems,
    prepare: () => ({ command: 'ruby', args: ['graphql-ruby/server.rb'] }),
    refusalCode: undefined,
  },
  {
    name: 'Go graph-gophers/graphql-go 1.5',
    missing: needs('go'),
    prepare: once(() => {
      const binary = join(buildDir(), 'server');
      // Debian's Go packages in GOPATH mode: no module proxy is reachable here.
      execFileSync('go', ['build', '-o', binary, '.'], {
        cwd: join(STACKS_DIR, 'graphql-go'),
        env: {
          ...process.env,
          GO111MODULE: 'off',
          GOPATH: '/usr/share/gocode',
          GOPROXY: 'off',
          GOFLAGS: '',
          GOCACHE: join(buildDir(), 'cache'),
        },
        stdio: 'inherit',
      });
      return { command: binary, args: [] };
    }),
    refusalCode: undefined,
  },
];

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
