/**
 * `local/max-own-lines`: a function may have at most `max` lines of its own, that is its span less the spans of the
 * functions declared directly inside it. A factory's closure is measured by its own lines; each function inside it
 * is measured on its own. ESLint's `max-lines-per-function` counts the nested functions too.
 *
 * The count matches `functions.cjs` (the project's measuring script): a function's span runs from the line of its
 * first token (a method's from its name or modifiers, leading comments excluded) to the line of its last, both
 * included; every function with a body counts, an arrow function with an expression body too.
 */

/** @param {import('estree').Node & { parent?: any }} node */
function measuredNode(node) {
  const parent = node.parent;
  // A method, accessor or constructor: TypeScript's MethodDeclaration spans its name and modifiers; ESTree puts those
  // on the parent (MethodDefinition, or an object literal's Property with `method`/`get`/`set`).
  if (parent && (parent.type === 'MethodDefinition' || parent.type === 'TSAbstractMethodDefinition')) return parent;
  if (parent && parent.type === 'Property' && parent.value === node && (parent.method || parent.kind !== 'init')) {
    return parent;
  }
  return node;
}

function nameOf(node) {
  const measured = measuredNode(node);
  if (measured !== node && measured.key) return keyName(measured.key);
  if (node.id) return node.id.name;
  const parent = node.parent;
  if (parent && parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if (parent && parent.type === 'Property' && parent.value === node) return keyName(parent.key);
  if (parent && parent.type === 'PropertyDefinition' && parent.value === node) return keyName(parent.key);
  return '(anonymous)';
}

function keyName(key) {
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'PrivateIdentifier') return `#${key.name}`;
  if (key.type === 'Literal') return String(key.value);
  return '(computed)';
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'suggestion',
    docs: {
      description: 'Limit the lines of a function of its own, not counting the functions declared inside it',
    },
    schema: [
      {
        type: 'object',
        properties: { max: { type: 'integer', minimum: 1 } },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ max: 80 }],
    messages: {
      tooLong:
        '{{name}} has {{own}} lines of its own (span {{span}} less {{nested}} in nested functions); at most {{max}}.',
    },
  },
  create(context) {
    const max = context.options[0]?.max ?? 80;
    /** One entry per function being visited: its body's range and the lines of the functions directly inside it. */
    const stack = [];
    const span = (node) => node.loc.end.line - node.loc.start.line + 1;

    const enter = (node) => {
      stack.push({ body: node.body.range, nested: 0 });
    };
    const exit = (node) => {
      const { nested } = stack.pop();
      const measured = measuredNode(node);
      const lines = span(measured);
      const outer = stack[stack.length - 1];
      // Subtracted from the enclosing function only when declared in its body: a default parameter's function
      // belongs to the signature, whose lines are the function's own (as functions.cjs counts them).
      if (outer && node.range[0] >= outer.body[0] && node.range[1] <= outer.body[1]) outer.nested += lines;
      const own = lines - nested;
      if (own > max) {
        context.report({
          node: measured,
          messageId: 'tooLong',
          data: { name: nameOf(node), own, span: lines, nested, max },
        });
      }
    };
    return {
      FunctionDeclaration: enter,
      'FunctionDeclaration:exit': exit,
      FunctionExpression: enter,
      'FunctionExpression:exit': exit,
      ArrowFunctionExpression: enter,
      'ArrowFunctionExpression:exit': exit,
    };
  },
};
