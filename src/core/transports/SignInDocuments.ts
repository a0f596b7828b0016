import type { DocumentNode, TypedDocumentNode } from '@apollo/client';
import type { TokenPair } from '../tokens/TokenPair';

/**
 * A sign-in door's mutation: a string or a `DocumentNode` (`gql`), typed when it is a `TypedDocumentNode`. It
 * selects one top-level field, whose value is the answer: a pair (`accessToken`, `refreshToken`, and optionally
 * `user`, aliased to these names when the server names them otherwise), or anything else for a step that begins
 * no session (a code was sent, a second factor is required).
 */
export type SignInDocument = string | DocumentNode;

/** The sign-in doors of a session, by name: `{ register: REGISTER, withCode: WITH_CODE }`. */
export type SignInDocuments = Readonly<Record<string, SignInDocument>>;

/** Variables of a door whose document says nothing of them: a string or an untyped `DocumentNode`. */
export type AnyVariables = Readonly<Record<string, unknown>>;

/** The variables of a door's document: its own when it is a `TypedDocumentNode`, any others else. */
export type SignInVariables<Document> =
  Document extends TypedDocumentNode<infer _Result, infer Variables>
    ? unknown extends Variables
      ? AnyVariables
      : Variables
    : AnyVariables;

/**
 * The value of a door's one top-level field, as `next` carries it: typed when its document is, without the members
 * that hold an access token (those begin the session instead).
 */
export type SignInNext<Document> =
  Document extends TypedDocumentNode<infer Result, infer _Variables>
    ? unknown extends Result
      ? unknown
      : Exclude<Result[keyof Result], { readonly accessToken: string }>
    : unknown;

/** A pair the app already holds, for `adopt`: from an invitation link, a native SDK, another library. */
export type AdoptedPair = Pick<TokenPair, 'accessToken' | 'refreshToken'>;
