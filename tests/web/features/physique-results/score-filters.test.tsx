import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { ScoreFilters } from '@/features/physique-results/components/score-filters';
import { fakeApi, resetApp } from '../../app/fake-api';

const YEAR = { id: '77777777-7777-4777-8777-777777777777', academicYear: '2026-2027' };

beforeEach(() => {
  resetApp();
  fakeApi({});
});

const yearBox = () => screen.getByRole('combobox', { name: i18next.t('physiqueResultsUi:filter.schoolYear') });

describe('score filters of a management organisation (the list defaults to the current school year)', () => {
  it('shows the year the server defaulted to, and choosing every year asks for allYears', async () => {
    const onChange = vi.fn();
    render(
      <AppProvider>
        <ScoreFilters family="admin" value={{}} onChange={onChange} defaultYear={YEAR} />
      </AppProvider>,
    );
    expect(yearBox()).toHaveTextContent('2026-2027');
    await userEvent.click(yearBox());
    await userEvent.click(await screen.findByRole('option', { name: i18next.t('components:searchForm.all') }));
    expect(yearBox()).toHaveTextContent(i18next.t('components:searchForm.all'));
    await userEvent.click(screen.getByTestId('score-filter-search'));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ allYears: true, schoolYearId: undefined }));
  });

  it('without a default (a school, or every year asked) the year box shows what the filter names', () => {
    render(
      <AppProvider>
        <ScoreFilters family="admin" value={{ allYears: true }} onChange={() => {}} defaultYear={YEAR} />
      </AppProvider>,
    );
    expect(yearBox()).toHaveTextContent(i18next.t('components:searchForm.all'));
  });
});
