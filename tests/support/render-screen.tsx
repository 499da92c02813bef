/**
 * Renders a catalogue page's screen for a web test the way the app does (real routes, router, query client, i18n),
 * signed in as a K12 account holding `held` permission codes, over a fake API:
 *
 *   const { calls, router } = renderScreen('k12.test.testManage', { held: [...], api: { 'GET /…/page': () => ({ data }) } });
 */
import type { UInfo } from '@/domain/auth/types';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { saveToken, saveUInfo } from '@/lib/store';
import { fakeApi, k12UInfo, renderApp, type Handler } from '../web/app/fake-api';

export interface RenderScreenOptions {
  /** The permission codes the signed-in role holds, exactly (include the page's own to open it). */
  held?: readonly string[];
  /** The fake server's routes (`'GET /api/…': () => ({ data })`); sign-in's getUInfo is answered already. */
  api?: Record<string, Handler>;
  /** Values of the page path's `:params` (`{ id: 'p1' }`). */
  params?: Record<string, string>;
  /** A query string to open the page with (`?id=r1`). */
  search?: string;
  /** Changes to the signed-in user (another organisation type, accounts…). */
  uinfo?: Partial<UInfo>;
}

export function renderScreen(pageKey: string, { held = [], api = {}, params = {}, search = '', uinfo = {} }: RenderScreenOptions = {}) {
  const entry = getCatalogEntry(pageKey);
  if (!entry) throw new Error(`no catalogue page '${pageKey}'`);
  const path = entry.path.replace(/:(\w+)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`renderScreen('${pageKey}') needs params.${name}`);
    return encodeURIComponent(params[name]);
  });
  const info = k12UInfo({ permissions: [...held], ...uinfo });
  saveToken({ access_token: 'tok', token_type: 'bearer', expires_in: 1, refresh_token: 'r' });
  saveUInfo(info);
  const calls = fakeApi({ 'GET /api/busi/web/myInfo/getUInfo': () => ({ data: info }), ...api });
  return { ...renderApp(path + search), calls, path };
}
