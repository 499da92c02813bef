import { describe, expect, it } from 'vitest';
import { SCREENS } from '@/app/routes/screens';
import { CATALOG, screenIdOf } from '@/domain/menus/catalog';

describe('screen registry', () => {
  it('has a screen for every page and sub-route of every family: none shows "not available yet"', () => {
    const missing = CATALOG.filter((e) => (e.kind === 'page' || e.kind === 'route') && !(screenIdOf(e.key) in SCREENS)).map((e) => `${e.key} (${e.path})`);
    expect(missing).toEqual([]);
  });
});
