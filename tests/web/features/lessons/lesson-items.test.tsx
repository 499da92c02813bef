import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LessonRow } from '@/domain/lessons/lessons';
import { formatList } from '@/domain/i18n/list';
import { pageAccess, pageApi } from '@/domain/menus/access';
import { AppProvider } from '@/app/provider';
import { LessonListScreen } from '@/features/lessons/lesson-screens';
import { permissionsAtom } from '@/lib/permissions';
import { store } from '@/lib/store';
import { fakeApi, resetApp } from '../../app/fake-api';

const KEY = 'k12.class.practise';
const row: LessonRow = {
  id: 'l1', type: 'practise', orgName: '实验学校', classId: 'c1', className: '七年级2班', teacherName: '王老师', venueName: null, deviceName: null,
  items: ['rope1min', 'sitUp1min'], startedAt: '2026-11-20T08:00:00+08:00', endedAt: null, studentCount: 30, recordCount: 60, version: 1,
};

describe('names shown as one list', () => {
  beforeEach(() => resetApp());

  it('a class practice lists its items with the locale’s separator, not run together', async () => {
    store.set(permissionsAtom, new Set([pageAccess(KEY).view]));
    fakeApi({ [`GET ${pageApi(KEY)}/page`]: () => ({ data: { records: [row], total: 1, current: 1, size: 10 } }) });
    const router = createMemoryRouter([{ path: '/k12/class/practise', element: <LessonListScreen family="k12" type="practise" /> }], { initialEntries: ['/k12/class/practise'] });
    render(
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    expect(await screen.findByText('1分钟跳绳、1分钟仰卧起坐')).toBeInTheDocument();
    expect(screen.queryByText('1分钟跳绳1分钟仰卧起坐')).toBeNull();
  });

  it('formats in each language', () => {
    expect(formatList(['1分钟跳绳', '1分钟仰卧起坐', '50米跑'], 'zh_cn')).toBe('1分钟跳绳、1分钟仰卧起坐、50米跑');
    expect(formatList(['一分鐘跳繩', '50米跑'], 'zh-TW')).toBe('一分鐘跳繩、50米跑');
    expect(formatList(['Rope skipping', 'Sit-ups'], 'en_us')).toBe('Rope skipping, Sit-ups');
    expect(formatList([], 'zh_cn')).toBe('');
  });
});
