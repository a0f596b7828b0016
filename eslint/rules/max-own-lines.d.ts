import type { Rule } from 'eslint';

/** `local/max-own-lines` (max-own-lines.js): at most `max` lines of a function's own. */
declare const maxOwnLines: Rule.RuleModule;
export default maxOwnLines;
