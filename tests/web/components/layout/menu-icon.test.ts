import { LayoutGrid } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import { menuIcon } from '@/components/layout/menu-icon';
import { CATALOG } from '@/domain/menus/catalog';
import { MENU_ICON_NAMES } from '@/domain/menus/customize';

describe('menu icons', () => {
  it('draws every icon menu management offers, and every icon the catalogue names, with an icon of its own', () => {
    const fallback = menuIcon('layout-grid');
    expect(fallback).toBe(LayoutGrid);
    for (const name of MENU_ICON_NAMES.filter((n) => n !== 'layout-grid')) expect(menuIcon(name), name).not.toBe(LayoutGrid);
    for (const name of new Set(CATALOG.map((e) => e.icon).filter((i): i is string => Boolean(i) && i !== 'layout-grid'))) expect(menuIcon(name), name).not.toBe(LayoutGrid);
  });
});
