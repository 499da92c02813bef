/**
 * The dictionary kit (docs/product-rules.md#dictionaries) on the venue form: its type select offers the platform's
 * venue types and the organisation's own enabled ones (a disabled one is not offered), and the save sends the code.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { platformEntries, type DictionaryEntry } from '@/domain/dictionaries/dictionaries';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { renderScreen } from '../../../support/render-screen';
import { resetApp } from '../../app/fake-api';

const own = (code: string, zh: string, enabled: boolean): DictionaryEntry => ({
  id: `id-${code}`,
  code,
  labelKey: null,
  labels: { zh_cn: zh, zh_tw: '', en_us: '' },
  sort: 1,
  enabled,
  origin: 'own',
  orgName: '实验学校',
  version: 1,
});
const page = getCatalogEntry('k12.venue.place')!;

beforeEach(() => {
  resetApp();
});

describe('DictionaryField', () => {
  it("offers the organisation's own enabled entries beside the platform's and saves the chosen code", async () => {
    const { calls } = renderScreen('k12.venue.place.add', {
      held: [page.permission, ...page.buttons.map((b) => b.permission)],
      api: {
        'GET /api/busi/web/dictionaries/venueType': () => ({
          data: { code: 'venueType', extendable: true, entries: [...platformEntries('venueType'), own('climbing', '攀岩墙', true), own('skating', '冰场', false)] },
        }),
        'POST /api/busi/web/k12/place': () => ({ data: { id: 'v1', name: '攀岩馆', type: 'climbing', code: '71', deviceCount: 0, version: 1 } }),
        'GET /api/busi/web/k12/place/page': () => ({ data: { records: [], total: 0, current: 1, size: 10 } }),
      },
    });
    const user = userEvent.setup();
    const form = await screen.findByTestId('venue-form', {}, { timeout: 15_000 });
    await user.type(within(form).getByRole('textbox', { name: /场地名称/ }), '攀岩馆');
    await user.type(within(form).getByRole('textbox', { name: /场地ID/ }), '71');
    await user.click(within(form).getByRole('combobox', { name: /场地类型/ }));
    await waitFor(() => expect(screen.getByRole('option', { name: '攀岩墙' })).toBeInTheDocument());
    expect(screen.getByRole('option', { name: '田径场' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /冰场/ })).toBeNull();
    await user.click(screen.getByRole('option', { name: '攀岩墙' }));
    await user.click(within(form).getByTestId('form-save'));
    await waitFor(() => expect(calls.find('POST /api/busi/web/k12/place')).toHaveLength(1));
    expect(calls.find('POST /api/busi/web/k12/place')[0].body).toMatchObject({ name: '攀岩馆', type: 'climbing', code: '71' });
  });
});
