import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import maxOwnLines from '../../eslint/rules/max-own-lines.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

/** A body of `count` statement lines. */
const lines = (count: number, name = 'x') => Array.from({ length: count }, (_, i) => `  ${name}${i}();`).join('\n');

const tooLong = (name: string, own: number, { nested = 0, max = 5 } = {}) => ({
  messageId: 'tooLong',
  data: { name, own: String(own), span: String(own + nested), nested: String(nested), max: String(max) },
});

// max 5 throughout: a function of 3 body lines spans 5 (its head and its closing brace included).
const options = [{ max: 5 }];

tester.run('max-own-lines', maxOwnLines, {
  valid: [
    { code: `function fits() {\n${lines(3)}\n}`, options },
    {
      name: 'a factory is measured by its own lines: the closure inside it is measured apart',
      code: `function factory() {\n  const a = 1;\n  function inner() {\n${lines(3)}\n  }\n  return inner;\n}`,
      options,
    },
    {
      name: 'a method nested in a class inside a function counts as the class’s, not the function’s',
      code: `function make() {\n  return class {\n    run() {\n${lines(3)}\n    }\n  };\n}`,
      options,
    },
    { name: 'the default is 80', code: `function eighty() {\n${lines(78)}\n}` },
    { name: 'an overload has no body to measure', code: `declare function f(a: string): void;` },
  ],
  invalid: [
    { code: `function long() {\n${lines(4)}\n}`, options, errors: [tooLong('long', 6)] },
    {
      name: 'the default is 80',
      code: `function long() {\n${lines(79)}\n}`,
      errors: [tooLong('long', 81, { max: 80 })],
    },
    {
      name: 'a nested function is measured on its own',
      code: `function outer() {\n  return () => {\n${lines(4)}\n  };\n}`,
      options,
      errors: [tooLong('(anonymous)', 6)],
    },
    {
      // functions.cjs counts the inner arrow among the outer one's own lines (it looks inside the body, not at it).
      name: 'a curried arrow: the inner arrow is not the outer one’s own lines',
      code: `const curry = (a: number) => (b: number) => {\n${lines(4)}\n};`,
      options,
      errors: [tooLong('(anonymous)', 6)],
    },
    {
      name: 'the outer function’s own lines exclude the nested one’s but keep the rest',
      code: `const outer = () => {\n${lines(2)}\n  const inner = () => 1;\n${lines(2, 'y')}\n};`,
      options,
      errors: [tooLong('outer', 6, { nested: 1 })],
    },
    {
      name: 'a method is measured from its name, an object literal’s too',
      code: `class A {\n  static async run(\n    a: number,\n  ) {\n${lines(2)}\n  }\n}\nconst o = {\n  get value() {\n${lines(4)}\n  },\n};`,
      options,
      errors: [tooLong('run', 6), tooLong('value', 6)],
    },
    {
      name: 'a function in a default parameter belongs to the signature (as functions.cjs counts)',
      code: `function f(\n  pick = () => {\n    return 1;\n  },\n) {\n  return pick();\n}`,
      options,
      errors: [tooLong('f', 7)],
    },
    {
      name: 'an arrow with an expression body counts its lines',
      code: `const sum = () =>\n  [\n    1,\n    2,\n    3,\n  ].length;`,
      options,
      errors: [tooLong('sum', 6)],
    },
  ],
});
