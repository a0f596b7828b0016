/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API's GraphQL endpoint, read at build time (.env.development has the dev server's). */
  readonly VITE_GRAPHQL_URL: string;
}
