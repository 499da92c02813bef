import type { Meta, StoryObj } from '@storybook/react-vite';
import { createStore, Provider } from 'jotai';
import { useTranslation } from 'react-i18next';
import { fn } from 'storybook/test';
import { pageAccess } from '@/domain/menus/access';
import { RowActions } from '@/components/list/row-actions';
import { permissionsAtom } from '@/lib/permissions';

const access = pageAccess('k12.org.class');
const store = createStore();
store.set(permissionsAtom, new Set([access.need('edit'), access.need('delete')]));

const meta = {
  title: 'Components/RowActions',
  component: RowActions<{ id: string }>,
  decorators: [(Story) => <Provider store={store}>{Story()}</Provider>],
  args: { row: { id: '1' }, pageKey: 'k12.org.class', actions: [] },
} satisfies Meta<typeof RowActions<{ id: string }>>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Edit and a delete that asks first; labels and permissions from the catalogue. */
export const Default: Story = {
  render: function Render(args) {
    const { t } = useTranslation('school');
    return (
      <RowActions
        {...args}
        actions={[
          { action: 'edit', onClick: fn() },
          { action: 'delete', destructive: true, confirm: () => ({ title: t('class.deleteTitle', { name: '1' }), description: t('class.deleteText') }), onClick: fn() },
        ]}
      />
    );
  },
};

/** A row with more actions than `maxInline`: the first two stay buttons, the rest open from "更多" (keyboard too). */
export const Overflow: Story = {
  render: function Render(args) {
    const { t } = useTranslation('school');
    return (
      <RowActions
        {...args}
        maxInline={3}
        actions={[
          { action: 'edit', onClick: fn() },
          { action: 'edit', label: '调班', testId: 'row-transfer', onClick: fn() },
          { action: 'edit', label: '开通 App 账号', testId: 'app-account-give', onClick: fn() },
          { action: 'delete', destructive: true, confirm: () => ({ title: t('class.deleteTitle', { name: '1' }), description: t('class.deleteText') }), onClick: fn() },
        ]}
      />
    );
  },
};
