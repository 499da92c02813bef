import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CertificateRow } from '@/domain/meets/documents';
import { pageAccess } from '@/domain/menus/access';
import { AppProvider } from '@/app/provider';
import { CertificateListScreen } from '@/features/meets/components/document-screens';
import { permissionsAtom } from '@/lib/permissions';
import { store } from '@/lib/store';
import { fakeApi, resetApp } from '../../app/fake-api';

const access = pageAccess('single.sportsMeet.certificate');
const row = { id: 'c1', name: '田径获奖证书', orientation: 'landscape', fields: [], stampName: null } as unknown as CertificateRow;

async function listWith(codes: string[]) {
  store.set(permissionsAtom, new Set(codes));
  fakeApi({ 'GET /api/busi/web/k12/sportsMeet/certificates/page': () => ({ data: { records: [row], total: 1, current: 1, size: 10 } }) });
  const router = createMemoryRouter([{ path: '/single/sportsMeet/certificate', element: <CertificateListScreen family="k12" /> }], { initialEntries: ['/single/sportsMeet/certificate'] });
  const view = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  const cell = await screen.findByText('田径获奖证书');
  return { view, row: cell.closest('tr')! };
}

describe('certificate issuing and the download button', () => {
  beforeEach(() => resetApp());

  it('shows the issue action only to a role holding both issue and download', async () => {
    const without = await listWith([access.view, access.need('issue'), access.need('edit')]);
    expect(within(without.row).getByTestId('row-edit')).toBeInTheDocument();
    expect(within(without.row).queryByTestId('row-issue')).toBeNull();
    without.view.unmount();

    const held = await listWith([access.view, access.need('issue'), access.need('download')]);
    expect(within(held.row).getByTestId('row-issue')).toBeInTheDocument();
  });
});
