import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ResultDetail } from '@/domain/physique-results/types';
import { getToasts } from '@/lib/toast';
import { renderScreen } from '../../../support/render-screen';
import { resetApp } from '../../app/fake-api';

const RESULT_ID = '66666666-6666-4666-8666-666666666666';
const API = '/api/busi/web/k12/physiqueManage/testResult';
const PERMISSIONS = ['k12:test:testResult:view', 'k12:test:testResult:report', 'k12:test:testResult:export'];

function detail(overrides: Partial<ResultDetail> = {}): ResultDetail {
  return {
    id: RESULT_ID,
    orgId: 'o1',
    orgName: '第一中学',
    planId: 'p1',
    planName: '秋季体测',
    schoolYearId: 'y1',
    academicYear: '2026-2027',
    semesterCode: 13,
    studentId: 's1',
    name: '李子豪',
    regNo: 'G320102201209290752',
    studentNo: null,
    gender: 'male',
    gradeNo: 8,
    classId: 'c1',
    className: '八年级2班',
    testedOn: '2026-10-18',
    heightCm: 163.1,
    weightKg: 43.9,
    items: {
      bmi: { raw: 16.5, score: 100, level: 'normal', bonus: null },
      run1000m: { raw: 294, score: 64, level: 'pass', bonus: null },
    },
    standardScore: 61.4,
    bonus: 0,
    total: 61.4,
    level: 'pass',
    complete: true,
    invalid: false,
    invalidAt: null,
    source: 'import',
    updatedAt: '2026-11-23T00:00:00.000Z',
    planItems: ['bmi', 'run1000m'],
    missing: [],
    logs: [],
    ...overrides,
  };
}

beforeEach(() => {
  resetApp();
});

describe('editing upload data (docs/product-rules.md#physique-results: results screen)', () => {
  it('checks a raw value with the engine parser before sending, then shows the server rescoring', async () => {
    const rescored = detail({
      items: { bmi: { raw: 16.5, score: 100, level: 'normal', bonus: null }, run1000m: { raw: 220, score: 100, level: 'excellent', bonus: 0 } },
      standardScore: 68.6,
      total: 68.6,
      logs: [{ id: 'l1', action: 'edit', field: 'run1000m', oldValue: '294', newValue: '220', byUserId: 'u1', byName: '王磊', at: '2026-11-23T02:00:00.000Z' }],
    });
    const { calls } = renderScreen('k12.test.testResult.editUpReport', {
      held: PERMISSIONS,
      search: `?id=${RESULT_ID}`,
      api: {
        [`GET ${API}/${RESULT_ID}`]: () => ({ data: detail() }),
        [`POST ${API}/editUpReport/${RESULT_ID}`]: () => ({ data: rescored }),
      },
    });
    const user = userEvent.setup();
    const editor = await screen.findByTestId('result-editor', {}, { timeout: 5000 });
    const run = editor.querySelector('tr[data-field="run1000m"]') as HTMLElement;
    expect(within(run).getByTestId('raw-value')).toHaveTextContent(`4'54"`);

    await user.click(within(run).getByTestId('raw-edit'));
    const input = within(run).getByTestId('raw-input');
    await user.clear(input);
    await user.type(input, '三分四十');
    await user.click(within(run).getByTestId('raw-save'));
    expect(within(run).getByTestId('raw-error')).toHaveTextContent('时间格式不正确');
    expect(calls.find(`POST ${API}/editUpReport/${RESULT_ID}`)).toHaveLength(0);

    await user.clear(input);
    await user.type(input, '3:40');
    await user.click(within(run).getByTestId('raw-save'));
    await waitFor(() => expect(calls.find(`POST ${API}/editUpReport/${RESULT_ID}`)).toHaveLength(1));
    expect(calls.find(`POST ${API}/editUpReport/${RESULT_ID}`)[0].body).toEqual({ field: 'run1000m', value: '3:40' });
    await waitFor(() => expect(within(run).getByTestId('raw-value')).toHaveTextContent(`3'40"`));
    expect(within(run).getByTestId('item-score')).toHaveTextContent('100');
    expect(screen.getByTestId('editor-totals')).toHaveTextContent('68.6');
    expect(screen.getByTestId('editor-logs')).toHaveTextContent('王磊');
    expect(getToasts().some((t) => t.kind === 'success' && String(t.message).includes('61.4 → 68.6'))).toBe(true);
  }, 20_000);
});
