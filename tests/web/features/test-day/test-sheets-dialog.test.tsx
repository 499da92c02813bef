import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pageAccess, pageApi } from '@/domain/menus/access';
import type { TestSheetOptions } from '@/domain/test-day/test-sheets';
import { AppProvider } from '@/app/provider';
import { PrintSheetsDialog } from '@/features/test-day/components/print-sheets-dialog';
import { permissionsAtom } from '@/lib/permissions';
import { store } from '@/lib/store';
import { fakeApi, resetApp } from '../../app/fake-api';

const page = pageAccess('k12.test.testDay');
const base = `${pageApi('k12.test.testDay')}/sheets/p1`;
const options: TestSheetOptions = {
  planName: '2026学年体质测试',
  classes: [
    { id: 'c1', name: '一年级1班', gradeNo: 1, students: 40 },
    { id: 'c7', name: '七年级2班', gradeNo: 7, students: 45 },
  ],
  items: ['bmi', 'sitAndReach', 'standingLongJump'],
};

function dialog(codes: string[], items?: string[]) {
  store.set(permissionsAtom, new Set(codes));
  const router = createMemoryRouter([{ path: '/', element: <PrintSheetsDialog family="k12" planId="p1" items={items} /> }]);
  return render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

const pdf = () => ({ raw: new Blob(['%PDF-1.7']) });

describe('the print sheets dialog (docs/product-rules.md#physique-year, "Test sheets")', () => {
  beforeEach(() => {
    resetApp();
    URL.createObjectURL = vi.fn(() => 'blob:sheet');
    URL.revokeObjectURL = vi.fn();
  });

  it('shows its button only with the test-day page’s print permission', async () => {
    const without = dialog([page.view]);
    await waitFor(() => expect(screen.queryByTestId('print-sheets')).toBeNull());
    without.unmount();
    dialog([page.view, page.need('print')]);
    expect(await screen.findByTestId('print-sheets')).toHaveTextContent('打印');
  });

  it('downloads the test cards of one class', async () => {
    const api = fakeApi({ [`GET ${base}/options`]: () => ({ data: options }), [`GET ${base}/cards.pdf`]: pdf });
    dialog([page.view, page.need('print')]);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('print-sheets'));
    const box = await screen.findByTestId('print-sheets-dialog');
    expect(box).toHaveTextContent('2026学年体质测试');
    expect(box).toHaveTextContent('测试卡（每名学生一张二维码卡，每班一页）');
    await user.click(screen.getByRole('combobox', { name: '班级' }));
    await user.click(await screen.findByRole('option', { name: '七年级2班（45 人）' }));
    await user.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(api.find(`GET ${base}/cards.pdf`)).toHaveLength(1));
    expect(api.find(`GET ${base}/cards.pdf`)[0].config.params).toMatchObject({ classId: 'c7' });
  });

  it('asks a roster for its items, and starts from the station’s', async () => {
    const api = fakeApi({ [`GET ${base}/options`]: () => ({ data: options }), [`GET ${base}/roster.pdf`]: pdf });
    const first = dialog([page.view, page.need('print')]);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('print-sheets'));
    await user.click(await screen.findByRole('radio', { name: /测试站名册/ }));
    await user.click(screen.getByTestId('form-save'));
    expect(await screen.findByText('请选择测试站的测试项目')).toBeInTheDocument();
    expect(api.find(`GET ${base}/roster.pdf`)).toHaveLength(0);
    first.unmount();

    dialog([page.view, page.need('print')], ['standingLongJump', 'bmi']);
    await user.click(await screen.findByTestId('print-sheets'));
    expect(await screen.findByRole('checkbox', { name: '立定跳远' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '坐位体前屈' })).not.toBeChecked();
    await user.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(api.find(`GET ${base}/roster.pdf`)).toHaveLength(1));
    // All classes: no class named; the items in the standard's order.
    expect(api.find(`GET ${base}/roster.pdf`)[0].config.params).toEqual({ classId: undefined, items: 'bmi,standingLongJump' });
  });
});
