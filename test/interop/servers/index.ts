/** Spec servers on other people's frameworks, for interop tests and the doctor: start one, drive its service. */
export { startApolloServerSpec, type ApolloServerSpecOptions, type SpecServer } from './startApolloServerSpec';
export { startYogaSpec, type YogaSpecServer } from './startYogaSpec';
export {
  createSpecAuthService,
  SPEC_USERS,
  type SpecAuthService,
  type SpecAuthServiceOptions,
  type SpecAuthStats,
  type SpecUser,
} from './specAuthService';
