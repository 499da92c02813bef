/**
 * LinkedListScreen on the linked-records kit's paths (server/lib/linked.ts): a screen names its owner and the kit's
 * `path` / `ids`, and the list, candidates, link and unlink calls follow from them. Run over two of its screens: a
 * role's members and a venue's devices.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { renderScreen } from '../../../support/render-screen';
import { resetApp } from '../../app/fake-api';

/** A page with every button, and the hidden route of one of them. */
const pageWithButtons = (key: string) => {
  const e = getCatalogEntry(key)!;
  return [e.permission, ...e.buttons.map((b) => b.permission)];
};

const device = (id: string, serialNo: string, name: string, venueName: string | null = null) => ({
  id,
  name,
  serialNo,
  mac: null,
  venueId: venueName ? 'v0' : null,
  venueName,
  parentId: null,
  parentName: null,
  status: 'online',
  softwareVersion: null,
  activatedAt: null,
  secretIssuedAt: null,
  lastSeenAt: null,
  childCount: 0,
  version: 1,
});
const account = (accountId: string, accountNum: string, name: string) => ({ accountId, accountNum, name, mobile: null });

const CASES = [
  {
    name: "a role's members",
    route: 'k12.user.role.members',
    page: 'k12.user.role',
    api: '/api/busi/web/k12/role/r1',
    owner: { id: 'r1', name: '体育教师', remark: null, identity: 'teacher', builtin: false, memberCount: 1, dataScope: 'org', version: 1, menuIds: [], mobileFunctions: [] },
    path: 'members',
    ids: 'accountIds',
    linked: account('m1', 'teacher01', '王老师'),
    candidate: account('m2', 'staff0001', '李老师'),
    testIds: { list: 'role-members', add: 'role-member-add', remove: 'role-member-remove' },
    addButton: '添加成员',
    confirmRemove: /移除/,
  },
  {
    name: "a venue's devices",
    route: 'k12.venue.place.device',
    page: 'k12.venue.place',
    api: '/api/busi/web/k12/place/r1',
    owner: { id: 'r1', name: '田径场', type: 'track', code: '01', deviceCount: 1, version: 1 },
    path: 'devices',
    ids: 'deviceIds',
    linked: device('m1', 'SN-0001', '操场成绩大屏', '田径场'),
    candidate: device('m2', 'SN-0002', '跳远测试仪', '体育馆'),
    testIds: { list: 'venue-devices', add: 'venue-device-attach', remove: 'venue-device-detach' },
    addButton: '选择设备',
    confirmRemove: /移出/,
  },
] as const;

beforeEach(() => resetApp());

describe.each(CASES)('LinkedListScreen: $name', (c) => {
  const render = () => {
    let linked = [c.linked] as unknown[];
    const keyOf = (r: unknown) => ('accountId' in (r as object) ? (r as { accountId: string }).accountId : (r as { id: string }).id);
    return renderScreen(c.route, {
      held: pageWithButtons(c.page),
      params: { id: c.owner.id },
      api: {
        [`GET ${c.api}`]: () => ({ data: c.owner }),
        [`GET ${c.api}/${c.path}`]: () => ({ data: { records: linked, total: linked.length, current: 1, size: 10 } }),
        [`GET ${c.api}/candidates`]: () => ({ data: [c.candidate] }),
        [`POST ${c.api}/${c.path}`]: () => {
          linked = [...linked, c.candidate];
          return { data: [c.candidate] };
        },
        [`DELETE ${c.api}/${c.path}/m1`]: () => {
          linked = linked.filter((r) => keyOf(r) !== 'm1');
          return { data: null };
        },
      },
    });
  };

  it('lists the linked records from the kit path, links the ticked candidates and unlinks a row', async () => {
    const { calls } = render();
    const list = await screen.findByTestId(c.testIds.list, {}, { timeout: 15_000 });
    expect(await within(list).findByText(c.linked.name)).toBeInTheDocument();
    expect(calls.find(`GET ${c.api}/${c.path}`).at(-1)!.config.params).toMatchObject({ current: 1, size: 10 });

    const user = userEvent.setup();
    await user.click(within(list).getByRole('button', { name: c.addButton }));
    const dialog = await screen.findByTestId(c.testIds.add);
    await user.click(await within(dialog).findByTestId(`candidate-${'serialNo' in c.candidate ? c.candidate.serialNo : c.candidate.accountNum}`));
    await user.click(within(dialog).getByTestId(`${c.testIds.add}-confirm`));
    await waitFor(() => expect(calls.find(`POST ${c.api}/${c.path}`).map((x) => x.body)).toEqual([{ [c.ids]: ['m2'] }]));
    expect(await within(list).findByText(c.candidate.name)).toBeInTheDocument();

    const row = within(list).getByText(c.linked.name).closest('tr')!;
    await user.click(within(row).getByTestId(c.testIds.remove));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: c.confirmRemove }));
    await waitFor(() => expect(calls.find(`DELETE ${c.api}/${c.path}/m1`)).toHaveLength(1));
    await waitFor(() => expect(within(list).queryByText(c.linked.name)).not.toBeInTheDocument());
  });
});
