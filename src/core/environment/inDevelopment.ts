declare const process: { env: { NODE_ENV?: string } };

/**
 * Whether the app runs in development: `process.env.NODE_ENV` is not `'production'`. Bundlers write the value in,
 * so a production build drops what only development does; where nothing defines `process` (a page with no bundler),
 * it counts as development.
 */
export function inDevelopment(): boolean {
  try {
    return process.env.NODE_ENV !== 'production';
  } catch {
    return true;
  }
}
