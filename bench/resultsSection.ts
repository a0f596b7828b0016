/** The marker of the token handler's section in bench/RESULTS.md, written by `npm run bench:handler`. */
export const HANDLER_SECTION = 'token-handler';

/** The marker of the soak's section in bench/RESULTS.md, written by `npm run soak -- --results`. */
export const SOAK_SECTION = 'soak';

const open = (name: string) => `<!-- ${name} -->`;
const close = (name: string) => `<!-- /${name} -->`;

/** The section `name` of `text`, markers included; '' when it has none. */
export function keptSection(text: string, name: string): string {
  const start = text.indexOf(open(name));
  const end = text.indexOf(close(name));
  return start >= 0 && end > start ? text.slice(start, end + close(name).length) + '\n' : '';
}

/** `text` with its section `name` replaced by `body` (appended when it has none). */
export function withSection(text: string, name: string, body: string): string {
  const section = `${open(name)}\n${body.trim()}\n${close(name)}\n`;
  const kept = keptSection(text, name);
  return kept ? text.replace(kept, section) : `${text.trimEnd()}\n\n${section}`;
}
