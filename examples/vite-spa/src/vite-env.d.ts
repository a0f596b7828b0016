/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API's GraphQL endpoint, read at build time. */
  readonly VITE_GRAPHQL_URL?: string;
}
