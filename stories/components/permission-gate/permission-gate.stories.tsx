import type { Meta, StoryObj } from '@storybook/react-vite';
import { createStore, Provider } from 'jotai';
import { useTranslation } from 'react-i18next';
import { PermissionGate } from '@/components/permission-gate/permission-gate';
import { Button } from '@/components/ui/button';
import { permissionsAtom } from '@/lib/permissions';

const store = createStore();
store.set(permissionsAtom, new Set(['student:add', 'student:edit']));

const meta = {
  title: 'Components/PermissionGate',
  component: PermissionGate,
  args: { permission: 'student:add', children: null },
  decorators: [(Story) => <Provider store={store}>{Story()}</Provider>],
} satisfies Meta<typeof PermissionGate>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The role holds student:add and student:edit but not student:delete: the delete button is removed. */
export const Buttons: Story = {
  render: function Render() {
    const { t } = useTranslation('components');
    return (
      <div className="flex gap-2">
        <PermissionGate permission="student:add">
          <Button>{t('demo.add')}</Button>
        </PermissionGate>
        <PermissionGate permission="student:edit">
          <Button variant="outline">{t('demo.edit')}</Button>
        </PermissionGate>
        <PermissionGate permission="student:delete" fallback={<Button variant="destructive" disabled>{t('demo.delete')}</Button>}>
          <Button variant="destructive">{t('demo.delete')}</Button>
        </PermissionGate>
      </div>
    );
  },
};
