/** Token answer of the login call (docs/product-rules.md#calls). */
export interface TokenData {
  access_token: string;
  expires_in: number;
  refresh_token: string;
  token_type: 'bearer';
  /**
   * True when an administrator chose the password (a reset or a new account): every call but the password change
   * answers 428 until it is changed (docs/product-rules.md#users).
   */
  must_change_password?: boolean;
  /**
   * True when the account must use two-factor sign-in and has not enrolled: every call but the enrolment answers 428
   * until it has (docs/product-rules.md#sign-in-security).
   */
  must_enrol_totp?: boolean;
}

/** The password step's answer when a code step follows (two-factor sign-in): the challenge to send with the code. */
export interface TotpChallenge {
  totp_challenge: string;
  expires_in: number;
}

// The personal centre's answers are zod outputs (./answers, the API document's schemas).
export type { AccountInfo, Identity, MenuEntry, MenuNode, RoleInfo, UInfo } from './answers';

/** Public branding of the organisation serving this address (docs/product-rules.md#branding, #calls). */
export interface SimpleOrgInfo {
  platformName: string;
  icon: string;
  loginImg: string;
  filingNumber: string;
}
