import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { main } from '../../src/doctor';
import { useCleanups } from '../helpers/overHttp';
import { SPEC_USERS, startApolloServerSpec } from '../interop/servers';

const cleanups = useCleanups();
// docs/doctor.md's report, as the command prints it; `UPDATE_DOCTOR_REPORT=1 npx vitest run test/doctor` writes it again.
const REPORT = fileURLToPath(new URL('./apollo-server-report.txt', import.meta.url));

// What differs from one run to the next: the port, the tails of the masked tokens, the tokens' times.
const normalize = (text: string) =>
  text
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:4000')
    .replace(/eyJ…[\w-]{4}/g, 'eyJ…••••')
    .replace(/exp is \d+/g, 'exp is 1795540738')
    .replace(/iat is -?\d+ s from/g, 'iat is 0 s from');

it("docs/doctor.md's report is what the command prints against the Apollo Server 5 interop server", async () => {
  const server = await startApolloServerSpec();
  cleanups.push(() => server.close());
  const lines: string[] = [];
  const admin = SPEC_USERS[0]!;
  const code = await main(['doctor', '--uri', server.url, '--email', admin.email, '--password', admin.password], {
    out: (text) => lines.push(text),
  });
  expect(code).toBe(0);
  const printed = `$ npx apollo-link-token-pair doctor --uri ${server.url} --email ${admin.email}\n${lines.join('\n')}\n`;
  if (process.env['UPDATE_DOCTOR_REPORT']) writeFileSync(REPORT, normalize(printed));
  expect(normalize(printed)).toBe(readFileSync(REPORT, 'utf8'));
  // docs/doctor.md shows this file, whole (its include marker).
  const page = readFileSync(fileURLToPath(new URL('../../docs/doctor.md', import.meta.url)), 'utf8');
  expect(page).toContain(
    `<!-- include: test/doctor/apollo-server-report.txt -->\n\`\`\`text\n${readFileSync(REPORT, 'utf8')}\`\`\`\n`,
  );
});
