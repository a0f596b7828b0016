import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { formatReport } from './formatReport';
import { runDoctor, type DoctorOptions } from './runDoctor';

const USAGE = `Usage: apollo-link-token-pair doctor --uri URL --email EMAIL [--password PASSWORD] [--json] [--timeout MS] [--documents FILE.json]

Checks a GraphQL server against the token-pair contract with at most 18 requests, logs out every session it
opened, and says what apollo-link-token-pair will do with it. FILE.json holds documents for mutations under
other names ({ "login", "refresh", "logout", "me" }) and the app's sign-in doors ({ "signIns": { NAME: DOCUMENT } }),
which are checked before any request and never sent. The password comes from --password, else
APOLLO_LINK_TOKEN_PAIR_PASSWORD, else a prompt that does not echo. Exit code 0 when no check failed.`;

/** Runs the command line `args` (after the program's name); resolves the exit code. */
export async function main(
  args: readonly string[],
  io: { out?: (text: string) => void; err?: (text: string) => void } = {},
): Promise<number> {
  const out = io.out ?? ((text: string) => process.stdout.write(`${text}\n`));
  const err = io.err ?? ((text: string) => process.stderr.write(`${text}\n`));
  const [command, ...rest] = args;
  if (command !== 'doctor') {
    err(USAGE);
    return 2;
  }
  const flags = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i++) {
    const name = rest[i]!;
    if (!name.startsWith('--')) return (err(`Unexpected argument ${name}.\n\n${USAGE}`), 2);
    const value = rest[i + 1];
    if (name === '--json' || value === undefined || value.startsWith('--')) flags.set(name, true);
    else flags.set(name, rest[++i]!);
  }
  const text = (name: string) => (typeof flags.get(name) === 'string' ? (flags.get(name) as string) : undefined);
  const uri = text('--uri');
  const email = text('--email');
  if (!uri || !email) return (err(`--uri and --email are required.\n\n${USAGE}`), 2);
  const password =
    text('--password') ?? process.env['APOLLO_LINK_TOKEN_PAIR_PASSWORD'] ?? (await prompt(`Password for ${email}: `));
  const options: DoctorOptions = { uri, email, password };
  if (text('--timeout')) options.timeout = Number(text('--timeout'));
  if (text('--documents')) {
    // The contract's mutations under other names, and the app's sign-in doors (`signIns`), in one file.
    const { signIns, ...documents } = JSON.parse(await readFile(text('--documents')!, 'utf8')) as NonNullable<
      DoctorOptions['documents']
    > & { signIns?: DoctorOptions['signIns'] };
    options.documents = documents;
    if (signIns) options.signIns = signIns;
  }
  const report = await runDoctor(options);
  out(flags.has('--json') ? JSON.stringify(report, null, 2) : formatReport(report));
  return report.ok ? 0 : 1;
}

// Reads a line from the terminal without echoing it.
function prompt(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const output = rl as unknown as { _writeToOutput?: (text: string) => void };
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
    output._writeToOutput = () => {};
  });
}
