/**
 * `doctor`: checks a server against the contract and says what the package will do with it. Run it as
 * `npx apollo-link-token-pair doctor --uri … --email …`, or call {@link runDoctor}.
 *
 * @packageDocumentation
 * @module apollo-link-token-pair/doctor
 */
export { runDoctor, MAX_REQUESTS, type DoctorOptions, type DoctorReport, type DoctorCheck } from './runDoctor';
export { formatReport } from './formatReport';
export { main } from './main';
