import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { pageApi } from '@/domain/menus/access';
import type { TestSheetOptions } from '@/domain/test-day/test-sheets';
import { Button } from '@/components/ui/button';
import { PrintSheetsDialog } from '@/features/test-day/components/print-sheets-dialog';
import { createApiClient, setHttpClient } from '@/lib/api-client';

const options: TestSheetOptions = {
  planName: '2026-2027学年第一学期国家学生体质健康测试',
  classes: [
    { id: 'c1', name: '七年级1班', gradeNo: 7, students: 45 },
    { id: 'c2', name: '七年级2班', gradeNo: 7, students: 44 },
    { id: 'c3', name: '八年级1班', gradeNo: 8, students: 46 },
  ],
  items: ['bmi', 'vitalCapacity', 'run50m', 'sitAndReach', 'standingLongJump', 'pullUp', 'sitUp1min', 'run1000m', 'run800m'],
};

/** The story's stand-in server: the options, and a small PDF after a second for a download. */
function withServer(children: ReactNode) {
  const base = `${pageApi('k12.test.testDay')}/sheets/p1`;
  const adapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
    const url = config.url ?? '';
    const ok = (data: unknown, type = 'application/json') => ({ data, status: 200, statusText: 'OK', headers: new AxiosHeaders({ 'content-type': type }), config });
    if (url === `${base}/options`) return ok({ code: '200', data: options, msg: '' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return ok(new Blob(['%PDF-1.7'], { type: 'application/pdf' }), 'application/pdf');
  };
  setHttpClient(createApiClient({ adapter }));
  return <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;
}

function Demo({ items }: { items?: string[] }) {
  const { t } = useTranslation('menus');
  const [open, setOpen] = useState(true);
  return withServer(
    <>
      <Button onClick={() => setOpen(true)}>{t('button.print')}</Button>
      <PrintSheetsDialog family="k12" planId="p1" items={items} open={open} onOpenChange={setOpen} />
    </>,
  );
}

const meta = {
  title: 'Features/Test day/Print sheets dialog',
  component: PrintSheetsDialog,
  parameters: { layout: 'centered' },
  args: { family: 'k12', planId: 'p1' },
} satisfies Meta<typeof PrintSheetsDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Test cards: every class of the plan or one class. */
export const TestCards: Story = { render: () => <Demo /> };
/** From a station testing BMI and the standing long jump: the roster, with its items ticked. */
export const StationRoster: Story = { render: () => <Demo items={['bmi', 'standingLongJump']} /> };
