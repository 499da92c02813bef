import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pageAccess, pageApi } from '@/domain/menus/access';
import { AppProvider } from '@/app/provider';
import { MeetBookButtons } from '@/features/meets/components/book-buttons';
import { permissionsAtom } from '@/lib/permissions';
import { store } from '@/lib/store';
import { fakeApi, resetApp } from '../../app/fake-api';

const manage = pageAccess('k12.sportsMeet.manage');
const points = pageAccess('single.sportsMeet.points');

function buttons(codes: string[], only?: 'pointsTable') {
  store.set(permissionsAtom, new Set(codes));
  const router = createMemoryRouter([{ path: '/', element: <MeetBookButtons family="k12" meetId="m1" only={only} /> }]);
  return render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

describe('the results book and points tables buttons (docs/product-rules.md#meet-documents)', () => {
  beforeEach(() => resetApp());

  it('shows each with its catalogue button; the points page’s export gives the points tables', async () => {
    const one = buttons([manage.view, manage.need('resultsBook')]);
    expect(await screen.findByTestId('download-resultsBook')).toHaveTextContent('成绩册');
    expect(screen.queryByTestId('download-pointsTable')).toBeNull();
    one.unmount();
    const viaPoints = buttons([points.view, points.need('export')], 'pointsTable');
    expect(await screen.findByTestId('download-pointsTable')).toHaveTextContent('积分表');
    expect(screen.queryByTestId('download-resultsBook')).toBeNull();
    viaPoints.unmount();
    buttons([manage.view]);
    await waitFor(() => expect(screen.queryByTestId('download-resultsBook')).toBeNull());
  });

  it('downloads the meet’s PDF from the server', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:book');
    URL.revokeObjectURL = vi.fn();
    const api = fakeApi({ [`GET ${pageApi('k12.sportsMeet.manage')}/m1/results-book.pdf`]: () => ({ raw: new Blob(['%PDF-1.7']) }) });
    buttons([manage.view, manage.need('resultsBook'), manage.need('pointsTable')]);
    await userEvent.setup().click(await screen.findByTestId('download-resultsBook'));
    await waitFor(() => expect(api.find(`GET ${pageApi('k12.sportsMeet.manage')}/m1/results-book.pdf`)).toHaveLength(1));
  });
});
