import { setPasswordCostForTests } from '../../server/lib/password';

/**
 * Every server test file: new password hashes at a test cost. A production hash is ≈ 50 ms of CPU, and the suite's
 * seeds, imports and sign-ins made thousands (docs/decisions/005-test-databases.md); tests/server/db/password.test.ts
 * holds production's cost.
 */
export const TEST_PASSWORD_COST = 16;
setPasswordCostForTests(TEST_PASSWORD_COST);
