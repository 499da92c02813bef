import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversionOption } from '@/domain/conversion/conversion';
import { i18next } from '@/lib/i18n';
import { renderScreen } from '../../../support/render-screen';
import { resetApp } from '../../app/fake-api';
import { PLAN_ID, planDetail, planOptions, TEACHER_PERMISSIONS } from '../test-plans/fixtures';

const API = '/api/busi/web/k12/organizeTest/testManage';
const SAMPLE: ConversionOption = { id: '66666666-6666-4666-8666-666666666666', name: '示例：中考体育总分换算表', stage: 'junior', year: 2027, tableVersion: 1, sample: true, orgName: '江宁区教育局' };

beforeEach(() => {
  resetApp();
});
afterEach(async () => {
  await i18next.changeLanguage('zh_cn');
});

/** The edit screen of a plan applying the sample table, over options that offer it. */
const openEdit = (conversion: ConversionOption | null, tables: ConversionOption[] = [SAMPLE]) =>
  renderScreen('k12.test.testManage.add', {
    held: TEACHER_PERMISSIONS,
    search: `?id=${PLAN_ID}`,
    api: {
      [`GET ${API}/options`]: () => ({ data: { ...planOptions(), conversionTables: tables } }),
      // A school's id is a uuid (the form sends it back on an edit).
      [`GET ${API}/detail/${PLAN_ID}`]: () => ({ data: planDetail({ conversion, orgId: '77777777-7777-4777-8777-777777777777' }) }),
      [`POST ${API}/edit/${PLAN_ID}`]: () => ({ data: planDetail({ conversion: null }) }),
    },
  });

describe('a test plan’s 中考体育 conversion table (docs/product-rules.md#physique-year)', () => {
  it('shows the applied version, marked a sample, and sends none once cleared', async () => {
    const { calls } = openEdit(SAMPLE);
    const field = await screen.findByTestId('plan-conversion', {}, { timeout: 15_000 });
    expect(within(field).getByRole('combobox')).toHaveTextContent('示例：中考体育总分换算表（2027年 初中 第1版，江宁区教育局，示例）');
    const user = userEvent.setup();
    await user.click(within(field).getByRole('button', { name: /清除|Clear/ }));
    await user.click(screen.getByTestId('plan-submit'));
    await waitFor(() => expect(calls.find(`POST ${API}/edit/${PLAN_ID}`)).toHaveLength(1));
    expect(calls.find(`POST ${API}/edit/${PLAN_ID}`)[0].body).toMatchObject({ conversionTableId: null });
  }, 30_000);

  it('is not shown where no table is published above the school', async () => {
    openEdit(null, []);
    await screen.findByTestId('plan-form', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('plan-conversion')).toBeNull();
  }, 30_000);
});
