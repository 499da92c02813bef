import { BASE_PATH } from '@/domain/constants';

type Navigate = (to: string) => void;
// The router registers itself so a 401 navigates inside the SPA; before that, a full page load.
let navigator: Navigate = (to) => window.location.assign(BASE_PATH + to);

/** Where the API client sends a person whose session ended (src/lib/api-client.ts). */
export function setApiNavigator(fn: Navigate): void {
  navigator = fn;
}

export function navigateTo(to: string): void {
  navigator(to);
}
