import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PermissionTree } from '@/components/tree/permission-tree';
import { checkState, withAncestors, type TreeNode } from '@/components/tree/tree';

const tree: TreeNode[] = [
  {
    id: 'org',
    label: '组织管理',
    children: [
      { id: 'class', label: '班级管理', children: [{ id: 'class#add', label: '新增' }, { id: 'class#delete', label: '删除' }] },
      { id: 'grade', label: '年级管理' },
    ],
  },
];

function Harness({ initial = [] as string[] }) {
  const [value, setValue] = useState<ReadonlySet<string>>(new Set(initial));
  return (
    <>
      <PermissionTree tree={tree} value={value} onChange={setValue} aria-label="权限" />
      <output data-testid="value">{[...value].sort().join(',')}</output>
    </>
  );
}

describe('PermissionTree', () => {
  it('checking a page checks its buttons; its group becomes half-checked', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('checkbox', { name: '班级管理' }));
    expect(screen.getByTestId('value')).toHaveTextContent('class,class#add,class#delete');
    expect(screen.getByRole('checkbox', { name: '新增' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '组织管理' })).toHaveAttribute('data-state', 'indeterminate');
  });

  it('unchecking one button half-checks its page; checking the group checks everything; keyboard Space toggles', async () => {
    render(<Harness initial={['class', 'class#add', 'class#delete']} />);
    await userEvent.click(screen.getByRole('checkbox', { name: '删除' }));
    expect(screen.getByRole('checkbox', { name: '班级管理' })).toHaveAttribute('data-state', 'indeterminate');
    screen.getByRole('checkbox', { name: '组织管理' }).focus();
    await userEvent.keyboard(' ');
    expect(screen.getByTestId('value')).toHaveTextContent('class,class#add,class#delete,grade,org');
    await userEvent.keyboard(' ');
    expect(screen.getByTestId('value')).toHaveTextContent(/^$/);
  });

  it('states and ancestors: a button alone half-checks its page and sends its page and group', () => {
    const only = new Set(['class#add']);
    expect(checkState(tree[0].children![0], only)).toBe('indeterminate');
    expect([...withAncestors(tree, only)].sort()).toEqual(['class', 'class#add', 'org']);
  });
});
