// docs/contributing.md's table of who writes each fact of a session, against the code: every assignment to a fact
// in src/core/session is in the file the table names, and every mutable field of a record is in the table.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');
const SESSION = join(ROOT, 'src/core/session');
const files = readdirSync(SESSION).filter((name) => name.endsWith('.ts'));
const source = (name: string) => readFileSync(join(SESSION, name), 'utf8');

/** The table's rows: each fact named in its first column, whether it is a record's, and the file of its third. */
function readTable(): Array<{ fact: string; ofRecord: boolean; writer: string }> {
  const doc = readFileSync(join(ROOT, 'docs/contributing.md'), 'utf8');
  const table = doc.slice(doc.indexOf('**Who writes each fact of a session.**')).split('\n\n')[1]!;
  return table
    .split('\n')
    .slice(2)
    .flatMap((row) => {
      const [facts, where, writer] = row
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim());
      const file = /`([\w.]+\.ts)`/.exec(writer!)![1]!;
      const ofRecord = /record/i.test(where!);
      return [...facts!.matchAll(/`(\w+)`/g)].map((match) => ({ fact: match[1]!, ofRecord, writer: file }));
    });
}

/**
 * The files that assign `fact` (`=`, `??=`, `+=`): a record's as a property (`record.fact =`), a part's cell as a
 * variable that is not declared there (a `const` or `let` of that name elsewhere is another variable).
 */
function writersOf(fact: string, ofRecord: boolean): string[] {
  const assigns = `${fact}\\s*(?:\\?\\?=|\\+=|=(?![=>]))`;
  const assignment = new RegExp(ofRecord ? `\\.${assigns}` : `(?<![.\\w])${assigns}`);
  const declared = new RegExp(`\\b(?:const|let)\\s+${fact}\\b`);
  return files.filter((name) =>
    source(name)
      .split('\n')
      .some((line) => !/^\s*(\/\/|\*)/.test(line) && assignment.test(line) && (ofRecord || !declared.test(line))),
  );
}

/** The fields of an interface declared in `file` that are not `readonly`. */
function mutableFields(file: string, name: string): string[] {
  const text = source(file);
  const body = text.slice(text.indexOf(`export interface ${name}`));
  const block = body.slice(body.indexOf('{') + 1, body.indexOf('\n}'));
  return [...block.matchAll(/^ {2}(\w+)\??:/gm)].map((match) => match[1]!);
}

describe('the table of who writes each fact of a session (docs/contributing.md)', () => {
  const table = readTable();

  it('names the facts', () => {
    expect(table.length).toBeGreaterThanOrEqual(10);
  });

  it.each(table)('$fact is written in $writer alone', ({ fact, ofRecord, writer }) => {
    expect(writersOf(fact, ofRecord)).toEqual([writer]);
  });

  it('lists every mutable field of a record and of its refresh', () => {
    const listed = table.map((row) => row.fact);
    for (const field of [
      ...mutableFields('RecordRefresh.ts', 'RecordRefresh'),
      ...mutableFields('SessionRecord.ts', 'SessionRecord'),
    ])
      expect(listed, field).toContain(field);
  });
});
