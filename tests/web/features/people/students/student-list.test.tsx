import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StudentRecord } from '@/domain/people/students';
import { renderScreen } from '../../../../support/render-screen';
import { resetApp } from '../../../app/fake-api';

const API = '/api/busi/web/k12/user/student';
const student: StudentRecord = {
  id: 's1', name: '张小明', regNo: 'G001', studentNo: null, gender: 'male', birthDate: null, ethnicity: '01', status: 'studying',
  photoFileId: null, classId: 'c1', className: '一年级1班', gradeId: 'g1', gradeNo: 1, parents: [], appAccount: null,
  createdAt: '2026-09-01T00:00:00Z', version: 1,
};
const held = ['k12:user:student:view', 'k12:user:student:add', 'k12:user:student:edit', 'k12:user:student:delete', 'k12:user:student:import'];

beforeEach(() => resetApp());

describe('student list', () => {
  it('keeps edit and 调班 as row buttons with the app account and delete under 更多, and 批量调班 first on the toolbar', async () => {
    renderScreen('k12.user.student', {
      held,
      api: {
        [`GET ${API}/options`]: () => ({ data: { grades: [], classes: [{ id: 'c2', name: '一年级2班' }] } }),
        [`GET ${API}/page`]: () => ({ data: { records: [student], total: 1, current: 1, size: 10 } }),
      },
    });
    const row = (await screen.findByText('张小明', {}, { timeout: 40_000 })).closest('tr')!;
    expect(within(row).getAllByRole('button').map((b) => b.textContent)).toEqual(['编辑', '调班', '更多']);
    expect(screen.getAllByRole('columnheader', { name: '操作' })).toHaveLength(1);
    const toolbar = [screen.getByTestId('list-add'), screen.getByTestId('list-transfer'), screen.getByTestId('list-import')];
    expect(toolbar[0].compareDocumentPosition(toolbar[1]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(toolbar[1].compareDocumentPosition(toolbar[2]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    const user = userEvent.setup();
    await user.click(within(row).getByTestId('row-more'));
    const menu = await screen.findByTestId('row-more-menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual([expect.any(String), '删除']);
    await user.keyboard('{Escape}');
    await user.click(within(row).getByTestId('row-transfer'));
    expect(await screen.findByTestId('student-transfer-dialog')).toHaveTextContent('张小明');
  }, 60_000);
});
