#!/usr/bin/env node
// `npx apollo-link-token-pair serve [--port 4000] …`: the spec test server as a development API (see
// `apollo-link-token-pair/testing`, serveMain).
// `npx apollo-link-token-pair doctor --uri … --email …`: see `apollo-link-token-pair/doctor`.
// Each command loads only its own entry.
const USAGE = `Usage: apollo-link-token-pair <command> [options]

Commands:
  serve   start the package's spec test server as a development API (apollo-link-token-pair serve --help)
  doctor  check a GraphQL server against the token-pair contract (apollo-link-token-pair doctor --uri URL --email EMAIL)`;

const [command, ...rest] = process.argv.slice(2);
if (command === 'serve') {
  const { serveMain } = await import('../dist/testing.js');
  process.exitCode = await serveMain(rest);
} else if (command === 'doctor') {
  const { main } = await import('../dist/doctor.js');
  process.exitCode = await main(process.argv.slice(2));
} else if (command === '--help' || command === '-h') {
  process.stdout.write(`${USAGE}\n`);
} else {
  process.stderr.write(`${command === undefined ? '' : `Unknown command ${command}.\n\n`}${USAGE}\n`);
  process.exitCode = 2;
}
