import type { ScreenLoader } from './lazy-screen';

/**
 * Screen registry: catalogue key → lazily loaded screen (spec §2). Keys missing here render the
 * "not available yet" page for that catalogue entry. Every screen is a separate chunk so the login
 * route never pulls charts or spreadsheets.
 */
export const SCREENS: Readonly<Record<string, ScreenLoader>> = {
  'personal.myInfo.base': () => import('./my-info/base').then((m) => ({ default: m.MyInfoBasePage })),
  'personal.myInfo.editUser': () => import('./my-info/edit-user').then((m) => ({ default: m.EditUserPage })),
  'personal.myInfo.editAccount': () => import('./my-info/edit-account').then((m) => ({ default: m.EditAccountPage })),
};
