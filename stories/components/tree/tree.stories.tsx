import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { PermissionTree } from '@/components/tree/permission-tree';
import type { TreeNode } from '@/components/tree/tree';
import { TreeSelect } from '@/components/tree/tree-select';
import { TreeTable } from '@/components/tree/tree-table';

const meta = { title: 'Components/Tree', component: PermissionTree } satisfies Meta<typeof PermissionTree>;
export default meta;
type Story = StoryObj<typeof meta>;

function usePermissionTree(): TreeNode[] {
  const { t } = useTranslation(['components', 'menus']);
  return [
    {
      id: 'org',
      label: t('components:demo.org'),
      children: [
        { id: 'class', label: t('components:demo.classPage'), children: ['add', 'edit', 'delete'].map((a) => ({ id: `class#${a}`, label: t(`menus:button.${a}`) })) },
        { id: 'grade', label: t('components:demo.gradePage'), children: ['add', 'delete'].map((a) => ({ id: `grade#${a}`, label: t(`menus:button.${a}`) })) },
      ],
    },
  ];
}

function useOrgTree(): TreeNode[] {
  const { t } = useTranslation('components');
  return [{ id: 'd', label: t('demo.district'), children: [{ id: 'a', label: t('demo.schoolA') }, { id: 'b', label: t('demo.schoolB') }] }];
}

/** Checking a page checks its buttons; a parent with some children checked is half-checked. */
export const Permissions: Story = {
  args: { tree: [], value: new Set(), onChange: () => undefined },
  render: function Render() {
    const { t } = useTranslation('components');
    const tree = usePermissionTree();
    const [value, setValue] = useState<ReadonlySet<string>>(new Set(['class', 'class#add']));
    return <PermissionTree tree={tree} value={value} onChange={setValue} aria-label={t('demo.permissions')} />;
  },
};

/** One organisation of a tree. */
export const Select: Story = {
  args: { tree: [], value: new Set(), onChange: () => undefined },
  render: function Render() {
    const { t } = useTranslation('components');
    const [value, setValue] = useState<string | undefined>('a');
    return <TreeSelect tree={useOrgTree()} value={value} onChange={setValue} aria-label={t('demo.parentOrg')} className="w-72" />;
  },
};

/** Organisations as an expandable table. */
export const Table: Story = {
  args: { tree: [], value: new Set(), onChange: () => undefined },
  render: function Render() {
    const { t } = useTranslation('components');
    const rows = useOrgTree() as (TreeNode & { id: string })[];
    return <TreeTable rows={rows} label={{ header: t('demo.parentOrg'), cell: (r) => r.label }} columns={[]} />;
  },
};
