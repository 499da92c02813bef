import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { TREND_POINTS, type LiveView } from '@/domain/lesson-load/monitor';
import { pageAccess, pageApi } from '@/domain/menus/access';
import { assignInOrder } from '@/features/lesson-load/monitor/bands-dialog';
import { renderScreen } from '../../../support/render-screen';
import { resetApp } from '../../app/fake-api';

const KEY = 'k12.class.monitor';
const API = pageApi(KEY);
const trend = Array<number | null>(TREND_POINTS).fill(150);
const tile = (id: string, name: string, over: Partial<LiveView['students'][number]>): LiveView['students'][number] => ({
  id, name, band: `HR-${id}`, age: 13, state: 'reading', bpm: 150, lastAt: '2026-11-20T01:00:00Z', zone: 'target', trend, ...over,
});
const view: LiveView = {
  lesson: { id: 'l1', className: '七年级2班', teacherName: '王老师', venueName: '操场', startedAt: '2026-11-20T00:40:00Z', endedAt: null, studentCount: 4, bandCount: 3, openAlerts: 1, version: 2 },
  now: '2026-11-20T01:00:05Z',
  students: [
    tile('s1', '张一', { bpm: 152, zone: 'target' }),
    tile('s2', '李二', { bpm: 205, zone: 'danger' }),
    tile('s3', '王三', { state: 'silent', bpm: 120, zone: null }),
    tile('s4', '赵四', { state: 'noBand', band: null, bpm: null, zone: null, trend: Array<number | null>(TREND_POINTS).fill(null) }),
  ],
  current: { meanBpm: 178.5, inTarget: 0.5, reading: 2 },
  load: { mainMeanBpm: 150, peakBpm: 210, groupDensity: 0.8, individualDensity: 0.62, targetShare: 0.4 },
  alerts: {
    open: [{ id: 'a1', studentId: 's2', studentName: '李二', kind: 'danger', startedAt: '2026-11-20T00:59:00Z', raisedAt: '2026-11-20T00:59:30Z', peakBpm: 210, acknowledgedAt: null, acknowledgedBy: null, note: null }],
    history: [],
  },
};

describe('live lesson monitor', () => {
  beforeEach(() => resetApp());

  it('shows each student with bpm and a zone label (not colour alone), the band states, the class figures and the open alert', async () => {
    renderScreen('k12.class.monitor.live', { held: [pageAccess(KEY).view], params: { lessonId: 'l1' }, api: { [`GET ${API}/l1/live`]: () => ({ data: view }) } });
    const tiles = await screen.findAllByTestId('live-tile', {}, { timeout: 8000 });
    expect(tiles).toHaveLength(4);
    expect(within(tiles[0]).getByText('152')).toBeInTheDocument();
    expect(within(tiles[0]).getByText('目标强度')).toBeInTheDocument();
    expect(within(tiles[1]).getByText('危险')).toBeInTheDocument();
    expect(tiles[1]).toHaveAccessibleName('李二: 205 次/分, 危险');
    expect(within(tiles[2]).getByText('手环无信号')).toBeInTheDocument();
    expect(within(tiles[3]).getByText('未借手环')).toBeInTheDocument();
    const figures = screen.getByTestId('live-figures');
    expect(within(figures).getByText('179')).toBeInTheDocument();
    expect(within(figures).getByText('80%')).toBeInTheDocument();
    expect(within(screen.getByRole('alert')).getByText('李二')).toBeInTheDocument();
    // Without the acknowledge button the alert shows but cannot be acknowledged.
    expect(screen.queryByTestId('alert-acknowledge')).toBeNull();
  });

  it('acknowledges an alert with a note when the role holds the button', async () => {
    const { calls } = renderScreen('k12.class.monitor.live', {
      held: [pageAccess(KEY).view, pageAccess(KEY).need('acknowledge')],
      params: { lessonId: 'l1' },
      api: { [`GET ${API}/l1/live`]: () => ({ data: view }), [`PUT ${API}/l1/alerts/a1/acknowledge`]: () => ({ data: null }) },
    });
    await userEvent.click(await screen.findByTestId('alert-acknowledge'));
    await userEvent.type(await screen.findByRole('textbox', { name: '处理说明' }), '已休息');
    await userEvent.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(calls.find(`PUT ${API}/l1/alerts/a1/acknowledge`).map((c) => c.body)).toEqual([{ note: '已休息' }]));
  });

  it('assigns the free bands in order to the students without one', () => {
    const rows = [{ studentId: 'a', band: '' }, { studentId: 'b', band: 'HR-2' }, { studentId: 'c', band: '' }, { studentId: 'd', band: '' }];
    expect(assignInOrder(rows, ['HR-1', 'HR-2', 'HR-3'])).toEqual([{ studentId: 'a', band: 'HR-1' }, { studentId: 'b', band: 'HR-2' }, { studentId: 'c', band: 'HR-3' }, { studentId: 'd', band: '' }]);
  });
});
