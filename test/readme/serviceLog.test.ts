import { afterEach, expect, it } from 'vitest';
import { createTestAuthServer, type TestAuthServer } from '../../src/testing';
import { createLoggedAuth } from './serviceLog';

// docs/devtools.md's logger recipe, against the package's test server over HTTP on 127.0.0.1, in real time.

let server: TestAuthServer | undefined;
afterEach(async () => void (await server?.close()));

it('logs a refused sign-in in the server’s words, the sign-in, a refresh with its duration, and the logout', async () => {
  server = createTestAuthServer();
  const lines: string[] = [];
  const auth = createLoggedAuth(await server.listen(0, '127.0.0.1'), (line) => lines.push(line));
  await expect(auth.login('admin@demo.test', 'wrong')).rejects.toThrow();
  await auth.login('admin@demo.test', 'admin-pass');
  await auth.refresh();
  await auth.logout();
  auth.dispose();
  const time = String.raw`\[auth\] \d\d:\d\d:\d\d\.\d{3}`;
  expect(lines).toEqual([
    expect.stringMatching(new RegExp(`^${time} Sign-in failed: .+`)),
    expect.stringMatching(new RegExp(`^${time} Signed in as admin@demo\\.test \\(ADMIN\\)$`)),
    expect.stringMatching(new RegExp(`^${time} Refresh \\(manual\\) → rotated \\(\\d+ ms\\)$`)),
    expect.stringMatching(new RegExp(`^${time} Session ended: logout here$`)),
  ]);
});
