#!/usr/bin/env node
// `npx apollo-link-token-pair doctor --uri … --email …`: see `apollo-link-token-pair/doctor`.
import { main } from '../dist/doctor.js';

process.exitCode = await main(process.argv.slice(2));
