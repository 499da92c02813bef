import type { SecuritySettings } from './settings';

/** The password policy of an organisation (docs/product-rules.md#sign-in-security): its part of the security settings. */
export type PasswordPolicy = Pick<SecuritySettings, 'passwordMinLength' | 'passwordClasses'>;

/** Lower case, upper case, digits, symbols: how many of them a password mixes. */
export function passwordClassCount(password: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
}

/**
 * What a new password lacks under a policy: a message key, or null when it passes. The product's own rule (6–20
 * printable ASCII) is checked by the password schemas; this adds the organisation's stricter floor.
 */
export function passwordPolicyIssue(password: string, policy: PasswordPolicy): 'security:password.tooShort' | 'security:password.tooFewClasses' | null {
  if (password.length < policy.passwordMinLength) return 'security:password.tooShort';
  if (passwordClassCount(password) < policy.passwordClasses) return 'security:password.tooFewClasses';
  return null;
}
