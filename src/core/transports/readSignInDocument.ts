import { Kind, parse, print, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { SignInDocument } from './SignInDocuments';

/** A door's document as a transport posts it, and where its answer is. */
export interface SignInDoor {
  /** The door's name, as the app calls it. */
  readonly name: string;
  /** The document, as sent. */
  readonly query: string;
  /** The key of the one top-level field in `data`: its alias, or its name. */
  readonly field: string;
  /**
   * Whether the field selects both `accessToken` and `refreshToken` (in itself or in a fragment of a union): a
   * door that can begin a session. One that cannot is a step (a code sent) that always answers `next`.
   */
  readonly carriesPair: boolean;
}

/**
 * Reads the document of the door `name` of `option` (`signIns`, as the message names it): its one top-level field
 * and whether its answer can carry a pair.
 *
 * @throws An `Error` naming the door and the option when the document does not parse, holds no operation or
 * several, or selects no single top-level field.
 */
export function readSignInDocument(name: string, document: SignInDocument, option = 'signIns'): SignInDoor {
  const where = `${option}.${name}`;
  let ast;
  try {
    ast = typeof document === 'string' ? parse(document) : document;
  } catch (cause) {
    throw new Error(`apollo-link-token-pair: ${where} is not a GraphQL document: ${(cause as Error).message}`, {
      cause,
    });
  }
  const operations = ast.definitions.filter((each) => each.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1) {
    throw new Error(`apollo-link-token-pair: ${where} must hold one operation; it holds ${operations.length}.`);
  }
  const selected = operations[0]!.selectionSet.selections.filter(
    (each) => !(each.kind === Kind.FIELD && each.name.value === '__typename'),
  );
  const field = selected[0];
  if (selected.length !== 1 || field?.kind !== Kind.FIELD) {
    const names = selected.map((each) => (each.kind === Kind.FIELD ? each.name.value : '…')).join(', ') || 'none';
    throw new Error(
      `apollo-link-token-pair: ${where} must select one top-level field, whose answer is the pair (or the next ` +
        `step); it selects ${names}.`,
    );
  }
  const keys = keysOf(field.selectionSet, fragmentsOf(ast));
  return {
    name,
    query: typeof document === 'string' ? document : print(document),
    field: (field.alias ?? field.name).value,
    carriesPair: keys.has('accessToken') && keys.has('refreshToken'),
  };
}

// The response keys a selection can answer with, its fragments' (a union's members) included.
function keysOf(
  selectionSet: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
): Set<string> {
  const keys = new Set<string>();
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) keys.add((selection.alias ?? selection.name).value);
    else {
      const inner = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
      // A fragment is used once here: a fragment that spreads itself is invalid GraphQL, and would not end.
      if (selection.kind === Kind.FRAGMENT_SPREAD) fragments.delete(selection.name.value);
      for (const key of keysOf(inner?.selectionSet, fragments)) keys.add(key);
    }
  }
  return keys;
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const each of document.definitions)
    if (each.kind === Kind.FRAGMENT_DEFINITION) fragments.set(each.name.value, each);
  return fragments;
}
