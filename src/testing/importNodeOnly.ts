/**
 * Imports a module that only Node has (`node:http`, `ws`), at run time.
 *
 * @remarks
 * The specifier is not a literal, so bundlers of the Fetch handler for a browser (Vite, webpack, esbuild) leave
 * the import alone instead of failing to resolve a Node builtin: only `listen()` ever reaches it.
 */
export function importNodeOnly<T>(specifier: string): Promise<T> {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ specifier) as Promise<T>;
}
