import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planItemsForGrade } from '@/domain/test-plans/items';
import { localDate } from '@/domain/dates';
import { i18next } from '@/lib/i18n';
import { renderScreen } from '../../../support/render-screen';
import { resetApp } from '../../app/fake-api';
import { CLASS_ID, PLAN_ID, planDetail, planOptions, TEACHER_PERMISSIONS, YEAR_ID } from './fixtures';

const API = '/api/busi/web/k12/organizeTest/testManage';

beforeEach(() => {
  resetApp();
});
afterEach(async () => {
  await i18next.changeLanguage('zh_cn');
});

/** The add screen of a teacher's plans, over a server answering these options. */
const openAdd = (options = planOptions()) =>
  renderScreen('k12.test.testManage.add', {
    held: TEACHER_PERMISSIONS,
    api: {
      [`GET ${API}/options`]: () => ({ data: options }),
      [`POST ${API}/add`]: () => ({ data: planDetail() }),
      [`GET ${API}/detail/${PLAN_ID}`]: () => ({ data: planDetail() }),
    },
  });

describe('test plan form (docs/product-rules.md#test-plans)', () => {
  it('shows the schema messages translated, then sends the plan with the default items of the grade', async () => {
    const { calls, router } = openAdd();
    const user = userEvent.setup();
    const form = await screen.findByTestId('plan-form', {}, { timeout: 15_000 });
    // The current school year and semester come preselected with the semester's dates.
    await waitFor(() => expect(within(screen.getByTestId('plan-semester')).getByRole('combobox')).toHaveTextContent('秋季学期'));

    await user.click(screen.getByTestId('plan-submit'));
    expect(await screen.findByText('请填写计划名称')).toBeInTheDocument();
    expect(screen.getByText('请选择测试范围')).toBeInTheDocument();

    await user.type(screen.getByTestId('plan-name-input'), '一二三四五六七八九十一二三四五六七八九十一');
    await user.type(screen.getByTestId('plan-fee'), '0.001');
    await user.click(screen.getByTestId('plan-submit'));
    expect(await screen.findByText('计划名称长度为1-20个字符')).toBeInTheDocument();
    expect(screen.getByText('测试报告费用不能低于0.01元')).toBeInTheDocument();
    expect(calls.find(`POST ${API}/add`)).toHaveLength(0);

    await user.clear(screen.getByTestId('plan-name-input'));
    await user.type(screen.getByTestId('plan-name-input'), '秋季体测');
    await user.clear(screen.getByTestId('plan-fee'));
    await user.type(screen.getByTestId('plan-fee'), '9.996');
    expect(screen.getByTestId('plan-fee-preview')).toHaveTextContent('¥10.00');
    await user.click(within(form).getByLabelText('按班级'));
    await user.click(screen.getAllByTestId('plan-scope-option')[0]);
    // The grade of the class appears with every item the standard sets for it.
    const grade8 = within(await screen.findByTestId('plan-items')).getByText('八年级');
    expect(grade8.closest('fieldset')).toHaveTextContent('立定跳远');

    await user.click(screen.getByTestId('plan-submit'));
    await waitFor(() => expect(calls.find(`POST ${API}/add`)).toHaveLength(1));
    expect(calls.find(`POST ${API}/add`)[0].body).toMatchObject({
      name: '秋季体测',
      schoolYearId: YEAR_ID,
      semesterCode: 13,
      startDate: '2026-09-01',
      endDate: '2027-01-22',
      scopeType: 'class',
      scopeIds: [CLASS_ID],
      items: [{ gradeNo: 8, items: planItemsForGrade(8, '2014') }],
      standardVersion: '2014',
      feeAmount: 9.996,
      feePrecision: 2,
      feeRounding: 'round',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/k12/organizeTest/testManage/check/${PLAN_ID}`));
  }, 30_000);

  it('speaks English when the reader does', async () => {
    await i18next.changeLanguage('en_us');
    openAdd();
    const user = userEvent.setup();
    await screen.findByTestId('plan-form', {}, { timeout: 5000 });
    await user.click(screen.getByTestId('plan-submit'));
    expect(await screen.findByText('Enter a plan name.')).toBeInTheDocument();
    expect(screen.getByText('Choose the grades, classes or colleges to test.')).toBeInTheDocument();
  }, 15_000);

  describe('warns before saving a plan whose end date is already past', () => {
    const daysAgo = (n: number) => localDate(new Date(Date.now() - n * 86_400_000));
    /** Options whose current semester (preselected with its dates) runs from `start` to `end` days ago. */
    const optionsRunning = (start: number, end: number) => {
      const options = planOptions();
      options.schoolYears[0].semesters[0] = { ...options.schoolYears[0].semesters[0], startDate: daysAgo(start), endDate: daysAgo(end) };
      return options;
    };

    it('in Chinese', async () => {
      openAdd(optionsRunning(60, 3));
      const warning = await screen.findByTestId('plan-dates-warning', {}, { timeout: 15_000 });
      expect(warning).toHaveTextContent(`结束日期 ${daysAgo(3)} 早于今天，保存后计划即为“已结束”`);
    }, 30_000);

    it('in English', async () => {
      await i18next.changeLanguage('en_us');
      openAdd(optionsRunning(60, 3));
      expect(await screen.findByTestId('plan-dates-warning', {}, { timeout: 15_000 })).toHaveTextContent('the plan will be saved as ended');
    }, 30_000);

    it('and says nothing while the end date is today or later', async () => {
      openAdd(optionsRunning(3, 0));
      await waitFor(() => expect(within(screen.getByTestId('plan-semester')).getByRole('combobox')).toHaveTextContent('秋季学期'), { timeout: 15_000 });
      expect(screen.queryByTestId('plan-dates-warning')).toBeNull();
    }, 30_000);
  });
});
